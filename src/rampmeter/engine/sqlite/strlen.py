"""The length of a string expression, as MariaDB computes a string function's max_length, and
the fractional digits of a temporal function, when the statement's literal values are known
(CREATE TABLE ... SELECT types its columns by them).

Rules (MariaDB 10.11, measured with SHOW CREATE TABLE after CREATE TABLE ... SELECT):
- A string literal is a VARCHAR of its own length in collation_connection (or the character
  set its introducer names); a number used as a string is as long as it is displayed: an
  integer column its display width, DECIMAL(p,s) p digits plus its point and sign.
- CONCAT adds its arguments' lengths; CONCAT_WS adds the separator between each two;
  REPLACE(s, from, to) is len(s) + len(s) * (len(to) - 1) (every character replaced);
  UPPER / LOWER / TRIM / REVERSE keep the length; LEFT / RIGHT / SUBSTRING with a constant
  length take the smaller; SUBSTRING(s, pos) without one is what is left after a constant pos;
  LPAD / RPAD with a constant length are that long; REPEAT(s, n) is n times as long.
- The character set aggregates the arguments' as MariaDB does: a column's beats a literal's,
  and between equals a Unicode one wins; a binary string argument makes the result binary
  (VARBINARY). An argument of unknown length, or a length that is not constant, leaves the
  type to the general rules (None here).
- TIMEDIFF / TIME / TIMESTAMP (and ADDTIME / SUBTIME of a TIME or DATETIME) have as many
  fractional digits as their arguments: a string literal's as written, a temporal's fsp, a
  string column's 6.
"""

from __future__ import annotations

from decimal import Decimal
from typing import TYPE_CHECKING

from sqlglot import exp

from rampmeter.engine import types as T
from rampmeter.engine.types import SqlType
from rampmeter.sql.statement import slot_charset, slot_kind

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.infer import Typer


_CLASSES: dict[type[exp.Expression], str] = {
    exp.Concat: "CONCAT", exp.ConcatWs: "CONCAT_WS", exp.Replace: "REPLACE",
    exp.Upper: "UPPER", exp.Lower: "LOWER", exp.Trim: "TRIM", exp.Reverse: "REVERSE",
    exp.Left: "LEFT", exp.Right: "RIGHT", exp.Substring: "SUBSTRING", exp.Repeat: "REPEAT"}
_SAME = frozenset(("UPPER", "UCASE", "LOWER", "LCASE", "TRIM", "LTRIM", "RTRIM", "REVERSE"))


def _call(e: exp.Expression) -> tuple[str, list[exp.Expression | None]] | None:
    """(function name, arguments in MariaDB's order) of a string function call."""
    if isinstance(e, exp.Anonymous):
        return e.name.upper(), list(e.expressions)
    name = _CLASSES.get(type(e))
    if name is None:
        return None
    if name in ("CONCAT", "CONCAT_WS"):
        return name, list(e.expressions)
    if name == "REPLACE":
        return name, [e.this, e.expression, e.args.get("replacement")]
    if name == "SUBSTRING":
        return name, [e.this, e.args.get("start"), e.args.get("length")]
    if name == "REPEAT":
        return name, [e.this, e.args.get("times")]
    if name in ("LEFT", "RIGHT"):
        return name, [e.this, e.expression]
    return name, [e.this]


def value_type(typer: Typer, e: exp.Expression) -> SqlType | None:
    """The type of e when the literal values tell more than its shape; None otherwise."""
    return string_type(typer, e) or temporal_type(typer, e)


_TEMPORAL = {"TIMEDIFF": "time", "TIME": "time", "TIMESTAMP": "datetime",
             "ADDTIME": "", "SUBTIME": ""}


def temporal_type(typer: Typer, e: exp.Expression) -> SqlType | None:
    """TIMEDIFF / TIME / TIMESTAMP / ADDTIME / SUBTIME have as many fractional digits as their
    arguments: a string literal's as written, a temporal's fsp, a string column's 6
    (MariaDB's time_precision). ADDTIME of a string is a string (None here)."""
    if not isinstance(e, exp.Anonymous) or not e.expressions:
        return None
    name = e.name.upper()
    kind = _TEMPORAL.get(name)
    if kind is None:
        return None
    if not kind:
        first = typer.infer(e.expressions[0])
        if first is None or first.name not in ("datetime", "timestamp", "time"):
            return None
        kind = "time" if first.name == "time" else "datetime"
    digits = [_precision(typer, a) for a in e.expressions]
    if None in digits:
        return None
    return SqlType(kind, None, min(max(d for d in digits if d is not None), 6))


def _precision(typer: Typer, node: exp.Expression) -> int | None:
    if isinstance(node, exp.Placeholder) and typer.values is not None:
        value = typer.values.get(node.name)
        if isinstance(value, (str, bytes)):
            text = value.decode("latin-1") if isinstance(value, bytes) else value
            frac = text.strip().rpartition(".")
            return len(frac[2]) if frac[1] and frac[2].isdigit() else 0
    t = typer.infer(node)
    if t is None:
        return None
    if t.name in ("datetime", "timestamp", "time"):
        return t.fsp or 0
    if t.is_string:
        return 6
    if t.is_integer or t.name == "date":
        return 0
    if t.is_decimal:
        return t.scale or 0
    return None


def string_type(typer: Typer, e: exp.Expression) -> SqlType | None:
    """The type of e when it is a string whose length the values tell; None otherwise."""
    if isinstance(e, exp.Placeholder):
        return _literal(typer, e.name)
    call = _call(e)
    if call is None:
        return None
    name, args = call
    if name in ("CONCAT", "CONCAT_WS"):
        parts = [_part(typer, a) for a in args]
        if not parts or None in parts or name == "CONCAT_WS" and len(parts) < 2:
            return None
        lengths = [p[0] for p in parts if p is not None]
        total = sum(lengths)
        if name == "CONCAT_WS":
            total = sum(lengths[1:]) + lengths[0] * (len(lengths) - 2)
        return _result(typer, total, [p[1] for p in parts if p is not None], args)
    if not args:
        return None
    if name == "MAKE_SET" and len(args) >= 2:  # every string and a comma between
        parts = [_part(typer, a) for a in args[1:]]
        if None in parts:
            return None
        return _result(typer, sum(p[0] for p in parts if p is not None) + len(parts) - 1,
                       [p[1] for p in parts if p is not None], args[1:])
    if name == "EXPORT_SET" and 4 <= len(args) <= 5:  # 64 words and 63 separators
        parts = [_part(typer, a) for a in args[1:4]]
        if None in parts:
            return None
        on, off, sep = (p for p in parts if p is not None)
        return _result(typer, 64 * max(on[0], off[0]) + 63 * sep[0],
                       [on[1], off[1], sep[1]], args[1:4])
    if name == "INSERT" and len(args) == 4:  # the string and the one put in
        a, b = _part(typer, args[0]), _part(typer, args[3])
        if a is None or b is None:
            return None
        return _result(typer, a[0] + b[0], [a[1], b[1]], [args[0], args[3]])
    if name == "ELT" and len(args) >= 2:  # the longest of the strings it picks from
        parts = [_part(typer, a) for a in args[1:]]
        if None in parts:
            return None
        return _result(typer, max(p[0] for p in parts if p is not None),
                       [p[1] for p in parts if p is not None], args[1:])
    s = _part(typer, args[0])
    if s is None:
        return None
    if name == "SUBSTRING_INDEX" and len(args) == 3:  # at most the whole string
        return _result(typer, s[0], [s[1]], args)
    if name in _SAME and len(args) == 1:
        return _result(typer, s[0], [s[1]], args)
    if name == "REPLACE" and len(args) == 3:
        to = _part(typer, args[2])
        if to is None:
            return None
        return _result(typer, s[0] + s[0] * max(to[0] - 1, 0), [s[1], None, to[1]], args)
    if name in ("LEFT", "RIGHT") and len(args) == 2:
        n = _int(typer, args[1])
        return _result(typer, s[0] if n is None else max(min(s[0], n), 0), [s[1]], args)
    if name in ("SUBSTRING", "SUBSTR", "MID") and len(args) in (2, 3):
        start = _int(typer, args[1])
        length = args[2] if len(args) == 3 else None
        chars = s[0]
        if length is not None:
            n = _int(typer, length)
            chars = chars if n is None else max(min(chars, n), 0)
        elif start is not None:
            chars = max(chars - start + 1, 0) if start > 0 else min(chars, -start)
        return _result(typer, chars, [s[1]], args)
    if name in ("LPAD", "RPAD") and len(args) in (2, 3):
        n = _int(typer, args[1])
        f = _part(typer, args[2]) if len(args) == 3 else (0, None)
        if n is None or f is None:
            return None
        return _result(typer, max(n, 0), [s[1], None, f[1]], args)
    if name == "REPEAT" and len(args) == 2:
        n = _int(typer, args[1])
        return None if n is None else _result(typer, s[0] * max(n, 0), [s[1]], args)
    return None


def _literal(typer: Typer, name: str) -> SqlType | None:
    assert typer.values is not None
    if name not in typer.values:
        return None
    value = typer.values[name]
    try:
        kind = slot_kind(name)[0]
    except (ValueError, IndexError):
        return None
    if kind == "c" and isinstance(value, (str, bytes)):
        return T.varchar(len(value), slot_charset(name) or "utf8mb4")
    if kind == "s" and isinstance(value, (str, bytes)):
        return T.varchar(len(value), typer.text.charset or "utf8mb4", typer.text.collation)
    if kind == "b" and isinstance(value, bytes):
        return T.varbinary(len(value))
    if kind in ("i", "n") and isinstance(value, (int, Decimal)) and not isinstance(value, bool):
        from rampmeter.engine.sqlite.translate import literal_type
        return literal_type(value)  # as many digits as it has (a string of that length)
    return None


def _int(typer: Typer, node: exp.Expression | None) -> int | None:
    """A constant integer argument (a literal's value), or None."""
    if node is None:
        return None
    if isinstance(node, exp.Paren):
        return _int(typer, node.this)
    if isinstance(node, exp.Neg):
        n = _int(typer, node.this)
        return None if n is None else -n
    if isinstance(node, exp.Literal) and not node.is_string:
        try:
            return int(node.name)
        except ValueError:
            return None
    if isinstance(node, exp.Placeholder) and typer.values is not None:
        value = typer.values.get(node.name)
        if isinstance(value, int) and not isinstance(value, bool):
            return value
    return None


def _part(typer: Typer, node: exp.Expression | None) -> tuple[int, SqlType | None] | None:
    """(characters, type) of an argument used as a string; the type is None for a number
    (its characters take the other arguments' character set)."""
    if node is None:
        return None
    if isinstance(node, exp.Placeholder) and node.name[:1] == "x" and typer.values is not None:
        value = typer.values.get(node.name)  # 0x41 as a string: its bytes
        if isinstance(value, bytes):
            return len(value), T.varbinary(len(value))
    return as_string(typer.infer(node))


def as_string(t: SqlType | None) -> tuple[int, SqlType | None] | None:
    """(characters, type) of a value of type t used as a string (module rules)."""
    if t is None:
        return None
    if t.name == "null":  # NULL as a string is empty (TRIM(NULL) is CHAR(0))
        return 0, None
    if t.is_string:
        n = t.max_chars
        return None if n is None else (n, t)
    if t.is_integer and t.width:
        return t.width, None
    if t.is_decimal and t.width:
        return t.width + (1 if t.scale else 0) + (0 if t.unsigned else 1), None
    return None


def _result(typer: Typer, chars: int, types: list[SqlType | None],
            nodes: list[exp.Expression | None]) -> SqlType:
    """A string of `chars` characters; its character set aggregates the arguments' as MariaDB
    does: a column's (implicit) beats a literal's (coercible), and between equals a Unicode
    one wins over a single-byte one."""
    strings = [(t, _coercible(n)) for t, n in zip(types, nodes) if t is not None]
    if any(t.is_binary_string for t, _c in strings):
        return T.varbinary(chars)
    implicit = [t for t, c in strings if not c]
    pool = implicit or [t for t, _c in strings]
    unicode = [t for t in pool if (t.charset or "").startswith(("utf", "ucs"))]
    first = unicode[0] if unicode else pool[0] if pool else typer.text
    return T.varchar(chars, first.charset or "utf8mb4", first.collation)


def _coercible(node: exp.Expression | None) -> bool:
    """A literal, or made of literals only (derivation COERCIBLE); a column is IMPLICIT."""
    if node is None or isinstance(node, exp.Placeholder):
        return True
    if isinstance(node, exp.Column):
        return False
    return all(_coercible(a) for a in node.iter_expressions())
