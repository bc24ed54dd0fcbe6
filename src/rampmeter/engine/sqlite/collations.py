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
  root UCA collations (`_unicode_ci`, `_unicode_520_ci` and their `_nopad_` twins) weigh
  by MariaDB's primary weights (sql/uca.py, without contractions); the language ones are
  approximated as `_general_ci`, with 'ß' as 'SS'.
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

from rampmeter.sql import charsets, uca

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
        version = uca.version_of(coll.name)
        if version is not None:  # the root UCA collations: their primary weights
            def uca_key(s: str, v: str = version) -> bytes:
                return b"".join(w.to_bytes(2, "big") for w in uca.weights(s, v))
            return uca_key, uca.SPACE[version].to_bytes(2, "big")
        return _unicode_ci, " "
    encode = cs.encode
    if coll.binary:
        return encode, b" "
    from rampmeter.sql.collation_tables import SORT_ORDERS
    if coll.name == "latin1_german2_ci":
        return _german2, b" "
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


# latin1_german2_ci (DIN 2, phone-book order): each latin1 byte's weight, read off MariaDB 10.11
# (WEIGHT_STRING of every byte); Ä, Ö, Ü, ä, ö, ü and ß weigh two bytes (AE, OE, UE, SS).
_GERMAN2_SINGLE = bytes.fromhex(
    '000102030405060708090A0B0C0D0E0F101112131415161718191A1B1C1D1E1F'
    '202122232425262728292A2B2C2D2E2F303132333435363738393A3B3C3D3E3F'
    '404142434445464748494A4B4C4D4E4F505152535455565758595A5B5C5D5E5F'
    '604142434445464748494A4B4C4D4E4F505152535455565758595A7B7C7D7E7F'
    '808182838485868788898A8B8C8D8E8F909192939495969798999A9B9C9D9E9F'
    'A0A1A2A3A4A5A6A7A8A9AAABACADAEAFB0B1B2B3B4B5B6B7B8B9BABBBCBDBEBF'
    '4141414141415C434545454549494949444E4F4F4F4F4FD7D85555555559DE53'
    '4141414141415C434545454549494949444E4F4F4F4F4FF7D85555555559DE59')
_GERMAN2_EXPANDED = {0xC4: b"AE", 0xD6: b"OE", 0xDC: b"UE", 0xDF: b"SS", 0xE4: b"AE",
                     0xF6: b"OE", 0xFC: b"UE"}
_GERMAN2 = [_GERMAN2_EXPANDED.get(b, bytes((_GERMAN2_SINGLE[b],))) for b in range(256)]
_LATIN1 = charsets.CHARSETS["latin1"]
# LIKE by latin1_german2_ci weighs one byte at a time by MariaDB's sort_order_latin1_de
# (my_wildcmp_8bit): the single weights above, except that Ä, Ö, Ü and ß weigh as themselves
# and ä, ö, ü as Ä, Ö, Ü ('ö' LIKE 'o' is 0, 'ö' LIKE 'Ö' is 1; measured on 10.11).
_GERMAN2_LIKE = bytes(_GERMAN2_SINGLE[b] if b not in _GERMAN2_EXPANDED else
                      (b if b < 0xE0 else b - 0x20) for b in range(256))


def _german2(s: str) -> bytes:
    data = _LATIN1.encode(s)
    if not any(b in _GERMAN2_EXPANDED for b in data):
        return data.translate(_GERMAN2_SINGLE)
    return b"".join(map(_GERMAN2.__getitem__, data))


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
# latin1_swedish_ci is exact (its table, PAD SPACE): it is mtr's default (latin1 tables), not
# sysbench's (utf8mb4), and NOCASE's errors there ('a' <> 'a ', 'ä' < 'å') failed mtr binary.
FAST_DEFAULTS = frozenset({"utf8mb4_general_ci", "utf8mb3_general_ci"})


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


# --- LIKE by a collation ------------------------------------------------------------------------
# MariaDB's LIKE (my_wildcmp) weighs the value and the pattern character by character in the
# comparison's collation: 'Günter' LIKE 'GÜN%' in utf8mb4_general_ci, 'ä' LIKE 'Ä' in
# latin1_german1_ci. `like_fold` gives a collation's one-character weight as one character, so
# a LIKE matches on the folded strings (rm_like_coll, functions.py); a _cs collation without a
# table of its own (the Czech ones) matches case-sensitively.
_LIKE_FOLDS: dict[str, Callable[[str], str] | None] = {}


def like_fold(collation: str) -> Callable[[str], str] | None:
    """The string folded character by character as the collation weighs it (None: matched as
    it is, a binary or _bin collation; or an unknown name)."""
    if collation in _LIKE_FOLDS:
        return _LIKE_FOLDS[collation]
    coll = charsets.collation(collation)
    cs = charsets.charset(coll.charset) if coll is not None else None
    fold: Callable[[str], str] | None = None
    if coll is None or cs is None or coll.binary or coll.name == "binary":
        fold = None
    elif cs.name in _UNICODE and uca.version_of(coll.name) is not None:
        fold = _uca_fold(uca.version_of(coll.name) or "")
    elif cs.name in _UNICODE:
        fold = _general_ci_bmp if "_general" in coll.name and cs.name != "utf8mb3" \
            else general_ci
    else:
        from rampmeter.sql.collation_tables import SORT_ORDERS
        table = SORT_ORDERS.get(coll.name.replace("_nopad", ""))
        if coll.name == "latin1_german2_ci":
            table = _GERMAN2_LIKE
        if table is not None:
            fold = _table_fold(cs, table)
        elif cs.maxlen > 1:
            fold = _ascii_upper
        elif not coll.name.endswith("_cs"):
            fold = general_ci
    _LIKE_FOLDS[collation] = fold
    return fold


def _uca_fold(version: str) -> Callable[[str], str]:
    """A UCA collation's characters as one symbol per distinct weight sequence (MariaDB's
    my_wildcmp_uca compares a character's weights): 'a' and 'A' become the same symbol. The
    symbols are fixed (uca.symbols: plane 15's private use characters, one per weight
    sequence of MariaDB's table); a character of implicit weights stands for itself."""
    symbols = uca.symbols(version)

    def fold_char(c: str) -> str:
        return symbols.get(uca.char_weights(c, version), c)

    def fold(s: str) -> str:
        return "".join(map(fold_char, s))
    return fold


def _ascii_upper(s: str) -> str:
    return s.translate(_ASCII_UPPER)


def _table_fold(cs: charsets.Charset, table: bytes) -> Callable[[str], str]:
    """An 8-bit sort order as a character map: each character becomes the one of its weight."""
    chars: dict[str, str] = {}

    def fold_char(c: str) -> str:
        found = chars.get(c)
        if found is None:
            try:
                b = cs.encode(c)
            except Exception:  # noqa: BLE001 - a character the set lacks weighs as itself
                b = b""
            found = chr(0xF0000 + table[b[0]]) if len(b) == 1 else c
            if len(chars) < 4096:
                chars[c] = found
        return found

    def fold(s: str) -> str:
        return "".join(map(fold_char, s))
    return fold
