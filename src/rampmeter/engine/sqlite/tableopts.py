"""Table options MariaDB keeps and prints, and engine-defined table and index attributes
(sql_show.cc store_create_info, get_schema_tables_record; measured on 10.11.19).

Rules:
- The options below are kept as given (value DEFAULT, or 0 for the counts and flags MariaDB
  keeps as bits, unsets one) and printed by SHOW CREATE TABLE after the charset, in MariaDB's
  order, then COMMENT, then the attributes; information_schema.TABLES.CREATE_OPTIONS (and SHOW
  TABLE STATUS) lists them in lower case, without COMMENT. rampmeter's storage is SQLite
  whatever they say: they are only shown.
- Aria gives a table PAGE_CHECKSUM=1 unless told otherwise; an ALTER keeps a PAGE_CHECKSUM
  only when the table was Aria before it (or the ALTER sets it), as Aria's handler is what
  carries it over. TRANSACTIONAL is for the transactional engines and Aria: another engine
  fails the statement that sets it with 1911 (a warning under IGNORE_BAD_TABLE_OPTIONS), and
  one a table keeps from before is printed in a comment, `/* TRANSACTIONAL=1 */`, unless
  sql_mode has IGNORE_BAD_TABLE_OPTIONS.
- Any other `name = value` is an engine-defined attribute (attributes.py says the column's):
  no engine here declares one, so each is 1911 "Unknown option" (a warning and kept under
  IGNORE_BAD_TABLE_OPTIONS; a name that is no plain word is an error even then). A later
  setting of a name replaces an earlier one (its spelling too), `name=DEFAULT` removes it but
  is still warned about. Kept ones print as `` `name`='value' `` — inside one `/* ... */`
  (with `*/` as `*\\/`) unless sql_mode has IGNORE_BAD_TABLE_OPTIONS.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from rampmeter.errors import ServerError, Warning_

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.catalog import TableDef
    from rampmeter.sql.reader import Reader

ER_UNKNOWN_OPTION = 1911

# printed in this order; the kind says how a value is read
KNOWN: dict[str, str] = {
    "MIN_ROWS": "count", "MAX_ROWS": "count", "AVG_ROW_LENGTH": "count", "PACK_KEYS": "choice",
    "STATS_PERSISTENT": "choice", "STATS_AUTO_RECALC": "choice", "STATS_SAMPLE_PAGES": "count",
    "CHECKSUM": "flag", "PAGE_CHECKSUM": "choice", "DELAY_KEY_WRITE": "flag",
    "ROW_FORMAT": "word", "TRANSACTIONAL": "choice", "KEY_BLOCK_SIZE": "count",
}
ALIASES = {"TABLE_CHECKSUM": "CHECKSUM"}
Attr = tuple[str, "str | None"]  # (name, value as shown; None: set to DEFAULT)


def _unknown(name: str) -> ServerError:
    return ServerError(ER_UNKNOWN_OPTION, message=f"Unknown option '{name}'", sqlstate="HY000")


def normalized(name: str, value: str) -> str | None:
    """A known option's value as kept, None when it unsets the option."""
    kind = KNOWN[name]
    if value.upper() == "DEFAULT":
        return None
    if kind == "word":
        return value.upper()
    digits = value.strip()
    try:
        n = int(float(digits))
    except ValueError:
        return value
    if kind in ("count", "flag") and n == 0:
        return None
    return str(min(n, 1)) if kind in ("choice", "flag") else str(n)


def set_known(tdef: TableDef, name: str, value: str) -> None:
    name = ALIASES.get(name, name)
    kept = normalized(name, value)
    if kept is None:
        tdef.options.pop(name, None)
    else:
        tdef.options[name] = kept


def merge(attrs: list[Attr], name: str, value: str | None) -> None:
    """One `name = value` into a statement's list of attributes (module rules)."""
    for k, (n, _v) in enumerate(attrs):
        if n.lower() == name.lower():
            attrs[k] = (name, value)
            return
    attrs.append((name, value))


def applied(kept: tuple[tuple[str, str], ...], attrs: list[Attr]) -> tuple[tuple[str, str], ...]:
    """`kept` attributes after a statement's settings."""
    out = list(kept)
    for name, value in attrs:
        out = [(n, v) for n, v in out if n.lower() != name.lower()]
        if value is not None:
            out.append((name, value))
    return tuple(out)


_PLAIN = re.compile(r"[A-Za-z0-9_$]+\Z")


def check(sql_mode: str, names: list[str]) -> list[Warning_]:
    """1911 for the first unknown option, or (IGNORE_BAD_TABLE_OPTIONS) a warning each."""
    if not names:
        return []
    bad = next((n for n in names if not _PLAIN.match(n)), None)
    if bad is not None:
        raise _unknown(bad)
    if "IGNORE_BAD_TABLE_OPTIONS" not in sql_mode.upper():
        raise _unknown(names[0])
    return [Warning_("Warning", ER_UNKNOWN_OPTION, f"Unknown option '{n}'") for n in names]


def transactional_allowed(engine: str) -> bool:
    from rampmeter.engine.sqlite.catalog import NON_TRANSACTIONAL
    return engine == "Aria" or engine not in NON_TRANSACTIONAL


def settle_engine(tdef: TableDef, before: str | None, given: set[str]) -> None:
    """PAGE_CHECKSUM across a CREATE (`before` None) or an ALTER from engine `before`."""
    if before is not None and before != "Aria" and "PAGE_CHECKSUM" not in given:
        tdef.options.pop("PAGE_CHECKSUM", None)
    if tdef.engine == "Aria" and "PAGE_CHECKSUM" not in tdef.options and \
            "PAGE_CHECKSUM" not in given:
        tdef.options["PAGE_CHECKSUM"] = "1"


def _attrs_text(attrs: tuple[tuple[str, str], ...], ignore_bad: bool) -> str:
    if not attrs:
        return ""
    text = " ".join(f"`{n.replace('`', '``')}`={v}" for n, v in attrs)
    return " " + text if ignore_bad else " /* " + text.replace("*/", "*\\/") + " */"


def attributes_text(attrs: tuple[tuple[str, str], ...], sql_mode: str) -> str:
    return _attrs_text(attrs, "IGNORE_BAD_TABLE_OPTIONS" in sql_mode.upper())


def create_text(tdef: TableDef, sql_mode: str) -> tuple[str, str]:
    """(the options before COMMENT, the attributes after it) as SHOW CREATE TABLE prints."""
    ignore_bad = "IGNORE_BAD_TABLE_OPTIONS" in sql_mode.upper()
    parts = []
    for name in KNOWN:
        value = tdef.options.get(name)
        if value is None:
            continue
        if name == "TRANSACTIONAL" and not transactional_allowed(tdef.engine) and \
                not ignore_bad:
            parts.append(f"/* {name}={value} */")
        else:
            parts.append(f"{name}={value}")
    return "".join(" " + p for p in parts), _attrs_text(tdef.attributes, ignore_bad)


def create_options(tdef: TableDef | None) -> str:
    """information_schema.TABLES.CREATE_OPTIONS."""
    if tdef is None:
        return ""
    parts = [f"{name.lower()}={tdef.options[name]}" for name in KNOWN if name in tdef.options]
    parts += [f"`{n.replace('`', '``')}`={v}" for n, v in tdef.attributes]
    return " ".join(parts)



# --- reading -------------------------------------------------------------------------------------
ATTRS = "engine-defined attributes"  # key of read_table_options' list of (name, value)
# the words MariaDB's grammar reads as table options: any other `name = value` is an attribute
GRAMMAR = frozenset({
    "ENGINE", "TYPE", "AUTO_INCREMENT", "AVG_ROW_LENGTH", "CHARSET", "CHARACTER", "CHECKSUM",
    "TABLE_CHECKSUM", "COLLATE", "COMMENT", "CONNECTION", "DATA", "INDEX", "DELAY_KEY_WRITE",
    "ENCRYPTED", "ENCRYPTION_KEY_ID", "IETF_QUOTES", "INSERT_METHOD", "KEY_BLOCK_SIZE",
    "MAX_ROWS", "MIN_ROWS", "PACK_KEYS", "PAGE_CHECKSUM", "PAGE_COMPRESSED",
    "PAGE_COMPRESSION_LEVEL", "PASSWORD", "ROW_FORMAT", "SEQUENCE", "STATS_AUTO_RECALC",
    "STATS_PERSISTENT", "STATS_SAMPLE_PAGES", "TABLESPACE", "TRANSACTIONAL", "UNION", "WITH",
    "PARTITION", "STORAGE", "DEFAULT", "ENCRYPTION", "COMPRESSION", "AUTOEXTEND_SIZE",
    "ALGORITHM", "LOCK",
})


def at_attribute(r: Reader) -> bool:
    """Is the next option `name = value` with a name no grammar rule reads?"""
    t, after = r.peek(), r.peek(1)
    if t is None or after is None or after.text not in ("=", ":="):
        return False
    return t.kind == "qident" or t.kind == "word" and t.text.upper() not in GRAMMAR


def read_attribute(r: Reader) -> Attr:
    """`name = value` -> (name, value as kept, None for DEFAULT)."""
    from rampmeter.sql.lexer import ident_value, string_value
    name = r.name()
    r.next()  # = or :=
    t = r.next()
    if t.kind == "str":
        return name, _quoted(string_value(t.text, r.dialect.backslash_escapes))
    if t.kind == "num":
        return name, _quoted(t.text)
    if t.kind == "word" and t.text.upper() == "DEFAULT":
        return name, None
    if t.kind in ("word", "qident"):
        return name, _quoted(t.text if t.kind == "word" else ident_value(t.text))
    raise r.error(t)


def _quoted(text: str) -> str:
    return "'" + text.replace("'", "''") + "'"


def apply_create(tdef: TableDef, options: dict[str, Any]) -> None:
    """A CREATE TABLE's known options and attributes into `tdef`."""
    given = set()
    for word, value in options.items():
        name = ALIASES.get(word, word)
        if name in KNOWN:
            given.add(name)
            set_known(tdef, name, "DEFAULT" if value is None else str(value))
    tdef.attributes = applied((), options.get(ATTRS, []))
    settle_engine(tdef, None, given)


def unknown_names(tdef: TableDef, index_attrs: list[Attr], options: dict[str, Any],
                  columns: bool = True) -> list[str]:
    """The options a statement gave that the table's engine does not know, in MariaDB's
    order: the columns' attributes, the keys', the table's (TRANSACTIONAL where it has no
    such thing first among those)."""
    names = [n for c in tdef.columns for n, _v in c.attributes] if columns else []
    names += [n for n, _v in index_attrs]
    if "TRANSACTIONAL" in options and not transactional_allowed(tdef.engine):
        names.append("transactional")
    names += [n for n, _v in options.get(ATTRS, [])]
    return names
