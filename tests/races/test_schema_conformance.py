"""Real answers of every race endpoint, and every event of a whole race, match the OpenAPI
schema (held strictly: no undeclared property), as the game endpoints' are."""

from __future__ import annotations

import json

import pytest
from django.utils import timezone

from races.events import encode_row
from races.models import Table, TableEvent
from races.presenters import table_json
from tests.games.api.helpers import act
from tests.games.api.test_schema_conformance import check, openapi  # noqa: F401
from tests.races.conftest import API, post
from tests.races.test_race_api import WIN2

pytestmark = pytest.mark.django_db(transaction=True)

RACES = "/api/v1/races"
RACE = "/api/v1/races/{code}"


def cmd(name: str) -> str:
    return f"/api/v1/races/{{code}}/{name}"


def test_every_race_answer_and_event_matches_the_schema(openapi, racers):  # noqa: F811
    players = racers(5)
    (alice, a), (bob, b), (carol, c), (_, d), (_, e) = players
    opened = a.post(f"{API}/races", {"suits": 1, "layout": WIN2}, format="json")
    check(openapi, RACES, "post", opened)
    code = opened.json()["code"]
    check(openapi, cmd("sit"), "post", post(b, code, "sit"))
    check(openapi, cmd("sit"), "post", post(c, code, "sit", {"seat": 3}))
    check(openapi, cmd("sit"), "post", post(d, code, "sit"))
    check(openapi, cmd("sit"), "post", post(e, code, "sit"))  # 409 table_full
    check(openapi, cmd("stand"), "post", post(d, code, "stand"))
    check(openapi, cmd("ready"), "post", post(b, code, "ready"))
    check(openapi, cmd("unready"), "post", post(b, code, "unready"))
    check(openapi, cmd("start"), "post", post(a, code, "start"))  # 409 not_ready
    check(openapi, cmd("start"), "post", post(b, code, "start"))  # 403 not_opener
    for client in (b, c):
        post(client, code, "ready")
    check(
        openapi,
        cmd("settings"),
        "post",
        post(a, code, "settings", {"suits": 1, "time_limit_s": 600}),
    )
    for client in (b, c):
        post(client, code, "ready")
    started = post(a, code, "start")
    check(openapi, cmd("start"), "post", started)
    games = {r["player"]: r["game"] for r in started.json()["race"]["racers"]}
    check(openapi, RACE, "get", b.get(f"{API}/races/{code}"))
    check(openapi, cmd("draw"), "post", post(b, code, "draw", {"accept": True}))
    check(openapi, cmd("draw"), "post", post(c, code, "draw", {"accept": False}))
    check(openapi, cmd("draw"), "post", post(c, code, "draw", {"accept": False}))  # 409
    check(openapi, cmd("draw"), "post", post(c, code, "draw", {}))  # 400
    check(openapi, cmd("ticket"), "post", post(d, code, "ticket"))
    act(b, games[bob.username], "move", from_=1, to=0)
    check(openapi, cmd("resign"), "post", post(c, code, "resign"))
    check(openapi, cmd("resign"), "post", post(d, code, "resign"))  # 409 not_racing
    act(a, games[alice.username], "move", from_=1, to=0)
    act(a, games[alice.username], "move", from_=1, to=0)  # wins
    check(openapi, RACE, "get", c.get(f"{API}/races/{code}"))  # finished, laid open
    check(openapi, cmd("again"), "post", post(b, code, "again"))  # 403
    check(openapi, cmd("again"), "post", post(a, code, "again"))
    check(openapi, RACE, "get", c.get(f"{API}/races/NOSUCHCD"))  # 404
    check(openapi, RACES, "post", b.post(f"{API}/races", {"suits": 1, "seed": 3}, format="json"))
    check(
        openapi,
        "/api/v1/players/{username}/races",
        "get",
        b.get(f"{API}/players/{alice.username}/races"),
    )

    # Every event, and the table that opens a stream.
    schemas = openapi["components"]["schemas"]
    mapping = schemas["RaceEvent"]["discriminator"]["mapping"]
    documented = {kind: schemas[ref.rsplit("/", 1)[-1]] for kind, ref in mapping.items()}

    def validate(event: dict) -> None:
        spec = documented[event["event"]]
        assert set(event) == set(spec["properties"]), event["event"]
        data_ref = (
            spec["properties"]["data"].get("$ref") or spec["properties"]["data"]["allOf"][0]["$ref"]
        )
        props = schemas[data_ref.rsplit("/", 1)[-1]]["properties"]
        assert set(event["data"]) == set(props), (event["event"], set(event["data"]) ^ set(props))

    table = Table.objects.get(code=code)
    validate(
        {
            "seq": table.seq,
            "event": "table",
            "at": "2026-01-01T00:00:00Z",
            "data": table_json(table, timezone.now()),
        }
    )
    kinds = set()
    for row in TableEvent.objects.filter(table=table).order_by("seq"):
        validate(json.loads(encode_row(row)))
        kinds.add(row.kind)
    assert {
        "seated",
        "stood",
        "ready",
        "settings",
        "countdown",
        "started",
        "progress",
        "draw_offered",
        "draw_declined",
        "out",
        "finished",
        "again",
    } <= kinds


def test_every_event_kind_has_its_documented_data():
    from races.events import EventKind
    from races.serializers import EVENT_DATA

    assert set(EVENT_DATA) == set(EventKind)
