"""The one place where a JSON body's values must have the JSON type the schema says.

DRF coerces on input: a `BooleanField` takes 0, 1, "true", "yes"; an `IntegerField` takes "3"
and 3.0; a `CharField` takes 5. The schema says `boolean`, `integer`, `string`, and a client
generated from it sends exactly those; anything else is a client bug that deserves a 400, not a
guess. Every request-body serializer derives from `JsonInputSerializer` (tests/test_strict_input.py
checks each operation's), which checks each value's JSON type against its field's kind before
the field sees it. Query strings are text by nature and are parsed by their own serializers.
A whole float (`3.0`) is the one spelling taken for an integer besides `3`: JSON Schema's
`integer` is any number without a fractional part, so the schema admits it (and a client may
well send one); it is the same number, so it is taken as that integer.

A field the body does not take is refused too, by name (400 `unknown_field`, before any value
is looked at; the first UNKNOWN_NAMED of them, so a body of thousands costs no more than one
of ten): a misspelt `deal_over_gaps` would otherwise be dropped and the request done without
it. The schema says the same (`additionalProperties: false` on every request body,
base.openapi.AutoSchema).
"""

from __future__ import annotations

import difflib
from collections.abc import Collection, Mapping
from typing import Any, ClassVar

from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail
from rest_framework.fields import empty

UNKNOWN_FIELD = "unknown_field"  # the code of a field the body does not take
UNKNOWN_NAMED = 10  # at most this many are named (and their likely meaning looked for)

# A field's kind -> the JSON types its value may have (bool is refused where int is allowed:
# it is one in Python). The first match wins: subclasses before their bases.
_JSON_TYPES: tuple[tuple[type[serializers.Field], tuple[type, ...]], ...] = (
    (serializers.BooleanField, (bool,)),
    (serializers.IntegerField, (int,)),
    (serializers.FloatField, (int, float)),
    (serializers.MultipleChoiceField, (list,)),
    (serializers.CharField, (str,)),  # Email, Regex, Slug, URL fields too
    (serializers.UUIDField, (str,)),
    (serializers.DateTimeField, (str,)),
    (serializers.DateField, (str,)),
    (serializers.ListField, (list,)),
    (serializers.DictField, (dict,)),
    (serializers.ListSerializer, (list,)),
    (serializers.BaseSerializer, (dict,)),
)


def json_types(field: serializers.Field) -> tuple[type, ...] | None:
    """The JSON types ``field`` takes, or None when it checks its own (JSONField, custom)."""
    if isinstance(field, serializers.ChoiceField) and not isinstance(
        field, serializers.MultipleChoiceField
    ):
        return tuple({type(key) for key in field.choices}) or None
    for kind, types in _JSON_TYPES:
        if isinstance(field, kind):
            return types
    return None


def has_json_type(value: Any, types: tuple[type, ...]) -> bool:
    if isinstance(value, bool) and bool not in types:
        return False
    return isinstance(value, types)


def _refusal(field: serializers.Field, value: Any) -> list[str]:
    key = "invalid" if "invalid" in field.error_messages else "invalid_choice"
    if key not in field.error_messages:
        return [f"Must be of type {', '.join(t.__name__ for t in json_types(field) or ())}."]
    try:
        field.fail(key, input=value, datatype=type(value).__name__)
    except serializers.ValidationError as exc:
        return [str(message) for message in exc.detail]
    raise AssertionError("fail() always raises")  # pragma: no cover


def _whole(value: Any, types: tuple[type, ...]) -> Any:
    """``value``, or the integer a whole float is where an integer is taken: JSON Schema's
    `integer` is any number with no fractional part, so `2.0` is the schema's 2."""
    if int in types and float not in types and isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def unknown_field_message(name: str, known: Collection[str]) -> str:
    """What to say of ``name``, a field the body does not take: the field it is most likely a
    misspelling of, else every field it takes."""
    near = difflib.get_close_matches(name, known, n=1) if len(name) <= 64 else []
    if near:
        return f"Unknown field: did you mean {near[0]}?"
    return f"Unknown field: this body takes {', '.join(known) or 'no field'}."


class JsonInputSerializer(serializers.Serializer):
    """A request body: every value must arrive as its field's JSON type (no coercion)."""

    # JSON Schema keywords for the body as a whole (base.openapi.AutoSchema adds them
    # to its request component): what its validate() refuses across fields, so the schema
    # admits only bodies the server takes. `properties` narrows a field's own schema.
    schema_rules: ClassVar[dict[str, Any]] = {}

    def to_internal_value(self, data: Any) -> Any:
        if isinstance(data, Mapping):
            known = [field.field_name or "" for field in self._writable_fields]
            unknown = [name for name in data if name not in known][:UNKNOWN_NAMED]
            if unknown:
                raise serializers.ValidationError(
                    {
                        name: [ErrorDetail(unknown_field_message(name, known), UNKNOWN_FIELD)]
                        for name in unknown
                    }
                )
            errors: dict[str, list[str]] = {}
            whole: dict[str, int] = {}
            for field in self._writable_fields:
                name = field.field_name or ""
                value = data.get(name, empty)
                if value is empty or value is None:
                    continue  # required/null are the field's own rules
                types = json_types(field)
                if types is None:
                    continue
                integer = _whole(value, types)
                if integer is not value:
                    whole[name] = integer
                elif not has_json_type(value, types):
                    errors[name] = _refusal(field, value)
            if errors:
                raise serializers.ValidationError(errors)
            if whole:
                data = {**data, **whole}
        return super().to_internal_value(data)
