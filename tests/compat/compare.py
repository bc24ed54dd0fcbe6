"""Running the same steps on MariaDB and rampmeter and asserting the answers are the same.

Rules:
- Values compare exactly, type included: each value becomes (type name, repr), so Decimal('2.50')
  differs from Decimal('2.5') and from 2.5, bytes from str and bytearray, and a datetime's
  microseconds count.
- Per step a test picks what it compares ("checks"); the default is what every client sees:
  rows, error (code and SQLSTATE), rowcount, lastrowid, and warnings (count, level and code).
  Metadata is compared on the steps that are about it (`columns=` indices), not on every
  incidental SELECT. "columns" adds the metadata clients act on: name, type code, decimals, charset (63 = binary)
  and the UNSIGNED / ZEROFILL / BINARY flags; "length" the column length; "message" the error
  text; "warning_text" the warnings' text; "prepare_columns" the COM_STMT_PREPARE definitions
  (raw-bin only). A field the driver does not expose is None on both sides.
- What legitimately differs between two servers (version strings, connection ids, times of
  day) must not be selected by a test; nothing here masks values.
- MariaDB is the oracle: a test asserts what MariaDB answered before comparing, so a test that
  is wrong about MariaDB fails as itself, not as a difference.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from tests.compat.drivers import Outcome, Step

UNSIGNED_FLAG, ZEROFILL_FLAG, BINARY_FLAG = 32, 64, 128
FLAG_MASK = UNSIGNED_FLAG | ZEROFILL_FLAG | BINARY_FLAG
DEFAULT = ("rows", "error", "rowcount", "lastrowid", "warnings")
WITH_COLUMNS = (*DEFAULT, "columns")
MAX_STEPS_SHOWN = 6


def canon(value: Any) -> Any:
    if isinstance(value, tuple | list):
        return tuple(canon(v) for v in value)
    return (type(value).__name__, repr(value))


# Decimals mean something to clients for numbers and times only (for strings MariaDB sends 39,
# "not fixed", which no driver reads).
DECIMALS_MATTER = {0, 4, 5, 246, 7, 10, 11, 12, 17, 18, 19}


def _columns(cols: Any) -> Any:
    if cols is None:
        return None
    return tuple((c.name, c.type_code, c.decimals if c.type_code in DECIMALS_MATTER else "-",
                  c.charset, None if c.flags is None else c.flags & FLAG_MASK) for c in cols)


def view(o: Outcome, checks: Iterable[str]) -> dict[str, Any]:
    picks: dict[str, Any] = {}
    for check in checks:
        if check == "rows":
            picks[check] = canon(o.rows) if o.rows is not None else None
        elif check == "error":
            picks[check] = o.error[:2] if o.error else None
        elif check == "message":
            picks[check] = o.error[2] if o.error else None
        elif check in ("rowcount", "lastrowid"):
            picks[check] = getattr(o, check) if o.error is None else None
        elif check == "warnings":
            picks[check] = (o.warning_count, tuple((w[0], w[1]) for w in o.warnings))
        elif check == "warning_text":
            picks[check] = tuple(w[2] for w in o.warnings)
        elif check in ("columns", "prepare_columns"):
            picks[check] = _columns(getattr(o, check))
        elif check == "length":
            picks[check] = None if o.columns is None else tuple(c.length for c in o.columns)
        else:
            raise ValueError(f"unknown check {check!r}")
    return picks


def show(sql: str | bytes, limit: int = 160) -> str:
    text = sql if isinstance(sql, str) else repr(sql)
    return text if len(text) <= limit else text[:limit] + f"... ({len(text)} chars)"


@dataclass
class Answers:
    """What one driver got from both servers for the same steps."""

    driver: str
    steps: Sequence[Step]
    maria: list[Outcome]
    ramp: list[Outcome]

    def differences(self, checks: Iterable[str] = DEFAULT, only: Iterable[int] | None = None,
                    columns: Iterable[int] = ()) -> list[str]:
        base = tuple(checks)
        n = len(self.steps)
        wanted = set(range(n) if only is None else (i % n for i in only))
        with_columns = {i % n for i in columns}
        lines: list[str] = []
        shown = 0
        for i, (m, r) in enumerate(zip(self.maria, self.ramp)):
            if i not in wanted:
                continue
            checks = (*base, "columns") if i in with_columns and "columns" not in base else base
            mv, rv = view(m, checks), view(r, checks)
            if mv != rv:
                shown += 1
                if shown > MAX_STEPS_SHOWN:
                    continue
                lines.append(f"step {i} [{self.driver}] {show(self.steps[i].sql)}")
                # when one side failed, the rest of that step's fields only repeat it
                keys = ("error", "rows") if mv.get("error") != rv.get("error") else checks
                for key in keys:
                    if key in mv and mv[key] != rv[key]:
                        lines.append(f"    {key}: mariadb={_short(mv[key])}")
                        lines.append(f"    {' ' * len(key)}  rampmeter={_short(rv[key])}")
                        if key == "error" and r.error:
                            lines.append(f"    rampmeter message: {r.error[2][:200]}")
        if shown > MAX_STEPS_SHOWN:
            lines.append(f"... and {shown - MAX_STEPS_SHOWN} more steps differ")
        return lines

    def assert_same(self, checks: Iterable[str] = DEFAULT, only: Iterable[int] | None = None,
                    columns: Iterable[int] = ()) -> None:
        """Compare `checks` on the steps `only` (default all) and the column metadata too on
        the steps `columns` (indices, negative ones count from the end)."""
        lines = self.differences(checks, only, columns)
        assert not lines, "rampmeter differs from MariaDB:\n" + "\n".join(lines)


def _short(value: Any, limit: int = 300) -> str:
    text = repr(value)
    return text if len(text) <= limit else text[:limit] + "..."
