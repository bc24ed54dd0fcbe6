"""MariaDB's JSON functions that build, merge, search and lay out documents (the library,
funclib.py): JSON_ARRAY, JSON_OBJECT, JSON_ARRAY_APPEND, JSON_ARRAY_INSERT, JSON_REMOVE,
JSON_MERGE / JSON_MERGE_PRESERVE, JSON_MERGE_PATCH, JSON_SEARCH, JSON_OVERLAPS, JSON_DEPTH,
JSON_EXISTS, JSON_COMPACT, JSON_LOOSE, JSON_DETAILED / JSON_PRETTY. (Editing by path is
functions_jsonedit.py's, comparing functions_json.py's, the ORMs' readers jsonfns.py's.)

Rules (MariaDB 10.11's item_jsonfunc.cc, checked against a running 10.11):
- Results are written in MariaDB's layout (functions_jsonedit.write): `, ` between elements
  and members, `: ` after a key, numbers and strings of an input document as it spelled them,
  key order and duplicate keys kept. JSON_ARRAY and JSON_OBJECT (and the aggregates) embed a
  JSON value as its own text, as MariaDB appends it; the others lay it out again.
- A value argument that is JSON (a JSON function's result, a JSON column), TRUE / FALSE or a
  comparison's result goes in as JSON (translate.py tags it: rm_json_arg, rm_json_bool); any
  other value as a scalar: a string quoted, a number as its value, NULL as null. A decimal
  literal keeps its digits (1.50 stays 1.50).
- A document argument that is NULL makes the result NULL; a malformed one too, with
  MariaDB's 4037 / 4038 warning naming the function and the argument.
- Paths: `$`, `.key`, `."key"`, `[n]`. A wildcard or range where one node is wanted is warning
  4044 and NULL; a path that reaches nothing changes nothing.
- JSON_ARRAY_APPEND: the node at the path gets the value as its last element; a node that is
  not an array becomes [node, value]. JSON_ARRAY_INSERT: the path must end in [n] inside an
  array (else NULL); the value goes in at n, or last when n is past the end.
- JSON_REMOVE: `$` is warning 4051 and NULL; each path in turn removes what it reaches.
- JSON_MERGE (= JSON_MERGE_PRESERVE in 10.11): two arrays are joined; an array and a
  non-array wrap the non-array ([a..., b] or [a, b...]); two objects merge member by member,
  a key in both merging its two values the same way; two scalars make [a, b].
- JSON_MERGE_PATCH (RFC 7396): a patch that is not an object replaces; an object patch
  removes the keys it sets to null and merges the others into the target (an object, or {}).
  A NULL argument makes the result NULL.
- JSON_SEARCH(doc, 'one' | 'all', pattern [, escape [, path ...]]): the paths of the string
  and number scalars that match the LIKE pattern (escape default `\\`), case-insensitively as
  utf8mb4_general_ci; 'one' gives the first as a JSON string, 'all' all of them (an array when
  more than one). Other than 'one' / 'all' is warning 4046 and NULL; no match is NULL.
- JSON_OVERLAPS: two scalars overlap when equal; an array and a scalar when the array holds
  it; two arrays when they share an element; an array and an object when the array holds the
  object; two objects when they share a key with equal values.
- JSON_DEPTH: 1 for a scalar or an empty array / object, else 1 + the deepest member.
- JSON_DETAILED(doc [, tab]): every container on its own lines, indented by tab spaces (4;
  0 to 8), a member's container on the line after its key; an empty array and an array of
  one scalar stay on one line. JSON_LOOSE: MariaDB's layout; JSON_COMPACT: no spaces.
- JSON_ARRAYAGG / JSON_OBJECTAGG: see the aggregates' section below.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from decimal import Decimal
from typing import Any

from rampmeter.engine import types as T
from rampmeter.engine.sqlite import jsonpath
from rampmeter.engine.sqlite.funclib import sqlaggregate, sqlfunction
from rampmeter.engine.sqlite.functions import JSON_TAG as TAG
from rampmeter.engine.sqlite.functions import _json_path
from rampmeter.engine.sqlite.functions_jsonedit import _DECODER, _Num, _Obj, _Pair, _value, write
from rampmeter.engine.types import SqlType

_WILD = re.compile(r"\*|\[\s*last|\bto\b", re.IGNORECASE)
_INT = SqlType("int", 1)


def _text(v: Any) -> str:
    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")
    return v[len(TAG):] if isinstance(v, str) and v.startswith(TAG) else str(v)


class _Bad(Exception):
    """The argument made the result NULL (its warning, if any, is given)."""


def _doc(host: Any, v: Any, function: str, argument: int) -> Any:
    """The document argument, decoded; _Bad for NULL or malformed (4037 / 4038)."""
    from rampmeter.engine.sqlite.functions_json import well_formed
    if v is None:
        raise _Bad
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        v = str(v)
    text = _text(v)
    if not well_formed(host, text, function, argument):
        raise _Bad
    return _DECODER.decode(text)


def _steps(host: Any, v: Any, function: str, argument: int) -> list[str | int]:
    if v is None:
        raise _Bad
    path = _text(v)
    steps = _json_path(path)
    if steps is None:
        if _WILD.search(path):
            host.warn(4044, "Wildcards or range in JSON path not allowed in argument "
                            f"{argument} to function '{function}'")
        raise _Bad
    return steps


def _is_array(v: Any) -> bool:
    return isinstance(v, list) and not isinstance(v, _Obj)


def _node(root: Any, steps: list[str | int]) -> tuple[Any, Any] | None:
    """(holder, key) of the node `steps` reach from root[0]: holder[key] reads and writes it;
    None when nothing is there. `$[0]` of a non-array is the value itself, as MariaDB's."""
    holder: Any = root
    key: Any = 0
    for step in steps:
        node = holder[key]
        if isinstance(step, str):
            if not isinstance(node, _Obj):
                return None
            at = next((j for j, (k, _v) in enumerate(node) if k == step), None)
            if at is None:
                return None
            holder, key = _Pair(node, at), 1
        elif _is_array(node):
            if step >= len(node):
                return None
            holder, key = node, step
        elif step != 0:
            return None
    return holder, key


def _null_on_bad(fn: Any) -> Any:
    def call(*args: Any) -> Any:
        try:
            return fn(*args)
        except _Bad:
            return None
    call.__name__ = fn.__name__
    call.__doc__ = fn.__doc__
    return call


def _element(v: Any) -> str:
    """A value as JSON_ARRAY / JSON_OBJECT / the aggregates embed it: a JSON value (tagged)
    as its own text, anything else written as a scalar."""
    if isinstance(v, str) and v.startswith(TAG):
        return v[len(TAG):].strip()
    return write(_value(v))


# --- building -----------------------------------------------------------------------------

@sqlfunction("JSON_ARRAY", (0, -1), T.longtext())
def json_array(*values: Any) -> Any:
    return "[" + ", ".join(_element(v) for v in values) + "]"


@sqlfunction("JSON_OBJECT", (0, -1), T.longtext(), host=True)
def json_object(host: Any, *args: Any) -> Any:
    if len(args) % 2:
        from rampmeter import errors
        from rampmeter.errors import ServerError
        raise ServerError(errors.ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT, "json_object")
    members = []
    for i in range(0, len(args), 2):
        key = args[i]
        if key is None:
            host.warn(4076, "JSON documents may not contain NULL member names.")
            return None
        name = _text(key) if isinstance(key, (str, bytes)) else str(_value(key))
        members.append(write(name) + ": " + _element(args[i + 1]))
    return "{" + ", ".join(members) + "}"


# --- editing by path ------------------------------------------------------------------------

@sqlfunction("JSON_ARRAY_APPEND", (3, -1), T.longtext(), host=True)
@_null_on_bad
def json_array_append(host: Any, doc: Any, *args: Any) -> Any:
    return _array_edit(host, "json_array_append", doc, args, insert=False)


@sqlfunction("JSON_ARRAY_INSERT", (3, -1), T.longtext(), host=True)
@_null_on_bad
def json_array_insert(host: Any, doc: Any, *args: Any) -> Any:
    return _array_edit(host, "json_array_insert", doc, args, insert=True)


def _array_edit(host: Any, function: str, doc: Any, args: tuple[Any, ...], *,
                insert: bool) -> Any:
    if len(args) % 2:
        from rampmeter import errors
        from rampmeter.errors import ServerError
        raise ServerError(errors.ER_WRONG_PARAMCOUNT_TO_NATIVE_FCT, function)
    root = [_doc(host, doc, function, 1)]
    for i in range(0, len(args), 2):
        steps = _steps(host, args[i], function, i + 2)
        value = _value(args[i + 1])
        if insert:
            if not steps or not isinstance(steps[-1], int):
                raise _Bad
            where = _node(root, steps[:-1])
            if where is None:
                continue
            parent = where[0][where[1]]
            if not _is_array(parent):
                raise _Bad
            parent.insert(min(steps[-1], len(parent)), value)
        else:
            where = _node(root, steps)
            if where is None:
                continue
            holder, key = where
            node = holder[key]
            if _is_array(node):
                node.append(value)
            else:
                holder[key] = [node, value]
    return write(root[0])


@sqlfunction("JSON_REMOVE", (2, -1), T.longtext(), host=True)
@_null_on_bad
def json_remove(host: Any, doc: Any, *paths: Any) -> Any:
    root = [_doc(host, doc, "json_remove", 1)]
    for n, path in enumerate(paths, 2):
        steps = _steps(host, path, "json_remove", n)
        if not steps:
            host.warn(4051, f"Path expression '$' is not allowed in argument {n} to "
                            "function 'json_remove'.")
            raise _Bad
        where = _node(root, steps[:-1])
        if where is None:
            continue
        parent, last = where[0][where[1]], steps[-1]
        if isinstance(last, str) and isinstance(parent, _Obj):
            at = next((j for j, (k, _v) in enumerate(parent) if k == last), None)
            if at is not None:
                del parent[at]
        elif isinstance(last, int) and _is_array(parent) and last < len(parent):
            del parent[last]
    return write(root[0])


# --- merging --------------------------------------------------------------------------------

def _preserve(a: Any, b: Any) -> Any:
    if isinstance(a, _Obj) and isinstance(b, _Obj):
        out = _Obj(a)
        for key, value in b:
            at = next((j for j, (k, _v) in enumerate(out) if k == key), None)
            if at is None:
                out.append((key, value))
            else:
                out[at] = (key, _preserve(out[at][1], value))
        return out
    left = list(a) if _is_array(a) else [a]
    right = list(b) if _is_array(b) else [b]
    return left + right


def _patch(target: Any, patch: Any) -> Any:
    if not isinstance(patch, _Obj):
        return patch
    out = _Obj(target) if isinstance(target, _Obj) else _Obj()
    for key, value in patch:
        at = next((j for j, (k, _v) in enumerate(out) if k == key), None)
        if value is None:
            if at is not None:
                del out[at]
        elif at is None:
            out.append((key, _patch(None, value)))
        else:
            out[at] = (key, _patch(out[at][1], value))
    return out


@sqlfunction("JSON_MERGE_PRESERVE", (2, -1), T.longtext(), host=True,
             aliases=("JSON_MERGE",))
@_null_on_bad
def json_merge_preserve(host: Any, *docs: Any) -> Any:
    return _merge(host, docs, "json_merge_preserve", _preserve)


@sqlfunction("JSON_MERGE_PATCH", (2, -1), T.longtext(), host=True)
@_null_on_bad
def json_merge_patch(host: Any, *docs: Any) -> Any:
    return _merge(host, docs, "json_merge_patch", _patch)


def _merge(host: Any, docs: tuple[Any, ...], name: str,
           combine: Callable[[Any, Any], Any]) -> Any:
    """Fold the documents left to right with `combine`; a bad one is named by its position."""
    merged = _doc(host, docs[0], name, 1)
    for n, doc in enumerate(docs[1:], 2):
        merged = combine(merged, _doc(host, doc, name, n))
    return write(merged)


# --- searching and comparing -----------------------------------------------------------------

def _like(pattern: str, escape: str) -> re.Pattern[str]:
    out: list[str] = []
    i = 0
    while i < len(pattern):
        c = pattern[i]
        if c == escape and i + 1 < len(pattern):
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        out.append(".*" if c == "%" else "." if c == "_" else re.escape(c))
        i += 1
    return re.compile("".join(out) + r"\Z", re.IGNORECASE | re.DOTALL)


def _path_text(steps: list[str | int]) -> str:
    out = ["$"]
    for step in steps:
        if isinstance(step, int):
            out.append(f"[{step}]")
        elif re.fullmatch(r"[A-Za-z_$][\w$]*", step):
            out.append("." + step)
        else:
            out.append("." + write(step))
    return "".join(out)


def _scalars(v: Any, at: list[str | int]) -> Any:
    if isinstance(v, _Obj):
        for key, x in v:
            yield from _scalars(x, [*at, key])
    elif isinstance(v, list):
        for k, x in enumerate(v):
            yield from _scalars(x, [*at, k])
    elif isinstance(v, str):  # a string, or a number (_Num) as its text
        yield at, str(v)


@sqlfunction("JSON_SEARCH", (3, -1), T.longtext(), host=True)
@_null_on_bad
def json_search(host: Any, doc: Any, mode: Any, pattern: Any, *rest: Any) -> Any:
    if mode is None:
        return None
    which = _text(mode).lower()
    if which not in ("one", "all"):
        host.warn(4046, "Argument 2 to function 'json_search' must be \"one\" or \"all\".")
        return None
    root = _doc(host, doc, "json_search", 1)
    if pattern is None:
        return None
    escape = "\\"
    if rest and rest[0] is not None and _text(rest[0]):
        escape = _text(rest[0])[0]
    matcher = _like(_text(pattern), escape)
    starts: list[tuple[list[Any], Any]] = []
    for n, path in enumerate(rest[1:], 5):
        if path is None:
            return None
        steps = jsonpath.parse_or_warn(host, _text(path), "json_search", n)
        if steps is None:
            return None
        starts += jsonpath.located(root, steps, lambda v: isinstance(v, _Obj))
    if not rest[1:]:
        starts = [([], root)]
    elif len(starts) > 1:  # in document order, as MariaDB's one walk finds them
        order = jsonpath.document_order(root, lambda v: isinstance(v, _Obj))
        starts.sort(key=lambda start: order.get(id(start[1]), -1))
    found: list[str] = []
    for trail, node in starts:
        for at, text in _scalars(node, list(trail)):
            if matcher.match(text):
                path = _path_text(at)
                if path not in found:
                    found.append(path)
                if which == "one":
                    return write(path)
    if not found:
        return None
    return write(found[0]) if len(found) == 1 else write(found)


def _equal(a: Any, b: Any) -> bool:
    if isinstance(a, _Obj) or isinstance(b, _Obj):
        if not (isinstance(a, _Obj) and isinstance(b, _Obj)) or len(a) != len(b):
            return False
        bd = dict(b)
        return all(k in bd and _equal(v, bd[k]) for k, v in a)
    if isinstance(a, list) or isinstance(b, list):
        return isinstance(a, list) and isinstance(b, list) and len(a) == len(b) and \
            all(_equal(x, y) for x, y in zip(a, b))
    if isinstance(a, _Num) and isinstance(b, _Num):
        return Decimal(a) == Decimal(b)
    return type(a) is type(b) and a == b


def _overlaps(a: Any, b: Any) -> bool:
    if _is_array(a) and _is_array(b):
        return any(_equal(x, y) for x in a for y in b)
    if _is_array(a) or _is_array(b):
        array, other = (a, b) if _is_array(a) else (b, a)
        return any(_equal(x, other) for x in array)
    if isinstance(a, _Obj) and isinstance(b, _Obj):
        bd = dict(b)
        return any(k in bd and _equal(v, bd[k]) for k, v in a)
    return _equal(a, b)


@sqlfunction("JSON_OVERLAPS", 2, _INT, host=True)
@_null_on_bad
def json_overlaps(host: Any, a: Any, b: Any) -> Any:
    return int(_overlaps(_doc(host, a, "json_overlaps", 1), _doc(host, b, "json_overlaps", 2)))


def _depth(v: Any) -> int:
    if isinstance(v, _Obj):
        return 1 + max((_depth(x) for _k, x in v), default=0)
    if isinstance(v, list):
        return 1 + max((_depth(x) for x in v), default=0)
    return 1


@sqlfunction("JSON_DEPTH", 1, SqlType("int", 10), host=True)
@_null_on_bad
def json_depth(host: Any, doc: Any) -> Any:
    return _depth(_doc(host, doc, "json_depth", 1))


@sqlfunction("JSON_EXISTS", 2, _INT, host=True)
@_null_on_bad
def json_exists(host: Any, doc: Any, path: Any) -> Any:
    root = _doc(host, doc, "json_exists", 1)
    return int(_node([root], _steps(host, path, "json_exists", 2)) is not None)


# --- layouts --------------------------------------------------------------------------------

def _compact(v: Any) -> str:
    if isinstance(v, _Obj):
        return "{" + ",".join(write(k) + ":" + _compact(x) for k, x in v) + "}"
    if isinstance(v, list):
        return "[" + ",".join(_compact(x) for x in v) + "]"
    return write(v)


def _detailed(v: Any, depth: int, tab: str) -> str:
    pad, inner = tab * depth, tab * (depth + 1)
    if isinstance(v, _Obj):
        members = []
        for key, x in v:
            if isinstance(x, list):
                members.append(f"{inner}{write(key)}: \n{inner}{_detailed(x, depth + 1, tab)}")
            else:
                members.append(f"{inner}{write(key)}: {write(x)}")
        if not members:
            return "{\n" + pad + "}"
        return "{\n" + ",\n".join(members) + "\n" + pad + "}"
    if isinstance(v, list):
        if not v or len(v) == 1 and not isinstance(v[0], list):
            return "[" + ", ".join(write(x) for x in v) + "]"
        return "[\n" + ",\n".join(inner + _detailed(x, depth + 1, tab) for x in v) + \
            "\n" + pad + "]"
    return write(v)


@sqlfunction("JSON_COMPACT", 1, T.longtext(), host=True)
@_null_on_bad
def json_compact(host: Any, doc: Any) -> Any:
    return _compact(_doc(host, doc, "json_compact", 1))


@sqlfunction("JSON_LOOSE", 1, T.longtext(), host=True)
@_null_on_bad
def json_loose(host: Any, doc: Any) -> Any:
    return write(_doc(host, doc, "json_loose", 1))


@sqlfunction("JSON_DETAILED", (1, 2), T.longtext(), host=True, aliases=("JSON_PRETTY",))
@_null_on_bad
def json_detailed(host: Any, doc: Any, tab: Any = 4) -> Any:
    root = _doc(host, doc, "json_detailed", 1)
    try:
        size = 4 if tab is None else int(float(_text(tab)))
    except ValueError:
        size = 0
    return _detailed(root, 0, " " * max(0, min(size, 8)))



# --- aggregates -------------------------------------------------------------------------------
# JSON_ARRAYAGG([DISTINCT] v [ORDER BY k [DESC], ...]) is RM_JSON_ARRAYAGG(v, distinct, k1,
# desc1, ...) and JSON_OBJECTAGG(k, v) RM_JSON_OBJECTAGG(k, v) (translate.py); the MariaDB
# names are aliases so that the query forms know them as aggregates before that rewrite. MariaDB builds
# them as GROUP_CONCAT does: elements joined by `,`, members by `, ` with `:` after the key,
# and a value that is JSON as its own text. NULL is null (not skipped, unlike GROUP_CONCAT);
# a NULL key is skipped; no rows (or only NULL keys) is NULL. DISTINCT keeps one of equal
# values, in the order of the values (MariaDB's distinct tree); ORDER BY sorts as
# GROUP_CONCAT's (functions_groupconcat.py), rows with equal keys in the order they came.

@sqlaggregate("RM_JSON_ARRAYAGG", (1, -1), T.longtext(), aliases=("JSON_ARRAYAGG",))
class JsonArrayAgg:
    def __init__(self) -> None:
        self.rows: list[tuple[tuple[Any, ...], Any]] = []
        self.distinct = False
        self.desc: tuple[bool, ...] = ()

    def step(self, value: Any, distinct: Any = 0, *keys: Any) -> None:
        from rampmeter.engine.sqlite.functions_groupconcat import _key
        self.distinct = bool(distinct)
        self.desc = tuple(bool(d) for d in keys[1::2])
        self.rows.append((tuple(_key(k) for k in keys[0::2]), value))

    def finalize(self) -> Any:
        from rampmeter.engine.sqlite.functions_groupconcat import GroupConcatOrdered, _key
        if not self.rows:
            return None
        values = [v for _k, v in self.rows]
        if self.distinct:
            seen: dict[Any, Any] = {}
            for v in values:
                seen.setdefault(_key(v), v)
            values = [seen[k] for k in sorted(seen, key=functools.cmp_to_key(_cmp_keys))]
        elif self.desc:
            order = GroupConcatOrdered()
            order.desc = self.desc
            values = [v for _k, v in sorted(self.rows, key=functools.cmp_to_key(
                order._compare))]
        return "[" + ",".join(_element(v) for v in values) + "]"


def _cmp_keys(a: Any, b: Any) -> int:
    if a == b:
        return 0
    try:
        return -1 if a < b else 1
    except TypeError:
        return -1 if str(a) < str(b) else 1


@sqlaggregate("RM_JSON_OBJECTAGG", 2, T.longtext(), aliases=("JSON_OBJECTAGG",))
class JsonObjectAgg:
    def __init__(self) -> None:
        self.members: list[str] = []

    def step(self, key: Any, value: Any) -> None:
        if key is not None:
            self.members.append(write(_text(key) if isinstance(key, (str, bytes)) else
                                      str(_value(key))) + ":" + _element(value))

    def finalize(self) -> Any:
        return "{" + ", ".join(self.members) + "}" if self.members else None
