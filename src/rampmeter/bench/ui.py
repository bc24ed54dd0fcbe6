# What a person watches while the bench runs: a rich progress bar over all steps, sysbench-style
# lines every second above it, one summary line per finished step, and notes.
#
# Rules:
# - Output only; no decisions. Lines go to stdout through rich's Console, which keeps the bar
#   at the bottom on a terminal and prints plain lines when stdout is a file or a pipe.
# - `quiet` drops the per-second lines (tests, CI), never the step lines or the errors.

from __future__ import annotations

from rich.console import Console
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from rampmeter.bench.report import interval_line, step_line
from rampmeter.bench.results import Interval, StepResult


class Ui:
    def __init__(self, total_steps: int, quiet: bool = False,
                 console: Console | None = None) -> None:
        self.console = console or Console(highlight=False)
        self.quiet = quiet
        self.progress = Progress(
            TextColumn("[bold]{task.description}"), BarColumn(), MofNCompleteColumn(),
            TextColumn("steps"), TimeElapsedColumn(), console=self.console,
            disable=not self.console.is_terminal)
        self.task = self.progress.add_task("bench", total=total_steps)

    def __enter__(self) -> Ui:
        self.progress.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self.progress.stop()

    def print(self, text: str, style: str | None = None) -> None:
        self.console.print(escape(text), style=style, soft_wrap=True)

    def note(self, text: str, error: bool = False) -> None:
        self.print(("! " if error else "# ") + text, style="red" if error else "cyan")

    def step_started(self, step: StepResult) -> None:
        desc = f"{step.target} {step.workload} @{step.connections}"
        self.progress.update(self.task, description=desc)
        self.print(f"--- {desc}: {step.connections} connections, driver {step.driver}",
                   style="bold")

    def interval(self, iv: Interval) -> None:
        if not self.quiet:
            self.print(interval_line(iv), style="dim" if iv.warmup else None)

    def step_done(self, result: StepResult) -> None:
        self.progress.advance(self.task)
        style = None if result.ok else ("yellow" if result.status == "skipped" else "red")
        self.print(step_line(result), style=style)
