"""sqlglot's MySQL reader as rampmeter reads MariaDB: `parse(text)`.

Rules:
- The functions of rampmeter's library (funclib.py) parse as plain calls (exp.Anonymous, the
  arguments as written). sqlglot's portable nodes rewrite some of them on the way in
  (TO_DAYS(x) becomes DATEDIFF(x, '0000-01-01') + 1, DATE_FORMAT's format becomes strftime's,
  WEEK(x) wraps x in DATE(...)), which loses MariaDB's meaning; funcmap.py turns the calls
  into the library's mf_ functions instead.
- Forms with their own syntax (EXTRACT(unit FROM x), TRIM(LEADING s FROM x),
  SUBSTRING(x FROM n FOR m), POSITION(s IN x), CHAR(n USING cs), INTERVAL n unit) keep
  sqlglot's parsing; funcmap.py reads the nodes.
- WEIGHT_STRING's LEVEL clause and CAST(x AS INTERVAL DAY_SECOND(n)), which sqlglot does not
  read, are read here.
- Everything else is sqlglot's MySQL dialect.
"""

from __future__ import annotations

from typing import Any

import sqlglot
from sqlglot import exp
from sqlglot.dialects.mysql import MySQL
from sqlglot.tokens import TokenType

from rampmeter.engine.sqlite import funclib
from rampmeter.engine.sqlite.funcmap import TYPE_FUNCTIONS

funclib._load()


def _current_role(parser: Any) -> exp.Expression:
    """CURRENT_ROLE is a reserved word in MariaDB: the function, with or without ()."""
    if parser._match(TokenType.L_PAREN):
        parser._match_r_paren()
    return parser.expression(exp.CurrentRole())


def _cast(parser: Any) -> exp.Expression:
    """CAST(x AS INTERVAL DAY_SECOND(n)) (MariaDB 10.4+, MDEV-17776): a Cast to sqlglot's
    INTERVAL type with n as its one parameter; any other CAST is sqlglot's, with MariaDB's
    trailing COLLATE read too."""
    index = parser._index
    this = parser._parse_assignment()
    if parser._match(TokenType.ALIAS):
        _check_cast_type(parser)
        parser._retreat(parser._index - 1)
    if not (parser._match(TokenType.ALIAS) and parser._match(TokenType.INTERVAL)):
        parser._retreat(index)
        node = parser._parse_cast(parser.STRICT_CAST)
        if parser._match(TokenType.COLLATE):
            # CAST(x AS CHAR CHARACTER SET cs COLLATE c): the cast, in collation c (DEFAULT:
            # the character set's own)
            if parser._match(TokenType.DEFAULT):
                return node
            name = parser._parse_var(any_token=True)
            if name is None:
                parser.raise_error("Expected a collation")
            return parser.expression(exp.Collate(this=node, expression=name))
        return node
    if not parser._match_text_seq("DAY_SECOND"):
        from rampmeter.errors import ServerError
        raise ServerError(4161, message="Unknown data type: 'interval'", sqlstate="HY000")
    parser._match_l_paren()
    fsp = parser._parse_number()
    if fsp is None:
        parser.raise_error("Expected a precision")
    parser._match_r_paren()
    if int(fsp.name) > 6:
        from rampmeter.errors import ServerError
        shown = this.name if isinstance(this, exp.Literal) else this.sql("mysql")
        raise ServerError(1426, message=f"Too big precision specified for '{shown}'. Maximum "
                          "is 6", sqlstate="42000")
    to = exp.DataType(this=exp.DataType.Type.INTERVAL,
                      expressions=[exp.DataTypeParam(this=fsp)])
    return parser.expression(exp.Cast(this=this, to=to))


# CAST targets MariaDB's grammar (cast_type, sql_yacc.yy) does not have: 1064 at the type
_CAST_REFUSED = frozenset(
    "TEXT TINYTEXT MEDIUMTEXT LONGTEXT JSON BLOB TINYBLOB MEDIUMBLOB LONGBLOB BIGINT SMALLINT "
    "TINYINT MEDIUMINT REAL BOOLEAN BOOL YEAR BIT NUMERIC FIXED TIMESTAMP ENUM SET VARBINARY "
    "SERIAL NATIONAL".split())
# spatial types: a name MariaDB's type plugins know, but no CAST to it (4162)
_CAST_SPATIAL = frozenset(
    "POINT LINESTRING POLYGON MULTIPOINT MULTILINESTRING MULTIPOLYGON GEOMETRY "
    "GEOMETRYCOLLECTION".split())


def _check_cast_type(parser: Any) -> None:
    """MariaDB's CAST target types: 1064 at the first token its grammar cannot take (TEXT,
    JSON, BIGINT, VARCHAR without a length, DOUBLE PRECISION, FLOAT(n), ...), 4162 for a
    spatial type, as MariaDB 10.11 answers each."""
    tok = parser._curr
    if tok is None:
        return
    word = tok.text.upper()
    nxt = parser._next
    following = nxt.text.upper() if nxt is not None else ""
    if word in ("SIGNED", "UNSIGNED") and following == "INT":
        # MariaDB takes SIGNED INT as SIGNED INTEGER (sqlglot only the latter): INT read past
        del parser._tokens[parser._index + 1]
        parser._tokens_size -= 1
        parser._advance(0)
    elif word in _CAST_REFUSED:
        parser.raise_error("Unexpected CAST type", tok)
    elif word == "VARCHAR" and following != "(" or word == "DOUBLE" and following == \
            "PRECISION" or word == "FLOAT" and following == "(":
        parser.raise_error("Unexpected CAST type", nxt)
    elif word in _CAST_SPATIAL:
        if following == "(":
            parser.raise_error("Unexpected CAST type", nxt)
        from rampmeter.errors import ServerError
        raise ServerError(4162, message="Operator does not exist: 'CAST(expr AS "
                          f"{word.lower()})'", sqlstate="HY000")


# a syntax error MariaDB reports at the highlighted word (translate._syntax)
AT_WORD = "at the word: "
# the words MariaDB's lexer reads as a function after `@@global.` when `(` follows
_FUNCTION_WORDS = frozenset({"SUBSTR", "SUBSTRING", "REPLACE", "TRIM"})


def _reserved(word: str) -> bool:
    from rampmeter.sql.reserved import is_reserved
    return is_reserved(word)


class RampMySQL(MySQL):
    class Parser(MySQL.Parser):
        FUNCTIONS = {name: builder for name, builder in MySQL.Parser.FUNCTIONS.items()
                     if name not in funclib.LIBRARY and name not in TYPE_FUNCTIONS}
        # JSON_OBJECT is a plain function in MariaDB (key, value, ...): any expressions. sqlglot
        # reads it as SQL:2016's JSON_OBJECT(KEY k VALUE v ...), whose key must be a column
        # or literal, so the placeholders a statement's literals become (`:p0`, `?`) were a
        # syntax error (1064 for SELECT JSON_OBJECT('a', 1)); read as a function call, it is
        # the library's JSON_OBJECT with the same arguments. JSON_OBJECTAGG(k, v) likewise.
        FUNCTION_PARSERS = {**{name: parse for name, parse in MySQL.Parser.FUNCTION_PARSERS.items()
                               if name not in ("JSON_OBJECT", "JSON_OBJECTAGG")},
                            "WEIGHT_STRING": lambda self: _weight_string(self),
                            "CAST": lambda self: _cast(self)}
        NO_PAREN_FUNCTION_PARSERS = {**MySQL.Parser.NO_PAREN_FUNCTION_PARSERS,
                                     "CURRENT_ROLE": _current_role}
        # MariaDB's comparisons (= <=> <> < <= > >=) are one level, left-associative:
        # `1 = 3 >= 3` is (1 = 3) >= 3; sqlglot binds < > <= >= tighter than = (1 = (3 >= 3))
        EQUALITY = {**MySQL.Parser.EQUALITY, **MySQL.Parser.COMPARISON}
        COMPARISON: dict[Any, Any] = {}

        # COLLATE binds tighter than any operator, unary minus included (MariaDB's
        # COLLATE_PRECEDENCE): 2 + 3 COLLATE c is 2 + (3 COLLATE c); sqlglot reads it as + / -
        TERM = {token: node for token, node in MySQL.Parser.TERM.items()
                if token is not TokenType.COLLATE}

        def _parse_unary(self) -> Any:
            if self._match_set(self.UNARY_PARSERS):
                return self.UNARY_PARSERS[self._prev.token_type](self)
            this = self._parse_type()
            while self._match(TokenType.COLLATE):
                node = self.expression(exp.Collate(this=this, expression=self._parse_type()))
                self._normalize_collate(node)
                this = node
            return this

        def _parse_between(self, this: Any) -> Any:
            """x BETWEEN a AND predicate (MariaDB's grammar): 2 BETWEEN 1 AND 3 IN (0,1) is
            2 BETWEEN 1 AND (3 IN (0,1)); sqlglot's upper bound stops at IN / LIKE / ..."""
            node = super()._parse_between(this)
            if isinstance(node, exp.Between) and node.args.get("high") is not None:
                high = self._parse_range(node.args["high"])
                if high is not node.args["high"]:
                    node.set("high", exp.Paren(this=high))
            return node

        def _parse_session_parameter(self) -> Any:
            """@@name, @@global.name (MariaDB's lexer): after a scope and its dot any word
            names a variable (`@@global.replace` is 1193, not a syntax error); without one a
            reserved word is a syntax error at it (`@@replace`); `@@global.x(` asks the
            variable first (1193 when unknown), except for the words the lexer reads as
            functions there (SUBSTR, SUBSTRING, REPLACE, TRIM: a syntax error)."""
            tok, nxt = self._curr, self._next
            if tok is not None and nxt is not None and nxt.token_type == TokenType.DOT and \
                    tok.text.lower() in ("global", "session", "local") and \
                    self._index + 2 < len(self._tokens):
                name = self._tokens[self._index + 2]
                after = self._tokens[self._index + 3] \
                    if self._index + 3 < len(self._tokens) else None
                if name.token_type not in (TokenType.DOT, TokenType.L_PAREN):
                    if after is not None and after.token_type == TokenType.L_PAREN:
                        from rampmeter.config.options import lookup
                        if name.text.upper() not in _FUNCTION_WORDS and \
                                lookup(name.text) is None:
                            from rampmeter.errors import ServerError
                            raise ServerError(1193, name.text)
                        self._advance(2)
                        self.raise_error(AT_WORD + "a function word", name if
                                         name.text.upper() in _FUNCTION_WORDS else after)
                    self._advance(3)
                    return self.expression(exp.SessionParameter(
                        this=exp.var(name.text), kind=tok.text))
            elif tok is not None and tok.token_type != TokenType.VAR and \
                    _reserved(tok.text) and not (nxt is not None and
                                                 nxt.token_type == TokenType.DOT):
                self.raise_error(AT_WORD + "a reserved word", tok)
            return super()._parse_session_parameter()

        def _parse_is(self, this: Any) -> Any:
            """x IS NOT TRUE is marked (meta "is_not"): MariaDB prints it so, where NOT x IS
            TRUE, the same tree in sqlglot, is !(x is true) (sqltext.py)."""
            node = super()._parse_is(this)
            if isinstance(node, exp.Not):
                node.meta["is_not"] = True
            return node

        def _parse_equality(self, parse_is: bool = True) -> Any:
            """... and a comparison's left operand that is one keeps parentheses, which
            SQLite (< > <= >= above = <>) needs to read it so."""
            node = super()._parse_equality(parse_is)
            at = node
            kinds = tuple(self.EQUALITY.values())
            while isinstance(at, kinds):
                left = at.this
                if isinstance(left, kinds):
                    at.set("this", exp.Paren(this=left))
                at = left
            return node

        def _parse_interval_span(self, this: exp.Expression,
                                 parse_function_unit: bool = True) -> exp.Interval:
            """sqlglot writes INTERVAL 2 DAY's number as a string: meta "number" remembers
            it was one (MariaDB prints the literal as written: sqltext.py). A string is
            never read for a unit inside it ('2x' DAY is 2 days, with a warning, in MariaDB,
            whose grammar always wants the unit after it): sqlglot sees a stand-in."""
            number = this is not None and this.is_number
            text = this if this is not None and this.is_string else None
            stand_in = exp.Literal.string("0") if text is not None else this
            node = super()._parse_interval_span(stand_in, parse_function_unit=parse_function_unit)
            if text is not None and isinstance(node, exp.Interval) and node.this is stand_in:
                node.set("this", text)
            if number:
                node.meta["number"] = True
            return node

        def _parse_interval(self, require_interval: bool = True,
                            parse_function_unit: bool = True) -> Any:
            """INTERVAL expr unit: MariaDB's expr may be a bit expression (`INTERVAL 1<<37
            SECOND`), which sqlglot reads only as far as a term: the shift is read here
            before the unit."""
            index = self._index
            node = super()._parse_interval(require_interval, parse_function_unit)
            if not isinstance(node, exp.Interval) or self._curr is None or \
                    self._curr.token_type not in (TokenType.LT, TokenType.GT) or \
                    self._next is None or self._next.token_type != self._curr.token_type:
                return node
            self._retreat(index)  # a shift follows the number sqlglot took for the span
            if require_interval:
                self._match(TokenType.INTERVAL)
            this = self._parse_bitwise()
            return self._parse_interval_span(this, parse_function_unit=parse_function_unit)

        def _parse_type(self, parse_interval: bool = True,
                        fallback_to_identifier: bool = False) -> Any:
            """BINARY(x) in an expression is the BINARY operator on (x), as `BINARY x` is
            (sqlglot reads it as a call of a function `binary`)."""
            if self._curr is not None and self._curr.token_type == TokenType.BINARY and \
                    self._next is not None and self._next.token_type == TokenType.L_PAREN:
                self._advance()
                operand = self._parse_unary()
                if isinstance(operand, exp.Paren):
                    operand = operand.this
                return self.expression(exp.Cast(
                    this=operand, to=exp.DataType(this=exp.DataType.Type.BINARY)))
            return super()._parse_type(parse_interval=parse_interval,
                                       fallback_to_identifier=fallback_to_identifier)

        def _parse_escape(self, this: Any) -> Any:
            """LIKE ... ESCAPE DATE'..' (TIME'..', TIMESTAMP'..'): MariaDB's 1210 "Incorrect
            arguments to ESCAPE", not a syntax error."""
            if self._curr is not None and self._curr.token_type == TokenType.ESCAPE and \
                    self._next is not None and self._next.text.upper() in (
                        "DATE", "TIME", "TIMESTAMP") and \
                    self._index + 2 < len(self._tokens) and \
                    self._tokens[self._index + 2].token_type == TokenType.STRING:
                from rampmeter.errors import ServerError
                raise ServerError(1210, "ESCAPE")
            return super()._parse_escape(this)

        def _parse_delete(self) -> exp.Expression:
            """DELETE ... [ORDER BY ...] [LIMIT n] RETURNING ...: MariaDB's RETURNING comes
            last; sqlglot reads it only before ORDER BY."""
            node = super()._parse_delete()
            if isinstance(node, exp.Delete) and not node.args.get("returning"):
                returning = self._parse_returning()
                if returning is not None:
                    node.set("returning", returning)
            return node


def _positive_length(parser: Any) -> None:
    """WEIGHT_STRING(s AS CHAR(n)): MariaDB's grammar takes n >= 1 only; a 0 or a sign is a
    syntax error there, reported at n."""
    depth, i = 0, parser._index
    tokens = parser._tokens
    while i + 3 < len(tokens):
        t = tokens[i]
        if t.token_type == TokenType.L_PAREN:
            depth += 1
        elif t.token_type == TokenType.R_PAREN:
            if depth == 0:
                return
            depth -= 1
        elif depth == 0 and t.token_type == TokenType.ALIAS and \
                tokens[i + 2].token_type == TokenType.L_PAREN:
            n = tokens[i + 3]
            if n.token_type in (TokenType.DASH, TokenType.PLUS) or \
                    n.token_type == TokenType.NUMBER and n.text.strip("0") in ("", "."):
                parser._index = i + 3
                parser._advance(0)
                parser.raise_error("Expected a positive length")
            return
        i += 1


def _weight_string(parser: Any) -> exp.Expression:
    """WEIGHT_STRING(s [AS type] [LEVEL n [ASC | DESC] [REVERSE], ... | LEVEL n-m]): sqlglot's
    node, with the first level's flags (upper case words, or '') in its `level` arg: the
    collations weighed here have one level (functions_weight.py)."""
    _positive_length(parser)
    node = parser._parse_weight_string()
    if not isinstance(node, exp.WeightString) or not parser._match_text_seq("LEVEL"):
        return node
    first = parser._parse_number()
    if first is None:
        parser.raise_error("Expected a level")
    flags: list[str] = []
    if parser._match(TokenType.DASH):
        parser._parse_number()
    else:
        first_level = True
        while True:
            level: list[str] = []
            for word in ("ASC", "DESC"):
                if parser._match_text_seq(word):
                    level.append(word)
                    break
            if parser._match_text_seq("REVERSE"):
                level.append("REVERSE")
            if first_level:
                flags, first_level = level, False
            if not parser._match(TokenType.COMMA):
                break
            if parser._parse_number() is None:
                parser.raise_error("Expected a level")
    node.set("level", exp.Literal.string(" ".join(flags)))
    return node


class RampMySQLPipes(RampMySQL):
    """sql_mode PIPES_AS_CONCAT (ANSI, ORACLE, ...): || concatenates."""

    DPIPE_IS_STRING_CONCAT = True

    class Parser(RampMySQL.Parser):
        DISJUNCTION = {token: node for token, node in RampMySQL.Parser.DISJUNCTION.items()
                       if token is not TokenType.DPIPE}

        # binds tighter than every dyadic operator, ^ included, and looser than unary minus
        # (MDEV-16186): -1||0^1 is concat(-1,0) ^ 1, -1^1||1 is -1 ^ concat(1,1)
        def _parse_exponent(self) -> exp.Expression | None:
            this = self._parse_concat()
            while self._match_set(self.EXPONENT):
                klass = self.EXPONENT[self._prev.token_type]
                this = self.expression(klass(this=this, expression=self._parse_concat()))
            return this

        def _parse_concat(self) -> exp.Expression | None:
            this = self._parse_unary()
            while self._match(TokenType.DPIPE):
                this = self.expression(exp.DPipe(this=this, expression=self._parse_unary()))
            return this


def _high_not(base: type[RampMySQL]) -> type[RampMySQL]:
    """sql_mode HIGH_NOT_PRECEDENCE: NOT a BETWEEN b AND c is (NOT a) BETWEEN b AND c."""

    class Parser(base.Parser):  # type: ignore[name-defined]
        UNARY_PARSERS = {**base.Parser.UNARY_PARSERS,
                         TokenType.NOT: lambda self: self.expression(
                             exp.Not(this=self._parse_unary()))}

    return type(base.__name__ + "HighNot", (base,), {"Parser": Parser})


_READERS = {(False, False): RampMySQL, (True, False): RampMySQLPipes,
            (False, True): _high_not(RampMySQL), (True, True): _high_not(RampMySQLPipes)}


def parse(text: str, pipes_as_concat: bool = False, high_not: bool = False) -> Any:
    """sqlglot's tree of one MariaDB statement or expression (raises sqlglot's errors)."""
    return sqlglot.parse_one(text, read=_READERS[pipes_as_concat, high_not])
