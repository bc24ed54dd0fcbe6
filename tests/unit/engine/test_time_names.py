"""lc_time_names names the months and days of DATE_FORMAT, MONTHNAME and DAYNAME, as
MariaDB's locales spell them (time_names.py, generated from MariaDB)."""

from __future__ import annotations

from rampmeter.engine.base import ResultSet
from rampmeter.engine.sqlite import SqliteSession

from .conftest import rows


def test_session_locale_names_months_and_days(session: SqliteSession) -> None:
    session.context.variables["lc_time_names"] = "de_DE"  # type: ignore[attr-defined]
    assert rows(session.execute(
        "SELECT DATE_FORMAT('2010-12-02', '%M %b %W %a'), MONTHNAME('2010-03-01'), "
        "DAYNAME('2010-12-05')")) == [("Dezember Dez Donnerstag Do", "März", "Sonntag")]
    session.context.variables["lc_time_names"] = "en_US"  # type: ignore[attr-defined]
    assert rows(session.execute("SELECT DATE_FORMAT('2010-12-02', '%M %b %W %a')")) == [
        ("December Dec Thursday Thu",)]


def test_date_format_locale_argument(session: SqliteSession) -> None:
    assert rows(session.execute("SELECT DATE_FORMAT('2010-12-02', '%M', 'fr_FR')")) == [
        ("décembre",)]
    result = session.execute("SELECT DATE_FORMAT('2010-12-02', '%M', 'xx_YY')")
    assert isinstance(result, ResultSet)
    assert [list(r) for r in result.rows] == [["December"]]
    assert [(w.code, w.message) for w in result.warnings] == [
        (1649, "Unknown locale: 'xx_YY'")]
