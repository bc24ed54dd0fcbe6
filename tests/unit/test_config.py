"""The options registry, the mysqld-style command line and my.cnf files."""

from __future__ import annotations

import pytest

from rampmeter import errors
from rampmeter.config.cmdline import UsageError, parse_server_args
from rampmeter.config.options import REGISTRY, lookup
from rampmeter.config.variables import GlobalVariables
from rampmeter.errors import ServerError


def test_dash_and_underscore_spellings_are_the_same_option():
    args = parse_server_args(["--max-connections=7", "--wait_timeout", "9", "--port=0"])
    assert args.values == {"max_connections": 7, "wait_timeout": 9, "port": 0}


def test_boolean_flags_follow_mysqld_rules():
    # An exact name wins over the skip- prefix, as in mysqld.
    assert parse_server_args(["--skip-name-resolve"]).values["skip_name_resolve"] is True
    assert parse_server_args(["--skip-read-only"]).values["read_only"] is False
    assert parse_server_args(["--read-only"]).values["read_only"] is True
    assert parse_server_args(["--read_only=OFF"]).values["read_only"] is False
    assert parse_server_args(["--enable-read-only"]).values["read_only"] is True


def test_unknown_option_is_an_error_unless_loose():
    with pytest.raises(UsageError, match="unknown option"):
        parse_server_args(["--no-such-thing=1"])
    args = parse_server_args(["--loose-no-such-thing=1"])
    assert args.values == {}
    assert "ignored" in args.warnings[0]


def test_out_of_range_values_are_clamped_with_a_warning():
    args = parse_server_args(["--max-connections=0"])
    assert args.values["max_connections"] == 1
    assert "adjusted" in args.warnings[0]


def test_enum_values_are_validated():
    with pytest.raises(UsageError):
        parse_server_args(["--thread-handling=fibers"])
    assert parse_server_args(["--thread-handling=NO-THREADS"]).values["thread_handling"] == "no-threads"


def test_defaults_file_groups_and_precedence(tmp_path):
    inc = tmp_path / "extra.cnf"
    inc.write_text("[mysqld]\nwait_timeout = 11\n")
    cnf = tmp_path / "my.cnf"
    cnf.write_text(
        "# comment\n[client]\nport=1\n"
        "[rampmeter]\nmax-connections = 30\n"
        "[mysqld]\nmax_connections=20\nskip-name-resolve\ninnodb_buffer_pool_size=1G\n"
        "wsrep_provider=none\n"
        f"!include {inc.name}\n"
    )
    args = parse_server_args([f"--defaults-file={cnf}", "--wait-timeout=12"])
    # [rampmeter] beats [mysqld]; the command line beats both; [client] is not ours.
    assert args.values["max_connections"] == 30
    assert args.values["wait_timeout"] == 12
    assert args.values["skip_name_resolve"] is True
    assert "port" not in args.values
    # An option MariaDB knows and we do not is a warning in [mysqld], not a failure.
    assert any("wsrep_provider" in w for w in args.warnings)
    # MariaDB's other variables are stored (without effect), with mysqld's size suffixes
    assert args.values["innodb_buffer_pool_size"] == 1024 ** 3


def test_missing_defaults_file_is_an_error(tmp_path):
    with pytest.raises(UsageError, match="Could not open"):
        parse_server_args([f"--defaults-file={tmp_path / 'nope.cnf'}"])


def test_set_global_clamps_like_mariadb_and_calls_listeners():
    gv = GlobalVariables({"thread_pool_size": 4})
    seen = []
    gv.on_change("thread_pool_oversubscribe", lambda name, value: seen.append(value))
    warnings = gv.set("thread_pool_oversubscribe", 10**10)
    assert gv["thread_pool_oversubscribe"] == 65536
    assert warnings[0].code == errors.ER_TRUNCATED_WRONG_VALUE
    assert seen == [65536]
    # MDEV-5205: at run time thread_pool_size is capped at max(128, start-up value).
    gv.set("thread_pool_size", 100000)
    assert gv["thread_pool_size"] == 128


def test_set_global_errors():
    gv = GlobalVariables()
    with pytest.raises(ServerError) as exc:
        gv.set("no_such_variable", 1)
    assert exc.value.code == errors.ER_UNKNOWN_SYSTEM_VARIABLE
    with pytest.raises(ServerError) as exc:
        gv.set("port", 1)
    assert exc.value.code == errors.ER_INCORRECT_GLOBAL_LOCAL_VAR
    with pytest.raises(ServerError) as exc:
        gv.set("wait_timeout", "soon")
    assert exc.value.code == errors.ER_WRONG_TYPE_FOR_VAR


def test_aliases_resolve():
    assert lookup("tx_isolation") is REGISTRY["transaction_isolation"]
    assert lookup("Thread-Pool-Size") is REGISTRY["thread_pool_size"]


def test_values_of_is_a_fresh_copy_that_follows_set_global() -> None:
    gv = GlobalVariables()
    names = ("wait_timeout", "sql_mode")
    first = gv.values_of(names)
    assert first == {"wait_timeout": gv["wait_timeout"], "sql_mode": gv["sql_mode"]}
    first["wait_timeout"] = 5  # a session's SET changes its own copy only
    assert gv.values_of(names)["wait_timeout"] == gv["wait_timeout"] != 5
    gv.set("wait_timeout", 77)
    assert gv.values_of(names)["wait_timeout"] == 77
    gv.set_internal("sql_mode", "ANSI")
    assert gv.values_of(names)["sql_mode"] == "ANSI"


@pytest.mark.parametrize("name", ["sql_mode", "optimizer_switch"])
def test_null_is_quoted_as_null_when_refused(name):
    opt = lookup(name)
    assert opt is not None
    with pytest.raises(ServerError) as e:
        opt.coerce(None)
    assert e.value.code == errors.ER_WRONG_VALUE_FOR_VAR
    assert e.value.message == f"Variable '{name}' can't be set to the value of 'NULL'"


def test_sql_mode_as_a_number_brings_what_its_combinations_stand_for():
    opt = lookup("sql_mode")
    assert opt is not None
    assert opt.coerce(16384 + 65536 * 4)[0] == \
        "REAL_AS_FLOAT,PIPES_AS_CONCAT,ANSI_QUOTES,IGNORE_SPACE,NO_TABLE_OPTIONS,ANSI"
    assert opt.coerce(2097152)[0] == "STRICT_TRANS_TABLES"
    assert opt.coerce(2147483648 * 8)[0] == "TIME_ROUND_FRACTIONAL"
    with pytest.raises(ServerError) as e:
        opt.coerce(2147483648 * 16)
    assert e.value.message == "Variable 'sql_mode' can't be set to the value of '34359738368'"


def test_pool_defaults_to_one_group_and_one_running_thread_under_the_gil(monkeypatch):
    # One group while Python has a GIL (a second only adds GIL hand-offs); MariaDB's CPU count
    # when the interpreter runs without one (a free-threaded build).
    from rampmeter.config import options

    monkeypatch.delattr(options.sys, "_is_gil_enabled", raising=False)
    assert options.default_thread_pool_size() == 1            # CPython <= 3.12: always a GIL
    monkeypatch.setattr(options.sys, "_is_gil_enabled", lambda: True, raising=False)
    assert options.default_thread_pool_size() == 1
    monkeypatch.setattr(options.sys, "_is_gil_enabled", lambda: False, raising=False)
    monkeypatch.setattr(options.os, "sched_getaffinity", lambda pid: {0, 1, 2}, raising=False)
    assert options.default_thread_pool_size() == 3
    assert options.default_max_active_query_threads() == 0     # MySQL's: no cap
    monkeypatch.setattr(options.sys, "_is_gil_enabled", lambda: True, raising=False)
    assert options.default_max_active_query_threads() == 1
    assert REGISTRY["thread_pool_size"].default == 1
    assert REGISTRY["thread_pool_max_active_query_threads"].default == 1
    assert GlobalVariables()["thread_pool_size"] == 1
