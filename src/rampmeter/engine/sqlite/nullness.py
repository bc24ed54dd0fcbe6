"""Can an expression be NULL? MariaDB's maybe_null of an item, for the result columns a
statement makes: CREATE TABLE ... SELECT makes a column NOT NULL when its expression can never
be NULL, and a result set's column carries NOT_NULL_FLAG then.

Rules (MariaDB 10.11's Item::maybe_null, for the items whose rule is known; anything else may
be NULL, the safe answer: a NOT NULL column that should not be would refuse rows):
- A literal other than NULL, and a statement's bound value, is never NULL; NULL is.
- A table column is NOT NULL as its definition says (the caller knows which columns a LEFT JOIN
  makes nullable: it answers for them).
- An operator or function whose result is NULL only for a NULL argument (+ - * unary minus,
  comparisons, AND / OR / NOT, IN, BETWEEN, LIKE, ABS, FLOOR, CEIL, ROUND, TRUNCATE, UPPER,
  LOWER, LENGTH & co., GREATEST, LEAST, CAST to a number or a string) is never NULL when no
  argument is.
- `/`, DIV and MOD may be NULL (a zero divisor), so may NULLIF, COLLATE (MariaDB marks
  Item_func_set_collation so), CAST to a temporal type, and aggregates other than COUNT.
- `<=>`, IS [NOT] NULL, ISNULL(), COUNT, NOW() & co. are never NULL.
- COALESCE / IFNULL is never NULL when one argument is not; IF and CASE when every branch is
  not, a CASE with an ELSE.
"""

from __future__ import annotations

from collections.abc import Callable

from sqlglot import exp

ColumnNotNull = Callable[[exp.Column], bool]

_STRICT = (exp.Add, exp.Sub, exp.Mul, exp.BitwiseAnd, exp.BitwiseOr, exp.BitwiseXor,
           exp.BitwiseLeftShift, exp.BitwiseRightShift, exp.EQ, exp.NEQ, exp.GT, exp.GTE,
           exp.LT, exp.LTE, exp.And, exp.Or, exp.Xor, exp.Like, exp.ILike, exp.Neg, exp.Not,
           exp.BitwiseNot, exp.Between, exp.In, exp.Abs, exp.Floor, exp.Ceil, exp.Round,
           exp.Upper, exp.Lower, exp.Length, exp.Paren, exp.Alias, exp.Sign, exp.Hex,
           exp.Greatest, exp.Least)
_NEVER = (exp.NullSafeEQ, exp.Is, exp.Count, exp.CurrentTimestamp, exp.CurrentDate,
          exp.CurrentTime, exp.UtcTimestamp, exp.UtcTime, exp.UtcDate, exp.Localtime,
          exp.Localtimestamp)
_STRICT_NAMES = frozenset({"CHAR_LENGTH", "CHARACTER_LENGTH", "OCTET_LENGTH", "BIT_LENGTH",
                           "TRUNCATE", "UCASE", "LCASE", "SIGN", "ABS"})
_NEVER_NAMES = frozenset({"NOW", "CURDATE", "CURTIME", "CURRENT_TIMESTAMP", "SYSDATE",
                          "LOCALTIME", "LOCALTIMESTAMP", "UTC_DATE", "UTC_TIME", "UTC_TIMESTAMP",
                          "CONNECTION_ID", "ISNULL", "VERSION", "PI"})
_TEMPORAL_CASTS = frozenset({"DATE", "DATETIME", "TIME", "TIMESTAMP"})


def never_null(e: exp.Expression | None, column: ColumnNotNull) -> bool:
    """True when MariaDB would say the expression can never be NULL (module rules)."""
    if e is None:
        return False
    if isinstance(e, exp.Null):
        return False
    if isinstance(e, (exp.Literal, exp.Placeholder, exp.Boolean)):
        return True
    if isinstance(e, exp.Column):
        return not isinstance(e.this, exp.Star) and column(e)
    if isinstance(e, _NEVER):
        return True
    if isinstance(e, exp.Anonymous):
        name = e.name.upper()
        if name in _NEVER_NAMES:
            return True
        return name in _STRICT_NAMES and bool(e.expressions) and \
            all(never_null(a, column) for a in e.expressions)
    if isinstance(e, exp.Coalesce):
        return any(never_null(a, column) for a in [e.this, *e.expressions])
    if isinstance(e, exp.If):
        return never_null(e.args.get("true"), column) and \
            never_null(e.args.get("false"), column)
    if isinstance(e, exp.Case):
        ifs = e.args.get("ifs") or []
        return bool(ifs) and never_null(e.args.get("default"), column) and \
            all(never_null(i.args.get("true"), column) for i in ifs)
    if isinstance(e, exp.Cast):
        to = e.args.get("to")
        kind = to.this.name if isinstance(to, exp.DataType) else ""
        return kind not in _TEMPORAL_CASTS and never_null(e.this, column)
    if isinstance(e, _STRICT):
        args = _operands(e)
        return bool(args) and all(never_null(a, column) for a in args)
    return False


def _operands(e: exp.Expression) -> list[exp.Expression]:
    found = [a for v in e.args.values() for a in (v if isinstance(v, list) else [v])]
    return [a for a in found if isinstance(a, exp.Expression) and not isinstance(
        a, (exp.Identifier, exp.TableAlias, exp.DataType, exp.Var))]
