"""MariaDB's CYCLE ... RESTRICT clause of a recursive CTE (10.5.2+), which neither sqlglot nor
SQLite reads.

Rules:
- Grammar (MariaDB's opt_cycle): `WITH RECURSIVE name [(cols)] AS (query) CYCLE c1, c2
  RESTRICT`, after the closing parenthesis of any CTE of a WITH RECURSIVE. After a plain WITH,
  CYCLE is a syntax error at CYCLE (MariaDB's parser knows the clause only after RECURSIVE).
- `strip` blanks the clause out of the text (same length, so every position of a later error
  still maps to the client's text) and returns it by CTE name; `mark` keeps it on the parsed
  CTE (its meta), where the view printer (sqltext.py) finds it again.
- The names are the CTE's columns (its column list, else its first query's select list): a
  name twice is 1060, a name that is none of them 1054 "in 'CYCLE clause'" (checked in the
  order written, as MariaDB's parser reports the first).
- Meaning: MariaDB's recursive CTE table gets a unique key over those columns only, so a row
  whose values of those columns are already in the CTE is dropped (anchor rows included),
  whatever the other columns say, and the recursion stops there. SQLite's recursive CTE keeps
  no such key, so every query of the CTE gets a last filter rm_cycle(tag, c1, c2, ...): true
  the first time the statement sees those values for that CTE (the set lives in the session's
  statement_state, emptied at every statement). The filter is evaluated only for rows the
  rest of the WHERE accepts (CASE WHEN where THEN rm_cycle(..) ELSE 0 END), or in HAVING for
  a grouped query. Values compare as SQLite gives them (not by collation).
"""

from __future__ import annotations

import itertools
from typing import Any

from sqlglot import exp

from rampmeter import errors
from rampmeter.errors import ServerError
from rampmeter.sql import lexer

FUNCTION = "rm_cycle"
_tags = itertools.count(1)


class Cycle:
    """One CYCLE clause: its column names as written, and where CYCLE starts in the text."""

    __slots__ = ("columns", "start")

    def __init__(self, columns: list[str], start: int) -> None:
        self.columns, self.start = columns, start


def strip(text: str, tokens: list[lexer.Token] | None
          ) -> tuple[str, dict[str, Cycle], int | None]:
    """(text without its CYCLE clauses, CTE name (lower case) -> clause, the position of a
    misplaced CYCLE for a syntax error or None)."""
    if tokens is None:
        return text, {}, None
    found: dict[str, Cycle] = {}
    depth = 0
    depths: list[int] = []
    for t in tokens:
        if t.text == ")":
            depth -= 1
        depths.append(depth)
        if t.text == "(":
            depth += 1
    cuts: list[tuple[int, int]] = []
    for i, t in enumerate(tokens):
        if not t.is_word("CYCLE") or i == 0 or tokens[i - 1].text != ")":
            continue
        name, recursive = _cte_before(tokens, depths, i - 1)
        if name is None:
            continue
        if not recursive:
            return text, {}, t.start
        cols: list[str] = []
        j = i + 1
        while j < len(tokens) and tokens[j].is_name:
            cols.append(lexer.ident_value(tokens[j].text) if tokens[j].kind == "qident"
                        else tokens[j].text)
            j += 1
            if j < len(tokens) and tokens[j].text == ",":
                j += 1
                continue
            break
        if not cols or j >= len(tokens) or not tokens[j].is_word("RESTRICT"):
            return text, {}, tokens[min(j, len(tokens) - 1)].start
        found[name.lower()] = Cycle(cols, t.start)
        cuts.append((t.start, tokens[j].end))
    for start, end in reversed(cuts):
        text = text[:start] + " " * (end - start) + text[end:]
    return text, found, None


def _cte_before(tokens: list[lexer.Token], depths: list[int], close: int
                ) -> tuple[str | None, bool]:
    """The CTE whose query ends at tokens[close] (a `)`): its name and whether its WITH says
    RECURSIVE; (None, False) when that parenthesis closes no CTE."""
    i = _opening(depths, close)
    if i is None or i < 2 or not tokens[i - 1].is_word("AS"):
        return None, False
    k = i - 2
    if tokens[k].text == ")":  # the column list
        opening = _opening(depths, k)
        if opening is None:
            return None, False
        k = opening - 1
    if k < 1 or not tokens[k].is_name:
        return None, False
    name = tokens[k].text
    if tokens[k].kind == "qident":
        name = lexer.ident_value(name)
    level = depths[k]
    for j in range(k - 1, -1, -1):
        if depths[j] < level:
            return None, False
        if depths[j] == level and tokens[j].is_word("WITH"):
            return name, j + 1 < len(tokens) and tokens[j + 1].is_word("RECURSIVE")
    return None, False


def _opening(depths: list[int], close: int) -> int | None:
    level = depths[close]
    for j in range(close - 1, -1, -1):
        if depths[j] == level:
            return j
    return None


def mark(tree: exp.Expression, found: dict[str, Cycle]) -> None:
    """Keep each clause on its CTE, checked (1060, 1054), and filter the CTE's queries."""
    for cte in tree.find_all(exp.CTE):
        cycle = found.get(cte.alias_or_name.lower())
        if cycle is None or "cycle" in cte.meta:
            continue
        cte.meta["cycle"] = cycle.columns
        positions = _positions(cte, cycle.columns)
        if positions is not None:
            _filter(cte, positions)


def _names(cte: exp.CTE) -> list[str] | None:
    alias = cte.args.get("alias")
    if isinstance(alias, exp.TableAlias) and alias.columns:
        return [c.name for c in alias.columns]
    select = cte.this
    while isinstance(select, exp.SetOperation):
        select = select.this
    while isinstance(select, exp.Subquery):
        select = select.this
    if not isinstance(select, exp.Select) or any(
            isinstance(x, exp.Star) or isinstance(x, exp.Column) and isinstance(x.this, exp.Star)
            for x in select.expressions):
        return None
    return [x.alias_or_name for x in select.expressions]


def _positions(cte: exp.CTE, columns: list[str]) -> list[int] | None:
    names = _names(cte)
    seen: set[str] = set()
    out: list[int] = []
    for c in columns:
        if c.lower() in seen:
            raise ServerError(errors.ER_DUP_FIELDNAME, c)
        seen.add(c.lower())
        if names is None:
            continue
        lowered = [n.lower() for n in names]
        if c.lower() not in lowered:
            raise ServerError(errors.ER_BAD_FIELD_ERROR, c, "CYCLE clause")
        out.append(lowered.index(c.lower()))
    if names is None:
        raise ServerError(errors.ER_NOT_SUPPORTED_YET, "CYCLE over a CTE whose columns are '*'")
    return out


def _leaves(query: exp.Expression) -> list[exp.Expression]:
    if isinstance(query, exp.SetOperation):
        return _leaves(query.this) + _leaves(query.expression)
    if isinstance(query, exp.Subquery):
        return _leaves(query.this)
    return [query]


def _filter(cte: exp.CTE, positions: list[int]) -> None:
    tag = f"{cte.alias_or_name}:{next(_tags)}"
    for select in _leaves(cte.this):
        if not isinstance(select, exp.Select) or any(
                isinstance(x, exp.Star) or isinstance(x, exp.Column) and isinstance(x.this,
                                                                                   exp.Star)
                for x in select.expressions) or len(select.expressions) <= max(positions):
            raise ServerError(errors.ER_NOT_SUPPORTED_YET, "CYCLE over a query with '*'")
        values = [select.expressions[p] for p in positions]
        call = exp.Anonymous(this=FUNCTION, expressions=[exp.Literal.string(tag)] + [
            (v.this if isinstance(v, exp.Alias) else v).copy() for v in values])
        grouped = select.args.get("group") is not None or any(
            v.find(exp.AggFunc) is not None for v in values)
        key = "having" if grouped else "where"
        clause = select.args.get(key)
        if clause is not None:
            call = exp.Case(ifs=[exp.If(this=exp.Paren(this=clause.this), true=call)],
                            default=exp.Literal.number(0))
        select.set(key, exp.Having(this=call) if grouped else exp.Where(this=call))


def first_seen(state: dict[Any, Any], tag: str, *values: Any) -> int:
    """rm_cycle: 1 the first time this statement sees `values` for the CTE `tag`, else 0."""
    seen = state.setdefault((FUNCTION, tag), set())
    key = tuple(values)
    if key in seen:
        return 0
    seen.add(key)
    return 1
