"""The COM_* dispatch table: one small function per protocol event.

Each handler has the signature (session, event, proto, write) -> keep_open and writes exactly
the reply the MySQL protocol prescribes for that command (none for COM_STMT_CLOSE, one OK /
ERR / result set sequence for the rest). SQL statements go through statements.execute.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from rampmeter import errors
from rampmeter.engine.base import Result
from rampmeter.errors import ServerError
from rampmeter.protocol import events as ev
from rampmeter.protocol.columns import Column
from rampmeter.protocol.connection import ServerProtocol
from rampmeter.protocol.constants import Capability, Command
from rampmeter.session import login, reprepare, statements, sysvars, timeout, tracking, userstats
from rampmeter.session.accounts import OLD
from rampmeter.session.names import check_database_name
from rampmeter.session.security import SecurityContext, TableNeed
from rampmeter.session.session import EngineContext
from rampmeter.sql import charsets

if TYPE_CHECKING:
    from rampmeter.session.session import Session, Write



def on_authenticated(s: Session, e: ev.Authenticated, proto: ServerProtocol,
                     write: Write) -> bool:
    """The password was right: the account's own checks (login.py), then the session."""
    ctx = s.ctx
    store = ctx.accounts
    account = store.find(e.user, s.host)
    try:
        if account is None and not store.skip_grants:  # dropped since the password check
            raise ServerError(errors.ER_ACCESS_DENIED_ERROR, e.user, s.host, "YES")
        sec = SecurityContext(store, user=e.user, host=s.host, account=account)
        if account is not None:
            _blocked(s, account)
            login.check_account(account, user=e.user, host=s.host, tls=s.tls_active,
                                cipher=getattr(s, "tls_cipher", ""), peer=s.tls_peer)
            store.password_ok(account)
            _expired_password(s, e, account)
    except ServerError as exc:
        return _refuse_login(s, e, proto, write, exc)
    if not e.change_user and not s.extra_port and s.user == "" and \
            ctx.registry.over_limit_after_login(extra_port=False) and not sec.is_admin():
        ctx.registry.aborted(connect=True)
        write(proto.error_from(ServerError(errors.ER_CON_COUNT_ERROR)))
        return False
    if account is not None and account.default_role and \
            store.tables.role_grant(account.user, account.host, account.default_role):
        sec.set_role(account.default_role)
    key = None
    try:
        if account is not None:
            key = ctx.user_connections.connect(account, ctx.variables["max_user_connections"])
        db = e.database or None
        bits = 0
        if db is not None:
            check_database_name(s, db)
            bits = sec.check_use(db)
    except ServerError as exc:
        if key is not None:
            ctx.user_connections.disconnect(key)
        return _refuse_login(s, e, proto, write, exc)
    old_key, s.connection_key = s.connection_key, key
    if old_key is not None:
        ctx.user_connections.disconnect(old_key)
    s.security = sec
    s.user = e.user
    s.account_host = account.host if account else s.host
    _start_session(s, e, proto)
    try:
        assert s.engine is not None
        s.engine.use(db)
        sec.set_db(db, bits)
    except ServerError as exc:
        write(proto.error_from(exc))
        if not e.change_user:
            ctx.registry.aborted(connect=True)
            return False
        return True
    if not s.logged_in:
        ctx.registry.register(s)
        s.logged_in = True
        userstats.logged_in(s)
        s.ctx.hosts.logged_in(s.host)  # a host's handshake errors are forgiven
    if ctx.variables["init_connect"] and not s.is_admin():
        try:
            init = s.scan_all(ctx.variables["init_connect"])
        except ServerError as exc:
            write(proto.error_from(exc))
            return False
        for stmt in init:
            try:
                statements.execute(s, stmt)
            except ServerError as exc:
                ctx.log.warning("Aborted connection %d: init_connect failed: %s",
                                s.connection_id, exc.message)
                write(proto.error_from(exc))
                return False
    s._end_command()
    write(proto.ok(status=s.status_flags()))
    return True


ER_USER_IS_BLOCKED = 4150
ER_MUST_CHANGE_PASSWORD_LOGIN = 1862


def _expired_password(s: Session, e: ev.Authenticated, account: Any) -> None:
    """PASSWORD EXPIRE: a client that can handle it enters sandbox mode (only SET and ALTER
    USER until the password changes), any other is refused with 1862, as is every client
    while disconnect_on_expired_password is ON (MariaDB's rules)."""
    s.must_change_password = False
    if not account.expired:
        return
    if not e.client_capabilities & Capability.CAN_HANDLE_EXPIRED_PASSWORDS or \
            s.ctx.variables["disconnect_on_expired_password"]:
        raise ServerError(ER_MUST_CHANGE_PASSWORD_LOGIN, sqlstate="HY000", message=(
            "Your password has expired. To log in you must change it using a client that "
            "supports expired passwords."))
    s.must_change_password = True


def _blocked(s: Session, account: Any) -> None:
    """4150 for an account max_password_errors has blocked (aclstore.py rules)."""
    if s.ctx.accounts.password_blocked(account, int(s.ctx.variables["max_password_errors"])):
        raise ServerError(ER_USER_IS_BLOCKED, sqlstate="HY000", message=(
            "User is blocked because of too many credential errors; unblock with "
            "'ALTER USER / FLUSH PRIVILEGES'"))


def _refuse_login(s: Session, e: ev.Authenticated, proto: ServerProtocol, write: Write,
                  exc: ServerError) -> bool:
    """A login refused after the password: reply, count, close. A COM_CHANGE_USER refused
    keeps the connection with its old account (_change_user_denied)."""
    s.ctx.log.info("Access denied for user '%s'@'%s': %s", e.user, s.host, exc.message)
    if e.change_user:
        proto.change_user_failed()
        return _change_user_denied(s, proto, write, exc)
    s.ctx.registry.aborted(connect=True)
    userstats.denied(s, e.user)
    write(proto.error_from(exc))
    return False


def _change_user_denied(s: Session, proto: ServerProtocol, write: Write,
                        exc: ServerError) -> bool:
    """mysqld resets the session before it checks the new account (THD::change_user: the
    transaction rolled back, temporary tables, user variables and prepared statements gone)
    and, when the check fails, goes on as the old account in the old database."""
    if s.engine is not None:
        s.engine.reset()
    s.prepared.clear()
    s.sql_prepared.clear()
    s.user_vars.clear()
    write(proto.error_from(exc))
    return True


def _reset_variables(s: Session) -> None:
    """Session variables back to the global values (COM_RESET_CONNECTION, COM_CHANGE_USER)."""
    gv = s.ctx.variables
    s.vars = {name: gv[name] for name in s.vars}


def _apply_handshake_charset(s: Session, proto: ServerProtocol) -> None:
    """The character sets the client asked for in its handshake (at login, and again after
    COM_RESET_CONNECTION, which MariaDB resets to them rather than to the server's)."""
    cs, coll = s.handshake_charset
    for name in ("character_set_client", "character_set_connection", "character_set_results"):
        s.vars[name] = cs
    s.vars["collation_connection"] = coll
    s.sync_charsets(proto)


def _start_session(s: Session, e: ev.Authenticated, proto: ServerProtocol) -> None:
    """Character sets, timeouts and the engine session of a new login / changed user."""
    ctx = s.ctx
    s.capabilities = e.client_capabilities
    s.interactive = bool(e.client_capabilities & Capability.INTERACTIVE)
    s.multi_statements = bool(e.client_capabilities & Capability.MULTI_STATEMENTS)
    # The handshake's collation id names the client's character set (MariaDB falls back to the
    # server's when it does not know the id, or when it cannot be a client character set).
    coll = charsets.collation_by_id(e.charset)
    cs = charsets.charset(coll.charset) if coll is not None else None
    if cs is None or not cs.client_usable:
        cs, coll = charsets.UTF8MB4, charsets.default_collation("utf8mb4")
    if s.engine is not None:  # COM_CHANGE_USER: MariaDB's THD::change_user starts afresh
        _reset_variables(s)
    s.handshake_charset = (cs.name, coll.name if coll is not None else cs.default_collation)
    _apply_handshake_charset(s, proto)
    sysvars.derive_session(s)
    if s.interactive:
        s.vars["wait_timeout"] = s.vars["interactive_timeout"]
    if s.engine is None:
        s.engine = ctx.engine.open_session(EngineContext(s), s._waiting)
    else:
        s.engine.reset()
        s.prepared.clear()
        s.sql_prepared.clear()
        s.user_vars.clear()


def on_access_denied(s: Session, e: ev.AccessDenied, proto: ServerProtocol,
                     write: Write) -> bool:
    s.ctx.rate_log.log(s.ctx.log, "access denied", logging.INFO,
                       "Access denied for user '%s'@'%s' (using password: %s)", e.user, s.host,
                       "YES" if e.using_password else "NO")
    exc = ServerError(errors.ER_ACCESS_DENIED_ERROR, e.user, s.host,
                      "YES" if e.using_password else "NO")
    acct = s.ctx.accounts.find(e.user, s.host)
    blocked = False
    if acct is not None:  # a wrong password counts toward max_password_errors
        try:
            _blocked(s, acct)
            s.ctx.accounts.password_error(acct)
        except ServerError as refused:
            exc, blocked = refused, True
    if not blocked and acct is not None and acct.plugin == OLD and \
            s.ctx.variables["secure_auth"]:
        # never verified while secure_auth is ON: MariaDB says so
        exc = ServerError(1275, sqlstate="HY000", message=(
            f"Server is running in --secure-auth mode, but '{acct.user}'@'{acct.host}' has a "
            "password in the old format; please change the password to the new format"))
    if e.change_user:  # the protocol counted it; the connection stays, as the old account
        return _change_user_denied(s, proto, write, exc)
    s.ctx.registry.aborted(connect=True)
    userstats.denied(s, e.user)
    write(proto.error_from(exc))
    return False  # mysqld closes the connection after a failed login


def on_query(s: Session, e: ev.Query, proto: ServerProtocol, write: Write) -> bool:
    text = s.decode(e.sql)
    try:
        parts = s.scan_all(text) if s.multi_statements else [s.scan(text)]
    except ServerError as exc:  # an unterminated string or comment, a stray byte...
        s.counters["Questions"] += 1
        s._begin_command("Query", text)
        s.clear_warnings()
        s.write_error(exc, proto, write)
        s._end_command()
        return True
    if not parts or not parts[0].kind and not parts[0].shape:
        s.counters["Questions"] += 1
        if text.strip(" \t\n\r\f\v;\0"):  # only comments: MariaDB answers OK
            write(proto.ok(status=s.status_flags()))
            return True
        s.clear_warnings()
        s.write_error(ServerError(errors.ER_EMPTY_QUERY), proto, write)
        return True
    last = len(parts) - 1
    for i, stmt in enumerate(parts):
        if not s.check_killed_before_command(proto, write):
            return False
        s.counters["Questions"] += 1
        s._begin_command("Query", stmt.text)
        s.new_statement(stmt)
        failed = _run(s, proto, write, statements.execute, stmt, more=i < last)
        if failed is not None:
            return failed
    s._end_command()
    return True


def _run(s: Session, proto: ServerProtocol, write: Write, statement: Callable[..., Result],
         *args: Any, more: bool = False, binary: bool = False) -> bool | None:
    """Run one statement and write its result or error. None when it succeeded; otherwise
    whether the connection stays open (a kill or a shutdown closes it)."""
    timer = None
    try:
        s.executing = True  # until the last row is written: results are streamed (KILL)
        timer = timeout.start(s)
        try:
            result = statement(s, *args)
            if s.charsets_changed:
                s.sync_charsets(proto)
            s.write_result(result, proto, write, more=more, binary=binary)
        finally:
            s.executing = False
            if timer is not None:
                timer.cancel()
    except ServerError as exc:
        if s.charsets_changed:
            s.sync_charsets(proto)
        exc = s.translate_interrupt(exc)
        if timer is not None:
            exc = timer.error(exc)
        s.write_error(exc, proto, write)
        s._end_command()
        return exc.code not in (errors.ER_CONNECTION_KILLED, errors.ER_SERVER_SHUTDOWN)
    return None


def _simple_ok(s: Session, proto: ServerProtocol, write: Write) -> None:
    s.last_row_count = 0  # MariaDB: after COM_PING / COM_INIT_DB, ROW_COUNT() is 0
    write(proto.ok(status=s.status_flags(),
                   state=tracking.take(s) if s.track_changed else b""))


def on_init_db(s: Session, e: ev.InitDb, proto: ServerProtocol, write: Write) -> bool:
    s.counters["Com_change_db"] += 1
    try:
        assert s.engine is not None
        s.use_database(s.decode(e.database))
    except ServerError as exc:
        s.write_error(exc, proto, write)
        return True
    _simple_ok(s, proto, write)
    return True


def on_ping(s: Session, e: ev.Ping, proto: ServerProtocol, write: Write) -> bool:
    _simple_ok(s, proto, write)
    return True


def on_quit(s: Session, e: ev.Quit, proto: ServerProtocol, write: Write) -> bool:
    return False


def on_connection_closed(s: Session, e: ev.ConnectionClosed, proto: ServerProtocol,
                         write: Write) -> bool:
    if s.logged_in and s.killed == 0:
        # The client went away without COM_QUIT: MariaDB counts an aborted client.
        s.ctx.registry.aborted(connect=False)
    elif not s.logged_in:
        s.ctx.registry.aborted(connect=True)
    return False


def on_statistics(s: Session, e: ev.Statistics, proto: ServerProtocol, write: Write) -> bool:
    reg = s.ctx.registry
    counters = reg.summed_counters()
    uptime = int(time.time() - reg.started)
    threads = len(reg.sessions())
    questions = counters["Questions"]
    text = (f"Uptime: {uptime}  Threads: {threads}  Questions: {questions}  "
            f"Slow queries: 0  Opens: 0  Open tables: 0  "
            f"Queries per second avg: {questions / max(uptime, 1):.3f}")
    write(proto.statistics(text))
    return True


def on_process_kill(s: Session, e: ev.ProcessKill, proto: ServerProtocol, write: Write) -> bool:
    try:
        s.ctx.registry.kill(e.connection_id, query_only=False, killer=s)
    except ServerError as exc:
        s.write_error(exc, proto, write)
        return True
    if e.connection_id == s.connection_id:
        return False
    _simple_ok(s, proto, write)
    return True


def on_reset_connection(s: Session, e: ev.ResetConnection, proto: ServerProtocol,
                        write: Write) -> bool:
    if s.engine is not None:
        s.engine.reset()
    for stmt_id in s.prepared:
        proto.forget_statement(stmt_id)
    s.prepared.clear()
    s.sql_prepared.clear()
    s.user_vars.clear()
    s.clear_warnings()
    _reset_variables(s)
    if s.interactive:
        s.vars["wait_timeout"] = s.vars["interactive_timeout"]
    _apply_handshake_charset(s, proto)
    sysvars.derive_session(s)
    s.ctx.registry.fold_counters(s)  # MariaDB's THD::change_user starts status from zero
    _simple_ok(s, proto, write)
    return True


def on_set_option(s: Session, e: ev.SetOption, proto: ServerProtocol, write: Write) -> bool:
    s.multi_statements = e.multi_statements
    write(proto.eof_or_ok(status=s.status_flags()) if hasattr(proto, "eof_or_ok")
          else proto.ok(status=s.status_flags()))
    return True


def on_field_list(s: Session, e: ev.FieldList, proto: ServerProtocol, write: Write) -> bool:
    assert s.engine is not None
    s.counters["Com_show_fields"] += 1
    s.clear_warnings()
    try:
        table = s.decode(e.table)
        if not charsets.is_valid(table) or not table:
            raise ServerError(errors.ER_NO_SUCH_TABLE, s.database or "", s.shown(table))
        sec, db = s.security, s.database
        if sec is not None and db is not None:
            sec.check_table(TableNeed(db, table, any_privilege=True))
        columns = s.engine.table_columns(table)
        if sec is not None and db is not None and not sec.unchecked:
            columns = [c for c in columns if sec.may_see_column(db, table, c.name)]
        wildcard = s.decode(e.wildcard)
        if wildcard:
            from rampmeter.session.show import like_regex
            rx = like_regex(wildcard)
            columns = [c for c in columns if rx.match(c.name)]
    except ServerError as exc:
        s.write_error(exc, proto, write)
        return True
    defs: list[Column] = [c.column for c in columns]
    write(proto.field_list(defs))
    return True


def on_stmt_prepare(s: Session, e: ev.StmtPrepare, proto: ServerProtocol, write: Write) -> bool:
    s.counters["Com_stmt_prepare"] += 1
    s.clear_warnings()
    try:
        stmt = statements.prepare(s, s.scan(s.decode(e.sql), client_params=True))
        reprepare.remember(s, stmt)
    except ServerError as exc:
        s.write_error(exc, proto, write)
        return True
    stmt_id = next(s._stmt_ids)
    s.prepared[stmt_id] = stmt
    write(proto.prepare_ok(stmt_id, stmt.param_count, stmt.columns, warnings=len(s.warnings)))
    return True


def on_stmt_execute(s: Session, e: ev.StmtExecute, proto: ServerProtocol, write: Write) -> bool:
    s.counters["Com_stmt_execute"] += 1
    s.counters["Questions"] += 1
    if not s.check_killed_before_command(proto, write):
        return False
    stmt = s.prepared.get(e.statement_id)
    if stmt is None:
        s.write_error(ServerError(errors.ER_UNKNOWN_STMT_HANDLER, e.statement_id,
                                  "mysqld_stmt_execute"), proto, write)
        return True
    s._begin_command("Execute", stmt.sql)
    s.clear_warnings()
    failed = _run(s, proto, write, statements.execute_prepared, stmt, e.params, binary=True)
    if failed is not None:
        return failed
    s._end_command()
    return True


def on_stmt_close(s: Session, e: ev.StmtClose, proto: ServerProtocol, write: Write) -> bool:
    s.counters["Com_stmt_close"] += 1
    stmt = s.prepared.pop(e.statement_id, None)
    if stmt is not None and s.engine is not None:
        s.engine.close_prepared(stmt)
    return True


def on_stmt_reset(s: Session, e: ev.StmtReset, proto: ServerProtocol, write: Write) -> bool:
    s.counters["Com_stmt_reset"] += 1
    if e.statement_id not in s.prepared:
        s.write_error(ServerError(errors.ER_UNKNOWN_STMT_HANDLER, e.statement_id,
                                  "mysqld_stmt_reset"), proto, write)
        return True
    _simple_ok(s, proto, write)
    return True


def on_stmt_fetch(s: Session, e: ev.StmtFetch, proto: ServerProtocol, write: Write) -> bool:
    # Cursors (CURSOR_TYPE_READ_ONLY) are not offered: execute always returns the whole
    # result set, so a fetch has nothing to fetch from.
    s.write_error(ServerError(errors.ER_UNKNOWN_STMT_HANDLER, e.statement_id,
                              "mysqld_stmt_fetch"), proto, write)
    return True


def on_unknown(s: Session, e: ev.UnknownCommand, proto: ServerProtocol, write: Write) -> bool:
    if e.command == Command.REFRESH:
        # COM_REFRESH (mariadb-admin refresh / reload / flush-logs / flush-hosts): there are
        # no logs, host cache or table cache to flush; MariaDB answers OK.
        s.counters["Com_flush"] += 1
        _simple_ok(s, proto, write)
        return True
    s.write_error(ServerError(errors.ER_UNKNOWN_COM_ERROR), proto, write)
    return True


DISPATCH: dict[type, Any] = {
    ev.Authenticated: on_authenticated,
    ev.AccessDenied: on_access_denied,
    ev.Query: on_query,
    ev.InitDb: on_init_db,
    ev.Ping: on_ping,
    ev.Quit: on_quit,
    ev.ConnectionClosed: on_connection_closed,
    ev.Statistics: on_statistics,
    ev.ProcessKill: on_process_kill,
    ev.ResetConnection: on_reset_connection,
    ev.SetOption: on_set_option,
    ev.FieldList: on_field_list,
    ev.StmtPrepare: on_stmt_prepare,
    ev.StmtExecute: on_stmt_execute,
    ev.StmtClose: on_stmt_close,
    ev.StmtReset: on_stmt_reset,
    ev.StmtFetch: on_stmt_fetch,
    ev.UnknownCommand: on_unknown,
}
