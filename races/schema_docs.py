"""The OpenAPI description of the race endpoints (races/views.py): each view's operations,
their answers and examples. Each function reads the serializers off the view class it
decorates."""

from __future__ import annotations

from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
)

from base.errors import DomainError
from base.openapi import (
    NOT_FOUND,
    ErrorSerializer,
    RetryErrorSerializer,
    ValidationErrorSerializer,
    View,
    code_examples,
    error_example,
    invalid_example,
)
from games.errors import LAYOUT_CODES
from games.serializers import POOL_EMPTY
from races.errors import NoRace, NotRacing, NotReady, RaceNotStarted, TableBusy
from races.serializers import RaceEventSerializer, TableSerializer

TAGS = ["races"]

UNKNOWN_CODE = OpenApiResponse(
    ErrorSerializer,
    "`not_found`: no table has this invite code.",
    examples=[error_example("not_found", "No table has this invite code.")],
)


def _errors(description: str, *codes: tuple[str, str] | type[DomainError]) -> OpenApiResponse:
    """An error answer with one example per code: (code, detail), or the error class raised."""
    examples = [
        error_example(c.code, c.detail) if isinstance(c, type) else error_example(*c) for c in codes
    ]
    return OpenApiResponse(ErrorSerializer, description, examples=examples)


# A staff layout the engine refuses (races.services._layout, games.errors.LAYOUT_CODES): when
# the table opens, and when a race deals it.
LAYOUT_REFUSED = OpenApiResponse(
    ValidationErrorSerializer,
    "A field is wrong (`invalid`, see `errors`), the body is not JSON (`malformed_json`, "
    "`json_too_deep`), or a staff layout is refused (`bad_layout`, `bad_card`, `bad_suits`).",
    examples=[
        invalid_example("suits", "Choose 1, 2 or 4."),
        invalid_example("deal_over_gap", "Must be a valid boolean."),
        *code_examples(*LAYOUT_CODES),
    ],
)

LAYOUT_DEALT_REFUSED = OpenApiResponse(
    ValidationErrorSerializer,
    "The table's staff layout is refused (`bad_layout`, `bad_card`, `bad_suits`), or a body "
    "sent is not JSON (`malformed_json`, `json_too_deep`).",
    examples=code_examples(*LAYOUT_CODES),
)

TABLE_BUSY = ("table_busy", "A race is on at this table: wait until it is over.")

SEAT_ERRORS = _errors(
    "`not_seated`, `table_busy`.", ("not_seated", "You are not seated at this table."), TABLE_BUSY
)

NOT_OPENER = _errors(
    "`not_opener`: only the player who opened the table may do this.",
    ("not_opener", "Only the player who opened the table may do this."),
)


def races(view: View) -> View:
    """The operations of RacesApi."""
    return extend_schema_view(
        post=extend_schema(
            operation_id="races_open",
            tags=TAGS,
            summary="Open a race table",
            description="Opens a table for 2-4 players racing on the same deal; you sit at seat "
            "0. Share `code`: others sit down with it (up to four), anyone else with it watches. "
            "Staff may fix the deal of every race here with `seed` or `layout`. "
            "`deal_over_gap: true` deals its races under GameLake's end game (a deal may go over "
            "empty columns while fewer than ten cards are on the table).",
            request=view.InputSerializer,
            responses={
                201: view.OutputSerializer,
                400: LAYOUT_REFUSED,
                404: UNKNOWN_CODE,  # the table just opened, read back for the answer
                403: _errors(
                    "`staff_only`: seed and layout are for staff.",
                    ("staff_only", "Only staff may choose a seed or a layout."),
                ),
            },
        ),
    )(view)


def race_detail(view: View) -> View:
    """The operations of RaceDetailApi."""
    return extend_schema_view(
        get=extend_schema(
            operation_id="races_read",
            tags=TAGS,
            summary="A race table",
            description="The whole table: seats, the current or last race (each racer's counts, "
            "never their cards; every table laid open once the race is over), the match score. "
            "The same body is the first event (`table`) of the stream.",
            responses={200: view.OutputSerializer, 404: UNKNOWN_CODE},
        ),
    )(view)


def race_sit(view: View) -> View:
    """The operations of RaceSitApi."""
    return extend_schema_view(
        post=extend_schema(
            operation_id="races_sit",
            tags=TAGS,
            summary="Sit down",
            description="Take a seat (the first free one, or `seat`) before the start. Anyone who "
            "comes later watches.",
            request=view.InputSerializer,
            responses={
                200: TableSerializer,
                404: UNKNOWN_CODE,
                409: _errors(
                    "`table_full` (four seated), `already_seated`, `seat_taken`, `table_busy` (a "
                    "race is on).",
                    ("table_full", "All four seats are taken; you may watch."),
                    ("already_seated", "You are already seated at this table."),
                    ("seat_taken", "Seat 2 is taken; free: [1, 3]."),
                    TABLE_BUSY,
                ),
            },
        ),
    )(view)


def race_stand(view: View) -> View:
    """The operations of RaceStandApi."""
    return extend_schema_view(
        post=extend_schema(
            operation_id="races_stand",
            tags=TAGS,
            summary="Stand up",
            description="Leave your seat before the start (your match score at this table goes "
            "with it).",
            request=None,
            responses={200: TableSerializer, 404: UNKNOWN_CODE, 409: SEAT_ERRORS},
        ),
    )(view)


def race_ready(view: View) -> View:
    """The operations of RaceReadyApi."""
    return extend_schema_view(
        post=extend_schema(
            operation_id="races_ready",
            tags=TAGS,
            summary="Ready",
            description="Say you are ready; the opener may start once every other seated player "
            "is.",
            request=None,
            responses={200: TableSerializer, 404: UNKNOWN_CODE, 409: SEAT_ERRORS},
        ),
    )(view)


def race_unready(view: View) -> View:
    """The operations of RaceUnreadyApi."""
    return extend_schema_view(
        post=extend_schema(
            operation_id="races_unready",
            tags=TAGS,
            summary="Not ready",
            description="Take your Ready back.",
            request=None,
            responses={200: TableSerializer, 404: UNKNOWN_CODE, 409: SEAT_ERRORS},
        ),
    )(view)


def race_start(view: View) -> View:
    """The operations of RaceStartApi."""
    return extend_schema_view(
        post=extend_schema(
            operation_id="races_start",
            tags=TAGS,
            summary="Start the race",
            description="The opener starts: needs at least one other seated player, all of them "
            "ready. Deals one solver-vetted deal to everyone seated (each their own game, kind "
            "`race`, in the `countdown` event); the cards turn over for all at `starts_at`, after "
            "a 3 s countdown.",
            request=None,
            responses={
                200: TableSerializer,
                403: NOT_OPENER,
                404: UNKNOWN_CODE,
                409: _errors(
                    "`not_ready` (nobody else seated, or someone not ready), `table_busy`.",
                    (
                        "not_ready",
                        "Start needs at least one other seated player, and every one of them "
                        "ready.",
                    ),
                    TABLE_BUSY,
                ),
                400: LAYOUT_DEALT_REFUSED,
                503: POOL_EMPTY,
            },
        ),
    )(view)


def race_again(view: View) -> View:
    """The operations of RaceAgainApi."""
    return extend_schema_view(
        post=extend_schema(
            operation_id="races_again",
            tags=TAGS,
            summary="Play again",
            description="After a race, the opener deals the next one at once, same settings, same "
            "players: seats rotate by one (0 -> 1, ..., the last -> 0), the match score carries "
            "over.",
            request=None,
            responses={
                200: TableSerializer,
                403: NOT_OPENER,
                404: UNKNOWN_CODE,
                409: _errors(
                    "`table_busy` (no finished race), `not_ready` (fewer than two seated).",
                    TableBusy,
                    NotReady,
                ),
                400: LAYOUT_DEALT_REFUSED,
                503: POOL_EMPTY,
            },
        ),
    )(view)


def race_settings(view: View) -> View:
    """The operations of RaceSettingsApi."""
    return extend_schema_view(
        post=extend_schema(
            operation_id="races_settings",
            tags=TAGS,
            summary="Change the settings",
            description="The opener changes suits, time limit and table rule (`deal_over_gap`) "
            "before a race, or after one "
            "instead of playing again at once: the table opens (players may stand, others sit), "
            "every Ready is cleared.",
            request=view.InputSerializer,
            responses={
                200: TableSerializer,
                403: NOT_OPENER,
                404: UNKNOWN_CODE,
                409: _errors("`table_busy`.", TABLE_BUSY),
            },
        ),
    )(view)


def race_resign(view: View) -> View:
    """The operations of RaceResignApi."""
    return extend_schema_view(
        post=extend_schema(
            operation_id="races_resign",
            tags=TAGS,
            summary="Resign",
            description="You are out and lose; the others race on. Whoever is left alone racing "
            "wins.",
            request=None,
            responses={
                200: TableSerializer,
                404: UNKNOWN_CODE,
                409: _errors(
                    "`no_race` (none running), `race_not_started` (the cards have not turned "
                    "over yet: refused as on `POST /games/{id}/resign`), `not_racing` (not in it, "
                    "or out already).",
                    NoRace,
                    RaceNotStarted,
                    NotRacing,
                ),
            },
        ),
    )(view)


def race_draw(view: View) -> View:
    """The operations of RaceDrawApi."""
    return extend_schema_view(
        post=extend_schema(
            operation_id="races_draw",
            tags=TAGS,
            summary="Offer, accept or decline a draw",
            description="`accept: true` offers a draw (or accepts the one on offer); it is a draw "
            "when every racer still racing has accepted. `accept: false` declines it; so does any "
            "action by a racer before all have accepted (`draw_declined` with reason `action`).",
            request=view.InputSerializer,
            responses={
                200: TableSerializer,
                404: UNKNOWN_CODE,
                409: _errors(
                    "`no_race`, `not_racing`, `no_draw_offer` (declining with none on offer).",
                    NoRace,
                    NotRacing,
                    ("no_draw_offer", "No draw is on offer."),
                ),
            },
        ),
    )(view)


def race_ticket(view: View) -> View:
    """The operations of RaceTicketApi."""
    return extend_schema_view(
        post=extend_schema(
            operation_id="races_ticket",
            tags=TAGS,
            summary="A ticket for the event stream",
            description="A browser's EventSource cannot send `Authorization`: get a ticket here "
            "and "
            "open `events_url` (`?ticket=`). It works once, for this table, within 60 s.",
            request=None,
            responses={201: view.OutputSerializer, 404: UNKNOWN_CODE},
        ),
    )(view)


def race_events(view: View) -> View:
    """The operations of RaceEventsApi."""
    return extend_schema_view(
        get=extend_schema(
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
                400: _errors(
                    "`invalid`: Last-Event-ID / since is not a seq.",
                    ("invalid", "Last-Event-ID / since must be an event's seq (a whole number)."),
                ),
                401: _errors(
                    "`not_authenticated`, `invalid_token`, `invalid_ticket` (unknown, used or "
                    "expired).",
                    ("invalid_ticket", "This stream ticket is unknown, used or expired."),
                ),
                404: UNKNOWN_CODE,
                429: OpenApiResponse(
                    RetryErrorSerializer,
                    "`too_many_streams`: you hold RACE_STREAMS_PER_PLAYER streams open already "
                    "(5); `throttled`: streams opened too often (scope `streams`, shared with "
                    "tickets). Retry after `retry_after` seconds (also `Retry-After`).",
                    examples=[
                        error_example(
                            "too_many_streams",
                            "You hold as many event streams open as a player may; close one first.",
                        ),
                        error_example(
                            "throttled",
                            "Request was throttled. Expected available in 42 seconds.",
                            retry_after=42,
                        ),
                    ],
                ),
            },
        ),
    )(view)


def player_races(view: View) -> View:
    """The operations of PlayerRacesApi."""
    return extend_schema_view(
        get=extend_schema(
            operation_id="players_races",
            tags=["players"],
            summary="A player's race statistics",
            description="Races per suit mode: played, wins, draws, losses. Race games count here, "
            "never in the casual statistics or on the leaderboard.",
            responses={200: view.OutputSerializer, 404: NOT_FOUND},
        ),
    )(view)
