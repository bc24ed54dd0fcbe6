# The sweep: for each target, start it, create the tables, run every workload at every number of
# connections, drop the tables, stop it. Targets run one after another, never side by side: on a
# 2-core machine two servers under load would measure each other.
#
# Rules:
# - Failures belong to a (target, step): a target that cannot start or be prepared marks all its
#   steps failed with the reason; a server that died marks its remaining steps failed; other
#   targets go on. The caller decides the exit code (non-zero only if nothing was measured).
# - Whatever happens (errors, Ctrl-C), every started server is stopped and its temp dir removed,
#   and the tables made on a URL target are dropped (finally blocks, not atexit).
# - Results are written after every step, so an interrupted run keeps what it measured.
# - The load of a step runs on a fresh event loop (loadgen.run_async); this module is plain
#   synchronous code around it.

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from rampmeter.bench import loadgen, prepare, report, sysbench
from rampmeter.bench.probes import Sampler
from rampmeter.bench.results import SKIPPED, StepResult, failed
from rampmeter.bench.targets import HEADROOM, Target, TargetError, TargetSpec
from rampmeter.bench.ui import Ui
from rampmeter.bench.wire import MySQLError
from rampmeter.bench.workloads import WORKLOADS, Settings

BUILTIN_OF = {"oltp_point_select": "point_select", "oltp_read_only": "read_only",
              "oltp_read_write": "read_write"}


@dataclass(frozen=True)
class WorkloadRun:
    """One series of a run: a workload, how it is driven, and its label in every output."""

    label: str
    driver: str            # "builtin" | "sysbench"
    builtin: str = ""      # key of workloads.WORKLOADS
    script: str = ""       # sysbench script
    ps_mode: str = "disable"
    skip_reason: str = ""


def resolve_workload(name: str, ps_modes: list[str], sysbench_path: str | None) -> list[WorkloadRun]:
    """Expand one --workload name (NAME or NAME:ps=MODE) into series; raise ValueError."""
    base, _, suffix = name.strip().partition(":")
    modes = ps_modes
    if suffix:
        mode = suffix.removeprefix("ps=")
        if mode not in sysbench.PS_MODES:
            raise ValueError(f"workload {name!r}: ps mode must be one of {sysbench.PS_MODES}")
        modes = [mode]
    if base in WORKLOADS:
        if suffix:
            raise ValueError(f"workload {base!r} is built-in: it has no --db-ps-mode")
        return [WorkloadRun(base, "builtin", builtin=base)]
    if base not in sysbench.SCRIPTS:
        known = ", ".join([*sysbench.SCRIPTS, *WORKLOADS])
        raise ValueError(f"unknown workload {base!r}; known: {known}")
    runs = []
    for mode in modes:
        label = base if mode == "disable" else f"{base}_ps"
        if sysbench_path:
            runs.append(WorkloadRun(label, "sysbench", script=base, ps_mode=mode))
        elif mode == "disable":  # same statements, as text, from the built-in client
            runs.append(WorkloadRun(label, "builtin", builtin=BUILTIN_OF[base]))
        else:
            runs.append(WorkloadRun(label, "sysbench", script=base, ps_mode=mode,
                                    skip_reason="sysbench is not installed"))
    return runs


@dataclass
class Plan:
    targets: list[TargetSpec]
    workloads: list[WorkloadRun]
    connections: list[int]
    warmup: float
    duration: float
    settings: Settings
    out: Path
    seed: int = 1
    meta: dict[str, Any] = field(default_factory=dict)
    workdir: Path | None = None  # parent of the started servers' temp dirs (None: system temp)


StepHook = Callable[[StepResult, Target], None]


class Runner:
    def __init__(self, plan: Plan, ui: Ui, on_step: StepHook | None = None) -> None:
        self.plan = plan
        self.ui = ui
        self.on_step = on_step
        self.results: list[StepResult] = []
        self.sysbench = sysbench.find()
        self.targets_meta: list[dict[str, Any]] = []

    def run(self) -> list[StepResult]:
        for spec in self.plan.targets:
            self._run_target(spec)
        return self.results

    def _steps(self, spec: TargetSpec) -> list[tuple[WorkloadRun, StepResult]]:
        return [(w, StepResult(spec.label, spec.kind, w.label, w.driver, c))
                for w in self.plan.workloads for c in self.plan.connections]

    def _record(self, result: StepResult, target: Target | None = None) -> None:
        self.results.append(result)
        self.ui.step_done(result)
        self.plan.meta["targets"] = self.targets_meta
        report.write_all(self.plan.out, self.plan.meta, self.results)
        if self.on_step is not None and target is not None:
            self.on_step(result, target)

    def _run_target(self, spec: TargetSpec) -> None:
        steps = self._steps(spec)
        target = Target(spec, workdir_root=self.plan.workdir)
        meta: dict[str, Any] = {"label": spec.label, "kind": spec.kind}
        self.targets_meta.append(meta)
        prepared = None
        try:
            self.ui.note(f"starting {spec.label}")
            try:
                target.start(max(self.plan.connections) + HEADROOM)
                assert target.endpoint is not None
                if not target.version:
                    target.version = str(loadgen.run_async(lambda: _server_version(target)))
                meta.update(command=target.command, version=target.version,
                            endpoint=str(target.endpoint))
                self.ui.note(f"{spec.label}: {target.version} at {target.endpoint}; "
                             f"creating {self.plan.settings.tables} tables of "
                             f"{self.plan.settings.table_size} rows")
                prepared = loadgen.run_async(lambda: prepare.prepare(
                    target.endpoint, self.plan.settings, exclusive=target.exclusive))
            except (TargetError, MySQLError, OSError, TimeoutError) as exc:
                reason = f"target not available: {exc}"
                meta["error"] = reason
                self.ui.note(f"{spec.label}: {reason}", error=True)
                for _, step in steps:
                    self._record(failed(step, reason))
                return
            self._sweep(target, steps)
        finally:
            if prepared is not None and target.dead() is None:
                try:
                    loadgen.run_async(lambda: prepare.cleanup(target.endpoint, prepared))
                except (MySQLError, OSError, TimeoutError) as exc:
                    self.ui.note(f"{spec.label}: could not drop the bench tables: {exc}",
                                 error=True)
            note = target.stop()
            if note:
                self.ui.note(note, error=True)

    def _sweep(self, target: Target, steps: list[tuple[WorkloadRun, StepResult]]) -> None:
        dead = ""
        for workload, step in steps:
            if not dead and (why := target.dead()) is not None:
                dead = self._died(target, why)
            if dead:
                self._record(failed(step, dead), target)
                continue
            if workload.skip_reason:
                step.status, step.error = SKIPPED, workload.skip_reason
                self._record(step, target)
                continue
            self.ui.step_started(step)
            result = self._measure(target, workload, step)
            if (why := target.dead()) is not None:
                dead = self._died(target, why)
                result = failed(result, f"server died during this step ({why})")
            self._record(result, target)

    def _died(self, target: Target, why: str) -> str:
        log = target.log_tail()
        if log:
            self.ui.note(f"{target.spec.label} died; the last lines of its log:\n{log}",
                         error=True)
        return f"server died ({why})"

    def _measure(self, target: Target, workload: WorkloadRun, step: StepResult) -> StepResult:
        assert target.endpoint is not None
        plan = self.plan
        sampler = Sampler(target.probe())
        if workload.driver == "sysbench":
            assert self.sysbench is not None
            binary = self.sysbench
            return loadgen.run_async(lambda: sysbench.run_step(  # type: ignore[return-value]
                binary, workload.script, workload.ps_mode, target.endpoint, plan.settings,
                step, round(plan.warmup), max(1, round(plan.duration)), sampler,
                self.ui.interval))
        spec = WORKLOADS[workload.builtin]
        roles = spec.plan(step.connections, plan.settings)
        run = loadgen.StepRun(target.endpoint, roles, plan.settings, plan.warmup, plan.duration,
                              sampler, self.ui.interval, seed=plan.seed)
        return loadgen.run_async(lambda: run.run(step))  # type: ignore[return-value]


async def _server_version(target: Target) -> str:
    assert target.endpoint is not None
    conn = await target.endpoint.connect(database="", timeout=10.0)
    try:
        return conn.server_version
    finally:
        conn.close()
