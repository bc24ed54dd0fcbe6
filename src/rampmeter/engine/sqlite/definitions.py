"""Reading MariaDB's table definitions word by word: CREATE TABLE's column and key definitions
and table options, the same pieces ALTER TABLE uses.

Rules:
- The grammar is MariaDB 10.11's (CREATE TABLE in the Knowledge Base). A column type is read as
  the client wrote it (types.parse_type on its text), not through sqlglot, whose MySQL type
  reading loses what MariaDB keeps (INT8 is BIGINT, LONG is MEDIUMTEXT, REAL is DOUBLE,
  NATIONAL CHAR is utf8mb3, ZEROFILL, CHAR(n) BINARY).
- Expressions (DEFAULT (expr), CHECK (expr)) are kept as the client's text; they are checked by
  parsing them when they are used.
- An unnamed key is named after its first column, with _2, _3... when that name is taken
  (MariaDB's rule). A column-level PRIMARY KEY or UNIQUE is a key like any other.
- What a definition asks for that rampmeter cannot do is 1235 (spatial types, functional key
  parts); what MariaDB refuses is its error (1060 duplicate column, 1068
  two primary keys, 1075 AUTO_INCREMENT that is not a key, 1067 bad default, 1171 NULL in a
  primary key...).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Any

from rampmeter import errors
from rampmeter.engine.sqlite import attributes, foreign, keys, tableopts
from rampmeter.engine.sqlite import checks as constraints
from rampmeter.engine.sqlite.catalog import (
    ColumnDef,
    Default,
    Generated,
    TableDef,
    auto_key_ok,
    check_value_default,
)
from rampmeter.engine.types import SqlType, TypeLimit, check_members, parse_type
from rampmeter.errors import ServerError
from rampmeter.sql import charclauses, charsets
from rampmeter.sql.lexer import Token, bit_value, hex_value, string_value
from rampmeter.sql.reader import Reader

_NOW = ("CURRENT_TIMESTAMP", "NOW", "LOCALTIME", "LOCALTIMESTAMP")
_COLUMN_ATTRS = frozenset({"NOT", "NULL", "DEFAULT", "AUTO_INCREMENT", "UNIQUE", "PRIMARY",
                           "FIRST", "AFTER",
                           "KEY", "COMMENT", "COLLATE", "ON", "CHECK", "REFERENCES",
                           "GENERATED", "AS", "INVISIBLE", "COLUMN_FORMAT", "STORAGE",
                           "SERIAL", "ZEROFILL", "CONSTRAINT", "REF_SYSTEM_ID",
                           "WITH", "WITHOUT", "PERSISTENT", "VIRTUAL", "STORED",
                           "COMPRESSED"})
_KEY_STARTS = frozenset({"PRIMARY", "KEY", "INDEX", "UNIQUE", "FULLTEXT", "SPATIAL",
                         "CONSTRAINT", "FOREIGN", "CHECK", "PERIOD"})


@dataclass(slots=True)
class ColumnSpec:
    """A column definition as written, before it joins a table."""

    column: ColumnDef
    primary: bool = False
    unique: bool = False
    check: str | None = None


@dataclass(slots=True)
class KeySpec:
    kind: str                     # PRIMARY, UNIQUE, KEY, FULLTEXT, SPATIAL, FOREIGN, CHECK
    name: str | None
    columns: list[str] = field(default_factory=list)
    prefixes: list[int | None] = field(default_factory=list)
    desc: list[bool] = field(default_factory=list)
    check: str | None = None
    comment: str = ""
    constraint: str | None = None   # CONSTRAINT name (a FOREIGN KEY's, which `name` is not)
    ref: tuple[Any, ...] | None = None  # FOREIGN KEY: (db, table, columns, on delete, on update)
    using: str = ""                 # USING BTREE | HASH | RTREE, as given (keyinfo.py)
    attrs: list[tuple[str, str | None]] = field(default_factory=list)  # tableopts.py


def _text(r: Reader, first: int, last: int) -> str:
    return r.text_between(first, last)


def read_parenthesized(r: Reader) -> str:
    """`( ... )` -> the text inside, as the client wrote it."""
    r.expect("(")
    start = r.i
    depth = 1
    while True:
        t = r.next()
        if t.text == "(":
            depth += 1
        elif t.text == ")":
            depth -= 1
            if depth == 0:
                break
    if r.i - 1 == start:
        return ""
    return _text(r, start, r.i - 2)


def read_type(r: Reader, table_charset: str = "utf8mb4",  # noqa: ANN201 - SqlType
              table_collation: str | None = None):
    """The data type at the reader, up to the first column attribute."""
    start = r.i
    if r.at("SERIAL") and r.peek_word(1) != "DEFAULT":  # BIGINT UNSIGNED NOT NULL
        r.i += 1                                        # AUTO_INCREMENT UNIQUE (read_column)
        return parse_type("bigint unsigned", table_charset, table_collation)
    depth = 0
    while not r.done:
        t = r.peek()
        assert t is not None
        if depth == 0 and (t.text in (",", ")") or
                           t.kind == "word" and t.text.upper() in _COLUMN_ATTRS or
                           r.i > start and attributes.at_attribute(r)):
            break
        if t.text == "(":
            depth += 1
        elif t.text == ")":
            depth -= 1
        r.i += 1
    if r.i == start:
        raise r.error()
    text = _text(r, start, r.i - 1)
    if r.toks[start].text.upper() == "JSON":
        # JSON is utf8mb4_bin text with no character set of its own: MariaDB's grammar has
        # no CHARACTER SET after it (1064 there)
        for t in r.toks[start + 1:r.i]:
            if t.kind == "word" and t.text.upper() in ("CHARACTER", "CHARSET"):
                raise r.error(t)
    try:
        return check_members(parse_type(text, table_charset, table_collation))
    except ValueError:
        raise r.error(r.toks[start]) from None


def _default_value(r: Reader, col: ColumnDef) -> Default:
    t = r.peek()
    if t is None:
        raise r.error()
    if t.text == "(":
        expr = read_parenthesized(r)
        return _expr_default(expr, col)
    if t.kind == "word" and t.text.upper() == "ROW" and r.peek(1) is not None and \
            r.peek(1).text == "(":  # type: ignore[union-attr]
        # a ROW where a value goes: MariaDB's parser refuses it as it reads it (1241)
        raise ServerError(errors.ER_OPERAND_COLUMNS, 1)
    if t.kind == "word" and t.text.upper() in _NOW:
        start = r.i
        r.i += 1
        fsp = 0
        if r.at("("):
            inner = read_parenthesized(r).strip()
            fsp = int(inner) if inner.isdigit() else 0
        if col.type.name not in ("datetime", "timestamp"):
            # any other type takes it as the expression it is (MariaDB 10.2+): its value
            # converted to the column's type when a row is written
            return _expr_default(_text(r, start, r.i - 1), col)
        return Default("now", fsp)
    if t.kind == "sysvar":  # DEFAULT @@sql_mode: an expression, as DEFAULT (@@sql_mode)
        r.i += 1
        return _expr_default(t.text, col)
    intro = charsets.charset(t.text[1:]) if t.kind == "word" and t.text.startswith("_") \
        else None
    if intro is not None and r.i + 1 < len(r.toks) and \
            r.toks[r.i + 1].kind in ("str", "hex", "bit"):
        return _introduced_default(r, col, intro)
    negative = False
    if t.text in ("-", "+"):
        negative = t.text == "-"
        r.i += 1
        t = r.next()
    else:
        r.i += 1
    value = literal(t, r)
    if negative:
        if not isinstance(value, (int, float)) and not hasattr(value, "as_tuple"):
            raise r.error(t)
        value = -value
    if t.kind == "word" and t.text.upper() not in ("NULL", "TRUE", "FALSE") and \
            t.kind != "str":
        # an expression without parentheses: DEFAULT concat('a','b')
        start = r.i - 1
        if t.text.upper() == "ROW" and r.at("("):
            # a row is no column's value: MariaDB's parser says so at once
            raise ServerError(errors.ER_OPERAND_COLUMNS, 1)
        if r.at("("):
            read_parenthesized(r)
        return _expr_default(_text(r, start, r.i - 1), col)
    return check_value_default(col, value)


def _introduced_default(r: Reader, col: ColumnDef, intro: charsets.Charset) -> Default:
    """DEFAULT _koi8r 0xFF / _latin1'..': text of that character set, which the column's set
    must hold (1067 otherwise, as MariaDB answers)."""
    r.i += 1
    value = literal(r.next(), r)
    if isinstance(value, bytes) and not intro.is_binary:
        value = intro.decode(value)
    if col.type.is_text and isinstance(value, str):
        target = charsets.charset(col.type.charset or "")
        if target is not None and target.codec and not target.is_binary:
            try:
                value.encode(target.codec)
            except UnicodeEncodeError:
                raise ServerError(errors.ER_INVALID_DEFAULT, col.name) from None
    return check_value_default(col, value)


def read_default(r: Reader, col: ColumnDef) -> Default:
    """The value after DEFAULT (ALTER ... SET DEFAULT reads one too)."""
    return _default_value(r, col)


def _expr_default(expr: str, col: ColumnDef) -> Default:
    import sqlglot

    from rampmeter.engine.sqlite import dialect
    try:
        tree = dialect.parse(expr)
    except (sqlglot.errors.ParseError, sqlglot.errors.TokenError):
        raise ServerError(errors.ER_INVALID_DEFAULT, col.name) from None
    from sqlglot import exp
    now = re.fullmatch(r"\s*(?:now|current_timestamp|localtime|localtimestamp)\s*"
                       r"(?:\(\s*(\d*)\s*\))?\s*", expr, re.IGNORECASE)
    if now is not None and col.type.name in ("datetime", "timestamp"):
        # DEFAULT (NOW()) is DEFAULT CURRENT_TIMESTAMP to MariaDB (SQLAlchemy writes it so)
        return Default("now", int(now.group(1) or 0))
    inner = tree.unnest() if isinstance(tree, exp.Paren) else tree
    if isinstance(inner, exp.Tuple) or isinstance(inner, exp.Anonymous) and \
            inner.name.upper() == "ROW":
        raise ServerError(errors.ER_OPERAND_COLUMNS, 1)  # DEFAULT (ROW(1, 2)): no row
    if isinstance(tree, exp.Literal) or isinstance(tree, exp.Neg) and \
            isinstance(tree.this, exp.Literal):
        text = tree.sql("mysql")
        value: Any = tree.name if isinstance(tree, exp.Literal) and tree.is_string else text
        if not (isinstance(tree, exp.Literal) and tree.is_string):
            try:
                value = int(text)
            except ValueError:
                value = float(text)
        d = check_value_default(col, value)
        return Default(d.kind, d.value, f"({tree.sql('mysql')})" if not col.type.is_blob
                       else d.shown)
    # MariaDB prints the expression as its parser read it (Item::print), as for CHECK
    from rampmeter.engine.sqlite.sqltext import expression
    shown = expression(expr)
    if isinstance(tree, exp.Paren) or isinstance(tree, exp.Binary):
        shown = f"({shown})" if not shown.startswith("(") else shown
    return Default("expr", expr, shown)


def literal(t: Token, r: Reader) -> Any:
    """A literal token's value (for DEFAULT and table options)."""
    if t.kind == "str":
        return string_value(t.text, r.stmt.dialect.backslash_escapes)
    if t.kind == "num":
        text = t.text
        if "e" in text.lower():
            return float(text)
        if "." in text:
            from decimal import Decimal
            return Decimal(text)
        return int(text)
    if t.kind == "hex":
        return hex_value(t.text)
    if t.kind == "bit":
        return bit_value(t.text)
    if t.kind == "word":
        w = t.text.upper()
        if w == "NULL":
            return None
        if w == "TRUE":
            return 1
        if w == "FALSE":
            return 0
        return t.text
    if t.kind == "nullsym":
        return None
    raise r.error(t)


def _type_collation_clause(r: Reader, start: int, end: int, collation: str | None) -> str:
    """What the column's type spelling (tokens start..end) said about its collation, as
    MariaDB's messages name it: 'CHARACTER SET' (a character set, whose collation a COLLATE
    must belong to), 'BINARY' (its _bin collation), or ''."""
    words = [t.text.upper() for t in r.toks[start:end] if t.kind == "word"]
    binary = "BINARY" in words[1:]
    if any(w in ("CHARSET", "SET", "ASCII", "UNICODE") for w in words[1:]):
        # CHARACTER SET latin1 BINARY is COLLATE latin1_bin
        return f"COLLATE {collation}" if binary and collation else "CHARACTER SET"
    return "BINARY" if binary else ""


def _column_collate(t: SqlType, before: str, coll: charsets.Collation, default: bool) -> str:
    """A column's COLLATE clause after what came before it (`before`: '', 'CHARACTER SET',
    'BINARY' or an earlier 'COLLATE x'): 1253 for a collation of another character set than
    the one named, 1302 for two that differ (MDEV-28067). The clause, as later ones see it."""
    label = "COLLATE DEFAULT" if default else f"COLLATE {coll.name}"
    if before == "CHARACTER SET" and t.charset and coll.charset != t.charset:
        raise ServerError(errors.ER_COLLATION_CHARSET_MISMATCH, coll.name, t.charset)
    if before == "BINARY" and not coll.binary:
        raise ServerError(errors.ER_CONFLICTING_DECLARATIONS, "BINARY", "", label, "")
    if before.startswith("COLLATE "):
        prev = charsets.collation(before[len("COLLATE "):])
        if before == "COLLATE DEFAULT":
            same = default or coll.is_default
        elif default:
            same = prev is not None and prev.is_default
        else:
            same = before == label
        if not same:
            raise ServerError(errors.ER_CONFLICTING_DECLARATIONS, before, "", label, "")
    return label


def read_column(r: Reader, name: str, table_charset: str, table_collation: str) -> ColumnSpec:
    """A column definition after its name."""
    type_start = r.i
    try:
        t = read_type(r, table_charset, table_collation)
    except TypeLimit as e:
        raise e.named(name) from None
    serial = False
    if r.toks[r.i - 1].text.upper() == "SERIAL" and t.name == "bigint":
        serial = True
    col = ColumnDef(name, t)
    spec = ColumnSpec(col)
    explicit_null = False
    type_end = r.i
    collated = _type_collation_clause(r, type_start, type_end, t.collation) \
        if t.is_text else ""
    while not r.done and not r.at(",") and not r.at(")") and not r.at("FIRST") and \
            not r.at("AFTER"):
        if r.accept("NOT", "NULL"):
            col.nullable = False
        elif r.accept("NULL"):
            col.nullable = True
            explicit_null = True
        elif r.accept("DEFAULT"):
            col.default = _default_value(r, col)
        elif r.accept("ON", "UPDATE"):
            word = r.next().text.upper()
            if word not in _NOW:
                raise r.error()
            if col.type.name not in ("datetime", "timestamp"):
                raise ServerError(1294, message=f"Invalid ON UPDATE clause for '{col.name}' "
                                  "column", sqlstate="HY000")
            fsp = 0
            if r.at("("):
                inner = read_parenthesized(r).strip()
                fsp = int(inner) if inner.isdigit() else 0
            col.on_update = fsp
        elif r.accept("AUTO_INCREMENT"):
            col.auto_increment = True
        elif r.accept("UNIQUE"):
            r.accept("KEY")
            spec.unique = True
        elif r.accept("PRIMARY"):
            r.expect("KEY")
            spec.primary = True
        elif r.accept("KEY"):
            spec.primary = True
        elif r.accept("COMMENT"):
            col.comment = r.string()
        elif r.accept("ZEROFILL"):
            col.type = replace(col.type, zerofill=True, unsigned=True)
        elif r.accept("COLLATE"):
            coll_name = r.name_or_string().lower()
            coll = charsets.collation(coll_name)
            if coll_name == "default" and col.type.is_text:
                coll = charsets.default_collation(col.type.charset or table_charset)
            if coll is None:
                raise ServerError(errors.ER_UNKNOWN_COLLATION, coll_name)
            if col.type.is_text:
                collated = _column_collate(col.type, collated, coll, coll_name == "default")
                col.type = replace(col.type, charset=coll.charset, collation=coll.name)
        elif r.accept("CHECK"):
            spec.check = read_parenthesized(r)
        elif r.accept("CONSTRAINT"):
            if not r.at("CHECK"):
                r.name()
        elif r.accept_any("INVISIBLE"):
            col.invisible = True
        elif r.at("COMPRESSED"):
            _compressed(r, col, r.i == type_end)
        elif r.accept("COLUMN_FORMAT") or r.accept("STORAGE"):
            r.next()
        elif r.accept("REF_SYSTEM_ID"):
            r.accept("=")
            r.next()
        elif r.at("REFERENCES"):
            foreign.read_reference(r)  # MariaDB reads a column's REFERENCES and ignores it
        elif r.at("GENERATED") or r.at("AS"):
            col.generated = _generated(r)
        elif r.accept("SERIAL", "DEFAULT", "VALUE"):
            col.nullable = False
            col.auto_increment = True
            spec.unique = True
        elif attributes.at_attribute(r):
            attributes.read(r, col)
        else:
            raise r.error()
    if serial:
        col.nullable = False
        col.auto_increment = True
        spec.unique = True
    # TIMESTAMP: explicit_defaults_for_timestamp=ON (MariaDB 10.10+), an ordinary column.
    if spec.check is not None and col.type.name == "longtext" and \
            _is_json_check(spec.check, name):
        # What SHOW CREATE TABLE prints for a JSON column, read back: it is JSON again.
        col.type = replace(col.type, name="json", charset="utf8mb4", collation="utf8mb4_bin")
        spec.check = None
    elif spec.check is not None and col.type.name == "json":
        # MariaDB gives a JSON column its json_valid CHECK only when it has no CHECK of its
        # own (Type_handler_json's Column_definition_fix_attributes): with one, it is
        # longtext utf8mb4_bin under that CHECK alone
        col.type = replace(col.type, name="longtext")
    if spec.primary:
        if explicit_null:
            raise ServerError(1171, message="All parts of a PRIMARY KEY must be NOT NULL; if "
                              "you need NULL in a key, use UNIQUE instead")
        col.nullable = False
    if col.default is not None and col.default.kind == "value" and col.default.value is None \
            and not col.nullable:
        raise ServerError(errors.ER_INVALID_DEFAULT, col.name)
    return spec


def _generated(r: Reader) -> Generated:
    """[GENERATED ALWAYS] AS (expr) [VIRTUAL | PERSISTENT | STORED]: VIRTUAL when not said;
    PERSISTENT is MariaDB's word for STORED. The SQLite text is made with the table
    (generated.py)."""
    if r.accept("GENERATED"):
        r.expect("ALWAYS")
    r.expect("AS")
    if not r.at("("):
        raise r.error()
    expr = read_parenthesized(r).strip()
    if not expr:
        raise r.error(r.toks[r.i - 1])
    stored = r.accept_any("VIRTUAL", "PERSISTENT", "STORED") in ("PERSISTENT", "STORED")
    return Generated(expr, stored)


# MariaDB packs these with zlib (its only method); any other type refuses the attribute.
_COMPRESSIBLE = frozenset({"varchar", "varbinary", "tinytext", "text", "mediumtext", "longtext",
                           "tinyblob", "blob", "mediumblob", "longblob"})


def _compressed(r: Reader, col: ColumnDef, after_type: bool) -> None:
    """COMPRESSED[=zlib]: right after the type, MariaDB's grammar takes it for string types
    only (else 1064); later among the attributes, it is 1063 for a type it cannot pack."""
    if col.compressed or (after_type and col.type.name not in _COMPRESSIBLE):
        raise r.error()
    r.expect("COMPRESSED")
    if r.accept("="):
        method = r.name_or_string()
        if method.lower() != "zlib":
            raise ServerError(errors.ER_UNKNOWN_COMPRESSION_METHOD, method)
    if col.type.name not in _COMPRESSIBLE:
        raise ServerError(errors.ER_WRONG_FIELD_SPEC, col.name)
    col.compressed = True


def _is_json_check(check: str, column: str) -> bool:
    text = "".join(check.split()).lower()
    name = column.lower()
    return text in (f"json_valid(`{name}`)", f"json_valid({name})")


def read_key_columns(r: Reader, key: KeySpec) -> None:
    r.expect("(")
    while True:
        if r.at("("):
            raise ServerError(errors.ER_NOT_SUPPORTED_YET, "functional key parts")
        key.columns.append(r.name())
        prefix = None
        if r.at("("):
            inner = read_parenthesized(r).strip()
            prefix = int(inner) if inner.isdigit() else None
        key.prefixes.append(prefix)
        desc = False
        if r.accept("DESC"):
            desc = True
        else:
            r.accept("ASC")
        key.desc.append(desc)
        if r.accept(")"):
            return
        r.expect(",")


def read_index_options(r: Reader, key: KeySpec) -> None:
    """What may follow a key's column list (USING, COMMENT, ...): CREATE INDEX's too."""
    _index_options(r, key)


def _index_options(r: Reader, key: KeySpec) -> None:
    while True:
        if r.accept("USING"):
            key.using = r.next().text.upper()
        elif r.accept("KEY_BLOCK_SIZE"):
            r.accept("=")
            r.next()
        elif r.accept("COMMENT"):
            key.comment = r.string()
        elif r.accept("WITH", "PARSER"):
            r.name()
        elif r.accept_any("VISIBLE", "INVISIBLE", "IGNORED", "NOT"):
            r.accept("IGNORED")
        elif r.accept("CLUSTERING"):
            r.accept("=")
            r.next()
        elif tableopts.at_attribute(r):
            tableopts.merge(key.attrs, *tableopts.read_attribute(r))
        else:
            return


def read_key(r: Reader) -> KeySpec:
    """A key definition (PRIMARY KEY, UNIQUE, KEY / INDEX, FULLTEXT, FOREIGN KEY, CHECK)."""
    constraint: str | None = None
    if r.accept("CONSTRAINT"):
        if not r.at("PRIMARY") and not r.at("UNIQUE") and not r.at("FOREIGN") and \
                not r.at("CHECK"):
            constraint = r.name()
    if r.accept("CHECK"):
        return KeySpec("CHECK", constraint, check=read_parenthesized(r))
    if r.accept("PRIMARY"):
        r.expect("KEY")
        key = KeySpec("PRIMARY", "PRIMARY")
        if not r.at("(") and not r.at("USING"):
            r.name()  # PRIMARY KEY name (...): MariaDB reads the name and keeps PRIMARY
        if r.accept("USING"):
            r.next()
        read_key_columns(r, key)
        _index_options(r, key)
        return key
    if r.accept("FOREIGN"):
        r.expect("KEY")
        key = KeySpec("FOREIGN", None, constraint=constraint)
        r.accept("IF", "NOT", "EXISTS")
        if not r.at("("):
            key.name = r.name()
        read_key_columns(r, key)
        foreign.read_reference(r, key)
        return key
    kind = "KEY"
    if r.accept("UNIQUE"):
        kind = "UNIQUE"
        r.accept_any("KEY", "INDEX")
    elif r.accept_any("FULLTEXT", "SPATIAL"):
        kind = r.toks[r.i - 1].text.upper()
        r.accept_any("KEY", "INDEX")
    elif not r.accept_any("KEY", "INDEX"):
        raise r.error()
    key = KeySpec(kind, constraint)
    if r.accept("IF", "NOT", "EXISTS"):
        pass
    if not r.at("(") and not r.at("USING"):
        key.name = r.name()
    if r.accept("USING"):
        key.using = r.next().text.upper()
    read_key_columns(r, key)
    _index_options(r, key)
    return key


def is_key_start(r: Reader) -> bool:
    w = r.peek_word()
    if w not in _KEY_STARTS:
        return False
    # a column may be called `key`... only when it is quoted: bare KEY / INDEX start a key
    return True


CHARSET_CLAUSES = "charset clauses"  # key of read_table_options' list, in statement order


def read_table_options(r: Reader) -> dict[str, Any]:
    """ENGINE=x [DEFAULT] CHARSET=y COLLATE=z COMMENT='...' AUTO_INCREMENT=n ..."""
    opts: dict[str, Any] = {}
    while not r.done:
        if r.accept(","):
            continue
        r.accept("DEFAULT")
        if tableopts.at_attribute(r):
            tableopts.merge(opts.setdefault(tableopts.ATTRS, []), *tableopts.read_attribute(r))
            continue
        word = r.peek_word()
        if not word or word == "TYPE":  # TYPE=engine left MariaDB's grammar in 5.5
            raise r.error()
        r.i += 1
        if word == "CHARACTER":
            r.expect("SET")
            word = "CHARSET"
        elif word in ("PARTITION",):
            raise ServerError(errors.ER_NOT_SUPPORTED_YET, "partitioning")
        r.accept("=")
        t = r.next()
        value = literal(t, r) if t.kind != "qident" else t.text.strip("`")
        opts[word] = value
        if word in ("CHARSET", "COLLATE"):
            opts.setdefault(CHARSET_CLAUSES, []).append((word, str(value)))
    return opts


_NAME_MAX = 64  # NAME_CHAR_LEN: the longest table, column or key name MariaDB takes


def check_table_name(name: str) -> None:
    if not name or len(name) > _NAME_MAX or name.endswith(" "):
        raise ServerError(errors.ER_WRONG_TABLE_NAME, name)


def check_column_name(name: str) -> None:
    if len(name) > _NAME_MAX:
        raise errors.too_long_ident(name)
    if not name or name.endswith(" "):
        raise ServerError(errors.ER_WRONG_COLUMN_NAME, name)


def build_table(name: str, columns: list[ColumnSpec], keys_: list[KeySpec],
                options: dict[str, Any], *, database: str = "",
                defaults: Any = None) -> TableDef:
    """The TableDef of a CREATE TABLE (module rules: names, checks, MariaDB's errors);
    `defaults`: the dbopts.TableDefaults of its database and session."""
    from rampmeter.engine.sqlite.dbopts import engine_name
    check_table_name(name)
    for spec in columns:
        check_column_name(spec.column.name)
    charset, collation = table_charset(
        options, (defaults.charset, defaults.collation) if defaults else None)
    engine = options.get("ENGINE") or (defaults.engine if defaults else "InnoDB")
    tdef = TableDef(name, [c.column for c in columns], charset=charset, collation=collation,
                    comment=str(options.get("COMMENT", "") or ""),
                    engine=engine_name(str(engine)))
    tableopts.apply_create(tdef, options)
    seen: set[str] = set()
    for c in tdef.columns:
        if c.name.lower() in seen:
            raise ServerError(errors.ER_DUP_FIELDNAME, c.name)
        seen.add(c.name.lower())
    pending: list[keys.NewKey] = []
    checks: list[tuple[str, str]] = []
    for spec in columns:
        if spec.primary:
            pending.append(keys.NewKey(keys.PRIMARY, [spec.column.name], True,
                                       kind=keys.PRIMARY))
        if spec.unique:
            pending.append(keys.NewKey(None, [spec.column.name], True, [None], [False]))
        if spec.check is not None:
            checks.append((spec.column.name, spec.check))
    for key in keys_:
        if key.kind == "PRIMARY":
            pending.append(keys.NewKey(keys.PRIMARY, key.columns, True, key.prefixes, key.desc,
                                       kind=keys.PRIMARY))
        elif key.kind in ("UNIQUE", "KEY", "FULLTEXT", "SPATIAL"):
            pending.append(keys.NewKey(key.name, key.columns, key.kind == "UNIQUE",
                                       key.prefixes, key.desc,
                                       key.kind if key.kind in ("FULLTEXT", "SPATIAL") else "",
                                       key.comment, using=key.using,
                                       attributes=tableopts.applied((), key.attrs)))
        elif key.kind == "CHECK":
            if key.name and any(c.type.name == "json" and c.name.lower() == key.name.lower()
                                for c in tdef.columns):
                # a JSON column's own CHECK (json_valid) has the column's name (MariaDB)
                raise ServerError(constraints.ER_DUP_CONSTRAINT_NAME, message="Duplicate "
                                  f"CHECK constraint name '{key.name}'", sqlstate="HY000")
            checks.append((key.name or "", key.check or ""))
            if key.name and any(c.name.lower() == key.name.lower() for c in tdef.columns):
                tdef.table_named.append(key.name.lower())  # not that column's own CHECK
        elif key.kind == "FOREIGN":
            fk = foreign.make(name, database, key, tdef.foreign)
            fk.columns = keys.key_columns(tdef, fk.columns)
            if foreign.enforced_by(tdef.engine):
                tdef.foreign.append(fk)
            pending.append(keys.foreign_index(key.constraint or key.name, fk.columns))
    keys.assemble(tdef, pending)
    tdef.checks = constraints.named(checks)
    constraints.known_columns(tdef)
    auto = [c for c in tdef.columns if c.auto_increment]
    if len(auto) > 1:
        raise ServerError(errors.ER_WRONG_AUTO_KEY)
    if auto:
        a = auto[0]
        if not a.type.is_integer and not a.type.is_float:
            raise ServerError(1063, message=f"Incorrect column specifier for column "
                              f"'{a.name}'")
        if not auto_key_ok(tdef, a.name):
            raise ServerError(errors.ER_WRONG_AUTO_KEY)
        a.nullable = False
    check_invisible(tdef)
    if "AUTO_INCREMENT" in options:
        try:
            tdef.auto_increment = int(options["AUTO_INCREMENT"])
        except (TypeError, ValueError):
            pass
    return tdef


def check_invisible(tdef: TableDef) -> None:
    """INVISIBLE columns as MariaDB allows them: not every column (1113), and none NOT NULL
    without a default a row could take (4108)."""
    if tdef.columns and all(c.invisible for c in tdef.columns):
        raise ServerError(1113, message="A table must have at least 1 column",
                          sqlstate="42000")
    for c in tdef.columns:
        if c.invisible and not c.nullable and c.default is None and not c.auto_increment \
                and c.generated is None:
            raise ServerError(4108, message=f"Invisible column `{c.name}` must have a "
                              "default value", sqlstate="HY000")


def table_charset(options: dict[str, Any],
                  default: tuple[str, str] | None = None) -> tuple[str, str]:
    """The table's (charset, collation) from its CHARACTER SET / COLLATE options, combined
    as MariaDB does (sql/charclauses.py); DEFAULT there is the database's."""
    default = default or ("utf8mb4", "utf8mb4_general_ci")
    clauses = options.get(CHARSET_CLAUSES)
    if clauses is None:
        clauses = [(k, str(options[k])) for k in ("CHARSET", "COLLATE") if options.get(k)]
    return charclauses.combine(clauses, default) or default
