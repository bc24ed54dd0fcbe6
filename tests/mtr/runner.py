"""One test of `main` on one server with the `mariadb-test` client, and what came of it.

Rules:
- The client is run as mariadb-test-run runs it (`--database=test`, `--basedir` = mysql-test/,
  `--tmpdir`, `--logdir` in the worker's var dir, the test file and its `.result`) but with
  `--no-defaults` and `--skip-ssl`, over the server's unix socket.
- Outcomes: `pass` (exit 0), `skip` (exit 62: the test decided it cannot run here, e.g. a
  character set the server lacks), `fail` (anything else), `timeout` (killed after the
  per-test limit; the server is then restarted by the caller).
- The first difference of a failing test is found by comparing what the client printed
  (logdir/NAME.reject after a result mismatch, logdir/NAME.log after an abort) with the
  `.result` line by line: the first line that differs, or — when the printed output is a
  prefix of the expected one — the client's own error ("query '...' failed: 1064: ...").
  The statement that produced the difference is recorded too (the last echoed statement
  before it), so causes.py can classify it.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path

from tests.mtr.selection import MYSQL_TEST_DIR
from tests.mtr.servers import Server

SKIP_EXIT = 62
CLIENT = "mariadb-test"
_AT_LINE = re.compile(r"(?:mysqltest|mariadb-test): At line (\d+): (.*)", re.DOTALL)


@dataclass
class Outcome:
    name: str
    status: str                 # pass | fail | skip | timeout
    seconds: float
    line: int = 0               # line of the .result where the first difference is (1-based)
    expected: str = ""          # that line as recorded
    actual: str = ""            # what the server gave there ("" when the output ended)
    statement: str = ""         # the statement (or client command) the difference belongs to
    error: str = ""             # the client's own message, when it aborted
    extra: dict[str, str] = field(default_factory=dict)

    def to_json(self) -> dict[str, object]:
        data = asdict(self)
        return {k: v for k, v in data.items() if v not in ("", 0, {}) or k == "status"}


def run_test(server: Server, name: str, timeout: float, keep_going: bool = False) -> Outcome:
    """`keep_going`: run past failures (mariadb-test --continue-on-error) and record in
    extra['distance'] how many lines of the output differ: how far a test is from passing."""
    test = MYSQL_TEST_DIR / "main" / f"{name}.test"
    logdir = server.vardir / "log"
    # mariadb-test writes NAME.reject beside the result file: give it a copy in our var dir,
    # never the package's directory (read-only for users, shared by parallel runs)
    result = logdir / f"{name}.result"
    shutil.copyfile(test.with_suffix(".result"), result)
    for stale in (logdir / f"{name}.reject", logdir / f"{name}.log"):
        stale.unlink(missing_ok=True)
    cmd = [CLIENT, "--no-defaults", f"--socket={server.socket}", f"--port={server.port}",
           "--user=root",
           "--database=test", "--skip-ssl", f"--basedir={MYSQL_TEST_DIR}/",
           f"--tmpdir={server.vardir / 'tmp'}", f"--logdir={logdir}",
           "--character-sets-dir=/usr/share/mysql/charsets", "--max-connect-retries=5",
           f"--test-file={test}", f"--result-file={result}", "--tail-lines=0", "--silent"]
    if keep_going:
        cmd.append("--continue-on-error")
    started = time.monotonic()
    try:
        done = subprocess.run(cmd, capture_output=True, timeout=timeout, env=server.env(),
                              cwd=MYSQL_TEST_DIR)  # mariadb-test-run's working directory
    except subprocess.TimeoutExpired:
        out = Outcome(name, "timeout", time.monotonic() - started,
                      error=f"no answer within {timeout:.0f} s")
        return _locate(out, logdir / f"{name}.log", result)
    seconds = time.monotonic() - started
    text = (done.stdout + done.stderr).decode("utf-8", "replace")
    if done.returncode == 0:
        return Outcome(name, "pass", seconds)
    if done.returncode == SKIP_EXIT:
        return Outcome(name, "skip", seconds, error=_skip_reason(text))
    out = Outcome(name, "fail", seconds)
    m = _AT_LINE.search(text)
    if m and "Result content mismatch" not in text and "Result length mismatch" not in text:
        out.error = " ".join(m.group(2).split())[:600]
        return _locate(out, logdir / f"{name}.log", result)
    reject = logdir / f"{name}.reject"
    if not reject.exists():  # no output to compare: the client's own words are all we have
        out.error = " ".join(text.split())[-600:]
    elif keep_going:
        out.extra["distance"] = str(distance(reject, result))
    return _locate(out, reject, result)


def distance(produced: Path, expected_file: Path) -> int:
    """Lines added or removed between the expected output and what the server gave."""
    import difflib
    a = expected_file.read_bytes().decode("latin-1").splitlines()
    b = produced.read_bytes().decode("latin-1").splitlines()
    return sum(1 for line in difflib.unified_diff(a, b, lineterm="", n=0)
               if line[:1] in "+-" and not line.startswith(("+++", "---")))


def _skip_reason(text: str) -> str:
    m = re.search(r"(?:skipped|Skipping)[^\n]*", text, re.IGNORECASE)
    return m.group(0).strip()[:300] if m else " ".join(text.split())[:300]


def _locate(out: Outcome, produced: Path, expected_file: Path) -> Outcome:
    """Fill in the first differing line of `produced` against the expected result."""
    expected = expected_file.read_bytes().decode("latin-1").splitlines()
    actual = (produced.read_bytes().decode("latin-1").splitlines()
              if produced.exists() else [])
    index = next((i for i, (a, b) in enumerate(zip(actual, expected)) if a != b), None)
    if index is None:
        if out.error or len(actual) >= len(expected):
            # output ended where the client stopped: its message is the difference
            index = min(len(actual), len(expected))
            out.actual = ""
        else:
            index = len(actual)
    else:
        out.actual = actual[index]
    out.line = index + 1
    out.expected = expected[index] if index < len(expected) else ""
    out.statement = statement_before(expected, index)
    return out


def statement_before(lines: list[str], index: int) -> str:
    """The echoed statement the line at `index` belongs to. mariadb-test echoes each
    statement with its delimiter, so: the nearest line at or before `index` ending in `;`,
    back to the line after the previous statement's end or result row."""
    end = next((i for i in range(min(index, len(lines) - 1), -1, -1)
                if lines[i].rstrip().endswith(";")), None)
    if end is None:
        return ""
    start = end
    while start > 0 and start > end - 40:
        above = lines[start - 1]
        if not above or above.rstrip().endswith(";") or "\t" in above or above[:1] == "#":
            break
        start -= 1
    return " ".join(line.strip() for line in lines[start:end + 1])[:400]
