"""The OpenAPI description of the game endpoints (games/views.py): each view's operations,
their answers and examples. A view names its own serializers; each function here reads them
off the view class it decorates, so the schema shows exactly what the view validates.

    @schema_docs.games
    class GamesApi(APIView): ...
"""

from __future__ import annotations

from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)

from base.openapi import (
    NOT_FOUND,
    ErrorSerializer,
    RetryErrorSerializer,
    View,
    bad_request,
    code_examples,
    error_example,
    error_response,
    invalid_example,
)
from base.pagination import PAGE_PARAMETERS
from games.errors import (
    LAYOUT_CODES,
    RACE_RULE_CODES,
    RULE_CODES,
    IdempotencyKeyReused,
    NoAnalysis,
    StaffOnly,
    VersionConflict,
)
from games.idempotency import HEADER, MAX_KEY_LENGTH
from games.serializers import POOL_EMPTY, VersionConflictErrorSerializer

IDEMPOTENCY_PARAM = OpenApiParameter(
    HEADER,
    {"type": "string", "minLength": 1, "maxLength": MAX_KEY_LENGTH},  # else 400 bad_idempotency_key
    OpenApiParameter.HEADER,
    required=False,
    description="Any unique string (e.g. a UUID). A retry with the same key and body is answered "
    "from the first result (header `Idempotent-Replayed: true`) and applied once; the same key "
    "with another body is refused with 422 `idempotency_key_reused`.",
)

IDEMPOTENT_REPLAYED = OpenApiParameter(
    "Idempotent-Replayed",
    {"type": "string", "enum": ["true"]},
    OpenApiParameter.HEADER,
    required=False,
    response=[200, 201],
    description="Present when this answer is the replay of an earlier request's result.",
)

_SHOWN_RULES = ("rank_mismatch", "empty_column_blocks_deal", "nothing_to_undo")  # with a sentence

RULE_REFUSED = OpenApiResponse(
    ErrorSerializer,
    "A well-formed action the rules refuse; nothing changed and nothing was counted. Codes: "
    "`not_a_run`, `face_down`, `rank_mismatch`, `bad_count` (no such run: out of 1..104 or "
    "more cards than the column holds), `bad_column` (out of 0..9, or the same column twice), "
    "`empty_column_blocks_deal` (in a game under `deal_over_gap` only while ten cards or more "
    "are on the table), `stock_empty`, `nothing_to_undo`, `game_over`, "
    "`no_destination`, `idempotency_key_reused`; in a race game (kind `race`) also "
    "`undo_not_allowed`, `hints_not_allowed`, `race_not_started`, `race_over`, `not_racing`.",
    examples=[
        error_example(
            "rank_mismatch",
            "7h cannot go on 9s in column 4: a card goes only on one exactly one rank higher",
        ),
        error_example(
            "empty_column_blocks_deal", "column 2 is empty: fill every empty column before you deal"
        ),
        error_example("nothing_to_undo", "there is no move or deal left to undo"),
        *code_examples(
            *(c for c in RULE_CODES if c not in _SHOWN_RULES),
            IdempotencyKeyReused,
            *RACE_RULE_CODES,
        ),
    ],
)

KEY_REUSED = error_response(
    "The Idempotency-Key was already used with another body.",
    "idempotency_key_reused",
    "This Idempotency-Key was already used for a different request.",
)

BAD_KEY = error_example(
    "bad_idempotency_key", f"{HEADER} must be 1 to {MAX_KEY_LENGTH} characters."
)

STAFF_ONLY = error_response(
    "`staff_only`: seed and layout are for staff.",
    StaffOnly.code,
    "Only staff may choose a seed or a layout.",
)

VERSION_CONFLICT = OpenApiResponse(
    VersionConflictErrorSerializer,
    "`version_conflict`: the game is not at the `version` you sent. The body's `game` holds the "
    "current state; decide again from it.",
    examples=[error_example(VersionConflict.code, "The game is at version 7, not 6: refresh.")],
)

ANALYSIS_REFUSED = error_response(
    "Not yet: the game is still running (`game_in_progress`), its race is still running "
    "(`race_in_progress`), or it is a daily game whose day has not closed (`daily_open`). "
    "The solver sees every card, so the answer would give the deal away.",
    "game_in_progress",
    "A game is analysed once it is over: finish or resign it.",
    error_example(
        "race_in_progress",
        "The race is still running: its deal is analysed once the race has ended.",
    ),
    error_example(
        "daily_open",
        "The daily challenge's deal is analysed once its day has closed (00:00 UTC).",
    ),
)

ANALYSIS_LIMITED = OpenApiResponse(
    RetryErrorSerializer,
    "Past a limit: your analyses waiting (`ANALYSIS_PLAYER_PENDING_MAX`) or asked for in 24 "
    "hours (`ANALYSIS_PLAYER_DAILY_MAX`): `analysis_quota`; all analyses waiting "
    "(`ANALYSIS_QUEUE_MAX`): `analysis_queue_full`. Retry after `retry_after` seconds (also "
    "the `Retry-After` header). Asking for an analysis that exists never counts.",
    examples=[
        error_example(
            "analysis_quota",
            "You have 2 analyses waiting; ask again once one is done.",
            retry_after=30,
        ),
        error_example(
            "analysis_queue_full",
            "Too many analyses are waiting; ask again shortly.",
            retry_after=30,
        ),
    ],
)

ANALYSIS_EXAMPLE = {
    "game": "6f1c2b9e-8a51-4c1e-9a57-2f8d3c1b0e42",
    "status": "done",
    "reason": "",
    "requested_at": "2026-12-02T10:00:00Z",
    "finished_at": "2026-12-02T10:00:09Z",
    "nodes": 1766982,
    "seconds": 8.4,
    "result": {
        "version": 8,
        "outcome": "lost",
        "line_length": 65,
        "log_length": 71,
        "undone": 3,
        "par": 211,
        "start_winnable": True,
        "winnable_actions": 43,
        "winnable_at_end": False,
        "last_win": {
            "index": 43,
            "step": 46,
            "position": "4 |6d5s4h5h/7dTd9c9h|KdQd5d4d/... 3h8hThKhJhTsJhAs4d7c -",
        },
        "proved_loss": {
            "index": 44,
            "step": 47,
            "position": "4 |6d5s4h5h/... 3h8hThKhJhTsJhAs4d7c -",
        },
        "unsettled": 0,
        "turning_point": {
            "index": 43,
            "seq": 47,
            "step": 46,
            "position": "4 |6d5s4h5h/7dTd9c9h|KdQd5d4d/... 3h8hThKhJhTsJhAs4d7c -",
            "action": {"type": "move", "from": 3, "to": 7, "count": 1},
            "after": {
                "index": 44,
                "position": "4 |6d5s4h5h/... 3h8hThKhJhTsJhAs4d7c -",
                "nodes": 300000,
                "exhaustive": True,
            },
        },
        "solver_line": {
            "from_index": 43,
            "from_seq": 46,
            "position": "4 |6d5s4h5h/7dTd9c9h|KdQd5d4d/... 3h8hThKhJhTsJhAs4d7c -",
            "length": 2,
            "actions": [{"type": "move", "from": 5, "to": 2, "count": 3}, {"type": "deal"}],
            "positions": [
                {
                    "columns": [{"hidden": 3, "cards": ["7d", "Td", "9c", "9h"]}] * 10,
                    "deals_left": 2,
                    "runs_removed": 1,
                    "removed_suits": ["s"],
                    "won": False,
                },
                {
                    "columns": [{"hidden": 2, "cards": ["Kd", "Qd", "Jd", "Td"]}] * 10,
                    "deals_left": 2,
                    "runs_removed": 1,
                    "removed_suits": ["s"],
                    "won": False,
                },
                {
                    "columns": [{"hidden": 0, "cards": []}] * 10,
                    "deals_left": 0,
                    "runs_removed": 8,
                    "removed_suits": ["s", "h", "d", "c", "s", "h", "d", "c"],
                    "won": True,
                },
            ],
        },
        "budget": {"probe_nodes": 300000, "total_nodes": 4000000, "proof_nodes": 100000},
        "probes": [
            {"index": 0, "won": True, "nodes": 0, "exhaustive": False, "inferred": True},
            {"index": 65, "won": False, "nodes": 8, "exhaustive": False, "inferred": False},
        ],
        "nodes": 1766982,
        "review": {
            "version": 1,
            "claim": "estimate",
            "budget": {
                "sample": 20,
                "world_search_nodes": 100000,
                "world_proof_nodes": 20000,
                "total_nodes": 80000000,
                "max_seconds": 60,
            },
            "chances": [
                {
                    "index": 40,
                    "step": 43,
                    "chance": {"share": 0.9, "won": 18, "lost": 2, "undecided": 0, "sample": 20},
                },
                {
                    "index": 43,
                    "step": 46,
                    "chance": {"share": 0.9, "won": 18, "lost": 2, "undecided": 0, "sample": 20},
                },
            ],
            "moves": [
                {
                    "index": 43,
                    "step": 46,
                    "action": {"type": "move", "from": 3, "to": 7, "count": 1},
                    "words": "moving the 5♦ to the 6♠",
                    "chance_before": {
                        "share": 0.9,
                        "won": 18,
                        "lost": 2,
                        "undecided": 0,
                        "sample": 20,
                    },
                    "chance_after": {
                        "share": 0.3,
                        "won": 6,
                        "lost": 14,
                        "undecided": 0,
                        "sample": 20,
                    },
                    "chance_best": {
                        "share": 0.9,
                        "won": 18,
                        "lost": 2,
                        "undecided": 0,
                        "sample": 20,
                    },
                    "better": {
                        "action": {"type": "move", "from": 2, "to": 5, "count": 1},
                        "words": "moving the 7♥ to the 8♣",
                    },
                    "drop": 0.6,
                    "grade": "blunder",
                    "sentence": "This move left a win in about 3 of 10 ways the hidden cards "
                    "could lie; moving the 7♥ to the 8♣ left one in about 9 of 10 ways the "
                    "hidden cards could lie.",
                }
            ],
            "reviewed": 1,
            "actions": 65,
            "complete": False,
            "cut": "nodes",
            "nodes": 80412230,
            "seconds": 16.2,
        },
    },
}


def games(view: View) -> View:
    """The operations of GamesApi."""
    return extend_schema_view(
        get=extend_schema(
            operation_id="games_list",
            tags=["games"],
            summary="Your games",
            description="Your games, newest first, optionally only those in one `status`. "
            "Summaries only: read a game for its columns.",
            parameters=[
                OpenApiParameter(
                    "status",
                    {"$ref": "#/components/schemas/GameStatusEnum"},
                    required=False,
                    description="Only the games in this state.",
                ),
                *PAGE_PARAMETERS,
            ],
            responses={
                200: view.PageSerializer,
                400: bad_request(
                    invalid_example("page_size", "A whole number 1..100."), body=False
                ),
            },
        ),
        post=extend_schema(
            operation_id="games_create",
            tags=["games"],
            summary="Start a game",
            description="Deals a new game of `suits` (1, 2 or 4), or the deal of game `replay_of` "
            "again. Your casual game in progress, if any, ends first: lost (abandoned) if you took "
            "an action in it, discarded if not. Staff may pass `seed` or `layout`. "
            "`deal_over_gap: true` deals it under GameLake's end game (a deal may go over empty "
            "columns while fewer than ten cards are on the table), fixed for the game; a value "
            "other than true or false is a 400 and starts nothing.",
            request=view.InputSerializer,
            parameters=[IDEMPOTENCY_PARAM, IDEMPOTENT_REPLAYED],
            responses={
                201: view.OutputSerializer,
                400: bad_request(
                    invalid_example("suits", "Choose 1, 2 or 4."),
                    invalid_example("deal_over_gap", "Must be a valid boolean."),
                    BAD_KEY,
                    *code_examples(*LAYOUT_CODES),
                ),
                403: STAFF_ONLY,
                404: NOT_FOUND,
                422: KEY_REUSED,
                503: POOL_EMPTY,
            },
            examples=[
                OpenApiExample("New 2-suit game", value={"suits": 2}, request_only=True),
                OpenApiExample(
                    "GameLake end game",
                    value={"suits": 1, "deal_over_gap": True},
                    request_only=True,
                ),
                OpenApiExample(
                    "Same deal again",
                    value={"replay_of": "6f1c2d0e-8a4b-4c1e-9f3a-2b7d5e9c0a41"},
                    request_only=True,
                ),
            ],
        ),
    )(view)


def game_detail(view: View) -> View:
    """The operations of GameDetailApi."""
    return extend_schema_view(
        get=extend_schema(
            operation_id="games_read",
            tags=["games"],
            summary="A game's state",
            description="Your game at any time; anyone's once it is over (then with its deal's "
            "seed). "
            "Face-down cards show only as `hidden` counts, the stock only as `deals_left`.",
            responses={200: view.OutputSerializer, 404: NOT_FOUND},
        ),
    )(view)


def game_actions(view: View) -> View:
    """The operations of GameActionsApi."""
    return extend_schema_view(
        get=extend_schema(
            operation_id="games_log",
            tags=["games"],
            summary="A game's action log",
            description="Every move (resolved to from/to/count), deal, undo and hint, in order. "
            "Public "
            "once the game is over, with the seed, so anyone can replay it.",
            responses={200: view.LogSerializer, 404: NOT_FOUND},
        ),
        post=extend_schema(
            operation_id="games_act",
            tags=["games"],
            summary="Play: move, deal or undo",
            description="One action. `move` takes `from`; `to` omitted: the server picks the "
            "destination (one-tap); `count` omitted: the longest movable run that fits. Send "
            "`version` to apply only if the game has not moved on (else 409 with the current "
            "state). The answer is the new state plus `outcome`: what the action did, and `coins`: "
            "null unless this action won the game, then what the win earned (`base`, the perfect "
            "`bonus`), what the daily limit `cut`, what was credited (`earned`), and the "
            "`balance`, `earned_today` and `left_today` after it.",
            request=view.InputSerializer,
            parameters=[IDEMPOTENCY_PARAM, IDEMPOTENT_REPLAYED],
            responses={
                200: view.OutputSerializer,
                400: bad_request(invalid_example("type", '"jump" is not a valid choice.'), BAD_KEY),
                404: NOT_FOUND,
                409: VERSION_CONFLICT,
                422: RULE_REFUSED,
            },
            examples=[
                OpenApiExample(
                    "Move",
                    value={"type": "move", "from": 3, "to": 7, "count": 2},
                    request_only=True,
                ),
                OpenApiExample("One-tap", value={"type": "move", "from": 3}, request_only=True),
                OpenApiExample(
                    "Deal at version 12", value={"type": "deal", "version": 12}, request_only=True
                ),
                OpenApiExample("Undo", value={"type": "undo"}, request_only=True),
            ],
        ),
    )(view)


def game_hint(view: View) -> View:
    """The operations of GameHintApi."""
    return extend_schema_view(
        post=extend_schema(
            operation_id="games_hint",
            tags=["games"],
            summary="Ask for a hint: the n-th best suggestion",
            description="Ranks the useful moves (and the deal) from what you can see — never the "
            "face-down cards or the stock — and returns the n-th best with its reason; ask with "
            "n+1 for the next alternative. It never suggests taking back the move just made; when "
            "nothing useful is left, `action` is null and `reason` says what to do.\n\n"
            "A POST because asking changes the game: a hint served counts on it (`hints`; the game "
            "is no longer perfect) and is logged, so the version moves on. The answer's `action` "
            "carries that new version and is the body of `POST /games/{id}/actions` as it is. "
            "Asking the same n again straight away is answered the same and not counted twice. "
            "Send `version` to ask only about the position you have (else 409).",
            request=view.InputSerializer,
            responses={
                200: view.OutputSerializer,
                400: bad_request(invalid_example("n", "A valid integer is required.")),
                404: NOT_FOUND,
                409: VERSION_CONFLICT,
                422: error_response(
                    "The game is over (`game_over`), or it is a race game (`hints_not_allowed`).",
                    "game_over",
                    "The game is over: no further action is possible.",
                    *code_examples("hints_not_allowed"),
                ),
            },
            examples=[
                OpenApiExample("The best", value={}, request_only=True),
                OpenApiExample(
                    "The second best at version 12",
                    value={"n": 1, "version": 12},
                    request_only=True,
                ),
            ],
        ),
    )(view)


def game_resign(view: View) -> View:
    """The operations of GameResignApi."""
    return extend_schema_view(
        post=extend_schema(
            operation_id="games_resign",
            tags=["games"],
            summary="Resign",
            description="Ends the game as lost. The seed and the log become public.",
            request=None,
            parameters=[IDEMPOTENCY_PARAM, IDEMPOTENT_REPLAYED],
            responses={
                200: view.OutputSerializer,
                400: bad_request(BAD_KEY),
                404: NOT_FOUND,
                409: error_response(
                    "A race game, refused as `POST /races/{code}/resign` refuses it: "
                    "`race_not_started` (the cards have not turned over), `race_over`, "
                    "`not_racing` (out already).",
                    "race_not_started",
                    "The cards have not turned over yet.",
                    *code_examples("race_over", "not_racing"),
                ),
                422: error_response(
                    "The game is over already, or the Idempotency-Key was used for another "
                    "request.",
                    "game_over",
                    "The game is over: no further action is possible.",
                    error_example(
                        "idempotency_key_reused",
                        "This Idempotency-Key was already used for a different request.",
                    ),
                ),
            },
        ),
    )(view)


def player(view: View) -> View:
    """The operations of PlayerApi."""
    return extend_schema_view(
        get=extend_schema(
            operation_id="players_read",
            tags=["players"],
            summary="A player's public statistics",
            description="Per suit mode: games played, wins, win rate, streaks, fastest win, fewest "
            "actions in a win, best score and the five best wins; and the player's coins (balance "
            "and today's earnings, UTC). No token needed (a token sent must be valid).",
            responses={200: view.OutputSerializer, 404: NOT_FOUND},
        ),
    )(view)


def game_position(view: View) -> View:
    """The operations of GamePositionApi."""
    return extend_schema_view(
        get=extend_schema(
            operation_id="games_position",
            tags=["games"],
            summary="The position at step n of a finished game",
            description="The position after the first `n` log entries (0: the start), as the "
            "player saw it (face-down cards as `hidden` counts), for stepping through a replay. "
            "Only once the game is over: 409 `game_in_progress` for your own running game, 404 for "
            "anyone else's game that is not public yet.",
            parameters=[
                OpenApiParameter(
                    "Cache-Control",
                    str,
                    OpenApiParameter.HEADER,
                    required=True,
                    response=[200],
                    description="`private, max-age=86400`: a finished game's positions never "
                    "change.",
                )
            ],
            responses={
                200: view.OutputSerializer,
                404: error_response(
                    "No such game (or it is not public yet), or no such step.",
                    "not_found",
                    "No such game (or it is not yours).",
                    error_example("no_such_step", "The log has 12 entries; ask 0..12."),
                ),
                409: error_response(
                    "The game is still running, or (`race_not_started`) it is a race game whose "
                    "cards have not turned over yet: nobody sees a card before then.",
                    "game_in_progress",
                    "Positions are served once the game is over.",
                    error_example("race_not_started", "The cards have not turned over yet."),
                ),
            },
        ),
    )(view)


def game_analysis(view: View) -> View:
    """The operations of GameAnalysisApi."""
    return extend_schema_view(
        get=extend_schema(
            operation_id="games_analysis_read",
            tags=["games"],
            summary="A finished game's analysis",
            description="The analysis asked for with POST: `pending` while a worker searches, "
            "`done` with its `result`, or `failed` with a `reason`. Readable by whoever may read "
            "the game's log; 404 `no_analysis` when nobody has asked for it.",
            responses={
                200: OpenApiResponse(
                    view.OutputSerializer,
                    "The analysis.",
                    examples=[
                        OpenApiExample(
                            "A lost 4-suit game", value=ANALYSIS_EXAMPLE, response_only=True
                        )
                    ],
                ),
                404: error_response(
                    "No such game, or not yours to see (`not_found`), or no analysis asked for "
                    "(`no_analysis`).",
                    "not_found",
                    "No such game (or it is not yours).",
                    error_example("no_analysis", NoAnalysis.detail),
                ),
            },
        ),
        post=extend_schema(
            operation_id="games_analysis_ask",
            tags=["games"],
            summary="Ask for a finished game's analysis",
            description="Where the win was lost: the full-information solver searches the game's "
            "line (undone actions out) for the turning point, the last position it finds a win "
            "from, and shows the way through from there; and the move review (`result.review`), an "
            "estimate kept apart from those certain claims: each move graded by the chance "
            "as the player could see it (worlds drawn from the cards not in view), within "
            "60 s of CPU. One analysis per game, ever: asking "
            "again returns the same one (200 once done, 202 while pending). Your own finished "
            "games, and anyone's whose log is public; never a running game, a race before it "
            "ends, or a daily game before its day closes (409).",
            request=None,
            responses={
                200: OpenApiResponse(view.OutputSerializer, "Done (or failed): the analysis."),
                202: OpenApiResponse(view.OutputSerializer, "Pending: read it again with GET."),
                404: NOT_FOUND,
                409: ANALYSIS_REFUSED,
                429: ANALYSIS_LIMITED,
            },
        ),
    )(view)


def player_games(view: View) -> View:
    """The operations of PlayerGamesApi."""
    return extend_schema_view(
        get=extend_schema(
            operation_id="players_games",
            tags=["players"],
            summary="A player's finished games",
            description="The player's games that are over and open to everyone, newest first, a "
            "page at a time: casual games, and daily games once their day has closed (a race's "
            "games are the race's). Each opens as a replay (`GET /games/{id}/positions/{step}`). "
            "A game in play is never listed. No token needed (a token sent must be valid).",
            parameters=PAGE_PARAMETERS,
            responses={
                200: view.OutputSerializer,
                400: bad_request(invalid_example("page", "A whole number 1..100000."), body=False),
                404: NOT_FOUND,
            },
        ),
    )(view)
