"""LOAD DATA [LOCAL] INFILE: a text file's lines become rows of a table (and LOAD XML's
rows, read by loadxml.py: `LOAD XML ... INTO TABLE t [CHARACTER SET cs] [ROWS IDENTIFIED BY
'<tag>'] [IGNORE n ROWS] [(col, ...)] [SET ...]`).

Rules (MariaDB 10.11's, sql/sql_load.cc and the LOAD DATA page):
- Grammar: LOAD DATA [LOW_PRIORITY | CONCURRENT] [LOCAL] INFILE 'file' [REPLACE | IGNORE]
  INTO TABLE t [CHARACTER SET cs] [{FIELDS | COLUMNS} [TERMINATED BY 's'] [[OPTIONALLY]
  ENCLOSED BY 'c'] [ESCAPED BY 'c']] [LINES [STARTING BY 's'] [TERMINATED BY 's']]
  [IGNORE n {LINES | ROWS}] [(col_or_@var, ...)] [SET col = expr, ...]. Defaults: fields end
  at a tab, lines at a newline, `\\` escapes, nothing encloses.
- Where the bytes come from: LOCAL asks the client for the file through the protocol's
  local-infile exchange (Session.client_file, given by net/); refused with 4166 when the
  server's `local_infile` is OFF or the client did not offer CLIENT_LOCAL_FILES. Without
  LOCAL the server reads the file itself: a bare name is in the current database's
  directory of the datadir, a relative name with directories under the datadir, as mysqld
  resolves them, and `secure_file_priv`, when set, limits
  it to that directory (1290); a missing file is error 29.
- FIELDS TERMINATED BY '' ENCLOSED BY '': fixed-size rows (split_fixed), each field its
  column's display width; a missing field there is the column's zero value even when it is
  nullable (MariaDB's read_fixed_length: nothing is NULL in this format), @variables are 1409.
- LOCAL without REPLACE means IGNORE (MariaDB: the server cannot stop the client's transfer
  half-way), so duplicates and bad values are warnings; REPLACE replaces. Otherwise strict
  mode makes every warning fail the statement, whose rows are then all undone (one statement,
  one transaction: a savepoint inside an open transaction).
- Reading a field: the escape character makes the next byte literal (\\0 \\b \\n \\r \\t \\Z
  are NUL, backspace, newline, return, tab, ^Z), a field that is exactly \\N is NULL (for a
  NOT NULL column its zero value with warning 1263, an error in strict mode; a TIMESTAMP
  gets the current time, the AUTO_INCREMENT column its next number), and with
  ENCLOSED BY an unenclosed NULL is NULL too; inside an enclosed field a doubled enclosing
  character is one. A line with fewer fields than columns leaves the missing columns NULL
  when their default is NULL or a function (CURRENT_TIMESTAMP: not applied, the column was
  given) and otherwise sets them to the type's zero value ('' / 0 / zero date: MariaDB's
  Field::reset over the default row), a TIMESTAMP NOT NULL to the current time, with one
  warning 1261 per missing column (a missing field for a @variable makes it NULL,
  silently); extra fields are dropped (1262). Warnings are reported in row order.
- The rows are inserted through the engine as multi-row INSERT (or REPLACE / INSERT IGNORE)
  statements with parameters, a batch at a time, so the engine's conversions, strict-mode
  checks, warnings and affected rows are the ones an INSERT of those strings has. Columns of a
  binary character set receive the field's bytes, others its text in the file's character set
  (CHARACTER SET, else character_set_database). `@var` entries set user variables, which SET
  expressions read: each `@var` in a SET expression becomes a parameter of the row.
- Privileges (privileges.py): without LOCAL the FILE privilege; and each generated INSERT /
  REPLACE is checked as that statement would be (required.check: INSERT, and DELETE for
  REPLACE, on the table and its columns) before it runs.
- The OK packet's info is MariaDB's "Records: n  Deleted: n  Skipped: n  Warnings: n".
"""

from __future__ import annotations

import os
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rampmeter import errors
from rampmeter.engine.base import TableColumn, UpdateCount
from rampmeter.engine.types import GEOMETRIES
from rampmeter.errors import ServerError, Warning_
from rampmeter.protocol.constants import CHARSET_BINARY
from rampmeter.session import required
from rampmeter.session.privileges import P
from rampmeter.sql import charsets
from rampmeter.sql.lexer import Dialect, ident_value, tokens
from rampmeter.sql.reader import Reader
from rampmeter.sql.statement import Statement

if TYPE_CHECKING:
    from rampmeter.session.session import Session

_SQLITE_MAX_PARAMS = 30000   # per statement; SQLite's limit is 32766
_MAX_BATCH_ROWS = 1000
_ESCAPES = {b"0": b"\x00", b"b": b"\x08", b"n": b"\n", b"r": b"\r", b"t": b"\t", b"Z": b"\x1a"}
_ROW_IN_MESSAGE = re.compile(r"at row (\d+)$")
ER_LOAD_FROM_FIXED_SIZE_ROWS_TO_VAR = 1409


@dataclass
class LoadSpec:
    filename: str = ""
    local: bool = False
    duplicates: str = ""          # "", "REPLACE" or "IGNORE"
    database: str | None = None
    table: str = ""
    charset: str | None = None
    fields_terminated: bytes = b"\t"
    enclosed: bytes = b""
    optionally: bool = False
    escaped: bytes = b"\\"
    lines_starting: bytes = b""
    lines_terminated: bytes = b"\n"
    ignore_lines: int = 0
    targets: list[str] | None = None                  # columns and @vars, in field order
    sets: list[tuple[str, str]] = field(default_factory=list)   # (column, expression text)
    xml: bool = False             # LOAD XML (loadxml.py)
    row_tag: str = "<row>"        # ROWS IDENTIFIED BY


# --- the statement ---------------------------------------------------------------------------
def parse(stmt: Statement) -> LoadSpec:
    r = Reader(stmt)
    r.expect("LOAD")
    spec = LoadSpec()
    spec.xml = r.accept("XML")
    if not spec.xml:
        r.expect("DATA")
    r.accept_any("LOW_PRIORITY", "CONCURRENT")
    spec.local = r.accept("LOCAL")
    r.expect("INFILE")
    spec.filename = r.string()
    spec.duplicates = r.accept_any("REPLACE", "IGNORE")
    r.expect("INTO", "TABLE")
    spec.database, spec.table = r.qualified_name()
    if r.accept("PARTITION"):
        raise ServerError(errors.ER_NOT_SUPPORTED_YET, "partitions")
    if r.accept("CHARACTER", "SET") or r.accept("CHARSET"):
        spec.charset = r.name_or_string()
    if spec.xml and r.accept("ROWS", "IDENTIFIED", "BY"):
        spec.row_tag = r.string()
    if not spec.xml and r.accept_any("FIELDS", "COLUMNS"):
        _field_options(r, spec)
    if not spec.xml and r.accept("LINES"):
        while True:
            if r.accept("STARTING", "BY"):
                spec.lines_starting = _bytes(r.string())
            elif r.accept("TERMINATED", "BY"):
                spec.lines_terminated = _bytes(r.string())
            else:
                break
    if r.accept("IGNORE"):
        spec.ignore_lines = r.integer()
        if not r.accept_any("LINES", "ROWS"):
            raise r.error()
    if r.accept("("):
        spec.targets = []
        if not r.accept(")"):
            while True:
                t = r.next()
                if t.kind == "uservar":
                    spec.targets.append(t.text)
                elif t.is_name:
                    name = t.text if t.kind == "word" else ident_value(t.text)
                    if r.accept("."):   # t.col
                        name = r.name()
                    spec.targets.append(name)
                else:
                    raise r.error(t)
                if r.accept(")"):
                    break
                r.expect(",")
    if r.accept("SET"):
        for part in r.split_commas():
            eq = next((k for k, t in enumerate(part) if t.text == "="), None)
            if eq is None or eq == 0 or eq == len(part) - 1:
                raise r.error(part[0] if part else None)
            column = part[eq - 1]
            name = column.text if column.kind == "word" else ident_value(column.text)
            text = stmt.text[part[eq + 1].start:part[-1].end]
            spec.sets.append((name, text))
    r.end()
    return spec


def _field_options(r: Reader, spec: LoadSpec) -> None:
    seen = False
    while True:
        if r.accept("TERMINATED", "BY"):
            spec.fields_terminated = _bytes(r.string())
        elif r.accept("OPTIONALLY", "ENCLOSED", "BY"):
            spec.enclosed, spec.optionally = _bytes(r.string()), True
        elif r.accept("ENCLOSED", "BY"):
            spec.enclosed = _bytes(r.string())
        elif r.accept("ESCAPED", "BY"):
            spec.escaped = _bytes(r.string())
        else:
            if not seen:
                raise r.error()
            return
        seen = True


def _bytes(text: str) -> bytes:
    return text.encode("utf-8", "surrogateescape")


# --- reading the file ------------------------------------------------------------------------
def split_rows(data: bytes, spec: LoadSpec) -> list[list[bytes | None]]:
    """The file's rows, each a list of fields (None for NULL), after IGNORE n LINES."""
    ft, lt, enc, esc = spec.fields_terminated, spec.lines_terminated, spec.enclosed, \
        spec.escaped
    if not ft and not lt:
        raise ServerError(errors.ER_NOT_SUPPORTED_YET, "fixed-size rows")
    stops = [re.escape(x) for x in (ft, lt) if x]
    stop = b"|".join(stops)
    esc_re = re.escape(esc) + rb"[\s\S]" if esc else None
    plain = rb"(?:(?!" + stop + (b"|" + re.escape(esc) if esc else b"") + rb")[\s\S])"
    unquoted = re.compile(rb"(?:" + (esc_re + b"|" if esc_re else b"") + plain + rb")*")
    quoted = None
    if enc:
        e = re.escape(enc)
        inner = (esc_re + b"|" if esc_re else b"") + e + e + rb"|(?!" + e + rb")[\s\S]"
        quoted = re.compile(e + rb"((?:" + inner + rb")*)" + e + rb"(?=" + stop + rb"|\Z)")
    rows: list[list[bytes | None]] = []
    pos, n = 0, len(data)
    skip = spec.ignore_lines
    start = spec.lines_starting
    while pos < n:
        if start:
            found = data.find(start, pos)
            if found < 0:
                break
            pos = found + len(start)
        fields: list[bytes | None] = []
        while True:
            value: bytes | None
            m = quoted.match(data, pos) if quoted is not None else None
            if m is not None:
                raw = m.group(1)
                value = None if esc and raw == esc + b"N" else \
                    _unescape(raw, esc).replace(enc + enc, enc)
                pos = m.end()
            else:
                m = unquoted.match(data, pos)
                assert m is not None
                raw = m.group(0)
                pos = m.end()
                value = None if (esc and raw == esc + b"N") or (enc and raw == b"NULL") \
                    else _unescape(raw, esc)
            fields.append(value)
            if ft and data.startswith(ft, pos) and not (lt and data.startswith(lt, pos)
                                                        and len(lt) > len(ft)):
                pos += len(ft)
                continue
            if lt and data.startswith(lt, pos):
                pos += len(lt)
            break
        if skip:
            skip -= 1
            continue
        rows.append(fields)
    return rows


def fixed(spec: LoadSpec) -> bool:
    """FIELDS TERMINATED BY '' ENCLOSED BY '': MariaDB's fixed-size rows (read_fixed_length)."""
    return not spec.fields_terminated and not spec.enclosed


def split_fixed(data: bytes, spec: LoadSpec, widths: list[int]) -> list[list[bytes | None]]:
    """Fixed-size rows: each field takes its column's display width in bytes (what SELECT
    ... INTO OUTFILE pads it to), a line ends at LINES TERMINATED BY (or after the widths'
    sum when that is empty); a short line leaves the last fields missing. Nothing is NULL in
    this format; the escape character still escapes."""
    lt, esc = spec.lines_terminated, spec.escaped
    total = sum(widths)
    rows: list[list[bytes | None]] = []
    pos, n = 0, len(data)
    skip = spec.ignore_lines
    while pos < n:
        if spec.lines_starting:
            found = data.find(spec.lines_starting, pos)
            if found < 0:
                break
            pos = found + len(spec.lines_starting)
        end = data.find(lt, pos) if lt else min(pos + total, n)
        line, pos = (data[pos:], n) if end < 0 else (data[pos:end], end + len(lt))
        fields: list[bytes | None] = []
        at = 0
        for width in widths:
            if at >= len(line):
                break
            fields.append(_unescape(line[at:at + width], esc))
            at += width
        if skip:
            skip -= 1
            continue
        rows.append(fields)
    return rows


def _unescape(raw: bytes, esc: bytes) -> bytes:
    if not esc or esc not in raw:
        return raw
    return re.sub(re.escape(esc) + rb"([\s\S])",
                  lambda m: _ESCAPES.get(m.group(1), m.group(1)), raw)


# --- running it ------------------------------------------------------------------------------
def load_data(s: Session, stmt: Statement) -> UpdateCount:
    spec = parse(stmt)
    data = _read(s, spec)
    assert s.engine is not None
    columns = {c.name.lower(): c for c in s.engine.table_columns(spec.table, spec.database)}
    # without a list, the visible columns (an INVISIBLE one is left out, as by INSERT)
    targets = spec.targets if spec.targets is not None else \
        [c.name for c in columns.values() if "INVISIBLE" not in c.extra]
    for name in targets + [c for c, _e in spec.sets]:
        if not name.startswith("@") and name.lower() not in columns:
            raise ServerError(errors.ER_BAD_FIELD_ERROR, name, "field list")
    charset_name = spec.charset or str(s.vars.get("character_set_database") or "utf8mb4")
    cs = charsets.charset(charset_name)
    if cs is None:
        raise ServerError(errors.ER_UNKNOWN_CHARACTER_SET, charset_name)
    if spec.xml:
        from rampmeter.session.loadxml import split_xml
        rows = split_xml(data, spec.row_tag, targets, spec.ignore_lines)
    elif fixed(spec):
        if any(name.startswith("@") for name in targets):
            raise ServerError(ER_LOAD_FROM_FIXED_SIZE_ROWS_TO_VAR, sqlstate="HY000",
                              message="Can't load value from file with fixed size rows to "
                              "variable")
        widths = [columns[name.lower()].column.length for name in targets]
        rows = split_fixed(data, spec, widths)
    else:
        rows = split_rows(data, spec)
    done = _Loader(s, spec, targets, columns, cs).run(rows)
    if s.ctx.variables["userstat"]:  # TABLE_STATISTICS (tablestats.py)
        from rampmeter.session import tablestats
        tablestats.loaded(s, spec.database, spec.table, done.affected_rows)
    return done


def _read(s: Session, spec: LoadSpec) -> bytes:
    name = spec.filename.encode("utf-8", "surrogateescape")
    if not spec.local and s.security is not None:
        s.security.check_global(P.FILE)
    if spec.local:
        if not s.ctx.variables["local_infile"] or s.client_file is None:
            raise ServerError(errors.ER_LOAD_INFILE_CAPABILITY_DISABLED)
        return s.client_file(name)
    datadir = Path(str(s.ctx.variables["datadir"]))
    path = Path(os.fsdecode(name))
    if not path.is_absolute():
        # a bare name is in the current database's directory; a name with directories is
        # relative to the datadir (mysqld's sql_load.cc: dirname_length)
        path = datadir / (s.database or "") / path if len(path.parts) == 1 else datadir / path
    secure = str(s.ctx.variables["secure_file_priv"] or "")
    if secure and not path.resolve().is_relative_to(Path(secure).resolve()):
        raise ServerError(errors.ER_OPTION_PREVENTS_STATEMENT, "--secure-file-priv")
    try:
        return path.read_bytes()
    except OSError as e:
        raise ServerError(errors.ER_FILE_NOT_FOUND, str(path),
                          f'{e.errno} "{e.strerror}"') from None


_ZERO = (("int", "0"), ("decimal", "0"), ("float", "0"), ("double", "0"), ("real", "0"),
         ("bit", "0"), ("year", "0"), ("datetime", "0000-00-00 00:00:00"),
         ("timestamp", "0000-00-00 00:00:00"), ("date", "0000-00-00"), ("time", "00:00:00"))


def _missing_value(column: TableColumn) -> Any:
    """What a column gets when its line has no field for it (module rules)."""
    if column.nullable and (column.default is None or _function_default(column)):
        return None
    return _zero_value(column)


def _zero_value(column: TableColumn) -> Any:
    """The column's zero value (MariaDB's Field::reset); a TIMESTAMP NOT NULL is given NULL,
    which stores the current time."""
    if _timestamp(column):
        return None
    kind = column.column_type.lower()
    for prefix, zero in _ZERO:
        if prefix in kind.split("(")[0]:
            return zero.encode() if column.column.charset == CHARSET_BINARY else zero
    return b"" if column.column.charset == CHARSET_BINARY else ""


def _spatial(column: TableColumn) -> bool:
    """A GEOMETRY column: MariaDB's reset of one leaves it NULL, in fixed-size rows too."""
    return column.column_type.split("(")[0].lower() in GEOMETRIES


def _timestamp(column: TableColumn) -> bool:
    """A TIMESTAMP NOT NULL column: given NULL, the INSERT stores the current time."""
    return not column.nullable and column.column_type.lower().startswith("timestamp")


def _function_default(column: TableColumn) -> bool:
    """DEFAULT CURRENT_TIMESTAMP (a function): MariaDB's default row holds NULL there."""
    return str(column.default or "").lower().startswith(("current_timestamp", "now("))


class _Loader:
    """Batches of rows -> INSERT statements with parameters, run through the engine."""

    def __init__(self, s: Session, spec: LoadSpec, targets: list[str],
                 columns: dict[str, TableColumn], cs: charsets.Charset) -> None:
        self.s, self.spec, self.targets, self.columns, self.cs = s, spec, targets, columns, cs
        self.binary = {name for name, c in columns.items() if c.column.charset == CHARSET_BINARY}
        self.ignore = spec.duplicates == "IGNORE" or (spec.local and not spec.duplicates)
        self.fixed = fixed(spec)
        self.verb = "REPLACE" if spec.duplicates == "REPLACE" else (
            "INSERT IGNORE" if self.ignore else "INSERT")
        self.table = (f"`{spec.database.replace('`', '``')}`." if spec.database else "") + \
            f"`{spec.table.replace('`', '``')}`"
        self.warnings: list[tuple[int, int, int, Warning_]] = []  # (row, phase, seq, warning)
        self.affected = 0
        self.last_id = 0

    def run(self, rows: list[list[bytes | None]]) -> UpdateCount:
        s = self.s
        assert s.engine is not None
        strict = self._strict()
        shaped = [self._shape(number, fields, strict) for number, fields in enumerate(rows, 1)]
        outer = s.engine.in_transaction
        s.engine.execute(s.scan("SAVEPOINT rm_load_data" if outer else "BEGIN"))
        try:
            per_row = max(1, len(self.targets) + sum(e.count("@") for _c, e in self.spec.sets))
            size = max(1, min(_MAX_BATCH_ROWS, _SQLITE_MAX_PARAMS // per_row))
            for k in range(0, len(shaped), size):
                self._insert(shaped[k:k + size], k)
        except BaseException:
            s.engine.execute(s.scan("ROLLBACK TO SAVEPOINT rm_load_data" if outer
                                    else "ROLLBACK"))
            raise
        s.engine.execute(s.scan("RELEASE SAVEPOINT rm_load_data" if outer else "COMMIT"))
        deleted = self.affected - len(rows) if self.verb == "REPLACE" else 0
        skipped = len(rows) - self.affected if self.verb == "INSERT IGNORE" else 0
        warnings = [w for *_key, w in sorted(self.warnings, key=lambda x: x[:3])]
        info = (f"Records: {len(rows)}  Deleted: {max(deleted, 0)}  "
                f"Skipped: {max(skipped, 0)}  Warnings: {len(warnings)}")
        return UpdateCount(self.affected, self.last_id, info=info, warnings=warnings)

    def _strict(self) -> bool:
        if self.ignore:
            return False
        mode = str(self.s.vars.get("sql_mode") or "")
        return "STRICT_TRANS_TABLES" in mode or "STRICT_ALL_TABLES" in mode \
            or "TRADITIONAL" in mode

    def _warn(self, row: int, phase: int, code: int) -> None:
        self.warnings.append((row, phase, len(self.warnings), Warning_.of(code, row)))

    def _shape(self, number: int, fields: list[bytes | None], strict: bool) -> list[Any]:
        """One line's values for the targets: decoded, cut or completed (module rules)."""
        n = len(self.targets)
        values = [self._value(t, f) for t, f in zip(self.targets, fields, strict=False)]
        if len(fields) < n:
            # a missing field for a user variable makes it NULL without a word (MariaDB's
            # read_sep_field); one for a column is 1261
            if strict and any(not name.startswith("@") for name in self.targets[len(fields):]):
                raise ServerError(errors.ER_WARN_TOO_FEW_RECORDS, number)
            for name in self.targets[len(fields):]:
                column = self.columns.get(name.lower())
                if column is not None and not column.nullable and \
                        column.column_type.split("(")[0].lower() in GEOMETRIES:
                    # a spatial type has no zero value to reset to: MariaDB fails the
                    # statement, whatever sql_mode says
                    raise ServerError(errors.ER_WARN_NULL_TO_NOTNULL, column.name, number)
                values.append((_zero_value(column) if self.fixed and not _spatial(column)
                               else _missing_value(column)) if column is not None else None)
                if column is not None:
                    self._warn(number, 1, errors.ER_WARN_TOO_FEW_RECORDS)
        elif len(fields) > n:
            if strict:
                raise ServerError(errors.ER_WARN_TOO_MANY_RECORDS, number)
            self._warn(number, 2, errors.ER_WARN_TOO_MANY_RECORDS)
        for k, (name, raw) in enumerate(zip(self.targets, fields, strict=False)):
            if raw is None:
                self._null_field(number, k, name, values, strict)
        return values

    def _null_field(self, number: int, k: int, name: str, values: list[Any],
                    strict: bool) -> None:
        """A NULL field (\\N) for a NOT NULL column: the column's zero value with 1263, not
        its default (MariaDB's read_sep_field: Field::reset), unless it is a TIMESTAMP (the
        current time) or the AUTO_INCREMENT column (the next number)."""
        column = self.columns.get(name.lower())
        if column is None or column.nullable or _timestamp(column) or \
                "auto_increment" in column.extra.lower() or \
                column.column_type.split("(")[0].lower() in GEOMETRIES:
            return
        if strict:
            raise ServerError(errors.ER_WARN_NULL_TO_NOTNULL, column.name, number)
        values[k] = _missing_value(column)
        self.warnings.append((number, 1, len(self.warnings),
                              Warning_.of(errors.ER_WARN_NULL_TO_NOTNULL, column.name, number)))

    def _prepared(self, rows: int) -> tuple[Any, list[Any]]:
        """The statement for `rows` rows, and the recipe of one row's parameters: a target
        index, or ('@', name) for a variable a SET expression reads."""
        s = self.s
        cols: list[str] = []
        values: list[str] = []
        recipe: list[Any] = []
        for i, name in enumerate(self.targets):
            if name.startswith("@"):
                continue
            cols.append(f"`{name.replace('`', '``')}`")
            values.append("?")
            recipe.append(i)
        for column, expr in self.spec.sets:
            cols.append(f"`{column.replace('`', '``')}`")
            text, names = _variables_as_params(s, expr)
            values.append(f"({text})")
            recipe.extend(("@", n) for n in names)
        row = "(" + ", ".join(values) + ")"
        sql = f"{self.verb} INTO {self.table} ({', '.join(cols)}) VALUES " + \
            ", ".join([row] * rows)
        assert s.engine is not None
        stmt = s.scan(sql, client_params=True)
        required.check(s, stmt)
        return s.engine.prepare(stmt), recipe

    def _insert(self, batch: list[list[Any]], before: int) -> None:
        s = self.s
        assert s.engine is not None
        prepared, recipe = self._prepared(len(batch))
        variables = {t.lower(): i for i, t in enumerate(self.targets) if t.startswith("@")}
        params: list[Any] = []
        for values in batch:
            for step in recipe:
                if isinstance(step, int):
                    params.append(values[step])
                else:
                    k = variables.get(step[1].lower())
                    params.append(values[k] if k is not None else
                                  s.user_vars.get(step[1][1:].lower()))
        try:
            result = s.engine.execute_prepared(prepared, params)
        except ServerError as e:
            raise _renumbered(e, before) from None
        finally:
            s.engine.close_prepared(prepared)
        for name, k in variables.items():   # the variables keep the last row's values
            s.user_vars[name[1:]] = batch[-1][k]
        assert isinstance(result, UpdateCount)
        self.affected += result.affected_rows
        if result.last_insert_id and not self.last_id:
            self.last_id = result.last_insert_id
        rows_of = result.warning_rows or []
        for i, w in enumerate(result.warnings):
            w = _renumbered_warning(w, before)
            m = _ROW_IN_MESSAGE.search(w.message)
            given = rows_of[i] if i < len(rows_of) else 0
            # the engine's row for each warning (a duplicate names none in its text); after
            # this loader's own warnings of that row (phase 3), as MariaDB stores then warns
            row = before + given if given else int(m.group(1)) if m else before + len(batch)
            phase = 3 if w.code == errors.ER_DUP_ENTRY else 0
            self.warnings.append((row, phase, len(self.warnings), w))

    def _value(self, target: str, raw: bytes | None) -> Any:
        if raw is None or target.lower() in self.binary:
            return raw
        return self.cs.decode(raw)


def _variables_as_params(s: Session, expr: str) -> tuple[str, list[str]]:
    """A SET expression with each @var replaced by `?`: its text and the variables in order."""
    names: list[str] = []
    out: list[str] = []
    pos = 0
    for t in tokens(expr, Dialect.of(str(s.vars.get("sql_mode") or ""))):
        if t.kind == "uservar":
            out.append(expr[pos:t.start])
            out.append("?")
            names.append(t.text)
            pos = t.end
    out.append(expr[pos:])
    return "".join(out), names


def _renumbered(e: ServerError, before: int) -> ServerError:
    m = _ROW_IN_MESSAGE.search(e.message)
    if m is None or not before:
        return e
    return ServerError(e.code, message=e.message[:m.start(1)] + str(int(m.group(1)) + before))


def _renumbered_warning(w: Warning_, before: int) -> Warning_:
    m = _ROW_IN_MESSAGE.search(w.message)
    if m is None or not before:
        return w
    return w._replace(message=w.message[:m.start(1)] + str(int(m.group(1)) + before))
