"""Reading and assigning system variables for one session (@@x, SET [GLOBAL|SESSION] x = v).

Rules (MariaDB 10.11 behaviour):
- @@x reads the session value when the variable has one, else the global value;
  @@session.x of a global-only variable and @@global.x of a session-only one fail with 1238.
- SET x (no scope) means SESSION; a global-only variable then fails with 1229 "should be set with
  SET GLOBAL". A read-only variable fails with 1238 "is a read only variable"; a session value
  that is read-only (max_allowed_packet) fails with 1621.
- Values are validated by the registry (`Option.coerce`): clamping with 1292 warnings, 1231 for a
  bad value, 1232 for a wrong type.
- SET GLOBAL needs a privilege (privileges.set_global_privileges: SUPER, or SUPER /
  CONNECTION ADMIN for the connection and thread-pool variables), else 1227.
- Side effects live here, next to the assignment: autocommit commits an open transaction when
  switched on; character sets are checked against the ones we can speak.
- A few names are not registry options but session facts: warning_count, error_count,
  identity / last_insert_id, and the actual TCP port.
"""

from __future__ import annotations

import time
from decimal import Decimal
from typing import TYPE_CHECKING, Any

from rampmeter import errors
from rampmeter.config.options import Scope, lookup, normalize_name
from rampmeter.errors import ServerError, Warning_
from rampmeter.session import errmsg, tracking
from rampmeter.session.privileges import set_global_privileges
from rampmeter.sql import charsets

if TYPE_CHECKING:
    from rampmeter.session.session import Session

_LOCALE_VARS = {"lc_messages", "lc_time_names"}  # a locale's name or number (errmsg.py)
_CHARSET_VARS = {"character_set_client", "character_set_connection", "character_set_results",
                 "character_set_server", "character_set_database"}


def read(s: Session, name: str, scope: str | None = None) -> Any:
    key = normalize_name(name)
    special = _special(s, key)
    if special is not _MISSING:
        return special
    opt = lookup(key)
    if opt is None or not opt.sysvar:
        raise ServerError(errors.ER_UNKNOWN_SYSTEM_VARIABLE, name)
    scope = (scope or "").lower()
    if scope == "global":
        if not opt.scope & Scope.GLOBAL:
            raise ServerError(errors.ER_INCORRECT_GLOBAL_LOCAL_VAR, opt.name, "SESSION")
        return opt.sql_value(s.ctx.variables[opt.name])
    if scope in ("session", "local") and not opt.scope & Scope.SESSION:
        raise ServerError(errors.ER_INCORRECT_GLOBAL_LOCAL_VAR, opt.name, "GLOBAL")
    if opt.scope & Scope.SESSION:
        return opt.sql_value(s.vars[opt.name])
    return opt.sql_value(s.ctx.variables[opt.name])


_MISSING = object()


def _special(s: Session, key: str) -> Any:
    if key == "warning_count":
        return sum(1 for w in s.warnings if w.level != "Note" or s.vars["sql_notes"])
    if key == "error_count":
        return sum(1 for w in s.warnings if w.level == "Error")
    if key in ("identity", "last_insert_id"):
        return s.engine.last_insert_id if s.engine is not None else 0
    if key == "pseudo_thread_id":
        return s.connection_id
    if key == "timestamp":  # SET timestamp fixes NOW() & co.; unset, it is the clock
        return Decimal(f"{s.vars['timestamp'] or time.time():.6f}")
    return _MISSING


# Variables MariaDB 10.11 warns about when they are set (1287), with what to use instead
# (None: nothing). Listed from a 10.11.19 server: SET each dynamic variable, read the warnings.
DEPRECATED: dict[str, str | None] = {
    "big_tables": None, "innodb_change_buffering": None, "innodb_log_spin_wait_delay": None,
    "innodb_lru_flush_size": None, "innodb_prefix_index_cluster_optimization": None,
    "innodb_purge_rseg_truncate_frequency": None, "max_tmp_tables": None, "old": "@@old_mode",
    "old_alter_table": "@@alter_algorithm", "secure_auth": None,
    "storage_engine": "@@default_storage_engine", "wsrep_causal_reads": "@@wsrep_sync_wait=1",
    "wsrep_load_data_splitting": None, "wsrep_slave_fk_checks": None,
}


def deprecation(name: str) -> Warning_ | None:
    if name not in DEPRECATED:
        return None
    shown = "wsrep_slave_FK_checks" if name == "wsrep_slave_fk_checks" else name
    text = f"'@@{shown}' is deprecated and will be removed in a future release"
    instead = DEPRECATED[name]
    if instead is not None:
        text += f". Please use '{instead}' instead"
    return Warning_("Warning", errors.ER_WARN_DEPRECATED_SYNTAX, text)


def _lock_wait_timeout(s: Any) -> float:
    try:
        return float(s.system_variable("lock_wait_timeout") or 0)
    except (ServerError, TypeError, ValueError):
        return 86400.0


def assign(s: Session, scope: str | None, name: str, value: Any, *,
           default: bool = False) -> list[Warning_]:
    """SET [scope] name = value; returns the warnings to add to the statement."""
    opt = lookup(name)
    if opt is None or not opt.sysvar:
        raise ServerError(errors.ER_UNKNOWN_SYSTEM_VARIABLE, name)
    warnings = _assign(s, opt, scope, value, default=default)
    if opt.name == "optimizer_switch":
        warnings = [*warnings, *_deprecated_switch(s, scope)]
    deprecated = deprecation(opt.name)
    return warnings if deprecated is None else [deprecated, *warnings]


_ER_WARN_DEPRECATED_SYNTAX_NO_REPLACEMENT = 1681


def _deprecated_switch(s: Session, scope: str | None) -> list[Warning_]:
    """MariaDB's fix_optimizer_switch: while the deprecated engine_condition_pushdown flag
    is on, every SET of optimizer_switch warns 1681 (the flag is kept, and does nothing)."""
    value = s.ctx.variables["optimizer_switch"] if (scope or "").lower() == "global" \
        else s.vars["optimizer_switch"]
    if "engine_condition_pushdown=on" not in str(value).split(","):
        return []
    return [Warning_("Warning", _ER_WARN_DEPRECATED_SYNTAX_NO_REPLACEMENT,
                     "'engine_condition_pushdown=on' is deprecated and will be removed in a "
                     "future release")]


def _assign(s: Session, opt: Any, scope: str | None, value: Any, *,
            default: bool) -> list[Warning_]:
    scope = (scope or "session").lower()
    if opt.name == tracking.NAME and not default:
        value = tracking.normalize(value)
    if opt.name == "ft_boolean_syntax" and not default and scope == "global":
        from rampmeter.engine.sqlite.fulltext import check_syntax
        if value is None or not check_syntax(str(value)):  # MyISAM's check
            raise ServerError(errors.ER_WRONG_VALUE_FOR_VAR, opt.name,
                              "NULL" if value is None else str(value))
    if scope == "global":
        if s.security is not None and opt.dynamic:  # a read-only one is 1238 first
            s.security.check_global(*set_global_privileges(opt.name))
        if opt.name == "read_only" and s.engine is not None and \
                (s.engine.lock_mode == "tables" or s.engine.in_transaction):
            # MariaDB's check_read_only: a session would wait for itself
            raise ServerError(errors.ER_LOCK_OR_ACTIVE_TRANSACTION)
        if opt.name == "read_only" and s.engine is not None and not default and \
                str(value).upper() in ("1", "ON", "TRUE"):
            s.engine.wait_for_read_only(_lock_wait_timeout(s))
        if opt.name in _CHARSET_VARS and not default:
            value = _charset(value)
        if opt.name in _LOCALE_VARS and not default:
            value = errmsg.locale_name(value)
        if opt.name in PAIRED and not default:
            value = paired(opt.name, value)[opt.name]
        warnings = s.ctx.variables.set(opt.name, value, default=default)
        gv = s.ctx.variables
        if opt.name in ("max_allowed_packet", "net_buffer_length") and \
                gv["max_allowed_packet"] < gv["net_buffer_length"]:
            warnings = [*warnings, Warning_("Warning", 1708, "The value of "
                        "'max_allowed_packet' should be no less than the value of "
                        "'net_buffer_length'")]
        if opt.name in PAIRED:
            for key, v in paired(opt.name, s.ctx.variables[opt.name]).items():
                s.ctx.variables.set_internal(key, v)
        return warnings
    if not opt.scope & Scope.SESSION:
        if not opt.dynamic:
            raise ServerError(errors.ER_INCORRECT_GLOBAL_LOCAL_VAR, opt.name, "read only")
        raise ServerError(errors.ER_GLOBAL_VARIABLE, opt.name)
    if not opt.dynamic:
        raise ServerError(errors.ER_INCORRECT_GLOBAL_LOCAL_VAR, opt.name, "read only")
    if opt.session_readonly:
        raise ServerError(errors.ER_VARIABLE_IS_READONLY, "SESSION", opt.name, "GLOBAL")
    if default:
        stored, warnings = s.ctx.variables[opt.name], []
    elif opt.name in _CHARSET_VARS:
        stored, warnings = _charset(value, client=opt.name == "character_set_client"), []
        s.charsets_changed = True
    elif opt.name in _LOCALE_VARS:
        stored, warnings = errmsg.locale_name(value), []
    else:
        stored, warnings = opt.coerce(value, current=s.vars[opt.name])
    s.vars[opt.name] = stored
    s.track_changed.append(opt.name)
    if opt.name in PAIRED:
        s.vars.update(paired(opt.name, stored))
    if opt.name == "autocommit" and s.engine is not None:
        s.engine.set_autocommit(bool(stored))
    elif opt.name == "max_join_size":
        derive_session(s)
    return warnings


HA_POS_ERROR = (1 << 64) - 1


def derive_session(s: Session) -> None:
    """Session values MariaDB derives from others at login and when those are set:
    sql_big_selects is ON exactly when max_join_size is unlimited (sys_vars.cc
    fix_max_join_size, THD::init)."""
    s.vars["sql_big_selects"] = s.vars["max_join_size"] >= HA_POS_ERROR


# A character set variable and its collation move together (MariaDB): setting one sets the
# other to match (the set's default collation, or the collation's set).
_PAIRS = (("character_set_connection", "collation_connection"),
          ("character_set_server", "collation_server"),
          ("character_set_database", "collation_database"))
PAIRED = {name for pair in _PAIRS for name in pair}


def paired(name: str, value: Any) -> dict[str, str]:
    """{name: canonical value, its partner: the matching value}; 1273 / 1115 if unknown."""
    text = value.decode() if isinstance(value, bytes) else str(value)
    for cs_var, coll_var in _PAIRS:
        if name == cs_var:
            cs = charsets.charset(text)
            if cs is None:
                raise ServerError(errors.ER_UNKNOWN_CHARACTER_SET, text)
            return {cs_var: cs.name, coll_var: cs.default_collation}
        if name == coll_var:
            coll = charsets.collation(text)
            if coll is None:
                raise ServerError(errors.ER_UNKNOWN_COLLATION, text)
            return {coll_var: coll.name, cs_var: coll.charset}
    return {name: text}


def pair_startup(gv: Any) -> None:
    """After the command line: a character set given without its collation brings its
    default collation, and a collation given alone its character set (MariaDB)."""
    from rampmeter.config.options import REGISTRY
    for cs_var, coll_var in _PAIRS:
        cs = charsets.charset(str(gv[cs_var]))
        coll = charsets.collation(str(gv[coll_var]))
        if cs is None or coll is not None and charsets.charset(coll.charset) is cs:
            continue
        if coll is None or gv[coll_var] == REGISTRY[coll_var].default:
            gv.set_internal(coll_var, cs.default_collation)
        else:
            gv.set_internal(cs_var, coll.charset)


def _charset(value: Any, *, client: bool = False, variable: str = "character_set_client"
             ) -> str:
    """A character set name as MariaDB checks it: 1115 for an unknown one; 1231 for one that
    cannot be a client's (ucs2, utf16, utf32: their text cannot be lexed as SQL)."""
    if value is None:
        return "binary"
    text = value.decode() if isinstance(value, bytes) else str(value)
    cs = charsets.charset(text)
    if cs is None and isinstance(value, int) and not isinstance(value, bool):
        coll = charsets.collation_by_id(value)  # a number names a collation's character set
        cs = charsets.charset(coll.charset) if coll is not None else None
    if cs is None:
        raise ServerError(errors.ER_UNKNOWN_CHARACTER_SET, text)
    if client and not cs.client_usable:
        raise ServerError(errors.ER_WRONG_VALUE_FOR_VAR, variable, text)
    return cs.name


def set_character_set(s: Session, charset: str | None) -> None:
    """SET CHARACTER SET cs: the client's and the results' set is cs, the connection's is the
    database's (character_set_database, collation_database), as MariaDB's does."""
    set_names(s, charset)
    if s.database:  # the current database's own default (its options in the engine)
        from rampmeter.session.sp.ddl import _db_collation
        db_coll = charsets.collation(_db_collation(s, s.database))
        db_cs = charsets.charset(db_coll.charset) if db_coll is not None else None
    else:
        db_cs = charsets.charset(str(read(s, "character_set_database", None) or ""))
        db_coll = charsets.collation(str(read(s, "collation_database", None) or ""))
    if db_cs is None or db_cs.is_binary or db_cs.name in ("ucs2", "utf16", "utf16le", "utf32"):
        return
    s.vars["character_set_connection"] = db_cs.name
    s.vars["collation_connection"] = db_coll.name if db_coll is not None and \
        db_coll.charset == db_cs.name else db_cs.default_collation
    s.charsets_changed = True


def set_names(s: Session, charset: str | None, collation: str | None = None) -> None:
    name = "utf8mb4" if charset is None else _charset(charset, client=True)
    coll = charsets.default_collation(name).name
    if collation is not None:
        found = charsets.collation(collation)
        if found is None:
            raise ServerError(errors.ER_UNKNOWN_COLLATION, collation)
        if found.charset != name:
            raise ServerError(errors.ER_COLLATION_CHARSET_MISMATCH, found.name, name)
        coll = found.name
    for var in ("character_set_client", "character_set_connection", "character_set_results"):
        s.vars[var] = name
        s.track_changed.append(var)
    s.vars["collation_connection"] = coll
    s.charsets_changed = True
