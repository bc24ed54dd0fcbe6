"""Option files in the my.cnf format.

Rules (MySQL 8.4 refman "Using Option Files", MariaDB "Configuring MariaDB with Option Files"):
- `[group]` headers; `key = value`, `key value`-less flags (`skip-name-resolve`), `#` and `;`
  comments, quotes around values stripped, dash and underscore interchangeable.
- `!include FILE` and `!includedir DIR` (files ending in .cnf, in sorted order) are followed,
  relative to the including file; a cycle is an error.
- Groups read by the server, in increasing precedence: [mysqld], [server], [mariadb],
  [mariadbd], [rampmeter]; later lines win over earlier ones.
- Only files named with --defaults-file / --defaults-extra-file are read. MariaDB also reads
  /etc/my.cnf and ~/.my.cnf; rampmeter does not, so a machine's MariaDB config (datadir, socket)
  never leaks into a development server by surprise.
The result is an ordered list of (name, value, origin) for cmdline.py to apply.
"""

from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

SERVER_GROUPS = ("mysqld", "server", "mariadb", "mariadbd", "rampmeter")


class OptionFileError(Exception):
    pass


@dataclass(frozen=True)
class Setting:
    name: str          # as written, dashes kept; cmdline.py normalizes
    value: str | None  # None for a bare flag
    group: str
    origin: str        # "file:line" for messages


def read_option_file(path: str | os.PathLike[str],
                     groups: tuple[str, ...] = SERVER_GROUPS) -> list[Setting]:
    """All settings of the given groups in `path` (and its includes), ordered by precedence."""
    found: list[Setting] = []
    _read(Path(path), groups, found, seen=set())
    order = {g: i for i, g in enumerate(groups)}
    # A stable sort keeps file order inside a group and puts later groups last (they win).
    return sorted(found, key=lambda s: order[s.group])


def _read(path: Path, groups: tuple[str, ...], out: list[Setting], seen: set[Path]) -> None:
    try:
        real = path.resolve(strict=True)
    except FileNotFoundError:
        raise OptionFileError(f"Could not open required defaults file: {path}") from None
    if real in seen:
        raise OptionFileError(f"{path}: !include cycle")
    seen = seen | {real}
    group: str | None = None
    with open(real, encoding="utf-8", errors="replace") as handle:
        for lineno, raw in enumerate(handle, 1):
            line = raw.strip()
            origin = f"{path}:{lineno}"
            if not line or line[0] in "#;":
                continue
            if line.startswith("!include "):
                _read(_relative(real, line[len("!include "):].strip()), groups, out, seen)
                continue
            if line.startswith("!includedir "):
                directory = _relative(real, line[len("!includedir "):].strip())
                for child in sorted(directory.glob("*.cnf")):
                    _read(child, groups, out, seen)
                continue
            if line.startswith("["):
                if not line.endswith("]"):
                    raise OptionFileError(f"{origin}: malformed group header {line!r}")
                group = line[1:-1].strip().lower()
                continue
            if group is None:
                raise OptionFileError(f"{origin}: option outside of any [group]")
            if group not in groups:
                continue
            name, value = _split(line)
            out.append(Setting(name, value, group, origin))


def _relative(base: Path, target: str) -> Path:
    p = Path(target)
    return p if p.is_absolute() else base.parent / p


def _split(line: str) -> tuple[str, str | None]:
    line = _strip_comment(line)
    if "=" not in line:
        return line.strip(), None
    name, value = line.split("=", 1)
    value = value.strip()
    if len(value) >= 2 and value[0] == value[-1] and value[0] in "'\"":
        value = value[1:-1]
    return name.strip(), value


def _strip_comment(line: str) -> str:
    """Drop a trailing ` # comment` that is not inside quotes."""
    quote = ""
    for i, ch in enumerate(line):
        if quote:
            if ch == quote:
                quote = ""
        elif ch in "'\"":
            quote = ch
        elif ch == "#" and (i == 0 or line[i - 1].isspace()):
            return line[:i].rstrip()
    return line
