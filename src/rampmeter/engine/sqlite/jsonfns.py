"""The JSON functions ORMs emit, registered per handle under their MariaDB names (SQLite would
otherwise use its own json_type, with other answers): JSON_UNQUOTE, JSON_VALUE,
JSON_CONTAINS_PATH, JSON_CONTAINS, JSON_TYPE, JSON_QUOTE, JSON_LENGTH, JSON_KEYS. JSON_EXTRACT and JSON_VALID are
functions.py's.

Rules (MariaDB 10.11's):
- Documents are JSON text; a NULL argument gives NULL. Malformed JSON gives NULL.
- Paths are MariaDB's (jsonpath.py: `$`, `.key`, `."quoted key"`, `[n]`, `[last]`, and the
  wildcards, which JSON_CONTAINS_PATH takes and the others read as their first match);
  JSON_CONTAINS_PATH's mode is 'one' or 'all'. JSON_LENGTH, JSON_KEYS, JSON_CONTAINS and
  JSON_CONTAINS_PATH warn as MariaDB of a malformed document (4037 / 4038) or path (4042 /
  4041).
- JSON_VALUE(doc, path): the scalar at path as text (a string unquoted; true / false / null
  as MariaDB 10.11 gives them: '1', '0', NULL); NULL for an object, an array or no value.
- JSON_UNQUOTE of a JSON string literal ("...") gives its text with escapes undone; anything
  else comes back unchanged. JSON_TYPE names are MariaDB's: OBJECT, ARRAY, STRING, INTEGER,
  DOUBLE, BOOLEAN, NULL.
- JSON_CONTAINS(doc, candidate[, path]): an object contains an object whose pairs it contains,
  an array contains each element of a candidate array (or a scalar it holds), scalars equal.
"""

from __future__ import annotations

import functools
import json
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from rampmeter.engine.sqlite.handle import Handle

_MISSING = object()


def _text(v: Any) -> str:
    return v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v)


def _load(doc: Any) -> Any:
    try:
        return json.loads(_text(doc))
    except ValueError:
        return _MISSING


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False, separators=(", ", ": "))


class _BadPath(Exception):
    pass


def _is_dict(v: Any) -> bool:
    return isinstance(v, dict)


def _parse(path: Any) -> Any:
    from rampmeter.engine.sqlite import jsonpath
    return jsonpath.parse(_text(path))


def _at(value: Any, path: Any) -> Any:
    """The value at a path (MariaDB's, jsonpath.py: `[0]` of a non-array is the value); its
    first match for a path with wildcards; _MISSING when nothing is there or the path is
    malformed."""
    from rampmeter.engine.sqlite import jsonpath
    steps, _position = _parse(path)
    if steps is None:
        return _MISSING
    found = jsonpath.matches(value, steps, _is_dict)
    return found[0] if found else _MISSING


def _load_warn(host: Any, doc: Any, function: str) -> Any:
    """_load, with MariaDB's 4037 / 4038 warning for a malformed document."""
    value = _load(doc)
    if value is _MISSING and host is not None:
        from rampmeter.engine.sqlite.functions_json import well_formed
        well_formed(host, _text(doc), function, 1)
    return value


def _path_warn(host: Any, path: Any, function: str, argument: int) -> bool:
    """Is the path well formed? Else MariaDB's 4042 / 4041 warning, False."""
    from rampmeter.engine.sqlite import jsonpath
    return jsonpath.parse_or_warn(host, _text(path), function, argument) is not None


def json_unquote(v: Any) -> Any:
    if v is None:
        return None
    text = _text(v)
    if len(text) >= 2 and text[0] == '"' and text[-1] == '"':
        try:
            out = json.loads(text)
        except ValueError:
            return text
        return out if isinstance(out, str) else text
    return text


def json_value(doc: Any, path: Any) -> Any:
    if doc is None or path is None:
        return None
    value = _load(doc)
    if value is _MISSING:
        return None
    found = _at(value, path)
    if found is _MISSING or found is None or isinstance(found, (dict, list)):
        return None
    if isinstance(found, bool):
        return "1" if found else "0"
    return found if isinstance(found, str) else _dump(found)


def json_contains_path(host: Any, doc: Any, mode: Any, *paths: Any) -> Any:
    if doc is None or mode is None or any(p is None for p in paths):
        return None
    value = _load_warn(host, doc, "json_contains_path")
    kind = _text(mode).lower()
    if value is _MISSING or kind not in ("one", "all"):
        return None
    if not all(_path_warn(host, p, "json_contains_path", n) for n, p in enumerate(paths, 3)):
        return None
    found = [_at(value, p) is not _MISSING for p in paths]
    return int(any(found) if kind == "one" else all(found))


def _contains(doc: Any, cand: Any) -> bool:
    if isinstance(doc, dict):
        return isinstance(cand, dict) and all(k in doc and _contains(doc[k], v)
                                              for k, v in cand.items())
    if isinstance(doc, list):
        if isinstance(cand, list):
            return all(any(_contains(d, c) for d in doc) for c in cand)
        return any(_contains(d, cand) for d in doc)
    return type(doc) is type(cand) and doc == cand or (
        isinstance(doc, (int, float)) and isinstance(cand, (int, float))
        and not isinstance(doc, bool) and not isinstance(cand, bool) and doc == cand)


def json_contains(host: Any, doc: Any, candidate: Any, path: Any = _MISSING) -> Any:
    if doc is None or candidate is None or path is None:
        return None
    value = _load_warn(host, doc, "json_contains")
    if value is _MISSING:
        return None
    cand = _load(candidate)
    if cand is _MISSING:
        return None
    if path is not _MISSING:
        if not _path_warn(host, path, "json_contains", 3):
            return None
        value = _at(value, path)
        if value is _MISSING:
            return None
    return int(_contains(value, cand))


def json_type(v: Any) -> Any:
    if v is None:
        return None
    value = _load(v)
    if value is _MISSING:
        return None
    if isinstance(value, dict):
        return "OBJECT"
    if isinstance(value, list):
        return "ARRAY"
    if isinstance(value, str):
        return "STRING"
    if isinstance(value, bool):
        return "BOOLEAN"
    if isinstance(value, int):
        return "INTEGER"
    if isinstance(value, float):
        return "DOUBLE"
    return "NULL"


def json_quote(v: Any) -> Any:
    return None if v is None else json.dumps(_text(v), ensure_ascii=False)


def json_length(host: Any, doc: Any, path: Any = _MISSING) -> Any:
    if doc is None or path is None:
        return None
    value = _load_warn(host, doc, "json_length")
    if value is not _MISSING and path is not _MISSING:
        if not _path_warn(host, path, "json_length", 2):
            return None
        value = _at(value, path)
    if value is _MISSING:
        return None
    return len(value) if isinstance(value, (dict, list)) else 1


def json_keys(host: Any, doc: Any, path: Any = _MISSING) -> Any:
    if doc is None or path is None:
        return None
    value = _load_warn(host, doc, "json_keys")
    if value is not _MISSING and path is not _MISSING:
        if not _path_warn(host, path, "json_keys", 2):
            return None
        value = _at(value, path)
    return _dump(list(value)) if isinstance(value, dict) else None


def register(handle: Handle, host: Any = None) -> None:
    """Every function on the handle; those that warn get `host` (the handle's occupant)."""
    warns = functools.partial
    for name, nargs, fn in (
            ("json_unquote", 1, json_unquote), ("json_value", 2, json_value),
            ("json_contains_path", -1, warns(json_contains_path, host)),
            ("json_contains", 2, warns(json_contains, host)),
            ("json_contains", 3, warns(json_contains, host)),
            ("json_type", 1, json_type), ("json_quote", 1, json_quote),
            ("json_length", 1, warns(json_length, host)),
            ("json_length", 2, warns(json_length, host)),
            ("json_keys", 1, warns(json_keys, host)), ("json_keys", 2, warns(json_keys, host))):
        handle.create_function(name, nargs, fn, deterministic=True)
