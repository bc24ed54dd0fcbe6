"""The top of a py-spy raw (collapsed stacks) profile: frames by self time and by inclusive
time, as shares of the samples in which a thread was busy (not waiting in epoll, a lock, a
condition variable, accept or poll). Used for docs/performance.md:

  .venv/bin/python scripts/profile_summary.py profile.txt [--top 25] [--functions] [--match NAME ...]
"""

from __future__ import annotations

import argparse
import collections
import re
import sys

IDLE = ("epoll", "wait (threading", "_wait_for_tstate_lock", "select (selectors", "accept",
        "poll (")
_LINE = re.compile(r":\d+\)$")


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("profile")
    p.add_argument("--top", type=int, default=25)
    p.add_argument("--functions", action="store_true",
                   help="merge a function's lines (drop the :line suffix)")
    p.add_argument("--match", action="append", default=[],
                   help="also print the inclusive share of frames containing this text")
    args = p.parse_args(argv)
    own: collections.Counter[str] = collections.Counter()
    incl: collections.Counter[str] = collections.Counter()
    matched: collections.Counter[str] = collections.Counter()
    total = 0
    with open(args.profile) as f:
        for line in f:
            stack, _, count = line.rstrip().rpartition(" ")
            n = int(count)
            total += n
            frames = stack.split(";")
            if args.functions:
                frames = [_LINE.sub(")", f) for f in frames]
            if any(k in frames[-1] for k in IDLE):
                own["<idle>"] += n
                continue
            own[frames[-1]] += n
            for frame in set(frames):
                incl[frame] += n
            for m in args.match:
                if any(m in frame for frame in frames):
                    matched[m] += n
    busy = max(total - own["<idle>"], 1)
    print(f"samples {total}, busy {busy}")
    print("-- self")
    for frame, n in own.most_common(args.top):
        if frame != "<idle>":
            print(f"{100 * n / busy:5.1f}% {frame}")
    print("-- inclusive")
    for frame, n in incl.most_common(args.top + 15):
        print(f"{100 * n / busy:5.1f}% {frame}")
    for m in args.match:
        print(f"{100 * matched[m] / busy:5.1f}% (any frame matching {m!r})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
