"""Public leaderboards and the daily challenge. Boards need no token and answer with an
``ETag`` (a 304 when unchanged) and a short ``Cache-Control``."""

from __future__ import annotations

import hashlib
import json
from typing import Any

from django.core.cache import cache
from django.utils import timezone
from drf_spectacular.utils import (
    OpenApiExample,
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
)
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.daily import daily_closed
from games.presenters import game_state
from games.selectors import player_by_username
from games.serializers import GameStateSerializer
from leaderboard import selectors, services
from leaderboard.freshness import board_generation
from leaderboard.serializers import (
    BoardFilterSerializer,
    BoardSerializer,
    DailyDaysFilterSerializer,
    DailyDaysSerializer,
    DailyFilterSerializer,
    DailySerializer,
    DayField,
    GamePlacesSerializer,
    PlayerPlacesSerializer,
)
from spider_api.errors import DomainError
from spider_api.openapi import (
    NOT_FOUND,
    RetryErrorSerializer,
    ValidationErrorSerializer,
    bad_request,
    error_example,
    error_response,
    etag_parameters,
    invalid_example,
)
from spider_api.pagination import PAGE_PARAMETERS, page_request
from spider_api.players import player_of
from spider_api.scopes import DAILY_PLAY
from spider_api.serializers import JsonInputSerializer

BOARD_CACHE_SECONDS = 5
CLOSED_BOARD_CACHE_SECONDS = 3600
DAILY_RETRY_AFTER = services.DAILY_RETRY_AFTER_SECONDS


# Boards answer with an ETag; send it back as If-None-Match for a 304 when nothing changed.
BOARD_PARAMETERS = [
    *PAGE_PARAMETERS,
    *etag_parameters("the board", "`public, max-age=N`: the board may be cached that long."),
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
    FilterSerializer = BoardFilterSerializer
    OutputSerializer = BoardSerializer

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
            200: OutputSerializer,
            304: NOT_MODIFIED,
            400: bad_request(invalid_example("suits", "One of 1, 2, 4."), body=False),
        },
    )
    def get(self, request: Request) -> Response:
        # A plain dict: "?period=" is a wrong period, not a missing one (as a QueryDict it is).
        filters = self.FilterSerializer(data=request.query_params.dict())
        filters.is_valid(raise_exception=True)
        suits, period = filters.validated_data["suits"], filters.validated_data["period"]
        asked = page_request(request.query_params)
        page, size = asked.page, asked.page_size
        now = timezone.now()
        start = selectors.period_start(period, now)
        marker = selectors.board_marker(suits=suits)
        since = start.date().isoformat() if start else "all"
        # The UTC day too: a daily win on the board turns public when its day closes.
        key = f"lb:{suits}:{period}:{since}:{now.date().isoformat()}:{page}:{size}:{marker}"
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
    FilterSerializer = DailyFilterSerializer
    OutputSerializer = DailySerializer

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
            200: OutputSerializer,
            400: error_response(
                "The date is not a date (`bad_date`; `?date=` neither: omit it for today).",
                "bad_date",
                "'2026-13-01' is not a date: use YYYY-MM-DD.",
                invalid_example("date", "..."),  # the filter serializer's, for any other field
            ),
            404: NO_CHALLENGE,
            503: DAILY_NOT_READY,
        },
    )
    def get(self, request: Request) -> Response:
        filters = self.FilterSerializer(data=request.query_params.dict())
        filters.is_valid(raise_exception=True)
        day = filters.validated_data.get("date") or timezone.now().date()
        challenge = services.daily_read(day=day)
        return Response(
            selectors.daily_info(challenge=challenge, viewer=request.user, now=timezone.now())
        )


class DailyDaysApi(_PublicBoardApi):
    FilterSerializer = DailyDaysFilterSerializer
    OutputSerializer = DailyDaysSerializer

    @extend_schema(
        operation_id="daily_days",
        tags=["daily"],
        summary="The days that had a challenge",
        description="Only days whose challenge exists, up to today (a day with none is not "
        "listed), between `before` and `after` (both exclusive, both optional). Nearest the "
        "bound first: newest first, except with `after` alone, oldest first (the days just "
        "after it). `closed`: the day is over, its seed revealed and its deal open to practice "
        "(POST /daily/play with its `date`). No token needed.",
        parameters=[
            OpenApiParameter(
                "before",
                {"type": "string", "format": "date"},
                required=False,
                description="Only days before this one (YYYY-MM-DD, UTC).",
            ),
            OpenApiParameter(
                "after",
                {"type": "string", "format": "date"},
                required=False,
                description="Only days after this one (YYYY-MM-DD, UTC).",
            ),
            *PAGE_PARAMETERS,
        ],
        responses={
            200: OpenApiResponse(
                OutputSerializer,
                "A page of days.",
                examples=[
                    OpenApiExample(
                        "days",
                        value={
                            "page": 1,
                            "page_size": 7,
                            "has_next": True,
                            "results": [
                                {"date": "2026-12-01", "suits": 2, "closed": True, "winners": 3},
                                {"date": "2026-11-30", "suits": 2, "closed": True, "winners": 0},
                            ],
                        },
                    )
                ],
            ),
            400: OpenApiResponse(
                ValidationErrorSerializer,
                "A bound is not a date (`bad_date`) or a page parameter is wrong (`invalid`).",
                examples=[
                    error_example("bad_date", "'2026-13-01' is not a date: use YYYY-MM-DD."),
                    invalid_example("page_size", "A whole number 1..100."),
                ],
            ),
        },
    )
    def get(self, request: Request) -> Response:
        filters = self.FilterSerializer(data=request.query_params.dict())
        filters.is_valid(raise_exception=True)
        asked = page_request(request.query_params)
        return Response(
            selectors.daily_days_page(
                before=filters.validated_data.get("before"),
                after=filters.validated_data.get("after"),
                asked=asked,
                now=timezone.now(),
            )
        )


# docs/rules.md#daily-challenge: the same deal for everyone, under the same rules.
STANDARD_RULES_ONLY = "The daily challenge is played under the standard rules: no deal_over_gap."


class DailyPlayApi(APIView):
    required_scopes = (DAILY_PLAY,)
    throttle_scope = "game_create"
    OutputSerializer = GameStateSerializer

    class InputSerializer(JsonInputSerializer):
        unranked = serializers.BooleanField(
            required=False, default=False, help_text="Play again after your ranked attempt."
        )
        date = DayField(
            required=False,
            help_text="A past day (YYYY-MM-DD) whose challenge has closed: practise its deal, "
            "as a casual game that never ranks. Today when omitted.",
        )
        deal_over_gap = serializers.BooleanField(
            required=False,
            default=False,
            help_text="Only false: the daily challenge, and its practice, is played under the "
            "standard rules; true is refused (400).",
        )

        def validate_deal_over_gap(self, value: bool) -> bool:
            if value:
                raise serializers.ValidationError(STANDARD_RULES_ONLY)
            return value

    @extend_schema(
        operation_id="daily_play",
        tags=["daily"],
        summary="Play today's challenge",
        description="Your game on today's deal: the daily game you have in progress, else your "
        "one ranked attempt, else (with `unranked: true`) a practice game that does not rank. "
        "It does not end your casual game. 201 when a game was created, 200 when resumed. "
        "Hints are allowed and do not cost the ranking; they show on your leaderboard entry. "
        "With the `date` of a past day whose challenge has closed: a practice game on that "
        "day's deal, a casual game that never ranks nor earns coins (like any new game it ends "
        "your casual game in progress); always 201.",
        request=InputSerializer,
        responses={
            200: OpenApiResponse(OutputSerializer, "Your daily game in progress."),
            201: OpenApiResponse(OutputSerializer, "A new daily game, or a past day's practice."),
            400: bad_request(
                invalid_example("unranked", "Must be a valid boolean."),
                invalid_example("deal_over_gap", STANDARD_RULES_ONLY),
                error_example("bad_date", "'2026-13-01' is not a date: use YYYY-MM-DD."),
            ),
            404: NO_CHALLENGE,
            503: POOL_EMPTY,
            409: error_response(
                "The ranked attempt is used (`daily_already_played`), or the `date` asked for "
                "is still open (`daily_open`: tomorrow's).",
                "daily_already_played",
                "Send unranked: true.",
                error_example(services.DailyStillOpen.code, services.DailyStillOpen.detail),
            ),
        },
    )
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        today = timezone.now().date()
        day = serializer.validated_data.get("date") or today
        if day != today:
            practice = services.daily_practice(player=player_of(request), day=day)
            return Response(game_state(practice), status=201)
        game, created = services.daily_play(
            player=player_of(request), day=day, unranked=serializer.validated_data["unranked"]
        )
        return Response(game_state(game), status=201 if created else 200)


class DailyLeaderboardApi(_PublicBoardApi):
    OutputSerializer = BoardSerializer

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
            200: OutputSerializer,
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
        parsed = DayField().to_internal_value(day)
        assert parsed is not None  # the path's segment is never empty
        challenge = services.daily_read(day=parsed)
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
    OutputSerializer = GamePlacesSerializer

    @extend_schema(
        operation_id="leaderboard_game",
        tags=["leaderboard"],
        summary="A ranked win's places",
        description="Where a ranked win stands now on its suit mode's board (all time, today, "
        "this week, this month) and on its day's daily board. 404 if the game is not on a "
        "leaderboard (not won, not ranked, or no such game).",
        responses={200: OutputSerializer, 404: NOT_FOUND},
    )
    def get(self, request: Request, game_id: str) -> Response:
        entry = selectors.entry_of_game(game_id=game_id)
        if entry is None:
            raise DomainError("not_found", "That game is not on a leaderboard.", 404)
        return Response(selectors.entry_places(entry=entry, now=timezone.now()))


class PlayerPlacesApi(_PublicBoardApi):
    OutputSerializer = PlayerPlacesSerializer

    @extend_schema(
        operation_id="players_places",
        tags=["players"],
        summary="A player's best leaderboard places",
        description="Per suit mode, the all-time place of the player's best ranked win; and "
        "their best place on a daily board.",
        responses={200: OutputSerializer, 404: NOT_FOUND},
    )
    def get(self, request: Request, username: str) -> Response:
        player = player_by_username(username=username)
        places = selectors.player_best_places(player_id=player.pk)
        return Response({"username": player.username, **places})
