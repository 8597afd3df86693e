"""The OpenAPI description of the project's own endpoints (spider_api/health.py): the health
report's shape and its operations. Each function reads the serializers off the view class it
decorates."""

from __future__ import annotations

from drf_spectacular.utils import (
    OpenApiParameter,
    OpenApiResponse,
    extend_schema,
    extend_schema_view,
    inline_serializer,
)
from rest_framework import serializers

from base.openapi import View

# The values of the `status` fields (named enums in the schema: SPECTACULAR_SETTINGS).
HEALTH_STATES = ("ok", "degraded")

CHECK_NAMES = ("database", "broker", "pool", "beat")

CHECK_STATES = ("ok", "down", "disabled", "unknown", "low", "empty", "stale")

POOL_MODE_STATES = ("ok", "low", "empty")


def _check(name: str, **fields: serializers.Field) -> serializers.Serializer:
    """One check's report: its status, why it is down, and its own figures."""
    return inline_serializer(
        name,
        {
            "status": serializers.ChoiceField(choices=CHECK_STATES),
            "error": serializers.CharField(required=False, help_text="Why it is down."),
            **fields,
        },
    )


def _latency() -> serializers.Field:
    return serializers.FloatField(required=False, help_text="How long the check took.")


HEALTH = inline_serializer(
    "Health",
    {
        "status": serializers.ChoiceField(choices=HEALTH_STATES),
        "down": serializers.ListField(
            child=serializers.ChoiceField(choices=CHECK_NAMES),
            help_text="The checks that failed; empty when all is well.",
        ),
        "checks": inline_serializer(
            "HealthChecks",
            {
                "database": _check("HealthDatabase", latency_ms=_latency()),
                "broker": _check("HealthBroker", latency_ms=_latency()),
                "pool": _check(
                    "HealthPool",
                    low_water=serializers.IntegerField(),
                    target=serializers.IntegerField(),
                    modes=serializers.DictField(
                        child=inline_serializer(
                            "HealthPoolMode",
                            {
                                "level": serializers.IntegerField(),
                                "status": serializers.ChoiceField(choices=POOL_MODE_STATES),
                            },
                        ),
                        required=False,
                        help_text="Suit mode (`1`, `2`, `4`) -> vetted deals ready.",
                    ),
                ),
                "beat": _check(
                    "HealthBeat",
                    last_run=serializers.DateTimeField(required=False, allow_null=True),
                    age_s=serializers.FloatField(required=False, allow_null=True),
                    stale_after_s=serializers.IntegerField(required=False),
                ),
            },
        ),
    },
)

HEALTH_RETRY_AFTER = OpenApiParameter(
    "Retry-After",
    int,
    OpenApiParameter.HEADER,
    required=True,
    response=[503],
    description="Seconds before polling again is worth it.",
)


def health(view: View) -> View:
    """The operations of HealthApi."""
    return extend_schema_view(
        get=extend_schema(
            operation_id="health",
            tags=["operations"],
            summary="Deployment health",
            description="The database, the broker, the vetted pool per suit mode and beat's last "
            "heartbeat. 200 when all is well; 503 with `down` naming what is not. A check times "
            "out within a few seconds. No token needed. A 503 carries `Retry-After`: when "
            "polling again is worth it.",
            auth=[],
            parameters=[HEALTH_RETRY_AFTER],
            responses={
                200: view.OutputSerializer,
                503: OpenApiResponse(
                    view.OutputSerializer, "Something is down: see `down` and `checks`."
                ),
            },
        ),
    )(view)


def liveness(view: View) -> View:
    """The operations of LivenessApi."""
    return extend_schema_view(
        # For process supervisors; documented in docs/operations.md.
        get=extend_schema(exclude=True),
    )(view)
