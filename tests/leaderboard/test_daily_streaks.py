"""Streaks of days (docs/rules.md#streaks), with a frozen clock across UTC days: kept as ranked
daily attempts end (by their player, or by the sweep at the close), rebuilt from the games by
``manage.py verify_daily``; never gained by practice, a guest, a second attempt or a retry."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.models import Game
from games.services import games_close_past_days
from leaderboard.daily_verify import rebuild
from leaderboard.models import DailyResult, DailyStreak, DayScoreCount
from leaderboard.streaks import Streaks, current, streaks_after, streaks_of
from tests.leaderboard.conftest import day
from tests.leaderboard.helpers import DAILY, DAILY_PLAY, GAMES, line_of, play_service

# The rules, pure.


def test_consecutive_days_make_a_run_and_a_missed_day_starts_again():
    s = streaks_of([(day(0), True), (day(1), True), (day(2), False), (day(4), True)])
    assert (s.played_run, s.played_last, s.played_best) == (1, day(4), 3)
    assert (s.won_run, s.won_last, s.won_best) == (1, day(4), 2)


def test_a_loss_ends_the_win_run_but_not_the_played_run():
    s = streaks_of([(day(0), True), (day(1), True), (day(2), False)])
    assert (s.played_run, s.played_best) == (3, 3)
    assert (s.won_run, s.won_last, s.won_best) == (0, day(1), 2)
    assert current(s.won_run, s.won_last, day(3)) == 0


def test_today_not_over_breaks_nothing_and_a_closed_day_missed_does():
    s = streaks_of([(day(0), True), (day(1), True)])
    assert current(s.played_run, s.played_last, day(1)) == 2  # played today
    assert current(s.played_run, s.played_last, day(2)) == 2  # today still open
    assert current(s.played_run, s.played_last, day(3)) == 0  # day 2 closed unplayed
    assert current(0, None, day(3)) == 0


def test_an_earlier_day_after_a_later_one_asks_for_a_rebuild():
    s = streaks_after(Streaks(), day=day(1), won=True)
    assert s is not None
    assert streaks_after(s, day=day(0), won=True) is None
    assert streaks_after(s, day=day(1), won=False) is None  # one result a day
    assert streaks_of([(day(1), True), (day(0), True)]).played_run == 2


# Through the API, day after day.

pytestmark = pytest.mark.django_db


def verify() -> str:
    out = StringIO()
    call_command("verify_daily", stdout=out)
    return out.getvalue().splitlines()[-1]


def win(client, player) -> dict:
    game_id = client.post(DAILY_PLAY, {}, format="json").json()["id"]
    play_service(player, game_id, line_of(game_id))
    return client.get(DAILY).json()


def lose(client) -> str:
    game_id = client.post(DAILY_PLAY, {}, format="json").json()["id"]
    assert client.post(f"{GAMES}/{game_id}/resign").status_code == 200
    return game_id


def streaks(client) -> tuple[int, int, int, int]:
    s = client.get(DAILY).json()["streaks"]
    assert s["kept"] is True
    return (s["played"]["current"], s["played"]["best"], s["won"]["current"], s["won"]["best"])


def test_streaks_across_days_and_a_missed_one(days, auth_client, user):
    client = auth_client(user)
    days(0)
    assert streaks(client) == (0, 0, 0, 0)
    win(client, user)
    assert streaks(client) == (1, 1, 1, 1)
    days(1)
    assert streaks(client) == (1, 1, 1, 1)  # today not played yet: not broken
    win(client, user)
    assert streaks(client) == (2, 2, 2, 2)
    days(2)
    lose(client)
    assert streaks(client) == (3, 3, 0, 2)
    days(4)  # day 3 missed: it closed, the runs are over
    assert streaks(client) == (0, 3, 0, 2)
    win(client, user)
    assert streaks(client) == (1, 3, 1, 2)
    assert verify() == "checked 4 daily results: 0 differences"


def test_practice_a_second_attempt_a_retry_and_a_guest_never_count(
    days, auth_client, user, make_user
):
    client = auth_client(user)
    guest_user = make_user(is_guest=True)
    guest = auth_client(guest_user)
    days(0)
    lose(client)
    # A retry after resigning is a second, unranked attempt: played, never counted.
    again = client.post(DAILY_PLAY, {"unranked": True}, format="json").json()["id"]
    play_service(user, again, line_of(again))
    assert streaks(client) == (1, 1, 0, 0)
    days(1)
    # The closed day's deal practised, won: a casual game.
    practice = client.post(DAILY_PLAY, {"date": day(0).isoformat()}, format="json").json()["id"]
    play_service(user, practice, line_of(practice))
    assert streaks(client) == (1, 1, 0, 0)
    assert DailyResult.objects.count() == 1

    game_id = guest.post(DAILY_PLAY, {}, format="json").json()["id"]
    play_service(guest_user, game_id, line_of(game_id))
    body = guest.get(DAILY).json()["streaks"]
    assert body["kept"] is False and "Guests" in body["reason"]
    assert body["played"] is None and body["won"] is None
    assert DailyResult.objects.count() == 1
    assert not DailyStreak.objects.filter(player__is_guest=True).exists()
    assert verify() == "checked 1 daily results: 0 differences"


def test_the_close_counts_an_attempt_left_in_progress(days, auth_client, user, clock):
    client = auth_client(user)
    days(0)
    client.post(DAILY_PLAY, {}, format="json")
    days(1)
    assert games_close_past_days(now=clock.now) == 1
    assert streaks(client) == (1, 1, 0, 0)
    row = DailyResult.objects.get()
    assert (row.date, row.won) == (day(0), False)
    assert DayScoreCount.objects.get().players == 1


def test_an_attempt_closed_after_the_next_days_ended_is_counted_in_order(
    days, auth_client, user, clock
):
    client = auth_client(user)
    days(0)
    win(client, user)
    days(1)
    client.post(DAILY_PLAY, {}, format="json")  # left open past the close
    days(2)
    win(client, user)  # day 2 ends before the sweep ends day 1
    assert streaks(client) == (1, 1, 1, 1)
    games_close_past_days(now=clock.now)
    assert streaks(client) == (3, 3, 1, 1)
    assert verify() == "checked 3 daily results: 0 differences"


def test_verify_reports_streaks_and_counts_that_differ(days, auth_client, user):
    client = auth_client(user)
    days(0)
    win(client, user)
    DailyStreak.objects.update(played_best=5)
    DayScoreCount.objects.update(players=2)
    out = StringIO()
    with pytest.raises(CommandError, match="2 differences"):
        call_command("verify_daily", stdout=out)
    assert "streaks kept" in out.getvalue() and "counted" in out.getvalue()


def test_the_migrations_backfill_rebuilds_what_was_kept(days, auth_client, user, clock):
    client = auth_client(user)
    days(0)
    win(client, user)
    days(1)
    lose(client)
    kept = list(DailyStreak.objects.values())
    for model in (DailyResult, DayScoreCount, DailyStreak):
        model.objects.all().delete()
    assert (
        rebuild(
            game_model=Game,
            result_model=DailyResult,
            count_model=DayScoreCount,
            streak_model=DailyStreak,
        )
        == 2
    )
    assert list(DailyStreak.objects.values()) == kept
    assert verify() == "checked 2 daily results: 0 differences"
