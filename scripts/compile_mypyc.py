"""Compile rampmeter's hot-path modules (rampmeter.compiled.MODULES) with mypyc, in place.

  .venv/bin/python scripts/compile_mypyc.py              # src/ of this checkout (make compile)
  .venv/bin/python scripts/compile_mypyc.py --src DIR    # another tree's source root
  .venv/bin/python scripts/compile_mypyc.py --clean      # remove them (make clean-compiled)
  .venv/bin/python scripts/compile_mypyc.py --check      # mypy only, no C (make lint)

mypy type-checks the modules first (an error stops the build: see rampmeter/compiled.py for the
rules the source must keep), mypyc turns them into C, and the C compiler builds one extension
module per source module plus the group's shared runtime (rampmeter/native__mypyc*.so), all
beside the .py files. The generated C and objects go to build/mypyc/ under the source root's
parent. Needs mypy (`pip install -e '.[compile]'`), a C compiler and Python's headers.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent


def _modules(src: Path) -> tuple[tuple[str, ...], str]:
    sys.path.insert(0, str(src))
    from rampmeter import compiled  # the list, from the tree being built

    return compiled.MODULES, compiled.GROUP


def clean(src: Path) -> list[Path]:
    """Every extension module beside a .py of the same name (also those of modules no longer
    listed), and the group's runtime."""
    _, group = _modules(src)
    from rampmeter import compiled

    removed = [ext for py in sorted((src / "rampmeter").rglob("*.py"))
               for ext in compiled.extensions(compiled.module_name(py, src), src)]
    removed += compiled.extensions(group + "__mypyc", src)  # mypyc names it so
    for path in removed:
        path.unlink()
    return removed


def build(src: Path, opt_level: str) -> None:
    from mypyc.build import mypycify  # imported late: --clean needs no mypy
    from setuptools import setup

    modules, group = _modules(src)
    from rampmeter import compiled

    root = src.parent
    os.chdir(root)  # mypy names modules from paths relative to here (src/rampmeter/...)
    paths = [str(compiled.source(name, src).relative_to(root)) for name in modules]
    # the modules it imports are read for their types, not held to the compiled ones' rules
    extensions = mypycify(["--follow-imports=silent", *paths], opt_level=opt_level,
                          group_name=group,
                          target_dir=str(root / "build" / "mypyc"))
    setup(name="rampmeter-compiled", ext_modules=extensions,
          package_dir={"": str(src.relative_to(root))},
          script_args=["--quiet", "build_ext", "--inplace",
                       "--build-temp", str(root / "build" / "mypyc" / "temp")])


def check(src: Path) -> int:
    """mypy over the compiled modules as the build runs it, without generating C: the quick
    way for anyone who edits one of them to keep it compilable (pure-Python tests cannot see
    a type error that would stop `make compile`)."""
    from mypy import api

    modules, _ = _modules(src)
    from rampmeter import compiled

    root = src.parent
    os.chdir(root)
    paths = [str(compiled.source(name, src).relative_to(root)) for name in modules]
    out, err, status = api.run(["--follow-imports=silent", *paths])
    sys.stdout.write(out)
    sys.stderr.write(err)
    return status


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--src", type=Path, default=HERE / "src",
                    help="the source root holding rampmeter/ (default: this checkout's src)")
    ap.add_argument("--clean", action="store_true", help="remove the compiled modules")
    ap.add_argument("--opt-level", default="3", help="the C compiler's -O level (default 3)")
    ap.add_argument("--check", action="store_true", help="type-check the modules only")
    args = ap.parse_args()
    src = args.src.resolve()
    if args.check:
        sys.exit(check(src))
    if args.clean:
        for path in clean(src):
            print(f"removed {path}")
        return
    started = time.monotonic()
    build(src, args.opt_level)
    print(f"compiled {len(_modules(src)[0])} modules in {time.monotonic() - started:.0f} s")


if __name__ == "__main__":
    main()
