"""MariaDB function calls in a parsed statement -> calls of the library's mf_ functions.

Rules:
- Runs on the MySQL tree after the typed rewrites (translate._typed_rewrites) and before the
  SQLite rewrites (translate._rewrite), once per statement shape.
- A call whose name is in the library (funclib.LIBRARY) becomes `mf_<name>(args)`, after its
  argument count is checked (1582). Arguments that are keywords in MariaDB's grammar become
  strings: `INTERVAL n unit` is two arguments (n, 'UNIT'); the unit of TIMESTAMPADD /
  TIMESTAMPDIFF and the kind of GET_FORMAT are 'UNIT' / 'DATE'.
- The forms sqlglot parses with their own syntax are read from their nodes: EXTRACT, TRIM with
  a string to remove, SUBSTRING, POSITION / LOCATE / INSTR, CHAR(... USING cs), INTERVAL(),
  REGEXP / RLIKE (case-insensitive unless a side is binary or _bin, as the collation says).
- d + INTERVAL n unit and d - INTERVAL n unit are DATE_ADD / DATE_SUB.
- CHARSET(x), COLLATION(x) and COERCIBILITY(x) are answered from x's type here: they become
  literals.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

from sqlglot import exp

from rampmeter.engine.sqlite import collations, funclib
from rampmeter.engine.sqlite.infer import Typer, charset_of, number_kind, sec_to_time_digits
from rampmeter.engine.types import SqlType
from rampmeter.sql import charsets

_UNIT_FIRST = ("TIMESTAMPADD", "TIMESTAMPDIFF", "GET_FORMAT")


def _call(name: str, *args: exp.Expression) -> exp.Anonymous:
    return exp.Anonymous(this="mf_" + name.lower(), expressions=list(args))


def _text(value: str) -> exp.Literal:
    return exp.Literal.string(value)


def rewrite(tree: exp.Expression, typer: Typer) -> None:
    sites = 0
    for node in list(tree.walk()):
        if isinstance(node, exp.Anonymous):
            name = node.name.upper()
            if isinstance(node.parent, exp.Dot) and node.parent.expression is node:
                continue  # db.f(...): a stored function (translate._rewrite), never native
            if name in _GRAMMAR_ARITY and not _GRAMMAR_ARITY[name](len(node.expressions)):
                # MariaDB's grammar has POINT(a, b), LINESTRING(a, ...)...: another count is
                # an ordinary call, of a stored function of that name if there is one
                # (SQLite's "no such function" finds it, or says 1305)
                continue
            _library_call(node, typer)
            if name == "RAND" and len(node.expressions) == 1:
                sites += 1  # each seeded RAND keeps its own sequence (functions_numeric)
                node.append("expressions", exp.Literal.number(sites))
            elif name in _BIT_AGGREGATES and not isinstance(node.parent, exp.Window):
                # of no rows at all SQLite never builds the aggregate (Python's sqlite3 then
                # answers NULL): MariaDB's BIT_AND is all ones there, BIT_OR / BIT_XOR 0
                hole = exp.Null()
                node.replace(hole)
                hole.replace(exp.Coalesce(this=node, expressions=[_BIT_AGGREGATES[name]]))
            continue
        convert = _NODES.get(type(node))
        if convert is not None:
            new = convert(node, typer)
            if new is not None:
                node.replace(new)


_GRAMMAR_ARITY: dict[str, Callable[[int], bool]] = {
    "POINT": lambda n: n == 2, "LINESTRING": lambda n: n >= 1, "POLYGON": lambda n: n >= 1,
    "MULTIPOINT": lambda n: n >= 1, "MULTILINESTRING": lambda n: n >= 1,
    "MULTIPOLYGON": lambda n: n >= 1, "GEOMETRYCOLLECTION": lambda n: n >= 1,
}
_BIT_AGGREGATES = {"BIT_AND": exp.Literal.string("~18446744073709551615"),
                   "BIT_OR": exp.Literal.number(0), "BIT_XOR": exp.Literal.number(0)}


def _library_call(node: exp.Anonymous, typer: Typer) -> None:
    name = node.name.upper()
    if name in _FROM_TYPE:
        args = node.expressions
        if len(args) != 1:
            raise_count(name)
        if name == "COERCIBILITY":
            from rampmeter.engine.sqlite import collagg
            derivation = collagg.coercibility(args[0], typer)
            if derivation is not None:
                node.replace(exp.Literal.number(derivation))
                return
        node.replace(_FROM_TYPE[name](typer.infer(args[0])))
        return
    if name == "WEIGHT_STRING" and len(node.expressions) == 4:
        # weight_string(s, length, nweights, flags): the form MariaDB prints its own as
        node.replace(_weight_string_flags(list(node.expressions), typer))
        return
    fn = funclib.lookup(name)
    if fn is None:
        return
    args: list[exp.Expression] = []
    for i, arg in enumerate(node.expressions):
        if isinstance(arg, exp.Interval) and arg.args.get("unit") is not None:
            args += [arg.this, _text(arg.args["unit"].name.upper())]
        elif i == 0 and name in _UNIT_FIRST and isinstance(arg, (exp.Column, exp.Var)):
            args.append(_text(arg.name.upper()))
        else:
            args.append(arg)
    fn.check_arity(len(args), node.name)
    if name in _DATE_ORIGIN and args:
        origin = _date_origin(args[0], typer)
        if origin:  # an optional mode left out is NULL before it (WEEK(x) is WEEK(x, NULL))
            args += [exp.Null()] * (_DATE_ORIGIN[name] - len(args)) + origin
    for i in _DATE_ARGUMENTS.get(name, ()):
        if i < len(args):
            args[i] = _time_as_datetime(args[i], typer)
    if name in ("DATE_ADD", "DATE_SUB") and len(node.expressions) == 2 and \
            isinstance(node.expressions[1], exp.Interval):
        args.append(_interval_kind(node.expressions[1], typer, node.expressions[0]))
    named = _named_collation(args[:2]) if name == "STRCMP" else None
    if name == "STRCMP" and named is None and len(args) == 2:
        named = _aggregated_collation(args, typer)
    if name == "FIELD" and len(args) >= 2 and all(
            t is not None and t.is_text for t in map(typer.infer, args)):
        coll = _named_collation(args) or _aggregated_collation(args, typer)
        if coll is not None and collations.byte_key(coll) is not None:
            # FIELD('ue', s1) of a latin1_german2_ci s1: matched by the collation's weights
            args = [exp.Anonymous(this="rm_collkey", expressions=[a, _text(coll)])
                    for a in args]
    if named is not None:  # STRCMP(a COLLATE c, b): c's own comparison (NO PAD included)
        args.append(_text(named))
    elif name in ("STRCMP", "INSTR", "LOCATE", "POSITION") and \
            _exact_collation(args[:2], typer):
        if name in ("LOCATE", "POSITION") and len(args) == 2:
            args.append(exp.Literal.number(1))
        args.append(exp.Literal.number(1))  # by a _bin collation: case and accents count
    if name == "SFORMAT":  # fmt formats a DECIMAL as a double; SQLite may hold it as text
        args = [args[0], *(exp.Cast(this=a, to=exp.DataType.build("DOUBLE"))
                           if number_kind(typer.infer(a)) in "df" else a for a in args[1:])]
    if name in ("ROUND", "TRUNCATE") and args:
        if len(args) == 1:
            args.append(exp.Literal.number(0))
        args.append(_text(number_kind(typer.infer(args[0]))))
    if name == "UNIX_TIMESTAMP" and len(args) == 1 and args[0].find(exp.Column) is not None:
        t = typer.infer(args[0])  # a string read per row: MariaDB answers with 6 decimals
        if t is None or t.is_string:
            args.append(exp.Literal.number(6))
    if name in ("ADDTIME", "SUBTIME") and len(args) == 2:
        t = typer.infer(args[0])  # a temporal's digits fix the result's (MariaDB's type)
        if t is not None and t.name in ("date", "datetime", "timestamp", "time"):
            args.append(exp.Literal.number(t.fsp or 0))
    if name == "TIME" and len(args) == 1 and args[0].find(exp.Column) is not None:
        t = typer.infer(args[0])  # a string read per row: MariaDB answers with 6 digits
        if t is None or t.is_string:
            args.append(exp.Literal.number(6))
    if name == "SEC_TO_TIME" and len(args) == 1:
        digits = sec_to_time_digits(typer, args[0])  # MariaDB: the argument's decimals
        t = typer.infer(args[0])
        if t is not None and t.is_temporal:  # a TIME's seconds are its digits: 101010
            kind = "time" if t.name == "time" else "date" if t.name == "date" else "datetime"
            args[0] = exp.Anonymous(this="rm_temporal_number",
                                    expressions=[args[0], _text(kind)])
        if digits is not None:
            args.append(exp.Literal.number(digits))
    args = [_exact(a) for a in args]
    if len(args) > funclib.MAX_SQLITE_ARGS:  # SQLite's limit: in packs (funclib.py)
        node.set("this", "mfp_" + fn.name.lower())
        node.set("expressions", [exp.Anonymous(this="rm_pack", expressions=args[i:i + 100])
                                 for i in range(0, len(args), 100)])
        return
    # an aggregate used OVER (...) is its window form (funclib._windowed)
    node.set("this", fn.sqlite_name + "_w" if fn.aggregate and
             isinstance(node.parent, exp.Window) else fn.sqlite_name)
    node.set("expressions", args)


# the arguments a function reads as a date: a TIME there is today at that time (MariaDB's
# TIME to DATETIME conversion: YEAR(TIME'10:00:00') is this year); DATE_FORMAT, HOUR and
# DATE_ADD read a TIME as one
_DATE_ARGUMENTS = {name: (0,) for name in (
    "YEAR", "MONTH", "DAYOFMONTH", "DAY", "DATE", "TIMESTAMP", "LAST_DAY", "UNIX_TIMESTAMP",
    "TO_DAYS", "TO_SECONDS", "WEEKDAY", "DAYNAME", "DAYOFWEEK", "DAYOFYEAR", "QUARTER",
    "WEEK", "YEARWEEK", "WEEKOFYEAR", "MONTHNAME")}
_DATE_ARGUMENTS.update({"DATEDIFF": (0, 1), "TIMESTAMPDIFF": (1, 2)})


def _time_as_datetime(arg: exp.Expression, typer: Typer) -> exp.Expression:
    t = typer.infer(arg)
    if t is None or t.name != "time":
        return arg
    return exp.Anonymous(this="rm_time_as_datetime", expressions=[arg])


def _convert_tz(node: exp.ConvertTimezone, typer: Typer) -> exp.Expression | None:
    value = node.args.get("timestamp")
    if isinstance(value, exp.Expression):
        node.set("timestamp", _time_as_datetime(value, typer))
    return None


def _exact(arg: exp.Expression) -> exp.Expression:
    """A decimal literal with more digits than a double keeps goes to the function as its
    text (SQLite would read it as a REAL); the library reads numbers from text exactly."""
    if isinstance(arg, exp.Literal) and not arg.is_string and \
            sum(c.isdigit() for c in arg.name) > 15 and "e" not in arg.name.lower():
        return exp.Literal.string(arg.name)
    return arg


def raise_count(name: str) -> None:
    from rampmeter import errors
    from rampmeter.errors import ServerError
    raise ServerError(errors.ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT, name)


# --- CHARSET() / COLLATION() / COERCIBILITY() from the argument's type ------------------------
def _charset_name(t: object) -> exp.Expression:
    cs = charset_of(t) if t is not None else None  # type: ignore[arg-type]
    if t is not None and getattr(t, "is_numeric", False) or \
            t is not None and getattr(t, "is_temporal", False):
        cs = "binary"
    return _text(cs or "binary")


def _collation_name(t: object) -> exp.Expression:
    cs = charset_of(t) if t is not None else None  # type: ignore[arg-type]
    if cs is None or cs == "binary":
        return _text("binary")
    coll = getattr(t, "collation", None) or charsets.default_collation(cs).name
    return _text(coll)


def _coercibility(t: object) -> exp.Expression:
    # MariaDB: 4 coercible (a literal), 2 implicit (a column), 6 numeric / temporal; without
    # the node kind here, literals and expressions are 4
    if t is None or getattr(t, "name", "") == "null":
        return exp.Literal.number(6)
    if getattr(t, "is_numeric", False) or getattr(t, "is_temporal", False):
        return exp.Literal.number(5)
    return exp.Literal.number(4)


TYPE_FUNCTIONS = ("CHARSET", "COLLATION", "COERCIBILITY")
_FROM_TYPE: dict[str, Callable[[object], exp.Expression]] = {
    "CHARSET": _charset_name, "COLLATION": _collation_name, "COERCIBILITY": _coercibility,
}


# --- forms with their own syntax ---------------------------------------------------------------
def _extract(node: exp.Extract, typer: Typer) -> exp.Expression:
    return _call("EXTRACT", _text(node.this.name.upper()), node.expression,
                 *_date_origin(node.expression, typer))


_SITES = itertools.count(1)


def _column_origin(arg: exp.Expression, typer: Typer) -> list[exp.Expression]:
    """A column of a base table read by a function that warns about its value: the column's
    database, table and name, the column's scale (a DECIMAL's value is quoted with it) and a
    number for this call, which counts the rows it reads (MariaDB's warning names the column
    and the row: "Incorrect interval value: 'v' for column `db`.`t1`.`a` at row 9"). The
    row is the count of the rows this call read, which is MariaDB's (rows examined) for a
    call in WHERE, or in the select list of a query that filters nothing."""
    tables = typer.tables
    if not isinstance(arg, exp.Column) or tables is None or not hasattr(tables, "find"):
        return []
    found = tables.find(arg.table or None, arg.name)
    if found is None:
        return []
    alias, col, _db = found
    db, table, _tdef = tables.by_alias[alias]
    scale = col.type.scale if col.type.is_decimal else -1
    return [_text(db), _text(table), _text(col.name), exp.Literal.number(scale or 0),
            exp.Literal.number(next(_SITES)), exp.Literal.number(_temporal_kind(col.type))]


def _temporal_kind(t: SqlType | None) -> int:
    """The last of an origin's numbers: 1 a DATE / DATETIME / TIMESTAMP, 2 a TIME, else 0."""
    if t is None:
        return 0
    return 1 if t.name in ("date", "datetime", "timestamp") else 2 if t.name == "time" else 0


def _date_origin(arg: exp.Expression, typer: Typer) -> list[exp.Expression]:
    """What a date function is told of its argument (functions_time._date): a column's
    origin, or that a value that is not a column is a DATE / DATETIME (whose zero date is
    NULL without a warning, where a string's is 1292) or a TIME (EXTRACT's YEAR is 0)."""
    found = _column_origin(arg, typer)
    if found:
        return found
    kind = _temporal_kind(typer.infer(arg))
    if not kind:
        return []
    return [_text(""), _text(""), _text(""), exp.Literal.number(0), exp.Literal.number(0),
            exp.Literal.number(kind)]


# the functions reading one date that name its column when it is none (functions_time.py):
# the argument's position, and how many arguments the function takes at most
_DATE_ORIGIN = {name: 1 for name in (
    "YEAR", "MONTH", "DAY", "DAYOFMONTH", "QUARTER", "DAYOFWEEK", "WEEKDAY", "DAYOFYEAR",
    "DAYNAME", "MONTHNAME", "WEEKOFYEAR", "TO_DAYS", "TO_SECONDS", "LAST_DAY")}
_DATE_ORIGIN.update({"WEEK": 2, "YEARWEEK": 2})


def _trim(node: exp.Trim, typer: Typer) -> exp.Expression | None:
    remove = node.args.get("expression")
    if remove is None:
        return None  # spaces: SQLite's trim / ltrim / rtrim do what MariaDB does
    position = str(node.args.get("position") or "BOTH").upper()
    return _call("TRIM", node.this, remove, _text(position))


def _substring(node: exp.Substring, typer: Typer) -> exp.Expression:
    args = [node.this, node.args.get("start") or exp.Literal.number(1)]
    if node.args.get("length") is not None:
        args.append(node.args["length"])
    return _call("SUBSTRING", *args)


def _position(node: exp.StrPosition, typer: Typer) -> exp.Expression:
    args = [node.args["substr"], node.this]
    if node.args.get("position") is not None:
        args.append(node.args["position"])
    if _exact_collation(args[:2], typer):  # LOCATE('HE', 'hello' COLLATE utf8mb4_bin) is 0
        if len(args) == 2:
            args.append(exp.Literal.number(1))
        args.append(exp.Literal.number(1))
    return _call("LOCATE", *args)


_EXACT = ("BINARY", "RM_PAD")  # SQLite's collations for MariaDB's _bin ones (translate.py)


def _named_collation(args: list[exp.Expression]) -> str | None:
    """The MariaDB collation an explicit COLLATE names among these arguments, when translate.py
    left it under its own name (a registered SQLite collation, collations.py)."""
    for arg in args:
        if isinstance(arg, exp.Collate):
            coll = charsets.collation(arg.expression.name)
            return coll.name if coll is not None else None
    return None


def _aggregated_collation(args: list[exp.Expression], typer: Typer) -> str | None:
    """The collation two strings compare by when it has weights of its own that STRCMP's
    default folding lacks (latin1_german2_ci's 'ä' = 'ae'): not a default, not a _bin one."""
    from rampmeter.engine.sqlite import collagg, collations
    from rampmeter.errors import ServerError
    try:
        dt = collagg.resolve(collagg._Builder(typer, "").agg("strcmp", args, True), {})
    except ServerError:
        return None
    if dt is None or dt.collation == "binary" or dt.collation.endswith("_bin") or \
            dt.collation in collations.FAST_DEFAULTS:
        return None
    coll = charsets.collation(dt.collation)
    return coll.name if coll is not None else None


def _exact_collation(args: list[exp.Expression], typer: Typer) -> bool:
    """Do these strings compare by a binary collation (_bin, or binary strings)? An explicit
    COLLATE decides (translate.py left SQLite's BINARY / NOCASE there), else a column's or
    expression's collation, as MariaDB aggregates them for comparison."""
    for arg in args:
        if isinstance(arg, exp.Collate):
            return arg.expression.name.upper() in _EXACT
    return any(charset_of(t) == "binary" or (t.collation or "").endswith("_bin")
               for t in (typer.infer(a) for a in args) if t is not None)


def _chr(node: exp.Chr, typer: Typer) -> exp.Expression:
    cs = node.args.get("charset")
    name = cs.name if isinstance(cs, exp.Expression) else ""
    # a hexadecimal literal is a number here: CHAR(0x41) is 'A' (rm_bin2num, translate.py)
    codes = [exp.Anonymous(this="rm_bin2num", expressions=[c]) if isinstance(c, exp.Placeholder) and c.name[:1] == "x"
             else c for c in node.expressions]
    return _call("CHAR", _text(name), *codes)


def _interval_function(node: exp.Interval, typer: Typer) -> exp.Expression | None:
    if node.args.get("unit") is not None or not isinstance(node.this, exp.Tuple):
        return None  # INTERVAL n unit: read by the function it belongs to
    return _call("INTERVAL", *node.this.expressions)


def _regexp(node: exp.RegexpLike, typer: Typer) -> exp.Expression:
    # a pattern that reads a column is compiled per row: one that does not compile is NULL
    # there, where a constant pattern's is error 1139 (MariaDB's Regexp_processor_pcre)
    per_row = node.expression.find(exp.Column) is not None
    return _call("REGEXP", node.this, node.expression,
                 exp.Literal.number(1 if _case_sensitive(node, typer) else 0),
                 exp.Literal.number(1 if per_row else 0))


def _case_sensitive(node: exp.Binary, typer: Typer) -> bool:
    for side in (node.this, node.expression):
        if isinstance(side, exp.Collate):  # already SQLite's BINARY / NOCASE (translate)
            return side.expression.name.upper() in _EXACT
        t = typer.infer(side)
        if t is None:
            continue
        if charset_of(t) == "binary" or (t.collation or "").endswith("_bin"):
            return True
    return False


def _interval_arithmetic(node: exp.Binary, typer: Typer) -> exp.Expression | None:
    """d + INTERVAL n unit, INTERVAL n unit + d, d - INTERVAL n unit: DATE_ADD / DATE_SUB."""
    left, right = node.this, node.expression
    if isinstance(right, exp.Interval) and right.args.get("unit") is not None:
        name = "DATE_ADD" if isinstance(node, exp.Add) else "DATE_SUB"
        return _call(name, left, right.this, _text(right.args["unit"].name.upper()),
                     _interval_kind(right, typer, left))
    if isinstance(node, exp.Add) and isinstance(left, exp.Interval) and \
            left.args.get("unit") is not None:
        return _call("DATE_ADD", right, left.this, _text(left.args["unit"].name.upper()),
                     _interval_kind(left, typer, right))
    return None


def _interval_kind(node: exp.Interval, typer: Typer,
                   base: exp.Expression | None = None) -> exp.Literal:
    """How MariaDB reads the interval's number as an integer (functions_time.interval): 's' a
    string (its leading digits), 'n' a number (rounded); a number literal is held as a string
    here (meta "number", dialect.py)."""
    timed = ""
    if base is not None:
        bt = typer.infer(base)
        timed = "t" if bt is not None and bt.name == "time" else ""  # TIME arithmetic
    if node.meta.get("number"):
        return _text("n" + timed)
    t = typer.infer(node.this)
    return _text(("s" if t is not None and (t.is_text or t.is_binary_string) else "n") + timed)


def _coalesce(node: exp.Coalesce, typer: Typer) -> exp.Expression | None:
    if node.expressions:
        return None
    return exp.Paren(this=node.this)  # COALESCE(x) is x; SQLite wants two arguments


def _group_concat(node: exp.GroupConcat, typer: Typer) -> exp.Expression | None:
    """GROUP_CONCAT(... ORDER BY ...): the library's ordered aggregate
    (functions_groupconcat.py); SQLite's own GROUP_CONCAT cannot order."""
    order = node.this
    if not isinstance(order, exp.Order):
        return None
    value = order.this
    distinct = isinstance(value, exp.Distinct)
    if distinct:
        parts = list(value.expressions)
        value = parts[0] if len(parts) == 1 else exp.Concat(expressions=parts, safe=True)
    keys: list[exp.Expression] = []
    for ordered in order.expressions:
        key = ordered.this if isinstance(ordered, exp.Ordered) else ordered
        t = typer.infer(key)
        if t is not None and t.is_text and t.collation and \
                collations.byte_key(t.collation) is not None:
            # sorted in Python: by the weights of its 8-bit / multi-byte collation
            key = exp.Anonymous(this="rm_collkey", expressions=[key, _text(t.collation)])
        keys.append(key)
        desc = isinstance(ordered, exp.Ordered) and bool(ordered.args.get("desc"))
        keys.append(exp.Literal.number(1 if desc else 0))
    separator = node.args.get("separator") or exp.Literal.string(",")
    return _call("RM_GROUP_CONCAT_ORDERED", value, separator,
                 exp.Literal.number(1 if distinct else 0), *keys)


def _weight_string_flags(args: list[exp.Expression], typer: Typer) -> exp.Expression:
    """weight_string(s, length, nweights, flags) -> rm_weight_string_flags(s, collation,
    length, nweights, flags) (functions_weight.py); a number's weight is NULL."""
    t = typer.infer(args[0])
    if t is not None and t.is_numeric:
        return exp.Null()
    return _call("WEIGHT_STRING_FLAGS", args[0], _collation_name(t), *args[1:])


def _weight_string(node: exp.WeightString, typer: Typer) -> exp.Expression:
    """WEIGHT_STRING(s [AS CHAR(n) | AS BINARY(n)]) -> mf_weight_string(s, collation, kind,
    n) (functions_weight.py); a number's weight is NULL, as MariaDB's."""
    t = typer.infer(node.this)
    if t is not None and t.is_numeric:
        return exp.Null()
    collation = _collation_name(t)
    if isinstance(node.this, exp.Collate) and node.this.meta.get("collation"):
        collation = _text(node.this.meta["collation"])  # the name translate.py renamed
    elif isinstance(node.this, exp.Collate):  # translate left SQLite's BINARY / NOCASE there
        cs = charset_of(typer.infer(node.this.this)) or "utf8mb4"
        collation = _text(cs + "_bin" if node.this.expression.name.upper() in _EXACT
                          else charsets.default_collation(cs).name)
    to = node.args.get("to")
    kind, n = "", 0
    if isinstance(to, exp.DataType):
        kind = "BINARY" if to.this in (exp.DataType.Type.BINARY,
                                       exp.DataType.Type.VARBINARY) else "CHAR"
        params = [p.this.name if isinstance(p, exp.DataTypeParam) else p.name
                  for p in to.expressions]
        n = int(params[0]) if params and str(params[0]).isdigit() else 1
        if n < 1:  # MariaDB's grammar takes a positive length only
            from rampmeter import errors
            from rampmeter.errors import ServerError
            raise ServerError(errors.ER_PARSE_ERROR, f"{params[0]})", 1)
    level = node.args.get("level")
    return _call("WEIGHT_STRING", node.this, collation, _text(kind), exp.Literal.number(n),
                 _text(level.name if isinstance(level, exp.Literal) else ""))


_NODES: dict[type, Callable[..., exp.Expression | None]] = {
    exp.Extract: _extract, exp.Trim: _trim, exp.Substring: _substring,
    exp.StrPosition: _position, exp.Chr: _chr, exp.Interval: _interval_function,
    exp.RegexpLike: _regexp, exp.Coalesce: _coalesce, exp.Add: _interval_arithmetic,
    exp.Sub: _interval_arithmetic, exp.GroupConcat: _group_concat,
    exp.WeightString: _weight_string, exp.ConvertTimezone: _convert_tz,
}
