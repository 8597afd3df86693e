"""Helpers shared by the game service's API and service tests.

- URLs: ``GAMES_URL``, ``game_url(id)``, ``actions_url(id)``, ``resign_url(id)``, ...
- ``new_game(client, suits, **body)`` creates a game (asserts 201) and returns its state;
  ``act(client, game_id, type=..., from_=..., ...)`` posts one action, returns the response.
- ``snapshot_of(id)`` / ``board_of(id)``: the stored snapshot and the Board it loads into;
  ``raw_snapshot(id)`` the snapshot column's text exactly as the database holds it.
- ``game_record(id)``: everything a refused request must leave untouched, for ``==``.
- ``layout_json(columns, stock)``: the staff ``layout`` body from compact notation.
- ``check_public(body, game_id)``: the state reveals exactly the face-up cards of the DB
  snapshot, and no card token appears anywhere else.
"""

from __future__ import annotations

import copy
import json
import re
import uuid
from typing import Any

from django.db import connection
from rest_framework.test import APIClient

from games.engine import DEAL_VERSION, Board, format_card, load
from games.models import Action, Deal, Game

API = "/api/v1"
GAMES_URL = f"{API}/games"
ME_URL = f"{API}/me"

# A card named in either notation: the wire's (``Ts``) or the sentences' (``10♠``, also as
# json.dumps escapes it: ``10\\u2660``), so a scan for leaks misses neither.
_SIGNS = {"\u2660": "s", "\u2665": "h", "\u2666": "d", "\u2663": "c"}
_HUMAN_CARD = r"(?<![0-9A-Za-z])(10|[AJQK2-9])([\u2660\u2665\u2666\u2663]|\\u266[0356])"
CARD_TOKEN = re.compile(rf"\b[A2-9TJQK][shdc]\b|{_HUMAN_CARD}")


def cards_named(text: str) -> set[str]:
    """Every card ``text`` names, in either notation, as wire codes (``Ts``)."""
    named = set()
    for match in CARD_TOKEN.finditer(text):
        rank, sign = match.group(1), match.group(2)
        if rank is None:
            named.add(match.group(0))
            continue
        suit = _SIGNS.get(sign) or _SIGNS[chr(int(sign[2:], 16))]
        named.add(("T" if rank == "10" else rank) + suit)
    return named


# Every key of a game state (the documented state, docs/rules.md#what-a-player-sees).
STATE_KEYS = {
    "id",
    "suits",
    "kind",
    "status",
    "end_reason",
    "score",
    "actions",
    "version",
    "undos",
    "hints",
    "runs_removed",
    "removed_suits",
    "deals_left",
    "columns",
    "stuck",
    "perfect",
    "can_undo",
    "ranked",
    "replay_of",
    "created_at",
    "started_at",
    "finished_at",
    "elapsed_ms",
    "daily",
    "deal_over_gap",
    "deal",
}


def game_url(game_id: Any) -> str:
    return f"{GAMES_URL}/{game_id}"


def actions_url(game_id: Any) -> str:
    return f"{GAMES_URL}/{game_id}/actions"


def resign_url(game_id: Any) -> str:
    return f"{GAMES_URL}/{game_id}/resign"


def player_url(username: str) -> str:
    return f"{API}/players/{username}"


# -- requests ---------------------------------------------------------------------------------
def action_body(type: str = "move", **fields: Any) -> dict[str, Any]:
    """``action_body("move", from_=3, to=7)`` -> ``{"type": "move", "from": 3, "to": 7}``."""
    body: dict[str, Any] = {"type": type}
    for key, value in fields.items():
        body["from" if key == "from_" else key] = value
    return body


def act(client: APIClient, game_id: Any, type: str = "move", *, key: str | None = None, **fields):
    """POST one action; ``key`` is sent as the Idempotency-Key header."""
    extra: dict[str, Any] = {"HTTP_IDEMPOTENCY_KEY": key} if key is not None else {}
    return client.post(actions_url(game_id), action_body(type, **fields), format="json", **extra)


def post_json(client: APIClient, url: str, body: Any, *, key: str | None = None):
    extra: dict[str, Any] = {"HTTP_IDEMPOTENCY_KEY": key} if key is not None else {}
    return client.post(url, body, format="json", **extra)


def new_game(client: APIClient, suits: int | None = 1, **body: Any) -> dict[str, Any]:
    """Create a game (``suits`` plus any of replay_of, seed, layout); asserts 201."""
    if suits is not None:
        body = {"suits": suits, **body}
    response = client.post(GAMES_URL, body, format="json")
    assert response.status_code == 201, response.content
    return response.json()


def ok(response, status: int = 200) -> dict[str, Any]:
    assert response.status_code == status, (response.status_code, response.content)
    return response.json()


def refused(response, status: int, code: str) -> dict[str, Any]:
    """Assert an error answer ``{"code", "detail", ...}`` with this status and code."""
    assert response.status_code == status, (response.status_code, response.content)
    body = response.json()
    assert body["code"] == code, body
    assert isinstance(body["detail"], str) and body["detail"], body
    return body


# -- the database side ------------------------------------------------------------------------
def snapshot_of(game_id: Any) -> dict[str, Any]:
    return Game.objects.values_list("snapshot", flat=True).get(pk=game_id)


def board_of(game_id: Any) -> Board:
    return load(snapshot_of(game_id))


def raw_snapshot(game_id: Any) -> str:
    """The snapshot column as the database stores it: a byte-for-byte comparison."""
    pk = Game._meta.pk.get_db_prep_value(uuid.UUID(str(game_id)), connection)
    with connection.cursor() as cursor:
        cursor.execute(
            f"SELECT CAST(snapshot AS TEXT) FROM {Game._meta.db_table} WHERE id = %s", [pk]
        )
        (text,) = cursor.fetchone()
    return text


def game_record(game_id: Any) -> dict[str, Any]:
    """What a refused request must leave exactly as it was."""
    row: dict[str, Any] = dict(
        Game.objects.values(
            "version",
            "actions",
            "undos",
            "score",
            "runs_removed",
            "status",
            "end_reason",
            "started_at",
            "last_action_at",
            "finished_at",
        ).get(pk=game_id)
    )
    row["log"] = list(
        Action.objects.filter(game_id=game_id)
        .order_by("seq")
        .values_list("seq", "kind", "src", "dst", "count")
    )
    row["snapshot"] = raw_snapshot(game_id)
    return row


def log_rows(game_id: Any) -> list[Action]:
    return list(Action.objects.filter(game_id=game_id).order_by("seq"))


def public_columns(board: Board) -> list[dict[str, Any]]:
    """What ``columns`` must be: each column's face-up cards and its face-down count."""
    return [
        {"hidden": board.down[i], "cards": [format_card(c) for c in col[board.down[i] :]]}
        for i, col in enumerate(board.cols)
    ]


# -- layouts ----------------------------------------------------------------------------------
def _cards(text: str) -> list[str]:
    assert len(text) % 2 == 0, text
    return [text[i : i + 2] for i in range(0, len(text), 2)]


def layout_json(columns: list[str], stock: str = "") -> dict[str, Any]:
    """``layout_json(["9s|KsQs", "|As", ...], stock="...")``: each column ``DOWN|UP``, cards
    bottom to top, written together; fewer than ten columns are padded with empty ones."""
    assert len(columns) <= 10
    cols = []
    for text in [*columns, *["|"] * (10 - len(columns))]:
        down, bar, up = text.partition("|")
        assert bar, text
        cols.append({"down": _cards(down), "up": _cards(up)})
    return {"columns": cols, "stock": _cards(stock)}


def layout_notation(suits: int, columns: list[str], stock: str = "", removed: str = "-") -> str:
    """The engine's one-line notation for the same compact description."""
    cols = "/".join([*columns, *["|"] * (10 - len(columns))])
    return f"{suits} {cols} {stock or '-'} {removed}"


# A 1-suit position one move from a win: K..2 of spades in column 0, the Ace in column 1.
# Moving the Ace (1 -> 0) completes the only run; the table is then empty: won.
NEAR_WIN = ["|KsQsJsTs9s8s7s6s5s4s3s2s", "|As"]


def pooled_layout_deal(columns: list[str], suits: int = 1, stock: str = "") -> Deal:
    """A vetted deal in the pool whose start is a layout: lets a player's (not staff) game
    reach an exact position, e.g. ``NEAR_WIN``, through the ordinary creation path."""
    return Deal.objects.create(
        suits=suits,
        deal_version=DEAL_VERSION,
        layout_notation=layout_notation(suits, columns, stock),
        source=Deal.Source.POOL,
        state=Deal.State.POOLED,
        vetted=True,
    )


def pooled_seed_deal(suits: int, seed: int) -> Deal:
    """A pooled deal of any seed (e.g. a 20-digit one the tests can search for)."""
    deal = Deal(
        suits=suits,
        deal_version=DEAL_VERSION,
        source=Deal.Source.POOL,
        state=Deal.State.POOLED,
        vetted=True,
    )
    deal.seed = seed
    deal.save()
    return deal


# -- what a response may reveal ---------------------------------------------------------------
def check_public(response, game_id: Any, *, seed: int | None = None) -> dict[str, Any]:
    """Check one response about a running game against the database:

    - ``columns`` (of the state, or of ``game`` in a 409) equal the face-up cards and
      face-down counts of the stored snapshot, exactly;
    - every ``outcome.turned`` card is the first face-up card of its column now;
    - no card token appears anywhere else in the body;
    - the seed's decimal string appears nowhere in the body (if ``seed`` is given).
    """
    text = response.content.decode()
    body = json.loads(text)
    if seed is not None:
        assert str(seed) not in text, "the seed leaked"
    rest = copy.deepcopy(body)
    state = rest.get("game") if isinstance(rest.get("game"), dict) else rest
    if "columns" in state:
        assert state["columns"] == public_columns(board_of(game_id))
        columns = state.pop("columns")
        for turned in rest.get("outcome", {}).pop("turned", []):
            assert turned["card"] == columns[turned["column"]]["cards"][0], turned
    leaked = CARD_TOKEN.findall(json.dumps(rest))
    assert not leaked, f"card tokens outside columns: {leaked}"
    return body
