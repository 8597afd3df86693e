"""Every view of the API says what a token must allow for each of its methods, or that the
method is public (base/permissions.py); and the table of what each operation needs is
the one the API guide (docs/api.md) and the schema promise."""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import pytest
from rest_framework.permissions import AllowAny
from rest_framework.test import APIRequestFactory
from rest_framework.views import APIView

from base.permissions import ACCOUNT, HasRequiredScopes, declared_scopes
from base.scopes import SCOPES
from tests.schema_check import published_schema
from tests.test_architecture import _api_views

METHODS = ("get", "post", "put", "patch", "delete")


def _requirements() -> list[tuple[type[APIView], str, Any]]:
    """(view, method, the permissions it checks for that method) for every routed method."""
    factory = APIRequestFactory()
    found = []
    for view_class in _api_views():
        for method in METHODS:
            if not hasattr(view_class, method):
                continue
            view = view_class()
            view.request = view.initialize_request(getattr(factory, method)("/"))
            view.format_kwarg = None
            found.append((view_class, method, view.get_permissions()))
    return found


def test_every_view_declares_its_scopes_or_is_public():
    requirements = _requirements()
    assert len(requirements) >= 35, len(requirements)  # the walk found the API
    for view_class, method, permissions in requirements:
        where = f"{view_class.__name__}.{method}"
        if any(isinstance(p, AllowAny) for p in permissions):
            continue  # public: anyone, a token optional
        assert any(isinstance(p, HasRequiredScopes) for p in permissions), where
        scopes = declared_scopes(view_class, method)
        assert scopes is not None, f"{where} declares no required_scopes"
        assert scopes == (ACCOUNT,) or set(scopes) <= set(SCOPES), where


# What each operation needs of a token: "account" is first-party only; absent is public.
TABLE = {
    ("get", "/api/v1/me"): ["profile:read"],
    ("get", "/api/v1/games"): ["game:play"],
    ("post", "/api/v1/games"): ["game:play"],
    ("post", "/api/v1/games/{game_id}/actions"): ["game:play"],
    ("post", "/api/v1/games/{game_id}/hint"): ["game:play"],
    ("post", "/api/v1/games/{game_id}/resign"): ["game:play"],
    ("post", "/api/v1/games/{game_id}/analysis"): ["game:play"],
    ("post", "/api/v1/daily/play"): ["daily:play"],
    ("post", "/api/v1/races"): ["race:play"],
    ("get", "/api/v1/races/{code}"): ["race:play"],
    ("post", "/api/v1/races/{code}/ticket"): ["race:play"],
    ("get", "/api/v1/races/{code}/events"): ["race:play"],
    ("post", "/api/v1/auth/claim"): ["account"],
    ("get", "/api/v1/apps"): ["account"],
    ("post", "/api/v1/apps"): ["account"],
    ("delete", "/api/v1/apps/{client_id}"): ["account"],
    ("get", "/api/v1/oauth/authorization"): ["account"],
    ("get", "/api/v1/me/settings"): ["profile:read"],
    ("patch", "/api/v1/me/settings"): ["profile:write"],
    ("get", "/api/v1/me/export"): ["account"],
    ("post", "/api/v1/me/delete"): ["account"],
    ("post", "/api/v1/auth/logout"): [],  # any token signs itself out
    ("post", "/api/v1/auth/logout-everywhere"): ["account"],
    ("patch", "/api/v1/me"): ["account"],
    ("post", "/api/v1/me/password"): ["account"],
    ("get", "/api/v1/me/tokens"): ["account"],
    ("post", "/api/v1/me/tokens"): ["account"],
    ("delete", "/api/v1/me/tokens/{token_id}"): ["account"],
    ("post", "/api/v1/oauth/authorization"): ["account"],
    ("get", "/api/v1/me/approved-apps"): ["account"],
    ("delete", "/api/v1/me/approved-apps/{client_id}"): ["account"],
    ("post", "/api/v1/me/name"): ["account"],
}
RACE_COMMANDS = ("sit", "stand", "ready", "unready", "start", "again", "settings", "resign", "draw")


@pytest.mark.parametrize(
    ("method", "path", "scopes"),
    [
        *((m, p, s) for (m, p), s in TABLE.items()),
        *(("post", f"/api/v1/races/{{code}}/{c}", ["race:play"]) for c in RACE_COMMANDS),
    ],
)
def test_the_scope_table(method, path, scopes):
    operation = published_schema()["paths"][path][method]
    expected = (
        [{"bearerAuth": []}] if scopes == ["account"] else [{"oauth2": scopes}, {"bearerAuth": []}]
    )

    assert operation["security"] == expected


def test_every_operation_with_security_is_in_the_table():
    listed = set(TABLE) | {("post", f"/api/v1/races/{{code}}/{c}") for c in RACE_COMMANDS}
    for path, item in published_schema()["paths"].items():
        for method, operation in item.items():
            if method in METHODS and operation.get("security"):
                assert (method, path) in listed, (method, path)


def test_the_web_clients_token_form_describes_each_scope_as_the_api_does() -> None:
    """account.js keeps its own copy of the scope sentences (the form is drawn before any
    request); it must say what the approval page and the schema say."""
    source = (Path(__file__).resolve().parent.parent / "web/static/web/account.js").read_text()
    block = source.split("export const SCOPES = {", 1)[1].split("};", 1)[0]
    block = re.sub(r"'\s*\+\s*'", "", block)  # a sentence split over lines with +
    described = dict(re.findall(r"'([a-z]+:[a-z]+)': '([^']*)'", block))
    assert described == SCOPES


def _readme_scope_table() -> dict[tuple[str, str], list[str]]:
    """(method, path) -> what the API guide's scope table (docs/api.md) says the operation
    needs: a scope,
    ``["account"]`` (the player's own sign-in only) or ``[]`` (any token)."""
    readme = (Path(__file__).resolve().parent.parent / "docs" / "api.md").read_text()
    table = readme.split("| Scope | Operations |", 1)[1].split("\n\n", 1)[0]
    found: dict[tuple[str, str], list[str]] = {}
    for line in table.splitlines()[2:]:
        scope_cell, operations = line.strip().strip("|").split("|")
        scope = re.findall(r"`([a-z]+:[a-z]+)`", scope_cell)
        needs = scope or (["account"] if "sign-in only" in scope_cell else [])
        for method, path in re.findall(r"`([A-Z]+) (/[^`]+)`", operations):
            found[(method.lower(), "/api/v1" + path)] = needs
    return found


def test_the_readme_scope_table_is_the_servers():
    said = _readme_scope_table()
    assert said == TABLE | {
        ("post", f"/api/v1/races/{{code}}/{c}"): ["race:play"] for c in RACE_COMMANDS
    }


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("method", "path", "scopes"),
    [(m, p, s) for (m, p), s in TABLE.items() if s and s != ["account"]],
)
def test_a_token_without_the_scope_is_refused(api_client, user, method, path, scopes):
    """The server's own answer, operation by operation: a personal token holding every scope
    but the one the table names is refused for it, before anything else is looked at."""
    from accounts.services import personal_token_create

    others = [s for s in SCOPES if s not in scopes]
    token = personal_token_create(user=user, name="t", scopes=others, expires_in_days=1)
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {token.secret}")
    concrete = path.format(game_id="00000000-0000-0000-0000-000000000000", code="ABCDEFGH")

    if path.endswith("/events"):  # the stream is an async view of its own
        from django.test import RequestFactory

        from base.errors import DomainError
        from races.stream import _authenticate

        request = RequestFactory().get(concrete, HTTP_AUTHORIZATION=f"Bearer {token.secret}")
        with pytest.raises(DomainError) as refused:
            _authenticate(request, "ABCDEFGH")
        status, body = refused.value.status, refused.value.as_dict()
    else:
        response = getattr(api_client, method)(concrete, {}, format="json")
        status, body = response.status_code, response.json()
    assert status == 403, body
    assert body["code"] == "insufficient_scope" and body["scopes"] == scopes
