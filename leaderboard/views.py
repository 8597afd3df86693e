"""Public leaderboards and the daily challenge. Boards need no token and answer with an
``ETag`` (a 304 when unchanged) and a short ``Cache-Control``."""

from __future__ import annotations

import hashlib
import json
from datetime import date
from typing import Any

from django.core.cache import cache
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import serializers, status
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.daily import daily_closed
from games.models import Game
from games.presenters import game_state
from games.selectors import player_by_username
from games.serializers import GameStateSerializer, SuitsField
from leaderboard import selectors, services
from leaderboard.freshness import board_generation
from spider_api.errors import DomainError
from spider_api.openapi import (
    NOT_FOUND,
    RetryErrorSerializer,
    ValidationErrorSerializer,
    bad_request,
    error_example,
    error_response,
    invalid_example,
)
from spider_api.pagination import PAGE_PARAMETERS, page_request, page_serializer

BOARD_CACHE_SECONDS = 5
CLOSED_BOARD_CACHE_SECONDS = 3600
DAILY_RETRY_AFTER = services.DAILY_RETRY_AFTER_SECONDS


class BoardRowSerializer(serializers.Serializer):
    rank = serializers.IntegerField()
    player = serializers.CharField()
    score = serializers.IntegerField()
    actions = serializers.IntegerField()
    elapsed_ms = serializers.IntegerField()
    finished_at = serializers.DateTimeField()
    perfect = serializers.BooleanField()
    hints = serializers.IntegerField()
    game = serializers.UUIDField(help_text="GET /api/v1/games/{game} and its log to replay it.")


BoardSerializer = page_serializer("Board", BoardRowSerializer)

# Boards answer with an ETag; send it back as If-None-Match for a 304 when nothing changed.
BOARD_PARAMETERS = [
    *PAGE_PARAMETERS,
    OpenApiParameter(
        "If-None-Match",
        str,
        OpenApiParameter.HEADER,
        required=False,
        description="The `ETag` of the board you hold: 304 with no body if it is unchanged.",
    ),
    OpenApiParameter(
        "ETag",
        str,
        OpenApiParameter.HEADER,
        required=True,
        response=[200, 304],
        description="The board's version; send it as `If-None-Match`.",
    ),
    OpenApiParameter(
        "Cache-Control",
        str,
        OpenApiParameter.HEADER,
        required=True,
        response=[200, 304],
        description="`public, max-age=N`: the board may be cached that long.",
    ),
]
NOT_MODIFIED = OpenApiResponse(description="Not modified: the board is the one you hold.")
NO_CHALLENGE = error_response(
    "No challenge that day (`no_challenge`), or not published yet (`future_date`).",
    "no_challenge",
    "There was no challenge on 2026-01-01.",
    error_example("future_date", "The challenge of 2026-12-31 is not published yet."),
)
POOL_EMPTY = OpenApiResponse(
    RetryErrorSerializer,
    "`pool_empty`: today's challenge could not be made, no vetted deal being ready yet; or "
    "`database_unavailable`. Retry "
    "after `retry_after` seconds (also the `Retry-After` header).",
    examples=[
        error_example(
            "pool_empty",
            "No vetted deal is ready for this suit mode yet; retry shortly.",
            retry_after=30,
        )
    ],
)


class PeriodPlacesSerializer(serializers.Serializer):
    all = serializers.IntegerField()
    day = serializers.IntegerField(allow_null=True)
    week = serializers.IntegerField(allow_null=True)
    month = serializers.IntegerField(allow_null=True)


class DailyPlaceSerializer(serializers.Serializer):
    date = serializers.DateField()
    rank = serializers.IntegerField()


class GamePlacesSerializer(serializers.Serializer):
    game = serializers.UUIDField()
    player = serializers.CharField()
    suits = SuitsField()
    score = serializers.IntegerField()
    places = PeriodPlacesSerializer(
        help_text="Its place on its suit mode's board per period (null: finished before it)."
    )
    daily = DailyPlaceSerializer(allow_null=True, help_text="Its place on its day's board.")


class ModePlaceSerializer(serializers.Serializer):
    suits = SuitsField()
    rank = serializers.IntegerField(allow_null=True, help_text="All-time place of the best win.")
    game = serializers.UUIDField(allow_null=True)
    score = serializers.IntegerField(allow_null=True)


class BestDailySerializer(serializers.Serializer):
    date = serializers.DateField()
    rank = serializers.IntegerField()
    game = serializers.UUIDField()


class PlayerPlacesSerializer(serializers.Serializer):
    username = serializers.CharField()
    modes = ModePlaceSerializer(many=True)
    daily = BestDailySerializer(allow_null=True)


class AttemptSerializer(serializers.Serializer):
    game = serializers.UUIDField()
    status = serializers.ChoiceField(choices=Game.Status.choices)
    score = serializers.IntegerField()
    ranked = serializers.BooleanField()


class DailySerializer(serializers.Serializer):
    date = serializers.DateField()
    suits = SuitsField()
    deal_version = serializers.IntegerField()
    commitment = serializers.CharField(help_text="SHA-256 hex, published before the day starts.")
    closes_at = serializers.DateTimeField()
    closed = serializers.BooleanField()
    seed = serializers.CharField(allow_null=True, help_text="Revealed when the day closes.")
    nonce = serializers.CharField(allow_null=True, help_text="Revealed when the day closes.")
    par = serializers.IntegerField(
        allow_null=True,
        help_text="Revealed when the day closes: the length (moves and deals) of the shortest "
        "winning line the solver found for the deal, searched again wider before the day closed.",
    )
    winners = serializers.IntegerField()
    attempt = AttemptSerializer(allow_null=True, help_text="Your attempt (with a token).")


def _date_param(raw: str) -> date:
    try:
        return date.fromisoformat(raw)
    except ValueError:
        raise DomainError("bad_date", f"{raw!r} is not a date: use YYYY-MM-DD.", 400) from None


def _matches(if_none_match: str | None, etag: str) -> bool:
    """RFC 9110 If-None-Match: ``*`` or a list of tags, compared weakly (``W/`` ignored)."""
    if not if_none_match:
        return False
    tags = [t.strip().removeprefix("W/") for t in if_none_match.split(",")]
    return "*" in tags or etag in tags


def _cached_board(request: Request, key: str, build: Any, max_age: int) -> Response:
    """Answer a board: 304 if the client's ETag matches, else from a short cache or built.

    The ETag is a hash of the document itself (its key and body), so it changes whenever the
    board's content does; the cache key adds the generation that deleted entries move on."""
    cache_key = f"{key}:g{board_generation()}"
    cached = cache.get(cache_key)
    if cached is None:
        body = build()
        canonical = json.dumps(body, sort_keys=True, separators=(",", ":"))
        etag = '"' + hashlib.sha256(f"{key}\n{canonical}".encode()).hexdigest()[:32] + '"'
        cached = (etag, body)
        cache.set(cache_key, cached, max_age)
    etag, body = cached
    headers = {"ETag": etag, "Cache-Control": f"public, max-age={max_age}"}
    if _matches(request.headers.get("If-None-Match"), etag):
        return Response(status=status.HTTP_304_NOT_MODIFIED, headers=headers)
    return Response(body, headers=headers)


def _page_json(page: selectors.Page) -> dict[str, Any]:
    return {
        "page": page.page,
        "page_size": page.page_size,
        "has_next": page.has_next,
        "results": page.rows,
    }


class _PublicBoardApi(APIView):
    """Boards are public and identical for everyone: no token is read, not even a bad one."""

    authentication_classes = ()
    permission_classes = (AllowAny,)


class LeaderboardApi(_PublicBoardApi):
    @extend_schema(
        operation_id="leaderboard",
        tags=["leaderboard"],
        summary="The public leaderboard of won games",
        description="Ranked wins (vetted deals, standard rules; never staff-made games or "
        "replays) by score, then shorter time, then earlier finish. Periods are UTC calendar "
        "periods: today, this week (from Monday), this month. No token needed.",
        parameters=[
            OpenApiParameter("suits", {"$ref": "#/components/schemas/SuitsEnum"}, required=True),
            OpenApiParameter(
                "period",
                {"type": "string", "enum": list(selectors.PERIODS), "default": "all"},
                required=False,
                description="UTC calendar periods: all time, today, this week, this month.",
            ),
            *BOARD_PARAMETERS,
        ],
        responses={
            200: BoardSerializer,
            304: NOT_MODIFIED,
            400: bad_request(invalid_example("suits", "One of 1, 2, 4."), body=False),
        },
    )
    def get(self, request: Request) -> Response:
        suits_raw = request.query_params.get("suits")
        if suits_raw not in ("1", "2", "4"):
            raise ValidationError({"suits": ["One of 1, 2, 4."]})
        suits = int(suits_raw)
        period = request.query_params.get("period", "all")
        if period not in selectors.PERIODS:
            raise ValidationError({"period": [f"One of {', '.join(selectors.PERIODS)}."]})
        asked = page_request(request.query_params)
        page, size = asked.page, asked.page_size
        now = timezone.now()
        start = selectors.period_start(period, now)
        marker = selectors.board_marker(suits=suits)
        since = start.date().isoformat() if start else "all"
        key = f"lb:{suits}:{period}:{since}:{page}:{size}:{marker}"
        return _cached_board(
            request,
            key,
            lambda: _page_json(
                selectors.leaderboard_page(
                    suits=suits, period=period, page=page, page_size=size, now=now
                )
            ),
            BOARD_CACHE_SECONDS,
        )


def _challenge(day: date) -> Any:
    """The challenge of ``day`` for a reader. A GET never makes one (the worker makes each a day
    ahead; POST /daily/play at most): today's, if missing, is a quick 503 and a request for it.
    Tomorrow's shows once made (its commitment is published ahead of time)."""
    today = timezone.now().date()
    challenge = selectors.challenge_on(day=day)
    if challenge is not None:
        return challenge
    if day > today:
        raise DomainError("future_date", f"The challenge of {day} is not published yet.", 404)
    if day < today:
        raise DomainError("no_challenge", f"There was no challenge on {day}.", 404)
    services.daily_request(day=day)
    raise services.DailyNotReady()


DAILY_NOT_READY = OpenApiResponse(
    RetryErrorSerializer,
    "`daily_not_ready`: today's challenge is not made yet (the worker makes each a day ahead); "
    "it has been asked for. Or `database_unavailable`. Retry after `retry_after` seconds (also "
    "the `Retry-After` header).",
    examples=[
        error_example(
            "daily_not_ready", services.DailyNotReady.detail, retry_after=DAILY_RETRY_AFTER
        )
    ],
)


class DailyApi(APIView):
    permission_classes = (AllowAny,)

    @extend_schema(
        operation_id="daily_read",
        tags=["daily"],
        summary="The daily challenge",
        description="Today's 2-suit challenge (or `?date=YYYY-MM-DD` for a past one, or "
        "tomorrow's, whose commitment is published ahead of time): the SHA-256 commitment to "
        "its seed, and once the day has closed the seed and nonce, so anyone can verify "
        "`sha256('spider-daily:v1:<date>:<suits>:<deal_version>:<seed>:<nonce>')`. With a "
        "token, your own attempt too.",
        parameters=[
            OpenApiParameter(
                "date",
                {"type": "string", "format": "date"},
                required=False,
                description="YYYY-MM-DD (UTC); today when omitted.",
            )
        ],
        responses={
            200: DailySerializer,
            400: error_response(
                "The date is not a date.", "bad_date", "'2026-13-01' is not a date: use YYYY-MM-DD."
            ),
            404: NO_CHALLENGE,
            503: DAILY_NOT_READY,
        },
    )
    def get(self, request: Request) -> Response:
        raw = request.query_params.get("date")
        day = _date_param(raw) if raw else timezone.now().date()
        challenge = _challenge(day)
        return Response(
            selectors.daily_info(challenge=challenge, viewer=request.user, now=timezone.now())
        )


class DailyPlayApi(APIView):
    throttle_scope = "game_create"

    class InputSerializer(serializers.Serializer):
        unranked = serializers.BooleanField(
            required=False, default=False, help_text="Play again after your ranked attempt."
        )

    @extend_schema(
        operation_id="daily_play",
        tags=["daily"],
        summary="Play today's challenge",
        description="Your game on today's deal: the daily game you have in progress, else your "
        "one ranked attempt, else (with `unranked: true`) a practice game that does not rank. "
        "It does not end your casual game. 201 when a game was created, 200 when resumed. "
        "Hints are allowed and do not cost the ranking; they show on your leaderboard entry.",
        request=InputSerializer,
        responses={
            200: OpenApiResponse(GameStateSerializer, "Your daily game in progress."),
            201: OpenApiResponse(GameStateSerializer, "A new daily game."),
            400: bad_request(invalid_example("unranked", "Must be a valid boolean.")),
            503: POOL_EMPTY,
            409: error_response(
                "The ranked attempt is used.", "daily_already_played", "Send unranked: true."
            ),
        },
    )
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        day = timezone.now().date()
        game, created = services.daily_play(
            player=request.user, day=day, unranked=serializer.validated_data["unranked"]
        )
        return Response(game_state(game), status=201 if created else 200)


class DailyLeaderboardApi(_PublicBoardApi):
    @extend_schema(
        operation_id="daily_leaderboard",
        tags=["daily"],
        summary="A day's leaderboard",
        description="Ranked wins on that day's challenge, finished before the day closed: by "
        "score, then time, then finish time.",
        parameters=[
            OpenApiParameter("day", {"type": "string", "format": "date"}, OpenApiParameter.PATH),
            *BOARD_PARAMETERS,
        ],
        responses={
            200: BoardSerializer,
            304: NOT_MODIFIED,
            400: OpenApiResponse(
                ValidationErrorSerializer,
                "The day is not a date (`bad_date`) or a page parameter is wrong (`invalid`).",
                examples=[
                    error_example("bad_date", "'2026-13-01' is not a date: use YYYY-MM-DD."),
                    invalid_example("page_size", "A whole number 1..100."),
                ],
            ),
            404: NO_CHALLENGE,
            503: DAILY_NOT_READY,
        },
    )
    def get(self, request: Request, day: str) -> Response:
        parsed = _date_param(day)
        challenge = _challenge(parsed)
        asked = page_request(request.query_params)
        page, size = asked.page, asked.page_size
        # A closed day's board can no longer change: no marker query, and a long cache.
        closed = daily_closed(challenge.date)
        marker = "closed" if closed else selectors.board_marker(day=challenge.date)
        key = f"daily:{challenge.date}:{page}:{size}:{marker}"
        return _cached_board(
            request,
            key,
            lambda: _page_json(
                selectors.daily_leaderboard_page(day=challenge.date, page=page, page_size=size)
            ),
            CLOSED_BOARD_CACHE_SECONDS if closed else BOARD_CACHE_SECONDS,
        )


class GamePlacesApi(_PublicBoardApi):
    @extend_schema(
        operation_id="leaderboard_game",
        tags=["leaderboard"],
        summary="A ranked win's places",
        description="Where a ranked win stands now on its suit mode's board (all time, today, "
        "this week, this month) and on its day's daily board. 404 if the game is not on a "
        "leaderboard (not won, not ranked, or no such game).",
        responses={200: GamePlacesSerializer, 404: NOT_FOUND},
    )
    def get(self, request: Request, game_id: str) -> Response:
        entry = selectors.entry_of_game(game_id=game_id)
        if entry is None:
            raise DomainError("not_found", "That game is not on a leaderboard.", 404)
        return Response(selectors.entry_places(entry=entry, now=timezone.now()))


class PlayerPlacesApi(_PublicBoardApi):
    @extend_schema(
        operation_id="players_places",
        tags=["players"],
        summary="A player's best leaderboard places",
        description="Per suit mode, the all-time place of the player's best ranked win; and "
        "their best place on a daily board.",
        responses={200: PlayerPlacesSerializer, 404: NOT_FOUND},
    )
    def get(self, request: Request, username: str) -> Response:
        player = player_by_username(username=username)
        places = selectors.player_best_places(player_id=player.pk)
        return Response({"username": player.username, **places})
