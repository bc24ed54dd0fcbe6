"""session/loaddata.py: LOAD DATA's grammar and how a file's bytes become fields."""

from __future__ import annotations

import pytest

from rampmeter.errors import ServerError
from rampmeter.session.loaddata import LoadSpec, parse, split_rows
from rampmeter.sql.statement import scan


def test_grammar() -> None:
    spec = parse(scan("LOAD DATA LOW_PRIORITY LOCAL INFILE '/tmp/x.csv' REPLACE INTO TABLE "
                      "db.t CHARACTER SET latin1 FIELDS TERMINATED BY ',' OPTIONALLY ENCLOSED "
                      "BY '\"' ESCAPED BY '\\\\' LINES STARTING BY '>' TERMINATED BY '\\r\\n' "
                      "IGNORE 2 LINES (a, @b, `c d`) SET e = @b + 1, f = NOW()"))
    assert (spec.local, spec.filename, spec.duplicates, spec.database, spec.table) == \
        (True, "/tmp/x.csv", "REPLACE", "db", "t")
    assert (spec.charset, spec.fields_terminated, spec.enclosed, spec.optionally) == \
        ("latin1", b",", b'"', True)
    assert (spec.escaped, spec.lines_starting, spec.lines_terminated, spec.ignore_lines) == \
        (b"\\", b">", b"\r\n", 2)
    assert spec.targets == ["a", "@b", "c d"]
    assert spec.sets == [("e", "@b + 1"), ("f", "NOW()")]


@pytest.mark.parametrize("sql", [
    "LOAD DATA INFILE 'x' INTO t", "LOAD DATA INFILE x INTO TABLE t",
    "LOAD DATA INFILE 'x' INTO TABLE t IGNORE 1", "LOAD DATA INFILE 'x' INTO TABLE t FIELDS",
    "LOAD DATA INFILE 'x' INTO TABLE t SET a"])
def test_syntax_errors(sql: str) -> None:
    with pytest.raises(ServerError) as err:
        parse(scan(sql))
    assert err.value.code == 1064


def test_default_format() -> None:
    data = b"1\ta\\tb\t\\N\n2\t\\\\\t\\0x\n\n3"
    assert split_rows(data, LoadSpec()) == [
        [b"1", b"a\tb", None], [b"2", b"\\", b"\x00x"], [b""], [b"3"]]


def test_csv_with_enclosures() -> None:
    spec = LoadSpec(fields_terminated=b",", enclosed=b'"', lines_terminated=b"\r\n",
                    ignore_lines=1)
    data = b'h1,h2\r\n"a,b","say ""hi"""\r\nNULL,"NULL"\r\n"multi\r\nline",x\r\n'
    assert split_rows(data, spec) == [
        [b"a,b", b'say "hi"'], [None, b"NULL"], [b"multi\r\nline", b"x"]]


def test_lines_starting_by() -> None:
    spec = LoadSpec(lines_starting=b"xx")
    assert split_rows(b"xx1\ta\nskip me\nyyxx2\tb\n", spec) == [[b"1", b"a"], [b"2", b"b"]]


def test_fixed_width_is_not_supported() -> None:
    with pytest.raises(ServerError) as err:
        split_rows(b"abc", LoadSpec(fields_terminated=b"", lines_terminated=b""))
    assert err.value.code == 1235


def test_fixed_size_rows() -> None:
    from rampmeter.session.loaddata import fixed, split_fixed
    spec = parse(scan("LOAD DATA INFILE 'f' INTO TABLE t FIELDS TERMINATED BY '' "
                      "ENCLOSED BY ''"))
    assert fixed(spec)
    # each field its column's width; a short line leaves the last fields missing
    assert split_fixed(b"1  abc\n22 \\n\n", spec, [3, 3]) == [[b"1  ", b"abc"], [b"22 ", b"\n"]]
    assert split_fixed(b"7\n", spec, [3, 3]) == [[b"7"]]
