"""MariaDB's collations as SQLite collations: a text column of a `_ci` collation is declared
`COLLATE <its name>` (catalog.py), and `x COLLATE name` / ORDER BY keys use the same, so
=, <, ORDER BY, GROUP BY, DISTINCT and UNIQUE weigh strings as MariaDB does.

Rules:
- Every collation MariaDB 10.11 lists (charsets.COLLATIONS) is registered on each SQLite
  connection under its own name (`install`). A comparison weighs both strings with the
  collation's key function and compares the keys.
- 8-bit `_ci` / `_cs` collations use MariaDB's own sort orders (byte -> weight tables of
  /usr/share/mysql/charsets/*.xml, sql/collation_tables.py) on the string's bytes in that
  character set; one without a table folds case as the Unicode ones do.
- The Unicode `_general_ci` collations (utf8mb3, utf8mb4, ucs2, utf16, utf16le, utf32): a
  character weighs as its base letter, upper-cased ('é' = 'E', 'a' = 'A', 'ß' = 'S'), so
  letters sort before '[' .. '`' as in MariaDB (SQLite's NOCASE folds to lower case and sorts
  them after); utf8mb4_general_ci weighs every supplementary character alike (U+FFFD). The
  UCA collations (`_unicode_ci`, `_unicode_520_ci`, the language ones) are approximated the
  same way, with 'ß' as 'SS'; their real weights are not reproduced.
- Multi-byte Asian `_ci` collations: the string's bytes with ASCII letters upper-cased.
- `_bin`: code points (Unicode sets) or the bytes in the character set (the others).
- PAD SPACE (every collation but the `_nopad_` ones): trailing spaces do not count, and the
  shorter string weighs as if padded with spaces ('a\\0' < 'a').
- A key function must never raise: SQLite would report an error for the whole statement.
"""

from __future__ import annotations

import functools
import unicodedata
from collections.abc import Callable
from typing import Any

from rampmeter.sql import charsets

Key = Callable[[str], Any]

_UNICODE = frozenset({"utf8mb3", "utf8mb4", "ucs2", "utf16", "utf16le", "utf32"})
_ASCII_UPPER = str.maketrans("abcdefghijklmnopqrstuvwxyz", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")
_FOLDED: dict[str, str] = {}


def _fold_char(c: str) -> str:
    """A character's weight in the _general_ci collations: its base letter, upper-cased."""
    found = _FOLDED.get(c)
    if found is None:
        if c == "ß":
            found = "S"
        else:
            base = unicodedata.normalize("NFD", c)[:1] or c
            up = base.upper()
            found = up if len(up) == 1 else base
        if len(_FOLDED) < 65536:
            _FOLDED[c] = found
    return found


def general_ci(s: str) -> str:
    if s.isascii():
        return s.upper()
    return "".join(map(_fold_char, s))


def _general_ci_bmp(s: str) -> str:
    """utf8mb4_general_ci & co.: every character past U+FFFF weighs as U+FFFD."""
    if s.isascii():
        return s.upper()
    return "".join("\ufffd" if ord(c) > 0xFFFF else _fold_char(c) for c in s)


def _unicode_ci(s: str) -> str:
    if s.isascii():
        return s.upper()
    return "".join("SS" if c == "ß" else _fold_char(c) for c in s)


def _key(coll: charsets.Collation) -> tuple[Key, Any]:
    """The collation's key function and the weight of a space (for PAD SPACE)."""
    cs = charsets.charset(coll.charset)
    if coll.name == "binary" or cs is None:
        return (lambda s: s), " "
    if cs.name in _UNICODE:
        if coll.binary:
            return (lambda s: s), " "
        if "_general" in coll.name:
            return (_general_ci_bmp if cs.name != "utf8mb3" else general_ci), " "
        return _unicode_ci, " "
    encode = cs.encode
    if coll.binary:
        return encode, b" "
    from rampmeter.sql.collation_tables import SORT_ORDERS
    # a _nopad_ collation weighs as its PAD SPACE twin (dec8_swedish_nopad_ci: dec8_swedish_ci)
    table = SORT_ORDERS.get(coll.name.replace("_nopad", ""))
    if table is not None:
        weights = table

        def weighed(s: str) -> bytes:
            return encode(s).translate(weights)
        return weighed, bytes((table[0x20],))
    if cs.maxlen > 1:  # big5, sjis, ujis, gbk, euckr...: ASCII case folded, then bytes
        def folded(s: str) -> bytes:
            return encode(s.translate(_ASCII_UPPER))
        return folded, b" "
    return general_ci, " "


def comparison(coll: charsets.Collation) -> Callable[[str, str], int]:
    key, pad = _key(coll)
    nopad = "_nopad_" in coll.name or coll.name == "binary"

    def compare(a: str, b: str) -> int:
        try:
            if nopad:
                x, y = key(a), key(b)
            else:
                x, y = key(a.rstrip(" ")), key(b.rstrip(" "))
                if len(x) != len(y):
                    n = max(len(x), len(y))
                    x = x + pad * (n - len(x))
                    y = y + pad * (n - len(y))
        except Exception:  # noqa: BLE001 - a collation must not fail the statement
            x, y = a, b
        return (x > y) - (x < y)
    return compare


_COMPARISONS: dict[str, Callable[[str, str], int]] = {}


@functools.cache
def member_key(name: str | None) -> Callable[[str], Any]:
    """How an ENUM / SET member is matched under the column's collation (exactly, no
    padding: find_type / find_set compare the value's item with each member); a _ci one
    folds case, a _bin one does not. Unknown: case folded."""
    coll = charsets.collation(name) if name else None
    if coll is None:
        return str.lower
    key = _key(coll)[0]

    def safe(s: str) -> Any:
        try:
            return key(s)
        except Exception:  # noqa: BLE001 - a character the set cannot hold: as it is
            return s
    return safe


def named_comparison(name: str) -> Callable[[str, str], int] | None:
    """The comparison of the MariaDB collation of that name (None for an unknown name)."""
    if name not in _COMPARISONS:
        coll = charsets.collation(name)
        if coll is None:
            return None
        _COMPARISONS[name] = comparison(coll)
    return _COMPARISONS[name]


def install(conn: Any) -> None:
    """Register every MariaDB collation on a sqlite3 connection, under its name."""
    if len(_COMPARISONS) < len(charsets.COLLATIONS):
        for name, coll in charsets.COLLATIONS.items():
            if name not in _COMPARISONS:
                _COMPARISONS[name] = comparison(coll)
    for name, fn in _COMPARISONS.items():
        conn.create_collation(name, fn)


# The default collations of the character sets most tables use keep SQLite's own NOCASE (ASCII
# case folded, in C): a collation registered from Python costs a call into Python per
# comparison, which made ORDER BY / DISTINCT of sysbench's oltp_read_only 38 % slower
# (docs/benchmarks.md, "Collations"). What NOCASE gets wrong for these: accents count ('e' <
# 'é'), non-ASCII case counts, and [ \ ] ^ _ ` sort after the letters, not before.
FAST_DEFAULTS = frozenset({"utf8mb4_general_ci", "utf8mb3_general_ci", "latin1_swedish_ci"})


def sqlite_name(collation: str | None) -> str:
    """The SQLite collation a column or COLLATE of this MariaDB collation uses."""
    coll = charsets.collation(collation or "")
    if coll is None or coll.name in FAST_DEFAULTS:
        return "NOCASE"
    return coll.name


_BYTE_KEYS: dict[str, Key | None] = {}


def byte_key(collation: str) -> Key | None:
    """The key function of a collation whose weights are bytes (the 8-bit and multi-byte
    ones, and the Unicode _bin ones), for sorting outside SQLite (GROUP_CONCAT ... ORDER BY);
    None for the others."""
    if collation not in _BYTE_KEYS:
        coll = charsets.collation(collation)
        found: Key | None = None
        if coll is not None and coll.charset not in _UNICODE and coll.charset != "binary":
            key, _pad = _key(coll)
            found = key
        elif coll is not None and coll.binary and coll.name != "binary":
            found = _code_points  # a Unicode _bin collation: code point order
        _BYTE_KEYS[collation] = found
    return _BYTE_KEYS[collation]


def _code_points(s: str) -> bytes:
    return s.encode("utf-8", "surrogatepass")  # UTF-8 sorts as its code points


def collation_key(value: Any, collation: Any) -> Any:
    """rm_collkey(v, collation): v's weight in that collation (trailing spaces dropped)."""
    if not isinstance(value, str) or not isinstance(collation, str):
        return value
    key = byte_key(collation)
    if key is None:
        return value
    try:
        return key(value.rstrip(" "))
    except Exception:  # noqa: BLE001 - a key must not fail the statement
        return value
