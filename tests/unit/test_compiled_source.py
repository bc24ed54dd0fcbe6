"""The compiled hot path's modules type-check as `make compile` needs them to (mypy only, no C):
a type error in one of them does not show in the pure-Python tests but stops the build, and
tests/integration/test_compiled.py is skipped on a machine without a C compiler."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytestmark = pytest.mark.timeout(300)

ROOT = Path(__file__).resolve().parents[2]


def test_the_compiled_modules_type_check():
    pytest.importorskip("mypy")
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "compile_mypyc.py"), "--check"],
                          capture_output=True, text=True, timeout=280)
    assert done.returncode == 0, done.stdout + done.stderr
