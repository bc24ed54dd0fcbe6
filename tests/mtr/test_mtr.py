"""The mtr harness in the normal suite: the list is the rule's, the classification is
mechanical, and a fast subset of MariaDB's tests (ones rampmeter passes) runs against a real
rampmeter with the mariadb-test client. Skipped where the Debian package mariadb-test (tests
and client) is absent; CI installs it (.ci/run)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.mtr import causes, selection
from tests.mtr.runner import run_test
from tests.mtr.servers import Rampmeter

HAVE_SUITE = (selection.MYSQL_TEST_DIR / "main").is_dir() and \
    shutil.which("mariadb-test") is not None
needs_suite = pytest.mark.skipif(not HAVE_SUITE, reason="apt-get install mariadb-test")

# Fast tests of `main` rampmeter passes, one or more per area issue 13 touched: functions,
# comparisons, variables, statement forms, character sets, result naming. A test that starts
# failing here is a regression of what the mtr run counts.
SUBSET = ("aborted_clients", "adddate_454", "bool", "bulk_replace", "check_constraint_show",
          "comment_table", "create_drop_db", "create_drop_view", "ctype_ascii",
          "ctype_collate_database", "ctype_collate_table", "ctype_create", "datetime_456",
          "deprecated_features", "func_equal", "mdev316", "no_binlog", "overflow", "packet",
          "renamedb", "stack-crash", "type_char", "type_nchar", "win_as_arg_to_aggregate_func",
          "win_first_last_value", "win_lead_lag", "win_min_max", "win_nth_value",
          "win_percent_cume", "win_std",
          # added with the second round (2026-11-26): accounts and sessions, LOCK TABLES,
          # triggers and routines, servers, HELP, character sets, temporal arithmetic
          "change_user", "create_drop_role", "create_drop_server", "ctype_recoding",
          "func_sformat", "grant_slave_monitor", "help", "mdev19198", "reset_connection",
          "sp-inout", "temporal_scale_4283", "trigger-33083",
          # the third round (2026-11-26, second stop): EXPLAIN and Note 1003, errors and
          # accounts, status and session tracking, stored programs, collations, PREPARE,
          # window functions, full-text, table options
          "1st", "ctype_errors", "ctype_latin2", "fulltext_var", "func_op", "key_primary",
          "last_value", "lock_user", "mysqltest_tracking_info", "precedence_bugs", "ps_ddl1",
          "sp-bugs", "sp-dynamic", "status2", "table_options", "timezone_grant", "type_row",
          "win_percentile",
          # the fourth round (2026-11-26, third stop): spatial types and GeoJSON, accounts
          # and the PUBLIC role, temporal strings, collations, DML through views, CTE CYCLE,
          # per-group AUTO_INCREMENT, LOCK TABLES per table, routines' anchored types
          "alter_user", "binary", "cte_cycle", "ctype_filename", "delete_returning",
          "func_date_add", "gis-json", "gis-loaddata", "mdev_14586", "memory_used", "odbc",
          "public_basic", "read_only", "rollback", "sp-anchor-type", "sp_gis",
          "str_to_datetime_457", "type_varbinary",
          # the fifth round (2026-11-26, fourth stop): EXPLAIN's join buffers and keys, sort and
          # handler counters, userstat tables, exact DECIMAL, mysql.user as a table, MyISAM row
          # order, REPLACE ... RETURNING, routines' anchored and DOUBLE(M,D) variables,
          # multi-byte holes and latin1_german2_ci, temporal prepared parameters
          "bad_user_table", "bug13633383", "ctype_latin1_de", "fulltext3", "func_bit",
          "func_concat", "func_test", "handler_read_last", "information_schema_stats", "limit",
          "order_by_optimizer", "order_by_zerolength-4285", "ps_11bugs", "replace_returning",
          "replace_returning_err", "set_password", "sp-anchor-row-type-cursor",
          "system_mysql_db_507", "table_elim_debug", "type_interval", "win_big-mdev-10092")


@needs_suite
def test_the_list_is_the_rules_list() -> None:
    assert selection.read_list() == selection.selected(selection.judge_all())


@needs_suite
@pytest.mark.timeout(240)
def test_fast_subset_passes_on_rampmeter(tmp_path: Path) -> None:
    names = [n for n in SUBSET if (selection.MYSQL_TEST_DIR / "main" / f"{n}.test").exists()]
    server = Rampmeter(tmp_path / "w")
    server.workdir.mkdir(parents=True)
    server.start()
    try:
        failed = []
        for name in names:
            outcome = run_test(server, name, timeout=60)
            if outcome.status != "pass":
                failed.append(f"{name}: {causes.classify(outcome.to_json())} | "
                              f"{outcome.error or outcome.expected!r} -> {outcome.actual!r}")
            server.reset()
    finally:
        server.stop()
    assert not failed, "\n".join(failed)


@pytest.mark.parametrize(("outcome", "cause"), [
    ({"status": "fail", "error": "query 'SET @x=@@optimizer_switch' failed: "
      "ER_UNKNOWN_SYSTEM_VARIABLE (1193): Unknown system variable 'optimizer_switch'"},
     "system variable missing: optimizer_switch"),
    ({"status": "fail", "error": "query 'select lpad(a, 2)' failed: ER_SP_DOES_NOT_EXIST "
      "(1305): FUNCTION test.lpad does not exist"}, "function missing: LPAD"),
    ({"status": "fail", "error": "query 'create view v as select 1' failed: "
      "ER_NOT_SUPPORTED_YET (1235): This version of MariaDB doesn't yet support 'CREATE VIEW'"},
     "views"),
    ({"status": "fail", "statement": "explain select * from t1;",
      "expected": "1\tSIMPLE\tt1\tALL", "actual": "1\tSIMPLE\tNULL"},
     "EXPLAIN / ANALYZE plans"),
    ({"status": "fail", "statement": "insert into t values (1000);", "expected": "Warnings:",
      "actual": "select * from t;"}, "warnings differ: missing"),
    ({"status": "fail", "error": "query 'truncate table mysql.global_priv' failed: "
      "ER_OPEN_AS_READONLY (1036): Table 'global_priv' is read only"},
     "mysql grant tables are read-only"),
])
def test_causes_are_classified_mechanically(outcome: dict[str, object], cause: str) -> None:
    assert causes.classify(outcome) == cause
    assert causes.owner(cause)
