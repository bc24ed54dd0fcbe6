"""MariaDB's JSON_INSERT, JSON_SET and JSON_REPLACE (the library, funclib.py).

Rules (MariaDB 10.11's item_jsonfunc.cc):
- The result is the document written again in MariaDB's layout: `, ` between members and
  elements, `: ` after a key, numbers as the document spelled them, key order and duplicate
  keys kept.
- A value that is JSON (a JSON function's result, a JSON column: translate.py wraps it in
  rm_json_arg, which tags it) goes in as JSON; any other value as a JSON scalar (a string is
  quoted, NULL is null).
- Each path, in order: `$.key` of an object is added (INSERT, SET) when missing and replaced
  (SET, REPLACE) when present; `$[n]` of an array is replaced when n is an element's and added
  at the end otherwise; `$[0]` of a non-array is the value itself, `$[n>0]` wraps it in an
  array with the new value after it; a path whose parent does not exist changes nothing;
  `$` alone is replaced by SET and REPLACE.
- NULL document or path: NULL. A malformed document is NULL with MariaDB's warning
  (functions_json.well_formed); a path this reader does not know (wildcards) is NULL.
"""

from __future__ import annotations

import json
from typing import Any

from rampmeter.engine import types as T
from rampmeter.engine.sqlite.funclib import sqlfunction
from rampmeter.engine.sqlite.functions import JSON_TAG as TAG
from rampmeter.engine.sqlite.functions import _json_path


class _Num(str):
    """A number as its text."""


class _Obj(list):  # type: ignore[type-arg]
    """An object: its (key, value) pairs, in order."""


_DECODER = json.JSONDecoder(object_pairs_hook=_Obj, parse_int=_Num, parse_float=_Num)


def _text(v: Any) -> str:
    return v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)


def write(v: Any) -> str:
    """A value in MariaDB's layout."""
    if isinstance(v, _Obj):
        return "{" + ", ".join(json.dumps(k, ensure_ascii=False) + ": " + write(x)
                               for k, x in v) + "}"
    if isinstance(v, list):
        return "[" + ", ".join(write(x) for x in v) + "]"
    if isinstance(v, _Num):
        return str(v)
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    return json.dumps(v, ensure_ascii=False)


def _value(v: Any) -> Any:
    if isinstance(v, str) and v.startswith(TAG):
        try:
            return _DECODER.decode(v[len(TAG):])
        except ValueError:
            return v[len(TAG):]
    if isinstance(v, bool):
        return _Num(str(int(v)))
    if isinstance(v, int):
        return _Num(str(v))
    if isinstance(v, float):
        return _Num(repr(v) if v != int(v) or abs(v) >= 1e15 else str(int(v)))
    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")
    return v


def _edit(host: Any, function: str, mode: str, doc: Any, args: tuple[Any, ...]) -> Any:
    if doc is None:
        return None
    from rampmeter.engine.sqlite.functions_json import well_formed
    text = doc[len(TAG):] if isinstance(doc, str) and doc.startswith(TAG) else _text(doc)
    if not well_formed(host, text, function, 1):
        return None
    root: list[Any] = [_DECODER.decode(text)]
    for i in range(0, len(args) - 1, 2):
        path, value = args[i], args[i + 1]
        if path is None:
            return None
        steps = _json_path(_text(path))
        if steps is None:
            return None
        _apply(root, steps, _value(value), mode)
    return write(root[0])


def _apply(root: list[Any], steps: list[str | int], value: Any, mode: str) -> None:
    # (container, key) of the node each step reaches; root[0] is the document
    holder: Any = root
    key: Any = 0
    for step in steps[:-1]:
        node = holder[key]
        if isinstance(step, str):
            if not isinstance(node, _Obj):
                return
            at = next((j for j, (k, _v) in enumerate(node) if k == step), None)
            if at is None:
                return
            holder, key = _Pair(node, at), 1
        elif isinstance(node, list) and not isinstance(node, _Obj):
            if step >= len(node):
                return
            holder, key = node, step
        elif step != 0:
            return
    node = holder[key]
    last = steps[-1] if steps else None
    if last is None:
        if mode != "insert":
            holder[key] = value
    elif isinstance(last, str):
        if not isinstance(node, _Obj):
            return
        at = next((j for j, (k, _v) in enumerate(node) if k == last), None)
        if at is None:
            if mode != "replace":
                node.append((last, value))
        elif mode != "insert":
            node[at] = (last, value)
    elif isinstance(node, list) and not isinstance(node, _Obj):
        if last < len(node):
            if mode != "insert":
                node[last] = value
        elif mode != "replace":
            node.append(value)
    elif last == 0:
        if mode != "insert":
            holder[key] = value
    elif mode != "replace":
        holder[key] = [node, value]


class _Pair:
    """An object's member as a holder: [1] is its value."""

    def __init__(self, obj: _Obj, at: int) -> None:
        self.obj, self.at = obj, at

    def __getitem__(self, i: int) -> Any:
        return self.obj[self.at][1]

    def __setitem__(self, i: int, value: Any) -> None:
        self.obj[self.at] = (self.obj[self.at][0], value)


@sqlfunction("JSON_INSERT", (3, -1), T.longtext(), host=True)
def json_insert(host: Any, doc: Any, *args: Any) -> Any:
    return _edit(host, "json_insert", "insert", doc, args)


@sqlfunction("JSON_SET", (3, -1), T.longtext(), host=True)
def json_set(host: Any, doc: Any, *args: Any) -> Any:
    return _edit(host, "json_set", "set", doc, args)


@sqlfunction("JSON_REPLACE", (3, -1), T.longtext(), host=True)
def json_replace(host: Any, doc: Any, *args: Any) -> Any:
    return _edit(host, "json_replace", "replace", doc, args)
