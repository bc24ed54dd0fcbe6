"""The stored-program grammar: a routine's CREATE text, and a compound statement, into a tree.

Rules:
- Read once per text (cached): CREATE PROCEDURE / FUNCTION at creation (a syntax error is the
  CREATE's 1064) and again, from the stored text, when a session first runs it.
- The control-flow grammar is read here from the front door's tokens (sql/lexer.tokens);
  the simple statements inside (SELECT, INSERT, SET @x, SHOW...) are not parsed: each is kept
  as its text with every local variable it names replaced by a `?` marker and the variable
  names in marker order (Sql.vars), so the interpreter binds their values as parameters and
  the session's normal statement path reads the statement.
- A name is a local variable where it is not qualified (no `.` around it), not a function
  name (no `(` after it) and declared in an enclosing block (or a parameter); MariaDB's rule
  that a local variable shadows a column of the same name follows.
- Expressions (IF's condition, SET's value, RETURN's value, DEFAULT) are kept the same way
  and evaluated as `SELECT <expr>`.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from rampmeter.engine.types import check_members, parse_type
from rampmeter.errors import ServerError
from rampmeter.session.sp.tokens import Tokens as _P
from rampmeter.session.sp.tokens import sql
from rampmeter.session.sp.tree import (
    Block,
    Call,
    Case,
    Cursor,
    Diagnostics,
    FetchGroup,
    For,
    Handler,
    If,
    Jump,
    Loop,
    Param,
    Return,
    Routine,
    Set,
    Signal,
    Sql,
    Var,
)
from rampmeter.sql.lexer import Dialect, ident_value, syntax_error

_LABELLED = ("BEGIN", "LOOP", "WHILE", "REPEAT", "FOR")
_STOP_BODY = ("END", "ELSE", "ELSEIF", "WHEN", "UNTIL")


# --- CREATE PROCEDURE / FUNCTION ----------------------------------------------------------------
# words a body that is one statement starts with, which end a function's RETURNS type
_BODY_WORDS = ("FOR", "IF", "CASE", "WHILE", "LOOP", "REPEAT", "SELECT", "INSERT", "UPDATE",
               "DELETE", "REPLACE", "CALL", "DO", "WITH", "SIGNAL", "RESIGNAL", "VALUES")


@lru_cache(maxsize=512)
def routine(text: str, dialect: Dialect) -> tuple[Routine, Any]:
    p = _P(text, dialect)
    p.expect("CREATE")
    r = Routine("", None, "", [], "", {}, 0, "")
    r.or_replace = p.accept("OR", "REPLACE")
    if p.accept("DEFINER"):
        p.expect("=")
        a, _ = p.i, p.name_or_string()  # 'user'@host: a string user name too
        if p.peek() is not None and p.peek().text.startswith("@"):  # type: ignore[union-attr]
            p.i += 1
            if p.peek() is not None and p.peek().kind in ("str", "qident", "word") and \
                    p.toks[p.i - 1].text == "@":  # type: ignore[union-attr]
                p.i += 1
        elif p.accept("("):
            p.expect(")")
        r.definer = text[p.toks[a].start:p.toks[p.i - 1].end]
    r.aggregate = p.accept("AGGREGATE")
    r.kind = p.word()
    if r.kind not in ("PROCEDURE", "FUNCTION"):
        raise p.error()
    p.i += 1
    r.if_not_exists = p.accept("IF", "NOT", "EXISTS")
    first = p.name()
    if p.accept("."):
        r.db, r.name = first, p.name()
    else:
        r.name = first
    p.expect("(")
    open_at = p.toks[p.i - 1].end
    r.params = _params(p, r.kind)
    r.params_text = text[open_at:p.toks[p.i - 1].start]
    if r.kind == "FUNCTION":
        p.expect("RETURNS")
        a, b = p.upto(("COMMENT", "LANGUAGE", "NOT", "DETERMINISTIC", "CONTAINS", "NO", "READS",
                       "MODIFIES", "SQL", "BEGIN", "RETURN", "CHARSET", "COLLATE") +
                      _BODY_WORDS)
        while p.word() in ("CHARSET", "COLLATE") or p.at("CHARACTER", "SET"):
            p.accept("CHARACTER")
            p.i += 1
            p.name()
            b = p.i
        r.returns = text[p.toks[a].start:p.toks[b - 1].end]
    characteristics(p, r.chars)
    if p.peek() is None:
        raise p.error()
    r.body_start = p.peek().start  # type: ignore[union-attr]
    p.in_aggregate = r.aggregate
    scope = frozenset(x.name.lower() for x in r.params) | \
        {"\0row." + x.name.lower() for x in r.params if is_row_type(x.type)}
    body = statement(p, scope)
    r.late_into = p.late_into
    r.body_end = p.toks[p.i - 1].end  # not a closing `*/` of a dump's comment
    p.accept(";")
    if p.peek() is not None:
        raise p.error()
    if r.aggregate and not p.fetch_group:
        raise ServerError(4106, message="Aggregate specific instruction(FETCH GROUP NEXT ROW) "
                          "missing from the aggregate function", sqlstate="HY000")
    r.has_return = p.returns  # a FUNCTION without one is 1320 at CREATE (ddl.py)
    return r, body


def is_row_type(vtype: str) -> bool:
    """ROW(...) / ROW TYPE OF ...: a record's declared type."""
    return vtype[:3].upper() == "ROW" and vtype[3:4] in (" ", "(", "\t", "\n")


def _params(p: _P, kind: str) -> list[Param]:
    out: list[Param] = []
    if p.accept(")"):
        return out
    while True:
        mode = "IN"
        if p.word() in ("IN", "OUT", "INOUT") and p.peek(1) is not None and \
                p.peek(1).kind in ("word", "qident"):  # type: ignore[union-attr]
            mode = p.word()
            p.i += 1
        name = p.name()
        a, b = _type_range(p)
        out.append(Param(mode, name, p.text[p.toks[a].start:p.toks[b - 1].end]))
        if p.accept(")"):
            return out
        p.expect(",")


def _range_until(p: _P, stops: tuple[str, ...]) -> tuple[int, int]:
    """Token range [i, j) up to one of `stops` outside parentheses; at least one token."""
    a = p.i
    depth = 0
    while p.i < len(p.toks):
        t = p.toks[p.i]
        if depth == 0 and t.text in stops:
            break
        if t.text == ";":  # never inside parentheses, nor in a value or a type
            raise p.error()
        depth += t.text == "("
        depth -= t.text == ")"
        p.i += 1
    if p.i == a:
        raise p.error()
    return a, p.i


def _type_range(p: _P) -> tuple[int, int]:
    return _range_until(p, (",", ")"))


def characteristics(p: _P, chars: dict[str, str]) -> None:
    while True:
        if p.accept("COMMENT"):
            chars["comment"] = p.string()
        elif p.accept("LANGUAGE", "SQL"):
            pass
        elif p.accept("NOT", "DETERMINISTIC"):
            chars["deterministic"] = "NO"
        elif p.accept("DETERMINISTIC"):
            chars["deterministic"] = "YES"
        elif p.accept("CONTAINS", "SQL"):
            chars["data_access"] = "CONTAINS SQL"
        elif p.accept("NO", "SQL"):
            chars["data_access"] = "NO SQL"
        elif p.accept("READS", "SQL", "DATA"):
            chars["data_access"] = "READS SQL DATA"
        elif p.accept("MODIFIES", "SQL", "DATA"):
            chars["data_access"] = "MODIFIES SQL DATA"
        elif p.accept("SQL", "SECURITY"):
            chars["security"] = p.word()
            if chars["security"] not in ("DEFINER", "INVOKER"):
                raise p.error()
            p.i += 1
        else:
            return


# --- compound statements ------------------------------------------------------------------------
@lru_cache(maxsize=512)
def compound(text: str, dialect: Dialect) -> Any:
    """A compound statement run at top level (BEGIN NOT ATOMIC ... END, IF, loops...)."""
    p = _P(text, dialect)
    body = statement(p, frozenset())
    p.accept(";")
    if p.peek() is not None:
        raise p.error()
    return body


_SIMPLE = (Sql, Set, Signal, Call, Cursor, Return, Jump, Diagnostics, FetchGroup)


def statement(p: _P, scope: frozenset[str]) -> Any:
    first = p.peek()
    line = p.line_of(first.start) if first is not None else 0
    label = None
    t1 = p.peek(1)
    if t1 is not None and t1.text == ":" and p.word(2) in _LABELLED:
        label = p.name().lower()
        p.i += 1
    if label is not None:
        p.labels.append(label)
        try:
            node = _statement(p, label, scope)
        finally:
            p.labels.pop()
    else:
        node = _statement(p, label, scope)
    if hasattr(node, "line"):  # counted from the CREATE's first line, as MariaDB's Note 4094
        if type(node) in _SIMPLE:  # MariaDB's: where its parser is at the statement's end
            end = p.peek() or p.toks[p.i - 1]
            line = p.line_of(end.start)
        node.line = line
    return node


def _statement(p: _P, label: str | None, scope: frozenset[str]) -> Any:
    w = p.word()
    if w == "BEGIN" and not p.at("BEGIN", ";") and not p.at("BEGIN", "WORK") and \
            p.peek(1) is not None:
        return _block(p, label, scope)
    if w == "IF":
        return _if(p, scope)
    if w == "CASE":
        return _case(p, scope)
    if w in ("LOOP", "WHILE", "REPEAT"):
        return _loop(p, w, label, scope)
    if w == "FOR":
        return _for(p, label, scope)
    if w in ("LEAVE", "ITERATE"):
        p.i += 1
        target = p.name()
        if target.lower() not in p.labels:
            raise ServerError(1308, message=f"{w} with no matching label: {target}",
                              sqlstate="42000")
        return Jump(w, target.lower())
    if w == "RETURN":
        p.i += 1
        p.returns = True
        a, b = p.upto(())
        return Return(sql(p, a, b, scope))
    if w in ("OPEN", "CLOSE"):
        p.i += 1
        node = Cursor(w, p.name().lower())
        if w == "OPEN" and p.accept("("):
            while not p.accept(")"):
                a, b = _type_range(p)
                node.args.append(sql(p, a, b, scope))
                p.accept(",")
        if w == "OPEN":
            _cursor_args(p, node.name, len(node.args))
        return node
    if w == "FETCH" and p.word(1) == "GROUP":
        p.i += 2
        p.expect("NEXT", "ROW")
        p.fetch_group = True
        if not p.in_aggregate:  # a function, procedure, trigger, event, compound statement
            raise ServerError(4105, message="Aggregate specific instruction (FETCH GROUP NEXT "
                              "ROW) used in a wrong context", sqlstate="HY000")
        return FetchGroup()
    if w == "FETCH":
        return _fetch(p)
    if w == "CALL":
        return call(p, scope)
    if w in ("SIGNAL", "RESIGNAL"):
        return _signal(p, scope)
    if w == "GET":
        return diagnostics(p, scope)
    if w == "SET" and _local_set(p, scope):
        return _set(p, scope)
    if w == "SET":
        _system_set(p, scope)
    first = p.peek()
    if first is not None and (first.kind != "word" or first.text.upper() not in _STARTS) and \
            first.text != "(":
        p.i += 1  # MariaDB's parser stops at the token after a word no statement starts with
        raise p.error()
    a, b = p.upto(())
    return sql(p, a, b, scope, into=p.toks[a].text.upper() == "SELECT")


# The words a simple statement inside a body may start with (MariaDB's statements).
_STARTS = frozenset("""SELECT INSERT UPDATE DELETE REPLACE WITH VALUES TABLE SET SHOW CREATE
DROP ALTER RENAME TRUNCATE CALL DO EXECUTE PREPARE DEALLOCATE GRANT REVOKE FLUSH KILL USE LOCK
UNLOCK START BEGIN COMMIT ROLLBACK SAVEPOINT RELEASE ANALYZE OPTIMIZE CHECK REPAIR CHECKSUM
EXPLAIN DESCRIBE DESC LOAD HANDLER XA GET PURGE RESET CHANGE INSTALL UNINSTALL BINLOG CACHE
SHUTDOWN HELP BACKUP SHUTDOWN""".split())


def _body(p: _P, scope: frozenset[str], stop: tuple[str, ...] = _STOP_BODY) -> list[Any]:
    out: list[Any] = []
    while p.peek() is not None and p.word() not in stop:
        out.append(statement(p, scope))
        p.expect(";")
    return out


def _block(p: _P, label: str | None, scope: frozenset[str]) -> Block:
    p.expect("BEGIN")
    p.accept("NOT", "ATOMIC")
    block = Block(label, [])
    while p.word() == "DECLARE":
        p.i += 1
        scope = _declare(p, block, scope)
        p.expect(";")
    p.cursor_stack.append({n: len(ps) for n, ps in block.cursor_params.items()} |
                          {n: 0 for n in block.cursors if n not in block.cursor_params})
    try:
        block.body = _body(p, scope, ("END",))
    finally:
        p.cursor_stack.pop()
    p.expect("END")
    _end_label(p, label)
    return block


def _cursor_args(p: _P, name: str, count: int) -> None:
    """OPEN / FOR of a cursor declared in an enclosing block with another number of
    parameters: 4080 when the program is created, as MariaDB."""
    for declared in reversed(p.cursor_stack):
        if name in declared:
            if declared[name] != count:
                raise ServerError(4080, message=f"Incorrect parameter count to cursor "
                                  f"'{name}'", sqlstate="42000")
            return


def _end_label(p: _P, label: str | None) -> None:
    t = p.peek()
    if t is not None and t.kind in ("word", "qident") and t.text != ";" and label is not None:
        if p.name().lower() != label:
            raise p.error()


def _declare(p: _P, block: Block, scope: frozenset[str]) -> frozenset[str]:
    if p.word() in ("CONTINUE", "EXIT", "UNDO"):
        action = p.word()
        p.i += 1
        p.expect("HANDLER")
        p.expect("FOR")
        conds: list[Any] = []
        while True:
            conds.append(_condition_value(p))
            if not p.accept(","):
                break
        block.handlers.append(Handler(action, conds, statement(p, scope)))
        return scope
    name = p.name()
    if p.accept("CONDITION"):
        p.expect("FOR")
        value = block.conditions[name.lower()] = _condition_value(p)
        scope = scope | {_COND + name.lower()}
        if isinstance(value, int):
            return scope | {_COND_NUMBER + name.lower()}
        return scope - {_COND_NUMBER + name.lower()}
    if p.accept("CURSOR"):
        params: list[Param] = []
        if p.accept("("):
            params = _params(p, "CURSOR")
        p.expect("FOR")
        a, b = p.upto(())
        if any(x.mode != "IN" for x in params):
            raise ServerError(1235, message="This version of MariaDB doesn't yet support "
                              "'OUT/INOUT cursor parameter'", sqlstate="42000")
        inner = scope | {x.name.lower() for x in params}
        block.cursors[name.lower()] = sql(p, a, b, inner)
        block.cursor_params[name.lower()] = params
        return scope
    names = [name]
    while p.accept(","):
        names.append(p.name())
    a = p.i
    while p.peek() is not None and p.word() != "DEFAULT" and p.peek().text != ";":  # type: ignore[union-attr]
        p.i += 1
    if p.i == a:
        raise p.error()
    vtype = p.text[p.toks[a].start:p.toks[p.i - 1].end]
    end_at = p.i
    if p.toks[a].text.upper() == "SET":  # members with a comma: 1367 at CREATE
        try:
            check_members(parse_type(vtype))
        except ValueError:
            pass
    default = None
    if p.accept("DEFAULT"):
        s, e = p.upto(())
        default = sql(p, s, e, scope)
    end = p.peek() or p.toks[p.i - 1]
    block.vars.append(Var([n.lower() for n in names], vtype, default,
                          p.line_of(end.start)))
    anchor = vtype.split()[2:] if vtype[:8].upper() == "TYPE OF " else []
    if len(anchor) == 1 and "\0row." + anchor[0].strip("`").lower() in scope:
        scope = scope | {"\0row." + n.lower() for n in names}  # TYPE OF a record
    if p.toks[a].text.upper() == "ROW":  # a record: rec.field reads / sets its fields
        scope = scope | {"\0row." + n.lower() for n in names}
        fields = _explicit_fields(p, a, end_at)
        for n in names:  # ROW(...): a field it lacks is 4082 at CREATE (tokens.sql)
            p.row_fields[n.lower()] = fields
    return scope | {n.lower() for n in names}


def _explicit_fields(p: _P, a: int, b: int) -> frozenset[str] | None:
    """The field names of ROW(name type, ...) in toks[a:b]; None for ROW TYPE OF."""
    toks = p.toks
    if a + 1 >= b or toks[a + 1].text != "(":
        return None
    names: set[str] = set()
    depth, first = 0, True
    for x in toks[a + 1:b]:
        if x.text == "(":
            depth += 1
            first = depth == 1
            continue
        if x.text == ")":
            depth -= 1
            continue
        if depth == 1 and x.text == ",":
            first = True
            continue
        if first and depth == 1 and x.kind in ("word", "qident"):
            names.add((x.text if x.kind == "word" else ident_value(x.text)).lower())
        first = False
    return frozenset(names)


def _condition_value(p: _P) -> Any:
    if p.accept("SQLSTATE"):
        p.accept("VALUE")
        state = p.string()
        # MariaDB's is_sqlstate_valid and no completion class '00' (sp_cond, SIGNAL)
        if len(state) != 5 or state.startswith("00") or \
                any(not (c.isdigit() or "A" <= c <= "Z") for c in state):
            raise ServerError(1407, message=f"Bad SQLSTATE: '{state}'", sqlstate="42000")
        return "SQLSTATE:" + state
    if p.accept("NOT", "FOUND"):
        return "NOT FOUND"
    if p.word() in ("SQLEXCEPTION", "SQLWARNING"):
        p.i += 1
        return p.toks[p.i - 1].text.upper()
    t = p.peek()
    if t is not None and t.kind == "num":
        p.i += 1
        return int(t.text)
    return p.name().lower()


def _if(p: _P, scope: frozenset[str]) -> If:
    p.expect("IF")
    node = If([], None)
    while True:
        a, b = p.upto(("THEN",), semicolon=False)
        p.expect("THEN")
        node.branches.append((sql(p, a, b, scope), _body(p, scope)))
        if p.accept("ELSEIF"):
            continue
        if p.accept("ELSE"):
            node.otherwise = _body(p, scope)
        p.expect("END", "IF")
        return node


def _case(p: _P, scope: frozenset[str]) -> Case:
    p.expect("CASE")
    node = Case(None, [], None)
    if p.word() != "WHEN":
        a, b = p.upto(("WHEN",), semicolon=False)
        node.subject = sql(p, a, b, scope)
    while p.accept("WHEN"):
        a, b = p.upto(("THEN",), semicolon=False)
        p.expect("THEN")
        node.branches.append((sql(p, a, b, scope), _body(p, scope)))
    if p.accept("ELSE"):
        node.otherwise = _body(p, scope)
    p.expect("END", "CASE")
    after = p.peek() or p.toks[p.i - 1]  # MariaDB's "case not found" is at the token after
    node.end_line = p.line_of(after.start)
    return node


def _loop(p: _P, kind: str, label: str | None, scope: frozenset[str]) -> Loop:
    p.i += 1
    cond = None
    if kind == "WHILE":
        a, b = p.upto(("DO",), semicolon=False)
        cond = sql(p, a, b, scope)
        p.expect("DO")
    body = _body(p, scope)
    if kind == "REPEAT":
        p.expect("UNTIL")
        a, b = p.upto(("END",), semicolon=False)
        cond = sql(p, a, b, scope)
    p.expect("END", kind)
    _end_label(p, label)
    return Loop(kind, label, cond, body)


def call(p: _P, scope: frozenset[str]) -> Call:
    p.expect("CALL")
    first = p.name()
    node = Call(None, first, [])
    if p.accept("."):
        node.db, node.name = first, p.name()
    if p.accept("("):
        if p.accept(")"):
            return node
        while True:
            a, b = _type_range(p)
            node.args.append(sql(p, a, b, scope))
            if p.accept(")"):
                return node
            p.expect(",")
    return node


def parse_call(text: str, dialect: Dialect) -> Call:
    p = _P(text, dialect)
    node = call(p, frozenset())
    p.accept(";")
    if p.peek() is not None:
        raise p.error()
    return node


def _for(p: _P, label: str | None, scope: frozenset[str]) -> For:
    """FOR var IN [REVERSE] lower .. upper DO body END FOR (MariaDB's integer FOR loop), or
    FOR rec IN {cursor [(args)] | (SELECT ...)} DO body END FOR, where rec.col reads the row's
    columns."""
    p.expect("FOR")
    var = p.name().lower()
    p.expect("IN")
    reverse = p.accept("REVERSE")
    a, b = p.upto(("DO",), semicolon=False)
    p.expect("DO")
    span = p.text[p.toks[a].start:p.toks[b - 1].end]
    cut = span.find("..")
    node = For(label, var, None, None, reverse, [])
    toks = p.toks
    if cut > 0:
        node.lower = _fragment(span[:cut], p.dialect, scope)
        node.upper = _fragment(span[cut + 2:], p.dialect, scope)
        inner = scope | {var}
    elif not reverse and toks[a].text == "(" and toks[b - 1].text == ")" and b - a > 2 and \
            toks[a + 1].text.upper() in ("SELECT", "WITH", "VALUES", "("):
        node.query = sql(p, a + 1, b - 1, scope)
        inner = scope | {"\0row." + var}
    elif not reverse and toks[a].kind in ("word", "qident") and (
            b - a == 1 or toks[a + 1].text == "(" and toks[b - 1].text == ")"):
        node.cursor = (toks[a].text if toks[a].kind == "word" else
                       ident_value(toks[a].text)).lower()
        node.args = [sql(p, x, y, scope) for x, y in _args(toks, a + 2, b - 1)]
        _cursor_args(p, node.cursor, len(node.args))
        inner = scope | {"\0row." + var}
    else:  # `lo . . hi`: the error is at the second dot, as MariaDB's parser says
        dots = [k for k in range(a, b - 1) if toks[k].text == "." and toks[k + 1].text == "."]
        raise p.error(toks[dots[0] + 1] if dots else None)
    node.body = _body(p, inner)
    p.expect("END", "FOR")
    _end_label(p, label)
    return node


def _args(toks: list[Any], a: int, b: int) -> list[tuple[int, int]]:
    """Token ranges of the comma-separated arguments in toks[a:b]."""
    out: list[tuple[int, int]] = []
    depth, start = 0, a
    for k in range(a, b):
        u = toks[k].text
        depth += (u == "(") - (u == ")")
        if u == "," and depth == 0:
            out.append((start, k))
            start = k + 1
    if b > a:
        out.append((start, b))
    return out


def _fragment(text: str, dialect: Dialect, scope: frozenset[str]) -> Sql:
    q = _P(text, dialect)
    if not q.toks:
        raise syntax_error(text, 0)
    return sql(q, 0, len(q.toks), scope)


def _fetch(p: _P) -> Cursor:
    p.expect("FETCH")
    if p.accept("NEXT"):
        p.expect("FROM")
    else:
        p.accept("FROM")
    node = Cursor("FETCH", p.name().lower())
    p.expect("INTO")
    while True:
        node.into.append(p.name().lower())
        if not p.accept(","):
            return node


# the condition information items SIGNAL / RESIGNAL may SET (MariaDB's
# signal_condition_information_item_name)
_SIGNAL_ITEMS = frozenset({"CLASS_ORIGIN", "SUBCLASS_ORIGIN", "CONSTRAINT_CATALOG",
                           "CONSTRAINT_SCHEMA", "CONSTRAINT_NAME", "CATALOG_NAME", "SCHEMA_NAME",
                           "TABLE_NAME", "COLUMN_NAME", "CURSOR_NAME", "MESSAGE_TEXT",
                           "MYSQL_ERRNO", "ROW_NUMBER"})
_COND = "\0cond."         # in a scope: a condition declared there
_COND_NUMBER = "\0condnum."  # ... FOR an error number, which SIGNAL may not use (1646)


def _signal(p: _P, scope: frozenset[str]) -> Signal:
    """SIGNAL condition [SET item = value, ...] / RESIGNAL [condition] [SET ...], checked as
    MariaDB's parser does: the condition is SQLSTATE '...' (1407 for a bad or '00' one) or a
    condition declared in scope (1319; 1646 when it names an error number); each item is a
    known one (1064), set once (1641)."""
    resignal = p.word() == "RESIGNAL"
    p.i += 1
    cond: Any = None
    t = p.peek()
    if p.word() not in ("SET", "") or t is not None and t.kind == "qident":
        if p.word() in ("SQLEXCEPTION", "SQLWARNING", "NOT") or t is not None and \
                t.kind not in ("word", "qident"):
            raise p.error(t)
        cond = _condition_value(p)
        if isinstance(cond, str) and not cond.startswith("SQLSTATE:"):
            if _COND + cond not in scope:
                raise ServerError(1319, message=f"Undefined CONDITION: {cond}",
                                  sqlstate="42000")
            if _COND_NUMBER + cond in scope:
                raise ServerError(1646, message="SIGNAL/RESIGNAL can only use a CONDITION "
                                  "defined with SQLSTATE", sqlstate="HY000")
    elif not resignal:
        raise p.error(p.peek())
    items: dict[str, Sql] = {}
    if p.accept("SET"):
        while True:
            t = p.peek()
            item = p.name().upper()
            if item not in _SIGNAL_ITEMS or t is not None and t.kind != "word":
                raise p.error(t)
            if item in items:
                raise ServerError(1641, message=f"Duplicate condition information item "
                                  f"'{item}'", sqlstate="42000")
            p.expect("=")
            a, b = _item_range(p)
            _signal_value(p, a, b, scope)
            items[item] = sql(p, a, b, scope)
            if not p.accept(","):
                break
    return Signal(resignal, cond, items)


_STATEMENT_ITEMS = ("NUMBER", "ROW_COUNT")
_CONDITION_ITEMS = ("MESSAGE_TEXT", "MYSQL_ERRNO", "RETURNED_SQLSTATE", "CLASS_ORIGIN",
                    "SUBCLASS_ORIGIN", "CONSTRAINT_CATALOG", "CONSTRAINT_SCHEMA",
                    "CONSTRAINT_NAME", "CATALOG_NAME", "SCHEMA_NAME", "TABLE_NAME",
                    "COLUMN_NAME", "CURSOR_NAME", "ROW_NUMBER")


def diagnostics(p: _P, scope: frozenset[str]) -> Diagnostics:
    """GET [CURRENT | STACKED] DIAGNOSTICS {target = item, ... | CONDITION n target = item,
    ...} (a STACKED area is the current one here: handlers run on their own condition)."""
    p.expect("GET")
    if p.word() in ("CURRENT", "STACKED"):
        p.i += 1
    p.expect("DIAGNOSTICS")
    node = Diagnostics(None, [])
    allowed = _STATEMENT_ITEMS
    if p.accept("CONDITION"):
        a, b = _condition_number(p)
        node.condition = sql(p, a, b, scope)
        allowed = _CONDITION_ITEMS
    while True:
        t = p.peek()
        if t is not None and t.kind == "uservar":
            p.i += 1
            target = t.text
        else:
            target = p.name().lower()
            if target not in scope:
                raise ServerError(1327, message=f"Undeclared variable: {target}",
                                  sqlstate="42000")
        p.expect("=")
        item = p.word()
        if item not in allowed:
            raise p.error()
        p.i += 1
        node.items.append((target, item))
        if not p.accept(","):
            return node


def diagnostics_statement(text: str, dialect: Dialect) -> Diagnostics:
    """GET DIAGNOSTICS sent by a client: user variables only."""
    p = _P(text, dialect)
    node = diagnostics(p, frozenset())
    p.accept(";")
    if p.peek() is not None:
        raise p.error()
    return node


def _condition_number(p: _P) -> tuple[int, int]:
    a = p.i
    p.i += 1  # one token: a number, a variable
    if a >= len(p.toks):
        raise p.error()
    _simple_value(p, a, p.i)
    return a, p.i


_NOT_VALUES = frozenset({"(", "EXISTS", "SELECT", "NOT", "-", "+"})


def _simple_value(p: _P, a: int, b: int) -> None:
    """SIGNAL's SET values and GET DIAGNOSTICS' condition number are MariaDB's
    signal_allowed_expr: a literal or a variable, no expression (1064 at its start)."""
    first = p.toks[a] if a < len(p.toks) else None
    if first is None or a == b:
        raise p.error(first)
    word = first.text.upper() if first.kind == "word" else first.text
    introduced = b - a == 2 and first.kind == "word" and first.text.startswith("_") and \
        p.toks[a + 1].kind == "str"
    if word in _NOT_VALUES or b - a > 1 and not introduced:
        raise p.error(first)


_LITERAL_WORDS = frozenset({"NULL", "TRUE", "FALSE"})


def _signal_value(p: _P, a: int, b: int, scope: frozenset[str]) -> None:
    """A SIGNAL item's value (MariaDB's signal_allowed_expr): a literal, a user variable, a
    local variable (an identifier that is none is 1327 at CREATE), or in a trigger NEW.col /
    OLD.col."""
    toks = p.toks
    if b - a == 3 and "\0new" in scope and toks[a].kind == "word" and \
            toks[a].text.upper() in ("NEW", "OLD") and toks[a + 1].text == "." and \
            toks[a + 2].kind in ("word", "qident"):
        return
    if b - a > 2 and toks[a].kind == "uservar" and toks[a + 1].text == ":=":
        # @v := expr parses, then is refused at the token read after it (MariaDB's check
        # for SUSERVAR_FUNC): the error quotes the text after that one
        raise syntax_error(p.text, toks[b].end if b < len(toks) else len(p.text))
    _simple_value(p, a, b)
    t = toks[a]
    if b - a == 1 and (t.kind == "qident" or t.kind == "word" and
                       t.text.upper() not in _LITERAL_WORDS):
        name = t.text if t.kind == "word" else ident_value(t.text)
        if name.lower() not in scope:
            raise ServerError(1327, message=f"Undeclared variable: {name}", sqlstate="42000")


def _item_range(p: _P) -> tuple[int, int]:
    return _range_until(p, (",", ";"))


def _local_set(p: _P, scope: frozenset[str]) -> bool:
    """SET x = ... where x is a local variable (other SETs go to the session)."""
    t = p.peek(1)
    if t is not None and _row_target(p, 1, scope):  # a trigger's SET NEW.col = ...
        return True
    return t is not None and t.kind in ("word", "qident") and \
        (t.text if t.kind == "word" else ident_value(t.text)).lower() in scope and \
        p.peek(2) is not None and p.peek(2).text in ("=", ":=")  # type: ignore[union-attr]


# what may follow SET that is no variable's name
_SET_WORDS = frozenset({"NAMES", "CHARACTER", "CHARSET", "TRANSACTION", "PASSWORD", "GLOBAL",
                        "SESSION", "LOCAL", "STATEMENT", "ROLE", "DEFAULT"})


def _system_set(p: _P, scope: frozenset[str]) -> None:
    """SET name = ... in a program where name is no local variable: a system variable, and
    one that does not exist is 1193 when the program is created, as MariaDB."""
    from rampmeter.config.options import lookup, normalize_name
    t, eq = p.peek(1), p.peek(2)
    if t is None or eq is None or t.kind != "word" or eq.text not in ("=", ":=") or \
            t.text.upper() in _SET_WORDS or t.text.lower() in scope:
        return
    opt = lookup(normalize_name(t.text))
    if opt is None or not opt.sysvar:
        raise ServerError(1193, message=f"Unknown system variable '{t.text}'",
                          sqlstate="HY000")


def _row_target(p: _P, k: int, scope: frozenset[str]) -> bool:
    """In a trigger (NEW / OLD in scope): is NEW.col / OLD.col at token k the target of an
    assignment (`= ` or `:=` after it)?"""
    t, dot, col, eq = (p.peek(k + j) for j in range(4))
    return t is not None and (
        "\0new" in scope and t.kind == "word" and t.text.upper() in ("NEW", "OLD") or
        t.kind in ("word", "qident") and "\0row." + (
            t.text if t.kind == "word" else ident_value(t.text)).lower() in scope) and \
        dot is not None and dot.text == "." and \
        col is not None and col.kind in ("word", "qident") and eq is not None and \
        eq.text in ("=", ":=")


def _set(p: _P, scope: frozenset[str]) -> Set:
    p.expect("SET")
    node = Set([])
    while True:
        if _row_target(p, 0, scope):
            row = p.name().lower()
            p.expect(".")
            name = row + "." + p.name().lower()
        else:
            name = p.name().lower()
            if name not in scope:
                raise p.error()
        p.i += 1  # = or :=
        a, b = _item_range(p)
        node.targets.append((name, sql(p, a, b, scope)))
        if not p.accept(","):
            return node
