"""SQLite's errors -> the MySQL errors a MariaDB user would have seen.

Rules:
- `map_error(message, database)` reads SQLite's message (its codes say too little: a missing
  table and a syntax error are both SQLITE_ERROR) and builds the MySQL error: 1146, 1054, 1062,
  1048, 1050, 1305, 1136, 1052, 1064, 1111, 1205, 1366, 4025, 1241, 1582, 1021, 4024, 4002,
  and 1451 / 1452 from the foreign-key triggers (fkcheck.py), 4025 from the CHECK ones (checks.py).
- Whatever has no MySQL equivalent is 1105 with SQLite's own words, and is logged by the
  caller: that is a fault of ours to fix, not a user error.
- `duplicate_entry` words 1062 as MariaDB does: the duplicate value when the statement named it
  and the key's name (PRIMARY or the index), not SQLite's column list.
"""

from __future__ import annotations

import re
from typing import Any

import sqlglot
from sqlglot import exp

from rampmeter import errors
from rampmeter.engine.sqlite import clauses, sfnames
from rampmeter.engine.sqlite.catalog import TableDef
from rampmeter.errors import ServerError

INFORMATION_SCHEMA = "information_schema"

_NO_SUCH_TABLE = re.compile(r"no such table: (?:(\S+?)\.)?(\S+)$")
_NO_SUCH_COLUMN = re.compile(r"no such column: (.+)$")
UNIQUE = re.compile(r"UNIQUE constraint failed: (.+)$")
PRIMARY_KEY = re.compile(r"PRIMARY KEY constraint failed: (.+)$")
_NOT_NULL = re.compile(r"NOT NULL constraint failed: (?:\S+\.)?(\S+)$")
_EXISTS = re.compile(r"table (?:\"?)(\S+?)(?:\"?) already exists")
_EXISTS_RENAME = re.compile(r"there is already another table or index with this name: (\S+)")
_CLAUSE_ORDER = re.compile(r"(ORDER BY|LIMIT) clause should come after (\S+(?: ALL)?) not before")
_FUNCTION = re.compile(r"no such function: (\S+)")
_VALUES = re.compile(r"table \S+ has (\d+) columns but (\d+) values were supplied")
_CTE_WIDTH = re.compile(r"table \S+ has \d+ values for \d+ columns")
_FOREIGN = ("Cannot add or update a child row", "Cannot delete or update a parent row")
_NO_WINDOW = re.compile(r"no such window: (\S+)")
_USING = re.compile(r"cannot join using column (.+) - column not present in both tables")
_TERM = re.compile(r"(\d+)(?:st|nd|rd|th) (ORDER|GROUP) BY term out of range")


def _term(sql: str | None, clause: str, n: int) -> str:
    """The position SQLite found out of range as its n-th ORDER / GROUP BY term (MariaDB
    names the number written: `ORDER BY 0` is "Unknown column '0'"); n when not found."""
    for m in re.finditer(clause + r"\s+BY\s+", sql or "", re.IGNORECASE):
        items = re.match(r"([^()]*?)(?=\)|\b(?:LIMIT|HAVING|WINDOW|UNION|EXCEPT|INTERSECT)\b|$)",
                         (sql or "")[m.end():], re.IGNORECASE)
        terms = [t.strip().split()[0] for t in (items.group(1) if items else "").split(",")
                 if t.strip()]
        if len(terms) >= n and re.fullmatch(r"-?\d+", terms[n - 1]):
            return terms[n - 1]
    return str(n)


def map_error(msg: str, database: str | None, sql: str | None = None) -> ServerError:
    """`sql`: the SQLite text that failed, to name the clause of 1054 / 1052 (clauses.py)."""
    if msg.startswith("CONSTRAINT `") and " failed for `" in msg:  # checks.py's triggers
        return ServerError(4025, message=msg, sqlstate="23000")
    if msg.startswith("Out of range value for column '"):  # checks.py: AUTO_INCREMENT
        return ServerError(167, message=msg, sqlstate="22003")
    if msg.startswith(_FOREIGN):  # fkcheck.py's triggers raise MariaDB's own text
        code = 1452 if msg.startswith(_FOREIGN[0]) else 1451
        return ServerError(code, message=msg, sqlstate="23000")
    if m := _NO_WINDOW.search(msg):  # OVER w with no WINDOW w AS (...): MariaDB's 4009
        return ServerError(4009, message=f"Window specification with name '{m.group(1)}' is "
                           "not defined", sqlstate="HY000")
    if m := _USING.search(msg):  # JOIN ... USING (x) where a side has no x
        return ServerError(errors.ER_BAD_FIELD_ERROR, m.group(1), "FROM")
    if m := _NO_SUCH_TABLE.search(msg):
        db = m.group(1) or database or ""
        table = m.group(2)
        if db == "temp" and table.startswith("is_"):
            return ServerError(errors.ER_NO_SUCH_TABLE, INFORMATION_SCHEMA, table[3:].upper())
        if db == "temp" and table.startswith("pe_"):
            return ServerError(errors.ER_NO_SUCH_TABLE, "performance_schema", table[3:])
        return ServerError(errors.ER_NO_SUCH_TABLE, db, table)
    if m := _NO_SUCH_COLUMN.search(msg):
        col = m.group(1)
        parts = col.split(".")
        if len(parts) == 3:  # db.table.col: shown as MySQL does, table.col
            col = ".".join(parts[1:])
        where = clauses.clause_of(sql, col) if sql else clauses.DEFAULT
        return ServerError(errors.ER_BAD_FIELD_ERROR, col, where)
    if msg == "argument of ntile must be a positive integer":
        return ServerError(4024, message="Argument of NTILE must be greater than 0",
                           sqlstate="HY000")
    if m := _TERM.search(msg):
        return ServerError(errors.ER_BAD_FIELD_ERROR, _term(sql, m.group(2), int(m.group(1))),
                           "ORDER BY" if m.group(2) == "ORDER" else "GROUP BY")
    if m := UNIQUE.search(msg) or PRIMARY_KEY.search(msg):
        cols = [c.strip().split(".")[-1] for c in m.group(1).split(",")]
        return ServerError(errors.ER_DUP_ENTRY, message=f"Duplicate entry for key "
                           f"'{'-'.join(cols)}'")
    if m := _NOT_NULL.search(msg):
        return ServerError(errors.ER_BAD_NULL_ERROR, m.group(1))
    if m := _EXISTS.search(msg) or _EXISTS_RENAME.search(msg):
        return ServerError(errors.ER_TABLE_EXISTS_ERROR, m.group(1))
    if "misuse of aggregate" in msg:
        return ServerError(1111, message="Invalid use of group function", sqlstate="HY000")
    if m := _CLAUSE_ORDER.search(msg):  # ORDER BY / LIMIT before UNION, EXCEPT, INTERSECT
        return ServerError(errors.ER_PARSE_ERROR, m.group(2).lower(), 1)
    if m := _FUNCTION.search(msg):
        named = sfnames.split(m.group(1))  # db.f(...) as translate.py spells it
        if named is not None:
            return ServerError(errors.ER_SP_DOES_NOT_EXIST, "FUNCTION", ".".join(named))
        return ServerError(errors.ER_SP_DOES_NOT_EXIST, "FUNCTION",
                           f"{database}.{m.group(1)}" if database else m.group(1))
    if _CTE_WIDTH.search(msg):  # WITH t(a) AS (SELECT 1, 2): MariaDB's 4002
        return ServerError(4002, message="WITH column list and SELECT field list have "
                           "different column counts", sqlstate="HY000")
    if _VALUES.search(msg):
        return ServerError(errors.ER_WRONG_VALUE_COUNT_ON_ROW, 1)
    if "ON clause references tables to its right" in msg:  # MariaDB: 1054 in 'ON'
        return ServerError(errors.ER_BAD_FIELD_ERROR, _on_column_to_the_right(sql), "ON")
    if "no tables specified" in msg:
        return ServerError(errors.ER_NO_TABLES_USED)
    if "do not have the same number of result columns" in msg:
        return ServerError(1222, message="The used SELECT statements have a different number "
                           "of columns", sqlstate="21000")
    if "ambiguous column name" in msg:
        col = msg.rsplit(":", 1)[-1].strip().split(".")[-1]
        where = clauses.clause_of(sql, col) if sql else clauses.DEFAULT
        return ServerError(errors.ER_NON_UNIQ_ERROR, col, where)
    if "syntax error" in msg or "incomplete input" in msg or "unrecognized token" in msg:
        near = re.search(r'near "(.*)"', msg)
        return ServerError(errors.ER_PARSE_ERROR, near.group(1) if near else "", 1)
    if "database is locked" in msg or "database table is locked" in msg:
        return ServerError(errors.ER_LOCK_WAIT_TIMEOUT)
    if "datatype mismatch" in msg:
        return ServerError(1366, message="Incorrect integer value for column", sqlstate="22007")
    if "CHECK constraint failed" in msg:
        return ServerError(4025, message=f"CONSTRAINT {msg.rsplit(':', 1)[-1].strip()} failed",
                           sqlstate="23000")
    if "sub-select returns" in msg or "row value misused" in msg:
        # "sub-select returns 1 columns - expected 2": MariaDB names the width wanted
        wanted = re.search(r"expected (\d+)", msg)
        return ServerError(1241, message=f"Operand should contain "
                           f"{wanted.group(1) if wanted else 1} column(s)", sqlstate="21000")
    if "too many arguments on function" in msg:  # SQLite's limit of 127; MariaDB has none
        return ServerError(errors.ER_NOT_SUPPORTED_YET,
                           "more than 127 arguments to a function")
    if "wrong number of arguments to function" in msg:
        fn = re.search(r"function (\w+)", msg)
        return ServerError(1582, message="Incorrect parameter count in the call to native "
                           f"function '{fn.group(1) if fn else ''}'", sqlstate="42000")
    if "parser stack overflow" in msg:
        # nesting deeper than SQLite's parser holds (about a dozen subqueries in comparisons,
        # 30 CASE): MariaDB's error for a statement nested past its stack (docs/sql.md)
        from rampmeter.sql.limits import MAX_EXPRESSION_DEPTH, overrun
        return overrun(MAX_EXPRESSION_DEPTH + 1)
    if "too many terms in compound SELECT" in msg or "Expression tree is too large" in msg \
            or "too many SQL variables" in msg:
        return ServerError(errors.ER_TOO_BIG_SELECT, message=f"Statement too complex: {msg}")
    if "string or blob too big" in msg:
        return ServerError(errors.ER_TOO_LONG_STRING if hasattr(errors, "ER_TOO_LONG_STRING")
                           else 1162, message="Result of the statement is too large")
    if "disk" in msg and ("full" in msg or "I/O" in msg):
        return ServerError(1021, message=f"Disk full or I/O error: {msg}", sqlstate="HY000")
    return ServerError(errors.ER_UNKNOWN_ERROR, msg)


def _on_column_to_the_right(sql: str | None) -> str:
    """The first column an ON names of a table joined later (MariaDB's unknown column there:
    an ON sees only the tables joined so far)."""
    try:
        tree = sqlglot.parse_one(sql or "", read="sqlite")
    except sqlglot.errors.ParseError:
        return "?"
    for select in tree.find_all(exp.Select):
        frm = select.args.get("from")
        seen = {frm.this.alias_or_name.lower()} if frm is not None else set()
        for join in select.args.get("joins") or []:
            seen.add(join.this.alias_or_name.lower())
            on = join.args.get("on")
            for col in on.find_all(exp.Column) if on is not None else []:
                if col.table and col.table.lower() not in seen:
                    return f"{col.table}.{col.name}"
    return "?"


def duplicate_entry(failed: str, tdef: TableDef | None, shown_values: dict[str, Any]
                    ) -> ServerError:
    """1062 for SQLite's 'UNIQUE constraint failed: db.t.a, db.t.b' (see the module rules).
    `shown_values` maps lower-cased column names to the values the statement stored."""
    cols = [c.strip().split(".")[-1] for c in failed.split(",")]
    key = "-".join(cols)
    if tdef is not None:
        low = [c.lower() for c in cols]
        if [c.lower() for c in tdef.primary] == low:
            key = "PRIMARY"
        else:
            for idx in tdef.indexes:
                if [c.lower() for c in idx.columns] == low:
                    key = idx.name
                    break
    shown = []
    for col in cols:
        if col.lower() not in shown_values:
            return ServerError(errors.ER_DUP_ENTRY, message=f"Duplicate entry for key '{key}'")
        value = shown_values[col.lower()]
        if isinstance(value, str) and value[:1] == "~" and value[1:].isdigit():
            value = int(value[1:])  # a BIGINT UNSIGNED above 2^63-1 (values.big_unsigned)
        column = tdef.column(col) if tdef is not None else None
        if isinstance(value, bytes) and column is not None and column.type.name == "binary":
            # a BINARY(n)'s padding is not shown, but one byte of an all-zero value is:
            # 'a' and '\x00' for BINARY(4) 0x61000000 and 0x00000000 (measured on 10.11)
            value = value.rstrip(b"\0") or value[:1]
        if isinstance(value, bytes):  # MariaDB shows bytes it cannot print as \xHH
            value = "".join(chr(b) if 32 <= b < 127 else f"\\x{b:02X}" for b in value)
        shown.append("NULL" if value is None else str(value))
    return ServerError(errors.ER_DUP_ENTRY, "-".join(shown)[:192], key)


# --- the storage failing under a statement ---------------------------------------------------
# SQLite's primary result codes (sqlite3.h) for what a full, read-only or failing disk causes
_SQLITE_READONLY, _SQLITE_IOERR, _SQLITE_CORRUPT, _SQLITE_FULL = 8, 10, 11, 13


def storage_error(code: int | None, msg: str, database: str | None,
                  table: str | None) -> ServerError | None:
    """The MySQL error for a storage failure, as MariaDB reports one, or None when `code` is
    not one: a full disk is 1021 (ER_DISK_FULL, errno 28), a read-only database file 1036
    (ER_OPEN_AS_READONLY), an I/O error or a damaged file 1030 (ER_GET_ERRNO). The statement
    fails and its transaction can go on or roll back; SQLite rolls the statement back, so
    nothing half-written stays (docs/reliability.md)."""
    if code is None:
        return None
    primary = code & 0xFF
    where = f"./{database or '?'}/{table or '?'}"
    if primary == _SQLITE_FULL:
        return ServerError(errors.ER_DISK_FULL, where, '28 "No space left on device"')
    if primary == _SQLITE_READONLY:
        return ServerError(errors.ER_OPEN_AS_READONLY, table or database or "?")
    if primary == _SQLITE_IOERR:
        return ServerError(errors.ER_GET_ERRNO, 5, "Input/output error", "SQLite")
    if primary == _SQLITE_CORRUPT:
        return ServerError(errors.ER_GET_ERRNO, 176, "Read page with wrong checksum", "SQLite")
    return None
