"""A player's calendar of dailies (``GET /players/{name}/daily``): each day of the month that
had a challenge, won, lost or missed, with the score and place once closed; today's result
to the player alone."""

from __future__ import annotations

import re

import pytest

from leaderboard.serializers import MONTH_PATTERN
from tests.leaderboard.conftest import day
from tests.leaderboard.helpers import DAILY_PLAY, GAMES, line_of, play_service

pytestmark = pytest.mark.django_db


def calendar_url(username: str) -> str:
    return f"/api/v1/players/{username}/daily"


def test_won_lost_missed_and_today_as_the_player_and_others_see_them(
    days, make_user, auth_client, api_client
):
    me, other = make_user(username="calendar_me"), make_user(username="calendar_other")
    mine, theirs = auth_client(me), auth_client(other)
    days(0)
    game_id = mine.post(DAILY_PLAY, {}, format="json").json()["id"]
    play_service(me, game_id, line_of(game_id))
    other_game = theirs.post(DAILY_PLAY, {}, format="json").json()["id"]
    play_service(other, other_game, line_of(other_game))
    days(1)
    lost = mine.post(DAILY_PLAY, {}, format="json").json()["id"]
    mine.post(f"{GAMES}/{lost}/resign")
    days(2)  # its challenge made, never played: missed
    days(3)
    today = mine.post(DAILY_PLAY, {}, format="json").json()["id"]
    mine.post(f"{GAMES}/{today}/resign")
    days(4)  # open, not played

    body = mine.get(calendar_url(me.username), {"month": "2026-03"}).json()
    assert body["month"] == "2026-03"
    rows = {r["date"]: r for r in body["days"]}
    assert [r["status"] for r in body["days"]] == ["won", "lost", "missed", "lost", "open"]
    assert (rows[day(0).isoformat()]["place"], rows[day(0).isoformat()]["players"]) == (1, 2)
    assert rows[day(1).isoformat()]["score"] == 500
    assert body["streaks"]["played"] == {"current": 1, "best": 2, "last": day(3).isoformat()}

    # Anyone: the closed days the same; today's own attempt would show as played only.
    public = api_client.get(calendar_url(me.username), {"month": "2026-03"}).json()
    assert public["days"][:4] == body["days"][:4]
    days(3)
    seen = api_client.get(calendar_url(me.username), {"month": "2026-03"}).json()["days"][-1]
    assert seen == {
        "date": day(3).isoformat(),
        "closed": False,
        "status": "played",
        "score": None,
        "place": None,
        "players": None,
    }
    assert (
        mine.get(calendar_url(me.username), {"month": "2026-03"}).json()["days"][-1]["status"]
        == "lost"
    )


def test_a_bad_month_is_a_clear_400_and_an_unknown_player_404(api_client, user):
    bad = api_client.get(calendar_url(user.username), {"month": "2026-13"})
    assert bad.status_code == 400 and bad.json()["code"] == "invalid"
    assert api_client.get(calendar_url("nobody_here")).status_code == 404
    empty = api_client.get(calendar_url(user.username), {"month": "2020-01"}).json()
    assert empty["days"] == [] and empty["streaks"]["kept"] is True


@pytest.mark.parametrize(
    ("month", "accepted"),
    [
        ("0001-01", True),
        ("9999-12", True),  # no month after it: the calendar must not reach for one
        ("2999-07", True),  # a month to come: no days yet
        ("0000-05", False),
        ("2026-00", False),
        ("2026-13", False),
        ("2026-1", False),
    ],
)
def test_the_schema_says_exactly_which_months_are_taken(api_client, user, month, accepted):
    """The documented pattern and the field agree, so a client's schema-valid month is never
    refused, and every month it allows is answered (never a 500)."""
    assert bool(re.fullmatch(MONTH_PATTERN, month)) is accepted
    answer = api_client.get(calendar_url(user.username), {"month": month})
    assert answer.status_code == (200 if accepted else 400), answer.content
    if accepted:
        assert answer.json()["days"] == [] and answer.json()["month"] == month
