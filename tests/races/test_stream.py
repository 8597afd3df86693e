"""GET /races/{code}/events through real uvicorn processes and a real HTTP client (httpx):
the table first, then every event once and in order; resuming with Last-Event-ID; NDJSON
and keep-alives; Bearer and single-use tickets; presence; Redis fan-out between two
stream processes; and, without Redis, one process serving the API and the stream."""

from __future__ import annotations

import json

import httpx
import pytest

from races.models import Presence, TableEvent
from tests.conftest import token_of
from tests.games.api.helpers import act, ok
from tests.ops.procs import wait_for
from tests.races.conftest import API, open_table, post, race_url
from tests.races.streams import CHANNEL, Reader, close_all, stream_server
from tests.races.test_race_api import WIN2
from tests.redis_server import REDIS_URL, redis_up

QUIET = {
    "RACE_TICK_SECONDS": "3600",
    "RACE_HEARTBEAT_SECONDS": "3600",
    "RACE_KEEPALIVE_SECONDS": "1",
    "RACE_GONE_GRACE_SECONDS": "1",  # a `gone` 1 s after the stream closes
}


needs_redis = pytest.mark.skipif(not redis_up(), reason="needs Redis: set CELERY_BROKER_URL")
pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres, pytest.mark.slow]


@pytest.fixture
def redis_events(settings):
    """This process publishes its events where the stream servers listen."""
    settings.RACE_EVENTS_REDIS_URL = REDIS_URL
    settings.RACE_EVENTS_CHANNEL = CHANNEL
    settings.RACE_GONE_GRACE_SECONDS = int(QUIET["RACE_GONE_GRACE_SECONDS"])  # as the servers


@pytest.fixture(scope="module")
def _module_server(tmp_path_factory, django_db_setup):
    if not redis_up():
        yield None
        return
    tmp = tmp_path_factory.mktemp("stream")
    # No timer sweep or heartbeat here: between tests the server must leave the database
    # alone while the test's tables are flushed (the timers have their own tests).
    with stream_server(tmp, redis_url=REDIS_URL, **QUIET) as base:
        yield base


@pytest.fixture
def server(_module_server, redis_events):
    """One stream process for the module (it starts in seconds), this test's events on it."""
    yield _module_server
    close_all()


def bearer(user) -> dict[str, str]:
    return {"Authorization": f"Bearer {token_of(user)}"}


def events_url(base: str, code: str, query: str = "") -> str:
    return f"{base}{API}/races/{code}/events{query}"


@needs_redis
def test_the_table_first_then_every_event_in_order(server, racers):
    (alice, a), (bob, b) = racers(2)
    table = open_table([a], layout=WIN2)
    code = table["code"]
    ticket = ok(post(a, code, "ticket"), 201)
    reader = Reader(server + ticket["events_url"])  # SSE, as a browser's EventSource
    reader.wait_open()
    first = reader.wait_for("table")
    assert first["data"]["code"] == code and first["seq"] == first["data"]["seq"]
    # Connected by holding the stream (its `back` is already in the table it got first).
    assert first["data"]["seats"][0]["connected"] is True
    ok(post(b, code, "sit"))
    ok(post(b, code, "ready"))
    ok(post(a, code, "start"))
    countdown = reader.wait_for("countdown")
    game = {r["player"]: r["game"] for r in countdown["data"]["racers"]}
    ok(act(b, game[bob.username], "move", from_=1, to=0))
    progress = reader.wait_for("progress", player=bob.username)
    assert progress["data"]["turned"] == 1 and progress["data"]["moves"] == 1
    ok(act(b, game[bob.username], "move", from_=1, to=0))
    finished = reader.wait_for("finished")
    assert finished["data"]["winner"] == bob.username
    reader.close()
    assert reader.seqs() == list(range(first["seq"], first["seq"] + len(reader.events)))
    assert reader.ids == reader.seqs()  # the SSE id is the seq
    stored = list(TableEvent.objects.filter(table__code=code).order_by("seq"))
    assert [e.kind for e in stored[first["seq"] :]] == [e["event"] for e in reader.events[1:]][
        : len(stored) - first["seq"]
    ]
    # The ticket was good once.
    again = httpx.get(server + ticket["events_url"])
    assert again.status_code == 401 and again.json()["code"] == "invalid_ticket"


@needs_redis
def test_resuming_with_last_event_id_delivers_each_missed_event_once(server, racers):
    (alice, a), (bob, b), (carol, c) = racers(3)
    table = open_table([a, b, c], layout=WIN2)
    code = table["code"]
    url = events_url(server, code)
    reader = Reader(url, headers=bearer(carol))
    reader.wait_open()
    reader.wait_for("table")
    ok(post(a, code, "start"))
    countdown = reader.wait_for("countdown")
    reader.close()  # Carol's connection drops ...
    last = reader.events[-1]["seq"]
    wait_for(  # ... for longer than the grace: her `gone` is written
        "carol's gone",
        lambda: TableEvent.objects.filter(table__code=code, kind="gone").exists(),
        15,
    )
    game = {r["player"]: r["game"] for r in countdown["data"]["racers"]}
    ok(act(a, game[alice.username], "move", from_=1, to=0))  # ... while the race goes on
    ok(act(b, game[bob.username], "move", from_=1, to=0))
    resumed = Reader(url, headers={**bearer(carol), "Last-Event-ID": str(last)})
    resumed.wait_open()
    resumed.wait_for("progress", player=bob.username)
    resumed.wait_for("back", player=carol.username)
    ok(act(c, game[carol.username], "move", from_=1, to=0))  # back within 60 s: plays on
    ok(act(a, game[alice.username], "move", from_=1, to=0))  # live again
    resumed.wait_for("finished")
    resumed.close()
    assert resumed.events[0]["event"] != "table"  # resumed: no table first
    seqs = resumed.seqs()
    assert seqs == list(range(last + 1, last + 1 + len(seqs))), seqs
    total = TableEvent.objects.filter(table__code=code).count()
    assert seqs[-1] <= total
    kinds = [e["event"] for e in resumed.events]
    assert kinds.count("finished") == 1 and kinds.count("progress") == 4
    # Carol's drop and return are among them, and she was never out.
    assert [e["event"] for e in resumed.events if e["data"].get("player") == carol.username][
        :2
    ] == ["gone", "back"]
    assert "out" not in kinds


@needs_redis
def test_ndjson_with_keepalives_and_since(server, racers):
    (alice, a), (_, b) = racers(2)
    table = open_table([a, b], layout=WIN2)
    reader = Reader(
        events_url(server, table["code"], "?since=1"), headers=bearer(alice), ndjson=True
    )
    reader.wait_open()
    reader.wait_for("seated", seat=1)
    import time

    time.sleep(2.5)
    reader.close()
    assert reader.keepalives >= 1
    assert reader.seqs()[:2] == [2, 3]  # since=1: from seq 2 on


@needs_redis
def test_presence_gone_when_the_stream_closes(server, racers):
    (alice, a), (bob, b) = racers(2)
    table = open_table([a, b], layout=WIN2)
    code = table["code"]
    watcher = Reader(events_url(server, code), headers=bearer(alice))
    watcher.wait_open()
    bob_stream = Reader(events_url(server, code), headers=bearer(bob))
    bob_stream.wait_open()
    watcher.wait_for("back", player=bob.username)
    assert ok(a.get(race_url(code)))["seats"][1]["connected"] is True
    bob_stream.close()
    watcher.wait_for("gone", player=bob.username, timeout=15)
    assert ok(a.get(race_url(code)))["seats"][1]["connected"] is False
    assert Presence.objects.get(player=bob).streams == 0
    watcher.close()


@needs_redis
def test_bad_requests_to_the_stream(server, racers):
    (alice, a), _ = racers(2)
    table = open_table([a], layout=WIN2)
    code = table["code"]
    r = httpx.get(events_url(server, "NOSUCHCD"), headers=bearer(alice))
    assert (r.status_code, r.json()["code"]) == (404, "not_found")
    r = httpx.get(events_url(server, code))
    assert (r.status_code, r.json()["code"]) == (401, "not_authenticated")
    assert r.headers["WWW-Authenticate"].startswith("Bearer")
    r = httpx.get(events_url(server, code), headers={"Authorization": "Bearer nope"})
    assert (r.status_code, r.json()["code"]) == (401, "invalid_token")
    r = httpx.get(events_url(server, code, "?since=x"), headers=bearer(alice))
    assert (r.status_code, r.json()["code"]) == (400, "invalid")
    r = httpx.get(events_url(server, code, "?ticket=forged"))
    assert (r.status_code, r.json()["code"]) == (401, "invalid_ticket")


@needs_redis
def test_redis_fans_out_to_two_stream_processes(tmp_path, server, racers):
    (alice, a), (bob, b) = racers(2)
    one = server
    with stream_server(tmp_path, redis_url=REDIS_URL, name="two", **QUIET) as two:
        table = open_table([a, b], layout=WIN2)
        code = table["code"]
        r1 = Reader(events_url(one, code), headers=bearer(alice))
        r2 = Reader(events_url(two, code), headers=bearer(bob))
        for r in (r1, r2):
            r.wait_open()
            r.wait_for("table")
        ok(post(a, code, "start"))  # committed here, published to Redis
        for r in (r1, r2):
            r.wait_for("countdown")
        # An action served by one process reaches the other through Redis too.
        game = r1.wait_for("countdown")["data"]["racers"][1]["game"]
        resp = httpx.post(
            f"{one}{API}/games/{game}/actions",
            json={"type": "move", "from": 1, "to": 0},
            headers=bearer(bob),
        )
        assert resp.status_code == 200, resp.text
        r2.wait_for("progress", player=bob.username)
        r1.wait_for("progress", player=bob.username)
        r1.close()
        r2.close()
        tail1 = [e for e in r1.events if e["seq"] > r1.events[0]["seq"]]
        tail2 = [e for e in r2.events if e["seq"] > r1.events[0]["seq"]]
        common = min(len(tail1), len(tail2))
        assert [e["seq"] for e in tail1[:common]] == [e["seq"] for e in tail2[:common]]
        close_all()


def test_one_process_serves_the_api_and_the_stream_without_redis(tmp_path, racers):
    """`make run`: no Redis; the events go from the request's thread to the streams of the
    same process in memory."""
    (alice, a), (bob, b) = racers(2)
    with stream_server(tmp_path, redis_url="", name="single", **QUIET) as base:
        table = open_table([a, b], layout=WIN2)
        code = table["code"]
        reader = Reader(events_url(base, code), headers=bearer(alice))
        reader.wait_open()
        reader.wait_for("table")
        resp = httpx.post(f"{base}{API}/races/{code}/start", headers=bearer(alice))
        assert resp.status_code == 200, resp.text
        reader.wait_for("countdown", timeout=5)
        close_all()


SEED = 12345678901234567891  # 20 digits: found in a text only if it leaked


@needs_redis
def test_nothing_leaks_until_the_race_ends_then_all_is_laid_open(server, racers, make_user):
    """Scan every body and every event of a whole race, of every racer and a watcher."""
    from tests.games.api.helpers import (
        CARD_TOKEN,
        actions_url,
        board_of,
        check_public,
        game_url,
        pooled_seed_deal,
    )

    pooled_seed_deal(1, SEED)
    players = racers(3)
    clients = [c for _, c in players]
    watcher = make_user()
    table = open_table(clients)  # a deal from the pool: the one above
    code = table["code"]
    readers = [Reader(events_url(server, code), headers=bearer(u)) for u, _ in players]
    readers.append(Reader(events_url(server, code), headers=bearer(watcher), ndjson=True))
    for r in readers:
        r.wait_open()
        r.wait_for("table")
    bodies: list[str] = []

    def scan(response, status: int = 200) -> dict:
        assert response.status_code == status, response.content
        text = response.content.decode()
        bodies.append(text)
        assert str(SEED) not in text, "the seed leaked"
        return response.json()

    started = scan(post(clients[0], code, "start"))
    games = [r["game"] for r in started["race"]["racers"]]
    for _ in range(6):
        for (_user, client), game in zip(players, games, strict=True):
            board = board_of(game)
            move = next((m for m in board.legal_actions() if m[0] >= 0), None)
            body = (
                {"type": "move", "from": move[0], "to": move[1], "count": move[2]}
                if move
                else {"type": "deal"}
            )
            response = client.post(actions_url(game), body, format="json")
            if response.status_code != 200:
                continue
            check_public(response, game, seed=SEED)  # own cards exactly, nothing else
            bodies.append(response.content.decode())
    for (_user, client), game in zip(players, games, strict=True):
        for other in games:
            if other != game:
                assert client.get(game_url(other)).status_code == 404
        check_public(client.get(game_url(game)), game, seed=SEED)
        scan(client.get(actions_url(game)))
        table_body = scan(client.get(race_url(code)))
        assert not CARD_TOKEN.findall(json.dumps(table_body)), "a card in the table"
    scan(post(clients[0], code, "resign"))
    end = post(clients[1], code, "resign").json()  # the race ends: all laid open
    assert end["race"]["laid_open"]["deal"]["seed"] == str(SEED)
    assert end["race"]["winner"] == players[2][0].username
    for r in readers:
        r.wait_for("finished")
    for r in readers:
        for event in r.events:
            text = json.dumps(event)
            if event["event"] == "finished":
                laid = event["data"]["laid_open"]
                assert laid["deal"]["seed"] == str(SEED)
                assert len(laid["tables"]) == 3
                assert all(CARD_TOKEN.findall(t["position"]) for t in laid["tables"])
                continue
            assert str(SEED) not in text, f"the seed leaked in {event['event']}"
            assert not CARD_TOKEN.findall(text), f"a card in {event['event']}: {text[:200]}"
    # Once it is over, everything is open to everyone at the table.
    other = players[0][1].get(game_url(games[1]))
    assert other.status_code == 200 and other.json()["deal"]["seed"] == str(SEED)
