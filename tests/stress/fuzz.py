"""The live fuzzer (issue 10 item 2): many connections send malformed, truncated and oversized
packets at every phase of a real server, then the server must be alive, a normal login must
work, and threads, descriptors and memory must not have grown beyond a small bound.

    python -m tests.stress.fuzz --packets 100000          # `make fuzz`
    run(server, packets=3000, ...)                          # CI's slice (test_fuzz_live.py)

Rules:
- Each connection picks one phase and attacks it: the handshake (garbage or a cut or lying
  handshake response), the auth switch (a caching_sha2 account asked for with the native
  plugin, then garbage), the command phase after a real login (random commands and arguments,
  lying headers, packets cut short, a header announcing more than max_allowed_packet),
  prepared statements (COM_STMT_EXECUTE with bogus ids, parameter counts, types and values;
  COM_STMT_SEND_LONG_DATA to nowhere; COM_STMT_FETCH / RESET / CLOSE of unknown ids) and
  COM_CHANGE_USER with garbage. It reads whatever comes back (briefly), then hangs up: half the
  time politely, half the time abruptly mid-packet.
- Packets are counted as sent (a packet is a header plus what followed it, or a run of raw
  bytes); the figures come back as a Figures record, printed as JSON by the command line.
- Deterministic for a seed: the same packets in the same order per worker.
- Leaks are measured from /proc of the server process after a warm-up slice (the pool's
  threads and caches exist by then), so what is compared is steady state, not start-up.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import socket
import struct
import sys
import threading
import time
from dataclasses import asdict, dataclass, field
from typing import Any

import pymysql

PHASES = ("handshake", "auth_switch", "commands", "prepared", "change_user")
SWITCH_USER, SWITCH_PASSWORD = "fuzz_sha2", "fuzz"
_WAIT = 0.05  # seconds to wait for an answer that may never come


@dataclass
class Figures:
    packets: int = 0
    connections: int = 0
    per_phase: dict[str, int] = field(default_factory=dict)
    seconds: float = 0.0
    errors_answered: int = 0          # ERR packets the server sent back
    alive: bool = False
    threads: tuple[int, int] = (0, 0)        # (after warm-up, after the run)
    fds: tuple[int, int] = (0, 0)
    rss_kib: tuple[int, int] = (0, 0)
    log_lines: int = 0                # "Aborted connection" lines the run added to the log
    internal_errors: int = 0          # tracebacks in the log: each one is a bug of ours


def proc_figures(pid: int) -> tuple[int, int, int]:
    """(threads, open descriptors, RSS KiB) of a process."""
    threads = len(os.listdir(f"/proc/{pid}/task"))
    fds = len(os.listdir(f"/proc/{pid}/fd"))
    with open(f"/proc/{pid}/status") as f:
        rss = next(int(line.split()[1]) for line in f if line.startswith("VmRSS:"))
    return threads, fds, rss


def _frame(payload: bytes, seq: int) -> bytes:
    return len(payload).to_bytes(3, "little") + bytes((seq & 0xFF,)) + payload


class _Attack:
    def __init__(self, host: str, port: int, rng: random.Random, max_packet: int) -> None:
        self.host, self.port, self.rng, self.max_packet = host, port, rng, max_packet
        self.sent = 0
        self.errors = 0

    # --- pieces ---------------------------------------------------------------------------
    def _garbage(self, n: int = 64) -> bytes:
        return self.rng.randbytes(self.rng.randint(0, n))

    def _lying_header(self) -> bytes:
        r = self.rng
        size = r.choice([0, 1, 5, 0xFFFFFF, self.max_packet + 1, r.randint(0, 1 << 20)])
        return size.to_bytes(3, "little") + bytes((r.randint(0, 255),)) + self._garbage(32)

    def _command(self) -> bytes:
        r = self.rng
        cmd = r.choice([0x00, 0x01, 0x02, 0x03, 0x04, 0x05, 0x06, 0x07, 0x08, 0x09, 0x0a, 0x0c,
                        0x0d, 0x0e, 0x0f, 0x10, 0x11, 0x16, 0x17, 0x18, 0x19, 0x1a, 0x1b, 0x1c,
                        0x1d, 0x1e, 0x1f, 0x20, 0xfa, 0xfe, 0xff])
        return bytes((cmd,)) + self._garbage()

    def _execute(self, real_id: int) -> bytes:
        r = self.rng
        if r.random() < 0.3:  # well formed for `SELECT ?, ?`, then possibly cut short
            payload = (b"\x17" + struct.pack("<IBI", real_id, 0, 1) + b"\x00\x01"
                       + b"\x08\x00\xfd\x00" + struct.pack("<q", r.randint(-9, 9))
                       + b"\x03abc")
            return payload[: r.choice([len(payload), r.randint(1, len(payload))])]
        stmt_id = r.choice([real_id, real_id + 1, 0, 0xFFFFFFFF, r.randint(0, (1 << 32) - 1)])
        params = r.choice([b"", b"\x00", b"\x01" + self._garbage(8), self._garbage(40)])
        types = b"".join(struct.pack("<BB", r.choice([0, 1, 3, 8, 10, 12, 15, 246, 252, 253,
                                                      254, 255, r.randint(0, 255)]),
                                     r.choice([0, 0x80]))
                         for _ in range(r.randint(0, 4)))
        return (b"\x17" + struct.pack("<IBI", stmt_id, r.randint(0, 255), r.randint(0, 3))
                + self._garbage(2) + params[:1] + types + self._garbage(24))

    def _long_data(self, real_id: int) -> bytes:
        r = self.rng
        return b"\x18" + struct.pack("<IH", r.choice([real_id, 0, 99999]),
                                     r.randint(0, 0xFFFF)) + self._garbage(200)

    # --- sockets --------------------------------------------------------------------------
    def _socket(self) -> socket.socket:
        sock = socket.create_connection((self.host, self.port), timeout=10)
        sock.settimeout(_WAIT)
        return sock

    def _send(self, sock: socket.socket, data: bytes) -> bool:
        self.sent += 1
        try:
            sock.sendall(data)
            return True
        except OSError:
            return False

    def _drain(self, sock: socket.socket) -> None:
        try:
            data = sock.recv(65536)
        except (TimeoutError, OSError):
            return
        if b"\xff" in data[4:5]:
            self.errors += 1

    def _hang_up(self, sock: socket.socket) -> None:
        if self.rng.random() < 0.5:  # abruptly, with a packet begun
            self._send(sock, b"\xff\xff\x00\x00" + self._garbage(8))
        else:
            self._send(sock, _frame(b"\x01", 0))  # COM_QUIT
        sock.close()

    def _login(self) -> tuple[pymysql.Connection, socket.socket]:
        conn = pymysql.connect(host=self.host, port=self.port, user="root", password="",
                               ssl_disabled=True, connect_timeout=10)
        sock = conn._sock
        sock.settimeout(_WAIT)
        return conn, sock

    # --- phases ---------------------------------------------------------------------------
    def handshake(self, count: int) -> None:
        sock = self._socket()
        self._drain(sock)  # the greeting
        r = self.rng
        for i in range(count):
            choice = r.random()
            if choice < 0.3:
                data = _frame(self._garbage(120), 1)
            elif choice < 0.5:
                data = _frame(struct.pack("<IIB23s", r.randint(0, (1 << 32) - 1), 1 << 24, 45,
                                          b"") + self._garbage(60), 1)[: r.randint(1, 90)]
            elif choice < 0.7:
                data = self._lying_header()
            else:
                data = self._garbage(200)
            if not self._send(sock, data) or i % 4 == 3:
                break
            self._drain(sock)
        self._hang_up(sock)

    def auth_switch(self, count: int) -> None:
        sock = self._socket()
        try:
            greeting = sock.recv(65536)
        except (TimeoutError, OSError):
            greeting = b""
        caps = 0x000FA68D | 0x00080000  # PROTOCOL_41, SECURE_CONNECTION, PLUGIN_AUTH...
        body = struct.pack("<IIB23s", caps, 1 << 24, 45, b"") + SWITCH_USER.encode() + b"\0"
        body += bytes((20,)) + self.rng.randbytes(20) + b"mysql_native_password\0"
        self._send(sock, _frame(body, 1))
        if greeting:
            self._drain(sock)  # the switch request (or an error)
        for i in range(count - 1):
            data = _frame(self._garbage(100), 3 + i) if self.rng.random() < 0.7 \
                else self._lying_header()
            if not self._send(sock, data):
                break
            self._drain(sock)
        self._hang_up(sock)

    def commands(self, count: int) -> None:
        conn, sock = self._login()
        for _ in range(count):
            choice = self.rng.random()
            if choice < 0.6:
                data = _frame(self._command(), 0)
            elif choice < 0.75:
                data = _frame(self._command(), self.rng.randint(1, 255))
            elif choice < 0.9:
                data = self._lying_header()
            else:
                data = _frame(self._command(), 0)[: self.rng.randint(1, 10)]
            if not self._send(sock, data):
                break
            self._drain(sock)
        self._hang_up(sock)
        del conn

    def prepared(self, count: int) -> None:
        conn, sock = self._login()
        sock.settimeout(2)
        self._send(sock, _frame(b"\x16SELECT ?, ?", 0))
        real_id = 1
        try:
            head = sock.recv(65536)
            if head[4:5] == b"\x00":
                real_id = struct.unpack("<I", head[5:9])[0]
        except (TimeoutError, OSError):
            pass
        sock.settimeout(_WAIT)
        for _ in range(count - 1):
            r = self.rng.random()
            if r < 0.5:
                payload = self._execute(real_id)
            elif r < 0.7:
                payload = self._long_data(real_id)
            else:
                payload = bytes((self.rng.choice([0x19, 0x1a, 0x1c]),)) + struct.pack(
                    "<I", self.rng.choice([real_id, 0, 77777])) + self._garbage(8)
            if not self._send(sock, _frame(payload, 0)):
                break
            self._drain(sock)
        self._hang_up(sock)
        del conn

    def change_user(self, count: int) -> None:
        conn, sock = self._login()
        for _ in range(count):
            payload = b"\x11" + (self._garbage(80) if self.rng.random() < 0.6 else
                                 b"root\0" + bytes((20,)) + self.rng.randbytes(20) +
                                 self._garbage(20))
            if not self._send(sock, _frame(payload, 0)):
                break
            self._drain(sock)
        self._hang_up(sock)
        del conn


def _worker(host: str, port: int, seed: int, quota: int, max_packet: int,
            out: dict[str, Any], lock: threading.Lock) -> None:
    rng = random.Random(seed)
    attack = _Attack(host, port, rng, max_packet)
    connections = 0
    per_phase: dict[str, int] = {}
    while attack.sent < quota:
        phase = rng.choice(PHASES)
        try:
            getattr(attack, phase)(rng.randint(1, 12))
        except (OSError, pymysql.MySQLError):
            pass  # a refused or dropped connection is an answer too
        connections += 1
        per_phase[phase] = per_phase.get(phase, 0) + 1
    with lock:
        out["packets"] += attack.sent
        out["errors"] += attack.errors
        out["connections"] += connections
        for k, v in per_phase.items():
            out["per_phase"][k] = out["per_phase"].get(k, 0) + v


def prepare(host: str, port: int) -> None:
    """The account the auth-switch phase asks for."""
    conn = pymysql.connect(host=host, port=port, user="root", password="", ssl_disabled=True)
    with conn.cursor() as cur:
        cur.execute(f"CREATE USER IF NOT EXISTS '{SWITCH_USER}'@'%' IDENTIFIED VIA "
                    f"caching_sha2_password USING PASSWORD('{SWITCH_PASSWORD}')")
    conn.close()


def attack(host: str, port: int, packets: int, workers: int = 4, seed: int = 1,
           max_packet: int = 1 << 20) -> dict[str, Any]:
    out: dict[str, Any] = {"packets": 0, "errors": 0, "connections": 0, "per_phase": {}}
    lock = threading.Lock()
    threads = [threading.Thread(target=_worker, args=(host, port, seed * 1000 + w,
                                                      packets // workers, max_packet, out, lock))
               for w in range(workers)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return out


def normal_login_works(host: str, port: int) -> bool:
    try:
        conn = pymysql.connect(host=host, port=port, user="root", password="",
                               ssl_disabled=True, connect_timeout=10)
        with conn.cursor() as cur:
            cur.execute("SELECT 1")
            ok = cur.fetchone() == (1,)
        conn.close()
        return ok
    except pymysql.MySQLError:
        return False


def connected(host: str, port: int) -> int:
    conn = pymysql.connect(host=host, port=port, user="root", password="", ssl_disabled=True)
    with conn.cursor() as cur:
        cur.execute("SHOW GLOBAL STATUS LIKE 'Threads_connected'")
        n = int(cur.fetchone()[1])
    conn.close()
    return n - 1


def settle(host: str, port: int, timeout: float = 30.0) -> None:
    """Wait until the server holds no connection but the one asking."""
    deadline = time.monotonic() + timeout
    while connected(host, port) > 0:
        if time.monotonic() > deadline:
            raise AssertionError("connections were not cleaned up")
        time.sleep(0.05)


def run(host: str, port: int, pid: int, packets: int, *, warmup: int = 1000, workers: int = 4,
        seed: int = 1, log: Any = None) -> Figures:
    """Warm up, measure, fuzz `packets` packets, settle, measure again."""
    prepare(host, port)
    attack(host, port, warmup, workers, seed + 7919)
    settle(host, port)
    before = proc_figures(pid)
    lines_before = log() if log is not None else 0
    internal_before = log("Traceback") if log is not None else 0
    t0 = time.monotonic()
    out = attack(host, port, packets, workers, seed)
    seconds = time.monotonic() - t0
    settle(host, port)
    after = proc_figures(pid)
    return Figures(packets=out["packets"], connections=out["connections"],
                   per_phase=out["per_phase"], seconds=round(seconds, 1),
                   errors_answered=out["errors"], alive=normal_login_works(host, port),
                   threads=(before[0], after[0]), fds=(before[1], after[1]),
                   rss_kib=(before[2], after[2]),
                   log_lines=(log() - lines_before) if log is not None else 0,
                   internal_errors=(log("Traceback") - internal_before) if log else 0)


def start_logged(datadir: Any) -> tuple[Any, Any]:
    """A server process whose log is read as it is written; returns it and a function that
    counts its lines containing a text ("Aborted connection" by default) so far."""
    from tests.conftest import start_process

    server = start_process(datadir, "--max-allowed-packet=1048576")
    lines: list[str] = []
    stdout = server.process.stdout
    threading.Thread(target=lambda: lines.extend(stdout), daemon=True).start()

    def count(what: str = "Aborted connection") -> int:
        return sum(what in x for x in list(lines))

    return server, count


def main(argv: list[str] | None = None) -> int:
    """Start a server of its own (a subprocess), fuzz it, print the figures as JSON."""
    parser = argparse.ArgumentParser(prog="python -m tests.stress.fuzz")
    parser.add_argument("--packets", type=int, default=100_000)
    parser.add_argument("--workers", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    import tempfile
    from pathlib import Path

    with tempfile.TemporaryDirectory(prefix="rampmeter-fuzz-") as tmp:
        server, count_lines = start_logged(Path(tmp))
        try:
            figures = run(server.host, server.port, server.process.pid, args.packets,
                          workers=args.workers, seed=args.seed, log=count_lines)
        finally:
            server.process.send_signal(15)
            server.process.wait(30)
    print(json.dumps(asdict(figures), indent=2))
    return 0 if figures.alive else 1


if __name__ == "__main__":
    sys.exit(main())
