"""The stored-program interpreter: runs a parsed tree (parse.py) for one session.

Rules:
- Every simple statement goes through the session's normal statement path
  (statements.execute / prepare + execute_prepared), with the local variables it names bound
  as parameters: privileges, counters and diagnostics are those of a statement a client sent.
- Result sets of SELECTs inside a procedure are kept (materialized: the next statement reuses
  the engine handle) and sent before CALL's OK, as MariaDB sends them; SELECT ... INTO and
  statements without a result set send nothing.
- Local variables live in a chain of scopes (one per BEGIN ... END); assigning converts to the
  declared type where that is simple (integers round, CHAR(n) / VARCHAR(n) cut, DECIMAL(m,d)
  rounds); a variable declared without DEFAULT is NULL.
- Conditions: an error (ServerError), or a warning a statement raised, is matched against the
  handlers in scope from the innermost block out, MariaDB's order within a block (an error code
  before an SQLSTATE before SQLEXCEPTION / SQLWARNING / NOT FOUND). CONTINUE goes on after the
  statement that raised it, EXIT leaves the handler's block. An unhandled error ends the call;
  an unhandled warning stays a warning. FETCH past the last row and SELECT ... INTO of no rows
  raise NOT FOUND (1329, SQLSTATE 02000).
- SIGNAL / RESIGNAL: SQLSTATE class 01 is a warning, 02 not found, any other an error; the
  default MYSQL_ERRNO is 1642 / 1643 / 1644 and MESSAGE_TEXT MariaDB's "Unhandled user-defined
  ... condition".
- Recursion: CALL depth is bounded by max_sp_recursion_depth (1456), a function may not call
  itself (1424).
"""

from __future__ import annotations

import decimal
import functools
import re
from collections.abc import Iterator
from typing import TYPE_CHECKING, Any

from rampmeter import errors
from rampmeter.engine.base import CallResult, PreparedStatement, ResultSet, UpdateCount
from rampmeter.errors import ServerError, Warning_
from rampmeter.protocol.constants import ColumnFlag
from rampmeter.session.sp import definer, rowcast
from rampmeter.session.sp import parse as P
from rampmeter.session.sp.vartypes import (
    DECLARED_CHARSET,
    anchored_type,
    bare_items,
    children,
    result_type,
    variable_column_type,
)
from rampmeter.sql import charsets
from rampmeter.sql.literal import literal
from rampmeter.sql.statement import Statement

if TYPE_CHECKING:
    from rampmeter.session.session import Session


class _Leave(Exception):
    def __init__(self, label: str) -> None:
        self.label = label


class _Iterate(_Leave):
    pass


class _Exit(Exception):
    def __init__(self, block: P.Block) -> None:
        self.block = block


class _Returned(Exception):
    def __init__(self, value: Any) -> None:
        self.value = value


NO_DATA = (1329, "02000", "No data - zero rows fetched, selected, or processed")
_INT = re.compile(r"(?i)^\s*(tiny|small|medium|big)?int(eger)?\b")
_CHAR = re.compile(r"(?i)^\s*(var)?char\s*\(\s*(\d+)\s*\)")
_BINARY = re.compile(r"(?i)^\s*(var)?binary\s*\(\s*(\d+)\s*\)")
_ENUM = re.compile(r"(?i)^\s*enum\s*\(")
_BIT = re.compile(r"(?i)^\s*bit\b\s*(?:\(\s*(\d+)\s*\))?")
_FLOAT = re.compile(r"(?i)^\s*(double|float|real)\b")
_FLOAT_SCALE = re.compile(r"(?i)^\s*(?:double(?:\s+precision)?|float|real)\s*\(\s*\d+\s*,\s*(\d+)\s*\)")
_DEC = re.compile(r"(?i)^\s*(decimal|numeric|dec)\s*(?:\(\s*(\d+)\s*(?:,\s*(\d+))?\s*\))?")
_INT_BITS = {"tiny": 8, "small": 16, "medium": 24, None: 32, "big": 64}


_LEADING_NUMBER = re.compile(r"\s*[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?")


_TEXT_TYPE = re.compile(r"\s*(?:NATIONAL\s+)?(?:VAR)?CHAR(?:ACTER)?\b|\s*N(?:VAR)?CHAR\b|"
                        r"\s*(?:TINY|MEDIUM|LONG)?TEXT\b", re.I)
_DECLARED_COLLATE = re.compile(r"\bCOLLATE\s+([`'\"]?\w+)", re.I)


@functools.lru_cache(maxsize=512)
def _text_collation(vtype: str) -> tuple[str | None, str | None]:
    """(set, collation) a text type declares; ("", None) when it declares no set (the
    database's applies); (None, None) for a type that is not text, or binary."""
    if not _TEXT_TYPE.match(vtype):
        return None, None
    m = DECLARED_CHARSET.search(vtype)
    c = _DECLARED_COLLATE.search(vtype)
    coll = charsets.collation(c.group(1).strip("`'\"")) if c is not None else None
    words = vtype.upper().split()
    if m is not None:
        cs = charsets.charset(m.group(1).strip("`'\""))
    elif coll is not None:
        cs = charsets.charset(coll.charset)
    elif words[0].startswith(("NATIONAL", "NCHAR", "NVARCHAR")):
        cs = charsets.charset("utf8mb3")
    elif "UNICODE" in words or "ASCII" in words:  # VARCHAR(n) UNICODE: ucs2, ASCII: latin1
        cs = charsets.charset("ucs2" if "UNICODE" in words else "latin1")
    elif "BINARY" in words[1:]:
        return None, None  # VARCHAR(n) BINARY of the database's set: left as it was
    else:
        return "", None
    if cs is None or cs.is_binary:
        return None, None
    if coll is None or coll.charset != cs.name:
        coll = charsets.collation(cs.name + "_bin") if "BINARY" in words[1:] else None
        coll = coll or charsets.default_collation(cs.name)
    return cs.name, coll.name


def coerce(vtype: str, value: Any, name: str = "", strict: bool = False,
           warn: list[Warning_] | None = None) -> Any:
    """`value` stored in a variable of `vtype` (module rules): out of range or too long is
    an error in strict mode (1264 / 1406), else clipped with that warning (1264 / 1265)."""
    if value is None or not vtype:
        return value
    try:
        if m := _INT.match(vtype):
            if isinstance(value, (bytes, str)):  # its leading number, as MariaDB reads it
                was_text = isinstance(value, str)
                text = value.decode("utf-8", "replace") if isinstance(value, bytes) else value
                lead = _LEADING_NUMBER.match(text)
                if lead is None and isinstance(value, bytes) and value:
                    value = int.from_bytes(value, "big")  # a hex literal: 0xFF is 255
                else:
                    value = decimal.Decimal(lead.group(0)) if lead else 0
                if was_text and (lead is None or lead.end() < len(text.rstrip())):
                    # 'b1': 1366; '1b': 1265 (errors in strict mode)
                    code, message = (1366, f"Incorrect integer value: '{text}' for column "
                                     f"``.``.`{name}` at row 0") if lead is None else \
                        (1265, f"Data truncated for column '{name}' at row 0")
                    if strict:
                        raise ServerError(code, message=message)
                    if warn is not None:
                        warn.append(Warning_("Warning", code, message))
            if not isinstance(value, int):
                # to_integral_value, not quantize: 1e200 has more digits than the context
                value = int(decimal.Decimal(value).to_integral_value(decimal.ROUND_HALF_UP))
            bits = _INT_BITS[m.group(1).lower() if m.group(1) else None]
            unsigned = "UNSIGNED" in vtype.upper()
            lo, hi = (0, 2 ** bits - 1) if unsigned else (-2 ** (bits - 1), 2 ** (bits - 1) - 1)
            if not lo <= value <= hi:
                message = f"Out of range value for column '{name}' at row 0"
                if strict:
                    raise ServerError(1264, message=message, sqlstate="22003")
                if warn is not None:
                    warn.append(Warning_("Warning", 1264, message))
                value = max(lo, min(hi, value))
            return value
        if m := _CHAR.match(vtype):
            text = value.decode("utf-8", "replace") if isinstance(value, bytes) else \
                value if isinstance(value, str) else str(value)
            limit = int(m.group(2))
            if len(text) > limit:
                if strict:
                    raise ServerError(1406, message=f"Data too long for column '{name}' at "
                                      "row 0", sqlstate="22001")
                if warn is not None:
                    warn.append(Warning_("Warning", 1265, f"Data truncated for column '{name}' "
                                         "at row 0"))
                text = text[:limit]
            return text
        if m := _BINARY.match(vtype):
            raw = value if isinstance(value, bytes) else str(value).encode("utf-8") \
                if not isinstance(value, str) else value.encode("utf-8", "surrogateescape")
            limit = int(m.group(2))
            if len(raw) > limit:
                message = f"Data too long for column '{name}' at row 0"
                if strict:
                    raise ServerError(1406, message=message, sqlstate="22001")
                if warn is not None:
                    warn.append(Warning_("Warning", 1265, f"Data truncated for column "
                                         f"'{name}' at row 0"))
                raw = raw[:limit]
            return raw if m.group(1) else raw.ljust(limit, b"\0")  # BINARY pads with 0x00
        if _ENUM.match(vtype):
            return _enum_value(vtype, value, name, strict, warn)
        if m := _BIT.match(vtype):
            width = int(m.group(1) or 1)
            if isinstance(value, (bytes, str)):  # a string's bytes, as MariaDB stores it
                raw = value if isinstance(value, bytes) else value.encode("utf-8")
                number = int.from_bytes(raw, "big")
            else:
                number = int(decimal.Decimal(str(value)).to_integral_value(
                    decimal.ROUND_HALF_UP))
            top = (1 << width) - 1
            if not 0 <= number <= top:
                message = f"Out of range value for column '{name}' at row 0"
                if strict:
                    raise ServerError(1264, message=message, sqlstate="22003")
                if warn is not None:
                    warn.append(Warning_("Warning", 1264, message))
                number = top if number > top else 0
            return number
        if _FLOAT.match(vtype) and not isinstance(value, (bytes, str)):
            if m := _FLOAT_SCALE.match(vtype):
                # DOUBLE(M,D) / FLOAT(M,D): a double shown with D decimals (100 is
                # 100.000 when read, in CONCAT, in v + 1), as MariaDB's field keeps them
                return decimal.Decimal(repr(float(value))).quantize(
                    decimal.Decimal(1).scaleb(-int(m.group(1))), decimal.ROUND_HALF_UP)
            return float(value)  # a DOUBLE holds a double: 0 is 0e0 (typed so when read)
        if m := _DEC.match(vtype):
            scale = int(m.group(3) or 0)
            exact = decimal.Decimal(str(value))
            rounded = exact.quantize(decimal.Decimal(1).scaleb(-scale), decimal.ROUND_HALF_UP)
            if rounded != exact and warn is not None:  # digits lost: a note, as MariaDB's
                warn.append(Warning_("Note", 1265, f"Data truncated for column '{name}' at "
                                     "row 0"))
            return rounded
    except (ValueError, ArithmeticError):
        return value
    return value


def _enum_value(vtype: str, value: Any, name: str, strict: bool,
                warn: list[Warning_] | None) -> Any:
    """An ENUM variable's value: a member (any case, shown as declared), a member's number;
    anything else is '' with 1265 (the error in strict mode), as MariaDB stores it."""
    from rampmeter.engine.types import parse_type
    members = parse_type(vtype).members
    if isinstance(value, (bytes, str)):
        text = value.decode("utf-8", "replace") if isinstance(value, bytes) else value
        low = text.rstrip(" ").lower()
        for member in members:
            if member.lower() == low:
                return member
    elif isinstance(value, (int, float, decimal.Decimal)) and float(value).is_integer():
        index = int(value)
        if 1 <= index <= len(members):
            return members[index - 1]
        if index == 0:
            return ""
    message = f"Data truncated for column '{name}' at row 0"
    if strict:
        raise ServerError(1265, message=message, sqlstate="01000")
    if warn is not None:
        warn.append(Warning_("Warning", 1265, message))
    return ""


class Frame:
    """One routine invocation: its variables, handlers, cursors, and where result sets go."""

    def __init__(self, s: Session, sets: list[ResultSet] | None, routine: str) -> None:
        self.s = s
        self.sets = sets
        self.routine = routine
        self.scopes: list[dict[str, list[Any]]] = [{}]   # name -> [value, type]
        self.blocks: list[P.Block] = []
        self.cursors: list[dict[str, list[Any] | None]] = [{}]
        self.cursor_defs: list[dict[str, tuple[P.Sql, list[P.Param]]]] = [{}]
        self.last: Any = None                  # the last statement's result
        self.stmt: Any = None                  # and the statement (sql.statement.Statement)
        self.warnings: list[Warning_] = []
        self.condition: tuple[int, str, str] | None = None  # the one a handler is handling
        self.assigned: set[str] = set()        # a BEFORE trigger's NEW columns it set
        self.line = 0                          # of the statement running (Note 4094)
        self.cursor_columns: dict[str, list[str]] = {}  # an open cursor's column names
        self.filling = False                   # a FETCH / SELECT INTO fills a record
        self.trail: list[Warning_] | None = None  # the conditions of the one handled
        self.homes: list[tuple[int, P.Block]] = []  # running handlers' blocks, their depth
        self.trigger_table: tuple[str, str] | None = None  # a trigger's (db, table)
        self.returns: tuple[str, str] | None = None  # a function's (return type, name)
        self.group_rows: Iterator[tuple[Any, ...]] | None = None  # an aggregate's group
        self.group_params: list[str] = []      # ... and the parameters each row fills
        self.group_done = False                # its FETCH GROUP NEXT ROW found no more rows
        self.group_index = 0                   # the rows it has read
        self.group_notes: list[Warning_] = []  # Note 4094s for the calling statement
        self.tables_mark = getattr(s, "sp_tables_used", 0)  # ... as of the last FETCH GROUP
        self.function_name = ""                # a stored function's name (1321)
        self.routine_shown = routine           # db.name as written (Note 4094)
        self.indexed_rows: set[str] = set()    # ROW(...) records: fields by position
        self.anchor_db: str | None = s.database  # unqualified TYPE OF tables' database
        self.anchors: dict[tuple[str, str], Any] | None = None  # read at the start

    # --- variables -----------------------------------------------------------------------
    def _store(self, name: str, vtype: str, value: Any) -> Any:
        strict = "STRICT_" in str(self.s.system_variable("sql_mode") or "")
        if "." not in name:
            return coerce(vtype, value, name, strict, self.warnings)
        # a record's field: MariaDB names the field alone, at row 1 when a row fills it
        row = " at row 1" if self.filling else " at row 0"
        warned: list[Warning_] = []
        try:
            stored = coerce(vtype, value, name.split(".", 1)[1], strict, warned)
        except ServerError as e:
            raise ServerError(e.code, message=e.message.replace(" at row 0", row),
                              sqlstate=e.sqlstate) from None
        self.warnings.extend(Warning_(w.level, w.code, w.message.replace(" at row 0", row))
                             for w in warned)
        return stored

    def declare_param(self, name: str, vtype: str, value: Any) -> None:
        """A stored function's parameter bound to its argument: a conversion's warning or
        error says row 1, as MariaDB's (a procedure's says row 0)."""
        mark = len(self.warnings)
        try:
            self.declare(name, vtype, value)
        except ServerError as e:
            raise ServerError(e.code, message=e.message.replace(" at row 0", " at row 1"),
                              sqlstate=e.sqlstate) from None
        self.warnings[mark:] = [Warning_(w.level, w.code, w.message.replace(" at row 0",
                                                                            " at row 1"))
                                for w in self.warnings[mark:]]

    def declare(self, name: str, vtype: str, value: Any) -> None:
        self.scopes[-1][name] = [None, vtype]
        self.scopes[-1][name][0] = self._store(name, vtype, value)

    def param_type(self, vtype: str) -> str:
        """A parameter's declared type, `TYPE OF t.c` read now (when the routine starts)."""
        if vtype[:8].upper() == "TYPE OF " and "." in vtype:
            return self._anchored(vtype[8:].strip())
        return vtype

    def declare_row(self, name: str, fields: list[tuple[str, str]]) -> None:
        """A record `name` of `fields` ((name, declared type) each), its fields NULL."""
        self.scopes[-1][name] = [None, "ROW"]
        for field, ftype in fields:
            self.declare(f"{name}.{field}", ftype, None)

    def record_fields(self, name: str) -> list[tuple[str, str]]:
        """A record's (field, declared type) pairs, in order."""
        return [(key.split(".", 1)[1], slot[1]) for key, slot in self._record(name) or []]

    def record_values(self, name: str) -> list[Any]:
        return [slot[0] for _key, slot in self._record(name) or []]

    def _slot(self, name: str) -> list[Any]:
        key = name.lower()
        for scope in reversed(self.scopes):
            if key in scope:
                return scope[key]
        if name.startswith("new."):  # a trigger's NEW.col of no column of the table
            raise ServerError(1054, message=f"Unknown column '{name[4:]}' in 'NEW'",
                              sqlstate="42S22")
        row, dot, field = name.partition(".")
        if dot and self._is_row(row):
            raise ServerError(4082, message=f"Row variable '{row}' does not have a field "
                              f"'{field}'", sqlstate="HY000")
        raise ServerError(1327, message=f"Undeclared variable: {name}", sqlstate="42000")

    def get(self, name: str) -> Any:
        return self._slot(name)[0]

    def set(self, name: str, value: Any) -> None:
        slot = self._slot(name)
        slot[0] = self._store(name, slot[1], value)
        if name.startswith("new."):  # no local variable's name has a dot
            self.assigned.add(name[4:].lower())

    # --- statements ----------------------------------------------------------------------
    def run_sql(self, node: P.Sql) -> Any:
        from rampmeter.session import statements
        s = self.s
        params = [self._param(v) for v in node.vars]
        if params and node.text[:6].upper() == "CREATE":
            node, params = self._create_select(node, params)
        written = node
        if params:
            node = self._charset_params(node)
        stmt = self.stmt = s.scan(node.text, client_params=bool(params))
        if stmt.uses_tables:  # counted for the session: a function called here counts too
            s.sp_tables_used = getattr(s, "sp_tables_used", 0) + 1  # type: ignore[attr-defined]
        if self.group_rows is not None and _calls_itself(stmt, self.routine):
            # an aggregate function using itself: 1424 even where its group would be empty
            # (SQLite never finalizes an aggregate that saw no row, so it would not be asked)
            raise ServerError(1424, message="Recursive stored functions and triggers are not "
                              "allowed", sqlstate="HY000")
        # what the statement sees as the diagnostics area (SHOW WARNINGS, @@warning_count) is
        # the routine's so far - in a handler with the handled conditions first - not the
        # session's (the client's previous statement's)
        outer = list(s.warnings)
        s.warnings[:] = self.warnings if self.trail is None else [*self.trail, *self.warnings]
        try:
            if params:
                prepared = statements.prepare(s, stmt)
                handle = prepared.handle
                if isinstance(handle, Statement) and handle.is_dml:
                    # a local variable is typed by its value, as a literal of it would be, as
                    # EXECUTE ... USING does (sqlprepare.py): a DECIMAL(10,2) variable holds
                    # 12.00 and shows 12.00, as MariaDB's typed by its declaration does
                    prepared = PreparedStatement(prepared.sql, prepared.param_count,
                                                 prepared.columns,
                                                 handle=handle.with_params(params))
                result = statements.execute_prepared(s, prepared, params)
            else:
                result = statements.execute(s, stmt)
            if params and isinstance(result, ResultSet) and \
                    any(w.code == 1003 for w in result.warnings):
                result = self._explained(node, result)
            elif params and isinstance(result, ResultSet) and \
                    node.text[:6].upper() == "SELECT":
                result = self._typed(written, result)
        finally:
            s.warnings[:] = outer
        if isinstance(result, ResultSet):
            columns = result.columns
            if node.names and len(node.names) == len(columns):  # named as written, not `?`
                columns = [c if c.name != "?" and "?" not in c.name else
                           c.named(n, table=c.table, schema=c.schema, org_name=c.org_name or "",
                                   org_table=c.org_table)
                           for c, n in zip(columns, node.names, strict=True)]
            result = ResultSet(columns, [tuple(r) for r in result.rows], result.warnings)
        else:  # ROW_COUNT() in the routine's next statement, as the client's would see it
            s.last_row_count = result.affected_rows if result.row_count is None \
                else result.row_count
        self.last = result
        return result

    def _typed(self, node: P.Sql, result: ResultSet) -> ResultSet:
        """SELECT v: a column that is a local variable alone has the variable's declared
        type, as MariaDB sends it (INT a tinyint's metadata, a BIT its bytes, a ZEROFILL
        number padded), not the type of the value it was bound as."""
        items = bare_items(node.text, self.s.dialect())
        if not items or len(result.columns) < max(items) + 1:
            return result
        from rampmeter.engine.types import parse_type
        results_cs = str(self.s.system_variable("character_set_results") or "binary")
        columns = list(result.columns)
        convert: dict[int, Any] = {}
        for i, k in items.items():
            if k >= len(node.vars):
                continue
            try:
                vtype = self._slot(node.vars[k])[1]
                t = parse_type(vtype) if vtype and vtype != "ROW" else None
            except (ServerError, ValueError):
                t = None
            if t is None:
                continue
            name = columns[i].name  # its alias; unaliased, the variable as written
            if "?" in name and node.names and len(node.names) == len(columns):
                name = node.names[i]
            flags = ColumnFlag.NUM if t.is_numeric and t.name not in ("bit",) else 0
            columns[i] = t.column(name, flags=flags, org_name=name, results=results_cs)
            if t.name == "bit":
                width = max(((t.width or 1) + 7) // 8, 1)
                convert[i] = lambda v, w=width: v.to_bytes(w, "big") \
                    if isinstance(v, int) and v >= 0 else v
            elif t.zerofill and t.is_numeric:
                length = columns[i].length
                convert[i] = lambda v, n=length: str(v).zfill(n) \
                    if v is not None and not isinstance(v, bytes) else v
        rows = [tuple(convert[j](v) if j in convert and v is not None else v
                      for j, v in enumerate(row)) for row in result.rows] if convert \
            else result.rows
        return ResultSet(columns, rows, result.warnings)

    def _param(self, name: str) -> Any:
        """A variable's value as the statement binds it; a record (a stored function's ROW
        argument) as a key to its field values, kept for the session (calls.row_argument)."""
        slot = self._slot(name)
        if slot[1] != "ROW":
            return slot[0]
        from rampmeter.session.sp.calls import ROW_KEY
        rows = getattr(self.s, "sp_row_args", None)
        if rows is None:
            rows = self.s.sp_row_args = {}  # type: ignore[attr-defined]
        key = f"{ROW_KEY}{id(slot)}"
        rows[key] = self.record_values(name.lower())
        if len(rows) > 64:  # the oldest go: a record's key lives for one statement
            for old in list(rows)[:-64]:
                del rows[old]
        return key

    def _explained(self, node: P.Sql, result: ResultSet) -> ResultSet:
        """EXPLAIN EXTENDED of a statement using local variables: its Note 1003 shows each
        variable as MariaDB prints one, `name@offset` (a record's field `rec.a@0["a"]`, or
        `rec.a@0[0]` for a ROW(...) record), not the value it was run with. The printed text
        is the one of the statement with a marker string for each variable."""
        from rampmeter.session import statements
        from rampmeter.sql.lexer import tokens
        marks = [f"zzspvar{k}zz" for k in range(len(node.vars))]
        pieces, pos, k = [], 0, 0
        for t in tokens(node.text, self.s.dialect()):
            if t.kind == "param" and k < len(marks):
                pieces += [node.text[pos:t.start], f"'{marks[k]}'"]
                pos = t.end
                k += 1
        pieces.append(node.text[pos:])
        try:
            marked = statements.execute(self.s, self.s.scan("".join(pieces)))
        except ServerError:
            return result
        note = next((w for w in getattr(marked, "warnings", ()) if w.code == 1003), None)
        if note is None:
            return result
        text = note.message
        for k, name in enumerate(node.vars):
            shown = node.spelled[k] if k < len(node.spelled) else name
            printed = self._printed_var(name, shown)
            text = text.replace(f"'{marks[k]}' AS `{marks[k]}`", f"{printed} AS `{shown}`")
            text = text.replace(f"'{marks[k]}'", printed)
        warnings = [Warning_(w.level, w.code, text) if w.code == 1003 else w
                    for w in result.warnings]
        return ResultSet(result.columns, result.rows, warnings)

    def _printed_var(self, name: str, shown: str) -> str:
        """`shown@offset`: the offset is the variable's slot in the routine's frame, as
        MariaDB numbers them (parameters first, then each block's in declaration order, a
        record one slot; a block starts after its enclosing blocks' variables)."""
        key = name.lower()
        row, dot, field = key.partition(".")
        target = row if dot and self._is_row(row) else key
        offset, here = 0, None
        for scope in self.scopes:  # the innermost declaration wins (it shadows the others)
            slots = [n for n in scope if "." not in n and not n.startswith("\0")]
            if target in slots:
                here = offset + slots.index(target)
            offset += len(slots)
        if here is None:
            return shown
        if target == key:
            return f"{shown}@{here}"
        fields = [f for f, _t in self.record_fields(target)]
        at = str(fields.index(field)) if target in self.indexed_rows and field in fields \
            else f'"{field}"'
        return f"{shown}@{here}[{at}]"

    def _charset_params(self, node: P.Sql) -> P.Sql:
        """A string variable is a string of its declared character set and collation in the
        statement (CHARSET(v), COLLATION(v), HEX(v) as MariaDB shows them; IMPLICIT, as a
        column): its `?` becomes CONVERT(? USING cs) when the set is not the connection's,
        wrapped in rm_local_<collation>(..) when the collation is not the set's default
        (translate.py reads the name and drops the call; a literal argument would be a
        statement's value, unknown to a cached plan). A
        text type without a character set has the routine's database's."""
        wrap: dict[int, str] = {}
        conn = str(self.s.system_variable("character_set_connection") or "").lower()
        for k, name in enumerate(node.vars):
            try:
                slot = self._slot(name)
            except ServerError:
                continue
            vtype = slot[1]
            shown = self._declared_collation(vtype) if vtype and vtype != "ROW" else None
            if shown is None:
                continue
            cs, coll = shown
            piece = f"CONVERT(? USING {cs})" if cs != conn else "?"
            if slot[0] is None or coll != charsets.default_collation(cs).name:
                piece = f"rm_local_{coll}({piece})"  # (NULL too: a NULL `?` has no set)
            if piece != "?":
                wrap[k] = piece
        if not wrap:
            return node
        from rampmeter.sql.lexer import tokens
        pieces, pos, k = [], 0, 0
        for t in tokens(node.text, self.s.dialect()):
            if t.kind != "param":
                continue
            if k in wrap:
                pieces += [node.text[pos:t.start], wrap[k]]
                pos = t.end
            k += 1
        pieces.append(node.text[pos:])
        return P.Sql("".join(pieces), node.vars, node.into, node.names, node.line,
                     source=node.source, spelled=node.spelled)

    def _declared_collation(self, vtype: str) -> tuple[str, str] | None:
        """(character set, collation) of a variable of a text type (None for another type,
        or binary)."""
        cs, coll = _text_collation(vtype)
        if cs == "":  # no set declared: the database's
            db_cs = self._database_charset()
            if db_cs is None or db_cs.is_binary:
                return None
            return db_cs.name, db_cs.default_collation
        return (cs, coll) if cs is not None and coll is not None else None

    def _database_charset(self) -> charsets.Charset | None:
        """The current database's default character set, kept for the session per database
        (a routine's statements ask it for each call)."""
        known = getattr(self.s, "sp_db_charsets", None)
        if known is None:
            known = self.s.sp_db_charsets = {}  # type: ignore[attr-defined]
        db = self.s.database
        if db not in known:
            from rampmeter.session.sp.ddl import _db_collation
            coll = charsets.collation(_db_collation(self.s, db)) if db else None
            if len(known) > 64:
                known.clear()
            known[db] = charsets.charset(coll.charset) if coll is not None else None
        return known[db]  # type: ignore[no-any-return]

    def _row_fields(self, spec: str) -> list[tuple[str, str]]:
        """The fields of a ROW variable: ROW(name type, ...), ROW TYPE OF [db.]table (its
        columns now), ROW TYPE OF cursor (none until a FETCH fills it)."""
        from rampmeter.sql.lexer import ident_value, tokens
        toks = tokens(spec, self.s.dialect())
        if toks and toks[0].text == "(":
            fields: list[tuple[str, str]] = []
            depth, start = 0, 1
            for k, x in enumerate(toks):
                depth += (x.text == "(") - (x.text == ")")
                if depth == 1 and x.text == "," or depth == 0 and k:
                    item = toks[start:k]
                    if item:
                        fname = ident_value(item[0].text) if item[0].kind == "qident" else \
                            item[0].text
                        fields.append((fname.lower(), spec[item[1].start:item[-1].end]
                                       if len(item) > 1 else ""))
                    start = k + 1
                    if depth == 0:
                        break
            return fields
        words = [x.text.upper() for x in toks[:2]]
        if words != ["TYPE", "OF"]:
            raise ServerError(1064, message=f"You have an error in your SQL syntax near "
                              f"'ROW {spec}'", sqlstate="42000")
        parts = [ident_value(x.text) if x.kind == "qident" else x.text for x in toks[2:]
                 if x.text != "."]
        if len(parts) == 1 and any(parts[0].lower() in d for d in self.cursor_defs):
            # the cursor's columns, read by running its query now (its parameters NULL), as
            # MariaDB reads the structure when the block is entered (1146 for no such table)
            k = self._find_cursor(parts[0].lower())
            query, params = self.cursor_defs[k][parts[0].lower()]
            self.scopes.append({})
            try:
                for param in params:
                    self.declare(param.name.lower(), param.type, None)
                result = self.run_sql(query)
            finally:
                self.scopes.pop()
            if not isinstance(result, ResultSet):
                return []
            seen: set[str] = set()
            for c in result.columns:
                if c.name.lower() in seen:
                    raise ServerError(1060, message=f"Duplicate column name '{c.name}'",
                                      sqlstate="42S21")
                seen.add(c.name.lower())
            conn = str(self.s.system_variable("character_set_connection") or "").lower()
            fields = [(c.name.lower(), self._column_type(c) or result_type(c, conn))
                      for c in result.columns]
            return self._own_charsets(query, params, fields)
        cached = (self.anchors or {}).get(("row", spec.strip().lower()))
        if cached is not None:
            return list(cached)
        db = parts[0] if len(parts) == 2 else self.anchor_db
        if db is None:
            raise ServerError(1046, message="No database selected", sqlstate="3D000")
        eng: Any = self.s.engine  # the SQL engine's session (table_def)
        tdef = eng.table_def(db, parts[-1]) if db and eng is not None and \
            eng.engine.database_exists(db) else None
        if tdef is None:
            raise ServerError(1146, message=f"Table '{db}.{parts[-1]}' doesn't exist",
                              sqlstate="42S02")
        definer.check_anchor(self.s, db, parts[-1], [c.name for c in tdef.columns])
        return [(c.name.lower(), anchored_type(c.type)) for c in tdef.columns]

    def _own_charsets(self, query: P.Sql, params: list[Any],
                      fields: list[tuple[str, str]]) -> list[tuple[str, str]]:
        """A string expression's field in the character set the expression has inside the
        server (CONCAT of a latin1 and a utf8 column is utf8), which its result column, sent
        in the connection's, does not say; as MariaDB types the field from the item."""
        strings = [k for k, (_n, t) in enumerate(fields)
                   if re.match(r"(?i)(var)?char\(|(tiny|medium|long)?text\b", t) and
                   not DECLARED_CHARSET.search(t) and " COLLATE " not in t.upper()]
        eng: Any = self.s.engine
        if not strings or params or query.vars or not hasattr(eng, "result_types"):
            return fields
        try:
            types = eng.result_types(self.s.scan(query.text))
        except ServerError:
            return fields
        if len(types) != len(fields):
            return fields
        conn = str(self.s.system_variable("character_set_connection") or "").lower()
        out = list(fields)
        for k in strings:
            cs = getattr(types[k], "charset", None)
            if cs and cs not in (conn, "binary") and getattr(types[k], "is_text", False):
                out[k] = (fields[k][0], f"{fields[k][1]} CHARACTER SET {cs}")
        return out

    def _column_type(self, c: Any) -> str:
        """A result column's type as a declaration spells it: its table column's, when it
        is one (else untyped)."""
        eng: Any = self.s.engine
        if not (c.org_table and c.schema and c.org_name) or eng is None:
            return ""
        try:
            tdef = eng.table_def(c.schema, c.org_table)
        except ServerError:
            return ""
        col = tdef.column(c.org_name) if tdef is not None else None
        return anchored_type(col.type) if col is not None else ""

    def _anchored(self, ref: str) -> str:
        """The type `TYPE OF ref` stands for, read when the block is entered, as MariaDB:
        a local variable's, or a table column's (db.table.col / table.col: 1146 for no such
        table, 1054 for no such column)."""
        from rampmeter.sql.lexer import ident_value, tokens
        parts = [ident_value(x.text) if x.kind == "qident" else x.text
                 for x in tokens(ref, self.s.dialect()) if x.text != "."]
        if len(parts) == 1:
            return self._slot(parts[0].lower())[1]
        if len(parts) not in (2, 3):
            raise ServerError(1064, message=f"You have an error in your SQL syntax near "
                              f"'{ref}'", sqlstate="42000")
        cached = (self.anchors or {}).get(("col", ref.strip().lower()))
        if cached is not None:
            return str(cached)
        db = parts[0] if len(parts) == 3 else self.anchor_db
        table, column = parts[-2], parts[-1]
        if db is None:
            raise ServerError(1046, message="No database selected", sqlstate="3D000")
        if db.lower() == "information_schema":  # its tables' types as MariaDB declares them
            from rampmeter.session.sp.istypes import COLUMNS, column_type
            ctype = column_type(table, column)
            if ctype is not None:
                return ctype
            if table.upper() in COLUMNS:
                raise ServerError(1054, message=f"Unknown column '{column}' in '{table}'",
                                  sqlstate="42S22")
        eng: Any = self.s.engine  # the SQL engine's session (table_def)
        tdef = eng.table_def(db, table) if eng is not None and \
            eng.engine.database_exists(db) else None
        if tdef is None:
            raise ServerError(1146, message=f"Table '{db}.{table}' doesn't exist",
                              sqlstate="42S02")
        definer.check_anchor(self.s, db, table, [column])
        col = tdef.column(column)
        if col is None:
            raise ServerError(1054, message=f"Unknown column '{column}' in '{table}'",
                              sqlstate="42S22")
        return anchored_type(col.type)

    def _create_select(self, node: P.Sql, params: list[Any]) -> tuple[P.Sql, list[Any]]:
        """CREATE TABLE t [AS] SELECT with local variables (which a DDL statement cannot take
        as parameters): their values go in as literals, and a select item that is just a
        variable makes a column of its declared type, as MariaDB's (`DECLARE a TINYINT; ...
        CREATE TABLE t AS SELECT a` makes `a tinyint(4)`)."""
        from rampmeter.sql.lexer import ident_value, tokens
        toks = tokens(node.text, self.s.dialect())
        k = next((j for j, x in enumerate(toks) if x.kind == "word" and
                  x.text.upper() == "TABLE"), None)
        if k is None or k + 2 >= len(toks):
            return node, params
        j = k + 1
        if toks[j].text.upper() == "IF":  # IF NOT EXISTS
            j += 3
        name_end = j + 1
        while name_end + 1 < len(toks) and toks[name_end].text == ".":
            name_end += 2
        rest = name_end + (1 if name_end < len(toks) and toks[name_end].text.upper() == "AS"
                           else 0)
        if rest >= len(toks) or toks[rest].text.upper() != "SELECT":
            return node, params   # a column list, options...: left to the statement
        columns: list[str] = []
        named: dict[int, str] = {}
        marks = 0
        item: list[Any] = []
        depth = 0
        for x in toks[rest + 1:] + [None]:
            if x is not None and x.text in ("(", ")"):
                depth += 1 if x.text == "(" else -1
            end = x is None or depth == 0 and (x.text == "," or x.kind == "word" and
                                               x.text.upper() in ("FROM", "WHERE", "UNION",
                                                                  "LIMIT", "ORDER", "GROUP",
                                                                  "HAVING", "INTO"))
            if not end:
                item.append(x)
                continue
            if item and item[0].text == "?" and (len(item) == 1 or len(item) == 2 and
                                                 item[1].kind in ("word", "qident") or
                                                 len(item) == 3 and
                                                 item[1].text.upper() == "AS"):
                var = node.vars[marks]
                alias = item[-1].text if len(item) > 1 else var
                if item[-1].kind == "qident":
                    alias = ident_value(item[-1].text)
                vtype = variable_column_type(self._slot(var)[1])
                if "`" not in alias:
                    if vtype:
                        columns.append(f"`{alias}` {vtype}")
                    if len(item) == 1:  # named as the variable, not as its value
                        named[item[0].start] = alias
            marks += sum(1 for y in item if y.text == "?")
            item = []
            if x is None or x.text != ",":
                break
        pieces, pos = [], 0
        values = iter(params)
        for x in toks:
            if x.text == "?":
                pieces.append(node.text[pos:x.start])
                pieces.append(literal(next(values)))
                if x.start in named:
                    pieces.append(f" AS `{named[x.start]}`")
                pos = x.end
        pieces.append(node.text[pos:])
        text = "".join(pieces)
        if columns:
            cut = toks[name_end - 1].end
            text = text[:cut] + " (" + ", ".join(columns) + ")" + text[cut:]
        return P.Sql(text, (), node.into, node.names, node.line), []

    def value(self, node: P.Sql) -> Any:
        """An expression's value: SELECT <expr>."""
        result = self.run_sql(P.Sql("SELECT " + node.text, node.vars))
        assert isinstance(result, ResultSet)
        rows = list(result.rows)
        self.warnings.extend(self._warnings(result.warnings))
        return rows[0][0] if rows else None

    def assigned_value(self, node: P.Sql) -> Any:
        """The value of what SET / DECLARE ... DEFAULT assigns: there, a stored function's OUT
        arguments may name variables (calls.py)."""
        if "(" not in node.text:
            return self.value(node)
        from rampmeter.session.sp.calls import out_args
        from rampmeter.sql.lexer import tokens
        with out_args(self.s, tokens(node.text, self.s.dialect()), self, node.vars):
            return self.value(node)

    def _fetch_group(self) -> None:
        """FETCH GROUP NEXT ROW: the parameters take the next row's arguments; past the
        last one, NOT FOUND (1329, which the function's handler turns into its value)."""
        used = getattr(self.s, "sp_tables_used", 0)
        if used != self.tables_mark:
            # MariaDB leaves the calling statement Note 4094 for each FETCH GROUP NEXT ROW
            # reached after a statement that used tables, here or in a function it called
            # (measured on 10.11)
            self.tables_mark = used
            self.group_notes.append(Warning_("Note", 4094, f"At line {self.line} in "
                                             f"{self.routine_shown}"))
        row = next(self.group_rows, None) if self.group_rows is not None else None
        if row is None:
            self.group_done = True  # a handler that takes it is the function's last word
            raise ServerError(1329, message="No data - zero rows fetched, selected, or "
                              "processed", sqlstate="02000")
        # a conversion's warning or error names the row of the group, as MariaDB's
        self.group_index += 1
        shown = f" at row {self.group_index}"
        mark = len(self.warnings)
        try:
            for name, value in zip(self.group_params, row, strict=False):
                self.set(name, value)
        except ServerError as e:
            raise ServerError(e.code, message=e.message.replace(" at row 0", shown),
                              sqlstate=e.sqlstate) from None
        self.warnings[mark:] = [Warning_(w.level, w.code, w.message.replace(" at row 0", shown))
                                for w in self.warnings[mark:]]

    def _scalar_for(self, name: str, vtype: str, expr: P.Sql) -> Any:
        """What SET / DEFAULT assigns to a scalar variable or NEW.col: a ROW there (ROW(...),
        a parenthesized list or a subquery of more than one column) is MariaDB's 4078
        "Cannot cast 'row' as 'int' in assignment of `v`" rather than 1241."""
        try:
            return self.assigned_value(expr)
        except ServerError as e:
            if e.code != errors.ER_OPERAND_COLUMNS:
                raise
            target = f"`{name}`"
            if name.startswith("new.") and self.trigger_table is not None:
                db, table = self.trigger_table
                target = f"`{db}`.`{table}`.`{name[4:]}`"
                vtype = self._column_spelling(db, table, name[4:])
            raise rowcast.convert(e, expr.text, vtype if vtype.strip() else "row", target,
                                  self.s.dialect()) from None

    def _column_spelling(self, db: str, table: str, column: str) -> str:
        eng: Any = self.s.engine
        tdef = eng.table_def(db, table) if eng is not None else None
        col = tdef.column(column) if tdef is not None else None
        return col.type.spelling() if col is not None else ""

    def truth(self, node: P.Sql) -> bool:
        v = self.value(node)
        if v is None:
            return False
        if isinstance(v, (bytes, str)):
            try:
                return float(v.decode() if isinstance(v, bytes) else v) != 0
            except ValueError:
                return False
        return bool(v)

    def _warnings(self, warnings: list[Warning_]) -> list[Warning_]:
        """Warnings a statement raised: a handler for one of them runs (module rules); the
        ones no handler took are returned."""
        kept = []
        for w in warnings:
            state = _state_of(w.code, "01000")
            if (w.level == "Warning" or w.code == 1329) and \
                    self.find_handler(w.code, state, w.level == "Warning") is not None:
                self.raise_condition(w.code, state, w.message, warning=True)
            else:
                kept.append(w)
        return kept

    def raise_condition(self, code: int, state: str, message: str, *,
                        warning: bool = False, error: ServerError | None = None) -> None:
        found = self.find_handler(code, state, warning, getattr(error, "handler_depth", None))
        if found is None:
            if warning:
                return
            if error is not None:  # as it came, with the conditions it carries
                raise error
            raise ServerError(code, message=message, sqlstate=state)
        block, handler = found
        saved, self.condition = self.condition, (code, state, message)
        saved_trail, self.trail = self.trail, trail_of(error) if error is not None else \
            [Warning_("Warning" if warning else "Error", code, message)]
        blocks = self.blocks  # a handler never catches what its own body raises
        home = next(k for k, b in enumerate(blocks) if b is block)
        self.blocks = blocks[:home]
        self.homes.append((home, block))  # but it sees its block's conditions (_conditions)
        line = self.line
        try:
            self.exec(handler.body)
            if self.group_done:  # MariaDB's quit_func: the aggregate ends with its handler
                raise ServerError(1321, message=f"FUNCTION {self.function_name} ended without "
                                  "RETURN", sqlstate="2F005")
        except ServerError as e:
            # an error leaving a handler's body goes to the blocks outside the handler's own
            # (not back to the handlers it passed through on its way out)
            e.handler_depth = min(getattr(e, "handler_depth", home), home)  # type: ignore[attr-defined]
            raise
        finally:
            self.condition = saved
            self.trail = saved_trail
            self.blocks = blocks
            self.homes.pop()
        self.line = line
        if handler.action == "EXIT":
            raise _Exit(block)

    def find_handler(self, code: int, state: str, warning: bool = False,
                     depth_limit: int | None = None) -> tuple[P.Block, P.Handler] | None:
        """The handler for a condition; `warning`: raised as a warning, which SQLWARNING
        catches and SQLEXCEPTION does not, whatever its SQLSTATE (MariaDB's find_handler);
        `depth_limit`: only blocks above that depth (an error leaving a handler)."""
        cls = "01" if warning and state[:2] not in ("01", "02") else state[:2]
        top = len(self.blocks) if depth_limit is None else min(depth_limit, len(self.blocks))
        for depth in range(top - 1, -1, -1):
            block = self.blocks[depth]
            best, rank = None, 9
            for h in block.handlers:
                for c in h.conditions:
                    if isinstance(c, str):  # a condition name: its block's or an outer one's
                        c = next((b.conditions[c] for b in reversed(self.blocks[:depth + 1])
                                  if c in b.conditions), c)
                    r = _match(c, code, state, cls)
                    if r is not None and r < rank:
                        best, rank = h, r
            if best is not None:
                return block, best
        return None

    def exec_list(self, body: list[Any]) -> None:
        for node in body:
            try:
                self.exec(node)
            except ServerError as e:
                if e.code in (1317, 1927, 1053):  # a kill is never handled
                    raise
                self.raise_condition(e.code, e.sqlstate or "HY000", e.message, error=e)

    def exec(self, node: Any) -> None:  # noqa: C901 - one branch per statement kind
        if getattr(self.s, "killed", 0):  # KILL [QUERY] (of this very session, too): 1317
            raise ServerError(errors.ER_QUERY_INTERRUPTED)
        t = type(node)
        if node.line:
            self.line = node.line
        if t is P.Sql:
            self._simple(node)
        elif t is P.Block:
            self._block(node)
        elif t is P.Set:
            mark = len(self.warnings)
            for name, expr in node.targets:
                if self._is_row(name):
                    self._set_record(name, expr)
                else:
                    self.set(name, self._scalar_for(name, self._slot(name)[1], expr))
            self._own_conditions(mark)
        elif t is P.If:
            for cond, body in node.branches:
                if self.truth(cond):
                    self.exec_list(body)
                    return
            if node.otherwise is not None:
                self.exec_list(node.otherwise)
        elif t is P.Case:
            self._case(node)
        elif t is P.Loop:
            self._loop(node)
        elif t is P.For:
            self._for(node)
        elif t is P.FetchGroup:
            self._fetch_group()
        elif t is P.Jump:
            raise (_Leave if node.kind == "LEAVE" else _Iterate)(node.label)
        elif t is P.Return:
            self._return(node)
        elif t is P.Cursor:
            self._cursor(node)
        elif t is P.Signal:
            self._signal(node)
        elif t is P.Diagnostics:
            self._diagnostics(node)
        elif t is P.Call:
            from rampmeter.session.sp import calls
            calls.call(self.s, node, self)
        else:  # pragma: no cover - the parser makes no other node
            raise TypeError(t)

    def _return(self, node: P.Return) -> None:
        """RETURN expr; an error in expr that a CONTINUE handler takes returns NULL, as in
        MariaDB (the function does not run on past its RETURN)."""
        try:
            value = self.value(node.value)
        except ServerError as e:
            if e.code in (1317, 1927, 1053):
                raise
            if self.returns is not None:
                e = rowcast.convert(e, node.value.text, self.returns[0],
                                    f"`{self.returns[1]}`", self.s.dialect())
            self.raise_condition(e.code, e.sqlstate or "HY000", e.message)
            value = None
        raise _Returned(value)

    def _simple(self, node: P.Sql) -> None:
        s = self.s
        info, s.info = s.info, node.source or node.text  # the processlist shows it (MariaDB)
        try:
            result = self.run_sql(node)
        finally:
            s.info = info
        # ROW_COUNT() after it, as a client's statement leaves it (session.write_result);
        # run_sql has set it for a statement that returns no rows
        if isinstance(result, ResultSet):
            self.s.last_row_count = -1
        if node.into:
            self._into(node, result)
            return
        if isinstance(result, CallResult) and result.sets:
            # a CALL run as a statement of its own (SET STATEMENT ... FOR CALL p()): its
            # procedure's result sets are this routine's
            if self.sets is None:
                what = "trigger" if getattr(self.s, "sp_in_trigger", 0) else "function"
                raise ServerError(1415, message="Not allowed to return a result set from a "
                                  f"{what}", sqlstate="0A000")
            self.sets.extend(result.sets)
        if isinstance(result, ResultSet):
            if self.sets is None:  # a function may not return a result set
                what = "trigger" if getattr(self.s, "sp_in_trigger", 0) else "function"
                raise ServerError(1415, message="Not allowed to return a result set from a "
                                  f"{what}", sqlstate="0A000")
            # its conditions are the routine's (kept below), which CALL reports once at the end
            self.sets.append(ResultSet(result.columns, result.rows))
            self.s.last_row_count = -1
        self._keep(self._warnings(result.warnings))

    def _keep(self, kept: list[Warning_]) -> None:
        """The warnings CALL reports: as MariaDB's, a statement that uses tables or raises
        conditions of its own starts the list again; others leave it as it is."""
        if kept or self.stmt is not None and self.stmt.uses_tables:
            self.warnings[:] = kept

    def _own_conditions(self, mark: int) -> None:
        """A SET / DECLARE that raised conditions (those after `mark`): they replace the
        ones before it, as each statement of a routine starts the diagnostics area again
        when it raises any (MariaDB)."""
        if 0 < mark < len(self.warnings):
            del self.warnings[:mark]

    def _into(self, node: P.Sql, result: Any) -> None:
        if not isinstance(result, ResultSet):
            raise ServerError(1064, message="INTO needs a query", sqlstate="42000")
        rows = list(result.rows)
        if len(rows) > 1:
            raise ServerError(1172, message="Result consisted of more than one row",
                              sqlstate="42000")
        mode = str(self.s.system_variable("sql_mode") or "")
        if "STRICT_" in mode and "ERROR_FOR_DIVISION_BY_ZERO" in mode and \
                any(w.code == 1365 for w in result.warnings):
            # INTO a variable stores the value: a division by zero is the error it is in
            # strict mode when a value is stored (MariaDB)
            raise ServerError(1365, message="Division by 0", sqlstate="22012")
        record = self._record(node.into[0]) if len(node.into) == 1 else None
        width = len(record) if record is not None else len(node.into)
        if rows and len(rows[0]) != width:
            raise ServerError(1222, message="The used SELECT statements have a different "
                              "number of columns", sqlstate="21000")
        self._keep(self._warnings(result.warnings))
        if not rows:  # a query that found no row: an Empty_queries (MariaDB's MDEV-32266)
            self.s.counters["Empty_queries"] += 1
            self.raise_condition(*NO_DATA, warning=True)
            self.warnings.append(Warning_("Warning", NO_DATA[0], NO_DATA[2]))
            return
        if record is not None:  # SELECT ... INTO rec: its fields
            self._fill(record, rows[0])
            return
        for target in node.into:  # a record among several targets takes one value: 1241
            if not target.startswith("@") and self._is_row(target.lower()):
                fields = len(self._record(target.lower()) or [])
                raise ServerError(1241, message=f"Operand should contain {fields} column(s)",
                                  sqlstate="21000")
        mark = len(self.warnings)
        try:
            for target, v in zip(node.into, rows[0], strict=True):
                if target.startswith("@"):
                    self.s.set_user_variable(target[1:].strip("`'\""), v)
                else:
                    self.set(target.lower(), v)
        except ServerError as e:  # a row fills the variables: its conversions say row 1
            raise ServerError(e.code, message=e.message.replace(" at row 0", " at row 1"),
                              sqlstate=e.sqlstate) from None
        self.warnings[mark:] = [Warning_(w.level, w.code, w.message.replace(" at row 0",
                                                                            " at row 1"))
                                for w in self.warnings[mark:]]

    def _read_anchors(self, block: P.Block) -> None:
        """The tables' structure TYPE OF t.c and ROW TYPE OF t declarations anywhere in the
        routine stand for, read when it starts (MariaDB: an ALTER TABLE the routine runs
        later does not change them). One that cannot be read now is read when its block
        is entered (and fails there)."""
        self.anchors = {}
        stack: list[tuple[Any, frozenset[str]]] = [(block, frozenset())]
        while stack:
            node, cursors = stack.pop()
            if isinstance(node, P.Block):
                cursors = cursors | {n.lower() for n in node.cursors}
                for var in node.vars:
                    self._read_anchor(var.type, cursors)
            stack.extend((child, cursors) for child in children(node))

    def _read_anchor(self, vtype: str, cursors: frozenset[str]) -> None:
        assert self.anchors is not None
        words = vtype.split()
        try:
            if len(words) >= 4 and [w.upper() for w in words[:3]] == ["ROW", "TYPE", "OF"]:
                spec = vtype.strip()[3:].strip()
                if words[3].strip("`").lower() not in cursors:
                    self.anchors[("row", spec.lower())] = self._row_fields(spec)
            elif len(words) == 3 and [w.upper() for w in words[:2]] == ["TYPE", "OF"] and \
                    "." in words[2]:
                self.anchors[("col", words[2].lower())] = self._anchored(words[2])
        except ServerError:
            pass

    def _block(self, block: P.Block) -> None:
        if self.anchors is None:
            self._read_anchors(block)
        self.scopes.append({})
        self.cursors.append({})
        self.cursor_defs.append({n: (q, block.cursor_params.get(n, []))
                                 for n, q in block.cursors.items()})
        try:
            for var in block.vars:
                self.line = var.line or self.line
                fields = None
                if var.type[:8].upper() == "TYPE OF ":
                    anchor = var.type[8:].strip()
                    var = P.Var(var.names, self._anchored(anchor), var.default, var.line)
                    if var.type == "ROW":  # TYPE OF a record: its fields, as they are now
                        fields = self.record_fields(anchor.strip("`").lower())
                elif P.is_row_type(var.type):
                    fields = self._row_fields(var.type[3:].strip())
                    if var.type[3:].lstrip().startswith("("):
                        self.indexed_rows.update(var.names)
                if fields is not None:
                    for name in var.names:
                        self.declare_row(name, fields)
                        if var.default is not None:
                            self._set_record(name, var.default)
                    continue
                mark = len(self.warnings)
                default = self._scalar_for(var.names[0], var.type, var.default) \
                    if var.default is not None else None
                for name in var.names:
                    self.declare(name, var.type, default)
                self._own_conditions(mark)
            self.blocks.append(block)
            try:
                self.exec_list(block.body)
            finally:
                self.blocks.pop()
        except _Exit as e:
            if e.block is not block:
                raise
        except _Leave as e:
            if type(e) is not _Leave or e.label != block.label:
                raise
        finally:
            self.scopes.pop()
            self.cursors.pop()
            self.cursor_defs.pop()

    def _case(self, node: P.Case) -> None:
        subject = self.value(node.subject) if node.subject is not None else None
        for cond, body in node.branches:
            if node.subject is None:
                hit = self.truth(cond)
            else:
                hit = _equal(subject, self.value(cond))
            if hit:
                self.exec_list(body)
                return
        if node.otherwise is None:
            self.line = node.end_line or self.line
            raise ServerError(1339, message="Case not found for CASE statement",
                              sqlstate="20000")
        self.exec_list(node.otherwise)

    def _loop(self, node: P.Loop) -> None:
        while True:
            if node.kind == "WHILE" and not self.truth(node.cond):  # type: ignore[arg-type]
                return
            try:
                self.exec_list(node.body)
            except _Iterate as e:
                if e.label != node.label:
                    raise
                continue
            except _Leave as e:
                if e.label != node.label:
                    raise
                return
            if node.kind == "REPEAT" and self.truth(node.cond):  # type: ignore[arg-type]
                return

    def _for(self, node: P.For) -> None:
        if node.lower is None or node.upper is None:
            self._for_rows(node)
            return
        lower, upper = self.value(node.lower), self.value(node.upper)
        if lower is None or upper is None:
            return
        # the bounds are read as integers, as MariaDB's val_int(): 0xFFF is 4095, '10' is 10
        lo, hi = coerce("BIGINT", lower), coerce("BIGINT", upper)
        steps = range(hi, lo - 1, -1) if node.reverse else range(lo, hi + 1)
        self.scopes.append({})
        try:
            for i in steps:
                self.declare(node.var, "INT", i)
                if not self._loop_body(node):
                    return
        finally:
            self.scopes.pop()

    def _loop_body(self, node: P.For) -> bool:
        """One pass of a FOR loop's body; False when it LEAVEs the loop (ITERATE of the loop
        goes on; another label's ITERATE / LEAVE goes out to it)."""
        try:
            self.exec_list(node.body)
        except _Iterate as e:
            if e.label != node.label:
                raise
        except _Leave as e:
            if e.label != node.label:
                raise
            return False
        return True

    def _for_rows(self, node: P.For) -> None:
        """FOR rec IN cursor / (SELECT ...): the body once per row, rec.col its columns. A
        cursor is opened by the loop (1325 if it is open) and closed after it; a FETCH of it
        in the body takes the next row too, as MariaDB's."""
        if node.query is not None:
            result = self.run_sql(node.query)
            rows = list(result.rows) if isinstance(result, ResultSet) else []
            k, name = -1, ""
        else:
            assert node.cursor is not None
            name = node.cursor
            self._cursor(P.Cursor("OPEN", name, args=node.args))
            k = self._find_cursor(name)
            result = self.last
            rows = self.cursors[k][name] or []
        names = [c.name.lower() for c in result.columns] if isinstance(result, ResultSet) \
            else []
        self.scopes.append({})
        try:
            while rows:
                for col, v in zip(names, rows.pop(0), strict=False):
                    self.scopes[-1][f"{node.var}.{col}"] = [v, ""]
                if not self._loop_body(node):
                    return
        finally:
            self.scopes.pop()
            if k >= 0:
                self.cursors[k][name] = None

    def _find_cursor(self, name: str) -> int:
        for k in range(len(self.cursor_defs) - 1, -1, -1):
            if name in self.cursor_defs[k]:
                return k
        raise ServerError(1324, message=f"Undefined CURSOR: {name}", sqlstate="42000")

    def _cursor(self, node: P.Cursor) -> None:
        k = self._find_cursor(node.name)
        open_rows = self.cursors[k].get(node.name)
        if node.op == "OPEN":
            if open_rows is not None:
                raise ServerError(1325, message="Cursor is already open", sqlstate="24000")
            query, params = self.cursor_defs[k][node.name]
            if len(params) != len(node.args):
                raise ServerError(1318, message="Incorrect number of arguments for CURSOR "
                                  f"{node.name}; expected {len(params)}, got {len(node.args)}",
                                  sqlstate="42000")
            values = [self.value(a) for a in node.args]
            self.scopes.append({})
            try:
                for param, v in zip(params, values, strict=True):
                    self.declare(param.name.lower(), param.type, v)
                result = self.run_sql(query)
            finally:
                self.scopes.pop()
            rows = list(result.rows) if isinstance(result, ResultSet) else []
            self.cursors[k][node.name] = rows
            if isinstance(result, ResultSet):
                self.cursor_columns[node.name] = [c.name.lower() for c in result.columns]
            return
        if open_rows is None:
            raise ServerError(1326, message="Cursor is not open", sqlstate="24000")
        if node.op == "CLOSE":
            self.cursors[k][node.name] = None
            return
        if not open_rows:
            raise ServerError(NO_DATA[0], message=NO_DATA[2], sqlstate=NO_DATA[1])
        row = open_rows.pop(0)
        record = self._record(node.into[0]) if len(node.into) == 1 else None
        if record is None and len(node.into) == 1 and self._is_row(node.into[0]):
            # ROW TYPE OF cursor: its fields are the cursor's columns
            scope = next(sc for sc in reversed(self.scopes) if node.into[0] in sc)
            for col in self.cursor_columns.get(node.name, []):
                scope[f"{node.into[0]}.{col}"] = [None, ""]
            record = self._record(node.into[0])
        if record is not None and len(record) == len(row):  # FETCH c INTO rec: its fields
            self._fill(record, row)
            return
        if len(row) != len(node.into):
            raise ServerError(1328, message="Incorrect number of FETCH variables",
                              sqlstate="HY000")
        for name, v in zip(node.into, row, strict=True):
            self.set(name, v)

    def _record(self, name: str) -> list[tuple[str, list[Any]]] | None:
        """The fields of record `name` (a ROW variable, a FOR loop's rec) in column order, as
        (variable name, slot); None if it has none."""
        prefix = name + "."
        for scope in reversed(self.scopes):
            fields = [(key, slot) for key, slot in scope.items() if key.startswith(prefix)]
            if fields:
                return fields
        return None

    def _fill(self, record: list[tuple[str, list[Any]]], row: Any) -> None:
        self.filling = True
        try:
            for (key, _slot), v in zip(record, row, strict=True):
                self.set(key, v)
        finally:
            self.filling = False

    def _set_record(self, name: str, expr: P.Sql) -> None:
        """rec = other_rec, or = ROW(v1, ...) / (v1, ...): the fields by position; another
        number of values is 1241, as MariaDB."""
        fields = self._record(name) or []
        values: list[Any] | None = None
        text = expr.text.strip()
        if text == "?" and len(expr.vars) == 1 and self._is_row(expr.vars[0]):
            values = [slot[0] for _k, slot in self._record(expr.vars[0]) or []]
        elif text.upper().startswith("ROW") and text[3:].lstrip().startswith("(") or \
                text.startswith("(") and text.endswith(")"):
            inner = text[3:].lstrip() if text.upper().startswith("ROW") else text
            body = inner[1:-1].strip()
            if body[:6].upper() == "SELECT" and body[6:7] in (" ", "\n", "\t", "("):
                # rec = (SELECT ...): the subquery's row (1172 for more than one)
                result = self.run_sql(P.Sql(body, expr.vars))
                if isinstance(result, ResultSet) and len(result.rows) > 1:
                    raise ServerError(1242, message="Subquery returns more than 1 row",
                                      sqlstate="21000")
                if isinstance(result, ResultSet) and not result.rows:
                    result = ResultSet(result.columns, [tuple([None] * len(result.columns))])
            else:
                result = self.run_sql(P.Sql("SELECT " + body, expr.vars))
            rows = list(result.rows) if isinstance(result, ResultSet) else []
            values = list(rows[0]) if rows else []
        if values is None or len(values) != len(fields):
            raise ServerError(1241, message=f"Operand should contain {len(fields)} column(s)",
                              sqlstate="21000")
        for (key, _slot), v in zip(fields, values, strict=True):
            self.set(key, v)

    def _is_row(self, name: str) -> bool:
        for scope in reversed(self.scopes):
            if name in scope:
                return scope[name][1] == "ROW"
        return False

    def area(self) -> list[tuple[int, str, str]]:
        """The diagnostics area GET DIAGNOSTICS reads: in a handler, its condition; else the
        previous statement's conditions (the session's, before a program's first one)."""
        if self.condition is not None:
            return [self.condition]
        last = self.last
        found = last.warnings if last is not None else self.s.warnings
        return [(w.code, _state_of(w.code, "HY000" if w.level == "Error" else "01000"),
                 w.message) for w in found]

    def _diagnostics(self, node: P.Diagnostics) -> None:
        area = self.area()
        values: list[tuple[str, Any]] = []
        if node.condition is None:
            last = self.last
            count = last.affected_rows if isinstance(last, UpdateCount) else -1
            for target, item in node.items:
                values.append((target, len(area) if item == "NUMBER" else count))
        else:
            number = self.value(node.condition)
            try:
                k = int(number)
            except (TypeError, ValueError):
                k = 0
            if not 1 <= k <= len(area):  # MariaDB: the statement succeeds, with this Error
                self.warnings.append(Warning_("Error", 1758, "Invalid condition number"))
                return
            code, state, message = area[k - 1]
            # the other items (CLASS_ORIGIN, TABLE_NAME...) are '' for a server's condition
            got = {"MESSAGE_TEXT": message, "MYSQL_ERRNO": code, "RETURNED_SQLSTATE": state}
            for target, item in node.items:
                values.append((target, got.get(item, "")))
        for target, value in values:
            if target.startswith("@"):
                self.s.set_user_variable(target[1:].strip("`'\""), value)
            else:
                self.set(target, value)

    def _signal(self, node: P.Signal) -> None:
        cond = node.condition
        code, state, message = None, None, None
        if node.resignal and self.condition is None:  # with or without a condition
            raise ServerError(1645, message="RESIGNAL when handler not active",
                              sqlstate="0K000")
        if cond is None:
            assert self.condition is not None
            code, state, message = self.condition
        else:
            visible = list(self.blocks)  # with the blocks of the handlers running
            for k, home in sorted(self.homes, key=lambda x: x[0], reverse=True):
                visible.insert(k, home)
            for block in reversed(visible):
                if isinstance(cond, str) and cond in block.conditions:
                    cond = block.conditions[cond]
                    break
            if isinstance(cond, int):
                code, state = cond, "HY000"
            elif isinstance(cond, str) and cond.startswith("SQLSTATE:"):
                state = cond[9:]
            else:
                raise ServerError(1319, message=f"Undefined CONDITION: {cond}",
                                  sqlstate="42000")
        assert state is not None
        cls = state[:2]
        default_code, default_text = {
            "01": (1642, "Unhandled user-defined warning condition"),
            "02": (1643, "Unhandled user-defined not found condition")}.get(
            cls, (1644, "Unhandled user-defined exception condition"))
        if node.resignal and cond is not None and self.condition is not None:
            # RESIGNAL condition: the new SQLSTATE's level and number, the handled message
            message = self.condition[2]
        code = code or default_code
        message = message or default_text
        strict = "STRICT_" in str(self.s.system_variable("sql_mode") or "")
        truncated: list[Warning_] = []  # 1647 for each item cut to its size
        for item, expr in sorted(node.items.items(), key=lambda x: _ITEM_ORDER.index(x[0])):
            v = self.value(expr)
            if v is None or item == "MYSQL_ERRNO" and not 0 < _errno(v) <= 65534:
                shown = "NULL" if v is None else v.decode() if isinstance(v, bytes) else v
                raise ServerError(1231, message=f"Variable '{item}' can't be set to the value "
                                  f"of '{shown}'", sqlstate="42000")
            if item == "MYSQL_ERRNO":
                code = _errno(v)
                continue
            text, cut = _item_text(item, v, strict)
            if cut:
                truncated.append(Warning_("Warning", 1647, "Data truncated for condition "
                                          f"item '{item}'"))
            if item == "MESSAGE_TEXT":
                message = text
        # RESIGNAL condition keeps the diagnostics area the handler began with (MariaDB
        # unmarks it for removal), the new condition after it; RESIGNAL alone replaces it all
        kept: list[Warning_] = []
        if node.resignal and self.trail is not None and node.condition is not None:
            kept = self.trail
        # a warning: class 01, or RESIGNAL alone of a handled warning (whatever its SQLSTATE)
        warning = cls == "01" or cond is None and bool(self.trail) and \
            self.trail[-1].level == "Warning"  # type: ignore[index]
        if warning:
            if self.find_handler(code, state, True) is not None:  # handled: not left behind
                self.raise_condition(code, state, message, warning=True)
                return
            self.warnings.extend([*kept, *truncated])
            self.warnings.append(Warning_("Warning", code, message))
            return
        err = ServerError(code, message=message, sqlstate=state)
        if truncated or kept:
            err.trail = [*kept, *truncated,  # type: ignore[attr-defined]
                         Warning_("Error", code, message)]
        raise err


def trail_of(e: ServerError) -> list[Warning_]:
    """The conditions an error leaves in the diagnostics area, itself included (RESIGNAL
    and Note 4094 add to them)."""
    trail = getattr(e, "trail", None)
    return list(trail) if trail else [Warning_("Error", e.code, e.message)]


def trace(e: ServerError, frame: Frame, routine: str) -> None:
    """An error leaving routine `routine` (db.name): MariaDB's Note 4094 'At line N in
    db.name' after it, N the line of the statement that raised it in the CREATE text.
    The caller's handlers see it afresh: the depth of the handler it left was this frame's."""
    if hasattr(e, "handler_depth"):
        del e.handler_depth  # type: ignore[attr-defined]
    if e.code in (1317, 1927, 1053) or not frame.line:
        return
    e.trail = [*trail_of(e), Warning_("Note", 4094,  # type: ignore[attr-defined]
                                      f"At line {frame.line} in {routine}")]


def _calls_itself(stmt: Any, routine: str) -> bool:
    """Does the statement call function `routine` (db.name) by its name?"""
    name = routine.rsplit(".", 1)[-1]
    if name not in stmt.text.lower():
        return False
    from rampmeter.sql.lexer import ident_value, tokens
    toks = tokens(stmt.text, stmt.dialect)
    for k, t in enumerate(toks[:-1]):
        word = t.text if t.kind == "word" else ident_value(t.text) if t.kind == "qident" \
            else None
        if word is not None and word.lower() == name and toks[k + 1].text == "(":
            return True
    return False


def _errno(v: Any) -> int:
    """A SIGNAL's MYSQL_ERRNO as a number (0, which is refused, when it is none); a hex or
    bit literal (bytes that are no digits) by its value, 0x12 is 18."""
    if isinstance(v, bytes):
        text = v.decode("latin-1")
        if not text.strip().isdigit():
            return int.from_bytes(v, "big") if 0 < len(v) <= 8 else 0
        v = text
    try:
        return int(v)
    except (TypeError, ValueError):
        return 0


# the order MariaDB reads SIGNAL's items in (Sql_cmd_common_signal::eval_signal_informations)
_ITEM_ORDER = ("CLASS_ORIGIN", "SUBCLASS_ORIGIN", "CONSTRAINT_CATALOG", "CONSTRAINT_SCHEMA",
               "CONSTRAINT_NAME", "CATALOG_NAME", "SCHEMA_NAME", "TABLE_NAME", "COLUMN_NAME",
               "CURSOR_NAME", "MESSAGE_TEXT", "MYSQL_ERRNO", "ROW_NUMBER")


def _item_text(item: str, v: Any, strict: bool) -> tuple[str, bool]:
    """A SIGNAL item's text and whether it was cut: MESSAGE_TEXT holds 512 characters
    (MYSQL_ERRMSG_SIZE), the others 64; longer is 1648 in strict mode, else cut to that
    size with warning 1647 (MariaDB)."""
    text = v.decode() if isinstance(v, bytes) else "" if v is None else str(v)
    limit = 512 if item == "MESSAGE_TEXT" else 64
    if len(text) > limit:
        if strict:
            raise ServerError(1648, message=f"Data too long for condition item '{item}'",
                              sqlstate="HY000")
        return text[:limit], True
    return text, False


def _equal(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return False
    if isinstance(a, (bytes, str)) and isinstance(b, (bytes, str)):
        sa = a.decode() if isinstance(a, bytes) else a
        sb = b.decode() if isinstance(b, bytes) else b
        return sa.lower().rstrip() == sb.lower().rstrip()
    try:
        return decimal.Decimal(str(a)) == decimal.Decimal(str(b))
    except ArithmeticError:
        return str(a) == str(b)


def _state_of(code: int, default: str) -> str:
    spec = errors.ERRORS.get(code)
    if code == 1329:
        return "02000"
    return spec.sqlstate if spec is not None and spec.sqlstate != "HY000" else default


def _match(c: Any, code: int, state: str, cls: str) -> int | None:
    if isinstance(c, int):
        return 0 if c == code else None
    if c.startswith("SQLSTATE:"):
        return 1 if c[9:] == state else None
    if c == "NOT FOUND":
        return 2 if cls == "02" else None
    if c == "SQLWARNING":
        return 2 if cls == "01" else None
    if c == "SQLEXCEPTION":
        return 2 if cls not in ("00", "01", "02") else None
    return None


def done(frame: Frame, sets: list[ResultSet]) -> UpdateCount:
    """CALL's OK: the last statement's counts, with the result sets before it."""
    last = frame.last
    affected = last.affected_rows if isinstance(last, UpdateCount) else 0
    return CallResult(affected_rows=affected, warnings=list(frame.warnings), sets=sets)
