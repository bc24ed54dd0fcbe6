"""The tables of the `mysql` schema that rampmeter makes from its stored programs: mysql.proc
(the stored procedures and functions) and mysql.event (the events), when no table of that
name is stored.

Rules:
- MariaDB keeps its routines and events in these tables; rampmeter keeps them in each
  database's file (routines.py), so these are read-only views of them, made when a statement
  reads them (infoschema_objects.mysql_proc, mysql_event), with MariaDB 10.11's columns.
- They are listed by SHOW TABLES and information_schema.TABLES, described by SHOW CREATE TABLE
  with MariaDB's definitions (below, as MariaDB 10.11 prints them), and read by SELECT, so
  tools that walk the `mysql` schema (mariadb-dump --all-databases, the mtr test 1st) find
  them. Writing them is refused as for a table that is not there.
- A stored table of the same name (a client's CREATE TABLE mysql.proc) hides the view.
- mysql.event's times are UTC, as MariaDB stores them (execute_at, starts, ends); created and
  modified are the event's own.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession

MYSQL = "mysql"

# the `sql_mode` column of mysql.event and mysql.proc: the same SET in both (MariaDB 10.11)
_SQL_MODE_COLUMN = (
        "  `sql_mode` set('REAL_AS_FLOAT','PIPES_AS_CONCAT','ANSI_QUOTES','IGNORE_SPACE',"
        "'IGNORE_BAD_TABLE_OPTIONS','ONLY_FULL_GROUP_BY','NO_UNSIGNED_SUBTRACTION',"
        "'NO_DIR_IN_CREATE','POSTGRESQL','ORACLE','MSSQL','DB2','MAXDB','NO_KEY_OPTIONS',"
        "'NO_TABLE_OPTIONS','NO_FIELD_OPTIONS','MYSQL323','MYSQL40','ANSI',"
        "'NO_AUTO_VALUE_ON_ZERO','NO_BACKSLASH_ESCAPES','STRICT_TRANS_TABLES',"
        "'STRICT_ALL_TABLES','NO_ZERO_IN_DATE','NO_ZERO_DATE','INVALID_DATES',"
        "'ERROR_FOR_DIVISION_BY_ZERO','TRADITIONAL','NO_AUTO_CREATE_USER',"
        "'HIGH_NOT_PRECEDENCE','NO_ENGINE_SUBSTITUTION','PAD_CHAR_TO_FULL_LENGTH',"
        "'EMPTY_STRING_IS_NULL','SIMULTANEOUS_ASSIGNMENT',"
        "'TIME_ROUND_FRACTIONAL') NOT NULL DEFAULT '',\n"
)


CREATE: dict[str, str] = {
    "event": (
        'CREATE TABLE `event` (\n'
        "  `db` char(64) CHARACTER SET utf8mb3 COLLATE utf8mb3_bin NOT NULL DEFAULT '',\n"
        "  `name` char(64) NOT NULL DEFAULT '',\n"
        '  `body` longblob NOT NULL,\n'
        '  `definer` varchar(384) CHARACTER SET utf8mb3 COLLATE utf8mb3_bin NOT NULL DEFA'
        "ULT '',\n"
        '  `execute_at` datetime DEFAULT NULL,\n'
        '  `interval_value` int(11) DEFAULT NULL,\n'
        "  `interval_field` enum('YEAR','QUARTER','MONTH','DAY','HOUR','MINUTE','WEEK',"
        "'SECOND','MICROSECOND','YEAR_MONTH','DAY_HOUR','DAY_MINUTE','DAY_SECOND',"
        "'HOUR_MINUTE','HOUR_SECOND','MINUTE_SECOND','DAY_MICROSECOND',"
        "'HOUR_MICROSECOND','MINUTE_MICROSECOND','SECOND_MICROSECOND') DEFAULT NULL,\n"
        '  `created` timestamp NOT NULL DEFAULT current_timestamp() ON UPDATE current_tim'
        'estamp(),\n'
        "  `modified` timestamp NOT NULL DEFAULT '0000-00-00 00:00:00',\n"
        '  `last_executed` datetime DEFAULT NULL,\n'
        '  `starts` datetime DEFAULT NULL,\n'
        '  `ends` datetime DEFAULT NULL,\n'
        "  `status` enum('ENABLED','DISABLED',"
        "'SLAVESIDE_DISABLED') NOT NULL DEFAULT 'ENABLED',\n"
        "  `on_completion` enum('DROP','PRESERVE') NOT NULL DEFAULT 'DROP',\n"
        + _SQL_MODE_COLUMN +
        '  `comment` char(64) CHARACTER SET utf8mb3 COLLATE utf8mb3_bin NOT NULL DEFAULT '
        "'',\n"
        '  `originator` int(10) unsigned NOT NULL,\n'
        '  `time_zone` char(64) CHARACTER SET latin1 COLLATE latin1_swedish_ci NOT NULL D'
        "EFAULT 'SYSTEM',\n"
        '  `character_set_client` char(32) CHARACTER SET utf8mb3 COLLATE utf8mb3_bin DEFA'
        'ULT NULL,\n'
        '  `collation_connection` char(64) CHARACTER SET utf8mb3 COLLATE utf8mb3_bin DEFA'
        'ULT NULL,\n'
        '  `db_collation` char(64) CHARACTER SET utf8mb3 COLLATE utf8mb3_bin DEFAULT NULL'
        ',\n'
        '  `body_utf8` longblob DEFAULT NULL,\n'
        '  PRIMARY KEY (`db`,`name`)\n'
        ') ENGINE=Aria DEFAULT CHARSET=utf8mb3 COLLATE=utf8mb3_general_ci PAGE_CHECKSUM=1'
        " TRANSACTIONAL=1 COMMENT='Events'"),
    "proc": (
        'CREATE TABLE `proc` (\n'
        "  `db` char(64) CHARACTER SET utf8mb3 COLLATE utf8mb3_bin NOT NULL DEFAULT '',\n"
        "  `name` char(64) NOT NULL DEFAULT '',\n"
        "  `type` enum('FUNCTION','PROCEDURE','PACKAGE','PACKAGE BODY') NOT NULL,\n"
        "  `specific_name` char(64) NOT NULL DEFAULT '',\n"
        "  `language` enum('SQL') NOT NULL DEFAULT 'SQL',\n"
        "  `sql_data_access` enum('CONTAINS_SQL','NO_SQL','READS_SQL_DATA',"
        "'MODIFIES_SQL_DATA') NOT NULL DEFAULT 'CONTAINS_SQL',\n"
        "  `is_deterministic` enum('YES','NO') NOT NULL DEFAULT 'NO',\n"
        "  `security_type` enum('INVOKER','DEFINER') NOT NULL DEFAULT 'DEFINER',\n"
        '  `param_list` blob NOT NULL,\n'
        '  `returns` longblob NOT NULL,\n'
        '  `body` longblob NOT NULL,\n'
        '  `definer` varchar(384) CHARACTER SET utf8mb3 COLLATE utf8mb3_bin NOT NULL DEFA'
        "ULT '',\n"
        '  `created` timestamp NOT NULL DEFAULT current_timestamp() ON UPDATE current_tim'
        'estamp(),\n'
        "  `modified` timestamp NOT NULL DEFAULT '0000-00-00 00:00:00',\n"
        + _SQL_MODE_COLUMN +
        '  `comment` text CHARACTER SET utf8mb3 COLLATE utf8mb3_bin NOT NULL,\n'
        '  `character_set_client` char(32) CHARACTER SET utf8mb3 COLLATE utf8mb3_bin DEFA'
        'ULT NULL,\n'
        '  `collation_connection` char(64) CHARACTER SET utf8mb3 COLLATE utf8mb3_bin DEFA'
        'ULT NULL,\n'
        '  `db_collation` char(64) CHARACTER SET utf8mb3 COLLATE utf8mb3_bin DEFAULT NULL'
        ',\n'
        '  `body_utf8` longblob DEFAULT NULL,\n'
        "  `aggregate` enum('NONE','GROUP') NOT NULL DEFAULT 'NONE',\n"
        '  PRIMARY KEY (`db`,`name`,`type`)\n'
        ') ENGINE=Aria DEFAULT CHARSET=utf8mb3 COLLATE=utf8mb3_general_ci PAGE_CHECKSUM=1'
        " TRANSACTIONAL=1 COMMENT='Stored Procedures'"),
}


def virtual_name(s: SqliteSession, db: str, table: str) -> str | None:
    """The name of the view `db`.`table` is, if it is one and no table hides it."""
    name = table.lower()
    if db.lower() != MYSQL or name not in CREATE:
        return None
    return name if s.table_def(db, table) is None else None


def listed(db: str, names: list[str]) -> list[str]:
    """The tables SHOW TABLES shows for `db`: the stored ones and these views."""
    if db.lower() != MYSQL:
        return names
    have = {n.lower() for n in names}
    return sorted(names + [n for n in CREATE if n not in have], key=str.lower)
