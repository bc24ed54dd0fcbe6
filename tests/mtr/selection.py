"""Which tests of MariaDB's `main` suite are in the list, by a rule a script applies.

The rule (stated once here, quoted in docs/compat.md; the list is never edited by hand and
never tailored to what rampmeter passes): a test `main/NAME.test` of the Debian package
mariadb-test-data is in the list unless

1. mariadb-test-run would not run it by default: it is in main/disabled.def or an
   unstable-tests file, or it sources include/big_test.inc;
2. it needs server options: NAME.opt, NAME-master.opt, NAME-slave.opt, NAME.cnf,
   NAME.combinations, NAME-master.sh or NAME-slave.sh exists, or a file it sources has an
   .opt / -master.opt / .combinations / .cnf file of its own (include/have_innodb.opt, ...);
3. it leaves SQL: the test, or a file it sources, runs a mariadb-test command that starts
   processes or touches files (`exec`, `system`, `perl`, `write_file`, `remove_file`,
   `copy_file`, `cat_file`, `shutdown_server`, ... see FILE_COMMANDS);
4. it sources an include that restarts the server, sets up replication or the binary log,
   needs a debug build, a plugin or a storage engine other than the default, TLS, another
   platform or a property of the machine (see INCLUDE_RULES, each with its reason).

Sourced files are followed transitively where the path is literal (relative to mysql-test/,
to main/ or to the including file); `source $var` cannot be followed and is ignored.
The first rule that matches is the test's recorded reason.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path

MYSQL_TEST_DIR = Path("/usr/share/mysql/mysql-test")
LIST_FILE = Path(__file__).with_name("list.txt")

SIDE_FILES = (".opt", "-master.opt", "-slave.opt", ".cnf", ".combinations", "-master.sh",
              "-slave.sh")
INCLUDE_SIDE_FILES = (".opt", "-master.opt", ".combinations", ".cnf")

FILE_COMMANDS = ("exec", "execw", "exec_in_background", "system", "perl", "copy_file",
                 "copy_files_wildcard", "move_file", "remove_file", "remove_files_wildcard",
                 "write_file", "append_file", "cat_file", "diff_files", "file_exists", "mkdir",
                 "rmdir", "force-rmdir", "force-cpdir", "chmod", "list_files",
                 "list_files_write_file", "list_files_append_file", "send_shutdown",
                 "shutdown_server")

# (pattern on the sourced file's name, reason). Order matters only for the recorded reason.
INCLUDE_RULES: tuple[tuple[str, str], ...] = (
    (r"big_test", "big test (mariadb-test-run skips it by default)"),
    (r"(restart|start|shutdown|kill)_mysqld|wait_until_connected_again|crash",
     "restarts the server"),
    (r"master-slave|^rpl_|binlog|log_bin|wsrep|galera|mariabackup|xtrabackup",
     "replication, binary log or backup"),
    (r"have_debug|debug_sync|maybe_debug", "needs a debug build"),
    (r"have_(archive|blackhole|csv|partition|sequence|perfschema|udf|example_plugin|plugin_"
     r"|metadata_lock_info|rocksdb|s3|simple_parser|file_key_management|innodb|aria|maria"
     r"|type_mysql_json|pool_of_threads|unix_socket|auth_named_pipe|static_innodb|query_cache"
     r"|profiling)", "needs a plugin or a storage engine other than the default"),
    (r"ssl|tls", "needs TLS"),
    (r"^windows\.inc|have_32bit|not_64bit|have_case_insensitive|have_lowercase[12]",
     "another platform"),
    (r"have_working_dns|ipv6|have_ipv4_mapped|have_numa|have_cgroupv2|have_dbi|have_gzip"
     r"|have_symlink", "depends on the machine"),
)

_SOURCE = re.compile(r"^\s*(?:--\s*)?source\s+([^\s;]+)\s*;?\s*$", re.MULTILINE)
_COMMAND = re.compile(r"^\s*(?:--\s*)?(" + "|".join(re.escape(c) for c in
                                                    sorted(FILE_COMMANDS, key=len,
                                                           reverse=True)) + r")\b(?![-_])",
                      re.MULTILINE)


@dataclass(frozen=True)
class Verdict:
    name: str
    reason: str  # "" when the test is in the list


def not_run_by_default(root: Path) -> set[str]:
    names: set[str] = set()
    disabled = root / "main" / "disabled.def"
    if disabled.exists():
        for line in disabled.read_text(errors="replace").splitlines():
            m = re.match(r"\s*([\w-]+)\s*:", line)
            if m and not line.lstrip().startswith("#"):
                names.add(m.group(1))
    for unstable in root.glob("unstable-tests*"):
        for line in unstable.read_text(errors="replace").splitlines():
            m = re.match(r"\s*main\.([\w-]+)\s*:", line)
            if m:
                names.add(m.group(1))
    return names


class Sources:
    """The files a test sources, transitively, each read once."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.cache: dict[Path, str] = {}

    def text(self, path: Path) -> str:
        if path not in self.cache:
            self.cache[path] = path.read_text(errors="replace")
        return self.cache[path]

    def resolve(self, name: str, including: Path) -> Path | None:
        if "$" in name:
            return None
        for base in (self.root, self.root / "main", including.parent):
            candidate = (base / name).resolve()
            if candidate.is_file():
                return candidate
        return None

    def closure(self, test: Path) -> list[Path]:
        seen: list[Path] = []
        todo = [test]
        while todo:
            path = todo.pop()
            if path in seen:
                continue
            seen.append(path)
            for name in _SOURCE.findall(self.text(path)):
                found = self.resolve(name, path)
                if found is not None and found not in seen:
                    todo.append(found)
        return seen


def judge(test: Path, sources: Sources, skipped: set[str]) -> Verdict:
    name = test.stem
    if name in skipped:
        return Verdict(name, "disabled or unstable in MariaDB's own lists")
    for suffix in SIDE_FILES:
        if test.with_name(name + suffix).exists():
            return Verdict(name, f"needs server options ({name}{suffix})")
    files = sources.closure(test)
    for path in files[1:]:
        for pattern, reason in INCLUDE_RULES:
            if re.search(pattern, path.name):
                return Verdict(name, f"{reason} ({path.name})")
        for suffix in INCLUDE_SIDE_FILES:
            if path.with_name(path.stem + suffix).exists():
                return Verdict(name, f"needs server options ({path.stem}{suffix})")
    for path in files:
        m = _COMMAND.search(sources.text(path))
        if m:
            return Verdict(name, f"leaves SQL: `{m.group(1)}` ({path.name})")
    return Verdict(name, "")


def judge_all(root: Path = MYSQL_TEST_DIR) -> list[Verdict]:
    sources = Sources(root)
    skipped = not_run_by_default(root)
    return [judge(test, sources, skipped) for test in sorted((root / "main").glob("*.test"))]


def selected(verdicts: list[Verdict]) -> list[str]:
    return [v.name for v in verdicts if not v.reason]


def read_list(path: Path = LIST_FILE) -> list[str]:
    return [line.strip() for line in path.read_text().splitlines()
            if line.strip() and not line.startswith("#")]


def write_list(names: list[str], path: Path = LIST_FILE) -> None:
    header = ("# MariaDB main tests in the mtr list, made by `python -m tests.mtr select`\n"
              "# from the rule in tests/mtr/selection.py; do not edit by hand.\n")
    path.write_text(header + "".join(f"{n}\n" for n in names))
