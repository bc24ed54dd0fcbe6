"""The compiled hot path: which modules mypyc may compile, and whether this process runs them.

Rules:
- What is compiled: the modules in MODULES, the per-command path of a point select as the
  sysbench profile shows it (docs/performance.md, "Compiled hot path"): the wire protocol
  (protocol/ but auth.py, once per login, and constants.py, enums), the client connection's
  read/flush loop, the session and its command loop and statement dispatch, the SQLite engine's
  session and DML run, the pool's worker loop, group and policy with the priority inputs, and
  the front door's scan cache. Nothing else: the rest of the server runs once per connection or
  per plan, and the profile gives it no weight. pool/timer.py would be next but mypyc cannot
  compile it (`continue` inside try/finally).
- They are compiled from this same source by mypyc (`make compile`, scripts/compile_mypyc.py),
  into extension modules beside their .py files (`*.cpython-*.so`, ignored by git); Python
  imports an extension module in preference to the .py of the same name. `make
  clean-compiled` removes them and the server is pure Python again. Nothing in the server
  depends on being compiled: the pure-Python path is the reference, and CI tests it in full
  (`make test` on a clean machine never compiles); tests/integration/test_compiled.py builds a
  compiled copy of the tree in a temporary directory and runs a real-client smoke set against it.
- What must stay true of these modules' source (mypyc turns annotations into run-time checks
  and classes into C types):
  - they type-check under mypy (the build runs it; an error stops the build), and their
    annotations are true at run time: a value annotated `int`, `str`, `list`, `dict`, `tuple`,
    `bool` or a class of a compiled module is checked where it enters (TypeError if not);
  - their functions and classes are bound when compiled: a call inside a compiled module goes
    straight to the compiled function, so monkeypatching it from outside has no effect there
    (a module-level name bound to a value, like scancache's `_scan = scan`, is still read from
    the module at run time);
  - no attributes added to their instances beyond those the class assigns in its methods, no
    interpreted subclass of their classes unless the class says
    `@mypyc_attr(allow_interpreted_subclasses=True)`;
  - a local variable keeps one type throughout its function.
- A compiled module older than its source is a hazard (the edit would not run): stale() finds
  them and the server's startup log warns of them.
"""

from __future__ import annotations

import importlib.machinery
import importlib.util
import sys
from pathlib import Path

MODULES = (
    "rampmeter.protocol.columns",
    "rampmeter.protocol.commands",
    "rampmeter.protocol.connection",
    "rampmeter.protocol.events",
    "rampmeter.protocol.framing",
    "rampmeter.protocol.packets",
    "rampmeter.protocol.results",
    "rampmeter.protocol.wire",
    "rampmeter.net.connection",
    "rampmeter.session.session",
    "rampmeter.session.commands",
    "rampmeter.session.statements",
    "rampmeter.engine.sqlite.session",
    "rampmeter.engine.sqlite.dml",
    "rampmeter.pool.threadpool",
    "rampmeter.pool.group",
    "rampmeter.sched.policy",
    "rampmeter.sched.priority",
    "rampmeter.sched.snapshot",
    "rampmeter.sql.scancache",
)

# mypyc's shared runtime library for the group (a module of its own, beside the others)
GROUP = "rampmeter.native"

_PACKAGE_DIR = Path(__file__).resolve().parent


def source(module: str, root: Path = _PACKAGE_DIR.parent) -> Path:
    """The .py file of one of MODULES under a source root (the directory holding rampmeter/)."""
    return root.joinpath(*module.split(".")).with_suffix(".py")


def module_name(py: Path, root: Path = _PACKAGE_DIR.parent) -> str:
    """The dotted name of a .py file under a source root."""
    return ".".join(py.relative_to(root).with_suffix("").parts)


def extensions(module: str, root: Path = _PACKAGE_DIR.parent) -> list[Path]:
    """The compiled files of one of MODULES under a source root, if any."""
    py = source(module, root)
    return [py.with_name(py.stem + suffix) for suffix in importlib.machinery.EXTENSION_SUFFIXES
            if py.with_name(py.stem + suffix).exists()]


def native() -> list[str]:
    """The MODULES this process runs (or would import) as compiled extension modules."""
    found = []
    for name in MODULES:
        mod = sys.modules.get(name)
        origin = getattr(mod, "__file__", None) if mod is not None else None
        if origin is None:
            spec = importlib.util.find_spec(name)
            origin = spec.origin if spec is not None else None
        if origin and origin.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)):
            found.append(name)
    return found


def stale(root: Path = _PACKAGE_DIR.parent) -> list[str]:
    """The MODULES whose compiled file is older than their source."""
    return [name for name in MODULES
            if any(ext.stat().st_mtime < source(name, root).stat().st_mtime
                   for ext in extensions(name, root))]


def describe() -> str:
    """One line for the startup log."""
    count = len(native())
    if count == 0:
        return "pure Python"
    return f"{count} of {len(MODULES)} hot-path modules compiled (mypyc)"
