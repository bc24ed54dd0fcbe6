"""MariaDB's JSON paths with wildcards and ranges (JSON_EXTRACT, JSON_SEARCH and jsonfns.py's
readers); JSON_EXTRACT's one simple path (`$.a[2]`) keeps the cheaper text reader of
functions._json_path and functions_json.span_at. A document is decoded either order-keeping
(objects as lists of pairs, functions_jsonedit) or as dicts: both are walked.

Rules (MariaDB 10.11's json_lib.c, json_path_setup, and the path matching of
item_jsonfunc.cc):
- A path is `$` then steps: `.key`, `."key"`, `.*` (every member), `[n]`, `[*]` (every
  element), `[last]` / `[last - n]`, `[-n]` (from the end), `[a to b]` (a range, either end
  may be `last`-based), and `**` (any depth, zero or more levels) before a step.
- Anything else is a syntax error (warning 4042, at the 1-based position MariaDB gives: the
  character after `$` for a bad step).
- Matches come in document order: for `[a to b]` the elements from a to b; for `**` the node
  itself first, then its members depth first. A container reached twice is one match.
  `[0]` of a value that is not an array is the value itself, except right after `**`.
- Several paths (JSON_EXTRACT): their matches together, in document order (a value two
  paths reach is there twice).
"""

from __future__ import annotations

import json
import re
from typing import Any

_STEP = re.compile(
    r'\s*(?:\.\s*(?:"(?P<qkey>(?:[^"\\]|\\.)*)"|(?P<key>[^\s.\[*"]+)|(?P<kstar>\*))'
    r"|\[\s*(?P<index>[^\]]*?)\s*\]|(?P<dstar>\*\*))")
_INDEX = re.compile(r"(?:(last)\s*(?:-\s*(\d+))?|(-?\d+))$", re.IGNORECASE)

Step = tuple[Any, ...]


def parse(path: str) -> tuple[list[Step] | None, int]:
    """(steps, 0); (None, position) for a syntax error (4042); (None, 0) for a path that
    ends where a step was begun (`$.a.`, `$[`: 4041, "Unexpected end of JSON path")."""
    text = path.strip()
    if not text.startswith("$"):
        return None, 1
    steps: list[Step] = []
    i = 1
    while i < len(text):
        m = _STEP.match(text, i)
        if m is None:
            rest = text[i:].strip()
            if rest in (".", "[") or rest.startswith("[") and "]" not in rest:
                return None, 0
            return None, i + 1
        if m.group("qkey") is not None:
            steps.append(("key", _unescape(m.group("qkey"))))
        elif m.group("key") is not None:
            steps.append(("key", m.group("key")))
        elif m.group("kstar") is not None:
            steps.append(("key*",))
        elif m.group("dstar") is not None:
            steps.append(("**",))
        else:
            spec = m.group("index")
            if spec == "*":
                steps.append(("idx*",))
            else:
                parts = re.split(r"\s+to\s+", spec, flags=re.IGNORECASE)
                ends = [_INDEX.match(p.strip()) for p in parts]
                if len(parts) > 2 or any(e is None for e in ends):
                    return None, m.start("index") + 1  # 1-based: where the index begins
                bounds = [_bound(e) for e in ends if e is not None]
                steps.append(("range", bounds[0], bounds[-1]) if len(bounds) == 2
                             else ("idx", bounds[0]))
        i = m.end()
    if steps and steps[-1] == ("**",):
        return None, len(text) + 1
    return steps, 0


def _unescape(key: str) -> str:
    """A quoted key's name: its JSON escapes undone (`\\"` is `"`, `\\u00e4` is ä)."""
    if "\\" not in key:
        return key
    try:
        return str(json.loads('"' + key + '"'))
    except ValueError:
        return key


def _bound(m: re.Match[str]) -> tuple[bool, int]:
    """(from the end, n): `last - n` and `-n` count from the end (last is 0)."""
    if m.group(1):
        return True, int(m.group(2) or 0)
    n = int(m.group(3))
    return (True, -n - 1) if n < 0 else (False, n)


def parse_or_warn(host: Any, path: str, function: str, argument: int) -> list[Step] | None:
    """parse(), or None after MariaDB's warning: 4042 "Syntax error in JSON path" at its
    position, 4041 "Unexpected end of JSON path" for a path cut short."""
    steps, position = parse(path)
    if steps is None and host is not None:
        if position:
            host.warn(4042, f"Syntax error in JSON path in argument {argument} to function "
                      f"'{function}' at position {position}")
        else:
            host.warn(4041, f"Unexpected end of JSON path in argument {argument} to function "
                      f"'{function}'")
    return steps


def has_wildcards(steps: list[Step]) -> bool:
    return any(s[0] in ("key*", "idx*", "**", "range") for s in steps)


def _at(bound: tuple[bool, int], size: int) -> int:
    from_end, n = bound
    return size - 1 - n if from_end else n


def matches(doc: Any, steps: list[Step], is_object: Any) -> list[Any]:
    """The nodes `steps` reach in the decoded document (an object is `is_object`'s kind: a
    list of (key, value) pairs)."""
    return [node for _trail, node in located(doc, steps, is_object)]


def located(doc: Any, steps: list[Step], is_object: Any) -> list[tuple[list[Any], Any]]:
    """matches(), each with the concrete path that reached it (keys and indexes)."""
    out: list[tuple[list[Any], Any]] = []
    seen: set[int] = set()
    trail: list[Any] = []

    def walk(node: Any, k: int, after_stars: bool = False) -> None:
        if k == len(steps):
            if not isinstance(node, list) or id(node) not in seen:
                seen.add(id(node))
                out.append((list(trail), node))
            return
        step = steps[k]
        kind = step[0]
        if kind == "**":
            walk(node, k + 1, True)
            for at, child in _members(node, is_object):
                trail.append(at)
                walk(child, k)
                trail.pop()
            return
        self_index = kind == "idx" and _at(step[1], 1) == 0 and not after_stars
        if is_object(node):
            if kind == "key":
                for key, value in _pairs(node):
                    if key == step[1]:
                        trail.append(key)
                        walk(value, k + 1)
                        trail.pop()
                        break
            elif kind == "key*":
                for key, value in _pairs(node):
                    trail.append(key)
                    walk(value, k + 1)
                    trail.pop()
            elif self_index:
                walk(node, k + 1)  # `[0]` (or [last]) of a non-array is itself (not right
            return                 # after `**`, as MariaDB matches it)
        if isinstance(node, list):
            if kind == "idx*":
                places = range(len(node))
            elif kind == "idx":
                at = _at(step[1], len(node))
                places = range(at, at + 1) if 0 <= at < len(node) else range(0)
            elif kind == "range":
                lo, hi = _at(step[1], len(node)), _at(step[2], len(node))
                places = range(max(lo, 0), min(hi, len(node) - 1) + 1)
            else:
                return
            for at in places:
                trail.append(at)
                walk(node[at], k + 1)
                trail.pop()
            return
        if self_index:
            walk(node, k + 1)

    walk(doc, 0)
    return out


def document_order(doc: Any, is_object: Any) -> dict[int, int]:
    """id(node) -> its place in the document (pre-order), to give several paths' matches in
    document order, as MariaDB's one walk over the document finds them."""
    order: dict[int, int] = {}
    stack = [doc]
    while stack:
        node = stack.pop()
        order.setdefault(id(node), len(order))
        stack.extend(reversed(_children(node, is_object)))
    return order


def _pairs(node: Any) -> Any:
    """An object's (key, value) pairs: the order-keeping decoder's list, or a dict's items."""
    return node.items() if isinstance(node, dict) else node


def _members(node: Any, is_object: Any) -> list[tuple[Any, Any]]:
    if is_object(node):
        return list(_pairs(node))
    if isinstance(node, list):
        return list(enumerate(node))
    return []


def _children(node: Any, is_object: Any) -> list[Any]:
    if is_object(node):
        return [value for _key, value in _pairs(node)]
    if isinstance(node, list):
        return list(node)
    return []
