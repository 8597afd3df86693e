"""Game endpoints. Each view validates, calls one service or selector, and shapes the answer."""

from __future__ import annotations

from typing import Any

from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from coins.presenters import award_json, summary_json
from coins.selectors import coins_summary
from games import analyses, selectors, services
from games.errors import (
    LAYOUT_CODES,
    RACE_RULE_CODES,
    RULE_CODES,
    IdempotencyKeyReused,
    StaffOnly,
    VersionConflict,
)
from games.idempotency import HEADER, MAX_KEY_LENGTH, fingerprint, run_idempotent
from games.models import Analysis
from games.presenters import (
    action_json,
    analysis_json,
    deal_info,
    game_state,
    game_summary,
    hint_json,
    outcome_json,
)
from games.serializers import (
    POOL_EMPTY,
    ActedGameStateSerializer,
    ActionInputSerializer,
    AnalysisResultSerializer,
    GameCreateSerializer,
    GameFilterSerializer,
    GameLogSerializer,
    GamePageSerializer,
    GameStateSerializer,
    HintAskSerializer,
    HintSerializer,
    PlayerPublicSerializer,
    PositionSerializer,
    VersionConflictErrorSerializer,
    action_input_fast,
)
from spider_api.errors import DomainError
from spider_api.openapi import (
    NOT_FOUND,
    ErrorSerializer,
    RetryErrorSerializer,
    bad_request,
    code_examples,
    error_example,
    error_response,
    invalid_example,
)
from spider_api.pagination import PAGE_PARAMETERS, page_json, page_request
from spider_api.permissions import READ_METHODS
from spider_api.players import player_of
from spider_api.scopes import GAME_PLAY

IDEMPOTENCY_PARAM = OpenApiParameter(
    HEADER,
    str,
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


def _answer(request: Request, produce: Any) -> Response:
    """Run a POST under its Idempotency-Key (if any) and turn the result into a Response."""
    key = request.headers.get(HEADER)
    (code, body), replayed = run_idempotent(
        player=player_of(request),
        key=key,
        request_fingerprint=lambda: fingerprint(request.method or "", request.path, request.data),
        produce=produce,
    )
    response = Response(body, status=code)
    if replayed:
        response["Idempotent-Replayed"] = "true"
    return response


class GamesApi(APIView):
    """List your games (GET: FilterSerializer, PageSerializer); start a new one (POST:
    InputSerializer, OutputSerializer)."""

    required_scopes = (GAME_PLAY,)  # listing your games (to resume one) is playing too
    FilterSerializer = GameFilterSerializer
    PageSerializer = GamePageSerializer
    InputSerializer = GameCreateSerializer
    OutputSerializer = GameStateSerializer

    @property
    def throttle_scope(self) -> str | None:  # only creating a game is throttled here
        return "game_create" if self.request.method == "POST" else None

    @property
    def takes_pool_deal(self) -> bool:  # a new game: counted in the `pool` scope too
        return self.request.method == "POST"

    @extend_schema(
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
            200: PageSerializer,
            400: bad_request(invalid_example("page_size", "A whole number 1..100."), body=False),
        },
    )
    def get(self, request: Request) -> Response:
        # A plain dict: "?status=" is a wrong status, not a missing one (as a QueryDict it is).
        filters = self.FilterSerializer(data=request.query_params.dict())
        filters.is_valid(raise_exception=True)
        asked = page_request(request.query_params)
        games = selectors.games_of_player(
            player=player_of(request), status=filters.validated_data.get("status")
        )
        rows = games[asked.offset : asked.offset + asked.limit]
        return Response(page_json(asked, [game_summary(g) for g in rows]))

    @extend_schema(
        operation_id="games_create",
        tags=["games"],
        summary="Start a game",
        description="Deals a new game of `suits` (1, 2 or 4), or the deal of game `replay_of` "
        "again. Your casual game in progress, if any, ends first: lost (abandoned) if you took "
        "an action in it, discarded if not. Staff may pass `seed` or `layout`. "
        "`deal_over_gap: true` deals it under GameLake's end game (a deal may go over empty "
        "columns while fewer than ten cards are on the table), fixed for the game; a value "
        "other than true or false is a 400 and starts nothing.",
        request=InputSerializer,
        parameters=[IDEMPOTENCY_PARAM, IDEMPOTENT_REPLAYED],
        responses={
            201: OutputSerializer,
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
    )
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        wanted = {k: data.get(k) for k in ("suits", "replay_of", "seed", "layout")}
        services.game_create_prepare(**wanted)  # vetting, if any, before the player's lock

        def produce() -> tuple[int, dict[str, Any]]:
            game = services.game_create(
                player=player_of(request), deal_over_gap=data["deal_over_gap"], **wanted
            )
            return status.HTTP_201_CREATED, game_state(game)

        return _answer(request, produce)


class GameDetailApi(APIView):
    permission_classes = (AllowAny,)
    OutputSerializer = GameStateSerializer

    @extend_schema(
        operation_id="games_read",
        tags=["games"],
        summary="A game's state",
        description="Your game at any time; anyone's once it is over (then with its deal's seed). "
        "Face-down cards show only as `hidden` counts, the stock only as `deals_left`.",
        responses={200: OutputSerializer, 404: NOT_FOUND},
    )
    def get(self, request: Request, game_id: str) -> Response:
        game = selectors.game_get_readable(viewer=request.user, game_id=game_id)
        return Response(game_state(game))


class GameActionsApi(APIView):
    """The game's log (GET: LogSerializer) and the one way to play (POST: InputSerializer,
    OutputSerializer)."""

    required_scopes = {"POST": (GAME_PLAY,)}  # the log (GET) is public
    LogSerializer = GameLogSerializer
    InputSerializer = ActionInputSerializer
    OutputSerializer = ActedGameStateSerializer

    def get_permissions(self) -> list[Any]:
        public = self.request.method in READ_METHODS
        return [AllowAny()] if public else list(super().get_permissions())

    @property
    def throttle_scope(self) -> str | None:
        return "actions" if self.request.method == "POST" else None

    @extend_schema(
        operation_id="games_log",
        tags=["games"],
        summary="A game's action log",
        description="Every move (resolved to from/to/count), deal, undo and hint, in order. Public "
        "once the game is over, with the seed, so anyone can replay it.",
        responses={200: LogSerializer, 404: NOT_FOUND},
    )
    def get(self, request: Request, game_id: str) -> Response:
        game = selectors.game_get_readable(viewer=request.user, game_id=game_id)
        entries = [action_json(a) for a in selectors.game_log(game=game)]
        body = {"game": str(game.id), "deal": deal_info(game), "actions": entries}
        return Response({**body, "deal_over_gap": game.deal_over_gap})

    @extend_schema(
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
        request=InputSerializer,
        parameters=[IDEMPOTENCY_PARAM, IDEMPOTENT_REPLAYED],
        responses={
            200: OutputSerializer,
            400: bad_request(invalid_example("type", '"jump" is not a valid choice.'), BAD_KEY),
            404: NOT_FOUND,
            409: VERSION_CONFLICT,
            422: RULE_REFUSED,
        },
        examples=[
            OpenApiExample(
                "Move", value={"type": "move", "from": 3, "to": 7, "count": 2}, request_only=True
            ),
            OpenApiExample("One-tap", value={"type": "move", "from": 3}, request_only=True),
            OpenApiExample(
                "Deal at version 12", value={"type": "deal", "version": 12}, request_only=True
            ),
            OpenApiExample("Undo", value={"type": "undo"}, request_only=True),
        ],
    )
    def post(self, request: Request, game_id: str) -> Response:
        data = _validated_action(self.InputSerializer, request.data)
        action = services.ActionRequest(
            type=data["type"], src=data.get("from"), dst=data.get("to"), count=data.get("count")
        )

        def produce() -> tuple[int, dict[str, Any]]:
            result = services.game_act(
                player=player_of(request),
                game_id=game_id,
                action=action,
                expected_version=data.get("version"),
            )
            body = game_state(result.game, result.board)
            body["outcome"] = outcome_json(result.applied, result.outcome)
            body["coins"] = award_json(result.coins) if result.coins is not None else None
            return status.HTTP_200_OK, body

        return _answer(request, produce)


def _validated_action(input_serializer: type[ActionInputSerializer], data: Any) -> dict[str, Any]:
    """Validate an action body. A column or count out of range is refused as the engine
    refuses it (422 `bad_column`/`bad_count`): one code, one status, whichever path finds it."""
    fast = action_input_fast(data)
    if fast is not None:
        return fast
    serializer = input_serializer(data=data)
    if serializer.is_valid():
        return serializer.validated_data
    errors = serializer.errors
    out_of_range = {
        field
        for field in ("from", "to", "count")
        if any(
            getattr(e, "code", None) in ("min_value", "max_value") for e in errors.get(field, [])
        )
    }
    if out_of_range and out_of_range == set(errors):
        field = sorted(out_of_range)[0]
        code = "bad_count" if field == "count" else "bad_column"
        raise DomainError(code, f"{field}: {errors[field][0]}", 422)
    raise ValidationError(errors)


class GameHintApi(APIView):
    required_scopes = (GAME_PLAY,)
    throttle_scope = "hints"  # a scope of its own: a hint at a new position is a search
    InputSerializer = HintAskSerializer
    OutputSerializer = HintSerializer

    @extend_schema(
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
        request=InputSerializer,
        responses={
            200: OutputSerializer,
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
                "The second best at version 12", value={"n": 1, "version": 12}, request_only=True
            ),
        ],
    )
    def post(self, request: Request, game_id: str) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        result = services.game_hint(
            player=player_of(request),
            game_id=game_id,
            n=serializer.validated_data["n"],
            expected_version=serializer.validated_data.get("version"),
        )
        return Response(hint_json(result))


class GameResignApi(APIView):
    required_scopes = (GAME_PLAY,)
    throttle_scope = "actions"
    OutputSerializer = GameStateSerializer

    @extend_schema(
        operation_id="games_resign",
        tags=["games"],
        summary="Resign",
        description="Ends the game as lost. The seed and the log become public.",
        request=None,
        parameters=[IDEMPOTENCY_PARAM, IDEMPOTENT_REPLAYED],
        responses={
            200: OutputSerializer,
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
                "The game is over already, or the Idempotency-Key was used for another request.",
                "game_over",
                "The game is over: no further action is possible.",
                error_example(
                    "idempotency_key_reused",
                    "This Idempotency-Key was already used for a different request.",
                ),
            ),
        },
    )
    def post(self, request: Request, game_id: str) -> Response:
        def produce() -> tuple[int, dict[str, Any]]:
            game = services.game_resign(player=player_of(request), game_id=game_id)
            return status.HTTP_200_OK, game_state(game)

        return _answer(request, produce)


class PlayerApi(APIView):
    permission_classes = (AllowAny,)
    OutputSerializer = PlayerPublicSerializer

    @extend_schema(
        operation_id="players_read",
        tags=["players"],
        summary="A player's public statistics",
        description="Per suit mode: games played, wins, win rate, streaks, fastest win, fewest "
        "actions in a win, best score and the five best wins; and the player's coins (balance "
        "and today's earnings, UTC). No token needed (a token sent must be valid).",
        responses={200: OutputSerializer, 404: NOT_FOUND},
    )
    def get(self, request: Request, username: str) -> Response:
        player = selectors.player_by_username(username=username)
        return Response(
            {
                "username": player.username,
                "stats": selectors.player_stats(player=player),
                "coins": summary_json(coins_summary(player_id=player.pk)),
            }
        )


class GamePositionApi(APIView):
    permission_classes = (AllowAny,)
    OutputSerializer = PositionSerializer

    @extend_schema(
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
                description="`private, max-age=86400`: a finished game's positions never change.",
            )
        ],
        responses={
            200: OutputSerializer,
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
    )
    def get(self, request: Request, game_id: str, step: int) -> Response:
        body = selectors.game_position(viewer=request.user, game_id=game_id, step=step)
        # A finished game never changes; "private": an unclosed daily is its owner's only.
        response = Response(body)
        response["Cache-Control"] = "private, max-age=86400"
        return response


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
        "version": 7,
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
    },
}


class GameAnalysisApi(APIView):
    """The post-game analysis of a game: ask for it (POST), read it (GET)."""

    required_scopes = {"POST": (GAME_PLAY,)}  # reading it (GET) is public

    def get_permissions(self) -> list[Any]:
        public = self.request.method in READ_METHODS
        return [AllowAny()] if public else list(super().get_permissions())

    @property
    def throttle_scope(self) -> str | None:
        return "actions" if self.request.method == "POST" else None

    class OutputSerializer(serializers.Serializer):
        game = serializers.UUIDField()
        status = serializers.ChoiceField(choices=Analysis.Status.choices)
        reason = serializers.CharField(help_text="Why it failed (`failed` only).")
        requested_at = serializers.DateTimeField()
        finished_at = serializers.DateTimeField(allow_null=True)
        nodes = serializers.IntegerField(help_text="Solver positions spent.")
        seconds = serializers.FloatField(allow_null=True)
        result = AnalysisResultSerializer(allow_null=True, help_text="Once `done`.")

    @extend_schema(
        operation_id="games_analysis_read",
        tags=["games"],
        summary="A finished game's analysis",
        description="The analysis asked for with POST: `pending` while a worker searches, "
        "`done` with its `result`, or `failed` with a `reason`. Readable by whoever may read "
        "the game's log; 404 `no_analysis` when nobody has asked for it.",
        responses={
            200: OpenApiResponse(
                OutputSerializer,
                "The analysis.",
                examples=[OpenApiExample("A lost 4-suit game", value=ANALYSIS_EXAMPLE)],
            ),
            404: error_response(
                "No such game, or not yours to see (`not_found`), or no analysis asked for "
                "(`no_analysis`).",
                "not_found",
                "No such game (or it is not yours).",
                error_example("no_analysis", analyses.NoAnalysis.detail),
            ),
        },
    )
    def get(self, request: Request, game_id: str) -> Response:
        analysis = analyses.analysis_get(viewer=request.user, game_id=game_id)
        return Response(analysis_json(analysis))

    @extend_schema(
        operation_id="games_analysis_ask",
        tags=["games"],
        summary="Ask for a finished game's analysis",
        description="Where the win was lost: the full-information solver searches the game's "
        "line (undone actions out) for the turning point, the last position it finds a win "
        "from, and shows the way through from there. One analysis per game, ever: asking "
        "again returns the same one (200 once done, 202 while pending). Your own finished "
        "games, and anyone's whose log is public; never a running game, a race before it "
        "ends, or a daily game before its day closes (409).",
        request=None,
        responses={
            200: OpenApiResponse(OutputSerializer, "Done (or failed): the analysis."),
            202: OpenApiResponse(OutputSerializer, "Pending: read it again with GET."),
            404: NOT_FOUND,
            409: ANALYSIS_REFUSED,
            429: ANALYSIS_LIMITED,
        },
    )
    def post(self, request: Request, game_id: str) -> Response:
        analysis, _ = analyses.analysis_request(player=request.user, game_id=game_id)
        analysis.refresh_from_db()  # an inline run (no broker, no thread) may have finished it
        code = status.HTTP_202_ACCEPTED if analysis.status == Analysis.Status.PENDING else 200
        return Response(analysis_json(analysis), status=code)
