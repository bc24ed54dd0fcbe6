"""Django on rampmeter, as a real project (tests/compat/apps/djangoproj) run by manage.py in a
subprocess against each server: makemigrations, migrate with the contrib apps, createsuperuser,
an ORM workout (CRUD with ForeignKey / BinaryField / JSONField / DecimalField, select_related,
annotate / aggregate, rollbacks), dumpdata, then flush + loaddata of that dump. MariaDB runs the
same project; the workout's output and the dumps must be the same.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import pytest

from tests.compat.servers import Endpoint
from tests.compat.tools import fresh_database, load_zones

pytest.importorskip("django")
PROJECT = Path(__file__).parent / "apps" / "djangoproj"


def manage(project: Path, ep: Endpoint, db: str, *args: str) -> str:
    env = {**os.environ, "DB_HOST": ep.host, "DB_PORT": str(ep.port), "DB_NAME": db,
           "DJANGO_SUPERUSER_PASSWORD": "s3cret-Pass", "PYTHONPATH": str(project)}
    done = subprocess.run([sys.executable, "manage.py", *args], cwd=project, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, f"manage.py {' '.join(args)} on {ep.name}:\n" \
                                 f"{done.stderr[-4000:]}"
    return done.stdout


@pytest.fixture(scope="module")
def project(tmp_path_factory: pytest.TempPathFactory, rampmeter_endpoint: Endpoint) -> Path:
    """A copy of the project with its migrations made."""
    where = tmp_path_factory.mktemp("django") / "djangoproj"
    shutil.copytree(PROJECT, where, ignore=shutil.ignore_patterns("__pycache__"))
    db = fresh_database(rampmeter_endpoint, "django_shop")
    manage(where, rampmeter_endpoint, db, "makemigrations", "shop")
    return where


def run_project(project: Path, ep: Endpoint) -> dict[str, object]:
    db = fresh_database(ep, "django_shop")
    out: dict[str, object] = {}
    manage(project, ep, db, "migrate", "--noinput")
    manage(project, ep, db, "createsuperuser", "--noinput", "--username", "admin",
           "--email", "admin@example.com")
    out["exercise"] = json.loads(manage(project, ep, db, "exercise"))
    dump = manage(project, ep, db, "dumpdata", "shop", "auth.user", "--indent", "1")
    out["dump"] = _stable(json.loads(dump))
    fixture = project / f"dump-{ep.name}.json"
    fixture.write_text(dump)
    manage(project, ep, db, "flush", "--noinput")
    manage(project, ep, db, "loaddata", str(fixture))
    again = manage(project, ep, db, "dumpdata", "shop", "auth.user", "--indent", "1")
    assert _stable(json.loads(again)) == out["dump"], ep.name
    out["inspectdb"] = manage(project, ep, db, "inspectdb", "shop_author", "shop_book")
    return out


def _stable(objects: list[dict[str, object]]) -> list[dict[str, object]]:
    """A dump without what differs between any two runs (password salts, creation times)."""
    for obj in objects:
        fields = obj["fields"]
        assert isinstance(fields, dict)
        for name in ("password", "last_login", "date_joined", "added"):
            fields.pop(name, None)
    return objects


# Known differences, checked like a strict xfail: the day they are equal, drop the entry.
# Outputs known to differ from MariaDB's, with the reason (none now: inspectdb's JSON columns
# were found once comparisons of a string with a number followed MariaDB's, issue 13).
KNOWN: dict[str, str] = {}


@pytest.mark.timeout(300)
def test_django_project(project: Path, mariadb_endpoint: Endpoint,
                        rampmeter_endpoint: Endpoint) -> None:
    load_zones(mariadb_endpoint, ("UTC", "Europe/Paris"))  # USE_TZ with TIME_ZONE: CONVERT_TZ
    with ThreadPoolExecutor(2) as pool:   # the two servers at once: half the wall time
        maria_job = pool.submit(run_project, project, mariadb_endpoint)
        ramp_job = pool.submit(run_project, project, rampmeter_endpoint)
        maria, ramp = maria_job.result(), ramp_job.result()
    for key in maria:
        if key in KNOWN:
            assert ramp[key] != maria[key], f"{key} is fixed: drop it from KNOWN"
        else:
            assert ramp[key] == maria[key], key
