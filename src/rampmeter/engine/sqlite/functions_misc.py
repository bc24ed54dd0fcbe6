"""MariaDB's information, network, encryption and control-flow functions that SQLite lacks
(the library, funclib.py).

Rules:
- INET_ATON / INET_NTOA / INET6_ATON / INET6_NTOA / IS_IPV4 / IS_IPV6 read addresses as
  MariaDB does (INET_ATON('127.1') is 2130706433; a bad address is NULL).
- PASSWORD() is mysql_native_password's hash, as the account code stores it; AES_ENCRYPT /
  AES_DECRYPT are MariaDB's AES-128-ECB with its key folding and PKCS#7 padding.
- NAME_CONST(name, value) is the value; LAST_VALUE(a, b, ...) the last argument.
"""

from __future__ import annotations

import functools
import hashlib
import ipaddress
import os
import re
import threading
from typing import Any

from rampmeter.engine import types as T
from rampmeter.engine.sqlite.funclib import sqlfunction
from rampmeter.engine.types import SqlType

INT1 = SqlType("int", 1)


def _text(v: Any) -> str:
    return v.decode("utf-8", "surrogateescape") if isinstance(v, bytes) else str(v)


def _data(v: Any) -> bytes:
    return v if isinstance(v, bytes) else str(v).encode("utf-8", "surrogateescape")


def _first_type(types: list[SqlType | None]) -> SqlType | None:
    return types[-1] if types else None


@sqlfunction("NAME_CONST", 2, lambda types: types[1] if len(types) > 1 else None)
def name_const(name: Any, value: Any) -> Any:
    return value


@sqlfunction("LAST_VALUE", (1, -1), _first_type)
def last_value(*args: Any) -> Any:
    return args[-1]


@sqlfunction("INET_ATON", 1, T.UBIGINT)
def inet_aton(v: Any) -> Any:
    if v is None:
        return None
    text = _text(v).strip()
    if not re.fullmatch(r"\d{1,3}(\.\d{1,3}){0,3}", text):
        return None
    parts = [int(p) for p in text.split(".")]
    if any(p > 255 for p in parts):
        return None
    value = 0
    for p in parts[:-1]:
        value = (value << 8) | p
    return (value << 8 * (4 - len(parts) + 1)) | parts[-1] if len(parts) > 1 else parts[0]


@sqlfunction("INET_NTOA", 1, T.varchar(31))
def inet_ntoa(v: Any) -> Any:
    if v is None:
        return None
    try:
        n = int(float(_text(v))) if not isinstance(v, int) else v
    except ValueError:
        return None
    if not 0 <= n <= 0xFFFFFFFF:
        return None
    return ".".join(str(n >> s & 0xFF) for s in (24, 16, 8, 0))


@sqlfunction("INET6_ATON", 1, T.varbinary(16))
def inet6_aton(v: Any) -> Any:
    if v is None:
        return None
    try:
        return ipaddress.ip_address(_text(v).strip()).packed
    except ValueError:
        return None


@sqlfunction("INET6_NTOA", 1, T.varchar(39))
def inet6_ntoa(v: Any) -> Any:
    if not isinstance(v, bytes) or len(v) not in (4, 16):
        return None
    return str(ipaddress.ip_address(v))


@sqlfunction("IS_IPV4", 1, INT1)
def is_ipv4(v: Any) -> Any:
    try:
        return int(v is not None and isinstance(ipaddress.ip_address(_text(v)),
                                                ipaddress.IPv4Address))
    except ValueError:
        return 0


@sqlfunction("IS_IPV6", 1, INT1)
def is_ipv6(v: Any) -> Any:
    try:
        return int(v is not None and isinstance(ipaddress.ip_address(_text(v)),
                                                ipaddress.IPv6Address))
    except ValueError:
        return 0


@sqlfunction("PASSWORD", 1, T.varchar(41), host=True)
def password(host: Any, v: Any) -> Any:
    """mysql_native_password's hash; with old_passwords on, OLD_PASSWORD's. NULL hashes as
    '' (MariaDB's Item_func_password makes an empty result of it)."""
    if v is None:
        return ""
    if _flag(host.context.system_variable("old_passwords")):
        return old_password(v)
    data = _data(v)
    if not data:
        return ""
    return "*" + hashlib.sha1(hashlib.sha1(data).digest()).hexdigest().upper()


def _flag(v: Any) -> bool:
    return str(v).upper() in ("1", "ON", "TRUE")


_CRYPT_LOCK = threading.Lock()   # crypt(3) keeps its answer in a static buffer (LOCK_crypt)
_SALT = "./0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"


@functools.cache
def _libcrypt() -> Any:
    """The C library's crypt(3), or None where there is none (ENCRYPT is then NULL, as in a
    MariaDB built without it)."""
    import ctypes
    import ctypes.util
    name = ctypes.util.find_library("crypt")
    if name is None:
        return None
    try:
        fn = ctypes.CDLL(name).crypt
    except (OSError, AttributeError):
        return None
    fn.argtypes = [ctypes.c_char_p, ctypes.c_char_p]
    fn.restype = ctypes.c_char_p
    return fn


@sqlfunction("ENCRYPT", (1, 2), T.varbinary(13), host=True, deterministic=False)
def encrypt(host: Any, v: Any, salt: Any = ...) -> Any:
    """Unix crypt(3) of the string (Item_func_encrypt): without a salt, two characters made
    of the statement's time; a salt shorter than 2 bytes, or NULL, is NULL; '' is ''."""
    if v is None:
        return None
    data = _data(v)
    if not data:
        return b""
    if salt is ...:
        t = int(host.statement_utc().timestamp())
        key = (_SALT[t & 0x3F] + _SALT[(t >> 5) & 0x3F]).encode()
    elif salt is None:
        return None
    else:
        key = _data(salt)
        if len(key) < 2:
            return None
    fn = _libcrypt()
    if fn is None:
        return None
    with _CRYPT_LOCK:
        out = fn(data.split(b"\0")[0], key.split(b"\0")[0])
    return None if out is None else bytes(out)


@sqlfunction("OLD_PASSWORD", 1, T.varchar(16))
def old_password(v: Any) -> Any:
    """MySQL 3.23's password hash (password.c hash_password): two 31-bit words in hex; spaces
    and tabs do not count; '' for an empty password."""
    if v is None:
        return None
    from rampmeter.protocol.auth import hash_323  # the one the mysql_old_password login uses

    data = _data(v)
    if not data:
        return ""
    nr, nr2 = hash_323(data)
    return f"{nr:08x}{nr2:08x}"


def _aes_key(key: bytes) -> bytes:
    folded = bytearray(16)
    for i, b in enumerate(key):
        folded[i % 16] ^= b
    return bytes(folded)


@sqlfunction("AES_ENCRYPT", 2, T.varbinary(255))
def aes_encrypt(v: Any, key: Any) -> Any:
    if v is None or key is None:
        return None
    from cryptography.hazmat.primitives import padding
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    padder = padding.PKCS7(128).padder()
    data = padder.update(_data(v)) + padder.finalize()
    enc = Cipher(algorithms.AES(_aes_key(_data(key))), modes.ECB()).encryptor()
    return enc.update(data) + enc.finalize()


@sqlfunction("AES_DECRYPT", 2, T.varbinary(255))
def aes_decrypt(v: Any, key: Any) -> Any:
    if v is None or key is None:
        return None
    from cryptography.hazmat.primitives import padding
    from cryptography.hazmat.primitives.ciphers import Cipher, algorithms, modes
    data = _data(v)
    if not data or len(data) % 16:
        return None
    dec = Cipher(algorithms.AES(_aes_key(_data(key))), modes.ECB()).decryptor()
    try:
        plain = dec.update(data) + dec.finalize()
        unpadder = padding.PKCS7(128).unpadder()
        return unpadder.update(plain) + unpadder.finalize()
    except ValueError:
        return None


@sqlfunction("RANDOM_BYTES", 1, T.varbinary(1024), deterministic=False)
def random_bytes(n: Any) -> Any:
    if n is None:
        return None
    k = int(float(_text(n)))
    return os.urandom(k) if 1 <= k <= 1024 else None
