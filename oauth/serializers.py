"""The apps API's shared serializers: an app as its owner sees it, and the authorization
request's refusal. A serializer only one view uses is nested in that view (oauth/views.py)."""

from __future__ import annotations

from rest_framework import serializers

from base.openapi import ValidationErrorSerializer


class AppSerializer(serializers.Serializer):
    client_id = serializers.CharField(help_text="The app's public identifier (`client_id`).")
    name = serializers.CharField()
    redirect_uris = serializers.ListField(child=serializers.CharField())
    confidential = serializers.BooleanField(
        help_text="A confidential app (a server) authenticates with its secret; a public one "
        "(a browser or mobile app) with PKCE alone."
    )
    created = serializers.DateTimeField()


class AuthorizationErrorSerializer(ValidationErrorSerializer):
    error = serializers.CharField(
        required=False, help_text="With `invalid_authorization_request`: the OAuth2 error."
    )
    redirect_to = serializers.CharField(
        required=False,
        allow_null=True,
        help_text="Where to send the browser to tell the app (its redirect URI with `error`); "
        "null when the client or its redirect URI is itself wrong: then never redirect.",
    )


class AppSummarySerializer(serializers.Serializer):
    """An app as a player sees it: on the authorization page, and among the apps approved."""

    client_id = serializers.CharField()
    name = serializers.CharField()
    owner = serializers.CharField(allow_null=True, help_text="Who registered it.")


class ScopeSerializer(serializers.Serializer):
    """A scope and what it lets an app do, in the player's words."""

    name = serializers.CharField()
    description = serializers.CharField()


class ApprovalSerializer(serializers.Serializer):
    """An app the player approved, as `GET /me/approved-apps` lists it."""

    app = AppSummarySerializer()
    scopes = ScopeSerializer(many=True, help_text="What it may do as you.")
    approved = serializers.DateTimeField(help_text="When its oldest live token was issued.")
    last_used = serializers.DateTimeField(
        help_text="When it last acted (a request, a refresh), to the minute or so."
    )


class AuthorizationQuerySerializer(serializers.Serializer):
    """An authorization request's query string, as the authorization page passes it on."""

    response_type = serializers.CharField(max_length=32)
    client_id = serializers.CharField(max_length=255)
    redirect_uri = serializers.CharField(max_length=500, required=False)
    scope = serializers.CharField(max_length=500, required=False)
    state = serializers.CharField(max_length=500, required=False)
    code_challenge = serializers.CharField(max_length=128, required=False)
    code_challenge_method = serializers.CharField(max_length=16, required=False)
