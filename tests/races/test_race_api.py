"""The race table's endpoints: open, sit, stand, ready, start, play, win, again."""

from __future__ import annotations

import pytest

from games.models import Game
from races.models import Race, Racer, RaceStats, TableEvent
from races.services import races_tick
from tests.games.api.helpers import act, game_url, ok, refused
from tests.races.conftest import API, open_table, post, race_url, start_race

pytestmark = pytest.mark.django_db(transaction=True)

WIN2 = {
    "columns": [
        {"down": [], "up": ["Ks", "Qs", "Js", "Ts", "9s", "8s", "7s", "6s", "5s", "4s", "3s"]},
        {"down": ["As"], "up": ["2s"]},
    ]
    + [{"down": [], "up": []}] * 8,
    "stock": [],
}


def test_open_sit_ready_start_and_the_first_win_ends_the_race(racers):
    (alice, a), (bob, b), (carol, c) = racers(3)
    table = start_race([a, b, c], layout=WIN2)
    code = table["code"]
    assert table["status"] == "countdown"
    race = table["race"]
    assert [r["player"] for r in race["racers"]] == [alice.username, bob.username, carol.username]
    games = {r["player"]: r["game"] for r in race["racers"]}

    # Each racer plays their own game through the ordinary action endpoint.
    body = ok(act(b, games[bob.username], "move", from_=1, to=0))
    assert body["kind"] == "race" and body["status"] == "in_progress"
    assert body["outcome"]["turned"] == [{"column": 1, "card": "As"}]
    body = ok(act(a, games[alice.username], "move", from_=1, to=0))
    body = ok(act(a, games[alice.username], "move", from_=1, to=0))
    assert body["status"] == "won"

    # Bob's winning move comes too late: the race is over.
    refused(act(b, games[bob.username], "move", from_=1, to=0), 422, "race_over")
    table = ok(c.get(race_url(code)))
    assert table["status"] == "finished"
    assert table["race"]["winner"] == alice.username
    assert table["race"]["result"] == "won" and table["race"]["end_reason"] == "won"
    states = {r["player"]: r["state"] for r in table["race"]["racers"]}
    assert states == {alice.username: "won", bob.username: "lost", carol.username: "lost"}
    assert table["match"]["wins"] == {alice.username: 1, bob.username: 0, carol.username: 0}
    # Every game is closed (after the commit), none on the leaderboard or in casual stats.
    assert Game.objects.get(pk=games[bob.username]).end_reason == "race_over"
    assert set(Game.objects.filter(kind="race").values_list("status", flat=True)) == {"won", "lost"}
    assert RaceStats.objects.get(player=alice, suits=1).wins == 1
    assert RaceStats.objects.get(player=bob, suits=1).losses == 1
    assert ok(b.get(f"{API}/players/{alice.username}"))["stats"][0]["played"] == 0
    assert ok(b.get(f"{API}/players/{alice.username}/races"))["races"][0] == {
        "suits": 1,
        "played": 1,
        "wins": 1,
        "draws": 0,
        "losses": 0,
    }
    # The laid-open tables: every position and log.
    laid = table["race"]["laid_open"]
    assert [t["player"] for t in laid["tables"]] == [alice.username, bob.username, carol.username]
    assert len(laid["tables"][0]["log"]) == 2 and len(laid["tables"][1]["log"]) == 1


def test_events_are_numbered_without_gaps(racers):
    (_, a), (_, b) = racers(2)
    table = start_race([a, b], layout=WIN2)
    seqs = list(TableEvent.objects.order_by("seq").values_list("seq", "kind"))
    assert [s for s, _ in seqs] == list(range(1, len(seqs) + 1))
    assert [k for _, k in seqs] == ["seated", "seated", "ready", "countdown", "started"]
    assert table["seq"] == len(seqs) - 1  # the answer to start; the sweep then started it


def test_undo_and_hints_are_refused_and_nothing_before_the_start(racers, settings):
    settings.RACE_COUNTDOWN_SECONDS = 30
    (alice, a), (_, b) = racers(2)
    table = start_race([a, b], layout=WIN2)
    game = table["race"]["racers"][0]["game"]
    state = ok(a.get(game_url(game)))
    assert all(col["cards"] == [] for col in state["columns"]), "a card before the start"
    refused(act(a, game, "move", from_=1, to=0), 422, "race_not_started")
    refused(act(a, game, "undo"), 422, "undo_not_allowed")
    refused(a.post(f"{game_url(game)}/hint", {}, format="json"), 422, "hints_not_allowed")
    refused(a.post(f"{API}/games", {"replay_of": game}, format="json"), 404, "not_found")


def test_again_rotates_the_seats_and_keeps_the_score(racers):
    (alice, a), (bob, b), (carol, c) = racers(3)
    table = start_race([a, b, c], layout=WIN2)
    code = table["code"]
    games = {r["player"]: r["game"] for r in table["race"]["racers"]}
    ok(act(b, games[bob.username], "move", from_=1, to=0))
    ok(act(b, games[bob.username], "move", from_=1, to=0))
    table = ok(post(a, code, "again"))
    assert [(s["seat"], s["player"]) for s in table["seats"]] == [
        (0, carol.username),
        (1, alice.username),
        (2, bob.username),
    ]
    assert table["match"]["wins"][bob.username] == 1
    assert table["race"]["number"] == 2 and table["status"] == "countdown"
    assert [r["player"] for r in table["race"]["racers"]] == [
        carol.username,
        alice.username,
        bob.username,
    ]


def test_bad_input(racers, make_user, auth_client):
    players = racers(5)
    clients = [c for _, c in players]
    refused(clients[0].get(race_url("NOSUCHCD")), 404, "not_found")
    refused(post(clients[0], "NOSUCHCD", "sit"), 404, "not_found")
    table = open_table(clients[:4], ready=False, layout=WIN2)
    code = table["code"]
    refused(post(clients[4], code, "sit"), 409, "table_full")
    refused(post(clients[1], code, "start"), 403, "not_opener")
    refused(post(clients[0], code, "start"), 409, "not_ready")
    refused(post(clients[1], code, "sit"), 409, "already_seated")
    before = TableEvent.objects.count()
    refused(post(clients[4], code, "stand"), 409, "not_seated")
    refused(post(clients[1], code, "resign"), 409, "no_race")
    refused(post(clients[1], code, "draw", {"accept": "maybe"}), 400, "invalid")
    assert TableEvent.objects.count() == before  # refusals write nothing
    for c in clients[1:4]:
        ok(post(c, code, "ready"))
    table = ok(post(clients[0], code, "start"))
    other_game = table["race"]["racers"][1]["game"]
    # Acting in someone else's race game: as for any game not yours.
    refused(act(clients[0], other_game, "move", from_=1, to=0), 404, "not_found")
    refused(clients[0].get(game_url(other_game)), 404, "not_found")
    refused(post(clients[4], code, "resign"), 409, "not_racing")
    refused(post(clients[4], code, "sit"), 409, "table_busy")


def test_resign_leaving_one_racer_makes_them_the_winner(racers):
    (alice, a), (bob, b), (carol, c) = racers(3)
    table = start_race([a, b, c], layout=WIN2)
    code = table["code"]
    ok(post(a, code, "resign"))
    body = ok(post(c, code, "resign"))
    assert body["status"] == "finished"
    assert body["race"]["winner"] == bob.username
    assert body["race"]["end_reason"] == "last_left"
    out = {r["player"]: (r["state"], r["out_reason"]) for r in body["race"]["racers"]}
    assert out[alice.username] == ("out", "resigned")
    games = {r["player"]: r["game"] for r in body["race"]["racers"]}
    assert Game.objects.get(pk=games[alice.username]).end_reason == "resigned"


def test_resigning_ends_the_racers_game_at_once_and_its_deal_stays_secret(racers):
    (alice, a), (bob, b), (carol, c), (dave, d) = racers(4)
    table = start_race([a, b, c, d], layout=WIN2)
    code = table["code"]
    games = {r["player"]: r["game"] for r in table["race"]["racers"]}
    # Alice resigns at the table, Bob on his game: each game ends there and then.
    body = ok(post(a, code, "resign"))
    assert body["status"] == "racing"
    mine = ok(a.get(game_url(games[alice.username])))
    assert (mine["status"], mine["end_reason"]) == ("lost", "resigned")
    assert mine["finished_at"] is not None and mine["deal"] is None
    assert ok(a.get(f"{game_url(games[alice.username])}/actions"))["deal"] is None
    body = ok(b.post(f"{game_url(games[bob.username])}/resign"))
    assert (body["status"], body["end_reason"], body["deal"]) == ("lost", "resigned", None)
    assert Race.objects.get().status == "racing"
    out = {e.data["player"] for e in TableEvent.objects.filter(kind="out")}
    assert out == {alice.username, bob.username}
    refused(act(a, games[alice.username], "move", from_=1, to=0), 422, "not_racing")
    # The race runs on: the resigned games are not anyone's to read or replay yet (the
    # others play the same deal), nor are their positions.
    for game in (games[alice.username], games[bob.username]):
        refused(c.get(game_url(game)), 404, "not_found")
        refused(c.get(f"{game_url(game)}/positions/0"), 404, "not_found")
        refused(c.get(f"{game_url(game)}/actions"), 404, "not_found")
        refused(c.post(f"{API}/games", {"replay_of": game}, format="json"), 404, "not_found")
    refused(
        a.post(f"{API}/games", {"replay_of": games[alice.username]}, format="json"),
        404,
        "not_found",
    )
    # Carol resigns too: Dave wins; now every game and the deal are laid open.
    body = ok(post(c, code, "resign"))
    assert body["status"] == "finished" and body["race"]["winner"] == dave.username
    seen = ok(c.get(game_url(games[alice.username])))
    assert seen["deal"] is not None and seen["end_reason"] == "resigned"
    ok(c.get(f"{game_url(games[alice.username])}/positions/0"))


def test_draw_only_when_all_racing_accept_and_an_action_declines(racers):
    (alice, a), (bob, b), (carol, c) = racers(3)
    table = start_race([a, b, c], layout=WIN2)
    code = table["code"]
    games = {r["player"]: r["game"] for r in table["race"]["racers"]}
    ok(post(a, code, "draw", {"accept": True}))
    body = ok(post(b, code, "draw", {"accept": True}))
    assert body["race"]["draw_offer"] == {"accepted": [alice.username, bob.username]}
    assert body["status"] == "racing"
    ok(act(c, games[carol.username], "move", from_=1, to=0))  # Carol plays on: declined
    body = ok(c.get(race_url(code)))
    assert body["race"]["draw_offer"] is None
    assert TableEvent.objects.filter(kind="draw_declined").count() == 1
    for client in (a, b, c):
        body = ok(post(client, code, "draw", {"accept": True}))
    assert body["status"] == "finished"
    assert body["race"]["result"] == "draw" and body["race"]["winner"] is None
    assert body["match"]["draws"] == dict.fromkeys(
        [alice.username, bob.username, carol.username], 1
    )


def test_a_resigned_racer_stays_out_and_the_draw_needs_only_those_racing(racers):
    (alice, a), (bob, b), (carol, c) = racers(3)
    table = start_race([a, b, c], layout=WIN2)
    code = table["code"]
    games = {r["player"]: r["game"] for r in table["race"]["racers"]}
    ok(post(c, code, "resign"))
    refused(act(c, games[carol.username], "move", from_=1, to=0), 422, "not_racing")
    ok(post(a, code, "draw", {"accept": True}))
    body = ok(post(b, code, "draw", {"accept": True}))
    assert body["race"]["result"] == "draw"
    states = {r["player"]: r["state"] for r in body["race"]["racers"]}
    assert states == {alice.username: "draw", bob.username: "draw", carol.username: "out"}


def test_staff_only_for_seed_and_layout(racers):
    (_, a), (_, b) = racers(2)
    refused(b.post(f"{API}/races", {"suits": 1, "seed": 5}, format="json"), 403, "staff_only")
    refused(b.post(f"{API}/races", {"suits": 3}, format="json"), 400, "invalid")
    refused(b.post(f"{API}/races", {"suits": 1, "time_limit_s": 30}, format="json"), 400, "invalid")


def test_a_race_from_the_pool(racers, stock_pool):
    stock_pool(1, 1)
    (_, a), (_, b) = racers(2)
    table = start_race([a, b])
    race = Race.objects.get()
    assert race.deal.vetted and race.deal.source == "pool"
    assert Racer.objects.filter(race=race).count() == 2
    # start_race's sweep turned the cards over; one straight after finds nothing due.
    assert race.status == Race.Status.RACING
    assert races_tick() == 0
    race.refresh_from_db()
    assert race.status == Race.Status.RACING
    assert table["race"]["laid_open"] is None
