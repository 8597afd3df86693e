"""The hint search runs without the game row lock: an action on the game is not held up by it,
and a hint found for a position the game has left is searched again before it is recorded."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from games import services
from games.models import Action
from games.services import ActionRequest, hints
from tests.games.api.helpers import layout_json

pytestmark = [pytest.mark.django_db(transaction=True), pytest.mark.postgres]

# Column 1's 5h goes onto column 0's 6h; column 3's Jc can go onto column 2's Qd.
TEACHING = ["|Kc6h", "9s|5h", "|Qd", "|Jc", "|8d", "|3c", "|Kd", "|Kh", "|Qc", "|Td"]


def test_an_action_goes_through_while_a_hint_is_searched(make_user, monkeypatch):
    staff = make_user(is_staff=True)
    game = services.game_create(player=staff, suits=4, layout=layout_json(TEACHING))
    searching, go = threading.Event(), threading.Event()
    searched = []
    real_hints = hints.board_hints

    def slow_hints(*args, **kwargs):
        searched.append(True)
        if len(searched) == 1:  # hold the first search until the action is in
            searching.set()
            assert go.wait(10)
        return real_hints(*args, **kwargs)

    monkeypatch.setattr(hints, "board_hints", slow_hints)
    answers = []

    def ask() -> None:
        try:
            answers.append(services.game_hint(player=staff, game_id=str(game.id)))
        finally:
            connection.close()

    asker = threading.Thread(target=ask)
    asker.start()
    try:
        assert searching.wait(10)
        with connection.cursor() as cursor:  # a held row lock fails this instead of hanging
            cursor.execute("SET lock_timeout = '2s'")
        acted = services.game_act(
            player=staff, game_id=str(game.id), action=ActionRequest("move", 3, 2)
        )
        assert acted.game.version == 1
    finally:
        go.set()
        asker.join(10)

    [hint] = answers
    assert len(searched) == 2  # the first search was for version 0: searched again
    assert hint.game.version == 2 and hint.game.hints == 1
    assert hint.hint is not None and hint.hint.action != {"type": "move", "from": 3, "to": 2}
    kinds = list(Action.objects.filter(game=game).order_by("seq").values_list("kind", flat=True))
    assert kinds == ["move", "hint"]
