"""One policy for what a viewer may see of a game now (games/visibility.py), checked by
scanning the WHOLE body of every endpoint that shows a game, its log, its positions, its
deal for a replay, or a race's table and events, as every kind of viewer, in every state.

The hole it closes: a racer whose game was over in the countdown read
`GET /games/{id}/positions/0` and saw the opening cards before the others, while
`GET /games/{id}` masked them.
"""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from games.models import Game
from games.services import game_conclude
from races.models import TableEvent
from races.services import races_tick
from tests.games.api.helpers import (
    API,
    act,
    board_of,
    cards_named,
    game_url,
    ok,
    player_url,
    pooled_seed_deal,
    public_columns,
    refused,
)
from tests.leaderboard.helpers import DAILY_PLAY
from tests.races.conftest import post, race_url, start_race

pytestmark = pytest.mark.django_db(transaction=True)

# Twenty digits (above 2**63): no id, time or count contains them.
RACE_SEED = 0xF3A5_C0FF_EE12_3456
DAILY_SEED = 0xE1D2_C3B4_A596_8778


def _bodies(viewer, game_ids: list[str], code: str | None = None) -> dict[str, tuple[int, str]]:
    """Every endpoint that shows these games (and their table), as ``viewer`` sees it."""
    urls = [f"{API}/games", player_url("nobody-in-particular")]
    for gid in game_ids:
        urls += [
            game_url(gid),
            f"{game_url(gid)}/actions",
            f"{game_url(gid)}/analysis",
            f"{API}/leaderboard/games/{gid}",
        ]
        steps = Game.objects.get(pk=gid).version
        urls += [f"{game_url(gid)}/positions/{n}" for n in range(steps + 1)]
    if code is not None:
        urls.append(race_url(code))
    seen = {}
    for url in urls:
        response = viewer.get(url)
        assert response.status_code < 500, (url, response.content)
        seen[url] = (response.status_code, response.content.decode())
    if code is not None:  # what every stream sends: the table's event rows, as encoded
        rows = TableEvent.objects.filter(table__code=code).order_by("seq")
        seen["events"] = (200, json.dumps([r.data for r in rows]))
    # A replay of the deal: refused unless the deal is out.
    response = viewer.post(f"{API}/games", {"replay_of": game_ids[0]}, format="json")
    seen["replay"] = (response.status_code, response.content.decode())
    return seen


def _no_card_no_seed(seen: dict[str, tuple[int, str]], seed: int, except_own: str | None = None):
    """No card token and no seed anywhere, except the face-up cards of the viewer's own
    running game's state, which must be exactly its public view."""
    for url, (status, text) in seen.items():
        assert str(seed) not in text, f"the seed leaked from {url}"
        if except_own is not None and url == game_url(except_own) and status == 200:
            body = json.loads(text)
            assert body["columns"] == public_columns(board_of(except_own))
            text = json.dumps({k: v for k, v in body.items() if k != "columns"})
        leaked = cards_named(text)
        assert not leaked, f"cards {leaked} from {url} ({status})"


def _replay_refused(seen):
    status, text = seen["replay"]
    assert status in (401, 403, 404), text


def test_nobody_sees_a_card_in_the_countdown_even_of_a_game_over(racers, settings, clock):
    settings.RACE_COUNTDOWN_SECONDS = 30
    pooled_seed_deal(1, RACE_SEED)
    (alice, a), (bob, b), (carol, c) = racers(3)
    table = start_race([a, b, c], suits=1)
    code = table["code"]
    games = {r["player"]: r["game"] for r in table["race"]["racers"]}
    # Resigning in the countdown is refused (docs/rules.md#countdown) ...
    refused(a.post(f"{game_url(games[alice.username])}/resign"), 409, "race_not_started")
    # ... but a game over before the cards turn (however it came) still shows none of them.
    game_conclude(game_id=games[alice.username], won=False, reason="resigned", now=clock.now)
    assert Game.objects.get(pk=games[alice.username]).over

    for viewer in (a, b, c, b.__class__()):  # each racer, and someone anonymous
        _no_card_no_seed(_bodies(viewer, list(games.values()), code), RACE_SEED)
    status, text = _bodies(a, [games[alice.username]])[
        f"{game_url(games[alice.username])}/positions/0"
    ]
    assert (status, json.loads(text)["code"]) == (409, "race_not_started"), text

    # The cards turn over: each racer sees their own face-up cards, and nothing else.
    clock.advance(seconds=31)
    races_tick()
    ok(act(b, games[bob.username], "deal"))
    for viewer, own in ((b, games[bob.username]), (c, games[carol.username])):
        seen = _bodies(viewer, list(games.values()), code)
        _no_card_no_seed(seen, RACE_SEED, except_own=own)
        _replay_refused(seen)
        for other in games.values():
            if other != own:  # another racer's game: as if it did not exist
                assert seen[game_url(other)][0] == 404
                assert seen[f"{game_url(other)}/positions/0"][0] == 404
    # Alice, out: her own finished game shows its opening now that everyone's cards show,
    # but never the deal, nor anyone else's table, while the race runs.
    seen = _bodies(a, list(games.values()), code)
    assert seen[f"{game_url(games[alice.username])}/positions/0"][0] == 200
    assert json.loads(seen[game_url(games[alice.username])][1])["deal"] is None
    assert all(str(RACE_SEED) not in text for _, text in seen.values())
    _replay_refused(seen)

    # The race ends: every table, every log and the deal are laid open to all.
    ok(post(c, code, "resign"))
    ok(post(a, code, "resign"))  # her racer still raced: the game was ended past the race
    seen = _bodies(c, list(games.values()), code)
    assert str(RACE_SEED) in seen[race_url(code)][1]
    assert all(seen[game_url(g)][0] == 200 for g in games.values())


def test_a_daily_game_keeps_its_deal_until_the_day_closes(auth_client, make_user, clock):
    pooled_seed_deal(2, DAILY_SEED)
    owner, other = auth_client(make_user()), auth_client(make_user())
    game_id = ok(owner.post(DAILY_PLAY, {}, format="json"), 201)["id"]

    _no_card_no_seed(_bodies(other, [game_id]), DAILY_SEED)
    seen = _bodies(owner, [game_id])
    _no_card_no_seed(
        {k: v for k, v in seen.items() if k != "replay"}, DAILY_SEED, except_own=game_id
    )

    ok(owner.post(f"{game_url(game_id)}/resign"))  # over, but the day is still open
    for viewer in (owner, other):
        seen = _bodies(viewer, [game_id])
        assert all(str(DAILY_SEED) not in text for _, text in seen.values()), viewer
        _replay_refused(seen)
    assert _bodies(other, [game_id])[game_url(game_id)][0] == 404

    clock.now = clock.now.replace(hour=0, minute=0, second=0) + timedelta(days=1)
    seen = _bodies(other, [game_id])
    assert seen[game_url(game_id)][0] == 200
    assert str(DAILY_SEED) in seen[game_url(game_id)][1]  # public now, with its seed
    assert seen["replay"][0] == 201
