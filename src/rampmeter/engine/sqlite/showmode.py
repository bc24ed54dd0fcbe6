"""What sql_mode changes in the DDL SHOW CREATE TABLE / VIEW print (MariaDB's
sql_show.cc store_create_info and append_identifier, measured on 10.11).

Rules:
- ANSI_QUOTES: every identifier is quoted with `"` (a `"` in it doubled), not a backquote.
- NO_FIELD_OPTIONS drops AUTO_INCREMENT; it, MYSQL323 and MYSQL40 ("limited" modes) drop ON
  UPDATE.
- MYSQL323 / MYSQL40: no CHARACTER SET / COLLATE on columns (a char or varchar with a binary
  collation says `binary` instead), `TYPE=` for `ENGINE=`, no DEFAULT CHARSET / COLLATE.
- Index options (USING, COMMENT) are dropped by NO_KEY_OPTIONS, the limited modes, and the
  "foreign" modes (POSTGRESQL, ORACLE, MSSQL, DB2, MAXDB, ANSI); table options (ENGINE,
  AUTO_INCREMENT, charset, COMMENT...) by NO_TABLE_OPTIONS and the foreign modes.
- The default sql_mode changes nothing: `DEFAULT_STYLE` prints what MariaDB prints then.
"""

from __future__ import annotations

from dataclasses import dataclass

_FOREIGN = ("POSTGRESQL", "ORACLE", "MSSQL", "DB2", "MAXDB", "ANSI")
_LIMITED = ("NO_FIELD_OPTIONS", "MYSQL323", "MYSQL40")
_OLD = ("MYSQL323", "MYSQL40")


@dataclass(frozen=True, slots=True)
class CreateStyle:
    ansi_quotes: bool = False
    auto_increment: bool = True   # the AUTO_INCREMENT column attribute
    on_update: bool = True
    charsets: bool = True         # column CHARACTER SET / COLLATE, DEFAULT CHARSET
    old_types: bool = False       # MYSQL323 / MYSQL40: `binary` suffix, TYPE=
    key_options: bool = True
    table_options: bool = True


DEFAULT_STYLE = CreateStyle()


def style(sql_mode: str) -> CreateStyle:
    modes = {m.strip().upper() for m in sql_mode.split(",") if m.strip()}
    if not modes & {"ANSI_QUOTES", "NO_KEY_OPTIONS", "NO_TABLE_OPTIONS", *_FOREIGN, *_LIMITED}:
        return DEFAULT_STYLE
    foreign = bool(modes & set(_FOREIGN))
    limited = bool(modes & set(_LIMITED))
    old = bool(modes & set(_OLD))
    return CreateStyle(ansi_quotes="ANSI_QUOTES" in modes,
                       auto_increment="NO_FIELD_OPTIONS" not in modes,
                       on_update=not limited, charsets=not old, old_types=old,
                       key_options=not ("NO_KEY_OPTIONS" in modes or limited or foreign),
                       table_options=not ("NO_TABLE_OPTIONS" in modes or foreign))


def ansi_quoted(text: str) -> str:
    """`text` (DDL or a query as the printers write it: identifiers in backquotes, strings in
    single quotes with backslash escapes) with every identifier in double quotes instead."""
    out: list[str] = []
    i, n = 0, len(text)
    while i < n:
        ch = text[i]
        if ch == "'":
            j = i + 1
            while j < n and text[j] != "'":
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif ch == "`":
            j, name = i + 1, []
            while j < n:
                if text[j] == "`":
                    if j + 1 < n and text[j + 1] == "`":
                        name.append("`")
                        j += 2
                        continue
                    break
                name.append(text[j])
                j += 1
            out.append('"' + "".join(name).replace('"', '""') + '"')
            i = j + 1
        else:
            out.append(ch)
            i += 1
    return "".join(out)
