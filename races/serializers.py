"""Input validation and the documented shapes of tables, races and events (the answers are
built as plain dicts in races/presenters.py; a test checks real answers against these)."""

from __future__ import annotations

from typing import Any, ClassVar

from drf_spectacular.utils import PolymorphicProxySerializer
from rest_framework import serializers

from base.serializers import JsonInputSerializer
from games.serializers import DEAL_OVER_GAP_HELP, SeedField, StrictIntegerField, SuitsField
from races.events import EventKind

MAX_TIME_LIMIT_S = 3600
# Choice sets named once (SPECTACULAR_SETTINGS["ENUM_NAME_OVERRIDES"]).
TABLE_STATUSES = ["open", "countdown", "racing", "finished"]
RACE_STATUSES = ["countdown", "racing", "finished"]
RACE_END_REASONS = ["won", "time", "draw", "last_left"]
OUT_REASONS = ["resigned", "gone"]
DRAW_DECLINED_REASONS = ["declined", "action"]


# -- input ----------------------------------------------------------------------------------
class TableOpenSerializer(JsonInputSerializer):
    suits = SuitsField()
    time_limit_s = StrictIntegerField(
        required=False,
        allow_null=True,
        min_value=60,
        max_value=MAX_TIME_LIMIT_S,
        help_text="A race against the clock: 60..3600 seconds (1 to 60 minutes). Omitted or "
        "null: no limit.",
    )
    seed = SeedField(required=False, help_text="Staff only: every race here deals this seed.")
    layout = serializers.JSONField(
        required=False,
        help_text='Staff only: every race here starts from this layout: {"columns": '
        '[{"down": [...], "up": [...]} x10], "stock": [...]}.',
    )
    deal_over_gap = serializers.BooleanField(
        required=False, default=False, help_text=DEAL_OVER_GAP_HELP + " Off when omitted."
    )
    # What validate() refuses: a seed and a layout both.
    schema_rules: ClassVar[dict[str, Any]] = {
        "properties": {"layout": {"type": "object", "additionalProperties": True}},
        "not": {"required": ["seed", "layout"]},
    }

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "seed" in attrs and "layout" in attrs:
            raise serializers.ValidationError("Give at most one of seed, layout.")
        return attrs


class TableSettingsSerializer(TableOpenSerializer):
    seed = None  # type: ignore[assignment]
    layout = None  # type: ignore[assignment]
    schema_rules: ClassVar[dict[str, Any]] = {}


class SitSerializer(JsonInputSerializer):
    seat = StrictIntegerField(
        required=False, min_value=0, max_value=3, help_text="0..3; omitted: the first free."
    )


class DrawSerializer(JsonInputSerializer):
    accept = serializers.BooleanField(
        help_text="true: offer a draw, or accept the one on offer; false: decline it."
    )


# -- tables ---------------------------------------------------------------------------------
class ScoreSerializer(serializers.Serializer):
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()


class SeatSerializer(serializers.Serializer):
    seat = serializers.IntegerField(help_text="0..3.")
    player = serializers.CharField()
    ready = serializers.BooleanField()
    connected = serializers.BooleanField(help_text="Holding the table's event stream open.")
    score = ScoreSerializer(help_text="The match score at this table.")


class CountsSerializer(serializers.Serializer):
    runs_removed = serializers.IntegerField()
    turned = serializers.IntegerField(help_text="Face-down cards turned face up so far.")
    moves = serializers.IntegerField()
    deals = serializers.IntegerField()
    actions = serializers.IntegerField(help_text="Moves plus deals (no undo in a race).")
    score = serializers.IntegerField()


class RacerSerializer(CountsSerializer):
    seat = serializers.IntegerField()
    player = serializers.CharField()
    state = serializers.ChoiceField(choices=["racing", "out", "won", "lost", "draw"])
    out_reason = serializers.ChoiceField(choices=OUT_REASONS, allow_null=True)
    connected = serializers.BooleanField()
    game = serializers.UUIDField(
        help_text="The racer's own Game (kind `race`): only its player can read it while the "
        "race runs; everyone once it is over."
    )


class LaidOpenDealSerializer(serializers.Serializer):
    suits = SuitsField()
    seed = serializers.CharField(allow_null=True, help_text="Decimal string (64-bit).")
    deal_version = serializers.IntegerField()
    vetted = serializers.BooleanField()
    layout = serializers.CharField(help_text="The starting position, every card, one line.")


class LaidOpenTableSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.CharField()
    game = serializers.UUIDField()
    position = serializers.CharField(help_text="The final position, every card, one line.")
    log = serializers.ListField(
        child=serializers.DictField(),
        help_text="The racer's action log, as GET /games/{id}/actions.",
    )


class LaidOpenSerializer(serializers.Serializer):
    deal = LaidOpenDealSerializer()
    tables = LaidOpenTableSerializer(many=True)


class RaceSerializer(serializers.Serializer):
    number = serializers.IntegerField(help_text="1, 2, ... at this table.")
    status = serializers.ChoiceField(choices=RACE_STATUSES)
    suits = SuitsField()
    time_limit_s = serializers.IntegerField(allow_null=True)
    deal_over_gap = serializers.BooleanField(help_text=DEAL_OVER_GAP_HELP)
    starts_at = serializers.DateTimeField(help_text="The cards turn over for all at once.")
    ends_at = serializers.DateTimeField(allow_null=True, help_text="The time limit, if any.")
    finished_at = serializers.DateTimeField(allow_null=True)
    result = serializers.ChoiceField(choices=["won", "draw"], allow_null=True)
    end_reason = serializers.ChoiceField(choices=RACE_END_REASONS, allow_null=True)
    winner = serializers.CharField(allow_null=True)
    draw_offer = serializers.DictField(
        child=serializers.ListField(child=serializers.CharField()),
        allow_null=True,
        help_text='{"accepted": [players]}: a draw on offer and who has accepted it.',
    )
    racers = RacerSerializer(many=True)
    laid_open = LaidOpenSerializer(
        allow_null=True, help_text="Once the race is over: every table, every log, the seed."
    )


class MatchSerializer(serializers.Serializer):
    wins = serializers.DictField(child=serializers.IntegerField(), help_text="player -> wins")
    draws = serializers.DictField(child=serializers.IntegerField(), help_text="player -> draws")


class TableSerializer(serializers.Serializer):
    code = serializers.CharField(help_text="The invite code.")
    suits = SuitsField()
    time_limit_s = serializers.IntegerField(allow_null=True)
    deal_over_gap = serializers.BooleanField(
        help_text="Its races' table rule. " + DEAL_OVER_GAP_HELP
    )
    opener = serializers.CharField()
    status = serializers.ChoiceField(choices=TABLE_STATUSES)
    seq = serializers.IntegerField(help_text="The table's last event: resume its stream here.")
    staff_deal = serializers.BooleanField(help_text="Staff chose the deal (seed or layout).")
    seats = SeatSerializer(many=True)
    watchers = serializers.IntegerField(help_text="Others holding the stream open.")
    race = RaceSerializer(allow_null=True, help_text="The current or last race.")
    match = MatchSerializer()


class TicketSerializer(serializers.Serializer):
    ticket = serializers.CharField()
    expires_at = serializers.DateTimeField()
    events_url = serializers.CharField(help_text="The stream's path with the ticket: one use.")


class RaceModeStatsSerializer(serializers.Serializer):
    suits = SuitsField()
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    draws = serializers.IntegerField()
    losses = serializers.IntegerField()


class PlayerRacesSerializer(serializers.Serializer):
    username = serializers.CharField()
    races = RaceModeStatsSerializer(many=True)


# -- events ---------------------------------------------------------------------------------
class SeatDataSerializer(serializers.Serializer):
    seat = serializers.IntegerField()
    player = serializers.CharField()


class ReadyDataSerializer(SeatDataSerializer):
    ready = serializers.BooleanField()


class SettingsDataSerializer(serializers.Serializer):
    suits = SuitsField()
    time_limit_s = serializers.IntegerField(allow_null=True)
    deal_over_gap = serializers.BooleanField()


class AgainDataSerializer(serializers.Serializer):
    seats = SeatDataSerializer(many=True, help_text="The seats after rotating by one.")


class CountdownRacerSerializer(SeatDataSerializer):
    game = serializers.UUIDField()


class CountdownDataSerializer(serializers.Serializer):
    race = serializers.IntegerField()
    suits = SuitsField()
    time_limit_s = serializers.IntegerField(allow_null=True)
    deal_over_gap = serializers.BooleanField()
    starts_at = serializers.DateTimeField()
    ends_at = serializers.DateTimeField(allow_null=True)
    racers = CountdownRacerSerializer(many=True)


class StartedDataSerializer(serializers.Serializer):
    race = serializers.IntegerField()
    started_at = serializers.DateTimeField()


class ProgressDataSerializer(SeatDataSerializer, CountsSerializer):
    pass


class DrawOfferedDataSerializer(SeatDataSerializer):
    accepted = serializers.ListField(child=serializers.CharField())


class DrawDeclinedDataSerializer(SeatDataSerializer):
    reason = serializers.ChoiceField(
        choices=DRAW_DECLINED_REASONS, help_text="`action`: a racer played on."
    )


class OutDataSerializer(SeatDataSerializer):
    reason = serializers.ChoiceField(choices=OUT_REASONS)


class FinishedDataSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    result = serializers.ChoiceField(choices=["won", "draw"], allow_null=True)
    end_reason = serializers.ChoiceField(choices=RACE_END_REASONS)
    winner = serializers.CharField(allow_null=True)
    finished_at = serializers.DateTimeField()
    racers = RacerSerializer(many=True)
    laid_open = LaidOpenSerializer()


EVENT_DATA: dict[EventKind, type[serializers.Serializer] | serializers.Serializer] = {
    EventKind.TABLE: TableSerializer,
    EventKind.SEATED: SeatDataSerializer,
    EventKind.STOOD: SeatDataSerializer,
    EventKind.READY: ReadyDataSerializer,
    EventKind.SETTINGS: SettingsDataSerializer,
    EventKind.COUNTDOWN: CountdownDataSerializer,
    EventKind.STARTED: StartedDataSerializer,
    EventKind.PROGRESS: ProgressDataSerializer,
    EventKind.DRAW_OFFERED: DrawOfferedDataSerializer,
    EventKind.DRAW_DECLINED: DrawDeclinedDataSerializer,
    EventKind.GONE: SeatDataSerializer,
    EventKind.BACK: SeatDataSerializer,
    EventKind.OUT: OutDataSerializer,
    EventKind.FINISHED: FinishedDataSerializer,
    EventKind.AGAIN: AgainDataSerializer,
}


def _envelope(kind: EventKind, data: Any) -> type[serializers.Serializer]:
    name = "".join(part.title() for part in kind.value.split("_")) + "EventSerializer"
    fields = {
        "seq": serializers.IntegerField(help_text="The table's sequence number (SSE `id`)."),
        "event": serializers.ChoiceField(choices=[kind.value]),
        "at": serializers.DateTimeField(),
        "data": data(),
    }
    return type(name, (serializers.Serializer,), fields)


RaceEventSerializer = PolymorphicProxySerializer(
    component_name="RaceEvent",
    serializers={kind.value: _envelope(kind, data) for kind, data in EVENT_DATA.items()},
    resource_type_field_name="event",
)
