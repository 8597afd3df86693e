"""The apps API's answers as plain dicts, in the shapes its serializers describe."""

from __future__ import annotations

from typing import Any

from oauth2_provider.models import Application

from base.scopes import SCOPES
from oauth.selectors import Approval


def app_json(app: Application) -> dict[str, Any]:
    return {
        "client_id": app.client_id,
        "name": app.name,
        "redirect_uris": app.redirect_uris.split(),
        "confidential": app.client_type == Application.CLIENT_CONFIDENTIAL,
        "created": app.created,
    }


def authorization_json(app: Application, scopes: list[str], redirect_uri: str) -> dict[str, Any]:
    """What an authorization request asks: the app, the scopes in words, where it goes back."""
    return {"app": _app_summary(app), "scopes": _scopes(scopes), "redirect_uri": redirect_uri}


def approval_json(approval: Approval) -> dict[str, Any]:
    """An app the player approved: who it is, what it may do, when it was approved and last
    acted."""
    return {
        "app": _app_summary(approval.app),
        "scopes": _scopes(approval.scopes),
        "approved": approval.approved,
        "last_used": approval.last_used,
    }


def _app_summary(app: Application) -> dict[str, Any]:
    return {
        "client_id": app.client_id,
        "name": app.name or app.client_id,
        "owner": app.user.get_username() if app.user else None,
    }


def _scopes(scopes: list[str]) -> list[dict[str, str]]:
    """Each scope with what it lets an app do (SCOPES' words; an unknown one as itself)."""
    return [{"name": s, "description": SCOPES.get(s, s)} for s in scopes]
