# The built-in load generator: one step (a workload at a number of connections) on one asyncio
# event loop in this process.
#
# Rules:
# - Connections are opened before the clock starts, at most CONNECT_CONCURRENCY handshakes at a
#   time (a storm of 2048 simultaneous SYNs overflows a listen backlog and measures the backlog,
#   not the server). Failures (1040 Too many connections, refused, timeouts) are counted and the
#   step goes on with the connections it got; it fails only if it got none.
# - Then every connection loops over its role's event. Closed loop: an event starts when the
#   previous one finished; latency is the wall time of the event as the client sees it.
# - The clock ticks every second (and at the warm-up's end): each tick drains the latencies of
#   the past second, prints a sysbench-style line, and after the warm-up feeds the step's
#   histograms. Events are counted when they complete inside the measured window.
# - At the window's end no new event starts; events in flight get GRACE_S to finish (a long
#   statement cancelled mid-way would keep the server busy into the next step), then are cut.
# - A lost connection is an error plus a reconnect (sysbench's reconn/s); a server that died
#   (the probe says so) ends the step at once.
# - uvloop is used when installed: it more than halves the client's CPU per statement (wire.py).

from __future__ import annotations

import asyncio
import random
import resource
import time
from collections import Counter
from collections.abc import Callable

from rampmeter.bench.histogram import Latencies
from rampmeter.bench.probes import Sampler
from rampmeter.bench.results import FAILED, ClassStats, Interval, StepResult
from rampmeter.bench.wire import Connection, ConnectionLost, Endpoint, MySQLError
from rampmeter.bench.workloads import Role, Settings

CONNECT_CONCURRENCY = 32
CONNECT_TIMEOUT_S = 10.0
GIVE_UP_AFTER = 64          # failed handshakes in a row with none succeeding: stop trying
GRACE_S = 5.0
RECONNECT_BACKOFF_S = 0.1


class _Class:
    """Counters of one role; the *_tick fields are reset by every tick."""

    def __init__(self, name: str) -> None:
        self.name = name
        self.connections = 0
        self.buf: list[float] = []
        self.events_tick = self.queries_tick = self.errors_tick = self.reconn_tick = 0
        self.events = self.queries = self.errors = self.reconnects = 0
        self.hist = Latencies()


class StepRun:
    def __init__(self, endpoint: Endpoint, roles: list[Role], settings: Settings,
                 warmup: float, duration: float, sampler: Sampler,
                 on_interval: Callable[[Interval], None], seed: int = 1) -> None:
        self.endpoint = endpoint
        self.roles = [r for r in roles if r.count > 0]
        self.settings = settings
        self.warmup = warmup
        self.duration = duration
        self.sampler = sampler
        self.on_interval = on_interval
        self.seed = seed
        self.classes = {r.name: _Class(r.name) for r in roles}
        self.headline = self.classes[roles[0].name]
        self.stopping = False
        self.measuring = False
        self.server_cpu_s: float | None = None
        self.conns: list[Connection] = []
        self.connect_errors: Counter[str] = Counter()
        self.statement_errors: Counter[str] = Counter()

    # -- connecting ---------------------------------------------------------------------------

    async def _open(self, sem: asyncio.Semaphore, deadline: float) -> Connection | None:
        async with sem:
            remaining = deadline - time.monotonic()
            if remaining <= 0 or (sum(self.connect_errors.values()) >= GIVE_UP_AFTER
                                  and not self.conns):
                self.connect_errors["not attempted: earlier connections failed or timed out"] += 1
                return None
            try:
                conn = await self.endpoint.connect(timeout=min(CONNECT_TIMEOUT_S, remaining))
            except MySQLError as exc:
                self.connect_errors[f"{exc.code} {exc.message}"] += 1
                return None
            except (OSError, TimeoutError) as exc:
                self.connect_errors[_describe(exc)] += 1
                return None
            self.conns.append(conn)
            return conn

    async def _open_all(self) -> list[tuple[Role, Connection]]:
        total = sum(r.count for r in self.roles)
        sem = asyncio.Semaphore(CONNECT_CONCURRENCY)
        deadline = time.monotonic() + max(30.0, total * 0.05)
        wanted = [r for r in self.roles for _ in range(r.count)]  # headline role first
        got = await asyncio.gather(*(self._open(sem, deadline) for _ in wanted))
        return [(r, c) for r, c in zip(wanted, got) if c is not None]

    # -- the load -----------------------------------------------------------------------------

    async def _reconnect(self, cls: _Class) -> Connection | None:
        while not self.stopping:
            try:
                conn = await self.endpoint.connect(timeout=CONNECT_TIMEOUT_S)
            except (MySQLError, OSError, TimeoutError):
                await asyncio.sleep(RECONNECT_BACKOFF_S)
                continue
            cls.reconn_tick += 1
            self.conns.append(conn)
            return conn
        return None

    async def _worker(self, role: Role, conn: Connection, rng: random.Random) -> None:
        cls = self.classes[role.name]
        event, settings, perf = role.event, self.settings, time.perf_counter
        assert event is not None
        while not self.stopping:
            t0 = perf()
            try:
                n = await event(conn, rng, settings)
            except ConnectionLost as exc:
                if self.stopping:
                    return
                cls.errors_tick += 1
                self.statement_errors[f"{exc.code} {exc.message}"] += 1
                new = await self._reconnect(cls)
                if new is None:
                    return
                conn = new
                continue
            except MySQLError as exc:
                if self.stopping:
                    return
                cls.errors_tick += 1
                self.statement_errors[f"{exc.code} {exc.message}"] += 1
                continue
            if self.stopping:
                return
            cls.buf.append((perf() - t0) * 1e6)
            cls.events_tick += 1
            cls.queries_tick += n

    # -- the clock ----------------------------------------------------------------------------

    def _tick(self, t: float, span: float) -> None:
        threads = sum(1 for c in self.conns if not c.closed)
        queries = errors = reconns = 0
        p95 = 0.0
        for cls in self.classes.values():
            batch, cls.buf = cls.buf, []
            if self.measuring:
                batch_p95 = cls.hist.absorb(batch)
                cls.events += cls.events_tick
                cls.queries += cls.queries_tick
                cls.errors += cls.errors_tick
                cls.reconnects += cls.reconn_tick
            else:
                batch_p95 = Latencies().absorb(batch) if cls is self.headline else 0.0
            if cls is self.headline:
                p95, events = batch_p95, cls.events_tick
            queries += cls.queries_tick
            errors += cls.errors_tick
            reconns += cls.reconn_tick
            cls.events_tick = cls.queries_tick = cls.errors_tick = cls.reconn_tick = 0
        span = max(span, 1e-6)
        self.on_interval(Interval(round(t, 3), not self.measuring, threads, events / span,
                                  queries / span, p95, errors / span, reconns / span))

    def _schedule(self) -> list[float]:
        end = self.warmup + self.duration
        marks = {float(k) for k in range(1, int(end) + 1)} | {self.warmup, end}
        return sorted(m for m in marks if 0 < m <= end)

    async def _clock(self, start: float) -> tuple[float, float, str | None]:
        """Run the warm-up and the window; return (window seconds, client CPU, death). The
        server's CPU over the window goes to self.server_cpu_s (None when unknown)."""
        last = start
        window_start = start if self.warmup <= 0 else None
        cpu0 = _cpu() if window_start is not None else 0.0
        server0 = self.sampler.cpu_seconds() if window_start is not None else None
        self.measuring = window_start is not None
        for mark in self._schedule():
            await asyncio.sleep(max(0.0, start + mark - time.perf_counter()))
            now = time.perf_counter()
            dead = self.sampler.dead()
            if mark >= self.warmup + self.duration or dead:
                self.stopping = True
            self._tick(now - start, now - last)
            last = now
            if dead:
                return now - (window_start or now), 0.0, dead
            if window_start is None and mark >= self.warmup:
                window_start, cpu0 = now, _cpu()
                server0 = self.sampler.cpu_seconds()
                self.measuring = True
        assert window_start is not None
        span = last - window_start
        server1 = self.sampler.cpu_seconds()
        if server0 is not None and server1 is not None:
            self.server_cpu_s = server1 - server0
        return span, (_cpu() - cpu0) / max(span, 1e-6), None

    async def run(self, result: StepResult) -> StepResult:
        await self.sampler.start()
        t0 = time.perf_counter()
        pairs = await self._open_all()
        result.connect_s = time.perf_counter() - t0
        result.connections_open = len(pairs)
        result.connect_errors = sum(self.connect_errors.values())
        if not pairs:
            await self.sampler.stop()
            result.status = FAILED
            result.error = _top(self.connect_errors) or "no connection could be opened"
            return result
        for role, _ in pairs:
            self.classes[role.name].connections += 1
        tasks = [asyncio.create_task(self._worker(role, conn, random.Random(self.seed * 7919 + i)))
                 for i, (role, conn) in enumerate(pairs) if role.event is not None]
        start = time.perf_counter()
        try:
            span, cpu, dead = await self._clock(start)
        finally:
            self.stopping = True
            if tasks:
                _, pending = await asyncio.wait(tasks, timeout=GRACE_S)
                for task in pending:
                    task.cancel()
                await asyncio.gather(*tasks, return_exceptions=True)
            await self.sampler.stop()
            for conn in self.conns:
                conn.close()
        self._fill(result, span, cpu)
        if dead:
            result.status, result.error = FAILED, dead
        return result

    def _fill(self, result: StepResult, span: float, cpu: float) -> None:
        span = max(span, 1e-6)
        result.duration_s = span
        result.client_cpu = cpu
        for name, cls in self.classes.items():
            result.classes[name] = ClassStats(
                connections=cls.connections, events=cls.events, queries=cls.queries,
                errors=cls.errors, per_s=round(cls.events / span, 2),
                latency=cls.hist.summary())
        head = result.classes[self.headline.name]
        result.events, result.tps, result.latency = head.events, head.per_s, head.latency
        result.queries = sum(c.queries for c in self.classes.values())
        result.qps = result.queries / span
        result.errors = sum(c.errors for c in self.classes.values())
        result.reconnects = sum(c.reconnects for c in self.classes.values())
        result.server_threads = self.sampler.threads
        result.server_rss_mb = self.sampler.rss_mb
        result.server_stats_from = self.sampler.source
        if self.server_cpu_s is not None:
            result.server_cpu = self.server_cpu_s / span
        if self.connect_errors or self.statement_errors:
            result.error = _top(self.connect_errors + self.statement_errors)


def _cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _describe(exc: BaseException) -> str:
    if isinstance(exc, TimeoutError):
        return "connect timed out"
    return f"{type(exc).__name__}: {exc.strerror or exc}" if isinstance(exc, OSError) else str(exc)


def _top(counts: Counter[str]) -> str:
    """The most frequent message and how often it came, e.g. "1040 Too many connections (x12)"."""
    if not counts:
        return ""
    message, n = counts.most_common(1)[0]
    others = sum(counts.values()) - n
    return f"{message} (x{n})" + (f"; {others} other errors" if others else "")


def new_event_loop() -> asyncio.AbstractEventLoop:
    try:
        import uvloop
    except ImportError:
        return asyncio.new_event_loop()
    return uvloop.new_event_loop()


def run_async(coro_factory: Callable[[], object]) -> object:
    """Run a coroutine on a fresh (uv)loop: each step gets its own."""
    with asyncio.Runner(loop_factory=new_event_loop) as runner:
        return runner.run(coro_factory())  # type: ignore[arg-type]
