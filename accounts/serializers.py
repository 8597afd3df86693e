"""The accounts API's shared serializers: a sign-in's answer, one of your tokens, the device
name and the scopes of a personal access token. A serializer only one view uses is nested in
that view (accounts/views.py)."""

from typing import Any

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from accounts.limits import DEVICE_NAME_MAX_LENGTH
from accounts.models import ApiToken
from base.scopes import SCOPES

_DEVICE_HELP = (
    "A name for this device (1 to 64 characters, e.g. `alice-phone`): signing in again with "
    "the same name replaces that device's token. Omitted: it is named from the request's "
    "`User-Agent` (`Chrome on Android`, `Firefox on Windows 2`: unique among your devices) "
    "and returned; send it next time."
)


# A first-party sign-in just made: its secret (shown this once) and when it expires.
class DeviceTokenSerializer(serializers.Serializer):
    token = serializers.CharField(help_text="Send as `Authorization: Bearer <token>`.")
    expires = serializers.DateTimeField(
        help_text="When it stops working unless used: every use moves it on by "
        "FIRST_PARTY_TOKEN_DAYS (30 days by default)."
    )
    device = serializers.CharField(help_text="The device's name, as sent or as made up.")


class DeviceField(serializers.CharField):
    def __init__(self, **kwargs: Any) -> None:
        super().__init__(
            required=False,
            min_length=1,
            max_length=DEVICE_NAME_MAX_LENGTH,
            help_text=_DEVICE_HELP,
            **kwargs,
        )


@extend_schema_field(
    {
        "type": "array",
        "items": {"type": "string", "enum": list(SCOPES)},
        "minItems": 1,
        "uniqueItems": True,
    }
)
class ScopesField(serializers.ListField):
    # Scope names of base.scopes.SCOPES, at least one; an unknown one is named in one
    # message (a list's per-item errors would not be a list of messages).

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(child=serializers.CharField(max_length=64), min_length=1, **kwargs)

    def to_internal_value(self, data: Any) -> list[str]:
        scopes = super().to_internal_value(data)
        unknown = sorted(set(scopes) - set(SCOPES))
        if unknown:
            raise serializers.ValidationError(
                f"Unknown scope {', '.join(unknown)}; choose from {', '.join(SCOPES)}."
            )
        twice = sorted({s for s in scopes if scopes.count(s) > 1})
        if twice:  # the schema says each once (uniqueItems): a doubled one is refused, not merged
            raise serializers.ValidationError(f"Each scope once: {', '.join(twice)} is repeated.")
        return sorted(scopes)


# One of your tokens, never its secret.
class TokenSerializer(serializers.Serializer):
    id = serializers.IntegerField()
    # `device`: a sign-in (POST /auth/token); `personal`: a personal access token.
    kind = serializers.ChoiceField(choices=ApiToken.Kind.choices)
    name = serializers.CharField(help_text="The device's name, or the token's.")
    scopes = serializers.ListField(
        child=serializers.CharField(), help_text="What it may do; a sign-in: every scope."
    )
    created = serializers.DateTimeField()
    last_used = serializers.DateTimeField(
        allow_null=True, help_text="To the minute or so (written once a minute at most)."
    )
    expires = serializers.DateTimeField(help_text="A sign-in's moves on as it is used.")
    current = serializers.BooleanField(help_text="The token of this request.")
