"""mysqld-style command line for `rampmeter serve`, generated from the options registry.

Rules (mysqld's my_getopt, as MariaDB and MySQL document it):
- `--name=value` and `--name value`; dashes and underscores are interchangeable.
- Booleans: `--name`, `--name=ON|OFF|1|0|TRUE|FALSE`, `--skip-name`, `--disable-name`,
  `--enable-name`.
- `--loose-name...`: an unknown option is a warning instead of an error.
- `--defaults-file=F`, `--defaults-extra-file=F` and `--no-defaults` are honoured anywhere (mysqld
  wants them first; accepting them later costs nothing). Files are applied first, then the
  command line, so the command line wins.
- Out-of-range numbers are clamped with a warning, as mysqld does at start-up.
`parse_server_args` returns the overrides as a dict the GlobalVariables constructor takes.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from rampmeter.config.mycnf import OptionFileError, read_option_file
from rampmeter.config.options import REGISTRY, Kind, Option, normalize_name
from rampmeter.errors import ServerError

FILE_FLAGS = ("defaults_file", "defaults_extra_file")


class UsageError(Exception):
    pass


@dataclass
class ServerArgs:
    values: dict[str, Any] = field(default_factory=dict)
    warnings: list[str] = field(default_factory=list)
    help: bool = False
    files: list[str] = field(default_factory=list)


def parse_server_args(argv: Sequence[str]) -> ServerArgs:
    result = ServerArgs()
    cli_settings: list[tuple[str, str | None, str]] = []
    files: list[str] = []
    no_defaults = False
    args = list(argv)
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if arg in ("-h", "--help", "-?"):
            result.help = True
            continue
        if not arg.startswith("--"):
            raise UsageError(f"unexpected argument {arg!r}")
        body = arg[2:]
        name, value = (body.split("=", 1) + [None])[:2] if "=" in body else (body, None)
        key = normalize_name(name)
        if key == "no_defaults":
            no_defaults = True
            continue
        if key in FILE_FLAGS:
            if value is None:
                if i >= len(args):
                    raise UsageError(f"option '--{name}' requires an argument")
                value = args[i]
                i += 1
            files.append(value)
            continue
        # `--name value` for options that take a value.
        opt = _resolve(key)[0]
        if value is None and opt is not None and opt.kind is not Kind.BOOL \
                and i < len(args) and not args[i].startswith("--"):
            value = args[i]
            i += 1
        cli_settings.append((name, value, "command line"))

    if not no_defaults:
        for path in files:
            try:
                for s in read_option_file(path):
                    _apply(result, s.name, s.value, s.origin, lenient=s.group != "rampmeter")
            except OptionFileError as exc:
                raise UsageError(str(exc)) from None
    result.files = files
    for name, value, origin in cli_settings:
        _apply(result, name, value, origin, lenient=False)
    return result


def _resolve(key: str) -> tuple[Option | None, bool | None]:
    """Map a normalized flag to (option, forced boolean) handling skip-/disable-/enable-."""
    key = key.removeprefix("loose_")
    opt = REGISTRY.get(normalize_name(key))
    if opt is not None:
        return opt, None
    for prefix, forced in (("skip_", False), ("disable_", False), ("enable_", True)):
        if key.startswith(prefix):
            opt = REGISTRY.get(normalize_name(key[len(prefix):]))
            if opt is not None and opt.kind is Kind.BOOL:
                return opt, forced
    return None, None


def _apply(result: ServerArgs, name: str, value: str | None, origin: str,
           *, lenient: bool) -> None:
    key = normalize_name(name)
    loose = key.startswith("loose_")
    opt, forced = _resolve(key)
    if opt is None or not opt.cli:
        message = f"{origin}: unknown option '--{name}'"
        if loose or lenient:
            result.warnings.append(message + " (ignored)")
            return
        raise UsageError(message)
    if forced is not None:
        if value is not None:
            raise UsageError(f"{origin}: option '--{name}' takes no value")
        raw: Any = forced
    elif value is None:
        if opt.kind is not Kind.BOOL:
            raise UsageError(f"{origin}: option '--{name}' requires an argument")
        raw = True
    else:
        raw = _size_suffix(value) if opt.kind is Kind.INT else value
    try:
        stored, warnings = opt.coerce(raw)
    except ServerError as exc:
        if loose:
            result.warnings.append(f"{origin}: {exc.message} (ignored)")
            return
        raise UsageError(f"{origin}: {exc.message}") from None
    if warnings:
        result.warnings.append(f"{origin}: option '{opt.flag}': value {raw} adjusted to {stored}")
    result.values[opt.name] = stored


_SUFFIX = {"k": 1, "m": 2, "g": 3, "t": 4, "p": 5, "e": 6}


def _size_suffix(value: str) -> str:
    """mysqld's number suffixes on the command line: 1M is 1048576 (K, M, G, T, P, E)."""
    text = value.strip()
    if len(text) > 1 and text[-1].lower() in _SUFFIX and text[:-1].isdigit():
        return str(int(text[:-1]) * 1024 ** _SUFFIX[text[-1].lower()])
    return value


def help_text() -> str:
    lines = ["Options (mysqld spellings; dash and underscore are interchangeable):", ""]
    compat = 0
    for opt in sorted(REGISTRY.values(), key=lambda o: o.name):
        if opt.compat:
            compat += 1
            continue
        if not opt.cli:
            continue
        default = opt.display(opt.default)
        rng = ""
        if opt.kind is Kind.INT and opt.minimum is not None:
            rng = f" [{opt.minimum}..{opt.maximum}]"
        elif opt.choices and opt.kind is Kind.ENUM:
            rng = " {" + "|".join(opt.choices) + "}"
        unit = f" ({opt.unit})" if opt.unit else ""
        lines.append(f"  {opt.flag}{rng}{unit}  default: {default!s}")
        if opt.help:
            lines.append(f"      {opt.help}")
    lines += ["", f"  ... and {compat} more of MariaDB's options, accepted and shown by SHOW "
              "VARIABLES without effect (docs/sql.md)"]
    lines += ["", "  --defaults-file=F, --defaults-extra-file=F  read [mysqld], [server], "
              "[mariadb], [mariadbd] and [rampmeter] groups of F", "  --no-defaults"]
    return "\n".join(lines)
