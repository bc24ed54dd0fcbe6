"""Comparisons as MariaDB makes them, where SQLite's rules differ.

Rules (MariaDB's Arg_comparator, for the cases SQLite gets wrong):
- A number compared with a string compares as numbers: the string side is read as MariaDB
  reads a number (rm_num: its leading number, 0 if none, warning 1292 "Truncated incorrect
  DOUBLE value" — DECIMAL when the other side is a DECIMAL — when more follows). SQLite
  compares an INTEGER and a TEXT as different types (1 = '1' is false there) unless a
  column's affinity converts one.
- LIKE without ESCAPE escapes with a backslash, as MariaDB's does (unless sql_mode has
  NO_BACKSLASH_ESCAPES): 'a\\%' matches 'a%' only.
- Two strings neither of which is a column (whose collation SQLite applies) compare by the
  collation MariaDB would use: `rm_ci` for the _ci collations (no case, no accents, trailing
  spaces ignored: PAD SPACE), `rm_pad` for the _bin ones (bytes, trailing spaces ignored);
  binary strings compare bytes. Collations registered by funclib.install.
- LIKE by a _bin collation (or of binary strings) is case-sensitive: rm_like_bin, since
  SQLite's LIKE folds ASCII case whatever the collation.
- A hexadecimal literal compared with text is text of that character set (collagg.py: the
  binary literal is COERCIBLE, the text wins), compared by the text's collation.
- A DATE / DATETIME / TIME / TIMESTAMP compared with a constant string or number reads the constant as
  that type, in the stored form (rm_temporal): `d = '2001-1-1'` finds 2001-01-01, `a = ''`
  warns 1292 "Truncated incorrect datetime value: ''", as MariaDB's do.
- Arithmetic reads a string operand as a DOUBLE the same way (rm_num), with its warning:
  `1 + 'x'` is 1, "Truncated incorrect DOUBLE value: 'x'" (SQLite reads it silently).
- A string in a truth-value context (an operand of AND / OR / XOR / NOT, IF's and a searched
  CASE's condition, WHERE, HAVING) is read as a DOUBLE the same way (rm_num): IF('', 1, 2)
  is 2 with "Truncated incorrect DOUBLE value: ''", as MariaDB's val_bool.
- A column of a server-provided table (information_schema, performance_schema) has no type
  the statement knows; compared with a number it is read as one (rm_num), as MariaDB reads
  its VARCHAR columns: `variable_value < 1024*1024*1024` compares numbers, not text. So is
  a user variable (its type is its value's): `@v <> 0` with @v = '0' is false.
- Runs on the MySQL tree with its types (infer.py), once per statement shape.
"""

from __future__ import annotations

from sqlglot import exp

from rampmeter.engine.sqlite.infer import HEX, Typer, charset_of
from rampmeter.engine.types import SqlType
from rampmeter.sql import charsets

_COMPARISONS = (exp.EQ, exp.NEQ, exp.GT, exp.GTE, exp.LT, exp.LTE, exp.NullSafeEQ)
_ARITHMETIC = (exp.Add, exp.Sub, exp.Mul, exp.Div, exp.Mod, exp.IntDiv)


def rewrite(tree: exp.Expression, typer: Typer, backslash_escapes: bool = True) -> None:
    for node in list(tree.walk()):
        if isinstance(node, _COMPARISONS):
            if isinstance(node, exp.EQ) and node.arg_key == "expressions" and \
                    isinstance(node.parent, (exp.Update, exp.OnConflict)):
                continue  # SET col = value: an assignment, no comparison
            _fuzzy_dates(typer, node, ("this", "expression"))
            if _date_vs_time(typer, node, ("this", "expression")):
                continue
            if not _time_order(typer, node, ("this", "expression")):
                _numeric_sides(typer, node, "this", "expression")
        elif isinstance(node, exp.In) and node.expressions:
            _fuzzy_dates(typer, node, ("this",))
            left = typer.infer(node.this)
            items = list(node.expressions)
            _binary_in(typer, node, left, items)
            if any(_number_vs_string(left, typer.infer(i)) == "right" for i in items):
                node.set("expressions", [
                    _num(i, _kind(left)) if _number_vs_string(left, typer.infer(i)) == "right"
                    else i for i in items])
            elif _is_string(left) and all(_is_number(typer.infer(i)) for i in items):
                exact = all(_kind(typer.infer(i)) in ("DECIMAL", "UDECIMAL") for i in items)
                node.set("this", _num(node.this, "DECIMAL" if exact else "DOUBLE"))
            else:
                _in_by_column_collation(typer, node, left, items)
        elif isinstance(node, exp.Nullif):
            # NULLIF(1, 'x') compares as numbers, with MariaDB's 1292 for the string; only
            # the second argument is read so (the first is also the answer, kept as it is)
            lt, rt = typer.infer(node.this), typer.infer(node.expression)
            if node.expression is not None and _number_vs_string(lt, rt) == "right":
                node.set("expression", _num(node.expression, _aggregate([lt, rt])))
        elif isinstance(node, exp.Between):
            _fuzzy_dates(typer, node, ("this", "low", "high"))
            if _date_vs_time(typer, node, ("this", "low", "high")):
                continue
            if not _time_order(typer, node, ("this", "low", "high")):
                _between(typer, node)
        elif isinstance(node, exp.Case) and node.this is not None:
            _simple_case(typer, node)
        elif isinstance(node, _ARITHMETIC + (exp.Neg,)):
            _numeric_operands(typer, node)
        elif isinstance(node, _CONNECTORS):
            _truth_operands(typer, node, ("this", "expression"))
        elif isinstance(node, exp.If | exp.Not | exp.Where | exp.Having) and not (
                isinstance(node.parent, exp.Case) and node.parent.this is not None):
            # (a simple CASE's WHEN x is a value compared, not a condition)
            _truth_operands(typer, node, ("this",))
        elif isinstance(node, exp.Escape) and isinstance(node.this, (exp.Like, exp.ILike)) and \
                not (isinstance(node.expression, exp.Literal) and node.expression.is_string
                     and node.expression.name != "\0"):
            _nul_escape(node)
        elif isinstance(node, exp.Like) and node.meta.get("like_collation"):
            _like_by_collation(node, backslash_escapes, node.meta["like_collation"])
        elif isinstance(node, exp.Like) and _exact_like(typer, node):
            _like_text_as_bytes(typer, node)
            _like_exact(node, backslash_escapes)
        elif isinstance(node, (exp.Like, exp.ILike)) and backslash_escapes and \
                not isinstance(node.parent, exp.Escape):
            _like_bytes(typer, node)
            hole = exp.Null()  # node itself moves under the ESCAPE, not a copy of it
            node.replace(hole)
            hole.replace(exp.Escape(this=node, expression=exp.Literal.string("\\")))


def _numeric_sides(typer: Typer, node: exp.Expression, a: str, b: str,
                   only_right: bool = False) -> None:
    left, right = node.args.get(a), node.args.get(b)
    if left is None or right is None:
        return
    lt, rt = typer.infer(left), typer.infer(right)
    if _hex_vs_text(rt, lt):
        node.set(b, _hex_as_text(right, lt))
        return
    if _hex_vs_text(lt, rt):
        node.set(a, _hex_as_text(left, rt))
        return
    if _bytes_vs_text(lt, rt):
        node.set(b, _as_bytes(right, rt))
        return
    if _bytes_vs_text(rt, lt):
        node.set(a, _as_bytes(left, lt))
        return
    if _temporal_constant(lt, right, rt):
        node.set(b, _temporal(right, lt))
        return
    if _temporal_constant(rt, left, lt):
        node.set(a, _temporal(left, rt))
        return
    collation = _text_collation(left, right, lt, rt)
    if collation:
        node.set(b, exp.Collate(this=right, expression=exp.var(collation)))
        return
    if lt is None and _is_number(rt) and not only_right and _virtual(typer, left):
        node.set(a, _num(left, _kind(rt)))
        return
    if rt is None and _is_number(lt) and _virtual(typer, right):
        node.set(b, _num(right, _kind(lt)))
        return
    which = _number_vs_string(lt, rt)
    if which == "right":
        node.set(b, _num(right, _kind(lt)))
    elif which == "left" and not only_right:
        node.set(a, _num(left, _kind(rt)))


def _numeric_operands(typer: Typer, node: exp.Expression) -> None:
    keys = ("this",) if isinstance(node, exp.Neg) else ("this", "expression")
    sides = [node.args.get(k) for k in keys]
    if any(x is None or isinstance(x, exp.Interval) for x in sides):
        return
    for key, side in zip(keys, sides):
        if _is_string(typer.infer(side)):
            node.set(key, _num(side, "DOUBLE"))


_CONNECTORS = (exp.And, exp.Or, exp.Xor)


def _truth_operands(typer: Typer, node: exp.Expression, keys: tuple[str, ...]) -> None:
    """A string read for its truth value is read as a DOUBLE (module rules)."""
    for key in keys:
        side = node.args.get(key)
        if side is not None and _is_string(typer.infer(side)) and \
                not (isinstance(side, exp.Anonymous) and side.name.lower() == "rm_num"):
            node.set(key, _num(side, "DOUBLE"))


_TEMPORALS = ("date", "datetime", "time", "timestamp")
_DATE_FUNCTION = "mf_date"  # DATE(x) as funcmap.py names it


def _fuzzy_dates(typer: Typer, node: exp.Expression, keys: tuple[str, ...]) -> None:
    """DATE(x) / CAST(x AS DATE / DATETIME) as an operand of a comparison: MariaDB's
    comparator reads x with TIME_FUZZY_DATES, so a string that is no date ('', '2001-13-01')
    is the zero date with "Truncated incorrect datetime value" (DATE('') = '' is 1), where
    the same DATE('') elsewhere is NULL (rm_fuzzy_date, functions_cast.py)."""
    for k in keys:
        side = node.args.get(k)
        if not isinstance(side, exp.Anonymous) or not side.expressions:
            continue
        name = side.name.lower()
        if name == "rm_cast_temporal" and len(side.expressions) == 3:
            kind = side.expressions[1]  # capitals: a DATE'..' literal (translate.py)
            if not (isinstance(kind, exp.Literal) and kind.name in ("date", "datetime")):
                continue
        elif name != _DATE_FUNCTION:
            continue
        arg = side.expressions[0]
        t = typer.infer(arg)
        if t is not None and t.name in _TEMPORALS:
            continue
        side.set("expressions", [exp.Anonymous(this="rm_fuzzy_date", expressions=[arg]),
                                 *side.expressions[1:]])


def _date_vs_time(typer: Typer, node: exp.Expression, keys: tuple[str, ...]) -> bool:
    """A DATE / DATETIME compared with a TIME: MariaDB compares them as DATETIMEs, the TIME
    on the statement's date (DATE'2001-01-01' = TIME'00:00:00' is 1 on that day); a string
    or number constant among them is read as a DATETIME too."""
    sides = [node.args.get(k) for k in keys]
    if any(x is None for x in sides):
        return False
    types = [typer.infer(x) for x in sides]
    names = [t.name if t is not None else "" for t in types]
    if "time" not in names or not any(n in ("date", "datetime", "timestamp") for n in names):
        return False
    if any(n not in _TEMPORALS and not _temporal_constant(_DATETIME6, x, t)
           for x, t, n in zip(sides, types, names)):
        return False
    for k, side, n in zip(keys, sides, names):
        if n == "time":
            side = exp.Anonymous(this="rm_time_as_datetime", expressions=[side])
        node.set(k, _temporal(side, _DATETIME6))
    return True


_DATETIME6 = SqlType("datetime", None, 6)


def _temporal_constant(t: SqlType | None, other: exp.Expression, ot: SqlType | None) -> bool:
    """A DATE / DATETIME / TIME compared with a constant string or number: MariaDB reads the
    constant as that type ('2001-1-1' equals DATE '2001-01-01'; '' warns 1292)."""
    if t is not None and t.name in _TEMPORALS and ot is None and \
            isinstance(other, exp.Placeholder) and other.name[:1] == "q":
        return True  # a client's `?` bound to NULL: read as that type too ('' still warns)
    return t is not None and t.name in _TEMPORALS and ot is not None and ot is not HEX and \
        (ot.is_text or ot.is_numeric) and not other.find(exp.Column, exp.Subquery, exp.Select)


def _temporal(node: exp.Expression, t: SqlType) -> exp.Expression:
    # a TIMESTAMP is compared in the session's zone (tzcolumns.py): read as a DATETIME
    name = "datetime" if t.name == "timestamp" else t.name
    return exp.Anonymous(this="rm_temporal", expressions=[
        node, exp.Literal.string(name), exp.Literal.number(t.fsp or 0)])


_ORDERINGS = (exp.GT, exp.GTE, exp.LT, exp.LTE, exp.Between)


def _time_order(typer: Typer, node: exp.Expression, keys: tuple[str, ...]) -> bool:
    """TIMEs put in order (<, >, BETWEEN) as durations, not as their text ('100:00:00' is
    after '24:00:00', '-00:20:03' before '-00:20:01'): each side is rm_time_key, its signed
    microseconds, a constant read as a TIME first (rm_temporal). Equality keeps the stored
    text, which is canonical (and a column's index stays usable)."""
    if not isinstance(node, _ORDERINGS):
        return False
    sides = [node.args.get(k) for k in keys]
    if any(x is None for x in sides):
        return False
    types = [typer.infer(x) for x in sides]
    timed = [t is not None and t.name == "time" for t in types]
    if not any(timed):
        return False
    t = next(t for t, is_time in zip(types, timed) if is_time)
    for side, st, is_time in zip(sides, types, timed):
        if is_time:
            continue
        if not _temporal_constant(t, side, st):
            return False  # a TIME against a date-time or a column of text: not handled here
    for k, side, is_time in zip(keys, sides, timed):
        value = side if is_time else _temporal(side, t)  # type: ignore[arg-type]
        node.set(k, exp.Anonymous(this="rm_time_key", expressions=[value]))
    return True


def _between(typer: Typer, node: exp.Between) -> None:
    """x BETWEEN a AND b: one comparison type for the three (MariaDB aggregates them): a
    string among numbers is read as a number (DECIMAL when the numbers are exact and it is
    the only string, else DOUBLE); binary strings among text compare as bytes."""
    keys = [k for k in ("this", "low", "high") if node.args.get(k) is not None]
    types = {k: typer.infer(node.args[k]) for k in keys}
    t = types.get("this")
    if t is not None and t.name in _TEMPORALS and \
            all(_temporal_constant(t, node.args[k], types[k]) for k in keys[1:]):
        for k in keys[1:]:
            node.set(k, _temporal(node.args[k], t))
        return
    if any(t is not None and t.is_binary_string and t is not HEX for t in types.values()):
        for k in keys:
            if _bytes_vs_text(_BYTES, types[k]):
                node.set(k, _as_bytes(node.args[k], types[k]))
    strings = [k for k in keys if _is_string(types[k])]
    if len(strings) == len(keys) and all(t is not None and t.is_text for t in types.values()) \
            and not any(isinstance(node.args[k], (exp.Column, exp.Collate)) for k in keys):
        # three texts, none a column: by their collation ('B' BETWEEN 'a' AND 'c' is 1)
        colls = [t.collation or "" for t in types.values() if t is not None]
        node.set("this", exp.Collate(this=node.args["this"], expression=exp.var(
            _constant_collation(colls))))
        return
    if not strings or not any(_is_number(types[k]) for k in keys):
        return
    kind = _aggregate([types[k] for k in keys])
    for k in strings:
        node.set(k, _num(node.args[k], kind))


def _in_by_column_collation(typer: Typer, node: exp.In, left: SqlType | None,
                            items: list[exp.Expression]) -> None:
    """'a' IN (col): SQLite compares by the left operand's collation (BINARY for a literal);
    MariaDB by the aggregated one, where an explicit COLLATE wins over everything and a
    column's (IMPLICIT) over a literal's: the left side takes that collation (collations.py
    registers it by name)."""
    if left is None or not left.is_text or isinstance(node.this, exp.Collate):
        return
    for item in items:  # an explicit COLLATE among the items wins over every column's
        if isinstance(item, exp.Collate):
            t = typer.infer(item)
            if t is not None and t.is_text and t.collation:
                name = t.collation if t.case_insensitive else "rm_pad"
                node.set("this", exp.Collate(this=node.this, expression=exp.var(name)))
            return
    if isinstance(node.this, exp.Column):
        return
    types = []
    for item in items:
        t = typer.infer(item)
        if isinstance(item, exp.Column) and t is not None and t.is_text and t.collation:
            name = t.collation if t.case_insensitive else "rm_pad"
            node.set("this", exp.Collate(this=node.this, expression=exp.var(name)))
            return
        if t is not None and t.name != "null":
            types.append(t)
    if types and all(t.is_text for t in types) and \
            not any(i.find(exp.Column) is not None for i in items):
        # text that is no column on either side: by its collation ('a' IN ('A') is 1 under
        # a _ci one), as the other comparisons of constants (_text_collation)
        colls = [t.collation or "" for t in [left, *types]]
        name = _constant_collation(colls)
        node.set("this", exp.Collate(this=node.this, expression=exp.var(name)))


def _simple_case(typer: Typer, node: exp.Case) -> None:
    """CASE x WHEN a ...: x compares with each WHEN as MariaDB aggregates them. A binary
    string among strings makes them all compare as bytes (CASE BINARY 'b' WHEN 'b'); text
    that is no column compares by its collation (SQLite compares a CASE by x's collation,
    BINARY for an expression)."""
    whens = [i.this for i in node.args.get("ifs") or []]
    types = [typer.infer(x) for x in [node.this, *whens]]
    if not whens or not all(_is_string(t) or t is not None and t.name == "null"
                            for t in types) or not _is_string(types[0]):
        return  # (a WHEN NULL never matches, whatever the others compare by)
    if any(t is not None and t.is_binary_string for t in types):
        node.set("this", _as_bytes(node.this, types[0]))
        for i, t in zip(node.args.get("ifs") or [], types[1:]):
            if t is not None and t.is_text:
                i.set("this", _as_bytes(i.this, t))
        return
    if isinstance(node.this, (exp.Column, exp.Collate)) or \
            any(isinstance(w, (exp.Column, exp.Collate)) for w in whens):
        return
    colls = [t.collation or "" for t in types if t is not None]
    collation = _constant_collation(colls)
    node.set("this", exp.Collate(this=node.this, expression=exp.var(collation)))


def _aggregate(types: list[SqlType | None]) -> str:
    """The numeric type strings among numbers are read as, aggregated left to right as
    MariaDB 10.11 answers: (string, integer | DECIMAL) and (integer, string) give DECIMAL;
    (DECIMAL, string) and anything with an approximate number give DOUBLE."""
    acc = "STRING" if _is_string(types[0]) else _kind(types[0]) if _is_number(types[0]) \
        else "OTHER"
    acc = "INT" if types[0] is not None and types[0].is_integer else acc
    for t in types[1:]:
        cur = "STRING" if _is_string(t) else "INT" if t is not None and t.is_integer \
            else _kind(t) if _is_number(t) else "OTHER"
        if "OTHER" in (acc, cur) or acc == cur:
            continue
        if "DOUBLE" in (acc, cur):
            acc = "DOUBLE"
        elif acc == "STRING" or cur == "STRING" and acc == "INT":
            acc = "DECIMAL"
        elif cur == "STRING":  # (DECIMAL, string)
            acc = "DOUBLE"
        else:  # integer and DECIMAL
            acc = "DECIMAL"
    return "DOUBLE" if acc in ("DOUBLE", "STRING", "OTHER") else "DECIMAL"


def _binary_in(typer: Typer, node: exp.In, left: SqlType | None,
               items: list[exp.Expression]) -> None:
    """x IN (...) with binary strings and text: compared as bytes, as MariaDB does."""
    types = [typer.infer(i) for i in items]
    if any(_bytes_vs_text(left, t) for t in types):
        node.set("expressions", [_as_bytes(i, t) if _bytes_vs_text(left, t) else i
                                 for i, t in zip(items, types, strict=True)])
    elif any(_bytes_vs_text(t, left) for t in types):
        node.set("this", _as_bytes(node.this, left))


_BYTES = SqlType("varbinary")


def _exact_like(typer: Typer, node: exp.Like) -> bool:
    """LIKE by a _bin collation or of binary strings: case counts (SQLite's LIKE folds ASCII
    case whatever the collation)."""
    from rampmeter.engine.sqlite.funcmap import _exact_collation
    return _exact_collation([node.this, node.expression], typer)


def mark_like_collations(tree: exp.Expression, typer: Typer) -> None:
    """Note on each LIKE the collation it must be matched by outside SQLite, if any (read by
    rewrite, once funcmap.py has rewritten its operands into calls collagg cannot read)."""
    for node in tree.find_all(exp.Like):
        coll = _like_collation(typer, node)
        if coll:
            node.meta["like_collation"] = coll


def _like_collation(typer: Typer, node: exp.Like) -> str | None:
    """The collation a LIKE must be matched by outside SQLite (rm_like_coll): SQLite's LIKE
    folds ASCII case only, right for the default collations (SQLite's NOCASE, collations.py)
    while the pattern is a literal: a pattern of another kind (CONVERT(...), a column) and
    any other _ci / _cs collation are matched by their weights. None: SQLite's LIKE."""
    from rampmeter.engine.sqlite import collagg, collations
    from rampmeter.errors import ServerError
    try:
        dt = collagg.resolve(collagg._Builder(typer, "").agg(
            "like", [node.this, node.expression], True), {})
    except ServerError:
        return None
    if dt is None or dt.collation == "binary" or dt.collation.endswith("_bin"):
        return None
    if dt.collation in collations.FAST_DEFAULTS and \
            isinstance(node.expression, (exp.Placeholder, exp.Literal)):
        return None
    return dt.collation


def _like_by_collation(node: exp.Like, backslash_escapes: bool, collation: str) -> None:
    """x LIKE p [ESCAPE e] -> rm_like_coll(x, p, e, collation) (functions.py)."""
    target: exp.Expression = node
    escape: exp.Expression = exp.Literal.string("\\" if backslash_escapes else "")
    if isinstance(node.parent, exp.Escape):
        target, escape = node.parent, node.parent.expression
    call: exp.Expression = exp.Anonymous(this="rm_like_coll", expressions=[
        node.this, node.expression, escape, exp.Literal.string(collation)])
    if node.args.get("negate"):
        call = exp.Not(this=call)
    target.replace(call)


def _nul_escape(node: exp.Escape) -> None:
    """x LIKE p ESCAPE e, e not a plain literal: SQLite refuses a NUL escape (it reads its
    escape as a C string), MariaDB takes it; NUL is matched as U+10FFFF on all three sides
    (rm_like_nul, functions.py)."""
    like = node.this
    for owner, key in ((like, "this"), (like, "expression"), (node, "expression")):
        arg = owner.args.get(key)
        if arg is not None:
            owner.set(key, exp.Anonymous(this="rm_like_nul", expressions=[arg]))


def _like_text_as_bytes(typer: Typer, node: exp.Like) -> None:
    """x LIKE BINARY p: MariaDB matches bytes, so text of an 8-bit or multi-byte set is
    matched as its own bytes (a latin1 'É' is C9, as the latin1 client's pattern is)."""
    types = [typer.infer(node.args[k]) for k in ("this", "expression")]
    if not any(t is not None and t.is_binary_string for t in types):
        return
    for key, t in zip(("this", "expression"), types, strict=True):
        if t is not None and t.is_text and charset_of(t) not in (None, "utf8mb4", "utf8mb3",
                                                                 "ascii", "binary"):
            node.set(key, _as_bytes(node.args[key], t))


def _like_exact(node: exp.Like, backslash_escapes: bool) -> None:
    """x LIKE p [ESCAPE e] -> rm_like_bin(x, p, e), matched case-sensitively (functions.py)."""
    target: exp.Expression = node
    escape: exp.Expression = exp.Literal.string("\\" if backslash_escapes else "")
    if isinstance(node.parent, exp.Escape):
        target, escape = node.parent, node.parent.expression
    call: exp.Expression = exp.Anonymous(this="rm_like_bin", expressions=[
        node.this, node.expression, escape])
    if node.args.get("negate"):
        call = exp.Not(this=call)
    target.replace(call)


def _like_bytes(typer: Typer, node: exp.Expression) -> None:
    """SQLite's LIKE never matches a BLOB: a binary string is matched as the text of its
    bytes."""
    for key in ("this", "expression"):
        t = typer.infer(node.args[key])
        if t is not None and t is not HEX and t.is_binary_string:
            node.set(key, exp.Cast(this=node.args[key], to=exp.DataType.build("TEXT")))


def _bytes_vs_text(a: SqlType | None, b: SqlType | None) -> bool:
    """a binary string (stored as a BLOB) compared with text (stored as TEXT): SQLite never
    finds them equal (a BLOB sorts after every TEXT); MariaDB compares their bytes."""
    return a is not None and b is not None and a is not HEX and a.is_binary_string and \
        b.is_text


def _hex_vs_text(a: SqlType | None, b: SqlType | None) -> bool:
    """A hexadecimal literal (x'41', 0x41) compared with text: a binary string whose
    derivation is weaker than the text's, so MariaDB reads it as text of the other side's
    character set and compares by its collation (`c = 0x41` finds 'A'); SQLite would compare
    a BLOB with a TEXT, which it never finds equal."""
    return a is HEX and b is not None and b.is_text and b.name != "json"


def _hex_as_text(node: exp.Expression, t: SqlType) -> exp.Expression:
    cs = t.charset or "utf8mb4"
    if cs in ("utf8mb4", "utf8mb3", "ascii"):
        return exp.Cast(this=node, to=exp.DataType.build("TEXT"))
    return exp.Anonymous(this="rm_to_charset", expressions=[
        node, exp.Literal.string(cs), exp.Literal.string("binary")])


def _as_bytes(node: exp.Expression, t: SqlType | None = None) -> exp.Expression:
    """Text compared with a binary string: its bytes in its own character set (a utf16
    'a' is 0x0061, MariaDB's my_charset_bin comparison), SQLite's UTF-8 for utf8mb4 text."""
    cs = charset_of(t) if t is not None and t.is_text else None
    if cs is not None and cs not in ("utf8mb4", "utf8mb3", "ascii", "binary"):
        return exp.Anonymous(this="rm_encode", expressions=[node, exp.Literal.string(cs)])
    return exp.Cast(this=node, to=exp.DataType.build("BLOB"))


def _text_collation(left: exp.Expression, right: exp.Expression, lt: SqlType | None,
                    rt: SqlType | None) -> str:
    """The collation two non-column strings compare by ('' to leave SQLite's)."""
    if lt is None or rt is None or not (lt.is_text and rt.is_text):
        return ""
    if any(isinstance(x, (exp.Column, exp.Collate)) for x in (left, right)):
        return ""
    colls = [(t.collation or "") for t in (lt, rt)]
    return _constant_collation(colls)


def _constant_collation(colls: list[str]) -> str:
    """The SQLite collation constants (no column among them) compare by: the one collation
    they share when it is neither a default nor a _bin one (latin1_german2_ci's 'ä' = 'ae',
    registered by its name in collations.py); else rm_pad for a _bin one, rm_ci for the
    others (the _general_ci weights)."""
    from rampmeter.engine.sqlite import collations
    if any(c.endswith("_bin") for c in colls):
        return "rm_pad"
    named = {c for c in colls if c}
    if len(named) == 1:
        coll = charsets.collation(named.pop())
        if coll is not None and coll.name not in collations.FAST_DEFAULTS:
            return coll.name
    return "rm_ci"


def _virtual(typer: Typer, e: exp.Expression) -> bool:
    """A column of an information_schema / performance_schema table: its type is unknown to
    the statement, and its value is often a number as text (VARIABLE_VALUE), which MariaDB
    compares with a number as a number."""
    if _user_variable(e):
        return True
    check = typer.virtual_column
    return isinstance(e, exp.Column) and check is not None and check(e.table or None, e.name)


def _user_variable(e: exp.Expression) -> bool:
    """@v: its type is its value's, unknown to the statement's shape; compared with a number,
    MariaDB compares a string value as a number (a DOUBLE), as it does any string."""
    return isinstance(e, exp.Parameter) or isinstance(e, exp.Anonymous) and \
        e.name.lower() == "rm_uservar"


def _is_number(t: SqlType | None) -> bool:
    return t is not None and t is not HEX and (t.is_numeric or t.name in ("bit", "year"))


def _is_string(t: SqlType | None) -> bool:
    return t is not None and t is not HEX and (t.is_text or t.is_binary_string)


def _number_vs_string(a: SqlType | None, b: SqlType | None) -> str:
    """'right' when b is the string compared with the number a, 'left' the other way."""
    if _is_number(a) and _is_string(b):
        return "right"
    if _is_string(a) and _is_number(b):
        return "left"
    return ""


def _kind(t: SqlType | None) -> str:
    """A string compared with a number is read as DECIMAL against an exact number (an
    integer or a DECIMAL), as DOUBLE against an approximate one (MariaDB 10.11)."""
    if t is not None and t.name == "bigint" and t.unsigned:
        return "UDECIMAL"  # rm_num gives a value past 2^63 - 1 in the column's '~' form
    return "DECIMAL" if t is not None and (t.is_decimal or t.is_integer) else "DOUBLE"


def _num(node: exp.Expression, kind: str) -> exp.Expression:
    return exp.Anonymous(this="rm_num", expressions=[node, exp.Literal.string(kind)])
