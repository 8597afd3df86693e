"""manage.py verify_leaderboard: replays every ranked game and reports entries that differ."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.models import Action, Game
from leaderboard.models import LeaderboardEntry
from tests.leaderboard.helpers import GAMES, entry, win_api


def verify() -> str:
    out = StringIO()
    call_command("verify_leaderboard", stdout=out)
    return out.getvalue()


def verify_fails() -> str:
    out = StringIO()
    with pytest.raises(CommandError, match="1 leaderboard entries do not match"):
        call_command("verify_leaderboard", stdout=out)
    return out.getvalue()


@pytest.fixture
def two_wins(auth_client, make_user, stock_pool) -> list[LeaderboardEntry]:
    stock_pool(1, 2)
    for player in (make_user(), make_user()):
        client = auth_client(player)
        win_api(client, client.post(GAMES, {"suits": 1}, format="json").json()["id"])
    return list(LeaderboardEntry.objects.order_by("id"))


def test_honest_entries_pass(two_wins):
    assert len(two_wins) == 2
    assert verify().splitlines()[-1] == "checked 2 entries: 0 mismatched"


def test_an_empty_board_passes(db):
    assert verify().splitlines() == ["checked 0 entries: 0 mismatched"]


def test_an_edited_score_is_reported(two_wins):
    bad = two_wins[1]
    LeaderboardEntry.objects.filter(pk=bad.pk).update(score=bad.score + 100)

    out = verify_fails()

    assert f"entry {bad.pk} game {bad.game_id}: entry says" in out
    assert f"replay gives ({bad.score}, " in out
    assert [line for line in out.splitlines() if line.startswith("entry ")] == [
        line for line in out.splitlines() if line.startswith(f"entry {bad.pk} ")
    ]  # the honest entry is not reported
    assert out.splitlines()[-1] == "checked 2 entries: 1 mismatched"


def test_a_truncated_log_is_reported(two_wins):
    bad = two_wins[0]
    Action.objects.filter(game_id=bad.game_id).order_by("-seq").first().delete()

    assert f"entry {bad.pk} game {bad.game_id}: log does not end in a win" in verify_fails()


def test_an_entry_without_a_winning_log_is_reported(two_wins, make_user):
    planted = entry(make_user(), suits=1, score=1254)  # no log at all

    out = verify_fails()

    assert f"entry {planted.pk} game {planted.game_id}: log does not end in a win" in out
    assert out.splitlines()[-1] == "checked 3 entries: 1 mismatched"


def test_a_forged_log_action_is_reported(two_wins):
    bad = two_wins[0]
    first = Action.objects.filter(game_id=bad.game_id, kind="move").order_by("seq").first()
    Action.objects.filter(pk=first.pk).update(src=(first.src + 1) % 10, dst=first.src)

    assert f"entry {bad.pk} game {bad.game_id}: log does not" in verify_fails()


def test_an_entry_on_the_wrong_suit_board_is_reported(two_wins):
    LeaderboardEntry.objects.filter(pk=two_wins[0].pk).update(suits=4)

    verify_fails()


def test_an_entry_for_an_unranked_game_is_reported(two_wins):
    Game.objects.filter(pk=two_wins[0].game_id).update(ranked=False)

    verify_fails()
