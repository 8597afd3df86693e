"""Reads from the standby (base/replica.py): which reads go there, when they go to the
primary instead (a client that wrote within the bound, a standby behind or down, a game still
in play, a read inside a transaction), and that nothing changes without a standby configured.

The tests' "standby" is the test database itself under the alias ``replica`` (its connection
is the default one, so it sees each test's rows); its freshness is set by hand. The real
standby, lagging, paused and lost, is the rehearsal's (tests/ops/test_rehearsal.py)."""

from __future__ import annotations

import math
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.core.cache import cache
from django.db import connection, connections, transaction
from django.db.utils import load_backend

from base import replica
from tests.error_codes import PACKAGES
from tests.games.api.helpers import act, new_game
from tests.metrics.helpers import value

# Committed, as requests' reads are: a read inside a transaction stays on the primary.
committed = pytest.mark.django_db(transaction=True)

ROOT = Path(__file__).resolve().parents[1]


@pytest.fixture(autouse=True)
def _no_background_filler(settings) -> None:
    """Games are dealt from deals vetted in the request: no filler thread writes beside
    these committed tests (SQLite would answer it "database table is locked")."""
    settings.POOL_AUTOFILL = False


@pytest.fixture
def standby(monkeypatch) -> Iterator[replica.Freshness]:
    """A configured standby, fresh (its freshness is the test's to change); no check thread."""
    connections.settings[replica.REPLICA] = connections.settings["default"]
    connections[replica.REPLICA] = connection
    freshness = replica.Freshness()
    freshness.applied_through = time.monotonic()
    monkeypatch.setattr(replica.CHECKER, "freshness", freshness)
    monkeypatch.setattr(replica.CHECKER, "want", lambda now: None)
    try:
        yield freshness
    finally:
        del connections[replica.REPLICA]
        del connections.settings[replica.REPLICA]


def unpin(client) -> None:
    """Forget that ``client`` wrote: its cookie, and its credentials' key in the cache."""
    client.cookies.clear()
    cache.clear()


def served_by(response) -> str | None:
    return getattr(response.wsgi_request, "database", None)


# -- the standby's freshness ------------------------------------------------------------------
def test_lsn_reads_postgresqls_notation():
    assert replica.lsn("0/0") == 0
    assert replica.lsn("16/B374D848") == (0x16 << 32) | 0xB374D848


def test_a_standby_holds_what_the_primary_had_when_it_was_as_far():
    fresh = replica.Freshness()
    fresh.observe(read_at=100.0, primary_lsn=1000, replay_lsn=1000, now=100.1)
    assert fresh.applied_through == 100.0 and fresh.lag == pytest.approx(0.1)
    fresh.observe(read_at=101.0, primary_lsn=2000, replay_lsn=1500, now=101.1)
    assert fresh.applied_through == 100.0  # it has 1500: all of 100.0's, not all of 101.0's
    fresh.observe(read_at=102.0, primary_lsn=2500, replay_lsn=2000, now=102.1)
    assert fresh.applied_through == 101.0 and fresh.lag == pytest.approx(1.1)
    assert fresh.staleness(104.0) == pytest.approx(3.0)  # it ages while nothing is checked


def test_a_standby_that_replays_nothing_or_is_behind_every_position_is_unknown():
    fresh = replica.Freshness()
    fresh.observe(read_at=10.0, primary_lsn=500, replay_lsn=None, now=10.0)  # promoted
    assert fresh.applied_through == -math.inf and fresh.lag is None
    fresh.observe(read_at=11.0, primary_lsn=600, replay_lsn=100, now=11.0)
    assert fresh.staleness(11.0) == math.inf
    fresh.observe(read_at=12.0, primary_lsn=700, replay_lsn=700, now=12.0)
    fresh.down()
    assert fresh.staleness(12.0) == math.inf and fresh.lag is None


# -- routing ----------------------------------------------------------------------------------
@committed
def test_without_a_standby_every_read_is_the_primarys(api_client, make_user):
    make_user(username="ann")
    assert replica.REPLICA not in connections.settings
    with replica.standby_reads():
        assert replica.route_read() == "default"
    response = api_client.get("/api/v1/players/ann")
    assert response.status_code == 200 and served_by(response) is None
    written = api_client.post("/api/v1/auth/logout")
    assert replica.PIN_COOKIE not in written.cookies


@committed
def test_the_declared_reads_go_to_a_fresh_standby(standby, api_client, make_user):
    make_user(username="ann")
    for path in ("/api/v1/players/ann", "/api/v1/players/ann/games", "/api/v1/leaderboard?suits=1"):
        assert served_by(api_client.get(path)) == "replica", path
    # Everything else reads the primary, and names no database in the log.
    me = api_client.get("/api/v1/rules")
    assert served_by(me) is None


@committed
def test_a_client_that_wrote_reads_the_primary_until_the_bound(
    standby, api_client, make_user, settings, monkeypatch
):
    make_user(username="ann")
    registered = api_client.post(
        "/api/v1/auth/register", {"username": "bob", "password": "a long password 12"}
    )
    cookie = registered.cookies[replica.PIN_COOKIE]
    assert cookie["max-age"] == settings.REPLICA_MAX_LAG_SECONDS and cookie["httponly"]
    assert served_by(api_client.get("/api/v1/players/bob")) == "default"  # read-your-writes
    later = time.time() + settings.REPLICA_MAX_LAG_SECONDS + 1
    monkeypatch.setattr("django.core.signing.time.time", lambda: later)
    assert served_by(api_client.get("/api/v1/players/bob")) == "replica"
    api_client.cookies[replica.PIN_COOKIE] = "1:forged:signature"
    assert served_by(api_client.get("/api/v1/players/ann")) == "replica"


@committed
def test_a_program_that_wrote_reads_the_primary_without_keeping_cookies(
    standby, auth_client, user, api_client, settings, monkeypatch
):
    """A client with a token and no cookie jar is pinned by its credentials, in the cache the
    web hosts share; another client, or the same one after the bound, reads the standby."""
    client = auth_client(user)
    new_game(client, 1)
    client.cookies.clear()
    assert served_by(client.get(f"/api/v1/players/{user.username}")) == "default"
    assert served_by(api_client.get(f"/api/v1/players/{user.username}")) == "replica"
    later = time.time() + settings.REPLICA_MAX_LAG_SECONDS + 1
    monkeypatch.setattr("django.core.cache.backends.locmem.time.time", lambda: later)
    assert served_by(client.get(f"/api/v1/players/{user.username}")) == "replica"


@committed
def test_the_router_counts_where_reads_went_and_the_lag(
    standby, api_client, make_user, settings, metrics_on
):
    make_user(username="ann")
    before = {
        db: value("spider_database_reads_total", database=db) for db in ("replica", "default")
    }
    api_client.get("/api/v1/players/ann")
    standby.applied_through = time.monotonic() - settings.REPLICA_MAX_LAG_SECONDS - 0.5
    api_client.get("/api/v1/players/ann")
    api_client.get("/api/v1/rules")  # not routed: not counted
    after = {db: value("spider_database_reads_total", database=db) for db in ("replica", "default")}
    assert after == {"replica": before["replica"] + 1, "default": before["default"] + 1}


@committed
def test_a_standby_past_the_bound_sends_the_reads_to_the_primary(
    standby, api_client, make_user, settings
):
    make_user(username="ann")
    standby.applied_through = time.monotonic() - settings.REPLICA_MAX_LAG_SECONDS - 0.5
    assert served_by(api_client.get("/api/v1/players/ann")) == "default"
    standby.applied_through = time.monotonic()
    assert served_by(api_client.get("/api/v1/players/ann")) == "replica"


@committed
def test_a_game_in_play_is_read_from_the_primary_a_game_over_from_the_standby(
    standby, auth_client, user
):
    client = auth_client(user)
    game = new_game(client, 1)["id"]
    unpin(client)  # only the game's state decides
    assert served_by(client.get(f"/api/v1/games/{game}")) == "default"
    assert served_by(client.get(f"/api/v1/games/{game}/actions")) == "default"
    act(client, game, "deal", version=0)
    assert client.post(f"/api/v1/games/{game}/resign").status_code == 200
    unpin(client)
    assert served_by(client.get(f"/api/v1/games/{game}")) == "replica"
    assert served_by(client.get(f"/api/v1/games/{game}/actions")) == "replica"
    assert served_by(client.get(f"/api/v1/games/{game}/positions/1")) == "replica"


@committed
def test_a_read_the_standby_failed_is_answered_from_the_primary(
    standby, api_client, make_user, tmp_path
):
    make_user(username="ann")
    default = connections.settings["default"]
    if default["ENGINE"] == "django.db.backends.sqlite3":
        broken = {**default, "NAME": str(tmp_path / "no" / "such.db")}
    else:  # nothing listens on port 1
        broken = {**default, "PORT": "1", "OPTIONS": {"connect_timeout": 1}}
    # A connection of its own, which cannot open (the standby died between two checks).
    connections[replica.REPLICA] = load_backend(broken["ENGINE"]).DatabaseWrapper(
        broken, "a-standby-gone"
    )
    response = api_client.get("/api/v1/players/ann")
    assert response.status_code == 200 and served_by(response) == "default"
    assert response.wsgi_request.database_retried is True  # the access log says so
    assert replica.CHECKER.freshness.staleness(time.monotonic()) == math.inf  # until checked


@committed
def test_reads_inside_a_transaction_stay_with_its_writes(standby):
    with replica.standby_reads():
        assert replica.route_read() == "replica"
        with transaction.atomic():
            assert replica.route_read() == "default"


@pytest.mark.postgres
@committed
def test_the_check_finds_no_standby_in_a_primary(standby, monkeypatch):
    """Against PostgreSQL: the check's queries run, and a server that replays nothing (a
    primary, or a promoted standby) is no standby to read from."""
    monkeypatch.undo()  # the real freshness, the real check
    checker = replica._Checker()
    checker.check()
    assert checker.freshness.lag is None
    assert checker.freshness.staleness(time.monotonic()) == math.inf


# -- transaction pooling ----------------------------------------------------------------------
def _settings_with(**env: str) -> subprocess.CompletedProcess:
    code = (
        "from spider_api import settings as s; "
        "d = s.DATABASES['default']; "
        "print(s.DATABASE_PREPARED_STATEMENTS, d['DISABLE_SERVER_SIDE_CURSORS'], "
        "d['OPTIONS'].get('prepare_threshold', 'unset'), sorted(s.DATABASES))"
    )
    clean = {k: v for k, v in os.environ.items() if not k.startswith("DATABASE_")}
    return subprocess.run(
        [sys.executable, "-c", code],
        cwd=ROOT,
        env={**clean, "DEBUG": "1", **env},
        capture_output=True,
        text=True,
    )


def test_transaction_pooling_turns_off_what_outlives_a_transaction():
    url = "postgres://app@127.0.0.25:6432/spider"
    pooled = _settings_with(DATABASE_URL=url, DATABASE_TRANSACTION_POOLING="1")
    assert pooled.stdout.split() == ["False", "True", "None", "['default']"], pooled.stderr
    both = _settings_with(
        DATABASE_URL=url,
        DATABASE_REPLICA_URL=url + "_replica",
        DATABASE_TRANSACTION_POOLING="1",
    )
    assert both.stdout.strip().endswith("['default', 'replica']"), both.stderr
    refused = _settings_with(
        DATABASE_URL=url, DATABASE_TRANSACTION_POOLING="1", DATABASE_PREPARED_STATEMENTS="1"
    )
    assert refused.returncode != 0 and "DATABASE_PREPARED_STATEMENTS" in refused.stderr
    sqlite = _settings_with(DATABASE_REPLICA_URL="sqlite:///x.db")
    assert sqlite.returncode != 0 and "DATABASE_REPLICA_URL" in sqlite.stderr


# What PgBouncer 1.18 in transaction mode cannot carry from one transaction to the next.
SESSION_STATE = (
    "pg_advisory_lock(",
    "pg_try_advisory_lock(",
    "LISTEN ",
    "NOTIFY ",
    "WITH HOLD",
    "SET SESSION",
    "set_config(",
    "prepare=True",
    "server_side_binding",
)


def test_the_apps_keep_no_session_state_on_a_connection():
    """The code behind PgBouncer: advisory locks only transaction-scoped
    (pg_advisory_xact_lock), no LISTEN/NOTIFY (the race streams fan out through Redis), no
    session SET (SET LOCAL is the transaction's), no held cursors; prepared statements only
    in the backend's prepared cursor, which DATABASE_TRANSACTION_POOLING turns off."""
    found = []
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            if "migrations" in path.parts:
                continue
            text = path.read_text()
            for needle in SESSION_STATE:
                if needle in text:
                    found.append(f"{path.relative_to(ROOT)}: {needle}")
    assert found == []
    assert "pg_advisory_xact_lock(" in (ROOT / "leaderboard" / "services.py").read_text()
