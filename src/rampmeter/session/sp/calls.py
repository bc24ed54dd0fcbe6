"""CALL of a procedure and the call of a stored function, from a client or from a program.

Rules:
- Arguments: IN values are evaluated in the caller (a client's CALL: as `SELECT <arg>`; a
  program's: with its local variables bound); an OUT / INOUT argument must be a user
  variable or a local variable (else 1414), written back when the procedure ends, also when
  it ends with an error only for what was set before... as MariaDB: not at all then.
- Wrong argument counts are 1318; an unknown routine 1305 with the database-qualified name.
- A routine runs with its own database as the current one and the sql_mode it was created
  with (both restored after), as MariaDB's do.
- Recursion: a procedure may call itself up to max_sp_recursion_depth levels (default 0:
  never; 1456 past it); a function never (1424).
- A stored function with OUT / INOUT parameters (MariaDB 10.8's) may be called only from a
  SET (of a user or local variable) or a DO, whose arguments there name variables: `out_args`
  reads the calls of such a statement and the function writes its OUT / INOUT values into
  those variables when it returns. Anywhere else it is 4187; an argument that is no variable
  is 1414. An OUT parameter starts NULL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from rampmeter.engine.base import ResultSet, UpdateCount
from rampmeter.errors import ServerError
from rampmeter.session.privileges import P as Priv
from rampmeter.session.sp import ddl, definer
from rampmeter.session.sp import parse as P
from rampmeter.session.sp.run import Frame, _Returned, coerce, done, trace
from rampmeter.sql.lexer import Dialect, Token, ident_value, string_value

if TYPE_CHECKING:
    from rampmeter.session.session import Session


def _active(s: Session) -> dict[str, int]:
    active = getattr(s, "sp_active", None)
    if active is None:
        active = s.sp_active = {}  # type: ignore[attr-defined]
    return active


def in_function(s: Session, step: int = 0) -> int:
    """How many stored functions and triggers are running in the session (`step` enters or
    leaves one): what they may not do, dynamic SQL (1336), is refused while it is above 0."""
    depth = getattr(s, "sp_in_function", 0) + step
    if step:
        s.sp_in_function = depth  # type: ignore[attr-defined]
    return depth


def dynamic_sql_allowed(s: Session) -> None:
    if in_function(s):
        raise ServerError(1336, message="Dynamic SQL is not allowed in stored function or "
                          "trigger", sqlstate="0A000")


def _load(s: Session, kind: str, db: str | None, name: str) -> tuple[dict[str, Any], Any, Any]:
    database = db or s.database
    if database is None:
        raise ServerError(1046)
    spec = ddl.find(s, database, kind, name)
    if spec is None:
        # MariaDB checks EXECUTE first: without it a missing routine is 1370 too
        ddl.require(s, database, Priv.EXECUTE, {"db": database, "name": name, "definer": ""})
        raise ServerError(1305, message=f"{kind} {database}.{name} does not exist",
                          sqlstate="42000")
    ddl.require(s, spec["db"], Priv.EXECUTE, spec)
    r, body = P.routine(spec["text"], Dialect.of(spec["sql_mode"]))
    return spec, r, body


def _arg_count(kind: str, spec: dict[str, Any], r: P.Routine, got: int) -> None:
    if got != len(r.params):
        raise ServerError(1318, message=f"Incorrect number of arguments for {kind} "
                          f"{spec['db']}.{spec['name']}; expected {len(r.params)}, got {got}",
                          sqlstate="42000")


def call(s: Session, node: P.Call, caller: Frame | None = None) -> UpdateCount:
    spec, r, body = _load(s, "PROCEDURE", node.db, node.name)
    _arg_count("PROCEDURE", spec, r, len(node.args))
    if in_function(s):
        # called from a stored function or trigger: a procedure that may return a result
        # set, commit, or run dynamic SQL is refused before it runs (MariaDB's sp_head flags)
        ddl.not_in_function(spec["body"] if spec.get("body") else spec["text"],
                            Dialect.of(spec["sql_mode"]),
                            "trigger" if getattr(s, "sp_in_trigger", 0) else "function")
    key = f"{spec['db']}.{spec['name']}".lower()
    active = _active(s)
    depth = active.get(key, 0)
    if depth > int(s.system_variable("max_sp_recursion_depth") or 0):
        raise ServerError(1456, message=f"Recursive limit {depth - 1 if depth else 0} (as set "
                          "by the max_sp_recursion_depth variable) was exceeded for routine "
                          f"{spec['name']}", sqlstate="HY000")
    sets: list[ResultSet] = caller.sets if caller is not None and caller.sets is not None \
        else []
    frame = Frame(s, sets, key)
    outs: list[tuple[str, P.Sql]] = []
    rows: list[str] = []  # the OUT / INOUT record parameters
    for k, (param, arg) in enumerate(zip(r.params, node.args, strict=True), 1):
        if param.mode != "IN":
            if not _is_variable(arg):
                raise ServerError(1414, message=f"OUT or INOUT argument {k} for routine "
                                  f"{key} is not a variable or NEW pseudo-variable in BEFORE "
                                  "trigger", sqlstate="42000")
            outs.append((param.name.lower(), arg))
        if P.is_row_type(param.type):
            _row_param(s, frame, caller, param, arg, k, key)
            if param.mode != "IN":
                rows.append(param.name.lower())
            continue
        value = None
        if param.mode != "OUT":  # a ROW argument is 4078 (Frame._scalar_for)
            value = (caller or Frame(s, None, ""))._scalar_for(param.name, param.type, arg)
        frame.declare(param.name.lower(), frame.param_type(param.type), value)
    active[key] = depth + 1
    try:
        with _in_database(s, spec["db"], spec["sql_mode"]), definer.privileges_of(s, spec):
            frame.exec(body)
    except ServerError as e:
        trace(e, frame, f"{spec['db']}.{spec['name']}")
        if caller is None and sets:
            e.result_sets = sets  # type: ignore[attr-defined] # sent before the error
        raise
    finally:
        active[key] = depth
    for name, arg in outs:
        if name in rows:  # a record back into the caller's record, field by field
            if caller is not None:
                values = frame.record_values(name)
                for (field, _t), v in zip(caller.record_fields(arg.vars[0]), values,
                                          strict=False):
                    caller.set(f"{arg.vars[0]}.{field}", v)
            continue
        value = frame.get(name)
        if arg.text.startswith("@"):
            s.set_user_variable(arg.text[1:].strip("`'\""), value)
        elif caller is not None:
            caller.set(arg.vars[0], value)
    if caller is not None:
        caller.warnings.extend(frame.warnings)
        return UpdateCount()
    return done(frame, sets)


def _row_param(s: Session, frame: Frame, caller: Frame | None, param: Any, arg: P.Sql,
               k: int, key: str) -> None:
    """A ROW(...) parameter: its fields from the caller's record of as many fields (an IN /
    INOUT argument that is no record is 4078, one of another width 1241, as MariaDB)."""
    fields = frame._row_fields(param.type[3:].strip())
    frame.declare_row(param.name.lower(), fields)
    if param.mode == "OUT":
        return
    source = arg.vars[0] if caller is not None and arg.text == "?" and len(arg.vars) == 1 \
        and caller._is_row(arg.vars[0]) else None
    if source is None:
        frame._set_record(param.name.lower(), arg) if caller is None else \
            caller_row_value(caller, frame, param.name.lower(), arg)
        return
    values = caller.record_values(source)  # type: ignore[union-attr]
    if len(values) != len(fields):
        raise ServerError(1241, message=f"Operand should contain {len(fields)} column(s)",
                          sqlstate="21000")
    for (field, _t), v in zip(fields, values, strict=True):
        frame.set(f"{param.name.lower()}.{field}", v)


def caller_row_value(caller: Frame, frame: Frame, name: str, arg: P.Sql) -> None:
    """ROW(...) written as the argument: evaluated in the caller, stored in the callee."""
    tmp = f"\0arg.{name}"
    caller.scopes.append({})
    try:
        caller.declare_row(tmp, frame.record_fields(name))
        caller._set_record(tmp, arg)
        values = caller.record_values(tmp)
    finally:
        caller.scopes.pop()
    for (field, _t), v in zip(frame.record_fields(name), values, strict=True):
        frame.set(f"{name}.{field}", v)


ROW_KEY = "\0sp-row:"  # a record passed in SQL (a stored function's argument): its key


def row_argument(s: Session, value: Any) -> list[Any] | None:
    """The field values of the record a ROW_KEY value names (None for any other value)."""
    if not isinstance(value, str) or not value.startswith(ROW_KEY):
        return None
    rows = getattr(s, "sp_row_args", {})
    return rows.get(value)


def _is_variable(arg: P.Sql) -> bool:
    return arg.text == "?" and len(arg.vars) == 1 or \
        arg.text.startswith("@") and not arg.text.startswith("@@") and \
        all(c not in arg.text for c in " +-*/(),")


class _in_database:
    """The routine's database as the current one, and the sql_mode it was created with as
    the session's, while it runs (MariaDB's rule: a routine keeps its creation sql_mode)."""

    def __init__(self, s: Session, db: str, mode: str | None = None) -> None:
        self.s, self.db, self.mode = s, db, mode

    def __enter__(self) -> None:
        self.old = self.s.database
        if self.old != self.db and self.s.engine is not None:
            self.s.engine.use(self.db)
        self.old_mode = self.s.vars["sql_mode"]
        if self.mode is not None:
            self.s.vars["sql_mode"] = self.mode

    def __exit__(self, *exc: object) -> None:
        self.s.vars["sql_mode"] = self.old_mode
        if self.s.database != self.old and self.s.engine is not None:
            self.s.engine.use(self.old)


Target = tuple[Any, str] | None  # (a Frame, local name) or (None, user variable name)


class out_args:
    """While a SET or DO runs (module rules): the variables its stored-function calls name as
    arguments, per function name in the order of the calls. `vars`: the program's locals the
    statement's `?` markers stand for, in `frame`."""

    def __init__(self, s: Session, toks: list[Token] | tuple[Token, ...],
                 frame: Frame | None = None, local_vars: tuple[str, ...] = ()) -> None:
        self.s = s
        self.calls: dict[str, list[list[Target]]] = {}
        marks = 0
        k = 0
        while k < len(toks):
            t = toks[k]
            if t.text == "?":
                marks += 1
            if t.kind in ("word", "qident") and k + 1 < len(toks) and toks[k + 1].text == "(":
                name = (t.text if t.kind == "word" else ident_value(t.text)).lower()
                args: list[list[Token]] = [[]]
                depth, j = 1, k + 2
                while j < len(toks):
                    u = toks[j].text
                    if u == "(":
                        depth += 1
                    elif u == ")":
                        depth -= 1
                        if depth == 0:
                            break
                    if depth == 1 and u == ",":
                        args.append([])
                    else:
                        args[-1].append(toks[j])
                    j += 1
                targets: list[Target] = []
                seen = marks
                for arg in args:
                    target: Target = None
                    if len(arg) == 1 and arg[0].kind == "uservar":
                        target = (None, _uservar(arg[0].text))
                    elif len(arg) == 1 and arg[0].text == "?" and frame is not None and \
                            seen < len(local_vars):
                        target = (frame, local_vars[seen])
                    seen += sum(1 for x in arg if x.text == "?")
                    targets.append(target)
                self.calls.setdefault(name, []).append(targets)
            k += 1

    def __enter__(self) -> out_args:
        self.saved = self.s.sp_out_calls
        self.s.sp_out_calls = self
        return self

    def __exit__(self, *exc: object) -> None:
        self.s.sp_out_calls = self.saved


def _uservar(text: str) -> str:
    body = text[1:]
    if len(body) >= 2 and body[0] == body[-1] and body[0] in "'\"":
        return string_value(body)
    return ident_value(body) if body[:1] == "`" else body


def _out_targets(s: Session, spec: dict[str, Any], r: P.Routine, name: str) -> list[Target]:
    """Where a function's OUT / INOUT values go: the running SET's / DO's call of it."""
    outs = [k for k, p in enumerate(r.params) if p.mode != "IN"]
    ctx = s.sp_out_calls
    found = ctx.calls.get(name.lower().rsplit(".", 1)[-1]) if ctx is not None else None
    if not found:
        raise ServerError(4187, message=f"OUT or INOUT argument {outs[0] + 1} for function "
                          f"{spec['name']} is not allowed here", sqlstate="HY000")
    targets = found.pop(0)
    for k in outs:
        if k >= len(targets) or targets[k] is None:
            raise ServerError(1414, message=f"OUT or INOUT argument {k + 1} for routine "
                              f"{spec['db']}.{spec['name']} is not a variable or NEW "
                              "pseudo-variable in BEFORE trigger", sqlstate="42000")
    return targets


def invoke(s: Session, db: str | None, name: str, args: list[Any],
           rows: list[tuple[Any, ...]] | None = None, notes: list[Any] | None = None) -> Any:
    """A stored function's value for `args` (called from SQL, with the engine's statement
    state kept aside by the engine). An aggregate function gets its group's argument `rows`
    instead: its parameters start NULL and each FETCH GROUP NEXT ROW reads the next row; a
    group of no rows is NULL without running it (MariaDB)."""
    spec, r, body = _load(s, "FUNCTION", db, name)
    key = f"{spec['db']}.{spec['name']}".lower()
    active = _active(s)
    if active.get(key):
        raise ServerError(1424, message="Recursive stored functions and triggers are not "
                          "allowed", sqlstate="HY000")
    if rows is not None:
        if not rows:
            return None
        _arg_count("FUNCTION", spec, r, len(rows[0]))
        args = [None] * len(r.params)
    _arg_count("FUNCTION", spec, r, len(args))
    targets = _out_targets(s, spec, r, name) if any(p.mode != "IN" for p in r.params) \
        else None
    frame = Frame(s, None, key)
    frame.function_name = spec["name"]
    frame.returns = (r.returns, f"{spec['name']}()")
    frame.routine_shown = f"{spec['db']}.{spec['name']}"
    for param, value in zip(r.params, args, strict=True):  # under the caller's sql_mode
        if P.is_row_type(param.type):  # a record argument comes as its key (run.row_key)
            fields = frame._row_fields(param.type[3:].strip())
            frame.declare_row(param.name.lower(), fields)
            values = row_argument(s, value)
            if values is None or len(values) != len(fields):
                raise ServerError(1241, message=f"Operand should contain {len(fields)} "
                                  "column(s)", sqlstate="21000")
            for (field, _t), v in zip(fields, values, strict=True):
                frame.set(f"{param.name.lower()}.{field}", v)
            continue
        frame.declare_param(param.name.lower(), frame.param_type(param.type),
                            None if param.mode == "OUT" else value)
    if notes is not None:  # the arguments' conversions warn the calling statement
        notes.extend(frame.warnings)
        frame.warnings.clear()
    if rows is not None:
        frame.group_rows = iter(rows)
        frame.group_params = [param.name.lower() for param in r.params]
        if notes is not None:
            frame.group_notes = notes
    active[key] = 1
    in_function(s, 1)
    outer, s.sp_out_calls = s.sp_out_calls, None  # the body's statements are not the SET
    try:
        with _in_database(s, spec["db"], spec["sql_mode"]), definer.privileges_of(s, spec):
            frame.exec(body)
    except ServerError as e:
        trace(e, frame, f"{spec['db']}.{spec['name']}")
        raise
    except _Returned as ret:
        if targets is not None:
            for param, target in zip(r.params, targets, strict=False):
                if param.mode != "IN" and target is not None:
                    value = frame.get(param.name.lower())
                    if target[0] is None:
                        s.set_user_variable(target[1], value)
                    else:
                        target[0].set(target[1], value)
        # the RETURN value into the function's type: its conversion warnings are what the
        # calling statement sees of the function (MariaDB's RETURN clears the rest); an error
        # under the routine's strict sql_mode
        kept: list[Any] = []
        value = coerce(r.returns, ret.value, f"{spec['name']}()",
                       "STRICT_" in str(spec["sql_mode"]), kept)
        if notes is not None:
            notes.extend(kept)
        return value
    finally:
        s.sp_out_calls = outer
        active[key] = 0
        in_function(s, -1)
    raise ServerError(1321, message=f"FUNCTION {spec['name']} ended without RETURN",
                      sqlstate="2F005")


def function_for(s: Session, name: str) -> Any:
    """The engine's callable for stored function `name` of the current database, or None."""
    from rampmeter.engine.sqlite import sfnames
    db: str | None = s.database
    qualified = sfnames.split(name)  # db.f(...): the database is in the name
    if qualified is not None:
        db, name = qualified
    if db is None or s.engine is None or not hasattr(s.engine, "routine_load"):
        return None
    spec = s.engine.routine_load(db, "FUNCTION", name)
    if spec is None:
        # a function SQLite does not know: MariaDB checks EXECUTE before it knows whether the
        # function exists, so without the privilege a missing one is 1370 too
        ddl.require(s, db, Priv.EXECUTE, {"db": db, "name": name, "definer": ""})
        return None
    where = db if qualified is not None else None
    if spec.get("aggregate"):  # called once per group with its argument rows
        def aggregate(rows: list[tuple[Any, ...]]) -> tuple[Any, list[Any]]:
            """(the value, the notes the statement gets: Frame.group_notes)"""
            notes: list[Any] = []
            return invoke(s, where, name, [], rows, notes), notes
        aggregate.aggregate = True  # type: ignore[attr-defined]
        aggregate.with_notes = True  # type: ignore[attr-defined]
        return aggregate

    def function(*args: Any) -> tuple[Any, list[Any]]:
        """(the value, the warnings the calling statement gets)"""
        notes: list[Any] = []
        return invoke(s, where, name, list(args), None, notes), notes
    function.with_notes = True  # type: ignore[attr-defined]
    return function
