"""Which thread group a connection belongs to: MariaDB's `id % size`, or TXSQL's load balancing
(a new connection avoids loaded groups; an idle connection leaves an overloaded group for an
underloaded one at its command boundary), as plain functions.

The variable: `thread_pool_group_assignment` = `modulo` | `load`.
- The name follows MariaDB's (`thread_pool_` + what it decides, an enum like
  `thread_pool_priority`). MariaDB and Percona have no such knob (always `id % size`); MySQL
  Enterprise assigns round robin with no knob; TXSQL's load balancing exists, but the names of
  its parameters are not in any source we could read (reference/threadpool.md marks them
  unverified), so we do not pretend to copy them.
- `modulo` (MariaDB, Percona): group = connection id % thread_pool_size, and a connection
  moves only when the size changes. What an operator moving from MariaDB expects.
- `load` (TXSQL): a new connection goes to a group that is not hot, the one with the fewest
  connections among those; an idle connection of an overloaded group moves, at its command
  boundary, to the least loaded group. The default is chosen by measurement
  (docs/benchmarks.md, "Group assignment").

Rules:
- A group's load is what it has to do right now: requests running (active threads) plus
  requests queued. The timer samples it for every group once a tick (thread_pool_stall_limit),
  under that group's lock, one group at a time (sched never reads another group's live state).
- Hysteresis, three ways, so connections do not bounce:
  1. in size: a move happens only when the source's load exceeds the destination's by at least
     MARGIN = 2. A connection carries at most one request at a time, so moving it changes the
     difference by at most 2: a difference of 2 or more can be narrowed but never reversed by
     one move; and a tick allows (difference // 2) moves from a source, so the moves of one
     tick cannot reverse it either.
  2. in time: the imbalance must hold at two consecutive ticks (the source's lower sample
     against the destination's higher one), so one burst seen at one tick moves nothing.
  3. per connection: a connection that moved stays at least COOLDOWN_TICKS ticks where it went.
- Only an idle connection moves, at its command boundary (after its reply, before its socket
  is re-armed: TXSQL's point, between threadpool_process_request and start_io), never one in a
  transaction or holding locks: its next statements are HIGH and short, and its transaction
  slot (thread_pool_max_transactions_limit) belongs to the group it started in.
- New connections under `load` avoid hot groups (load at the last tick more than MARGIN above
  the least loaded one), then take the fewest connections, ties broken by `id % size` order so
  a quiet pool assigns exactly as `modulo` does. Using connection counts, read at assignment
  time, rather than the tick's loads alone keeps a storm of connects between two ticks from
  all landing in the group that was idle at the last tick.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

MODULO = "modulo"
LOAD = "load"
POLICIES = (MODULO, LOAD)
MARGIN = 2          # see rule 1: the smallest difference one move cannot reverse
COOLDOWN_TICKS = 4  # rule 3: ticks a moved connection stays put


def group_load(active: int, queued: int) -> int:
    """A group's load at one instant: requests running plus requests waiting."""
    return max(0, active) + queued


class Move(NamedTuple):
    """What the last tick allows a group: send up to `budget` idle connections to `target`."""

    target: int | None = None
    budget: int = 0


STAY = Move()


@dataclass(slots=True)
class LoadHistory:
    """The last two samples of one group's load (rule 2)."""

    previous: int = 0
    current: int = 0

    def sample(self, load: int) -> None:
        self.previous, self.current = self.current, load

    @property
    def sustained_high(self) -> int:
        return min(self.previous, self.current)

    @property
    def sustained_low(self) -> int:
        return max(self.previous, self.current)


def plan_moves(histories: Sequence[LoadHistory], eligible: Sequence[bool] | None = None
               ) -> list[Move]:
    """One Move per group from their load histories. Overloaded groups, most loaded first, are
    paired with the least loaded eligible destination; each planned move counts against both
    sides' estimates, so two sources do not pour into one destination beyond balance.
    `eligible[i]` False: group i takes no connections (retired by a shrink)."""
    n = len(histories)
    ok = list(eligible) if eligible is not None else [True] * n
    high = [h.sustained_high for h in histories]
    low = [h.sustained_low for h in histories]
    moves = [STAY] * n
    for src in sorted(range(n), key=lambda i: -high[i]):
        targets = [i for i in range(n) if i != src and ok[i]]
        if not targets:
            continue
        dst = min(targets, key=lambda i: (low[i], i))
        gap = high[src] - low[dst]
        if gap < MARGIN:
            continue
        budget = gap // 2
        moves[src] = Move(dst, budget)
        high[src] -= budget
        low[dst] += budget
    return moves


def may_move(move: Move, *, in_transaction: bool, holds_locks: bool, moved_at: float,
             now: float, tick_s: float) -> bool:
    """May this idle connection leave its group now (rules 1 and 3, and the idle rule)?"""
    if move.target is None or move.budget <= 0 or in_transaction or holds_locks:
        return False
    return now - moved_at >= COOLDOWN_TICKS * tick_s


def assign(connection_id: int, connections: Sequence[int], loads: Sequence[int],
           eligible: Sequence[bool] | None = None) -> int:
    """The group of a new connection under `load` (see the rules above). `connections` are
    live counts, `loads` the last tick's samples; both indexed by group."""
    n = len(connections)
    ok = list(eligible) if eligible is not None else [True] * n
    candidates = [i for i in range(n) if ok[i]] or list(range(n))
    floor = min(loads[i] if i < len(loads) else 0 for i in candidates)
    cool = [i for i in candidates if (loads[i] if i < len(loads) else 0) - floor < MARGIN]
    home = connection_id % n
    return min(cool, key=lambda i: (connections[i], (i - home) % n))
