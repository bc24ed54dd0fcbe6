"""Names as MariaDB validates them, before anything looks them up or touches the datadir:
databases (USE, COM_INIT_DB, the handshake, GRANT ... ON db.*), users, hosts and roles.

Rules (MariaDB 10.11, measured):
- Identifiers are utf8mb3: bytes that are not valid in the client's character set, or
  4-byte characters, are 1300 "Invalid utf8mb3 character string: '\\xF0\\x9F...'" quoting the
  bytes (printable ASCII as is, the rest as \\xNN).
- A database name is at most 64 characters, has no NUL and does not end with a space, else 1102
  "Incorrect database name". (CREATE DATABASE is checked by the engine with the same rules,
  plus what a file name cannot hold; engine/sqlite/storage.py.)
- A user name is at most 128 characters, a host name at most 255 (1470 "String '...' is too
  long for user name (should be no longer than 128)"); both are valid text (1300).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rampmeter import errors
from rampmeter.errors import ServerError
from rampmeter.sql import charsets

if TYPE_CHECKING:
    from rampmeter.session.session import Session

USER_NAME_MAX = 128   # USERNAME_CHAR_LENGTH
HOST_NAME_MAX = 255   # HOSTNAME_LENGTH
DB_NAME_MAX = 64      # NAME_CHAR_LEN


def _invalid_text(name: str) -> bool:
    return not charsets.is_valid(name) or any(ord(ch) > 0xFFFF for ch in name)


def _shown_bytes(s: Session | None, name: str) -> tuple[str, str]:
    cs = s.client_charset() if s is not None else charsets.UTF8MB4
    raw = cs.encode(name)
    shown = "".join(chr(b) if 0x20 <= b <= 0x7E else f"\\x{b:02X}" for b in raw)
    return cs.name, shown


def invalid_string(s: Session | None, name: str) -> ServerError:
    cs_name, shown = _shown_bytes(s, name)
    return ServerError(errors.ER_INVALID_CHARACTER_STRING, cs_name, shown)


def check_database_name(s: Session | None, name: str) -> None:
    if not name:
        raise ServerError(errors.ER_NO_DB_ERROR)
    if _invalid_text(name):
        raise invalid_string(s, name)
    if "\0" in name or len(name) > DB_NAME_MAX or name.endswith(" "):
        raise ServerError(errors.ER_WRONG_DB_NAME, name.split("\0")[0])


def check_account_name(s: Session | None, user: str, host: str) -> None:
    for text in (user, host):
        if _invalid_text(text):
            raise invalid_string(s, text)
    if len(user) > USER_NAME_MAX:
        raise ServerError(errors.ER_WRONG_STRING_LENGTH, user, "user name", USER_NAME_MAX)
    if len(host) > HOST_NAME_MAX:
        raise ServerError(errors.ER_WRONG_STRING_LENGTH, host, "host name", HOST_NAME_MAX)
