"""The days that had a challenge (GET /daily/days: only days that exist, both ways from a day)
and practising a closed day's deal (POST /daily/play with its date: a casual game that never
ranks nor earns coins)."""

from __future__ import annotations

import itertools
from datetime import date, timedelta

import pytest
from django.utils import timezone

from coins.models import CoinEntry
from games.engine import DEAL_VERSION
from games.models import Deal, Game, seed_to_db
from leaderboard.models import DailyChallenge, LeaderboardEntry
from leaderboard.services import daily_ensure
from tests.leaderboard.helpers import DAILY_PLAY, bare_game, entry, win_api

DAYS = "/api/v1/daily/days"
_seeds = itertools.count(20_000_000)

pytestmark = pytest.mark.django_db


def today() -> date:
    return timezone.now().date()


def challenge(day: date) -> DailyChallenge:
    """A challenge row for ``day`` (its deal is not played here: listing needs only the row)."""
    deal = Deal.objects.create(
        suits=2,
        seed_db=seed_to_db(next(_seeds)),
        deal_version=DEAL_VERSION,
        source=Deal.Source.POOL,
        state=Deal.State.DEALT,
        vetted=True,
    )
    return DailyChallenge.objects.create(date=day, deal=deal, nonce="00", commitment="0" * 64)


def dates(body: dict) -> list[int]:
    """The days listed, as offsets from today."""
    return [(date.fromisoformat(r["date"]) - today()).days for r in body["results"]]


def test_only_days_that_had_a_challenge_are_listed_newest_first(api_client, make_user) -> None:
    for offset in (-9, -5, -3, -1, 0, 1):  # gaps: -8..-6, -4, -2 had none; +1 is tomorrow's
        challenge(today() + timedelta(days=offset))
    entry(make_user("winner"), suits=2, daily_date=today() - timedelta(days=3))

    body = api_client.get(DAYS).json()

    assert dates(body) == [0, -1, -3, -5, -9]  # no gap listed, tomorrow's not yet
    assert body["has_next"] is False
    first = body["results"][0]
    assert (first["closed"], first["suits"]) == (False, 2)  # today's is open
    assert all(r["closed"] for r in body["results"][1:])
    assert [r["winners"] for r in body["results"]] == [0, 0, 1, 0, 0]


def test_before_and_after_a_day_nearest_first_and_paged(api_client) -> None:
    for offset in (-9, -5, -3, -1, 0):
        challenge(today() + timedelta(days=offset))
    day = (today() - timedelta(days=3)).isoformat()

    older = api_client.get(DAYS, {"before": day}).json()
    newer = api_client.get(DAYS, {"after": day}).json()
    between = api_client.get(DAYS, {"after": day, "before": today().isoformat()}).json()
    page1 = api_client.get(DAYS, {"page_size": 2}).json()
    page3 = api_client.get(DAYS, {"page_size": 2, "page": 3}).json()

    assert dates(older) == [-5, -9]
    assert dates(newer) == [-1, 0]  # the day just after first: the way forward
    assert dates(between) == [-1]
    assert (dates(page1), page1["has_next"]) == ([0, -1], True)
    assert (dates(page3), page3["has_next"]) == ([-9], False)


@pytest.mark.parametrize(
    ("query", "code"),
    [
        ({"before": "2026-13-01"}, "bad_date"),
        ({"after": ""}, "bad_date"),
        ({"page_size": "0"}, "invalid"),
        ({"page": "x"}, "invalid"),
    ],
)
def test_a_bad_query_is_a_clear_400(api_client, query, code) -> None:
    response = api_client.get(DAYS, query)

    assert response.status_code == 400
    assert response.json()["code"] == code


def test_the_list_is_public_a_bad_token_is_not_read(api_client) -> None:
    challenge(today() - timedelta(days=1))
    api_client.credentials(HTTP_AUTHORIZATION="Bearer not-a-token")

    response = api_client.get(DAYS)

    assert response.status_code == 200
    assert dates(response.json()) == [-1]


# -- practising a past day -----------------------------------------------------------------
def test_a_closed_days_deal_is_practised_unranked_for_no_coins(
    make_user, auth_client, stock_pool
) -> None:
    stock_pool(2, 1)
    yesterday = today() - timedelta(days=1)
    past = daily_ensure(day=yesterday)
    player = make_user()
    client = auth_client(player)

    response = client.post(DAILY_PLAY, {"date": yesterday.isoformat()}, format="json")

    assert response.status_code == 201, response.json()
    body = response.json()
    game = Game.objects.get(pk=body["id"])
    assert (game.kind, game.ranked, game.deal_id) == ("casual", False, past.deal_id)
    assert game.daily_date is None  # a practice: no day's close ends it
    won = win_api(client, game.pk)
    assert won["ranked"] is False
    assert not LeaderboardEntry.objects.filter(game=game).exists()
    assert not CoinEntry.objects.filter(player=player).exists()


def test_practice_ends_the_casual_game_in_progress_as_a_new_game_does(
    make_user, auth_client
) -> None:
    player = make_user()
    yesterday = today() - timedelta(days=1)
    challenge(yesterday)
    current = bare_game(player, 1, status=Game.Status.IN_PROGRESS, ranked=False, actions=3)

    response = auth_client(player).post(DAILY_PLAY, {"date": yesterday.isoformat()}, format="json")

    assert response.status_code == 201, response.json()
    current.refresh_from_db()
    assert (current.status, current.end_reason) == ("lost", "abandoned")


@pytest.mark.parametrize(
    ("offset", "status", "code"),
    [(1, 409, "daily_open"), (-2, 404, "no_challenge"), (30, 404, "future_date")],
)
def test_practice_needs_a_closed_day_that_had_a_challenge(
    make_user, auth_client, offset, status, code
) -> None:
    challenge(today() + timedelta(days=1))  # tomorrow's is made ahead: not closed
    player = make_user()
    day = (today() + timedelta(days=offset)).isoformat()

    response = auth_client(player).post(DAILY_PLAY, {"date": day}, format="json")

    assert response.status_code == status, response.json()
    assert response.json()["code"] == code
    assert not Game.objects.filter(player=player).exists()


def test_practice_with_a_bad_date_is_a_clear_400(make_user, auth_client) -> None:
    response = auth_client(make_user()).post(DAILY_PLAY, {"date": "yesterday"}, format="json")

    assert response.status_code == 400
    assert response.json()["code"] == "bad_date"
