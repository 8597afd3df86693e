"""The public leaderboard: who enters it, its order, pages, periods, input checks, ETags."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from unittest import mock

import pytest

from games.engine import Action, replay
from games.models import Game
from games.presenters import iso
from games.visibility import deal_out
from leaderboard.models import LeaderboardEntry
from tests.games.conftest import solved
from tests.leaderboard.helpers import (
    BOARD,
    GAMES,
    daily_board,
    entry,
    line_of,
    play_api,
    win_api,
)


def board(client, **params) -> dict:
    response = client.get(BOARD, params)
    assert response.status_code == 200, response.json()
    return response.json()


def ids(body: dict) -> list[str]:
    return [row["game"] for row in body["results"]]


# -- access ---------------------------------------------------------------------------------------
def test_the_board_is_public(api_client, db):
    response = api_client.get(BOARD, {"suits": 4})

    assert response.status_code == 200
    assert response.json() == {"page": 1, "page_size": 20, "has_next": False, "results": []}


def test_a_bad_authorization_header_is_ignored_on_public_boards(api_client, user):
    """The boards need no token and authenticate nobody ("No token needed" in the schema):
    a stale or broken token must not turn a public read into a 401."""
    entry(user, suits=4)
    api_client.credentials(HTTP_AUTHORIZATION="Bearer not-a-real-token")

    response = api_client.get(BOARD, {"suits": 4})

    assert response.status_code == 200
    assert len(response.json()["results"]) == 1
    api_client.credentials(HTTP_AUTHORIZATION="Basic Zm9vOmJhcg==")
    assert api_client.get(BOARD, {"suits": 4}).status_code == 200
    # The daily boards too (a past day: no challenge, so a 404, not a 401).
    day = datetime.now(UTC).date() - timedelta(days=3)
    assert api_client.get(daily_board(day)).json()["code"] == "no_challenge"


# -- order and pages ------------------------------------------------------------------------------
def test_order_is_score_then_shorter_time_then_earlier_finish(api_client, make_user):
    alice, bob = make_user(), make_user()
    t0 = datetime(2026, 3, 2, 12, 0, tzinfo=UTC)
    # Inserted out of order, so the id order does not give the answer away.
    e = entry(alice, score=900, elapsed_ms=1_000, finished_at=t0)
    b = entry(bob, score=1100, elapsed_ms=50_000, finished_at=t0 + timedelta(seconds=1))
    a = entry(alice, score=1100, elapsed_ms=50_000, finished_at=t0)
    d = entry(bob, score=1200, elapsed_ms=90_000, finished_at=t0 + timedelta(seconds=9))
    f = entry(bob, score=1100, elapsed_ms=50_000, finished_at=t0)  # a full tie with a: by id
    c = entry(alice, score=1100, elapsed_ms=40_000, finished_at=t0 + timedelta(seconds=5))
    entry(alice, suits=2, score=1254)  # another suit mode's board

    body = board(api_client, suits=4)

    expected = [d, c, a, f, b, e]
    assert ids(body) == [str(x.game_id) for x in expected]
    assert [row["rank"] for row in body["results"]] == [1, 2, 3, 4, 5, 6]
    assert body["results"][1] == {
        "rank": 2,
        "player": alice.username,
        "score": 1100,
        "actions": c.actions,
        "elapsed_ms": 40_000,
        "finished_at": "2026-03-02T12:00:05Z",
        "perfect": False,
        "hints": 0,
        "game": str(c.game_id),
        "deal_over_gap": False,
        "public": True,
    }
    assert body["has_next"] is False


def test_ranks_continue_across_pages_and_has_next_is_exact(api_client, user):
    made = [entry(user, score=1200 - n) for n in range(7)]  # already in board order
    expected = [str(x.game_id) for x in made]

    pages = [board(api_client, suits=4, page=p, page_size=3) for p in (1, 2, 3, 4)]

    assert [p["page"] for p in pages] == [1, 2, 3, 4]
    assert [p["page_size"] for p in pages] == [3, 3, 3, 3]
    assert [[r["rank"] for r in p["results"]] for p in pages] == [[1, 2, 3], [4, 5, 6], [7], []]
    assert sum((ids(p) for p in pages), []) == expected
    assert [p["has_next"] for p in pages] == [True, True, False, False]
    # A last page that is exactly full says there is no next page.
    assert board(api_client, suits=4, page=1, page_size=7)["has_next"] is False
    assert board(api_client, suits=4, page=2, page_size=6)["has_next"] is False
    assert board(api_client, suits=4, page=1, page_size=6)["has_next"] is True
    assert len(board(api_client, suits=4, page_size=100)["results"]) == 7


def test_periods_are_utc_calendar_day_week_from_monday_and_month(api_client, user):
    now = datetime(2026, 3, 18, 12, 0, tzinfo=UTC)  # a Wednesday
    at = {
        "today_start": datetime(2026, 3, 18, 0, 0, tzinfo=UTC),
        "yesterday_end": datetime(2026, 3, 17, 23, 59, 59, 999_000, tzinfo=UTC),
        "monday_start": datetime(2026, 3, 16, 0, 0, tzinfo=UTC),
        "sunday_end": datetime(2026, 3, 15, 23, 59, 59, tzinfo=UTC),
        "month_start": datetime(2026, 3, 1, 0, 0, tzinfo=UTC),
        "last_month_end": datetime(2026, 2, 28, 23, 59, 59, tzinfo=UTC),
    }
    made = {name: str(entry(user, finished_at=t).game_id) for name, t in at.items()}
    expected = {
        "day": {"today_start"},
        "week": {"today_start", "yesterday_end", "monday_start"},
        "month": {"today_start", "yesterday_end", "monday_start", "sunday_end", "month_start"},
        "all": set(at),
    }

    with mock.patch("django.utils.timezone.now", return_value=now):
        for period, names in expected.items():
            got = set(ids(board(api_client, suits=4, period=period)))
            assert got == {made[n] for n in names}, period
    assert set(ids(board(api_client, suits=4))) == set(made.values())  # the default is all


# -- who enters -----------------------------------------------------------------------------------
def test_a_ranked_win_enters_with_the_engines_score(api_client, auth_client, user, stock_pool):
    stock_pool(1, 1)
    client = auth_client(user)
    game_id = client.post(GAMES, {"suits": 1}, format="json").json()["id"]

    won = win_api(client, game_id)

    game = Game.objects.select_related("deal").get(pk=game_id)
    log = [Action(a.kind, a.src, a.dst, a.count) for a in game.log.order_by("seq")]
    engine = replay(game.deal.layout(), log)
    assert engine.won
    row = LeaderboardEntry.objects.get()
    assert (row.score, row.actions, row.perfect, row.hints) == (
        engine.score,
        engine.actions,
        engine.perfect,
        engine.hints,
    )
    assert row.score == won["score"] == 500 - len(line_of(game_id)) + 800
    assert (row.suits, row.username, row.player_id) == (1, user.username, user.pk)
    assert (row.elapsed_ms, row.finished_at) == (game.elapsed_ms, game.finished_at)
    assert row.daily_date is None
    rows = board(api_client, suits=1)["results"]
    assert [(r["game"], r["score"], r["finished_at"]) for r in rows] == [
        (game_id, engine.score, iso(game.finished_at))
    ]


def test_a_staff_seed_game_won_does_not_enter(api_client, auth_client, make_user, db):
    staff = make_user(is_staff=True)
    client = auth_client(staff)
    seed = 12  # a quick 1-suit seed that no pool in this test holds
    created = client.post(GAMES, {"suits": 1, "seed": seed}, format="json")
    assert created.status_code == 201, created.json()
    line = [a.to_json() for a in solved(1, seed).line]

    won = play_api(client, created.json()["id"], line)

    assert won["status"] == "won"
    assert won["ranked"] is False
    assert not LeaderboardEntry.objects.exists()
    assert board(api_client, suits=1)["results"] == []


def test_a_replay_won_does_not_enter(api_client, auth_client, make_user, stock_pool):
    stock_pool(1, 1)
    alice, bob = make_user(), make_user()
    first = auth_client(alice).post(GAMES, {"suits": 1}, format="json").json()["id"]
    win_api(auth_client(alice), first)

    for player in (alice, bob):  # the player's own deal again, and someone else's
        client = auth_client(player)
        again = client.post(GAMES, {"replay_of": first}, format="json")
        assert again.status_code == 201, again.json()
        assert again.json()["ranked"] is False
        assert win_api(client, again.json()["id"])["status"] == "won"

    assert LeaderboardEntry.objects.count() == 1
    assert ids(board(api_client, suits=1)) == [first]


def test_lost_games_do_not_enter(api_client, auth_client, user, stock_pool):
    stock_pool(1, 2)
    client = auth_client(user)
    resigned = client.post(GAMES, {"suits": 1}, format="json").json()["id"]
    play_api(client, resigned, line_of(resigned)[:5])
    client.post(f"{GAMES}/{resigned}/resign")
    abandoned = client.post(GAMES, {"suits": 1}, format="json").json()["id"]
    play_api(client, abandoned, line_of(abandoned)[:5])
    client.post(GAMES, {"suits": 2}, format="json")  # no 2-suit deal: 503, nothing changes

    assert Game.objects.get(pk=resigned).status == Game.Status.LOST
    assert not LeaderboardEntry.objects.exists()
    assert board(api_client, suits=1)["results"] == []


# -- bad input: 400 with field errors, never a 500 ----------------------------------------------
@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({}, "suits"),
        ({"suits": ""}, "suits"),
        ({"suits": "3"}, "suits"),
        ({"suits": "4.0"}, "suits"),
        ({"suits": "four"}, "suits"),
        ({"suits": "4", "period": "year"}, "period"),
        ({"suits": "4", "period": ""}, "period"),
        ({"suits": "4", "period": "ALL"}, "period"),
        ({"suits": "4", "page": "0"}, "page"),
        ({"suits": "4", "page": "-1"}, "page"),
        ({"suits": "4", "page": "1.5"}, "page"),
        ({"suits": "4", "page": ""}, "page"),
        ({"suits": "4", "page": "two"}, "page"),
        ({"suits": "4", "page_size": "0"}, "page_size"),
        ({"suits": "4", "page_size": "101"}, "page_size"),
        ({"suits": "4", "page_size": "1e2"}, "page_size"),
        ({"suits": "4", "page_size": " 20"}, "page_size"),
    ],
)
def test_bad_parameters_are_a_400_with_field_errors(api_client, db, params, field):
    response = api_client.get(BOARD, params)

    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid"
    assert list(body["errors"]) == [field]
    assert body["errors"][field] and all(isinstance(m, str) for m in body["errors"][field])


@pytest.mark.parametrize(
    "path", [BOARD + "?suits=4&page=%C2%B2", BOARD + "?suits=4&page_size=%C2%B3"]
)
def test_unicode_digits_in_page_params_are_a_400(db, path):
    from rest_framework.test import APIClient

    client = APIClient(raise_request_exception=False)
    response = client.get(path)

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"


def test_an_absurd_page_number_is_not_a_500(db):
    from rest_framework.test import APIClient

    client = APIClient(raise_request_exception=False)
    response = client.get(BOARD, {"suits": 4, "page": str(10**20)})

    assert response.status_code in (200, 400)
    if response.status_code == 200:
        assert response.json()["results"] == []


# -- caching --------------------------------------------------------------------------------------
def test_etag_gives_304_until_a_new_entry_changes_it(api_client, make_user):
    alice = make_user()
    entry(alice, suits=4, score=1000)

    first = api_client.get(BOARD, {"suits": 4})
    etag = first["ETag"]
    assert etag.startswith('"') and etag.endswith('"') and len(etag) > 10
    assert "max-age=" in first["Cache-Control"] and "public" in first["Cache-Control"]

    cached = api_client.get(BOARD, {"suits": 4}, HTTP_IF_NONE_MATCH=etag)
    assert cached.status_code == 304
    assert cached.content == b""
    assert cached["ETag"] == etag and "max-age=" in cached["Cache-Control"]
    # Another page or period is another document with another tag.
    assert api_client.get(BOARD, {"suits": 4, "period": "day"})["ETag"] != etag
    assert api_client.get(BOARD, {"suits": 4, "page_size": 5})["ETag"] != etag
    # A stale tag gets the full answer.
    assert api_client.get(BOARD, {"suits": 4}, HTTP_IF_NONE_MATCH='"stale"').status_code == 200

    newer = entry(alice, suits=4, score=1200)
    changed = api_client.get(BOARD, {"suits": 4}, HTTP_IF_NONE_MATCH=etag)

    assert changed.status_code == 200
    assert changed["ETag"] != etag
    assert ids(changed.json())[0] == str(newer.game_id)  # not an old cached body
    assert api_client.get(BOARD, {"suits": 4}, HTTP_IF_NONE_MATCH=changed["ETag"]).status_code == (
        304
    )


def test_etag_changes_when_an_entry_goes_because_its_player_was_deleted(api_client, make_user):
    gone, stays = make_user(), make_user()
    entry(gone, suits=4, score=1100)  # not the newest entry: the newest id does not move
    entry(stays, suits=4, score=1000)
    first = api_client.get(BOARD, {"suits": 4})
    assert [r["player"] for r in first.json()["results"]] == [gone.username, stays.username]

    gone.delete()  # its games and entries go with it
    after = api_client.get(BOARD, {"suits": 4}, HTTP_IF_NONE_MATCH=first["ETag"])

    assert after.status_code == 200  # not a stale 304
    assert after["ETag"] != first["ETag"]
    assert [r["player"] for r in after.json()["results"]] == [stays.username]
    assert api_client.get(BOARD, {"suits": 4}, HTTP_IF_NONE_MATCH=after["ETag"]).status_code == (
        304
    )


def test_a_closed_days_board_changes_its_etag_when_an_entry_is_deleted(
    api_client, make_user, stock_pool
):
    from leaderboard.services import daily_ensure

    stock_pool(2, 1)
    day = daily_ensure(day=datetime.now(UTC).date() - timedelta(days=1)).date
    first_entry = entry(make_user(), suits=2, daily_date=day, score=1200)
    entry(make_user(), suits=2, daily_date=day, score=1100)
    first = api_client.get(daily_board(day))
    assert first["Cache-Control"] == "public, max-age=3600"  # cached for an hour

    first_entry.delete()
    after = api_client.get(daily_board(day), HTTP_IF_NONE_MATCH=first["ETag"])

    assert after.status_code == 200
    assert [r["score"] for r in after.json()["results"]] == [1100]


def test_daily_board_etag(api_client, make_user, stock_pool):
    from leaderboard.services import daily_ensure

    stock_pool(2, 2)
    day = daily_ensure(day=datetime.now(UTC).date()).date  # open: its board may still change
    entry(make_user(), suits=2, daily_date=day)

    first = api_client.get(daily_board(day))
    assert first.status_code == 200 and len(first.json()["results"]) == 1
    assert first["Cache-Control"] == "public, max-age=5"
    again = api_client.get(daily_board(day), HTTP_IF_NONE_MATCH=first["ETag"])
    assert again.status_code == 304

    entry(make_user(), suits=2, daily_date=day, score=1250)
    fresh = api_client.get(daily_board(day), HTTP_IF_NONE_MATCH=first["ETag"])
    assert fresh.status_code == 200
    assert [r["score"] for r in fresh.json()["results"]] == [1250, 1000]
    weak_list = f'"other", W/{fresh["ETag"]}'
    assert api_client.get(daily_board(day), HTTP_IF_NONE_MATCH=weak_list).status_code == 304

    closed = daily_ensure(day=day - timedelta(days=1)).date  # a closed day's board is final
    assert api_client.get(daily_board(closed))["Cache-Control"] == "public, max-age=3600"


# -- public games ---------------------------------------------------------------------------------
def test_a_daily_win_on_the_board_is_public_only_once_its_day_closes(api_client, user):
    """A row says whether its game may be replayed and analysed by anyone (the web client
    offers "Analyse" only then): a casual win at once, a daily win once its day closed, as
    GET /games/{id} and its analysis decide (games.visibility.deal_out)."""
    now = datetime(2026, 3, 18, 23, 0, tzinfo=UTC)
    casual = entry(user, score=1200, finished_at=now - timedelta(hours=1))
    daily = entry(user, score=1100, finished_at=now - timedelta(hours=1), daily_date=now.date())

    with mock.patch("django.utils.timezone.now", return_value=now):
        rows = board(api_client, suits=4)["results"]
    assert [(r["game"], r["public"]) for r in rows] == [
        (str(casual.game_id), True),
        (str(daily.game_id), False),
    ]
    assert deal_out(daily.game, now) is False  # the rule the game's reads apply

    later = now + timedelta(hours=2)  # the day closed at midnight
    with mock.patch("django.utils.timezone.now", return_value=later):
        rows = board(api_client, suits=4)["results"]  # not the cached answer of before
    assert [r["public"] for r in rows] == [True, True]
    assert deal_out(daily.game, later) is True
