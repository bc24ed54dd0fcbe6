"""SQL functions the engine registers on each handle: values of the session (@@vars, @vars,
CONNECTION_ID(), DATABASE(), USER(), LAST_INSERT_ID()...), time, user locks, SLEEP, and the
engine's own helpers (rm_cv converts a stored value, rm_row_* count changed rows).

Rules:
- A function reaches the session only through `Host`, the narrow face SqliteSession shows it;
  nothing here touches the session's other state.
- An error a function raises (a ServerError, or an interrupted wait) is handed to the host and
  reported as the statement's error: SQLite would otherwise turn it into "user-defined function
  raised exception".
- Arguments arrive as SQLite gives them; numbers in text are read as MariaDB reads them
  (values.parse_number), so SLEEP('x') sleeps 0 seconds, as in MariaDB, rather than failing.
"""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import random
import re
import time
import uuid
from collections.abc import Callable
from decimal import ROUND_HALF_UP, Decimal
from typing import Any, Protocol

from rampmeter import errors
from rampmeter.engine.base import SessionContext, WaitHook, WaitReason
from rampmeter.engine.locks import LockTable, WaitAborted
from rampmeter.engine.sqlite import (
    bigunsigned,
    bitconv,
    collations,
    cycle,
    exactdec,
    funclib,
    functions_cast,
    jsontable,
    uservars,
)
from rampmeter.engine.sqlite.functions_cast import _show, _signed_int
from rampmeter.engine.sqlite.functions_time import session_now
from rampmeter.engine.values import big_unsigned, parse_number
from rampmeter.errors import ServerError
from rampmeter.sql import charsets
from rampmeter.sql.lexer import shown_bytes


class Host(Protocol):
    """What the functions may ask of the session they run for."""

    context: SessionContext
    waiting: WaitHook

    @property
    def database(self) -> str | None: ...

    @property
    def last_insert_id(self) -> int: ...

    def set_last_insert_id(self, value: int) -> None: ...

    def found_rows(self) -> int: ...

    def row_count(self) -> int: ...

    def cancelled(self) -> bool: ...

    def sleep(self, seconds: float) -> None: ...

    def function_failed(self, error: ServerError) -> None: ...

    def cast(self, index: int, value: Any) -> Any: ...

    def warn(self, code: int, message: str, level: str = "Warning") -> None: ...

    def division_by_zero(self) -> None: ...

    def row_updated(self, changed: int) -> None: ...

    def row_deleted(self, *old: Any) -> None: ...

    def user_locks(self) -> UserLocks: ...

    statement_state: dict[Any, Any]  # functions' state for the current statement (RAND, NOW)


class UserLocks(Protocol):
    connection_id: int
    user_locks: int


def _number(v: Any) -> float:
    if v is None:
        return 0.0
    if isinstance(v, (int, float)):
        return float(v)
    num, _whole = parse_number(v.decode("latin-1") if isinstance(v, bytes) else str(v))
    return float(num) if num is not None else 0.0


def _bytes(v: Any) -> bytes:
    return v if isinstance(v, bytes) else str(v).encode("utf-8", "surrogateescape")


def _utc_text(fsp: Any) -> str:
    n = max(0, min(int(_number(fsp)), 6))
    text = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M:%S.%f")
    return text[:20 + n] if n else text[:19]


def _now() -> dt.datetime:
    return dt.datetime.now()


def now_text(fsp: Any = 0) -> str:
    n = max(0, min(int(_number(fsp)), 6))
    text = _now().strftime("%Y-%m-%d %H:%M:%S.%f")
    return text[:20 + n] if n else text[:19]


def _unix_timestamp(value: Any) -> Any:
    if value is None:
        return None
    try:
        return int(dt.datetime.fromisoformat(str(value)).timestamp())
    except ValueError:
        return 0


def _from_unixtime(value: Any) -> Any:
    if value is None:
        return None
    return dt.datetime.fromtimestamp(_number(value)).strftime("%Y-%m-%d %H:%M:%S")


def _rand(seed: Any = None) -> float:
    return random.Random(seed).random() if seed is not None else random.random()


def _concat_ws(sep: Any, *args: Any) -> Any:
    if sep is None:
        return None
    return str(sep).join(str(a) for a in args if a is not None)


def _hash(algorithm: str) -> Callable[[Any], Any]:
    def digest(v: Any) -> Any:
        return None if v is None else hashlib.new(algorithm, _bytes(v)).hexdigest()
    return digest


_U64 = (1 << 64) - 1
_INT_MAX = (1 << 63) - 1
_I64 = (1 << 63) - 1


def _u64(v: Any) -> int:
    """A value as MariaDB's unsigned 64-bit bit operations read it."""
    if v is None:
        return 0
    if isinstance(v, str) and v[:1] == "~":
        return int(v[1:])
    if isinstance(v, (int, float)) and not isinstance(v, bool):
        n = int(v)
    else:
        num, _whole = parse_number(v.decode("latin-1") if isinstance(v, bytes) else str(v))
        n = int(num) if num is not None else 0
    return n & _U64


def _as_sqlite_int(n: int) -> Any:
    return n if n <= 2**63 - 1 else f"~{n:020d}"


def bitop(op: str, a: Any, b: Any, kinds: str = "", warn: bitconv.Warn | None = None) -> Any:
    """rm_bitop: `kinds` are the operands' static types (bitconv.kind_of), `warn` the
    session's warning sink for the conversions' 1916 / 1292."""
    if a is None or op != "~" and b is None:
        return None
    if warn is None:
        x, y = _u64(a), _u64(b)
    else:
        x = bitconv.operand(a, kinds[:1], warn)
        y = bitconv.operand(b, kinds[1:2], warn) if op != "~" else 0
    if op == "~":
        r = ~x & _U64
    elif op == "&":
        r = x & y
    elif op == "|":
        r = x | y
    elif op == "^":
        r = x ^ y
    elif op == "<<":
        r = (x << y) & _U64 if y < 64 else 0
    else:
        r = x >> y if y < 64 else 0
    return _as_sqlite_int(r)


def uarith(op: str, a: Any, b: Any, text: str) -> Any:
    """Integer arithmetic with an UNSIGNED side, exact over 64 bits: out of 0..2^64-1 is
    MariaDB's 1690."""
    if a is None or b is None:
        return None
    if isinstance(a, float) or isinstance(b, float):
        fa, fb = float(_signed_int(a)) if not isinstance(a, float) else a, \
            float(_signed_int(b)) if not isinstance(b, float) else b
        return fa + fb if op == "+" else fa - fb if op == "-" else fa * fb if op == "*" else \
            (int(fa / fb) if fb else None)
    x, y = _signed_int(a), _signed_int(b)
    if op == "+":
        r = x + y
    elif op == "-":
        r = x - y
    elif op == "*":
        r = x * y
    elif op == "%":  # MOD: the dividend's sign
        if y == 0:
            return None
        r = abs(x) % abs(y) * (1 if x >= 0 else -1)
    else:
        if y == 0:
            return None
        r = abs(x) // abs(y) * (1 if (x >= 0) == (y >= 0) else -1)
    if r < 0 or r > _U64:
        raise ServerError(errors.ER_DATA_OUT_OF_RANGE, message="BIGINT UNSIGNED value is out "
                          f"of range in '{text}'", sqlstate="22003")
    return _as_sqlite_int(r)


def _limit_value(v: Any, offset: Any) -> Any:
    """A LIMIT / OFFSET value as MariaDB reads it: an unsigned 64-bit count (a number
    rounded, a string's leading integer: 'qwe' is 0, '2.6' is 2), a negative one is 1210 "Incorrect arguments to EXECUTE"
    (only a parameter can be one); past SQLite's range no limit / the largest offset."""
    if v is None:
        return 0
    if isinstance(v, str) and v[:1] == "~":
        n = int(v[1:])
    elif isinstance(v, (int, float)) and not isinstance(v, bool):
        n = int(v) if isinstance(v, int) else round(v)
    else:
        num, _whole = parse_number(v.decode("latin-1") if isinstance(v, bytes) else str(v))
        n = int(num) if num is not None else 0  # '2.6' is 2, as a string's integer
    if n < 0:
        raise ServerError(errors.ER_WRONG_ARGUMENTS, "EXECUTE")
    if n > _INT_MAX:
        return _INT_MAX if offset else -1
    return n


def _too_many_rows() -> None:
    raise ServerError(1242, message="Subquery returns more than 1 row", sqlstate="21000")


def _microsecond(v: Any) -> Any:
    if v is None:
        return None
    text = str(v)
    if "." not in text:
        return 0
    frac = text.rsplit(".", 1)[1]
    return int((frac + "000000")[:6]) if frac.isdigit() else 0


def _json_extract(host: Host, doc: Any, paths: tuple[Any, ...]) -> Any:
    """JSON_EXTRACT(doc, path, ...): the value at each path (an array of them when several
    paths), as JSON text; malformed JSON is NULL with MariaDB's warning (4037 / 4038 /
    4040). A value is its text in the document (the first of duplicate keys; numbers as
    written) in MariaDB's loose layout (`, ` and `: `, no other spaces)."""
    if doc is None or any(p is None for p in paths):
        return None
    from rampmeter.engine.sqlite.functions_json import loose, span_at, well_formed
    text = _show(doc)
    if not well_formed(host, text, "json_extract", 1):
        return None
    if len(paths) == 1:
        steps = _json_path(_show(paths[0]))
        if steps is not None:  # the common case: one simple path, its text as written
            where = span_at(text, steps)
            if where is not None:
                return loose(text[where[0]:where[1]])
            if 0 not in steps:  # only `[0]` of a non-array (the value itself) reads on
                return None
    from rampmeter.engine.sqlite import jsonpath
    from rampmeter.engine.sqlite.functions_jsonedit import _DECODER, _Obj, write
    parsed = []
    for n, path in enumerate(paths, 2):
        wild = jsonpath.parse_or_warn(host, _show(path), "json_extract", n)
        if wild is None:
            return None
        parsed.append(wild)
    decoded = _DECODER.decode(text)
    is_object = (lambda v: isinstance(v, _Obj))  # noqa: E731
    order = jsonpath.document_order(decoded, is_object)
    found = sorted(((order.get(id(m), -1), k, write(m)) for k, steps in enumerate(parsed)
                    for m in jsonpath.matches(decoded, steps, is_object)),
                   key=lambda f: (f[0], f[1]))
    if not found:
        return None
    if len(paths) == 1 and not jsonpath.has_wildcards(parsed[0]):
        return found[0][2]
    return "[" + ", ".join(f[2] for f in found) + "]"


JSON_TAG = "\x00J"  # rm_json_arg's mark: the text is JSON (functions_jsonedit.py)


def _json_arg(v: Any) -> Any:
    """rm_json_arg(x): x is a JSON value, for the JSON functions that embed it as one."""
    if v is None:
        return None
    return JSON_TAG + (v.decode("utf-8", "replace") if isinstance(v, bytes) else str(v))


def _json_bool(v: Any) -> Any:
    """rm_json_bool(x): a truth value (TRUE, a comparison) as JSON true / false, for the JSON
    functions that embed values (MariaDB's is_bool_type items)."""
    if v is None:
        return None
    return JSON_TAG + ("true" if v else "false")


def _json_decimal(v: Any, scale: int) -> Any:
    """rm_json_dec(v, scale): a decimal literal embedded with its digits (1.50), as MariaDB
    does; v is its text (scale -1) or its bound value (an int or a float when it fits, its
    digits when not: dml.sqlite_value)."""
    if v is None:
        return None
    if isinstance(v, (str, bytes)) or scale < 0:
        return JSON_TAG + (v.decode() if isinstance(v, bytes) else str(v))
    d = Decimal(repr(v)) if isinstance(v, float) else Decimal(v)
    return JSON_TAG + f"{abs(d) if d == 0 else d:.{scale}f}"  # -0.0 is 0.0


def _json_path(path: str) -> list[str | int] | None:
    """'$.a[2].b' -> ['a', 2, 'b']; None when it is not a simple JSON path."""
    path = path.strip()
    if not path.startswith("$"):
        return None
    steps: list[str | int] = []
    for m in re.finditer(r'\.(?:"((?:[^"\\]|\\.)*)"|([\w$]+))|\[(\d+)\]', path[1:]):
        if m.group(3) is not None:
            steps.append(int(m.group(3)))
        else:
            steps.append(m.group(1) if m.group(1) is not None else m.group(2))
    rebuilt = "".join(m.group(0) for m in re.finditer(
        r'\.(?:"(?:[^"\\]|\\.)*"|[\w$]+)|\[\d+\]', path[1:]))
    return steps if rebuilt == path[1:] else None


# --- character sets: values are Unicode text (or bytes) inside SQLite; these give the bytes or
# the characters MariaDB would have in the named character set.
def encode_as(v: Any, charset: str) -> Any:
    """The bytes of v in `charset` (LENGTH / HEX / OCTET_LENGTH of a latin1 column count those)."""
    if v is None or isinstance(v, bytes):
        return v
    cs = charsets.charset(charset)
    text = _show(v)
    return cs.encode(text) if cs is not None else text.encode("utf-8", "surrogateescape")


def hex_of(v: Any, mode: str) -> Any:
    """HEX(): a number (mode 'n', or a Python number when the type is unknown) in base 16 as an
    unsigned 64-bit integer after rounding; a string, its bytes in `mode`'s character set."""
    if v is None:
        return None
    if mode == "n" or mode == "" and isinstance(v, (int, float)):
        if isinstance(v, str) and v[:1] == "~":
            n = int(v[1:])
        else:
            d = v if isinstance(v, int) else Decimal(repr(v)) if isinstance(v, float) else \
                parse_number(_show(v))[0] or Decimal(0)
            n = int(Decimal(d).to_integral_value(ROUND_HALF_UP))
        if n > _U64 or n < -(1 << 63):
            n = _U64 if n > 0 else 1 << 63
        return format(n & _U64, "X")
    data = v if isinstance(v, bytes) else encode_as(v, mode or "utf8mb4")
    return data.hex().upper()


def unhex(v: Any) -> Any:
    if v is None:
        return None
    text = _show(v)
    if len(text) % 2:
        text = "0" + text
    try:
        return bytes.fromhex(text) if all(c in _HEXDIGITS for c in text) else None
    except ValueError:
        return None


_HEXDIGITS = frozenset("0123456789abcdefABCDEF")


def shown(data: bytes, cs: Any, from_invalid: bool = False) -> str:
    """Bytes quoted in a message: read in `cs`, invalid bytes as \\xHH (1300 quotes from the
    first invalid one on)."""
    text = cs.decode(data)
    if from_invalid:
        first = next((i for i, ch in enumerate(text) if 0xDC80 <= ord(ch) <= 0xDCFF), 0)
        text = text[first:]
    return shown_bytes(text)


def _ntile_varies() -> None:
    """NTILE's argument changed within a partition (windows.py): MariaDB's 4024."""
    raise ServerError(4024, message="Argument of NTILE must be greater than 0", sqlstate="HY000")


def register(handle: Any, host: Host, locks: LockTable) -> None:
    """Register every function on `handle` (a Handle), answering for `host`."""

    def guarded(fn: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any) -> Any:
            try:
                return fn(*args)
            except ServerError as e:
                host.function_failed(e)
                raise
            except WaitAborted:
                host.function_failed(ServerError(errors.ER_QUERY_INTERRUPTED))
                raise
        return call

    def too_many_rows() -> None:
        """1242; UPDATE / DELETE IGNORE make it a warning and the subquery NULL, row by row,
        as MariaDB's (mtr delete: the rows whose subquery gives one row still go)."""
        try:
            plan = host.current.plan
        except AttributeError:  # no session, or no statement running
            plan = None
        if plan is not None and plan.ignore and plan.kind in ("UPDATE", "DELETE"):
            host.warn(1242, "Subquery returns more than 1 row")
            return
        _too_many_rows()

    def sysvar(name: str, scope: str | None) -> Any:
        value = host.context.system_variable(name, scope)
        if isinstance(value, Decimal):  # a DOUBLE variable (typed with 6 decimals: infer.py)
            return float(value)
        if isinstance(value, int) and value > _I64:  # BIGINT UNSIGNED (max_join_size, ...)
            return big_unsigned(value)
        return int(value) if isinstance(value, bool) else value

    def uservar(name: str) -> Any:
        value = host.context.user_variable(name)
        if type(value) is charsets.TextIn:
            return str(value)
        if type(value) is int and (value > _I64 or value < -_I64 - 1):
            return str(value)  # its digits: the type is not known here
        if isinstance(value, Decimal):
            return int(value) if value == value.to_integral_value() and \
                abs(value) < 2**63 else float(value)
        return value

    def set_last_insert_id(value: Any) -> Any:
        host.set_last_insert_id(int(_number(value)))
        return value

    def sleep(seconds: Any) -> int:
        if isinstance(seconds, (str, bytes)):
            num, whole = parse_number(_show(seconds))
            if num is None or not whole:
                host.warn(errors.ER_TRUNCATED_WRONG_VALUE,
                          f"Truncated incorrect DOUBLE value: '{_show(seconds)}'")
        secs = _number(seconds)
        if secs > 0:
            host.sleep(secs)
        return 0

    def setvar(name: str, value: Any) -> Any:
        if isinstance(value, str) and value[:1] == "~" and value[1:].isdigit():
            # an unsigned value above BIGINT's (values.big_unsigned)
            host.context.set_user_variable(name, int(value[1:]))
            return value
        host.context.set_user_variable(name, value)
        return value

    def setvar_cs(name: str, value: Any, charset: str) -> Any:
        """@v := text of a character set other than utf8mb4: the variable keeps it."""
        host.context.set_user_variable(name, charsets.text_in(value, charset))
        return value

    def uservar_cs(name: str, default: str) -> str:
        """The character set of @name's text (rm_setvar_cs), else `default`."""
        value = host.context.user_variable(name)
        return value.charset if type(value) is charsets.TextIn else default

    def setvar_dec(name: str, value: Any, scale: int) -> Any:
        """@v := a DECIMAL expression: the variable holds the exact DECIMAL (uservars.py)."""
        host.context.set_user_variable(name, uservars.exact(value, scale))
        return value

    def json_extract(doc: Any, *paths: Any) -> Any:
        return _json_extract(host, doc, paths)

    def json_valid(doc: Any) -> Any:
        if doc is None:
            return None
        from rampmeter.engine.sqlite.functions_json import well_formed
        return 1 if well_formed(host, _show(doc), "json_valid", 1, level="Note") else 0

    def lock_name(name: Any) -> str:
        return "user:" + str(name).lower()

    def get_lock(name: Any, timeout: Any) -> int | None:
        if name is None:
            return None
        t = _number(timeout)
        if t < 0:
            t = 365 * 86400.0
        owner = host.user_locks()
        key = lock_name(name)
        if locks.try_acquire(key, owner):
            owner.user_locks += 1
            return 1
        with host.waiting(WaitReason.USER_LOCK):
            ok = locks.acquire(key, owner, t, host.cancelled)
        if ok:
            owner.user_locks += 1
        return 1 if ok else 0

    def release_lock(name: Any) -> int | None:
        owner = host.user_locks()
        key = lock_name(name)
        holder = locks.owner_of(key)
        if holder is None:
            return None
        if holder is not owner:
            return 0
        locks.release(key, owner)
        owner.user_locks -= 1
        return 1

    def is_free_lock(name: Any) -> int:
        return 0 if locks.owner_of(lock_name(name)) else 1

    def is_used_lock(name: Any) -> int | None:
        holder = locks.owner_of(lock_name(name))
        return getattr(holder, "connection_id", None)

    def release_all_locks() -> int:
        owner = host.user_locks()
        freed = owner.user_locks
        locks.release_all(owner, names=lambda n: n.startswith("user:"))
        owner.user_locks = 0
        return freed

    def div0(dividend: Any = 0) -> None:
        if dividend is not None:  # NULL / 0 is NULL without a warning (MariaDB's real_op)
            host.division_by_zero()
        return None

    utf8 = charsets.charset("utf8mb4")

    def invalid_string(data: bytes, cs: Any) -> None:
        host.warn(errors.ER_INVALID_CHARACTER_STRING, f"Invalid {cs.name} character string: "
                  f"'{shown(data, cs, from_invalid=True)}'")

    def to_charset(v: Any, to: str, source: str) -> Any:
        """CONVERT(v USING to) / CAST(v AS CHAR CHARACTER SET to): characters `to` cannot hold
        become '?'; bytes are read in `to` (binary: bytes as they are, text in `source`)."""
        if v is None:
            return None
        cs = charsets.charset(to)
        assert cs is not None  # checked at translation
        if cs.is_binary:
            return encode_as(v, source)
        if isinstance(v, bytes):
            text = cs.decode(v)
            if not charsets.is_valid(text):
                invalid_string(v, cs)
                text = "".join("?" if 0xDC00 <= ord(c) <= 0xDCFF else c for c in text)
            return text
        text = _show(v)
        return cs.decode(cs.encode(text)) if cs.name not in ("utf8mb4", "utf8mb3") else text

    def cast_char(v: Any, length: int, source: str, target: str = "utf8mb4") -> Any:
        """CAST(v AS CHAR[(n)]): text in the connection's character set (`target`), n
        characters at most (warning 1292 past them)."""
        if v is None:
            return None
        into = charsets.charset(target) or utf8
        if isinstance(v, bytes) and 0 <= length:
            # bytes past the n characters kept are not read (MariaDB's 1300 only for an
            # invalid one among them); 1292 quotes the binary value, bytes outside printable
            # ASCII as \xHH (ErrConvString)
            whole = into.decode(v)
            if len(whole) > length:
                text = whole[:length]
                if not charsets.is_valid(text):
                    invalid_string(v, into)
                    text = "".join("?" if 0xDC80 <= ord(c) <= 0xDCFF else c for c in text)
                quoted = "".join(chr(b) if 0x20 <= b < 0x7F else f"\\x{b:02X}" for b in v)
                host.warn(errors.ER_TRUNCATED_WRONG_VALUE,
                          f"Truncated incorrect CHAR({length}) value: '{quoted}'")
                return text
        text = to_charset(v, into.name, source)
        if 0 <= length < len(text):
            host.warn(errors.ER_TRUNCATED_WRONG_VALUE,
                      f"Truncated incorrect CHAR({length}) value: '{text}'")
            text = text[:length]
        return text

    def cast_binary(v: Any, length: int, source: str) -> Any:
        """CAST(v AS BINARY[(n)]): the bytes, padded with NUL to n or cut there (1292)."""
        if v is None:
            return None
        data = encode_as(v, source)
        if length >= 0:
            if len(data) > length:
                host.warn(errors.ER_TRUNCATED_WRONG_VALUE, f"Truncated incorrect "
                          f"BINARY({length}) value: '{shown(data, utf8)}'")
                data = data[:length]
            data = data.ljust(length, b"\0")
        return data

    def clock(fsp: Any = 0) -> str:
        n = max(0, min(int(_number(fsp)), 6))
        text = session_now(host).strftime("%Y-%m-%d %H:%M:%S.%f")
        return text[:20 + n] if n else text[:19]

    ctx = host.context

    def current_user() -> Any:
        definer = getattr(host, "definer_context", None)  # a DEFINER view's write (viewdml)
        return definer[0] if definer is not None else ctx.current_user

    def current_role() -> Any:
        definer = getattr(host, "definer_context", None)
        return definer[1] if definer is not None else getattr(ctx, "current_role", None)

    fns: list[tuple[str, int, Callable[..., Any]]] = [
        ("rm_sysvar", 2, guarded(sysvar)), ("rm_uservar", 1, uservar),
        ("rm_database", 0, lambda: host.database), ("database", 0, lambda: host.database),
        ("schema", 0, lambda: host.database),
        ("rm_version", 0, lambda: ctx.system_variable("version")),
        ("rm_user", 0, lambda: ctx.user), ("rm_current_user", 0, current_user),
        ("rm_current_role", 0, current_role),
        ("connection_id", 0, lambda: ctx.connection_id),
        ("last_insert_id", 0, lambda: host.last_insert_id),
        ("last_insert_id", 1, set_last_insert_id),
        ("found_rows", 0, host.found_rows), ("row_count", 0, host.row_count),
        ("rm_now", 0, clock), ("rm_now", 1, clock),
        ("rm_curdate", 0, lambda: clock()[:10]),
        ("rm_curtime", 0, lambda: clock()[11:]),
        ("rm_curtime", 1, lambda fsp: clock(fsp)[11:]),
        ("rm_utc_timestamp", 0,
         lambda: dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M:%S")),
        ("rm_unix_timestamp", 0, lambda: int(time.time())),
        ("rm_unix_timestamp", 1, _unix_timestamp),
        ("rm_from_unixtime", 1, _from_unixtime),
        ("rm_octet_length", 1, lambda v: None if v is None else len(_bytes(v))),
        ("sleep", 1, guarded(sleep)),
        ("get_lock", 2, guarded(get_lock)), ("release_lock", 1, release_lock),
        ("is_free_lock", 1, is_free_lock), ("is_used_lock", 1, is_used_lock),
        ("release_all_locks", 0, release_all_locks),
        ("uuid", 0, lambda: str(uuid.uuid1())),
        ("rand", 0, _rand), ("rand", 1, _rand),
        ("md5", 1, _hash("md5")), ("sha1", 1, _hash("sha1")),
        ("lcase", 1, lambda v: None if v is None else str(v).lower()),
        ("ucase", 1, lambda v: None if v is None else str(v).upper()),
        ("concat_ws", -1, _concat_ws),
        ("benchmark", 2, lambda n, v: 0),
        ("rm_cv", 2, guarded(lambda v, i: host.cast(i, v))),
        ("rm_div0", 0, guarded(div0)), ("rm_div0", 1, guarded(div0)),
        ("rm_setvar", 2, setvar),
        ("rm_setvar_dec", 3, setvar_dec),
        ("rm_setvar_cs", 3, setvar_cs),
        ("rm_uservar_cs", 2, uservar_cs),
        ("rm_json_extract", -1, json_extract),
        ("rm_json_valid", 1, json_valid),
        ("rm_json_arg", 1, _json_arg),
        ("rm_json_bool", 1, _json_bool),
        ("rm_json_dec", 2, _json_decimal),
        ("rm_bitop", 4, lambda op, a, b, kinds: bitop(op, a, b, kinds, host.warn)),
        ("rm_uarith", 4, guarded(uarith)),
        ("rm_subquery_rows", 0, guarded(too_many_rows)),
        ("rm_ntile_varies", 0, guarded(_ntile_varies)),
        ("rm_limit", 2, guarded(_limit_value)),
        ("rm_bin2num", 1, lambda v: None if v is None else _as_sqlite_int(
            int.from_bytes(v, "big") if isinstance(v, bytes) else _u64(v))),
        ("rm_to_charset", 3, to_charset),
        ("rm_like_bin", 3, like_bin),
        ("rm_like_nul", 1, like_nul),
        ("rm_like_coll", 4, like_coll),
        ("rm_collkey", 2, collations.collation_key),
        ("rm_cast_char", 3, cast_char), ("rm_cast_char", 4, cast_char),
        ("rm_cast_binary", 3, cast_binary),
        ("rm_encode", 2, encode_as),
        ("rm_hex", 2, hex_of),
        ("unhex", 1, unhex),
        ("rm_microsecond", 1, _microsecond),
        ("rm_utc_timestamp", 1, lambda fsp: _utc_text(fsp)),
        ("rm_utc_time", 0, lambda: _utc_text(0)[11:]),
        ("rm_utc_time", 1, lambda fsp: _utc_text(fsp)[11:]),
        ("rm_utc_date", 0, lambda: _utc_text(0)[:10]),
        ("rm_jt_rows", 2, guarded(jsontable.rows)),
        ("rm_jt_value", 4, guarded(jsontable.value)),
        ("rm_row_updated", 1, host.row_updated),
        ("rm_row_deleted", -1, host.row_deleted),
        (cycle.FUNCTION, -1, lambda tag, *v: cycle.first_seen(host.statement_state, tag, *v)),
    ]
    for name, nargs, fn in fns:
        handle.create_function(name, nargs, fn)
    handle.create_function("rm_u64s", 1, bigunsigned.u64_text, deterministic=True)
    functions_cast.register(handle, host, guarded)
    exactdec.install(handle.conn)
    funclib.install(handle, host)


def like_nul(value: Any) -> Any:
    """A LIKE operand whose ESCAPE may be NUL: NUL becomes U+10FFFF (compare.py)."""
    if isinstance(value, bytes):
        value = value.decode("utf-8", "surrogateescape")
    return value.replace("\0", "\U0010ffff") if isinstance(value, str) else value


def _like_args(value: Any, pattern: Any, escape: Any) -> tuple[str, str, str]:
    """LIKE's value, pattern and escape character as text (bytes read as UTF-8)."""
    text = value.decode("utf-8", "surrogateescape") if isinstance(value, bytes) else _show(value)
    pat = pattern.decode("utf-8", "surrogateescape") if isinstance(pattern, bytes) \
        else _show(pattern)
    esc = escape.decode("utf-8", "surrogateescape") if isinstance(escape, bytes) \
        else "" if escape is None else str(escape)
    return text, pat, esc


def like_bin(value: Any, pattern: Any, escape: Any) -> Any:
    """`value LIKE pattern ESCAPE escape` by a _bin collation: % and _ over characters, every
    other character as it is (case counts)."""
    if value is None or pattern is None:
        return None
    text, pat, esc = _like_args(value, pattern, escape)
    return 1 if _like_regex(pat, esc[:1]).fullmatch(text) else 0


def like_coll(value: Any, pattern: Any, escape: Any, collation: Any) -> Any:
    """`value LIKE pattern ESCAPE escape` by that collation: both folded character by
    character as it weighs them (collations.like_fold), then matched as they are."""
    if value is None or pattern is None:
        return None
    cs = charsets.charset(str(collation).split("_", 1)[0])
    if cs is not None and cs.codec and cs.codec != "utf-8":
        # a binary string matched by a text's collation is text of its character set
        # (big5 column LIKE CONCAT(0xF1F2, '%'))
        value = cs.decode(value) if isinstance(value, bytes) else value
        pattern = cs.decode(pattern) if isinstance(pattern, bytes) else pattern
    text, pat, esc = _like_args(value, pattern, escape)
    fold = collations.like_fold(str(collation))
    if fold is not None:
        esc = esc[:1]
        # the escape character and the wildcards stay themselves; every other one is folded
        pieces, i = [], 0
        while i < len(pat):
            c = pat[i]
            if esc and c == esc and i + 1 < len(pat):
                pieces.append(esc + fold(pat[i + 1]))
                i += 2
                continue
            pieces.append(c if c in "%_" else fold(c))
            i += 1
        pat, text = "".join(pieces), fold(text)
    return 1 if _like_regex(pat, esc[:1]).fullmatch(text) else 0


@functools.lru_cache(maxsize=256)
def _like_regex(pattern: str, escape: str) -> re.Pattern[str]:
    out, i = [], 0
    while i < len(pattern):
        c = pattern[i]
        if escape and c == escape and i + 1 < len(pattern):
            out.append(re.escape(pattern[i + 1]))
            i += 2
            continue
        out.append(".*" if c == "%" else "." if c == "_" else re.escape(c))
        i += 1
    return re.compile("".join(out), re.DOTALL)
