"""Public leaderboards and the daily challenge. Boards need no token and answer with an
``ETag`` (a 304 when unchanged) and a short ``Cache-Control``."""

from __future__ import annotations

import json
from typing import Any, ClassVar

from django.core.cache import cache
from django.utils import timezone
from rest_framework import serializers
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from base.conditional import conditional_answer, strong_etag
from base.errors import DomainError
from base.pagination import page_request
from base.players import player_of
from base.scopes import DAILY_PLAY
from base.serializers import JsonInputSerializer
from games.daily import daily_closed
from games.presenters import game_state
from games.selectors import player_by_username
from games.serializers import GameStateSerializer
from leaderboard import schema_docs, selectors, services
from leaderboard.freshness import board_generation
from leaderboard.player_daily import calendar
from leaderboard.serializers import (
    STANDARD_RULES_ONLY,
    BoardFilterSerializer,
    BoardSerializer,
    CalendarFilterSerializer,
    DailyDaysFilterSerializer,
    DailyDaysSerializer,
    DailyFilterSerializer,
    DailySerializer,
    DayField,
    GamePlacesSerializer,
    PlayerDailySerializer,
    PlayerPlacesSerializer,
)

BOARD_CACHE_SECONDS = 5
CLOSED_BOARD_CACHE_SECONDS = 3600


def _cached_board(request: Request, key: str, build: Any, max_age: int) -> Response:
    """Answer a board: 304 if the client's ETag matches, else from a short cache or built.

    The ETag is a hash of the document itself (its key and body), so it changes whenever the
    board's content does; the cache key adds the generation that deleted entries move on."""
    cache_key = f"{key}:g{board_generation()}"
    cached = cache.get(cache_key)
    if cached is None:
        body = build()
        canonical = json.dumps(body, sort_keys=True, separators=(",", ":"))
        cached = (strong_etag(key, canonical), body)
        cache.set(cache_key, cached, max_age)
    etag, body = cached
    return conditional_answer(request, body, etag=etag, max_age=max_age)


def _page_json(page: selectors.Page) -> dict[str, Any]:
    return {
        "page": page.page,
        "page_size": page.page_size,
        "has_next": page.has_next,
        "results": page.rows,
    }


class _PublicBoardApi(APIView):
    """Boards are public and identical for everyone: no token is read, not even a bad one.
    A few seconds stale is harmless: the standby may serve them (base/replica.py)."""

    authentication_classes = ()
    permission_classes = (AllowAny,)
    reads_from_standby = True


@schema_docs.leaderboard
class LeaderboardApi(_PublicBoardApi):
    FilterSerializer = BoardFilterSerializer
    OutputSerializer = BoardSerializer

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


@schema_docs.daily
class DailyApi(APIView):
    permission_classes = (AllowAny,)
    FilterSerializer = DailyFilterSerializer
    OutputSerializer = DailySerializer

    def get(self, request: Request) -> Response:
        filters = self.FilterSerializer(data=request.query_params.dict())
        filters.is_valid(raise_exception=True)
        day = filters.validated_data.get("date") or timezone.now().date()
        challenge = services.daily_read(day=day)
        return Response(
            selectors.daily_info(challenge=challenge, viewer=request.user, now=timezone.now())
        )


@schema_docs.daily_days
class DailyDaysApi(_PublicBoardApi):
    FilterSerializer = DailyDaysFilterSerializer
    OutputSerializer = DailyDaysSerializer

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


@schema_docs.daily_play
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
        schema_rules: ClassVar[dict[str, Any]] = {"properties": {"deal_over_gap": {"const": False}}}

        def validate_deal_over_gap(self, value: bool) -> bool:
            if value:
                raise serializers.ValidationError(STANDARD_RULES_ONLY)
            return value

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


@schema_docs.daily_leaderboard
class DailyLeaderboardApi(_PublicBoardApi):
    OutputSerializer = BoardSerializer

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


@schema_docs.game_places
class GamePlacesApi(_PublicBoardApi):
    OutputSerializer = GamePlacesSerializer

    def get(self, request: Request, game_id: str) -> Response:
        entry = selectors.entry_of_game(game_id=game_id)
        if entry is None:
            raise DomainError("not_found", "That game is not on a leaderboard.", 404)
        return Response(selectors.entry_places(entry=entry, now=timezone.now()))


@schema_docs.player_daily
class PlayerDailyApi(APIView):
    """Public as a player's statistics are; the player's own open day shows to them alone."""

    permission_classes = (AllowAny,)
    FilterSerializer = CalendarFilterSerializer
    OutputSerializer = PlayerDailySerializer

    def get(self, request: Request, username: str) -> Response:
        filters = self.FilterSerializer(data=request.query_params.dict())
        filters.is_valid(raise_exception=True)
        player = player_by_username(username=username)
        today = timezone.now().date()
        month = filters.validated_data.get("month") or today
        return Response(
            calendar(
                player=player,
                month=month,
                viewer=request.user,
                today=today,
            )
        )


@schema_docs.player_places
class PlayerPlacesApi(_PublicBoardApi):
    OutputSerializer = PlayerPlacesSerializer

    def get(self, request: Request, username: str) -> Response:
        player = player_by_username(username=username)
        places = selectors.player_best_places(player_id=player.pk)
        return Response({"username": player.username, **places})
