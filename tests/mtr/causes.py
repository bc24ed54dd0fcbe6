"""The first difference of a failing test -> a cause, mechanically.

Rules:
- A cause is "group: detail". The group says what kind of thing is missing; the detail names
  it (the function, the variable, the keyword near a syntax error, the error expected) so the
  biggest single blockers stand out when details are counted.
- Only the first difference counts: a test is blocked by one cause at a time. Fixing it may
  reveal the next one, so the counts say where to start, not how much each fix will gain.
- Rules are tried in order; the first that matches names the cause. They read the client's
  message when it stopped (error), else the statement and the expected / actual lines.
- Every group has an owner: `engine SQL` (issue 13: grammar, functions, types, variables,
  charsets, the mysql schema), `schema statements` (issue 9: views, temporary tables, CREATE
  ... LIKE / SELECT, ALTER ... MODIFY, PREPARE ... FROM, window functions, information_schema,
  time zones), `privileges (issue 10)`, `stored programs (issue 13)` (procedures, functions,
  triggers), `events` (no issue yet), or `not planned` with the reason (what rampmeter will
  not have: MariaDB's optimizer and storage engines, their counters, server internals).
"""

from __future__ import annotations

import re
from collections.abc import Callable

OWNERS = {
    "syntax refused": "engine SQL",
    "function missing": "engine SQL",
    "system variable missing": "engine SQL",
    "error not raised": "engine SQL",
    "other error raised": "engine SQL",
    "unexpected error": "engine SQL",
    "character set or collation missing": "engine SQL",
    "mysql schema": "engine SQL",
    "SHOW CREATE TABLE: default engine / charset": "engine SQL",
    "warnings differ": "engine SQL",
    "result differs": "engine SQL",
    "result metadata differs": "engine SQL",
    "accounts and privileges": "privileges (issue 10)",
    "mysql grant tables are read-only": "privileges (issue 10): the mysql tables mirror the "
                                        "grant file",
    "AUTO_INCREMENT beside another key": "engine SQL",
    "server output differs": "engine SQL",
    "views": "schema statements",
    "CREATE TABLE ... SELECT / LIKE": "schema statements",
    "temporary tables": "schema statements",
    "ALTER TABLE forms": "schema statements",
    "PREPARE ... FROM / EXECUTE": "schema statements",
    "window functions": "schema statements",
    "information_schema": "schema statements",
    "time zones": "schema statements",
    "foreign keys": "schema statements",
    "multi-table UPDATE / DELETE": "schema statements",
    "stored programs": "stored programs (issue 13)",
    "mtr.add_suppression (a stored procedure)": "stored programs (issue 13)",
    "EXPLAIN / ANALYZE plans": "engine SQL: SQLite's plan in MariaDB's columns; differs where "
                               "MariaDB's optimizer plans otherwise",
    "optimizer and handler counters": "not planned: counters of MariaDB's optimizer and "
                                      "storage engines",
    "spatial types": "engine SQL: the types and functions (shapely), no spatial indexes",
    "full-text search": "engine SQL: MATCH follows MyISAM's rules, row by row (no index)",
    "partitioning": "not planned yet: no partitioning",
    "events and scheduler": "events (no issue yet)",
    "other": "engine SQL",
}


def owner(cause: str) -> str:
    return OWNERS.get(cause.split(":")[0], "engine SQL")


Rule = Callable[[str, str, str, str], str | None]
_RULES: list[Rule] = []


def rule(fn: Rule) -> Rule:
    _RULES.append(fn)
    return fn


def classify(outcome: dict[str, object]) -> str:
    status = str(outcome.get("status", "not run"))
    if status == "not run":
        return "not run"
    error = str(outcome.get("error", ""))
    stmt = str(outcome.get("statement", ""))
    expected = str(outcome.get("expected", ""))
    actual = str(outcome.get("actual", ""))
    if status == "skip":
        detail = _skip_detail(error)
        if "geometry" in detail:
            return "spatial types"
        if detail in ("have_utf16", "have_utf32", "have_ucs2", "have_collation.inc",
                      "have_utf16.inc", "have_utf32.inc"):
            return f"character set or collation missing: {detail} (test skipped)"
        return "skipped on rampmeter: " + detail
    if status == "timeout":
        return "result differs: timed out"
    for fn in _RULES:
        found = fn(error, stmt, expected, actual)
        if found:
            return found
    return "other"


def _skip_detail(error: str) -> str:
    m = re.search(r"Test requires: '([^']+)'", error)
    if m:
        return m.group(1)
    m = re.search(r"Detected in file \S*?([\w-]+\.inc)", error)
    return m.group(1) if m else error[:60]


def _query(error: str) -> str:
    m = re.search(r"query '(.*)' (?:failed|succeeded)", error, re.DOTALL)
    return m.group(1) if m else ""


# --- statements rampmeter does not have (whatever the error says) -----------------------------
_STATEMENTS: tuple[tuple[str, str], ...] = (
    (r"\bmtr\.add_suppression\b", "mtr.add_suppression (a stored procedure)"),
    (r"^\s*(create|alter|drop)\s+(or\s+replace\s+)?(definer\s*=\s*\S+\s+)?"
     r"(sql\s+security\s+\w+\s+)?(algorithm\s*=\s*\w+\s+)?view\b", "views"),
    (r"^\s*create\s+(or\s+replace\s+)?(temporary\s+)?table\b[^(]*\blike\b|"
     r"^\s*create\s+(or\s+replace\s+)?table\b.*\)\s*(\w+\s*=\s*\S+\s*)*(as\s+)?select\b|"
     r"^\s*create\s+(or\s+replace\s+)?table\s+[\w`.]+\s+(as\s+)?select\b",
     "CREATE TABLE ... SELECT / LIKE"),
    (r"\btemporary\s+table", "temporary tables"),
    (r"^\s*(create|drop|alter|show\s+create)\s+(or\s+replace\s+)?(definer\s*=\s*\S+\s+)?"
     r"(aggregate\s+)?(procedure|function|trigger|package)\b|^\s*call\s|"
     r"^\s*begin\s+not\s+atomic|^\s*(for|while|repeat|loop)\b.*\bdo\b|"
     r"^\s*show\s+(procedure|function)\s+(status|code)",
     "stored programs"),
    (r"^\s*(create|alter|drop)\s+event\b|event_scheduler", "events and scheduler"),
    (r"^\s*(prepare\s+\w+\s+from|execute\s+\w+|deallocate\s+prepare|execute\s+immediate)\b",
     "PREPARE ... FROM / EXECUTE"),
    (r"\bover\s*\(|\bover\s+\w+\b|\bwindow\s+\w+\s+as\b", "window functions"),
    (r"\b(match\s*\(.*\)\s*against|fulltext)\b", "full-text search"),
    (r"\b(geometry|point|polygon|linestring|multipolygon|st_\w+)\b\s*[(,)]?",
     "spatial types"),
    (r"\bconvert_tz\b|time_zone", "time zones"),
    (r"^\s*alter\s+table\b.*\b(modify|change|alter\s+column|convert\s+to)\b",
     "ALTER TABLE forms"),
    (r"\bforeign\s+key\b|\breferences\s+\w", "foreign keys"),
    (r"^\s*(update|delete)\b(\s+ignore)?\s+[\w`.]+\s*(,|\s+(inner\s+|left\s+)?join\b)|"
     r"^\s*delete\s+[\w`.]+(\s*,\s*[\w`.]+)*\s+from\b",
     "multi-table UPDATE / DELETE"),
)


@rule
def statement_kind(error: str, stmt: str, expected: str, actual: str) -> str | None:
    text = _query(error) or stmt
    if not text:
        return None
    for pattern, cause in _STATEMENTS:
        if re.search(pattern, text, re.IGNORECASE | re.DOTALL):
            return cause
    return None


@rule
def explain(error: str, stmt: str, expected: str, actual: str) -> str | None:
    text = (_query(error) or stmt).lstrip().lower()
    if re.match(r"(explain|analyze\s+(format|select|update|delete|insert))", text) or \
            "select_type" in expected or "r_rows" in expected:
        return "EXPLAIN / ANALYZE plans"
    if re.search(r"show\s+(session\s+|global\s+|local\s+)?status", text) and re.match(
            r"(Handler_|Sort_|Select_|Created_tmp|Opened_|Key_|Last_query_cost|Empty_queries"
            r"|Feature_|Rows_|Table_|Com_|Questions|Queries)", expected):
        return "optimizer and handler counters"
    return None


@rule
def client_message(error: str, stmt: str, expected: str, actual: str) -> str | None:
    if not error:
        return None
    m = re.search(r"failed: \w+ \((\d+)\): (.*)", error, re.DOTALL)
    if m:
        return _by_code(int(m.group(1)), m.group(2), _query(error))
    m = re.search(r"succeeded - should have failed with error (\w+) \((\d+)\)", error)
    if m:
        if int(m.group(2)) in _PRIVILEGE_ERRORS:
            return "accounts and privileges"
        return f"error not raised: {m.group(2)} {m.group(1)}"
    m = re.search(r"failed with wrong errno (\S+) \((\d+)\).*instead of (\w+) \((\d+)\)", error,
                  re.DOTALL)
    if m and int(m.group(4)) in _PRIVILEGE_ERRORS:
        return "accounts and privileges"
    if m:
        return f"other error raised: {m.group(4)} {m.group(3)} expected, {m.group(2)} given"
    if "information_schema.collations" in error or "have_collation" in error:
        return "character set or collation missing: information_schema.COLLATIONS"
    if "Timeout in wait_condition" in error:
        return "result differs: a wait condition never held"
    if "optimizer_switch" in error:
        return "system variable missing: optimizer_switch"
    return None


def _by_code(code: int, message: str, query: str) -> str:
    if code == 1193:
        m = re.search(r"'(\w+)'", message)
        return f"system variable missing: {m.group(1) if m else message[:40]}"
    if code == 1305:
        m = re.search(r"FUNCTION \w+\.(\w+) does not exist", message)
        return f"function missing: {(m.group(1) if m else message[:40]).upper()}"
    if code == 1064:
        return f"syntax refused: {_syntax_detail(message, query)}"
    if code in (1146, 1049):
        if re.search(r"\bmysql\b", message):
            return "mysql schema"
        if "information_schema" in message.lower():
            return "information_schema"
    if code == 1036 and re.search(r"\bmysql\.", query, re.IGNORECASE):
        return "mysql grant tables are read-only"
    if code in (1115, 1273, 1253) or (code == 1231 and "character_set" in message):
        return f"character set or collation missing: {_quoted(message)}"
    if code == 1235:
        m = re.search(r"support '(.{1,40}?)'?$", message.strip())
        feature = m.group(1) if m else message[:40]
        for pattern, group in _UNSUPPORTED:
            if re.search(pattern, feature, re.IGNORECASE):
                return group
        return f"syntax refused: {feature}"
    if code in _PRIVILEGE_ERRORS:
        return "accounts and privileges"
    return f"unexpected error: {code}"


# What a 1235 "doesn't yet support 'X'" names -> the group that owns X
_UNSUPPORTED: tuple[tuple[str, str], ...] = (
    (r"CREATE TABLE \.\.\. (SELECT|LIKE)", "CREATE TABLE ... SELECT / LIKE"),
    (r"VIEW", "views"), (r"TEMPORARY", "temporary tables"),
    (r"ALTER TABLE|ADD COLUMN|CHANGE|MODIFY|ALTER COLUMN|CONVERT TO", "ALTER TABLE forms"),
    (r"PROCEDURE|FUNCTION|TRIGGER|PACKAGE", "stored programs"),
    (r"EVENT", "events and scheduler"), (r"spatial", "spatial types"),
    (r"multi-table", "multi-table UPDATE / DELETE"), (r"FULLTEXT", "full-text search"),
    (r"partition", "partitioning"), (r"PREPARE|EXECUTE|DEALLOCATE", "PREPARE ... FROM / EXECUTE"),
    (r"AUTO_INCREMENT on a column", "AUTO_INCREMENT beside another key"),
)
_PRIVILEGE_ERRORS = frozenset({1044, 1045, 1133, 1141, 1142, 1143, 1211, 1227, 1370, 1396,
                               1410, 1698, 4084})


def _quoted(message: str) -> str:
    m = re.search(r"'([^']{1,40})'", message)
    return m.group(1) if m else message[:40]


def _syntax_detail(message: str, query: str) -> str:
    """The construct MariaDB accepts and rampmeter refused: a known keyword in the
    statement, else the first word where the parser stopped."""
    for pattern, name in _CONSTRUCTS:
        if re.search(pattern, query, re.IGNORECASE | re.DOTALL):
            return name
    m = re.search(r"near '(\S{0,30})", message)
    return f"near {m.group(1)!r}" if m else "?"


_CONSTRUCTS: tuple[tuple[str, str], ...] = (
    (r"\bwith\s+rollup\b", "WITH ROLLUP"),
    (r"\b(intersect|except)\s+all\b", "INTERSECT / EXCEPT ALL"),
    (r"\bsql_calc_found_rows\b", "SQL_CALC_FOUND_ROWS"),
    (r"\bsql_(buffer_result|small_result|big_result|no_cache|cache)\b", "SQL_* select options"),
    (r"\b(update|delete)\s+ignore\b", "UPDATE / DELETE IGNORE"),
    (r"\binsert\s+(delayed|low_priority|high_priority)\b", "INSERT DELAYED / priority"),
    (r"\bvalues\s*\(\s*\)", "INSERT () VALUES ()"),
    (r"^\s*\(?\s*values\s*\(", "table value constructor"),
    (r"^\s*\(", "parenthesised query expression"),
    (r"\bextract\s*\(", "EXTRACT(unit FROM ...)"),
    (r"\bdefault\s*\(", "DEFAULT(col)"),
    (r"\bselect\b.*\binto\s+@", "SELECT ... INTO @var"),
    (r"\bset\s+statement\b", "SET STATEMENT ... FOR"),
    (r"\binterval\b", "INTERVAL expressions"),
    (r"\bcolumn_(create|get|add|delete|list|json|check|exists)\b", "dynamic columns"),
    (r"\b(left|right)\s*\(", "LEFT() / RIGHT()"),
    (r"^\s*show\b", "SHOW forms"),
    (r"\{\s*(fn|d|t|ts)\b", "ODBC escapes"),
    (r"\bxor\b", "XOR"),
    (r"\bserial\b", "SERIAL"),
)


@rule
def difference(error: str, stmt: str, expected: str, actual: str) -> str | None:
    if re.match(r"\) ENGINE=|.*DEFAULT CHARACTER SET|.*\t(latin1|utf8mb4)_\w+\t", expected) and \
            expected != actual:
        return "SHOW CREATE TABLE: default engine / charset"
    if expected.startswith("Warnings:") or re.match(r"(Warning|Note|Error)\t\d+", expected):
        return "warnings differ: missing"
    if actual.startswith("Warnings:") or re.match(r"(Warning|Note|Error)\t\d+", actual):
        return "warnings differ: extra"
    if expected.startswith("ERROR "):
        m = re.match(r"ERROR (\w+): (.{0,40})", expected)
        return f"error not raised: {m.group(1) if m else ''} {m.group(2) if m else ''}".strip()
    if actual.startswith("ERROR "):
        return f"unexpected error: {actual[6:60]}"
    if re.match(r"\s*show\b", stmt, re.IGNORECASE):
        words = stmt.split()
        return "server output differs: SHOW " + " ".join(w.upper() for w in words[1:3]
                                                           if w.isalpha())
    if stmt.lower().startswith(("connect", "disconnect", "connection")) or not stmt:
        return "result differs: client commands"
    if expected == "" or actual == "":
        return "result differs: output ended early"
    return "result differs: values"
