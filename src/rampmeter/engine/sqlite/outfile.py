"""SELECT ... INTO OUTFILE 'file' [CHARACTER SET cs] [export options] and INTO DUMPFILE 'file':
the query's rows written to a new file of the server's.

Rules (MariaDB 10.11's, sql_class.cc select_export / select_dump):
- The clause stands after the select list or at the end of the statement (after FROM: the
  deprecation warning 1287, as for INTO @var); it is taken out of the shape and the rest runs
  as the ordinary query it is.
- The file: a bare name is in the current database's directory of the datadir, a relative
  name with directories under the datadir (mysqld's fn_format with MY_RELATIVE_PATH, as LOAD
  DATA reads it: session/loaddata.py; the database's directory is made when first written
  to, since databases are files here); under `secure_file_priv` when that is set (1290); the
  FILE privilege (1045); an existing file is never overwritten (1086); a directory that is
  not there is error 1 with the OS's errno.
- OUTFILE: the options LOAD DATA takes (defaults: fields end at a tab, lines at a newline, `\\`
  escapes, nothing encloses). Each row is LINES STARTING BY, its fields separated by FIELDS
  TERMINATED BY, then LINES TERMINATED BY. NULL is the escape character and N (`NULL` without
  one); ENCLOSED BY encloses every other value, OPTIONALLY only those of string (not
  numeric) columns. With an escape character, it escapes itself, the enclosing character
  (else the first byte of the field terminator), the first byte of the line terminator, and
  NUL (written `\\0`).
- Values are written as the text protocol shows them, in the column's character set
  (without CHARACTER SET MariaDB converts nothing), in the clause's when it names one.
- DUMPFILE: one row at most (1172), its values one after another without separators.
- The client gets an OK packet counting the rows written.
"""

from __future__ import annotations

import os
import re
from pathlib import Path
from typing import TYPE_CHECKING, Any

from rampmeter import errors
from rampmeter.engine.base import ResultSet, UpdateCount
from rampmeter.errors import ServerError, Warning_
from rampmeter.protocol.constants import CHARSET_BINARY
from rampmeter.protocol.results import text_value
from rampmeter.sql import charsets
from rampmeter.sql.statement import Statement

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.session import SqliteSession

MAYBE = re.compile(r"\bINTO\s+(?:OUT|DUMP)FILE\b", re.IGNORECASE)
_CLAUSE = re.compile(r"\bINTO\s+(OUTFILE|DUMPFILE)\s+:(\w+)", re.IGNORECASE)
_OPTION = re.compile(
    r"\s*(?:(CHARACTER\s+SET|CHARSET)\s+(:\w+|`[^`]*`|\w+)|(FIELDS|COLUMNS|LINES)\b|"
    r"(TERMINATED|STARTING|ESCAPED|(?:OPTIONALLY\s+)?ENCLOSED)\s+BY\s+:(\w+))", re.IGNORECASE)
_FROM = re.compile(r"\bFROM\b", re.IGNORECASE)
_DEPRECATED = ("'<select expression> INTO <destination>;' is deprecated and will be removed "
               "in a future release. Please use 'SELECT <select list> INTO <destination> "
               "FROM...' instead")
ER_CANT_CREATE_FILE = 1
ER_FILE_EXISTS_ERROR = 1086
ER_WRONG_FIELD_TERMINATORS = 1083


class Export:
    def __init__(self, filename: str, dump: bool, late: bool) -> None:
        self.filename = filename
        self.dump = dump
        self.late = late
        self.charset: str | None = None
        self.fields_terminated = b"\t"
        self.enclosed = b""
        self.optionally = False
        self.escaped = b"\\"
        self.lines_starting = b""
        self.lines_terminated = b"\n"


def split(stmt: Statement) -> tuple[Statement, Export] | None:
    """The statement without its INTO OUTFILE / DUMPFILE clause, and what the clause says;
    None when it has none at the outer level."""
    from rampmeter.engine.sqlite.selectinto import _depth
    shape = stmt.shape
    values = dict(zip(stmt.names, stmt.slots))
    for m in _CLAUSE.finditer(shape):
        if _depth(shape, m.start()) != 0:
            continue
        late = any(_depth(shape, f.start()) == 0 for f in _FROM.finditer(shape, 0, m.start()))
        export = Export(_text(values.get(m.group(2))), m.group(1).upper() == "DUMPFILE", late)
        end = m.end()
        lines = False
        while not export.dump:
            o = _OPTION.match(shape, end)
            if o is None:
                break
            end = o.end()
            if o.group(1):
                name = o.group(2)
                export.charset = _text(values.get(name[1:])) if name.startswith(":") \
                    else name.strip("`")
            elif o.group(3):
                lines = o.group(3).upper() == "LINES"
            else:
                _option(export, o.group(4).upper().split()[0], _bytes(values.get(o.group(5))),
                        lines)
        rest = shape[:m.start()] + shape[end:]
        return Statement(stmt.text, stmt.words, " ".join(rest.split()), stmt.slots,
                         stmt.names, stmt.param_count, stmt.items, stmt.for_update,
                         stmt.tokens, stmt.dialect, stmt.charset), export
    return None


def _option(export: Export, word: str, value: bytes, lines: bool) -> None:
    if word == "TERMINATED":
        if lines:
            export.lines_terminated = value
        else:
            export.fields_terminated = value
    elif word == "STARTING":
        export.lines_starting = value
    elif word == "ESCAPED":
        if len(value) > 1:
            raise ServerError(ER_WRONG_FIELD_TERMINATORS, message="Field separator argument is "
                              "not what is expected; check the manual")
        export.escaped = value
    else:  # [OPTIONALLY] ENCLOSED
        if len(value) > 1:
            raise ServerError(ER_WRONG_FIELD_TERMINATORS, message="Field separator argument is "
                              "not what is expected; check the manual")
        export.enclosed = value
        export.optionally = word == "OPTIONALLY"


def _text(value: Any) -> str:
    if isinstance(value, bytes | bytearray):
        return bytes(value).decode("utf-8", "surrogateescape")
    return "" if value is None else str(value)


def _bytes(value: Any) -> bytes:
    if isinstance(value, bytes | bytearray):
        return bytes(value)
    return _text(value).encode("utf-8", "surrogateescape")


def path_of(s: SqliteSession, filename: str) -> Path:
    """Where the server writes `filename` (module rules); 1045 without FILE, 1290 outside
    secure_file_priv."""
    check = getattr(s.context, "check_file_privilege", None)
    if check is not None:
        check()
    datadir = Path(str(s.context.system_variable("datadir")))
    path = Path(filename)
    if not path.is_absolute():
        if len(path.parts) == 1 and s.database:
            # MariaDB's database directory; here databases are files (storage.py): the
            # directory is made for the files written there
            (datadir / s.database).mkdir(exist_ok=True)
        path = datadir / (s.database or "") / path if len(path.parts) == 1 else datadir / path
    secure = str(s.context.system_variable("secure_file_priv") or "")
    if secure and not path.resolve().is_relative_to(Path(secure).resolve()):
        raise ServerError(errors.ER_OPTION_PREVENTS_STATEMENT, "--secure-file-priv")
    return path


def write(s: SqliteSession, result: Any, export: Export) -> UpdateCount:
    if not isinstance(result, ResultSet):
        raise ServerError(errors.ER_WRONG_NUMBER_OF_COLUMNS_IN_SELECT)
    path = path_of(s, export.filename)
    try:
        out = open(path, "xb")  # noqa: SIM115 - closed below, after the last row
    except FileExistsError:
        raise ServerError(ER_FILE_EXISTS_ERROR, message=f"File '{export.filename}' already "
                          "exists") from None
    except OSError as e:
        raise ServerError(ER_CANT_CREATE_FILE, message=f"Can't create/write to file "
                          f"'{path}' (Errcode: {e.errno} \"{e.strerror}\")") from None
    count = 0
    try:
        with out:
            codecs = [_codec(c.charset, export.charset) for c in result.columns]
            strings = [not c.is_numeric for c in result.columns]
            for row in result.rows:
                count += 1
                if export.dump:
                    if count > 1:
                        raise ServerError(errors.ER_TOO_MANY_ROWS)
                    out.write(b"".join(_value(v, codecs[k]) for k, v in enumerate(row)
                                       if v is not None))
                else:
                    out.write(_line(export, row, codecs, strings))
    except ServerError:
        os.unlink(path)  # MariaDB removes the file of a statement that fails
        raise
    warnings = list(result.warnings)
    if export.late:
        warnings.insert(0, Warning_("Warning", 1287, _DEPRECATED))
    return UpdateCount(count, warnings=warnings)


def _codec(charset_id: int, named: str | None) -> str:
    if named:
        cs = charsets.charset(named.lower())
        if cs is None:
            raise ServerError(errors.ER_UNKNOWN_CHARACTER_SET, named)
        return cs.codec or "utf-8"
    if charset_id == CHARSET_BINARY:
        return ""
    coll = charsets.collation_by_id(charset_id)
    cs = charsets.charset(coll.charset) if coll is not None else None
    return cs.codec if cs is not None and cs.codec else "utf-8"


def _value(v: Any, codec: str) -> bytes:
    if type(v) is str and codec and codec != "utf-8":
        try:
            return v.encode(codec, "surrogateescape")
        except (UnicodeEncodeError, LookupError):
            pass
    return text_value(v)


def _line(export: Export, row: Any, codecs: list[str], strings: list[bool]) -> bytes:
    esc = export.escaped
    enc = export.enclosed
    fields = []
    for k, v in enumerate(row):
        if v is None:
            fields.append(esc + b"N" if esc else b"NULL")
            continue
        data = _value(v, codecs[k])
        if esc:
            data = _escape(data, esc, enc or export.fields_terminated[:1],
                           export.lines_terminated[:1])
        if enc and (strings[k] or not export.optionally):
            data = enc + data + enc
        fields.append(data)
    return export.lines_starting + export.fields_terminated.join(fields) + \
        export.lines_terminated


def _escape(data: bytes, esc: bytes, field: bytes, line: bytes) -> bytes:
    special = {esc, field, line, b"\x00"} - {b""}
    if not any(ch in data for ch in special):
        return data
    out = bytearray()
    for i in range(len(data)):
        ch = data[i:i + 1]
        if ch in special:
            out += esc + (b"0" if ch == b"\x00" else ch)
        else:
            out += ch
    return bytes(out)
