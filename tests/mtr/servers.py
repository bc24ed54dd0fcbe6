"""The servers an mtr run talks to, started as mariadb-test-run starts its server.

Rules:
- Both servers get the [mysqld] group of mysql-test/include/default_mysqld.cnf (latin1 server
  character set, MyISAM default engine, small buffers, ...): that is the configuration the
  `.result` files were recorded with. MariaDB also gets what mariadb-test-run adds: every
  optional plugin switched off (`--loose-skip-plugin-X` for the plugins `mariadbd --help
  --verbose` lists as optional, with mariadb-test-run's own exceptions), general and slow logs,
  secure-file-priv = the run's var dir. rampmeter gets every option with a `loose-` prefix, so
  the ones it does not have are ignored with a note in its log, as mariadbd does with `loose-`.
- MariaDB's data directory is made once per run (mariadb-install-db, then mariadb-test-run's
  bootstrap: a latin1 `test` database, no anonymous accounts, the `mtr` schema with
  add_suppression, the time zone test data) and copied for each server start, so a restart is
  a copy, not a new install. rampmeter starts in an empty data directory of its own and gets
  the same `test` database, an `mtr` schema with the suppressions table and
  add_suppression (mtr_warnings.sql's procedure) and the time zone test data in its
  mysql.time_zone* tables; mtr_check.sql's check-testcase procedures are not made (the
  harness compares state itself, see work.py).
- Each server listens on a unix socket (mariadb-test connects to `localhost` as
  mariadb-test-run's tests expect, so `USER()` is root@localhost) and on a free TCP port on
  127.0.0.1 (tests that connect to $MASTER_MYPORT).
- Readiness is read from the server's log ("ready for connections", rampmeter's "port: N"),
  with a deadline; stopping is SIGTERM, then SIGKILL after a deadline.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import pymysql

from tests.compat.servers import free_port, terminate, which
from tests.mtr.selection import MYSQL_TEST_DIR

START_TIMEOUT_S = 90.0
STOP_TIMEOUT_S = 20.0
# mariadb-test-run keeps these InnoDB information_schema plugins on (sys schema needs them).
_KEEP_PLUGINS = {"innodb-metrics", "innodb-buffer-page", "innodb-lock-waits", "innodb-locks"}
_OPTIONAL = re.compile(r"^  --([-a-z0-9]+)\[=name\] +Enable or disable \w+ plugin. "
                       r"One of: ON, OFF, FORCE", re.MULTILINE)
SYSTEM_DATABASES = {"information_schema", "mysql", "performance_schema", "sys", "mtr"}


def mtr_mysqld_options(vardir: Path) -> list[str]:
    """The [mysqld] group of include/default_mysqld.cnf as command-line options."""
    text = (MYSQL_TEST_DIR / "include" / "default_mysqld.cnf").read_text()
    out: list[str] = []
    group = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            group = line.strip("[]")
            continue
        if group != "mysqld":
            continue
        key, sep, value = line.partition("=")
        key, value = key.strip(), value.strip().strip("'")
        value = value.replace("@ENV.MYSQLTEST_VARDIR", str(vardir))
        value = value.replace("@ENV.MYSQL_TEST_DIR", str(MYSQL_TEST_DIR))
        out.append(f"--{key}={value}" if sep else f"--{key}")
    return out


def optional_plugins(mariadbd: str) -> list[str]:
    done = subprocess.run([mariadbd, "--no-defaults", "--help", "--verbose"],
                          capture_output=True, text=True, timeout=60)
    return [p for p in _OPTIONAL.findall(done.stdout) if p not in _KEEP_PLUGINS]


def mtr_bootstrap_sql(path: Path) -> list[str]:
    """A mariadb-test-run bootstrap file as statements (its sql_to_bootstrap, in Python)."""
    statements: list[str] = []
    delimiter, current = ";", []
    for line in path.read_text().splitlines():
        m = re.match(r"^delimiter (.*)", line)
        if m:
            delimiter = m.group(1).removesuffix(delimiter)
            continue
        if line.endswith(delimiter):
            current.append(line[: -len(delimiter)])
            statements.append(" ".join(current).strip())
            current = []
            continue
        if re.match(r"^\s*--", line):
            continue
        current.append(line)
    return [s for s in statements if s]


def _wait_log(proc: subprocess.Popen[bytes], log: Path, pattern: str) -> re.Match[str] | None:
    deadline = time.monotonic() + START_TIMEOUT_S
    regex = re.compile(pattern)
    while time.monotonic() < deadline:
        text = log.read_text(errors="replace") if log.exists() else ""
        m = regex.search(text)
        if m:
            return m
        if proc.poll() is not None:
            return None
        time.sleep(0.05)  # polling the log with a deadline, not a blind wait
    return None


def _tail(log: Path, lines: int = 30) -> str:
    if not log.exists():
        return ""
    return "\n".join(log.read_text(errors="replace").splitlines()[-lines:])


class Server:
    """One server process for one worker: start(), reset() between tests, stop()."""

    kind = ""

    def __init__(self, workdir: Path) -> None:
        self.workdir = workdir
        self.vardir = workdir / "var"
        self.socket = workdir / "s.sock"
        self.port = 0
        self.process: subprocess.Popen[bytes] | None = None
        self.log = workdir / "server.log"

    # -- lifecycle
    def start(self) -> None:
        raise NotImplementedError

    def stop(self) -> None:
        proc, self.process = self.process, None
        terminate(proc, STOP_TIMEOUT_S)

    def restart(self) -> None:
        self.stop()
        self.start()

    def alive(self) -> bool:
        return self.process is not None and self.process.poll() is None

    def tail(self) -> str:
        return _tail(self.log)

    def _fresh_log(self) -> None:
        """Start the next server on an empty log (its start is found by reading the log),
        keeping what the last one wrote at the end of server-history.log (`--keep-logs`)."""
        if self.log.exists():
            with (self.workdir / "server-history.log").open("ab") as history:
                history.write(self.log.read_bytes())
            self.log.unlink()

    # -- state between tests
    def connect(self, **kw: object) -> pymysql.connections.Connection:
        return pymysql.connect(unix_socket=str(self.socket), user="root", password="",
                               connect_timeout=10, read_timeout=60, write_timeout=60,
                               autocommit=True, **kw)

    def query(self, sql: str) -> list[tuple[object, ...]]:
        with self.connect() as conn, conn.cursor() as cur:
            cur.execute(sql)
            return list(cur.fetchall())

    def fingerprint(self) -> tuple[object, ...]:
        """What a test must leave as it found it; a difference means restart."""
        variables = tuple(r for r in self.query("SHOW GLOBAL VARIABLES")
                          if not str(r[0]).startswith(_VOLATILE))
        try:
            users = tuple(sorted(self.query("SELECT user, host FROM mysql.user")))
        except pymysql.MySQLError:
            users = ()
        return variables, users

    def reset(self) -> None:
        """Drop the databases a test left, and make `test` empty again."""
        with self.connect() as conn, conn.cursor() as cur:
            cur.execute("SHOW DATABASES")
            for (name,) in cur.fetchall():
                if name not in SYSTEM_DATABASES:
                    cur.execute(f"DROP DATABASE `{name}`")
            cur.execute(_CREATE_TEST)
            cur.execute("SELECT 1")

    def env(self) -> dict[str, str]:
        """The environment mariadb-test-run gives a test (the variables plain-SQL tests use)."""
        return {"MYSQL_TEST_DIR": str(MYSQL_TEST_DIR), "MYSQLTEST_VARDIR": str(self.vardir),
                "MYSQL_TMP_DIR": str(self.vardir / "tmp"), "MASTER_MYPORT": str(self.port),
                "MASTER_MYSOCK": str(self.socket), "MYSQL_CHARSETSDIR": "/usr/share/mysql/charsets",
                "MYSQL_SHAREDIR": "/usr/share/mysql", "DEFAULT_MASTER_PORT": str(self.port),
                "MYSQL_TEST_LOGIN_FILE": str(self.vardir / ".mylogin.cnf"),
                "SECURE_LOAD_PATH": str(MYSQL_TEST_DIR / "std_data"),
                "LC_ALL": "C", "LC_CTYPE": "C", "LC_COLLATE": "C"}

    def _prepare_dirs(self) -> None:
        for sub in ("tmp", "log"):
            (self.vardir / sub).mkdir(parents=True, exist_ok=True)
        std_data = self.vardir / "std_data"
        if not std_data.exists():  # mariadb-test-run copies it there (LOAD DATA reads it)
            shutil.copytree(MYSQL_TEST_DIR / "std_data", std_data)


_VOLATILE = ("gtid_", "timestamp", "last_", "tmp_disk", "rand_seed", "error_count",
             "warning_count", "identity", "insert_id", "in_transaction", "version_ssl",
             "thread_pool_size", "pseudo_thread_id", "Ssl", "ssl_")
_CREATE_TEST = "CREATE DATABASE IF NOT EXISTS test CHARACTER SET latin1 COLLATE latin1_swedish_ci"


class MariaDBTemplate:
    """The bootstrapped data directory every MariaDB server of a run starts from."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self.datadir = root / "template"
        self.mariadbd = which("mariadbd", "mysqld") or "mariadbd"
        self.plugins: list[str] = []

    def build(self) -> None:
        install = which("mariadb-install-db", "mysql_install_db")
        if not install or not which("mariadbd", "mysqld"):
            raise RuntimeError("mariadbd / mariadb-install-db not installed "
                               "(apt-get install mariadb-server)")
        self.plugins = optional_plugins(self.mariadbd)
        as_root = ["--user=root"] if os.geteuid() == 0 else []
        done = subprocess.run(
            [install, "--no-defaults", f"--datadir={self.datadir}", *as_root,
             "--auth-root-authentication-method=normal", "--skip-test-db",
             "--default-storage-engine=myisam", "--character-set-server=latin1"],
            capture_output=True, text=True, timeout=300)
        if done.returncode != 0:
            raise RuntimeError(f"mariadb-install-db failed:\n{done.stdout[-2000:]}"
                               f"{done.stderr[-2000:]}")
        server = MariaDB(self.root / "bootstrap", self, datadir=self.datadir)
        server.start()
        try:
            server.bootstrap()
        finally:
            server.stop()


class MariaDB(Server):
    kind = "mariadb"

    def __init__(self, workdir: Path, template: MariaDBTemplate,
                 datadir: Path | None = None) -> None:
        super().__init__(workdir)
        self.template = template
        self.plugins_off = datadir is None  # the bootstrap runs with InnoDB, as mtr's does
        self.own_datadir = datadir is None
        self.datadir = datadir or self.vardir / "mysqld.1" / "data"

    def start(self) -> None:
        self._prepare_dirs()
        if self.own_datadir:
            shutil.rmtree(self.datadir, ignore_errors=True)
            shutil.copytree(self.template.datadir, self.datadir, symlinks=True)
        as_root = ["--user=root"] if os.geteuid() == 0 else []
        for _attempt in range(3):  # the free port may be taken between our check and the bind
            self.port = free_port()
            self._fresh_log()
            cmd = [self.template.mariadbd, "--no-defaults", *mtr_mysqld_options(self.vardir),
                   "--loose-aria", f"--basedir={Path('/usr')}", f"--datadir={self.datadir}",
                   *as_root, f"--tmpdir={self.vardir / 'tmp'}", f"--port={self.port}",
                   "--bind-address=127.0.0.1", f"--socket={self.socket}",
                   f"--pid-file={self.workdir / 'mysqld.pid'}", f"--log-error={self.log}",
                   "--general-log=1", f"--general-log-file={self.vardir / 'log' / 'g.log'}",
                   "--slow-query-log=1", f"--slow-query-log-file={self.vardir / 'log' / 's.log'}",
                   "--server-id=1", "--skip-log-bin", "--innodb-flush-log-at-trx-commit=0",
                   *(f"--loose-skip-plugin-{p}" for p in self.template.plugins
                     if self.plugins_off)]
            self.process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL,
                                            stderr=subprocess.DEVNULL,
                                            stdin=subprocess.DEVNULL, start_new_session=True)
            if _wait_log(self.process, self.log, r"ready for connections"):
                return
            text = _tail(self.log)
            self.stop()
            if "already in use" not in text and "Bind on TCP/IP port" not in text:
                raise RuntimeError(f"mariadbd did not start:\n{text}")
        raise RuntimeError(f"mariadbd did not start:\n{self.tail()}")

    def bootstrap(self) -> None:
        """mariadb-test-run's additions to a fresh install (see its mysql_install_db)."""
        include = MYSQL_TEST_DIR / "include"
        with self.connect() as conn, conn.cursor() as cur:
            cur.execute("DROP DATABASE IF EXISTS test")
            # gtid_slave_pos is InnoDB, which the tests run without (mariadb-test-run's step)
            cur.execute("ALTER TABLE mysql.gtid_slave_pos ENGINE=Aria transactional=0")
            cur.execute(_CREATE_TEST)
            cur.execute("DELETE FROM mysql.global_priv WHERE user = ''")
            cur.execute("FLUSH PRIVILEGES")
            tz = Path("/usr/share/mysql/mysql_test_data_timezone.sql")
            if tz.exists():
                cur.execute("USE mysql")
                for statement in mtr_bootstrap_sql(tz):
                    cur.execute(statement)
            cur.execute("CREATE DATABASE mtr CHARSET=latin1")
            for name in ("mtr_warnings.sql", "mtr_check.sql"):
                for statement in mtr_bootstrap_sql(include / name):
                    cur.execute(statement)


class Rampmeter(Server):
    kind = "rampmeter"

    def __init__(self, workdir: Path, python: str = sys.executable,
                 source: Path | None = None) -> None:
        """`source`: a copy of src/ to run from (the run's snapshot), else the installed
        package."""
        super().__init__(workdir)
        self.python = python
        self.source = source
        self.datadir = self.vardir / "mysqld.1" / "data"

    def start(self) -> None:
        self._prepare_dirs()
        shutil.rmtree(self.datadir, ignore_errors=True)
        self.datadir.mkdir(parents=True)  # var/mysqld.1/data as in mariadb-test-run
        self._fresh_log()
        loose = [o if o.startswith("--loose-") else o.replace("--", "--loose-", 1)
                 for o in mtr_mysqld_options(self.vardir)]
        cmd = [self.python, "-m", "rampmeter", "serve", *loose, "--port=0",
               "--bind-address=127.0.0.1", f"--socket={self.socket}",
               f"--datadir={self.datadir}", f"--log-error={self.log}",
               "--sqlite-synchronous=OFF"]
        env = {**os.environ, "PYTHONUNBUFFERED": "1"}
        if self.source is not None:
            env["PYTHONPATH"] = os.pathsep.join(filter(None, (str(self.source),
                                                              env.get("PYTHONPATH"))))
        self.process = subprocess.Popen(cmd, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                        stdin=subprocess.DEVNULL, start_new_session=True, env=env)
        m = _wait_log(self.process, self.log, r"port: (\d+)")
        if not m:
            text = self.tail()
            self.stop()
            raise RuntimeError(f"rampmeter did not start:\n{text}")
        self.port = int(m.group(1))
        with self.connect() as conn, conn.cursor() as cur:
            cur.execute(_CREATE_TEST)
            cur.execute("CREATE DATABASE IF NOT EXISTS mtr CHARSET=latin1")
            cur.execute("CREATE TABLE IF NOT EXISTS mtr.test_suppressions "
                        "(pattern VARCHAR(255)) ENGINE=MyISAM")
            cur.execute(_ADD_SUPPRESSION)
            tz = Path("/usr/share/mysql/mysql_test_data_timezone.sql")
            if tz.exists():  # mariadb-test-run's time zone test data, into mysql.time_zone*
                cur.execute("USE mysql")
                for statement in mtr_bootstrap_sql(tz):
                    cur.execute(statement)


# mariadb-test-run's mtr.add_suppression (include/mtr_warnings.sql), which tests CALL
_ADD_SUPPRESSION = ("CREATE DEFINER=root@localhost PROCEDURE mtr.add_suppression(pattern "
                    "VARCHAR(255)) BEGIN INSERT INTO mtr.test_suppressions (pattern) VALUES "
                    "(pattern); FLUSH NO_WRITE_TO_BINLOG TABLE mtr.test_suppressions; END")


def make_workdir(prefix: str) -> Path:
    return Path(tempfile.mkdtemp(prefix=prefix))
