"""The cost of one race action, pinned so it cannot creep back: the statements it sends (as
many as a casual action: the game and table rows locked with the racer and its race, then
one write holding the event row and the table's counter too); that the lock order stays game,
then table; and that the racer read with the table lock still sees what committed while the
statement waited for that lock."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.test import APIClient

from games import kinds
from games.models import Game
from races import rows, services
from races.models import Race, Racer, Table, TableEvent
from races.policy import RaceTurn
from tests.conftest import token_of
from tests.games.api.helpers import act, ok
from tests.races.conftest import start_race

pytestmark = pytest.mark.django_db


def _statements(captured: CaptureQueriesContext) -> list[str]:
    # BEGIN and COMMIT are not cursor statements (inside the test's transaction they are
    # savepoints); everything else is listed.
    return [q["sql"] for q in captured.captured_queries if "SAVEPOINT" not in q["sql"]]


def test_a_race_action_sends_one_lock_and_one_write(racers):
    players = racers(2)
    table = start_race([c for _, c in players], seed=7)
    (u1, c1), _ = players
    game = {r["player"]: r["game"] for r in table["race"]["racers"]}[u1.username]
    ok(act(c1, game, "deal"))  # the token is now known to this process
    seq = Table.objects.get(code=table["code"]).seq

    with CaptureQueriesContext(connection) as captured:
        ok(act(c1, game, "deal"))

    sql = _statements(captured)
    # The game row and the table row locked, with the racer and its race, in one statement
    # (this process has seen the game's kind), then the one write: as many as a casual one.
    assert sql[0].startswith("SELECT") and '"games_game" g JOIN "races_racer"' in sql[0]
    if connection.vendor == "postgresql":
        assert len(sql) == 2, sql
        assert sql[0].endswith("FOR UPDATE OF g, t")
        write = sql[1]
        assert write.startswith("WITH logged AS (INSERT INTO")
        assert '"games_action"' in write and 'UPDATE "games_game"' in write
        assert "UPDATE races_table SET seq" in write and "INSERT INTO races_tableevent" in write
    else:
        assert len(sql) == 5, sql  # SQLite: no data-modifying CTE, so one write at a time
    events = TableEvent.objects.filter(table__code=table["code"]).order_by("seq")
    assert Table.objects.get(code=table["code"]).seq == seq + 1 == events.last().seq
    assert events.last().kind == "progress"
    assert events.last().data["actions"] == 2


def test_the_race_turn_is_handed_over_and_nothing_rides_on_the_game(racers):
    """The policy's checks return the turn (the table, race and racer it locked and read)
    for the action's later steps; the Game instance carries nothing of the race."""
    players = racers(2)
    table = start_race([c for _, c in players], seed=7)
    (u1, _), _ = players
    game_id = {r["player"]: r["game"] for r in table["race"]["racers"]}[u1.username]
    policy = kinds.policy_for(Game.Kind.RACE)
    assert policy is not None

    with transaction.atomic():
        locked = policy.lock_for_act(game_id=game_id, player_id=u1.pk)
        assert locked is not None
        game, read = locked
        fields = set(vars(game))
        turn = read.before_act(game=game, action_type="deal", now=timezone.now())

    assert isinstance(turn, RaceTurn) and turn is read  # checked, not read a second time
    assert turn.table.code == table["code"] and turn.table.status == Table.Status.RACING
    assert turn.racer.player_id == u1.pk and turn.racer.race_id == turn.race.pk
    assert set(vars(game)) == fields


def test_the_progress_event_follows_a_draw_declined_and_precedes_the_finish(racers):
    from tests.races.test_race_api import WIN2

    players = racers(2)
    table = start_race([c for _, c in players], layout=WIN2)
    (u1, c1), (u2, c2) = players
    game = {r["player"]: r["game"] for r in table["race"]["racers"]}[u1.username]
    services.race_draw(player=u2, code=table["code"], accept=True)
    ok(act(c1, game, "move", from_=1, to=0))
    ok(act(c1, game, "move", from_=1, to=0))  # the win

    kinds = list(
        TableEvent.objects.filter(table__code=table["code"])
        .order_by("seq")
        .values_list("seq", "kind")
    )
    assert [k for _, k in kinds[-5:]] == [
        "draw_offered",
        "draw_declined",
        "progress",
        "progress",
        "finished",
    ]
    assert [s for s, _ in kinds] == list(range(1, len(kinds) + 1))


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("known", [False, True], ids=["first-action", "with-the-game"])
def test_an_action_that_waited_for_the_table_sees_the_race_ended_meanwhile(racers, known):
    """The racer and the race are read in the statement that waits for the table lock: a
    race that ended while it waited must be seen as over (the read is repeated when the
    table's seq moved), not as the statement's snapshot had it. Both statements: the table
    locked alone (the first action of a game in this process), or with the game row."""
    players = racers(2)
    table = start_race([c for _, c in players], seed=7)
    (u1, _), (u2, c2) = players
    code = table["code"]
    game = {r["player"]: r["game"] for r in table["race"]["racers"]}[u2.username]
    if known:
        ok(act(c2, game, "deal"))
    locked, release = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def end_the_race() -> None:  # u1 resigns while the table is held: u2 wins, last left
        try:
            with transaction.atomic():
                Table.objects.select_for_update().get(code=code)
                locked.set()
                services.race_resign(player=u1, code=code)
                release.wait(10)
        except BaseException as exc:  # noqa: BLE001  (reported below)
            errors.append(exc)
        finally:
            connection.close()

    def waiting_for_a_lock() -> bool:
        with connection.cursor() as cursor:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity "
                "WHERE wait_event_type = 'Lock' AND datname = current_database()"
            )
            return cursor.fetchone()[0] > 0

    holder = threading.Thread(target=end_the_race)
    holder.start()
    assert locked.wait(10)
    response: list = []

    def acting() -> None:
        try:
            client = APIClient()
            client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_of(u2)}")
            response.append(act(client, game, "deal"))
        finally:
            connection.close()

    actor = threading.Thread(target=acting)
    actor.start()
    deadline = time.monotonic() + 10
    while not waiting_for_a_lock() and time.monotonic() < deadline:
        time.sleep(0.02)
    assert waiting_for_a_lock(), "the action never waited for the table"
    release.set()
    holder.join(10)
    actor.join(10)

    assert not errors, errors
    assert response[0].status_code == 422, response[0].content
    assert response[0].json()["code"] == "race_over"
    race = Race.objects.get(table__code=code)
    assert race.status == Race.Status.FINISHED
    assert Racer.objects.get(race=race, player=u2).state == Racer.State.WON
    kinds = list(
        TableEvent.objects.filter(table__code=code).order_by("seq").values_list("kind", flat=True)
    )
    assert kinds[-1] == "finished" and kinds.count("progress") == int(known)


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_the_one_statement_locks_the_game_row_before_it_waits_for_the_table(racers):
    """Game, then table: the one lock order (races/services/__init__.py), kept inside the statement,
    so it never holds a table while it waits for a game."""
    players = racers(2)
    table = start_race([c for _, c in players], seed=7)
    (u1, _), _ = players
    game = {r["player"]: r["game"] for r in table["race"]["racers"]}[u1.username]
    locked, release, done = threading.Event(), threading.Event(), threading.Event()

    def hold_the_table() -> None:
        try:
            with transaction.atomic():
                Table.objects.select_for_update().get(code=table["code"])
                locked.set()
                release.wait(10)
        finally:
            connection.close()

    def lock_both() -> None:
        try:
            with transaction.atomic():
                assert rows.game_for_act(game_id=game, player_id=u1.pk) is not None
        finally:
            done.set()
            connection.close()

    holder = threading.Thread(target=hold_the_table)
    holder.start()
    assert locked.wait(10)
    locker = threading.Thread(target=lock_both)
    locker.start()
    try:
        deadline = time.monotonic() + 10
        game_locked = False
        while time.monotonic() < deadline and not game_locked:
            time.sleep(0.05)
            with transaction.atomic():  # is the game row held by the waiting statement?
                game_locked = (
                    not Game.objects.select_for_update(skip_locked=True).filter(pk=game).exists()
                )
        assert not done.is_set(), "the statement did not wait for the table"
        assert game_locked, "the game row was not locked while the statement waited"
    finally:
        release.set()
        holder.join(10)
        locker.join(10)
    assert done.is_set()
