"""MariaDB's JSON functions that compare and canonicalize documents (the library, funclib.py):
JSON_NORMALIZE, JSON_EQUALS, JSON_QUERY. (The ones ORMs use are jsonfns.py's and
functions.py's.)

Rules (MariaDB 10.11's, strings/json_normalize.c and item_jsonfunc.cc):
- A document is read as MariaDB's json_lib reads it: empty or cut short is warning 4037
  ("Unexpected end of JSON text"), anything else malformed is 4038 ("Syntax error ... at
  position n", n counting from 1), nesting 32 deep is 4040; each makes the result NULL.
  The warnings name the function and the argument.
- JSON_NORMALIZE: no whitespace; an object's pairs sorted by key (code points), duplicate keys
  kept and ordered by value (type first: object, array, string, number, true, false, null;
  then objects and arrays by size, then member by member; strings by code points, numbers by
  value); arrays keep their order; every number in MariaDB's canonical form: one digit, a
  point, the other significant digits (at least one), `E` and the exponent (10 -> 1.0E1,
  0 -> 0.0E0, -0.5 -> -5.0E-1).
- JSON_EQUALS(a, b): 1 when both normalize to the same text, 0 otherwise, NULL for a NULL
  or malformed argument.
- JSON_QUERY(doc, path): the object or array at path as JSON text; NULL for a scalar, no
  value or a NULL argument.
"""

from __future__ import annotations

import functools
import json
import re
from typing import Any

from rampmeter.engine import types as T
from rampmeter.engine.sqlite.funclib import sqlfunction
from rampmeter.engine.sqlite.functions import _json_path
from rampmeter.engine.types import SqlType

DEPTH_LIMIT = 32  # json_lib.h JSON_DEPTH_LIMIT: this deep is an error
_TYPE_ORDER = {"object": 1, "array": 2, "string": 3, "number": 4, True: 5, False: 6, None: 7}


class _Malformed(Exception):
    def __init__(self, code: int, words: str, position: int | None = None) -> None:
        super().__init__(words)
        self.code, self.words, self.position = code, words, position


def _text(v: Any) -> str:
    if isinstance(v, bytes):
        return v.decode("utf-8", "replace")
    if isinstance(v, float):
        return repr(v)
    return str(v)


def _read(text: str) -> Any:
    """The document as nested ('object', [(key, value)]), ('array', [...]), ('string', s),
    ('number', normalized text), True, False, None; _Malformed when it is not JSON."""
    _check_depth(text)
    if not text.strip():
        raise _Malformed(4037, "Unexpected end of JSON text")
    decoder = json.JSONDecoder(
        object_pairs_hook=lambda pairs: ("object", pairs),
        parse_float=lambda s: ("number", normalize_number(s)),
        parse_int=lambda s: ("number", normalize_number(s)),
        parse_constant=lambda s: _bad_constant(s))
    try:
        value, end = decoder.raw_decode(text, len(text) - len(text.lstrip()))
    except json.JSONDecodeError as e:
        if e.pos >= len(text.rstrip()):
            raise _Malformed(4037, "Unexpected end of JSON text") from None
        # json_lib's position counts the characters it read, the bad one included; after a
        # key it reads the colon's place with the key, so a missing ':' is at the character
        # itself ('{"type""point"}' is position 7, as MariaDB 10.11 says)
        at = e.pos if e.msg.startswith("Expecting ':'") else e.pos + 1
        raise _Malformed(4038, "Syntax error in JSON text", at) from None
    if text[end:].strip():
        raise _Malformed(4038, "Syntax error in JSON text", end + 1 + (
            len(text[end:]) - len(text[end:].lstrip())))
    return _tag(value)


def _bad_constant(s: str) -> Any:
    raise json.JSONDecodeError("NaN / Infinity are not JSON", s, 0)


def _tag(value: Any) -> Any:
    if isinstance(value, tuple):
        kind, inner = value
        if kind == "object":
            return ("object", [(k, _tag(v)) for k, v in inner])
        return value
    if isinstance(value, list):
        return ("array", [_tag(v) for v in value])
    if isinstance(value, str):
        return ("string", value)
    return value  # True, False, None


def _check_depth(text: str) -> None:
    depth, in_string, escaped = 0, False, False
    for i, c in enumerate(text):
        if in_string:
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c == '"':
            in_string = True
        elif c in "[{":
            depth += 1
            if depth >= DEPTH_LIMIT:
                raise _Malformed(4040, f"Limit of {DEPTH_LIMIT} on JSON nested structures "
                                       "depth is reached", i + 1)
        elif c in "]}":
            depth -= 1


def normalize_number(s: str) -> str:
    """json_normalize.c's canonical number: d.dddE[-]n."""
    negative = s.startswith("-")
    body = s[1:] if negative else s
    mantissa, _, exponent = body.lower().partition("e")
    whole, _, frac = mantissa.partition(".")
    digits = whole + frac
    magnitude = len(whole) - 1
    stripped = digits.lstrip("0")
    magnitude -= len(digits) - len(stripped)
    stripped = stripped.rstrip("0")
    if not stripped:
        return "0.0E0"
    magnitude += int(exponent) if exponent else 0
    rest = stripped[1:] or "0"
    return f"{'-' if negative else ''}{stripped[0]}.{rest}E{magnitude}"


def _number_value(text: str) -> float:
    try:
        return float(text)
    except ValueError:  # an exponent past float's range
        return float("inf") if not text.startswith("-") else float("-inf")


def _kind(v: Any) -> Any:
    return v[0] if isinstance(v, tuple) else v


def _compare(a: Any, b: Any) -> int:
    ka, kb = _TYPE_ORDER[_kind(a)], _TYPE_ORDER[_kind(b)]
    if ka != kb:
        return -1 if ka < kb else 1
    if not isinstance(a, tuple):
        return 0
    kind = a[0]
    if kind == "string":
        return (a[1] > b[1]) - (a[1] < b[1])
    if kind == "number":
        x, y = _number_value(a[1]), _number_value(b[1])
        return (x > y) - (x < y)
    if len(a[1]) != len(b[1]):
        return -1 if len(a[1]) < len(b[1]) else 1
    for x, y in zip(a[1], b[1], strict=True):
        if kind == "object":
            if x[0] != y[0]:
                return -1 if x[0] < y[0] else 1
            x, y = x[1], y[1]
        found = _compare(x, y)
        if found:
            return found
    return 0


def _pair_order(p: tuple[str, Any], q: tuple[str, Any]) -> int:
    if p[0] != q[0]:
        return -1 if p[0] < q[0] else 1
    return _compare(p[1], q[1])


def _sorted(v: Any) -> Any:
    if not isinstance(v, tuple):
        return v
    kind, inner = v
    if kind == "array":
        return ("array", [_sorted(x) for x in inner])
    if kind == "object":
        pairs = [(k, _sorted(x)) for k, x in inner]
        return ("object", sorted(pairs, key=functools.cmp_to_key(_pair_order)))
    return v


def _write(v: Any) -> str:
    if v is True:
        return "true"
    if v is False:
        return "false"
    if v is None:
        return "null"
    kind, inner = v
    if kind == "string":
        return json.dumps(inner, ensure_ascii=False)
    if kind == "number":
        return inner
    if kind == "array":
        return "[" + ",".join(_write(x) for x in inner) + "]"
    return "{" + ",".join(json.dumps(k, ensure_ascii=False) + ":" + _write(x)
                          for k, x in inner) + "}"


def _normalized(host: Any, v: Any, function: str, argument: int) -> str | None:
    try:
        return _write(_sorted(_read(_text(v))))
    except _Malformed as e:
        at = f" at position {e.position}" if e.position is not None else ""
        host.warn(e.code, f"{e.words} in argument {argument} to function '{function}'{at}")
        return None


@sqlfunction("JSON_NORMALIZE", 1, T.longtext(), host=True)
def json_normalize(host: Any, doc: Any) -> Any:
    return None if doc is None else _normalized(host, doc, "json_normalize", 1)


@sqlfunction("JSON_EQUALS", 2, SqlType("int", 1), host=True)
def json_equals(host: Any, a: Any, b: Any) -> Any:
    if a is None or b is None:
        return None
    first = _normalized(host, a, "json_equals", 1)
    if first is None:
        return None
    second = _normalized(host, b, "json_equals", 2)
    if second is None:
        return None
    return 1 if first == second else 0


@sqlfunction("JSON_QUERY", 2, T.longtext(), host=True)
def json_query(host: Any, doc: Any, path: Any) -> Any:
    if doc is None or path is None:
        return None
    text = _text(doc)
    try:
        json.loads(text)
    except ValueError as e:
        host.warn(4038, "Syntax error in JSON text in argument 1 to function 'json_query' "
                  f"at position {getattr(e, 'pos', 0) + 1}")
        return None
    steps = _json_path(_text(path))
    if steps is None:
        host.warn(4042, "Syntax error in JSON path in argument 2 to function 'json_query' "
                  "at position 1")
        return None
    if len(steps) > DEPTH_LIMIT:
        host.warn(4043, f"Limit of {DEPTH_LIMIT} on JSON path depth is reached in argument 2 "
                  f"to function 'json_query' at position {_step_offset(_text(path))}")
        return None
    span = _span(text, steps, "[{")
    if span is None or text[span[0]] not in "[{":
        return None
    return text[span[0]:span[1]]


_DECODER = json.JSONDecoder()


def well_formed(host: Any, text: str, function: str, argument: int,
                level: str = "Warning") -> bool:
    """True for a JSON document; else False after MariaDB's warning (4037 / 4038 / 4040)."""
    try:
        json.loads(text)  # the common case, cheaply; json_lib also refuses deep nesting
        suspect = text.count("[") + text.count("{") >= DEPTH_LIMIT
    except ValueError:
        suspect = True
    if suspect:
        try:
            _read(text)
        except _Malformed as e:
            at = f" at position {e.position}" if e.position is not None else ""
            host.warn(e.code, f"{e.words} in argument {argument} to function '{function}'{at}",
                      level)
            return False
    return True


def span_at(text: str, steps: list[str | int]) -> tuple[int, int] | None:
    """The (valid) document's text at `steps`: the first of duplicate keys, as MariaDB's
    json_lib finds it."""
    return _span(text, steps)


def loose(text: str) -> str:
    """MariaDB's loose JSON layout (json_nice LOOSE): no whitespace outside strings, `, `
    after a comma and `: ` after a colon; strings and numbers as written."""
    out: list[str] = []
    in_string = escaped = False
    for c in text:
        if in_string:
            out.append(c)
            if escaped:
                escaped = False
            elif c == "\\":
                escaped = True
            elif c == '"':
                in_string = False
        elif c in " \t\n\r":
            continue
        elif c == ",":
            out.append(", ")
        elif c == ":":
            out.append(": ")
        else:
            in_string = c == '"'
            out.append(c)
    return "".join(out)


def _step_offset(path: str) -> int:
    """Where the path's step past the depth limit starts (MariaDB's position for 4043)."""
    body = path.strip()
    steps = list(re.finditer(r'\.(?:"(?:[^"\\]|\\.)*"|[\w$]+)|\[\d+\]', body[1:]))
    return 1 + steps[DEPTH_LIMIT].start() if len(steps) > DEPTH_LIMIT else len(body)


def _skip(text: str, i: int) -> int:
    while i < len(text) and text[i] in " \t\n\r":
        i += 1
    return i


def _span(text: str, steps: list[str | int], want: str = "") -> tuple[int, int] | None:
    """Where the value at `steps` is in the (valid) document: MariaDB returns that text as
    written, not re-serialized. `want`: the characters the value may start with (JSON_QUERY
    takes the first duplicate key that holds an object or an array)."""
    start = _skip(text, 0)
    end = _DECODER.raw_decode(text, start)[1]
    for n, step in enumerate(steps, 1):
        opener = text[start]
        if opener not in "[{" or (opener == "[") != isinstance(step, int):
            return None
        i, index = _skip(text, start + 1), 0
        found = None
        while text[i] not in "]}":
            key = None
            if opener == "{":
                key, i = _DECODER.raw_decode(text, i)
                i = _skip(text, _skip(text, i) + 1)  # past the colon
            value_end = _DECODER.raw_decode(text, i)[1]
            if (key == step or opener == "[" and index == step) and \
                    not (want and n == len(steps) and text[i] not in want):
                found = (i, value_end)
                break
            index += 1
            i = _skip(text, value_end)
            if text[i] == ",":
                i = _skip(text, i + 1)
        if found is None:
            return None
        start, end = found
    return start, end
