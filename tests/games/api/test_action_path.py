"""The cost of one action, pinned so it cannot creep back: the statements it sends, that its
UPDATE is a HOT update on PostgreSQL, and that the hand-built row equals the ORM's."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext

from games import rows
from games.models import Action, Game
from games.services import games_expire_idle
from tests.games.api.helpers import act, game_record, log_rows, new_game, ok, pooled_seed_deal

pytestmark = pytest.mark.django_db


@pytest.fixture(autouse=True)
def _pool(db) -> None:
    for seed in (101, 102, 103):
        pooled_seed_deal(1, seed)
    pooled_seed_deal(2, 201)


def _play(client, gid: str, version: int, kind: str) -> int:
    return ok(act(client, gid, kind, version=version))["version"]


def test_an_action_sends_the_lock_and_one_write_and_no_token_lookup(player_client):
    gid = new_game(player_client, 1)["id"]
    version = _play(player_client, gid, 0, "deal")  # the token is now known to this process

    with CaptureQueriesContext(connection) as captured:
        _play(player_client, gid, version, "undo")

    # BEGIN and COMMIT are not cursor statements (here, inside the test's transaction, they
    # are savepoints); everything else is listed.
    sql = [q["sql"] for q in captured.captured_queries if "SAVEPOINT" not in q["sql"]]
    assert "accounts_apitoken" not in " ".join(sql), "the token was looked up again"
    assert sql[0].startswith("SELECT") and "games_game" in sql[0]
    if connection.vendor == "postgresql":
        assert sql[0].endswith("FOR UPDATE")
        assert len(sql) == 2, sql  # the lock, then the log row + new state in one statement
        assert sql[1].startswith("WITH logged AS (INSERT INTO")
        assert '"games_action"' in sql[1] and 'UPDATE "games_game"' in sql[1]
    else:
        assert len(sql) == 3, sql  # SQLite: no data-modifying CTE, so INSERT then UPDATE
    # Only the columns an action changes are written: never the game's identity or status.
    update = sql[-1][sql[-1].index("UPDATE") :]
    for column in ("player_id", "deal_id", "status", "kind", "created_at", "ranked"):
        assert f'"{column}" =' not in update


def test_the_written_row_is_what_the_orm_reads_back(player_client):
    gid = new_game(player_client, 1)["id"]
    version = _play(player_client, gid, 0, "deal")
    body = ok(act(player_client, gid, "undo", version=version))

    record = game_record(gid)
    assert record["version"] == body["version"] == 2
    assert record["actions"] == 2 and record["undos"] == 1
    assert record["started_at"] is not None and record["last_action_at"] is not None
    assert [(a.seq, a.kind) for a in log_rows(gid)] == [(1, "deal"), (2, "undo")]


def test_game_for_update_builds_the_same_instance_as_the_orm(player, player_client):
    gid = new_game(player_client, 2)["id"]
    _play(player_client, gid, 0, "deal")
    expected = Game.objects.get(pk=gid)

    with transaction.atomic():
        got = rows.game_for_update(game_id=gid, player_id=player.pk)

    assert got is not None and got._state.adding is False
    for field in Game._meta.concrete_fields:
        assert getattr(got, field.attname) == getattr(expected, field.attname), field.name
    with transaction.atomic():
        assert rows.game_for_update(game_id=gid, player_id=player.pk + 1000) is None


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_an_action_updates_the_game_row_hot(player_client):
    """No column an action writes is in an index, so PostgreSQL updates the row in place
    (a heap-only tuple) instead of writing every index of the table. Counted from
    pg_stat_user_tables around committed actions (before: none of them was HOT)."""
    gid = new_game(player_client, 1)["id"]

    def counts() -> tuple[int, int]:
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_stat_force_next_flush()")  # this backend's counts, now
        with connection.cursor() as cursor:
            cursor.execute("SELECT pg_stat_clear_snapshot()")
            cursor.execute(
                "SELECT n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables "
                "WHERE relid = 'games_game'::regclass"
            )
            return cursor.fetchone()

    upd0, hot0 = counts()
    version = 0
    for n in range(20):
        version = _play(player_client, gid, version, "deal" if n % 2 == 0 else "undo")
    upd1, hot1 = counts()

    assert upd1 - upd0 == 20
    # Each action commits, so page pruning keeps room for the new version on the same page;
    # a rare full page may still take a version elsewhere.
    assert hot1 - hot0 >= 18, (upd1 - upd0, hot1 - hot0)


def test_the_idle_sweep_finds_idle_games_without_an_index_on_last_action_at(
    player_client, make_user, auth_client, clock
):
    idle = new_game(player_client, 1)["id"]
    _play(player_client, idle, 0, "deal")
    busy_client = auth_client(make_user())
    busy = new_game(busy_client, 1)["id"]
    clock.advance(seconds=3 * 3600)
    _play(busy_client, busy, 0, "deal")  # created as long ago, but played just now

    assert games_expire_idle(idle=timedelta(hours=2)) == 1

    assert Game.objects.get(pk=idle).end_reason == Game.EndReason.EXPIRED
    assert Game.objects.get(pk=busy).status == Game.Status.IN_PROGRESS
    assert Action.objects.filter(game_id=busy).count() == 1
    indexed = {
        tuple(index.fields) for index in Game._meta.indexes if "last_action_at" in index.fields
    }
    assert indexed == set()


@pytest.mark.postgres
def test_the_two_statements_of_an_action_are_prepared_once_per_connection(player_client):
    """PostgreSQL parses and plans them once per connection, not on every action (with the
    token lookup's, which this connection ran once, signing the player in); the ORM's own
    queries are never prepared."""
    gid = new_game(player_client, 1)["id"]
    version = 0
    for n in range(4):
        version = _play(player_client, gid, version, "deal" if n % 2 == 0 else "undo")

    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements WHERE NOT from_sql")
        prepared = [row[0] for row in cursor.fetchall()]
    lock = [s for s in prepared if s.startswith("SELECT") and s.endswith("FOR UPDATE")]
    write = [s for s in prepared if s.startswith("WITH logged AS (INSERT INTO")]
    lookup = [s for s in prepared if s.startswith("SELECT t.") and '"key_hash" = $1' in s]
    assert (len(lock), len(write), len(lookup)) == (1, 1, 1), prepared
    assert len(prepared) == 3, prepared  # nothing else: no ORM query


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_prepared_statements_can_be_turned_off(player_client, settings):
    settings.DATABASE_PREPARED_STATEMENTS = False
    connection.close()  # the setting is read when a connection opens
    gid = new_game(player_client, 1)["id"]
    _play(player_client, gid, 0, "deal")

    with connection.cursor() as cursor:
        cursor.execute("SELECT count(*) FROM pg_prepared_statements")
        count = cursor.fetchone()[0]
    connection.close()  # the next test's connection opens with the setting as it was
    assert count == 0
