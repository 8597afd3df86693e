"""Request validation and the documented shapes of game responses.

Responses are built as plain dicts by presenters.py (cheap on the hot path); the output
serializers here describe those dicts for the OpenAPI schema, and a test checks that real
responses match them.
"""

from __future__ import annotations

import copy
from typing import Any, ClassVar

from drf_spectacular.extensions import OpenApiSerializerFieldExtension
from drf_spectacular.utils import OpenApiResponse, extend_schema_field, extend_schema_serializer
from rest_framework import serializers

from base.openapi import (
    DATABASE_UNAVAILABLE_DETAIL,
    ErrorSerializer,
    RetryErrorSerializer,
    error_example,
)
from base.pagination import page_serializer
from base.serializers import JsonInputSerializer
from coins.serializers import CoinAwardSerializer, CoinSummarySerializer
from games.engine import MAX_SEED, SUIT_MODES
from games.engine.layout import COLUMNS
from games.models import Game

MAX_COUNT = 104
DEAL_OVER_GAP_HELP = (
    "The table rule deal_over_gap (GameLake's end game): a deal may go over empty columns "
    "while fewer than ten cards are on the table. Fixed when the game is dealt."
)
# The engine's suit modes, labelled for the schema (the modes themselves are the engine's).
_SUIT_MODE_LABELS = {1: "one suit: spades", 2: "two suits: spades, hearts", 4: "four suits"}
SUIT_MODE_CHOICES = [(mode, _SUIT_MODE_LABELS[mode]) for mode in SUIT_MODES]
PLAYER_ACTIONS = ["move", "deal", "undo"]  # what a player may send
LOG_ENTRIES = ["move", "deal", "undo", "hint"]  # what the log holds


class StrictIntegerField(serializers.IntegerField):
    """An integer that must arrive as a JSON integer: ``"3"``, ``3.0`` and ``true`` are refused."""

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid")
        return super().to_internal_value(data)


class SuitsField(serializers.ChoiceField):
    """A suit mode, 1, 2 or 4, as a JSON integer (``"2"``, ``2.0`` and ``true`` are refused)."""

    default_error_messages = {"invalid_choice": "Choose 1, 2 or 4."}

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(choices=SUIT_MODE_CHOICES, **kwargs)

    def to_internal_value(self, data: Any) -> Any:  # the int chosen (DRF's stubs say str)
        if isinstance(data, bool) or not isinstance(data, int):
            self.fail("invalid_choice")
        return super().to_internal_value(data)


@extend_schema_field(
    {
        "oneOf": [
            {"type": "integer", "minimum": 0, "maximum": 18446744073709551615},
            {"type": "string", "pattern": "^[0-9]{1,20}$"},
        ]
    }
)
class SeedField(serializers.Field):
    """A 64-bit unsigned seed, as a JSON integer or a string of digits (JavaScript clients
    cannot hold every 64-bit integer exactly)."""

    default_error_messages = {"invalid": "A seed is an integer in 0..18446744073709551615."}

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, str) and data.isascii() and data.isdigit():
            data = int(data)
        if isinstance(data, float) and data.is_integer():
            data = int(data)  # JSON Schema's integer, as base.serializers takes it
        if isinstance(data, bool) or not isinstance(data, int) or not 0 <= data <= MAX_SEED:
            self.fail("invalid")
        return data

    def to_representation(self, value: int) -> str:
        return str(value)


# For serializers with a ``from`` field, declared as ``from_`` (a Python keyword). A comment,
# not a docstring: drf-spectacular would publish a docstring as each model's description.
class FromFieldMixin:
    def get_fields(self) -> dict[str, serializers.Field]:
        fields = super().get_fields()  # type: ignore[misc]
        fields["from"] = fields.pop("from_")
        return fields


# Copies the declared fields shallowly for each instance instead of DRF's deepcopy, which
# rebuilds every field and its validators: two thirds of validating an action. Only for
# serializers of plain scalar fields, which hold no state of their own once bound. (A comment,
# not a docstring: drf-spectacular would publish a docstring as the schema's description.)
class ShallowFieldsMixin:
    def get_fields(self) -> dict[str, serializers.Field]:
        declared = self._declared_fields  # type: ignore[attr-defined]
        return {name: copy.copy(field) for name, field in declared.items()}


# -- requests ---------------------------------------------------------------------------------
class GameCreateSerializer(JsonInputSerializer):
    suits = SuitsField(required=False)
    replay_of = serializers.UUIDField(
        required=False, help_text="Deal the deal of this game (yours, or any finished game) again."
    )
    seed = SeedField(required=False, help_text="Staff only: any 64-bit seed, vetted or not.")
    layout = serializers.JSONField(
        required=False,
        help_text='Staff only: {"columns": [{"down": [...], "up": [...]} x10], "stock": [...]}.',
    )
    deal_over_gap = serializers.BooleanField(
        required=False,
        default=False,
        help_text=DEAL_OVER_GAP_HELP + " Off when omitted, a replay included.",
    )
    # What validate() refuses: neither suits nor replay_of (a replay takes its deal's suits:
    # not both), more than one of replay_of, seed, layout. All under `not`, which client
    # generators pass over: an object-level anyOf makes openapi-python-client drop the model.
    schema_rules: ClassVar[dict[str, Any]] = {
        "properties": {"layout": {"type": "object", "additionalProperties": True}},
        "not": {
            "anyOf": [
                {"not": {"anyOf": [{"required": ["suits"]}, {"required": ["replay_of"]}]}},
                {"required": ["replay_of", "suits"]},
                {"required": ["replay_of", "seed"]},
                {"required": ["replay_of", "layout"]},
                {"required": ["seed", "layout"]},
            ]
        },
    }

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if "replay_of" in attrs and "suits" in attrs:
            raise serializers.ValidationError(
                {"suits": ["A replay takes its deal's suit mode: send replay_of alone."]}
            )
        given = [k for k in ("replay_of", "seed", "layout") if k in attrs]
        if len(given) > 1:
            raise serializers.ValidationError(
                f"Give at most one of replay_of, seed, layout (got {given})."
            )
        if "replay_of" not in attrs and "suits" not in attrs:
            raise serializers.ValidationError({"suits": ["This field is required."]})
        return attrs


class GameFilterSerializer(serializers.Serializer):
    """GET /games's query string (the page is base.pagination's)."""

    status = serializers.ChoiceField(
        choices=Game.Status.values,
        required=False,
        error_messages={"invalid_choice": f"One of {', '.join(Game.Status.values)}."},
    )


@extend_schema_serializer(component_name="Action")  # ActionRequest: the body of games_act
class ActionInputSerializer(FromFieldMixin, ShallowFieldsMixin, JsonInputSerializer):
    type = serializers.ChoiceField(choices=PLAYER_ACTIONS)
    from_ = StrictIntegerField(
        min_value=0, max_value=COLUMNS - 1, required=False, help_text="Move: the source column."
    )
    to = StrictIntegerField(
        min_value=0,
        max_value=COLUMNS - 1,
        required=False,
        allow_null=True,
        help_text="Move: the destination column; omit it and the server picks (one-tap).",
    )
    count = StrictIntegerField(
        min_value=1,
        max_value=MAX_COUNT,
        required=False,
        allow_null=True,
        help_text="Move: how many cards; omit it for the longest movable run that fits.",
    )
    version = StrictIntegerField(
        min_value=0,
        required=False,
        help_text="Apply only if the game is at this version, else 409 `version_conflict`.",
    )
    # What validate() refuses: a move without its source column, a deal or an undo with a
    # column or count (under `not`, as GameCreateSerializer's rules, for client generators).
    schema_rules: ClassVar[dict[str, Any]] = {
        "not": {
            "anyOf": [
                {"properties": {"type": {"const": "move"}}, "not": {"required": ["from"]}},
                {
                    "properties": {"type": {"not": {"const": "move"}}},
                    "anyOf": [
                        {"required": ["from"]},
                        {"properties": {"to": {"type": "integer"}}, "required": ["to"]},
                        {"properties": {"count": {"type": "integer"}}, "required": ["count"]},
                    ],
                },
            ]
        }
    }

    def validate(self, attrs: dict[str, Any]) -> dict[str, Any]:
        if attrs["type"] == "move" and attrs.get("from") is None:
            raise serializers.ValidationError({"from": ["A move needs a source column."]})
        if attrs["type"] != "move" and any(
            attrs.get(k) is not None for k in ("from", "to", "count")
        ):
            raise serializers.ValidationError(f"A {attrs['type']} takes no from, to or count.")
        return attrs


def _int_in(value: Any, low: int, high: int | None) -> bool:
    return type(value) is int and value >= low and (high is None or value <= high)


def action_input_fast(data: Any) -> dict[str, Any] | None:
    """The common, well-formed action body validated without building a serializer: what
    ``ActionInputSerializer`` would return for it, or None to let the serializer judge (and
    word any error). It accepts only a subset of what the serializer accepts (a property test
    holds it to that), so the serializer stays the one statement of the rules of the body.
    Every move, deal and undo passes here: a serializer costs more than the rest of the view.
    """
    if type(data) is not dict:
        return None
    kind = data.get("type")
    version = data.get("version", 0)
    if not _int_in(version, 0, None):
        return None
    if kind == "move":
        if not data.keys() <= _MOVE_KEYS or not _int_in(data.get("from"), 0, COLUMNS - 1):
            return None
        to, count = data.get("to"), data.get("count")
        if (to is not None and not _int_in(to, 0, COLUMNS - 1)) or (
            count is not None and not _int_in(count, 1, MAX_COUNT)
        ):
            return None
    elif kind not in ("deal", "undo") or not data.keys() <= _BARE_KEYS:
        return None
    return dict(data)


_MOVE_KEYS = frozenset(("type", "from", "to", "count", "version"))
_BARE_KEYS = frozenset(("type", "version"))


MAX_HINT_N = 100


class HintAskSerializer(JsonInputSerializer):
    n = StrictIntegerField(
        min_value=0,
        max_value=MAX_HINT_N,
        required=False,
        default=0,
        help_text="Which suggestion: 0 = the best, 1 the next, ...",
    )
    version = StrictIntegerField(
        min_value=0,
        required=False,
        help_text="Ask only if the game is at this version, else 409 `version_conflict`.",
    )


# -- responses (documentation of presenters.py) ---------------------------------------------
class ColumnSerializer(serializers.Serializer):
    hidden = serializers.IntegerField(help_text="Face-down cards: only their number is shown.")
    cards = serializers.ListField(
        child=serializers.CharField(), help_text="Face-up cards bottom to top, e.g. `Ks`, `Th`."
    )


class DealInfoSerializer(serializers.Serializer):
    suits = SuitsField()
    seed = serializers.CharField(allow_null=True, help_text="Decimal string (64-bit).")
    deal_version = serializers.IntegerField()
    vetted = serializers.BooleanField()
    layout = serializers.CharField(
        allow_null=True, help_text="One-line notation of a staff layout."
    )


class GameStateSerializer(serializers.Serializer):
    id = serializers.UUIDField()
    suits = SuitsField()
    kind = serializers.ChoiceField(choices=Game.Kind.choices)
    status = serializers.ChoiceField(choices=Game.Status.choices)
    end_reason = serializers.ChoiceField(choices=Game.EndReason.choices, allow_null=True)
    score = serializers.IntegerField(help_text="max(0, 500 - actions + 100 * runs_removed).")
    actions = serializers.IntegerField(help_text="Moves, deals and undos taken.")
    version = serializers.IntegerField(help_text="Log entries applied; send it back as `version`.")
    undos = serializers.IntegerField()
    hints = serializers.IntegerField()
    runs_removed = serializers.IntegerField()
    removed_suits = serializers.ListField(child=serializers.CharField())
    deals_left = serializers.IntegerField()
    columns = ColumnSerializer(many=True)
    stuck = serializers.BooleanField(help_text="No legal move and no legal deal (undo may help).")
    perfect = serializers.BooleanField(help_text="Won with no undo and no hint.")
    can_undo = serializers.BooleanField()
    ranked = serializers.BooleanField(help_text="Eligible for the public leaderboard.")
    replay_of = serializers.UUIDField(allow_null=True)
    created_at = serializers.DateTimeField()
    started_at = serializers.DateTimeField(allow_null=True, help_text="The first action.")
    finished_at = serializers.DateTimeField(allow_null=True)
    elapsed_ms = serializers.IntegerField(help_text="Server-measured, from the first action.")
    daily = serializers.DateField(allow_null=True)
    deal_over_gap = serializers.BooleanField(help_text=DEAL_OVER_GAP_HELP)
    deal = DealInfoSerializer(allow_null=True, help_text="Revealed once the game is over.")


class TurnedSerializer(serializers.Serializer):
    column = serializers.IntegerField()
    card = serializers.CharField()


class RunSerializer(serializers.Serializer):
    column = serializers.IntegerField()
    suit = serializers.CharField()


class AppliedActionSerializer(FromFieldMixin, serializers.Serializer):
    type = serializers.ChoiceField(choices=PLAYER_ACTIONS)
    from_ = serializers.IntegerField(required=False)
    to = serializers.IntegerField(required=False)
    count = serializers.IntegerField(required=False)


class OutcomeSerializer(serializers.Serializer):
    action = AppliedActionSerializer(help_text="The action as applied (a move fully resolved).")
    turned = TurnedSerializer(many=True, help_text="Cards turned face up.")
    runs_removed = RunSerializer(many=True)
    runs_restored = RunSerializer(many=True, help_text="Runs an undo put back.")
    score_change = serializers.IntegerField()


class ActedGameStateSerializer(GameStateSerializer):
    outcome = OutcomeSerializer()
    coins = CoinAwardSerializer(
        allow_null=True, help_text="Null unless this action won the game: what the win earned."
    )


class GameSummarySerializer(serializers.Serializer):
    id = serializers.UUIDField()
    suits = SuitsField()
    kind = serializers.ChoiceField(choices=Game.Kind.choices)
    status = serializers.ChoiceField(choices=Game.Status.choices)
    end_reason = serializers.ChoiceField(choices=Game.EndReason.choices, allow_null=True)
    score = serializers.IntegerField()
    actions = serializers.IntegerField()
    runs_removed = serializers.IntegerField()
    perfect = serializers.BooleanField()
    created_at = serializers.DateTimeField()
    finished_at = serializers.DateTimeField(allow_null=True)
    elapsed_ms = serializers.IntegerField()
    deal_over_gap = serializers.BooleanField(help_text=DEAL_OVER_GAP_HELP)


GamePageSerializer = page_serializer("GamePage", GameSummarySerializer)


class LogEntrySerializer(FromFieldMixin, serializers.Serializer):
    seq = serializers.IntegerField()
    type = serializers.ChoiceField(choices=LOG_ENTRIES)
    from_ = serializers.IntegerField(required=False)
    to = serializers.IntegerField(required=False)
    count = serializers.IntegerField(required=False)
    n = serializers.IntegerField(required=False, help_text="Hint: the alternative asked for.")
    at = serializers.DateTimeField()


class HintActionField(serializers.DictField):
    """The body of ``POST /games/{id}/actions`` itself (schema: ``ActionRequest``)."""


class HintActionFieldExtension(OpenApiSerializerFieldExtension):
    """Documents a hint's ``action`` as the very component the actions endpoint takes, so a
    generated client can send it back as it is."""

    target_class = HintActionField

    def map_serializer_field(self, auto_schema: Any, direction: str) -> dict[str, Any]:
        return auto_schema.resolve_serializer(ActionInputSerializer, "request").ref


class HintChanceSerializer(serializers.Serializer):
    wins = serializers.FloatField(
        min_value=0.0,
        max_value=1.0,
        help_text="The share of the sampled worlds (ways the face-down cards and the stock may "
        "lie, drawn from the cards not in view) in which playing on from this hint won.",
    )
    sample = serializers.IntegerField(help_text="How many worlds were played.")
    sentence = serializers.CharField(
        help_text="e.g. 'wins about 3 in 10 of the ways the hidden cards may lie'."
    )


class HintSerializer(serializers.Serializer):
    action = HintActionField(
        allow_null=True,
        help_text="Submit it as is to POST /games/{id}/actions (it carries the game's `version`, "
        "so it applies only to the position it was found for); null when nothing is left.",
    )
    reason = serializers.CharField(
        help_text="e.g. 'turns over a hidden card in column 3', 'no useful move: deal'."
    )
    chance = HintChanceSerializer(
        allow_null=True,
        help_text="The hint's chance to win from its rollouts; null where the sample does not "
        "support saying it (too few worlds, or a playout cut short) or at the look-ahead level.",
    )
    n = serializers.IntegerField()
    alternatives = serializers.IntegerField(help_text="Useful suggestions in all (n < this).")
    hints = serializers.IntegerField(help_text="Hints counted on the game so far.")
    version = serializers.IntegerField(help_text="A hint served is logged: the new version.")


# Answered by every endpoint that deals a fresh deal (a game, a race's start).
POOL_EMPTY = OpenApiResponse(
    RetryErrorSerializer,
    "`pool_empty`: no solver-vetted deal is ready for this suit mode (never an unvetted deal), "
    "or `database_unavailable`. Retry after `retry_after` seconds (also the `Retry-After` "
    "header).",
    examples=[
        error_example(
            "pool_empty",
            "No vetted deal is ready for this suit mode yet; retry shortly.",
            retry_after=30,
        ),
        error_example("database_unavailable", DATABASE_UNAVAILABLE_DETAIL, retry_after=5),
    ],
)


class VersionConflictErrorSerializer(ErrorSerializer):
    game = GameStateSerializer(help_text="The game's current state: decide again from it.")


class GameLogSerializer(serializers.Serializer):
    game = serializers.UUIDField()
    deal = DealInfoSerializer(allow_null=True, help_text="Revealed once the game is over.")
    deal_over_gap = serializers.BooleanField(
        help_text="The game's table rule: replay the log under it. " + DEAL_OVER_GAP_HELP
    )
    actions = LogEntrySerializer(many=True)


class BestWinSerializer(serializers.Serializer):
    game = serializers.UUIDField()
    score = serializers.IntegerField()
    actions = serializers.IntegerField()
    elapsed_ms = serializers.IntegerField()
    finished_at = serializers.DateTimeField()
    perfect = serializers.BooleanField()


class ModeStatsSerializer(serializers.Serializer):
    suits = SuitsField()
    played = serializers.IntegerField()
    wins = serializers.IntegerField()
    win_rate = serializers.FloatField()
    current_win_streak = serializers.IntegerField()
    best_win_streak = serializers.IntegerField()
    current_loss_streak = serializers.IntegerField()
    worst_loss_streak = serializers.IntegerField()
    fastest_win_ms = serializers.IntegerField(allow_null=True)
    fewest_actions_win = serializers.IntegerField(allow_null=True)
    best_score = serializers.IntegerField(allow_null=True)
    best_wins = BestWinSerializer(many=True)


class PlayerPublicSerializer(serializers.Serializer):
    username = serializers.CharField()
    stats = ModeStatsSerializer(many=True)
    coins = CoinSummarySerializer(help_text="Balance and today's (UTC) earnings.")


class PositionSerializer(serializers.Serializer):
    game = serializers.UUIDField()
    step = serializers.IntegerField(help_text="Log entries applied (0: the starting position).")
    steps = serializers.IntegerField(help_text="Entries in the whole log.")
    action = LogEntrySerializer(allow_null=True, help_text="The entry that led here (step >= 1).")
    columns = ColumnSerializer(many=True)
    deals_left = serializers.IntegerField()
    runs_removed = serializers.IntegerField()
    removed_suits = serializers.ListField(child=serializers.CharField())
    score = serializers.IntegerField()
    actions = serializers.IntegerField()
    won = serializers.BooleanField()
    deal_over_gap = serializers.BooleanField(help_text=DEAL_OVER_GAP_HELP)


# -- the post-game analysis (games/solver/analysis.py builds the dict) -----------------------
class AnalysisVerdictSerializer(serializers.Serializer):
    index = serializers.IntegerField(help_text="The position's index in the final line.")
    position = serializers.CharField(help_text="The position in the one-line notation.")
    nodes = serializers.IntegerField(help_text="Positions the solver searched from it.")
    exhaustive = serializers.BooleanField(
        help_text="True: every reachable position was searched and none wins (proved lost). "
        "False: no win was found within `nodes`; there may still be one."
    )


class TurningPointSerializer(serializers.Serializer):
    index = serializers.IntegerField(help_text="The action's index in the final line (0-based).")
    seq = serializers.IntegerField(help_text="Its log entry (1-based, as in the game's log).")
    step = serializers.IntegerField(
        help_text="The replay step showing the position it was played from "
        "(`/games/{id}/positions/{step}`): `seq - 1`."
    )
    position = serializers.CharField(help_text="The last position a win was found from.")
    action = AppliedActionSerializer(help_text="The action the player took there.")
    after = AnalysisVerdictSerializer(help_text="The position it led to: no win found.")


class LinePositionSerializer(serializers.Serializer):
    columns = ColumnSerializer(many=True)
    deals_left = serializers.IntegerField()
    runs_removed = serializers.IntegerField()
    removed_suits = serializers.ListField(child=serializers.CharField())
    won = serializers.BooleanField()


class SolverLineSerializer(serializers.Serializer):
    from_index = serializers.IntegerField(help_text="The final line's position it starts from.")
    from_seq = serializers.IntegerField(help_text="The replay step of that position.")
    position = serializers.CharField()
    length = serializers.IntegerField()
    actions = AppliedActionSerializer(many=True, help_text="Replayed through the engine: a win.")
    positions = LinePositionSerializer(
        many=True,
        help_text="The tables along the line, for stepping through it: its `position`, then "
        "the table after each action (`length + 1`; the last is won). Face-down cards as "
        "counts, as in the replay's positions.",
    )


class AnalysisBudgetSerializer(serializers.Serializer):
    probe_nodes = serializers.IntegerField(
        help_text="Solver positions per position searched (the position after the turning "
        "point may be searched again with up to twice as many)."
    )
    total_nodes = serializers.IntegerField(help_text="The whole analysis's bound.")
    proof_nodes = serializers.IntegerField(help_text="The exhaustive search's bound.")


class AnalysisProbeSerializer(serializers.Serializer):
    index = serializers.IntegerField()
    won = serializers.BooleanField(help_text="A win was found from this position.")
    nodes = serializers.IntegerField(help_text="Solver positions spent on it, every search.")
    exhaustive = serializers.BooleanField()
    inferred = serializers.BooleanField(
        help_text="Known without a search: a win found earlier (or the deal's vetted line) "
        "still wins from here."
    )


class LinePlaceSerializer(serializers.Serializer):
    index = serializers.IntegerField(
        help_text="The position's index in the final line (0-based; `line_length`: the end)."
    )
    step = serializers.IntegerField(
        help_text="The replay step showing it (`/games/{id}/positions/{step}`)."
    )
    position = serializers.CharField()


# -- the move review (games/solver/review.py builds the dict): an estimate, never a claim --
class ChanceSerializer(serializers.Serializer):
    share = serializers.FloatField(
        allow_null=True,
        help_text="Estimate: the share of the decided worlds (ways the hidden cards could "
        "lie) from which a win exists. Null when none was decided.",
    )
    won = serializers.IntegerField(help_text="Worlds the solver won (a win replayed).")
    lost = serializers.IntegerField(help_text="Worlds searched through with no win.")
    undecided = serializers.IntegerField(
        help_text="Worlds the budget did not decide: counted neither won nor lost."
    )
    sample = serializers.IntegerField(help_text="Worlds drawn: `won + lost + undecided`.")


class ReviewPlaceSerializer(serializers.Serializer):
    index = serializers.IntegerField(help_text="The position's index in the final line.")
    step = serializers.IntegerField(
        help_text="The replay step showing it (`/games/{id}/positions/{step}`)."
    )


class ReviewPointSerializer(ReviewPlaceSerializer):
    chance = ChanceSerializer(help_text="Estimate: the chance from this position.")


class BetterMoveSerializer(serializers.Serializer):
    action = AppliedActionSerializer()
    words = serializers.CharField(help_text='In a player\'s words: "moving the 7♥ to the 8♠".')


class ReviewedMoveSerializer(ReviewPlaceSerializer):
    action = AppliedActionSerializer(help_text="The action played.")
    words = serializers.CharField(help_text="The action played, in a player's words.")
    chance_before = ChanceSerializer(help_text="Estimate: the chance before it.")
    chance_after = ChanceSerializer(
        help_text="Estimate: the chance after it, in the same worlds as `chance_before`."
    )
    chance_best = ChanceSerializer(
        help_text="Estimate: the chance after the best of the moves weighed (the hints' "
        "first few and the one played), in the same worlds."
    )
    better = BetterMoveSerializer(
        allow_null=True, help_text="The best move weighed, when it was not the one played."
    )
    drop = serializers.FloatField(
        allow_null=True,
        help_text="`chance_best.share - chance_after.share`; null when too few worlds were "
        "decided to read either.",
    )
    grade = serializers.ChoiceField(
        choices=["inaccuracy", "mistake", "blunder"],
        allow_null=True,
        help_text="By the drop (0.1, 0.2, 0.3), only where the sample tells the two moves "
        "apart (docs/rules.md#the-move-review); null otherwise.",
    )
    sentence = serializers.CharField(help_text="The review of this move in a player's words.")


class ReviewBudgetSerializer(serializers.Serializer):
    sample = serializers.IntegerField(help_text="Worlds drawn per position.")
    world_search_nodes = serializers.IntegerField()
    world_proof_nodes = serializers.IntegerField()
    total_nodes = serializers.IntegerField()
    max_seconds = serializers.FloatField(help_text="The CPU cap (at most 60).")


class MoveReviewSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    claim = serializers.ChoiceField(
        choices=["estimate"],
        help_text="Always `estimate`: judged by the cards in view, not the real ones.",
    )
    budget = ReviewBudgetSerializer()
    chances = ReviewPointSerializer(
        many=True, help_text="The chance over the game (the graph), positions in order."
    )
    moves = ReviewedMoveSerializer(many=True, help_text="The actions reviewed, in order.")
    reviewed = serializers.IntegerField()
    actions = serializers.IntegerField(help_text="Actions of the final line.")
    complete = serializers.BooleanField(help_text="Every action of the final line reviewed.")
    cut = serializers.ChoiceField(
        choices=["nodes", "seconds"],
        allow_null=True,
        help_text="What ended the review early: its node budget or its CPU cap.",
    )
    nodes = serializers.IntegerField()
    seconds = serializers.FloatField(help_text="CPU seconds.")


class AnalysisResultSerializer(serializers.Serializer):
    version = serializers.IntegerField()
    outcome = serializers.ChoiceField(choices=["won", "lost"])
    line_length = serializers.IntegerField(help_text="Actions of the final line (undone ones out).")
    log_length = serializers.IntegerField()
    undone = serializers.IntegerField(help_text="Actions an undo took back.")
    par = serializers.IntegerField(allow_null=True, help_text="The deal's par, if vetted.")
    length = serializers.IntegerField(required=False, help_text="A won game: its line's length.")
    over_par = serializers.IntegerField(
        required=False, allow_null=True, help_text="A won game: its length minus the par."
    )
    start_winnable = serializers.BooleanField()
    start = AnalysisVerdictSerializer(
        required=False, help_text="No win found from the start: what was searched."
    )
    winnable_actions = serializers.IntegerField(
        help_text="Actions of the final line after which a win was still found."
    )
    winnable_at_end = serializers.BooleanField(
        help_text="The game was won, or given up while a win was still found."
    )
    last_win = LinePlaceSerializer(
        allow_null=True,
        help_text="Certain: the last position of the final line the solver found a win from "
        "(the win was replayed through the engine), so every position before it could be won "
        "too. Null when none was found, not even from the deal.",
    )
    proved_loss = LinePlaceSerializer(
        allow_null=True,
        help_text="Certain: the first position proved lost (an exhaustive search found no "
        "win from it, so none from any later one). Null when no loss was proved.",
    )
    unsettled = serializers.IntegerField(
        help_text="Positions between `last_win` and `proved_loss` (or the end) that the "
        "budget did not settle either way: 0 when they meet."
    )
    turning_point = TurningPointSerializer(
        allow_null=True,
        help_text="Named only where the two meet: the action played from `last_win` led to "
        "`proved_loss`. Null otherwise (the analysis does not guess).",
    )
    solver_line = SolverLineSerializer(
        allow_null=True, help_text="The solver's win from the turning point (or from the end)."
    )
    budget = AnalysisBudgetSerializer()
    probes = AnalysisProbeSerializer(many=True, help_text="Every position searched, in order.")
    review = MoveReviewSerializer(
        help_text="The move review: an estimate of each move from the cards the player could "
        "see, apart from the certain claims above (which see every card)."
    )
    nodes = serializers.IntegerField()
