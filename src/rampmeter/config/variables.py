"""The live global values of the system variables, and who wants to hear when one changes.

Rules:
- `GlobalVariables` holds one value per registry option, starting from the defaults overlaid with
  the command line and option files. Reads are plain dict lookups (a snapshot of a single value
  needs no lock); writes take the lock, validate through `Option.coerce`, store, then call the
  listeners registered for that name outside the lock (a listener may take its own locks, e.g.
  the thread pool resizing its groups).
- A component that cannot honour every valid value registers a validator (`on_validate`): it
  runs before the value is stored and refuses with a ServerError (the thread_handling switch
  cannot reach or leave no-threads).
- Runtime limits that depend on the start-up value live here, next to the value:
  thread_pool_size may grow at run time only to max(128, start-up value) (MariaDB MDEV-5205,
  sys_vars/t/thread_pool_size_high.test).
- Session values are not kept here; a session copies the session-scoped globals when it starts.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterator, Mapping
from typing import Any

from rampmeter import errors
from rampmeter.config.options import REGISTRY, Option, lookup
from rampmeter.errors import ServerError, Warning_

Listener = Callable[[str, Any], None]


class GlobalVariables:
    def __init__(self, overrides: Mapping[str, Any] | None = None) -> None:
        self._lock = threading.Lock()
        self._values: dict[str, Any] = {name: opt.default for name, opt in REGISTRY.items()}
        self._listeners: dict[str, list[Listener]] = {}
        self._validators: dict[str, list[Listener]] = {}
        self.startup_warnings: list[Warning_] = []
        for name, value in (overrides or {}).items():
            opt = lookup(name)
            if opt is None:
                raise KeyError(name)
            stored, warnings = opt.coerce(value)
            self._values[opt.name] = stored
            self.startup_warnings.extend(warnings)
        # MDEV-5205: at run time the pool may grow to max(128, its start-up size).
        self._runtime_max = {"thread_pool_size": max(128, self._values["thread_pool_size"])}
        self._generation = 0  # bumped by every change: the copy `values_of` keeps is that old
        self._kept: tuple[tuple[str, ...], int, dict[str, Any]] | None = None

    def __getitem__(self, name: str) -> Any:
        return self._values[name]

    def get(self, name: str, default: Any = None) -> Any:
        return self._values.get(name, default)

    def items(self) -> Iterator[tuple[str, Any]]:
        return iter(list(self._values.items()))

    def values_of(self, names: tuple[str, ...]) -> dict[str, Any]:
        """A new dict of these variables' current values: a session's own copy at login. It is
        copied from one kept until the next change of any global, so a login does not look up
        ~200 names one by one (a connection storm makes thousands a second). The generation is
        read before the values, so a copy made while a SET GLOBAL ran is never kept."""
        kept = self._kept
        if kept is not None and kept[0] is names and kept[1] == self._generation:
            return kept[2].copy()
        generation = self._generation
        values = self._values
        fresh = {name: values[name] for name in names}
        self._kept = (names, generation, fresh)
        return fresh.copy()

    def set_internal(self, name: str, value: Any) -> None:
        """Set a value the server computes (have_ssl, the real port); no validation, no hooks."""
        self._values[name] = value
        self._generation += 1

    def set(self, name: str, value: Any, *, default: bool = False) -> list[Warning_]:
        """SET GLOBAL name = value (or = DEFAULT). Returns warnings; raises ServerError."""
        opt = lookup(name)
        if opt is None or not opt.sysvar:
            raise ServerError(errors.ER_UNKNOWN_SYSTEM_VARIABLE, name)
        if not opt.dynamic:
            raise ServerError(errors.ER_INCORRECT_GLOBAL_LOCAL_VAR, opt.name, "read only")
        if opt.scope.value & 1 == 0:  # session-only variable
            raise ServerError(errors.ER_LOCAL_VARIABLE, opt.name)
        if default:
            stored, warnings = opt.default, []
        else:
            stored, warnings = opt.coerce(value, maximum=self._runtime_max.get(opt.name),
                                          current=self._values[opt.name])
        for validate in list(self._validators.get(opt.name, ())):
            validate(opt.name, stored)
        with self._lock:
            self._values[opt.name] = stored
            self._generation += 1
            listeners = list(self._listeners.get(opt.name, ()))
        for listener in listeners:
            listener(opt.name, stored)
        return warnings

    def on_change(self, name: str, listener: Listener) -> None:
        with self._lock:
            self._listeners.setdefault(name, []).append(listener)

    def on_validate(self, name: str, validator: Listener) -> None:
        """`validator(name, value)` may raise ServerError to refuse a SET GLOBAL."""
        with self._lock:
            self._validators.setdefault(name, []).append(validator)

    def option(self, name: str) -> Option:
        opt = lookup(name)
        if opt is None:
            raise ServerError(errors.ER_UNKNOWN_SYSTEM_VARIABLE, name)
        return opt
