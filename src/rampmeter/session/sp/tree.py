"""The stored-program tree parse.py makes and run.py walks: one small dataclass per statement
kind; simple statements and expressions are `Sql` (text with `?` for local variables)."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


@dataclass(slots=True)
class Sql:
    """A simple statement or an expression: text with `?` for local variables."""
    text: str
    vars: tuple[str, ...] = ()
    into: tuple[str, ...] = ()   # SELECT ... INTO targets (local names or @user variables)
    names: tuple[str, ...] | None = None  # a SELECT's column names as the client wrote it
    line: int = 0                # where the statement starts in the CREATE text (Note 4094)
    source: str = ""             # as written (the processlist's Info while it runs)
    spelled: tuple[str, ...] = ()  # `vars` as written


@dataclass(slots=True)
class Var:
    names: list[str]
    type: str
    default: Sql | None
    line: int = 0                # of the DECLARE (Note 4094)


@dataclass(slots=True)
class Handler:
    action: str                  # CONTINUE | EXIT
    conditions: list[Any]        # int code, 'SQLSTATE:xxxxx', SQLEXCEPTION / SQLWARNING / NOT FOUND
    body: Any


@dataclass(slots=True)
class Block:
    label: str | None
    body: list[Any]
    vars: list[Var] = field(default_factory=list)
    conditions: dict[str, Any] = field(default_factory=dict)
    handlers: list[Handler] = field(default_factory=list)
    cursors: dict[str, Sql] = field(default_factory=dict)
    cursor_params: dict[str, list[Any]] = field(default_factory=dict)
    line: int = 0                # where the statement starts in the CREATE text (Note 4094)


@dataclass(slots=True)
class Set:
    targets: list[tuple[str, Sql]]  # (local name, value); other SETs are Sql statements
    line: int = 0                # where the statement starts in the CREATE text (Note 4094)


@dataclass(slots=True)
class If:
    branches: list[tuple[Sql, list[Any]]]
    otherwise: list[Any] | None
    line: int = 0                # where the statement starts in the CREATE text (Note 4094)


@dataclass(slots=True)
class Case:
    subject: Sql | None
    branches: list[tuple[Sql, list[Any]]]
    otherwise: list[Any] | None
    end_line: int = 0            # the line after END CASE (where MariaDB's 1339 is)
    line: int = 0                # where the statement starts in the CREATE text (Note 4094)


@dataclass(slots=True)
class Loop:
    kind: str                    # LOOP | WHILE | REPEAT
    label: str | None
    cond: Sql | None
    body: list[Any]
    line: int = 0                # where the statement starts in the CREATE text (Note 4094)


@dataclass(slots=True)
class For:
    label: str | None
    var: str
    lower: Sql | None            # FOR i IN lower .. upper
    upper: Sql | None
    reverse: bool
    body: list[Any]
    query: Sql | None = None     # FOR rec IN (SELECT ...)
    cursor: str | None = None    # FOR rec IN cursor [(args)]
    args: list[Sql] = field(default_factory=list)
    line: int = 0                # where the statement starts in the CREATE text (Note 4094)


@dataclass(slots=True)
class Jump:
    kind: str                    # LEAVE | ITERATE
    label: str
    line: int = 0                # where the statement starts in the CREATE text (Note 4094)


@dataclass(slots=True)
class FetchGroup:
    """FETCH GROUP NEXT ROW of an aggregate function: its parameters take the next row's
    arguments; past the last row it raises NOT FOUND."""

    line: int = 0                # where the statement starts in the CREATE text (Note 4094)


@dataclass(slots=True)
class Return:
    value: Sql
    line: int = 0                # where the statement starts in the CREATE text (Note 4094)


@dataclass(slots=True)
class Cursor:
    op: str                      # OPEN | FETCH | CLOSE
    name: str
    into: list[str] = field(default_factory=list)
    args: list[Sql] = field(default_factory=list)
    line: int = 0                # where the statement starts in the CREATE text (Note 4094)


@dataclass(slots=True)
class Signal:
    resignal: bool
    condition: Any               # 'SQLSTATE:xxxxx', a condition name, or None (RESIGNAL)
    items: dict[str, Sql]
    line: int = 0                # where the statement starts in the CREATE text (Note 4094)


@dataclass(slots=True)
class Diagnostics:
    condition: Sql | None        # GET DIAGNOSTICS CONDITION n ...; None: statement items
    items: list[tuple[str, str]]  # (target: a local name or @user variable, item name)
    line: int = 0                # where the statement starts in the CREATE text (Note 4094)


@dataclass(slots=True)
class Call:
    db: str | None
    name: str
    args: list[Sql]
    line: int = 0                # where the statement starts in the CREATE text (Note 4094)


@dataclass(slots=True)
class Param:
    mode: str                    # IN | OUT | INOUT
    name: str
    type: str


@dataclass(slots=True)
class Routine:
    kind: str                    # PROCEDURE | FUNCTION
    db: str | None
    name: str
    params: list[Param]
    returns: str
    chars: dict[str, str]
    body_start: int              # where the body starts in the text
    params_text: str
    body_end: int = 0            # ... and where it ends
    if_not_exists: bool = False
    or_replace: bool = False
    definer: str | None = None
    aggregate: bool = False
    has_return: bool = True      # the body has a RETURN statement
    late_into: int = 0           # SELECT ... FROM ... INTO in the body: warnings 1287
