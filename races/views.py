"""Race endpoints. Each view validates, calls one service or selector, and answers the
whole table (the stream, GET /races/{code}/events, is races/stream.py)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from django.conf import settings
from django.utils import timezone
from drf_spectacular.utils import OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from games.presenters import iso
from games.views import POOL_EMPTY
from races import selectors, services
from races.presenters import table_json
from races.serializers import (
    DrawSerializer,
    PlayerRacesSerializer,
    RaceEventSerializer,
    SitSerializer,
    TableOpenSerializer,
    TableSerializer,
    TableSettingsSerializer,
    TicketSerializer,
)
from spider_api.openapi import (
    NOT_FOUND,
    UNAUTHORIZED,
    ErrorSerializer,
    bad_request,
    error_example,
)

TAGS = ["races"]
UNKNOWN_CODE = OpenApiResponse(
    ErrorSerializer,
    "`not_found`: no table has this invite code.",
    examples=[error_example("not_found", "No table has this invite code.")],
)


def _errors(description: str, *codes: tuple[str, str]) -> OpenApiResponse:
    return OpenApiResponse(
        ErrorSerializer, description, examples=[error_example(c, d) for c, d in codes]
    )


TABLE_BUSY = ("table_busy", "A race is on at this table: wait until it is over.")
NOT_OPENER = _errors(
    "`not_opener`: only the player who opened the table may do this.",
    ("not_opener", "Only the player who opened the table may do this."),
)


def _answer(table_code: str, code: int = status.HTTP_200_OK) -> Response:
    table = selectors.table_by_code(code=table_code)
    return Response(table_json(table, timezone.now()), status=code)


class RacesApi(APIView):
    throttle_scope = "game_create"

    @extend_schema(
        operation_id="races_open",
        tags=TAGS,
        summary="Open a race table",
        description="Opens a table for 2-4 players racing on the same deal; you sit at seat "
        "0. Share `code`: others sit down with it (up to four), anyone else with it watches. "
        "Staff may fix the deal of every race here with `seed` or `layout`.",
        request=TableOpenSerializer,
        responses={
            201: TableSerializer,
            400: bad_request(),
            401: UNAUTHORIZED,
            403: _errors("`staff_only`: seed and layout are for staff.", ("staff_only", "...")),
            429: OpenApiResponse(ErrorSerializer, "`throttled`"),
        },
    )
    def post(self, request: Request) -> Response:
        serializer = TableOpenSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        table = services.table_open(
            player=request.user,
            suits=data["suits"],
            time_limit_s=data.get("time_limit_s"),
            seed=data.get("seed"),
            layout=data.get("layout"),
        )
        return _answer(table.code, status.HTTP_201_CREATED)


class RaceDetailApi(APIView):
    @extend_schema(
        operation_id="races_read",
        tags=TAGS,
        summary="A race table",
        description="The whole table: seats, the current or last race (each racer's counts, "
        "never their cards; every table laid open once the race is over), the match score. "
        "The same body is the first event (`table`) of the stream.",
        responses={200: TableSerializer, 401: UNAUTHORIZED, 404: UNKNOWN_CODE},
    )
    def get(self, request: Request, code: str) -> Response:
        # A read writes nothing: the timers fire from the sweep (every stream process each
        # RACE_TICK_SECONDS, and Celery beat's sweep_races), and from any action at the table.
        return _answer(code)


def _command(
    name: str,
    service: Callable[..., Any],
    summary: str,
    description: str,
    errors: dict[int, OpenApiResponse],
    request_serializer: type | None = None,
    extra: dict[int, OpenApiResponse] | None = None,
) -> type[APIView]:
    """A POST /races/{code}/<name> view: validate, call one service, answer the table."""

    @extend_schema(
        operation_id=f"races_{name}",
        tags=TAGS,
        summary=summary,
        description=description,
        request=request_serializer,
        responses={
            200: TableSerializer,
            **({400: bad_request()} if request_serializer else {}),
            401: UNAUTHORIZED,
            404: UNKNOWN_CODE,
            **errors,
            **(extra or {}),
        },
    )
    def post(self: APIView, request: Request, code: str) -> Response:
        kwargs: dict[str, Any] = {}
        if request_serializer is not None:
            serializer = request_serializer(data=request.data)
            serializer.is_valid(raise_exception=True)
            kwargs = dict(serializer.validated_data)
        service(player=request.user, code=code, **kwargs)
        return _answer(code)

    view_name = "Race" + "".join(p.title() for p in name.split("_")) + "Api"
    return type(view_name, (APIView,), {"post": post, "throttle_scope": "actions"})


RaceSitApi = _command(
    "sit",
    services.seat_sit,
    "Sit down",
    "Take a seat (the first free one, or `seat`) before the start. Anyone who comes later watches.",
    {
        409: _errors(
            "`table_full` (four seated), `already_seated`, `seat_taken`, `table_busy` (a race "
            "is on).",
            ("table_full", "All four seats are taken; you may watch."),
            ("already_seated", "You are already seated at this table."),
            TABLE_BUSY,
        )
    },
    SitSerializer,
)
RaceStandApi = _command(
    "stand",
    services.seat_stand,
    "Stand up",
    "Leave your seat before the start (your match score at this table goes with it).",
    {409: _errors("`not_seated`, `table_busy`.", ("not_seated", "..."), TABLE_BUSY)},
)
_READY_ERRORS = {409: _errors("`not_seated`, `table_busy`.", ("not_seated", "..."), TABLE_BUSY)}
RaceReadyApi = _command(
    "ready",
    lambda **kw: services.seat_ready(ready=True, **kw),
    "Ready",
    "Say you are ready; the opener may start once every other seated player is.",
    _READY_ERRORS,
)
RaceUnreadyApi = _command(
    "unready",
    lambda **kw: services.seat_ready(ready=False, **kw),
    "Not ready",
    "Take your Ready back.",
    _READY_ERRORS,
)
RaceStartApi = _command(
    "start",
    services.race_start,
    "Start the race",
    "The opener starts: needs at least one other seated player, all of them ready. Deals one "
    "solver-vetted deal to everyone seated (each their own game, kind `race`, in the "
    "`countdown` event); the cards turn over for all at `starts_at`, after a 3 s countdown.",
    {
        403: NOT_OPENER,
        409: _errors(
            "`not_ready` (nobody else seated, or someone not ready), `table_busy`.",
            (
                "not_ready",
                "Start needs at least one other seated player, and every one of them ready.",
            ),
            TABLE_BUSY,
        ),
    },
    extra={503: POOL_EMPTY},
)
RaceAgainApi = _command(
    "again",
    services.table_again,
    "Play again",
    "After a race, the opener deals the next one at once, same settings, same players: "
    "seats rotate by one (0 -> 1, ..., the last -> 0), the match score carries over.",
    {
        403: NOT_OPENER,
        409: _errors(
            "`table_busy` (no finished race), `not_ready` (fewer than two seated).", TABLE_BUSY
        ),
    },
    extra={503: POOL_EMPTY},
)
RaceSettingsApi = _command(
    "settings",
    services.table_settings,
    "Change the settings",
    "The opener changes suits and time limit before a race, or after one instead of playing "
    "again at once: the table opens (players may stand, others sit), every Ready is cleared.",
    {403: NOT_OPENER, 409: _errors("`table_busy`.", TABLE_BUSY)},
    TableSettingsSerializer,
)
RaceResignApi = _command(
    "resign",
    services.race_resign,
    "Resign",
    "You are out and lose; the others race on. Whoever is left alone racing wins.",
    {
        409: _errors(
            "`no_race` (none running), `not_racing` (not in it, or out already).",
            ("no_race", "No race is running at this table."),
        )
    },
)
RaceDrawApi = _command(
    "draw",
    services.race_draw,
    "Offer, accept or decline a draw",
    "`accept: true` offers a draw (or accepts the one on offer); it is a draw when every "
    "racer still racing has accepted. `accept: false` declines it; so does any action by a "
    "racer before all have accepted (`draw_declined` with reason `action`).",
    {
        409: _errors(
            "`no_race`, `not_racing`, `no_draw_offer` (declining with none on offer).",
            ("no_draw_offer", "No draw is on offer."),
        )
    },
    DrawSerializer,
)


class RaceTicketApi(APIView):
    throttle_scope = "actions"

    @extend_schema(
        operation_id="races_ticket",
        tags=TAGS,
        summary="A ticket for the event stream",
        description="A browser's EventSource cannot send `Authorization`: get a ticket here and "
        "open `events_url` (`?ticket=`). It works once, for this table, within 60 s.",
        request=None,
        responses={201: TicketSerializer, 401: UNAUTHORIZED, 404: UNKNOWN_CODE},
    )
    def post(self, request: Request, code: str) -> Response:
        ticket = services.ticket_issue(player=request.user, code=code)
        body = {
            "ticket": ticket.key,
            "expires_at": iso(ticket.expires_at),
            "events_url": f"{settings.RACE_STREAM_URL}/api/v1/races/{ticket.table.code}"
            f"/events?ticket={ticket.key}",
        }
        return Response(body, status=status.HTTP_201_CREATED)


class RaceEventsApi(APIView):
    """Documentation only: the stream is served by races.stream.race_events (async)."""

    @extend_schema(
        operation_id="races_events",
        tags=TAGS,
        summary="The table's live event stream",
        description="Server-sent events (`text/event-stream`), or one JSON object a line with "
        "`Accept: application/x-ndjson`. The first event is the whole table (`table`, at the "
        "table's `seq`); then every change as a small event: `seated`, `stood`, `ready`, "
        "`settings`, `countdown`, `started`, `progress`, `draw_offered`, `draw_declined`, "
        "`gone`, `back`, `out`, `finished` (results, every table laid open, the seed), "
        "`again`. Each carries the table's `seq` (the SSE `id`), contiguous from 1. "
        "Reconnect with `Last-Event-ID: <seq>` (or `?since=<seq>`): every event after it, "
        "from the database, then the live ones: none lost, none twice (no `table` first "
        "then). A keep-alive at least every 15 s (an SSE comment; an empty NDJSON line). "
        "A seated player holding the stream open counts as connected; a racer gone for 60 s "
        "is out. Authenticate with the Bearer header, or `?ticket=` from "
        "`POST /races/{code}/ticket` (browsers).",
        parameters=[
            OpenApiParameter("since", int, required=False, description="Resume after seq."),
            OpenApiParameter("ticket", str, required=False, description="A stream ticket."),
            OpenApiParameter(
                "Last-Event-ID",
                int,
                OpenApiParameter.HEADER,
                required=False,
                description="Resume after this seq (EventSource sends it by itself).",
            ),
        ],
        responses={
            (200, "text/event-stream"): OpenApiResponse(
                RaceEventSerializer, "`id: <seq>` and `data: <event>` per event."
            ),
            (200, "application/x-ndjson"): OpenApiResponse(
                RaceEventSerializer, "One event object a line."
            ),
            400: _errors("`invalid`: Last-Event-ID / since is not a seq.", ("invalid", "...")),
            401: _errors(
                "`not_authenticated`, `invalid_token`, `invalid_ticket` (unknown, used or "
                "expired).",
                ("invalid_ticket", "This stream ticket is unknown, used or expired."),
            ),
            404: UNKNOWN_CODE,
        },
    )
    def get(self, request: Request, code: str) -> Response:  # pragma: no cover
        raise NotImplementedError


class PlayerRacesApi(APIView):
    permission_classes = (AllowAny,)

    @extend_schema(
        operation_id="players_races",
        tags=["players"],
        summary="A player's race statistics",
        description="Races per suit mode: played, wins, draws, losses. Race games count here, "
        "never in the casual statistics or on the leaderboard.",
        responses={200: PlayerRacesSerializer, 404: NOT_FOUND},
    )
    def get(self, request: Request, username: str) -> Response:
        return Response(selectors.race_stats(username=username))
