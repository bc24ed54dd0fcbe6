"""information_schema tables about objects other than tables: VIEWS, and the ones dump tools
and admin tools query even when a server has none of what they list - TRIGGERS, ROUTINES,
EVENTS, FILES, PARTITIONS, PARAMETERS.

Rules:
- Column names and order are MariaDB 10.11's. ROUTINES and PARAMETERS list the stored
  procedures and functions (routines.py), TRIGGERS the triggers (triggers.py), EVENTS the
  events (their specs are the session layer's, session/sp/events.py); FILES is empty as it
  is for InnoDB tables in MariaDB; PARTITIONS has MariaDB's one row per (unpartitioned) table,
  its partition columns NULL.
- VIEWS: VIEW_DEFINITION is the canonical text with every name qualified (views.py),
  CHECK_OPTION NONE / CASCADED / LOCAL, IS_UPDATABLE as MariaDB decides it.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable, Iterator
from typing import TYPE_CHECKING, Any

from rampmeter.engine.sqlite import infoschema, routines, triggers
from rampmeter.protocol.columns import Column, int_column, text_column
from rampmeter.protocol.constants import CHARSET_BINARY, ColumnFlag, ColumnType
from rampmeter.sql import charsets

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession

Rows = list[tuple[Any, ...]]


def _columns(names: str, ints: str = "") -> list[Column]:
    wanted = set(ints.split())
    return [int_column(n) if n in wanted else text_column(n, length=64)
            for n in names.split()]


def _views(s: SqliteSession) -> tuple[list[Column], Rows]:
    cols = _columns("TABLE_CATALOG TABLE_SCHEMA TABLE_NAME VIEW_DEFINITION CHECK_OPTION "
                    "IS_UPDATABLE DEFINER SECURITY_TYPE CHARACTER_SET_CLIENT "
                    "COLLATION_CONNECTION ALGORITHM")
    rows: Rows = []
    for db in infoschema._user_databases(s):
        for name in sorted(infoschema._readable_views(s, db)):
            tdef = s.table_def(db, name)
            v = tdef.view if tdef is not None else None
            if v is None:
                continue
            rows.append(("def", db, v.name, v.definition, v.check_option,
                         "YES" if v.updatable else "NO", v.definer, v.security,
                         v.charset_client, v.collation_connection, v.algorithm))
    return cols, rows


def _partitions(s: SqliteSession) -> tuple[list[Column], Rows]:
    cols = _columns("TABLE_CATALOG TABLE_SCHEMA TABLE_NAME PARTITION_NAME SUBPARTITION_NAME "
                    "PARTITION_ORDINAL_POSITION SUBPARTITION_ORDINAL_POSITION PARTITION_METHOD "
                    "SUBPARTITION_METHOD PARTITION_EXPRESSION SUBPARTITION_EXPRESSION "
                    "PARTITION_DESCRIPTION TABLE_ROWS AVG_ROW_LENGTH DATA_LENGTH "
                    "MAX_DATA_LENGTH INDEX_LENGTH DATA_FREE CREATE_TIME UPDATE_TIME CHECK_TIME "
                    "CHECKSUM PARTITION_COMMENT NODEGROUP TABLESPACE_NAME",
                    "PARTITION_ORDINAL_POSITION SUBPARTITION_ORDINAL_POSITION TABLE_ROWS "
                    "AVG_ROW_LENGTH DATA_LENGTH MAX_DATA_LENGTH INDEX_LENGTH DATA_FREE CHECKSUM")
    rows: Rows = []
    for db in infoschema._user_databases(s):
        is_view = infoschema._readable_views(s, db)
        for t in infoschema._readable_tables(s, db):
            if t in is_view:
                continue
            count = infoschema.table_info(s, db, t)["rows"]
            rows.append(("def", db, t) + (None,) * 9 + (count, 0, 0, None, 0, 0, None, None,
                                                       None, None, "", "", None))
    return cols, rows


def _empty(names: str, ints: str = "") -> Callable[[SqliteSession], tuple[list[Column], Rows]]:
    def build(_s: SqliteSession) -> tuple[list[Column], Rows]:
        return _columns(names, ints), []
    return build


_CHARSET_CLAUSE = re.compile(r"\s+(?:CHARACTER\s+SET|CHARSET)\s+[`'\"]?(\w+)[`'\"]?"
                             r"(?:\s+COLLATE\s+[`'\"]?(\w+)[`'\"]?)?\s*$", re.I)


def _dtd(text: str | None) -> tuple[str | None, str | None, str | None]:
    """(DTD_IDENTIFIER, CHARACTER_SET_NAME, COLLATION_NAME) of a routine's type as stored
    (`varchar(10) CHARSET ucs2 COLLATE ucs2_bin`): MariaDB's DTD_IDENTIFIER is the type
    without its character set, which has columns of its own."""
    if not text:
        return text, None, None
    m = _CHARSET_CLAUSE.search(text)
    if m is None:
        return text, None, None
    cs = m.group(1).lower()
    coll = (m.group(2) or "").lower() or None
    if coll is None:
        found = charsets.charset(cs)
        coll = found.default_collation if found is not None else None
    return text[:m.start()], cs, coll


def _data_type(text: str) -> str:
    word = text.strip().split("(")[0].split()[0] if text.strip() else ""
    return word.lower()


def _stored_routines(s: SqliteSession) -> Iterator[tuple[str, dict[str, Any], dict[str, Any],
                                                          bool]]:
    """(database, spec, its characteristics, is a function) of every stored procedure and
    function in the databases the account may see (routines.py specs)."""
    for db in infoschema._user_databases(s):
        for r in routines.listing(s, db):
            if r["type"] in ("PROCEDURE", "FUNCTION"):
                yield db, r, r.get("chars", {}), r["type"] == "FUNCTION"


def _routines(names: str, ints: str) -> Callable[[SqliteSession], tuple[list[Column], Rows]]:
    """One row per stored procedure / function the account may see (routines.py specs)."""
    def build(s: SqliteSession) -> tuple[list[Column], Rows]:
        rows: Rows = []
        for db, r, c, fn in _stored_routines(s):
            dtd, cs, coll = _dtd(r["returns"]) if fn else (None, None, None)
            rows.append((r["name"], "def", db, r["name"], r["type"],
                         _data_type(r["returns"]) if fn else "", None, None, None, None,
                         None, cs, coll, dtd, "SQL", r["body"],
                         None, None, "SQL", c.get("deterministic", "NO"),
                         c.get("data_access", "CONTAINS SQL"), None,
                         c.get("security", "DEFINER"), r["created"], r["modified"],
                         r["sql_mode"], c.get("comment", ""), r["definer"],
                         r["charset_client"], r["collation_connection"],
                         r["db_collation"]))
        return _columns(names, ints), rows
    return build


def _blob(text: str | None) -> bytes:
    return (text or "").encode("utf-8")


def mysql_proc(s: SqliteSession) -> tuple[list[Column], Rows]:
    """mysql.proc as MariaDB 10.11 has it, one row per stored procedure / function of every
    database (read-only here: the routines live in their databases' files, routines.py)."""
    rows: Rows = []
    for db, r, c, fn in _stored_routines(s):
        rows.append((db, r["name"], r["type"], r["name"], "SQL",
                     c.get("data_access", "CONTAINS SQL").replace(" ", "_"),
                     c.get("deterministic", "NO"), c.get("security", "DEFINER"),
                     # param_list, returns, body, body_utf8 are BLOBs in MariaDB
                     _blob(r.get("params", "")), _blob(r["returns"] if fn else ""),
                     _blob(r["body"]), r["definer"], r["created"], r["modified"],
                     r["sql_mode"], c.get("comment", ""), r["charset_client"],
                     r["collation_connection"], r["db_collation"], _blob(r["body"]),
                     "GROUP" if r.get("aggregate") else "NONE"))
    return _columns("db name type specific_name language sql_data_access is_deterministic "
                    "security_type param_list returns body definer created modified sql_mode "
                    "comment character_set_client collation_connection db_collation body_utf8 "
                    "aggregate"), rows


def _utc(epoch: Any) -> str | None:
    if epoch is None:
        return None
    return (dt.datetime(1970, 1, 1) + dt.timedelta(seconds=int(epoch))).isoformat(sep=" ")


_MYSQL_EVENT_TIMES = ("execute_at", "created", "modified", "last_executed", "starts", "ends")


def mysql_event(s: SqliteSession) -> tuple[list[Column], Rows]:
    """mysql.event as MariaDB 10.11 has it, one row per event of every database (read-only
    here, mysqltables.py): execute_at, starts and ends in UTC, as MariaDB stores them."""
    rows: Rows = []
    for db in infoschema._user_databases(s):
        for e in routines.listing(s, db):
            if e["type"] != "EVENT":
                continue
            rows.append((db, e["name"], _blob(e["body"]), e["definer"],
                         _utc(e.get("execute_at_utc")), e.get("interval"), e.get("unit"),
                         e["created"], e["modified"], e.get("last_executed"),
                         _utc(e.get("starts_utc")), _utc(e.get("ends_utc")), e["status"],
                         "PRESERVE" if e["preserve"] else "DROP", e["sql_mode"],
                         e["comment"], e["originator"], e["time_zone"], e["charset_client"],
                         e["collation_connection"], e["db_collation"], _blob(e["body"])))
    cols = [Column(c.name, ColumnType.DATETIME, 19, ColumnFlag.BINARY, 0, CHARSET_BINARY)
            if c.name in _MYSQL_EVENT_TIMES else c for c in _columns(
                "db name body definer execute_at interval_value interval_field created "
                "modified last_executed starts ends status on_completion sql_mode comment "
                "originator time_zone character_set_client collation_connection db_collation "
                "body_utf8", "interval_value originator")]
    return cols, rows


def _triggers(names: str, ints: str) -> Callable[[SqliteSession], tuple[list[Column], Rows]]:
    """One row per trigger (triggers.py), ordered by table, event, timing, as MariaDB's."""
    def build(s: SqliteSession) -> tuple[list[Column], Rows]:
        rows: Rows = []
        for db in infoschema._user_databases(s):
            found = sorted(triggers.listing(s, db), key=lambda t: (
                t["table"].lower(), t["event"], t["timing"], t["created"]))
            order: dict[tuple[str, str, str], int] = {}
            for t in found:
                key = (t["table"].lower(), t["event"], t["timing"])
                order[key] = order.get(key, 0) + 1
                rows.append(("def", db, t["name"], t["event"], "def", db, t["table"],
                             order[key], None, t["body"], "ROW", t["timing"], None, None,
                             "OLD", "NEW", t["created_at"], t["sql_mode"], t["definer"],
                             t["charset_client"], t["collation_connection"],
                             t["db_collation"]))
        return _columns(names, ints), rows
    return build


def _parameters(names: str, ints: str) -> Callable[[SqliteSession], tuple[list[Column], Rows]]:
    """A routine's parameters by position; a function's result is position 0."""
    def build(s: SqliteSession) -> tuple[list[Column], Rows]:
        rows: Rows = []
        for db in infoschema._user_databases(s):
            for r in routines.listing(s, db):
                if r["type"] not in ("PROCEDURE", "FUNCTION"):
                    continue
                fn = r["type"] == "FUNCTION"
                if fn:
                    dtd, cs, coll = _dtd(r["returns"])
                    rows.append(("def", db, r["name"], 0, None, None, _data_type(r["returns"]),
                                 None, None, None, None, None, cs, coll, dtd, r["type"]))
                for k, (mode, pname, ptype) in enumerate(r.get("param_list", []), 1):
                    rows.append(("def", db, r["name"], k, mode, pname,
                                 _data_type(ptype), None, None, None, None, None, None, None,
                                 ptype, r["type"]))
        return _columns(names, ints), rows
    return build


_EVENT_TIMES = frozenset({"EXECUTE_AT", "STARTS", "ENDS", "CREATED", "LAST_ALTERED",
                          "LAST_EXECUTED"})


def _events(s: SqliteSession) -> tuple[list[Column], Rows]:
    cols = [Column(c.name, ColumnType.DATETIME, 19, ColumnFlag.BINARY, 0, CHARSET_BINARY)
            if c.name in _EVENT_TIMES else c for c in _columns(
                "EVENT_CATALOG EVENT_SCHEMA EVENT_NAME DEFINER TIME_ZONE EVENT_BODY "
                "EVENT_DEFINITION EVENT_TYPE EXECUTE_AT INTERVAL_VALUE INTERVAL_FIELD SQL_MODE "
                "STARTS ENDS STATUS ON_COMPLETION CREATED LAST_ALTERED LAST_EXECUTED "
                "EVENT_COMMENT ORIGINATOR CHARACTER_SET_CLIENT COLLATION_CONNECTION "
                "DATABASE_COLLATION", "ORIGINATOR")]
    return cols, [("def", *row) for row in routines.event_rows(s)]


TABLES = {
    "VIEWS": _views,
    "PARTITIONS": _partitions,
    "TRIGGERS": _triggers(
        "TRIGGER_CATALOG TRIGGER_SCHEMA TRIGGER_NAME EVENT_MANIPULATION EVENT_OBJECT_CATALOG "
        "EVENT_OBJECT_SCHEMA EVENT_OBJECT_TABLE ACTION_ORDER ACTION_CONDITION ACTION_STATEMENT "
        "ACTION_ORIENTATION ACTION_TIMING ACTION_REFERENCE_OLD_TABLE "
        "ACTION_REFERENCE_NEW_TABLE ACTION_REFERENCE_OLD_ROW ACTION_REFERENCE_NEW_ROW CREATED "
        "SQL_MODE DEFINER CHARACTER_SET_CLIENT COLLATION_CONNECTION DATABASE_COLLATION",
        "ACTION_ORDER"),
    "ROUTINES": _routines(
        "SPECIFIC_NAME ROUTINE_CATALOG ROUTINE_SCHEMA ROUTINE_NAME ROUTINE_TYPE DATA_TYPE "
        "CHARACTER_MAXIMUM_LENGTH CHARACTER_OCTET_LENGTH NUMERIC_PRECISION NUMERIC_SCALE "
        "DATETIME_PRECISION CHARACTER_SET_NAME COLLATION_NAME DTD_IDENTIFIER ROUTINE_BODY "
        "ROUTINE_DEFINITION EXTERNAL_NAME EXTERNAL_LANGUAGE PARAMETER_STYLE IS_DETERMINISTIC "
        "SQL_DATA_ACCESS SQL_PATH SECURITY_TYPE CREATED LAST_ALTERED SQL_MODE ROUTINE_COMMENT "
        "DEFINER CHARACTER_SET_CLIENT COLLATION_CONNECTION DATABASE_COLLATION",
        "CHARACTER_MAXIMUM_LENGTH CHARACTER_OCTET_LENGTH NUMERIC_PRECISION NUMERIC_SCALE "
        "DATETIME_PRECISION"),
    "PARAMETERS": _parameters(
        "SPECIFIC_CATALOG SPECIFIC_SCHEMA SPECIFIC_NAME ORDINAL_POSITION PARAMETER_MODE "
        "PARAMETER_NAME DATA_TYPE CHARACTER_MAXIMUM_LENGTH CHARACTER_OCTET_LENGTH "
        "NUMERIC_PRECISION NUMERIC_SCALE DATETIME_PRECISION CHARACTER_SET_NAME COLLATION_NAME "
        "DTD_IDENTIFIER ROUTINE_TYPE",
        "ORDINAL_POSITION CHARACTER_MAXIMUM_LENGTH CHARACTER_OCTET_LENGTH NUMERIC_PRECISION "
        "NUMERIC_SCALE DATETIME_PRECISION"),
    "EVENTS": _events,
    "FILES": _empty(
        "FILE_ID FILE_NAME FILE_TYPE TABLESPACE_NAME TABLE_CATALOG TABLE_SCHEMA TABLE_NAME "
        "LOGFILE_GROUP_NAME LOGFILE_GROUP_NUMBER ENGINE FULLTEXT_KEYS DELETED_ROWS UPDATE_COUNT "
        "FREE_EXTENTS TOTAL_EXTENTS EXTENT_SIZE INITIAL_SIZE MAXIMUM_SIZE AUTOEXTEND_SIZE "
        "CREATION_TIME LAST_UPDATE_TIME LAST_ACCESS_TIME RECOVER_TIME TRANSACTION_COUNTER "
        "VERSION ROW_FORMAT TABLE_ROWS AVG_ROW_LENGTH DATA_LENGTH MAX_DATA_LENGTH INDEX_LENGTH "
        "DATA_FREE CREATE_TIME UPDATE_TIME CHECK_TIME CHECKSUM STATUS EXTRA",
        "FILE_ID LOGFILE_GROUP_NUMBER DELETED_ROWS UPDATE_COUNT FREE_EXTENTS TOTAL_EXTENTS "
        "EXTENT_SIZE INITIAL_SIZE MAXIMUM_SIZE AUTOEXTEND_SIZE RECOVER_TIME "
        "TRANSACTION_COUNTER VERSION TABLE_ROWS AVG_ROW_LENGTH DATA_LENGTH MAX_DATA_LENGTH "
        "INDEX_LENGTH DATA_FREE CHECKSUM"),
}
