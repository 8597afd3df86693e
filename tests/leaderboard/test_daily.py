"""The daily challenge: one vetted 2-suit deal per UTC day, its seed committed to in advance
and revealed when the day closes; one ranked attempt per player and day."""

from __future__ import annotations

import hashlib
from datetime import date, timedelta
from unittest import mock

import pytest
from django.db import transaction
from django.utils import timezone

from base.errors import DomainError
from games.daily import day_closes_at
from games.engine import DEAL_VERSION, deal_layout
from games.models import Deal, Game
from games.presenters import iso
from games.services import game_start
from leaderboard.models import DailyChallenge, LeaderboardEntry
from leaderboard.services import daily_ensure
from leaderboard.tasks import create_daily_challenges
from tests.leaderboard.helpers import (
    BOARD,
    DAILY,
    DAILY_PLAY,
    GAMES,
    daily_board,
    line_of,
    play_api,
    play_service,
    win_api,
)


def today() -> date:
    return timezone.now().date()


def pooled(suits: int) -> int:
    return Deal.objects.filter(suits=suits, state=Deal.State.POOLED).count()


# -- creating the challenge ---------------------------------------------------------------------
def test_todays_challenge_is_made_from_a_vetted_2_suit_deal(api_client, stock_pool):
    stock_pool(1, 1)  # a 1-suit deal in the pool must not be picked
    stocked = {d.pk for d in stock_pool(2, 2)}
    assert not DailyChallenge.objects.exists()

    daily_ensure(day=today())
    response = api_client.get(DAILY)

    assert response.status_code == 200, response.json()
    body = response.json()
    challenge = DailyChallenge.objects.select_related("deal").get()
    assert challenge.date == today()
    assert challenge.deal.pk in stocked
    assert (challenge.deal.suits, challenge.deal.vetted) == (2, True)
    assert challenge.deal.state == Deal.State.DEALT  # out of the pool: no casual game gets it
    assert challenge.deal.solver_line  # a verified winning line exists
    assert body["date"] == today().isoformat()
    assert body["suits"] == 2
    assert body["deal_version"] == DEAL_VERSION
    assert body["commitment"] == challenge.commitment
    assert len(body["commitment"]) == 64 and int(body["commitment"], 16) >= 0
    assert body["closes_at"] == iso(day_closes_at(today()))
    assert body["closed"] is False
    assert body["winners"] == 0
    assert body["attempt"] is None  # no token
    assert (pooled(2), pooled(1)) == (1, 1)

    again = api_client.get(DAILY).json()
    assert again == body
    assert DailyChallenge.objects.count() == 1
    assert pooled(2) == 1


def test_seed_nonce_and_par_stay_secret_until_the_day_closes(api_client, stock_pool):
    stock_pool(2, 1)
    daily_ensure(day=today())
    body = api_client.get(DAILY).json()
    challenge = DailyChallenge.objects.select_related("deal").get()

    assert (body["seed"], body["nonce"], body["par"]) == (None, None, None)
    assert challenge.deal.par is not None  # there is a par; it is just not shown yet
    assert challenge.nonce not in str(body)
    assert set(body) == {
        "date",
        "suits",
        "deal_version",
        "commitment",
        "closes_at",
        "closed",
        "seed",
        "nonce",
        "par",
        "winners",
        "attempt",
        "streaks",  # the viewer's (null for a visitor): days, never the deal
    }  # nothing else that could carry the deal


def test_daily_ensure_twice_makes_one_challenge_and_takes_one_deal(stock_pool):
    stock_pool(2, 3)
    first = daily_ensure(day=today())
    second = daily_ensure(day=today())

    assert first.pk == second.pk
    assert DailyChallenge.objects.count() == 1
    assert pooled(2) == 2


def test_the_task_makes_todays_and_tomorrows_challenges_once(api_client, stock_pool):
    stock_pool(2, 3)
    tomorrow = today() + timedelta(days=1)

    assert create_daily_challenges() == [today().isoformat(), tomorrow.isoformat()]
    assert create_daily_challenges.apply().get() == [today().isoformat(), tomorrow.isoformat()]

    assert sorted(DailyChallenge.objects.values_list("date", flat=True)) == [today(), tomorrow]
    assert pooled(2) == 1  # the second run took nothing
    days = DailyChallenge.objects.select_related("deal")
    assert len({c.deal_id for c in days}) == 2  # a different deal each day
    # Tomorrow's commitment is public ahead of time; its seed is not.
    ahead = api_client.get(DAILY, {"date": tomorrow.isoformat()})
    assert ahead.status_code == 200
    assert ahead.json()["commitment"] == days.get(date=tomorrow).commitment
    assert (ahead.json()["closed"], ahead.json()["seed"], ahead.json()["nonce"]) == (
        False,
        None,
        None,
    )


def test_an_empty_pool_is_a_503_not_a_challenge_on_an_unvetted_deal(auth_client, user, stock_pool):
    stock_pool(1, 1)  # deals of another suit mode do not help
    response = auth_client(user).post(DAILY_PLAY, {}, format="json")

    assert response.status_code == 503
    assert response.json()["code"] == "pool_empty"
    assert int(response["Retry-After"]) > 0
    assert not DailyChallenge.objects.exists()


def test_the_commitment_verifies_once_the_day_has_closed(api_client, stock_pool):
    stock_pool(2, 1)
    yesterday = today() - timedelta(days=1)
    challenge = daily_ensure(day=yesterday)

    response = api_client.get(DAILY, {"date": yesterday.isoformat()})

    assert response.status_code == 200
    body = response.json()
    assert body["closed"] is True
    assert body["seed"] is not None and body["nonce"] is not None
    assert body["par"] == challenge.deal.par == len(challenge.deal.solver_line)
    text = (
        f"spider-daily:v1:{yesterday.isoformat()}:{body['suits']}:{body['deal_version']}:"
        f"{body['seed']}:{body['nonce']}"
    )
    assert hashlib.sha256(text.encode()).hexdigest() == body["commitment"]
    # The revealed seed re-derives exactly the deal that was played that day.
    assert deal_layout(2, int(body["seed"])) == challenge.deal.layout()
    # And the commitment binds: another seed or nonce does not match it.
    forged = text.replace(f":{body['seed']}:", f":{int(body['seed']) + 1}:")
    assert hashlib.sha256(forged.encode()).hexdigest() != body["commitment"]


# -- playing it -----------------------------------------------------------------------------------
def test_play_resume_refuse_a_second_ranked_attempt_then_practice(auth_client, user, stock_pool):
    stock_pool(2, 1)
    client = auth_client(user)

    created = client.post(DAILY_PLAY, {}, format="json")
    assert created.status_code == 201, created.json()
    game = created.json()
    assert (game["kind"], game["daily"], game["ranked"], game["status"]) == (
        "daily",
        today().isoformat(),
        True,
        "in_progress",
    )
    assert game["deal"] is None
    challenge = DailyChallenge.objects.get(date=today())
    assert Game.objects.get(pk=game["id"]).deal_id == challenge.deal_id

    resumed = client.post(DAILY_PLAY, {}, format="json")
    assert resumed.status_code == 200
    assert resumed.json()["id"] == game["id"]

    attempt = client.get(DAILY).json()["attempt"]
    assert attempt == {
        "game": game["id"],
        "status": "in_progress",
        "score": 500,
        "ranked": True,
        "standing": None,  # not before it has ended
        "share": None,
    }

    play_api(client, game["id"], line_of(game["id"])[:1])
    assert client.post(f"{GAMES}/{game['id']}/resign").json()["status"] == "lost"

    refused = client.post(DAILY_PLAY, {}, format="json")
    assert refused.status_code == 409
    assert refused.json()["code"] == "daily_already_played"

    practice = client.post(DAILY_PLAY, {"unranked": True}, format="json")
    assert practice.status_code == 201
    assert practice.json()["id"] != game["id"]
    assert (practice.json()["kind"], practice.json()["daily"], practice.json()["ranked"]) == (
        "daily",
        today().isoformat(),
        False,
    )
    assert (
        client.post(DAILY_PLAY, {"unranked": True}, format="json").json()["id"]
        == (practice.json()["id"])
    )  # the practice game in progress is resumed, not doubled
    # The ranked attempt is still the one shown as the player's attempt.
    assert client.get(DAILY).json()["attempt"]["game"] == game["id"]


def test_play_needs_a_token_and_valid_input(api_client, auth_client, user, stock_pool):
    stock_pool(2, 1)
    assert api_client.post(DAILY_PLAY, {}, format="json").status_code == 401
    bad = auth_client(user).post(DAILY_PLAY, {"unranked": "perhaps"}, format="json")
    assert bad.status_code == 400
    assert bad.json()["code"] == "invalid" and "unranked" in bad.json()["errors"]
    assert not Game.objects.exists()


def test_daily_and_casual_games_never_end_each_other(auth_client, user, stock_pool):
    stock_pool(1, 2)
    stock_pool(2, 1)
    client = auth_client(user)

    casual = client.post(GAMES, {"suits": 1}, format="json").json()
    play_api(client, casual["id"], line_of(casual["id"])[:1])

    daily = client.post(DAILY_PLAY, {}, format="json")
    assert daily.status_code == 201
    daily_id = daily.json()["id"]
    assert client.get(f"{GAMES}/{casual['id']}").json()["status"] == "in_progress"

    play_api(client, daily_id, line_of(daily_id)[:1])
    second = client.post(GAMES, {"suits": 1}, format="json")
    assert second.status_code == 201

    first = client.get(f"{GAMES}/{casual['id']}").json()
    assert (first["status"], first["end_reason"]) == ("lost", "abandoned")
    still = client.get(f"{GAMES}/{daily_id}").json()
    assert (still["status"], still["version"]) == ("in_progress", 1)


def test_a_finished_daily_game_stays_secret_until_the_day_closes(
    api_client, auth_client, make_user, stock_pool
):
    stock_pool(2, 1)
    alice, bob = make_user(), make_user()
    as_alice, as_bob = auth_client(alice), auth_client(bob)
    game_id = as_alice.post(DAILY_PLAY, {}, format="json").json()["id"]
    play_api(as_alice, game_id, line_of(game_id)[:3])
    as_alice.post(f"{GAMES}/{game_id}/resign")

    for client in (as_bob, api_client):
        for path in (f"{GAMES}/{game_id}", f"{GAMES}/{game_id}/actions"):
            response = client.get(path)
            assert response.status_code == 404, path
            assert response.json()["code"] == "not_found"
    # Its player sees the game, but not the deal's identity.
    own = as_alice.get(f"{GAMES}/{game_id}").json()
    assert (own["status"], own["deal"]) == ("lost", None)
    assert as_alice.get(f"{GAMES}/{game_id}/actions").json()["deal"] is None
    # Nobody can re-deal it before the day closes, not even its player.
    for client in (as_bob, as_alice):
        replay = client.post(GAMES, {"replay_of": game_id}, format="json")
        assert replay.status_code == 404
    assert Game.objects.count() == 1


def test_winning_the_daily_before_it_closes_enters_both_boards(
    api_client, auth_client, user, stock_pool
):
    stock_pool(2, 1)
    client = auth_client(user)
    game_id = client.post(DAILY_PLAY, {}, format="json").json()["id"]

    won = win_api(client, game_id)

    entry = LeaderboardEntry.objects.get()
    assert str(entry.game_id) == game_id
    assert (entry.daily_date, entry.suits, entry.score) == (today(), 2, won["score"])
    assert won["score"] == 500 - won["actions"] + 100 * 8
    day_rows = api_client.get(daily_board(today())).json()["results"]
    assert [(r["rank"], r["game"], r["player"], r["score"]) for r in day_rows] == [
        (1, game_id, user.username, won["score"])
    ]
    all_rows = api_client.get(BOARD, {"suits": 2}).json()["results"]
    assert [r["game"] for r in all_rows] == [game_id]
    info = client.get(DAILY).json()
    assert info["winners"] == 1
    attempt = info["attempt"]
    assert {k: attempt[k] for k in ("game", "status", "score", "ranked")} == {
        "game": game_id,
        "status": "won",
        "score": won["score"],
        "ranked": True,
    }
    assert (attempt["standing"]["place"], attempt["standing"]["players"]) == (1, 1)
    assert client.post(DAILY_PLAY, {}, format="json").status_code == 409


def test_an_unranked_practice_win_enters_no_board(api_client, auth_client, user, stock_pool):
    stock_pool(2, 1)
    client = auth_client(user)
    ranked = client.post(DAILY_PLAY, {}, format="json").json()["id"]
    client.post(f"{GAMES}/{ranked}/resign")  # the ranked attempt is lost
    practice = client.post(DAILY_PLAY, {"unranked": True}, format="json").json()["id"]

    assert win_api(client, practice)["ranked"] is False

    assert not LeaderboardEntry.objects.exists()
    assert api_client.get(daily_board(today())).json()["results"] == []
    assert api_client.get(BOARD, {"suits": 2}).json()["results"] == []
    assert client.get(DAILY).json()["winners"] == 0


def test_a_daily_win_finished_after_the_day_closed_is_refused_and_ranks_nowhere(
    api_client, auth_client, user, stock_pool
):
    """docs/rules.md#daily-challenge: the attempt had to be finished within its day. (This
    test used to expect the late win on the 2-suit board: a hole a hostile player found.)"""
    stock_pool(2, 1)
    client = auth_client(user)
    game_id = client.post(DAILY_PLAY, {}, format="json").json()["id"]
    line = line_of(game_id)
    play_api(client, game_id, line[:-1])

    late = day_closes_at(today()) + timedelta(seconds=1)
    with mock.patch("django.utils.timezone.now", return_value=late):
        last = client.post(f"{GAMES}/{game_id}/actions", line[-1], format="json")

    assert last.status_code == 422 and last.json()["code"] == "game_over"
    game = Game.objects.get(pk=game_id)
    assert (game.status, game.end_reason, game.finished_at) == ("lost", "day_closed", late)
    assert not LeaderboardEntry.objects.exists()
    assert api_client.get(daily_board(today())).json()["results"] == []
    assert api_client.get(BOARD, {"suits": 2}).json()["results"] == []


def test_a_game_on_a_closed_days_deal_ends_at_its_first_action_and_is_public(
    api_client, user, stock_pool
):
    stock_pool(2, 1)
    yesterday = today() - timedelta(days=1)
    challenge = daily_ensure(day=yesterday)
    with transaction.atomic():
        game = game_start(
            player=user, deal=challenge.deal, kind=Game.Kind.DAILY, daily_date=yesterday
        )

    with pytest.raises(DomainError) as refused:
        play_service(user, game.pk, challenge.deal.solver_line)

    assert refused.value.code == "game_over"
    game.refresh_from_db()
    assert (game.status, game.end_reason, game.actions) == ("lost", "day_closed", 0)
    assert not LeaderboardEntry.objects.exists()
    board = api_client.get(daily_board(yesterday))
    assert board.status_code == 200
    assert board.json()["results"] == []
    # The day has closed: the game is public, with its seed.
    public = api_client.get(f"{GAMES}/{game.pk}")
    assert public.status_code == 200
    assert public.json()["deal"]["seed"] == str(challenge.deal.seed)


# -- bad input: a clear 4xx, never a 500 ---------------------------------------------------------
def _days_from_today(n: int) -> str:
    return (today() + timedelta(days=n)).isoformat()


@pytest.mark.parametrize(
    ("path", "params", "status", "code"),
    [
        (DAILY, {"date": "2026-13-01"}, 400, "bad_date"),
        (DAILY, {"date": "yesterday"}, 400, "bad_date"),
        (DAILY, {"date": "2026-02-30"}, 400, "bad_date"),
        (DAILY, {"date": "+1"}, 404, "future_date"),
        (DAILY, {"date": "9999-12-31"}, 404, "future_date"),
        (DAILY, {"date": "-3"}, 404, "no_challenge"),
        (DAILY, {"date": "0001-01-01"}, 404, "no_challenge"),
        ("/api/v1/daily/2026-13-01/leaderboard", {}, 400, "bad_date"),
        ("/api/v1/daily/not-a-date/leaderboard", {}, 400, "bad_date"),
        ("/api/v1/daily/%20/leaderboard", {}, 400, "bad_date"),
        ("/api/v1/daily/+1/leaderboard", {}, 404, "future_date"),
        ("/api/v1/daily/-3/leaderboard", {}, 404, "no_challenge"),
        ("/api/v1/daily/9999-12-31/leaderboard", {}, 404, "future_date"),
        ("/api/v1/daily/0001-01-01/leaderboard", {}, 404, "no_challenge"),
    ],
)
def test_bad_dates_are_refused_clearly(api_client, db, path, params, status, code):
    def resolve(value: str) -> str:
        return _days_from_today(int(value)) if value[:1] in "+-" else value

    path = path.replace("/+1/", f"/{resolve('+1')}/").replace("/-3/", f"/{resolve('-3')}/")
    params = {k: resolve(v) for k, v in params.items()}

    response = api_client.get(path, params)

    assert response.status_code == status, response.json()
    assert response.json()["code"] == code
    assert not DailyChallenge.objects.exists()


@pytest.mark.parametrize(
    ("params", "field"),
    [
        ({"page": "0"}, "page"),
        ({"page": "-1"}, "page"),
        ({"page": "x"}, "page"),
        ({"page_size": "0"}, "page_size"),
        ({"page_size": "101"}, "page_size"),
    ],
)
def test_bad_daily_board_paging_is_a_400(api_client, stock_pool, params, field):
    stock_pool(2, 1)
    yesterday = today() - timedelta(days=1)
    daily_ensure(day=yesterday)

    response = api_client.get(daily_board(yesterday), params)

    assert response.status_code == 400
    assert response.json()["code"] == "invalid"
    assert field in response.json()["errors"]
