"""The stored-program grammar (session/sp/parse.py): where a syntax error is reported, as
MariaDB's parser reports it (mtr sp-memory-leak), and a trigger's SET NEW.col."""

from __future__ import annotations

import pytest

from rampmeter.errors import ServerError
from rampmeter.session.sp import parse as P
from rampmeter.session.sp import triggers
from rampmeter.sql.lexer import Dialect

D = Dialect.of("")


def _near(text: str) -> str:
    with pytest.raises(ServerError) as e:
        P.compound(text, D)
    assert e.value.code == 1064
    return e.value.message.split("near '", 1)[1]


@pytest.mark.parametrize(("text", "near"), [
    ("BEGIN NOT ATOMIC\n  IF SCALAR() expected_THEN_here;\nEND", "expected_THEN_here;\nEND' at line 2"),
    ("BEGIN NOT ATOMIC\n  WHILE SCALAR() expected_DO_here;\nEND", "expected_DO_here;\nEND' at line 2"),
    ("BEGIN NOT ATOMIC\n  REPEAT SELECT 1; UNTIL SCALAR() expected_END_here;\nEND",
     "expected_END_here;\nEND' at line 2"),
    ("BEGIN NOT ATOMIC\n  DECLARE cur CURSOR (a INT) FOR SELECT a+1;\n  OPEN cur(f();\n"
     "  CLOSE cur;\nEND", ";\n  CLOSE cur;\nEND' at line 3"),
    ("BEGIN NOT ATOMIC\n  SELECT (1;\nEND", ";\nEND' at line 2"),
])
def test_a_semicolon_inside_an_expression_is_the_syntax_error(text, near):
    assert _near(text) == near


def test_expressions_with_operators_and_case_still_parse():
    P.compound("IF (1) AND 'a' LIKE 'b' OR CASE WHEN 1 THEN 2 END IS NULL THEN SELECT 1; "
               "END IF", D)
    P.compound("WHILE f(1) IS NOT NULL DO SELECT 1; END WHILE", D)


def test_a_trigger_sets_new_columns():
    _head, body = triggers.parse("CREATE TRIGGER t BEFORE INSERT ON t1 FOR EACH ROW "
                                 "SET NEW.a = NEW.b + 1, NEW.`c` := 2", D)
    assert [name for name, _expr in body.targets] == ["new.a", "new.c"]
    assert body.targets[0][1].vars == ("new.b",)


def test_a_set_variable_with_a_comma_in_a_member_is_1367():
    with pytest.raises(ServerError) as e:
        P.routine("CREATE PROCEDURE p() BEGIN DECLARE a SET('a','b','a,b'); SET a = 'a'; END",
                  D)
    assert (e.value.code, e.value.message) == (1367, "Illegal set 'a,b' value found during "
                                                     "parsing")


def test_a_function_body_without_begin_follows_its_returns_type():
    r, body = P.routine("CREATE FUNCTION f() RETURNS INT FOR i IN 1..3 DO RETURN i; END FOR", D)
    assert r.returns == "INT"
    assert type(body).__name__ == "For"


def test_for_loops_over_a_cursor_or_a_query_read_record_fields():
    body = P.compound("FOR r IN c(1, x) DO SELECT r.a, r.`b` FROM t AS r2; END FOR", D)
    assert (body.cursor, len(body.args), body.lower) == ("c", 2, None)
    assert body.body[0].vars == ("r.a", "r.b")
    body = P.compound("FOR r IN (SELECT 1 AS a) DO SELECT t.a, r.a FROM t; END FOR", D)
    assert body.query.text == "SELECT 1 AS a"
    assert body.body[0].vars == ("r.a",)


def test_a_for_range_with_a_space_between_its_dots_is_an_error_at_the_second():
    assert _near("BEGIN NOT ATOMIC\n  FOR i IN 1 . . 3\n  DO\n    NULL\n  END FOR;\nEND") == \
        ". 3\n  DO\n    NULL\n  END FOR;\nEND' at line 2"


@pytest.mark.parametrize(("body", "code"), [
    ("DECLARE c CURSOR (a INT, b INT) FOR SELECT a; OPEN c(1);", 4080),
    ("DECLARE c CURSOR (a INT) FOR SELECT a; FOR r IN c DO SELECT 1; END FOR;", 4080),
    ("DECLARE c CURSOR (a INT) FOR SELECT a; SET a = 1;", 1193),
    ("DECLARE c CURSOR (OUT a INT) FOR SELECT a;", 1235),
])
def test_program_errors_mariadb_reports_at_create(body, code):
    with pytest.raises(ServerError) as e:
        P.routine(f"CREATE PROCEDURE p() BEGIN {body} END", D)
    assert e.value.code == code


def test_a_string_into_an_integer_variable_warns_as_mariadb():
    from rampmeter.session.sp.run import coerce
    warned: list = []
    assert coerce("INT", "1b", "v", False, warned) == 1
    assert coerce("INT", "b1", "v", False, warned) == 0
    assert coerce("INT", " 7 ", "v", False, warned) == 7
    assert [(w.code, w.message) for w in warned] == [
        (1265, "Data truncated for column 'v' at row 0"),
        (1366, "Incorrect integer value: 'b1' for column ``.``.`v` at row 0")]
    with pytest.raises(ServerError) as e:
        coerce("INT", "1b", "v", True, warned)
    assert e.value.code == 1265


def test_a_binary_string_into_an_integer_variable_is_its_number():
    from rampmeter.session.sp.run import coerce
    warned: list = []
    assert coerce("INT", b"\x00", "v", True, warned) == 0   # DECLARE ch INT DEFAULT 0x00
    assert coerce("INT", b"\xff", "v", True, warned) == 255
    assert coerce("INT", b"12", "v", True, warned) == 12
    assert warned == []


def test_a_label_may_touch_its_colon():
    # `inner_block:BEGIN` without a space (mtr parser_stack)
    body = P.compound("outer_loop:LOOP\n inner:BEGIN\n LEAVE inner;\n END inner;\n"
                      " LEAVE outer_loop;\nEND LOOP outer_loop", D)
    assert body.label == "outer_loop"


def _refused(text: str) -> tuple[int, str]:
    with pytest.raises(ServerError) as e:
        P.routine(text, D)
    return e.value.code, e.value.message


@pytest.mark.parametrize(("body", "code", "message"), [  # MariaDB's parser (mtr signal)
    ("SIGNAL foo;", 1319, "Undefined CONDITION: foo"),
    ("DECLARE foo CONDITION FOR 1234; SIGNAL foo;", 1646,
     "SIGNAL/RESIGNAL can only use a CONDITION defined with SQLSTATE"),
    ("DECLARE foo CONDITION FOR SQLSTATE '12345'; SIGNAL foo SET CLASS_ORIGIN = 'a', "
     "CLASS_ORIGIN = 'b';", 1641, "Duplicate condition information item 'CLASS_ORIGIN'"),
    ("SIGNAL SQLSTATE '00000';", 1407, "Bad SQLSTATE: '00000'"),
    ("RESIGNAL SQLSTATE '00001';", 1407, "Bad SQLSTATE: '00001'"),
    ("DECLARE foo CONDITION FOR SQLSTATE '1234';", 1407, "Bad SQLSTATE: '1234'"),
    ("DECLARE CONTINUE HANDLER FOR SQLSTATE 'abcde' BEGIN END;", 1407,
     "Bad SQLSTATE: 'abcde'"),
])
def test_signal_is_checked_when_created(body, code, message):
    assert _refused(f"CREATE PROCEDURE p() BEGIN {body} END") == (code, message)


@pytest.mark.parametrize("body", [
    "SIGNAL;", "SIGNAL SQLSTATE '12345' SET bla_bla = 'foo';",
    "SIGNAL SQLSTATE '12345' SET RETURNED_SQLSTATE = 'foo';", "SIGNAL 1234;",
    "SIGNAL SQLEXCEPTION;",
])
def test_signal_syntax_errors(body):
    assert _refused(f"CREATE PROCEDURE p() BEGIN {body} END")[0] == 1064


def test_a_condition_is_known_in_inner_blocks_only_after_its_declaration():
    P.routine("CREATE PROCEDURE p() BEGIN DECLARE foo CONDITION FOR SQLSTATE '12345'; "
              "BEGIN SIGNAL foo SET MESSAGE_TEXT = 'x', MYSQL_ERRNO = 5; END; RESIGNAL; END", D)
    assert _refused("CREATE PROCEDURE p() BEGIN BEGIN DECLARE foo CONDITION FOR "
                    "SQLSTATE '12345'; END; SIGNAL foo; END")[0] == 1319


@pytest.mark.parametrize(("value", "name"), [("`65`", "65"), ("`Hello`", "Hello"), ("x", "x")])
def test_a_signal_value_that_names_no_variable_is_1327(value, name):
    assert _refused("CREATE PROCEDURE p() BEGIN DECLARE foo CONDITION FOR SQLSTATE '12345'; "
                    f"SIGNAL foo SET MESSAGE_TEXT = {value}; END") == \
        (1327, f"Undeclared variable: {name}")


def test_signal_values_literals_variables_and_new_columns():
    P.routine("CREATE PROCEDURE p(v INT) BEGIN SIGNAL SQLSTATE '12345' SET MYSQL_ERRNO = v, "
              "MESSAGE_TEXT = NULL, CLASS_ORIGIN = 0x41, SUBCLASS_ORIGIN = @u; END", D)
    _head, body = triggers.parse("CREATE TRIGGER t AFTER INSERT ON t1 FOR EACH ROW BEGIN "
                                 "SIGNAL SQLSTATE '01XXX' SET MESSAGE_TEXT = NEW.msg, "
                                 "MYSQL_ERRNO = NEW.errno; END", D)


def test_a_user_variable_assignment_as_a_signal_value_is_refused_after_it():
    text = ("CREATE PROCEDURE p() BEGIN DECLARE s CONDITION FOR SQLSTATE 'AABBB';\n"
            "SIGNAL s SET\nMESSAGE_TEXT = @m := 'illegal',\nMYSQL_ERRNO = 1;\nEND")
    code, message = _refused(text)
    assert code == 1064 and message.endswith("near '\nMYSQL_ERRNO = 1;\nEND' at line 3")


@pytest.mark.parametrize("text", [
    "CREATE FUNCTION f(x INT) RETURNS INT BEGIN SET x = 5; FETCH GROUP NEXT ROW; RETURN x; END",
    "CREATE PROCEDURE p() FETCH GROUP NEXT ROW",
])
def test_fetch_group_outside_an_aggregate_function_is_4105(text):
    assert _refused(text)[0] == 4105
    with pytest.raises(ServerError) as e:
        P.compound("BEGIN NOT ATOMIC FETCH GROUP NEXT ROW; END", D)
    assert e.value.code == 4105
    with pytest.raises(ServerError) as e:
        triggers.parse("CREATE TRIGGER t AFTER INSERT ON t1 FOR EACH ROW FETCH GROUP NEXT ROW", D)
    assert e.value.code == 4105


def test_an_aggregate_function_needs_fetch_group():
    assert _refused("CREATE AGGREGATE FUNCTION f(x INT) RETURNS INT RETURN x")[0] == 4106
    r, body = P.routine("CREATE AGGREGATE FUNCTION f(x INT) RETURNS INT BEGIN DECLARE CONTINUE "
                        "HANDLER FOR NOT FOUND RETURN 1; LOOP FETCH GROUP NEXT ROW; END LOOP; "
                        "END", D)
    assert r.aggregate and r.has_return
    r, _body = P.routine("CREATE FUNCTION f() RETURNS INT BEGIN SET @a = 1; END", D)
    assert not r.has_return
