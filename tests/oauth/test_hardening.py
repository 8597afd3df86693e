"""Third-party access as an attacker tries it: tokens the server never issued to a player,
grants the metadata does not offer, registration with a script's token, codes tried twice or
by someone else, redirect URIs dropped, the token endpoint hammered, HEAD requests, and the
race stream's scope."""

from __future__ import annotations

import json
from datetime import timedelta
from typing import Any

import pytest
from django.test import RequestFactory
from django.utils import timezone
from oauth2_provider.models import AccessToken, Application, Grant, RefreshToken

from accounts.services import device_token_issue, personal_token_create
from base.errors import DomainError
from races import services as race_services
from races.stream import _authenticate
from tests.conftest import PASSWORD, token_of
from tests.oauth.helpers import (
    REDIRECT,
    approve,
    authorization_query,
    exchange,
    form_post,
    pkce,
    query_of,
    register_app,
    tokens_for,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def player(auth_client, user):
    return auth_client(user)


def bearer(client: Any, token: str) -> Any:
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {token}")
    return client


def _code(player: Any, client_id: str, *, redirect: bool = True) -> tuple[str, str]:
    """(code, verifier) of an approved request; ``redirect``: whether it names the URI."""
    verifier, challenge = pkce()
    query = authorization_query(client_id, challenge)
    if not redirect:
        query = "&".join(p for p in query.split("&") if not p.startswith("redirect_uri="))
    return query_of(approve(player, query))["code"], verifier


def _userless_token(user: Any) -> str:
    """An access token with no player, as a client-credentials grant would make one."""
    app = Application.objects.create(
        user=user,
        name="machine",
        client_type=Application.CLIENT_CONFIDENTIAL,
        authorization_grant_type=Application.GRANT_CLIENT_CREDENTIALS,
    )
    secret = "spa_" + "x" * 43
    token = AccessToken(
        user=None, application=app, scope="game:play", expires=timezone.now() + timedelta(hours=1)
    )
    token.token = secret  # stored as DOT stores it (its checksum is computed on save)
    token.save()
    return secret


# -- a token with no player ----------------------------------------------------------------


def test_a_token_with_no_player_is_refused_and_breaks_nobody_else(api_client, make_user, player):
    owner = make_user()
    secret = _userless_token(owner)

    refused = bearer(api_client, secret).get("/api/v1/me")
    assert refused.status_code == 401, refused.content
    assert refused.json()["code"] == "invalid_token"

    # Every save of a user goes on working (the cache holds no entry without a player).
    api_client.credentials()
    signed_up = api_client.post(
        "/api/v1/auth/register", {"username": "newcomer", "password": PASSWORD}, format="json"
    )
    assert signed_up.status_code == 201, signed_up.content
    renamed = player.patch("/api/v1/me", {"email": "a@example.com"}, format="json")
    assert renamed.status_code == 200, renamed.content
    owner.is_staff = True
    owner.save()


def test_the_token_endpoint_issues_no_client_credentials_token(api_client, user):
    app = Application(
        user=user,
        name="machine",
        client_type=Application.CLIENT_CONFIDENTIAL,
        authorization_grant_type=Application.GRANT_CLIENT_CREDENTIALS,
        client_secret="s3cret-s3cret",
        hash_client_secret=True,
    )
    app.save()

    response = form_post(
        api_client,
        "/oauth/token",
        {
            "grant_type": "client_credentials",
            "client_id": app.client_id,
            "client_secret": "s3cret-s3cret",
        },
    )

    assert response.status_code in (400, 401), response.content
    assert response.json()["error"] in ("unauthorized_client", "unsupported_grant_type")
    assert not AccessToken.objects.filter(application=app).exists()


# -- dynamic registration ------------------------------------------------------------------


def _register(client: Any, body: dict[str, Any]) -> Any:
    return client.generic(
        "POST", "/oauth/register", json.dumps(body), content_type="application/json"
    )


@pytest.mark.parametrize(
    "grants",
    [["client_credentials"], ["password"], ["implicit"], ["authorization_code", "password"]],
)
def test_registration_refuses_the_grants_the_metadata_does_not_offer(player, grants):
    before = Application.objects.count()

    response = _register(player, {"redirect_uris": [REDIRECT], "grant_types": grants})

    assert response.status_code == 400, response.content
    assert response.json()["error"] == "invalid_client_metadata"
    assert Application.objects.count() == before
    offered = player.get("/.well-known/oauth-authorization-server").json()
    assert offered["grant_types_supported"] == ["authorization_code", "refresh_token"]


def test_registration_refuses_a_token_response_type(player):
    response = _register(player, {"redirect_uris": [REDIRECT], "response_types": ["token"]})

    assert response.status_code == 400, response.content


def test_registration_takes_the_players_own_sign_in_only(api_client, user):
    personal = personal_token_create(user=user, name="bot", scopes=["game:play"], expires_in_days=7)
    body = {"redirect_uris": [REDIRECT], "token_endpoint_auth_method": "none"}

    assert _register(bearer(api_client, personal.secret), body).status_code == 401
    app_token = tokens_for(bearer(api_client, token_of(user)), api_client.__class__())
    assert _register(bearer(api_client, app_token["access_token"]), body).status_code == 401
    assert Application.objects.filter(user=user).count() == 1  # tokens_for's own

    made = _register(bearer(api_client, token_of(user)), body)
    assert made.status_code == 201, made.content


def test_a_registration_token_expires_and_dies_with_the_players_tokens(player, user):
    made = _register(player, {"redirect_uris": [REDIRECT], "token_endpoint_auth_method": "none"})
    assert made.status_code == 201, made.content
    body = made.json()
    token = AccessToken.objects.get(application__client_id=body["client_id"], user=user)
    lifetime = token.expires - timezone.now()
    assert timedelta(days=29) < lifetime <= timedelta(days=30)

    manage = f"/oauth/register/{body['client_id']}"
    registrar = bearer(player.__class__(), body["registration_access_token"])
    assert registrar.get(manage).status_code == 200

    assert player.post("/api/v1/auth/logout-everywhere").status_code in (200, 204)

    assert registrar.get(manage).status_code == 401


def test_the_registration_update_refuses_other_grants_too(player):
    made = _register(player, {"redirect_uris": [REDIRECT], "token_endpoint_auth_method": "none"})
    body = made.json()
    update = bearer(player.__class__(), body["registration_access_token"]).generic(
        "PUT",
        f"/oauth/register/{body['client_id']}",
        json.dumps({"redirect_uris": [REDIRECT], "grant_types": ["client_credentials"]}),
        content_type="application/json",
    )

    assert update.status_code == 400, update.content
    app = Application.objects.get(client_id=body["client_id"])
    assert app.authorization_grant_type == Application.GRANT_AUTHORIZATION_CODE


# -- codes and redirect URIs ---------------------------------------------------------------


def test_a_code_used_twice_revokes_the_tokens_of_its_first_use(player, api_client, user):
    app = register_app(player)
    code, verifier = _code(player, app["client_id"])
    first = exchange(api_client, app["client_id"], code, verifier).json()
    as_app = bearer(api_client.__class__(), first["access_token"])
    assert as_app.get("/api/v1/games").status_code == 200

    again = exchange(api_client, app["client_id"], code, verifier)

    assert again.status_code == 400 and again.json()["error"] == "invalid_grant"
    assert as_app.get("/api/v1/games").status_code == 401
    refreshed = form_post(
        api_client,
        "/oauth/token",
        {
            "grant_type": "refresh_token",
            "refresh_token": first["refresh_token"],
            "client_id": app["client_id"],
        },
    )
    assert refreshed.status_code == 400, refreshed.content


def test_a_wrong_verifier_burns_the_code(player, api_client):
    app = register_app(player)
    code, verifier = _code(player, app["client_id"])

    wrong = exchange(api_client, app["client_id"], code, pkce()[0])
    assert wrong.status_code == 400 and wrong.json()["error"] == "invalid_grant"

    right = exchange(api_client, app["client_id"], code, verifier)
    assert right.status_code == 400 and right.json()["error"] == "invalid_grant"
    assert not Grant.objects.exists()


def test_another_apps_try_burns_the_code(player, api_client):
    mine, theirs = register_app(player), register_app(player, name="Other")
    code, verifier = _code(player, mine["client_id"])

    stolen = exchange(api_client, theirs["client_id"], code, verifier)
    assert stolen.status_code == 400

    assert exchange(api_client, mine["client_id"], code, verifier).status_code == 400


def test_a_token_request_must_repeat_the_redirect_uri_the_authorization_named(player, api_client):
    app = register_app(player)
    code, verifier = _code(player, app["client_id"])

    response = exchange(api_client, app["client_id"], code, verifier, redirect_uri=None)

    assert response.status_code == 400, response.content
    assert response.json()["error"] == "invalid_grant"
    assert "redirect_uri" in response.json()["error_description"]


def test_a_redirect_uri_left_out_of_both_requests_is_the_registered_one(player, api_client):
    app = register_app(player)
    code, verifier = _code(player, app["client_id"], redirect=False)

    response = exchange(api_client, app["client_id"], code, verifier, redirect_uri=None)

    assert response.status_code == 200, response.content


def test_a_mismatched_redirect_uri_is_invalid_grant(player, api_client):
    app = player.post(
        "/api/v1/apps",
        {"name": "Two", "redirect_uris": [REDIRECT, REDIRECT + "2"]},
        format="json",
    ).json()
    code, verifier = _code(player, app["client_id"])

    response = exchange(api_client, app["client_id"], code, verifier, redirect_uri=REDIRECT + "2")

    assert response.status_code == 400, response.content
    assert response.json()["error"] == "invalid_grant"


@pytest.mark.parametrize("case", ["denied", "plain"])
def test_error_redirects_carry_the_issuer(player, case):
    app = register_app(player)
    verifier, challenge = pkce()
    if case == "denied":
        back = approve(player, authorization_query(app["client_id"], challenge), allow=False)
    else:
        query = authorization_query(app["client_id"], verifier, method="plain")
        refused = player.get(f"/api/v1/oauth/authorization?{query}")
        assert refused.status_code == 400, refused.content
        back = refused.json()["redirect_to"]

    answer = query_of(back)
    assert answer["error"] in ("access_denied", "invalid_request")
    assert answer["iss"] == "http://testserver"


# -- the token endpoint's throttle ---------------------------------------------------------


def test_the_token_endpoint_is_throttled_per_address(api_client, set_throttle_rate):
    set_throttle_rate("oauth_token", "3/min")
    bad = {"grant_type": "authorization_code", "code": "nope", "client_id": "nobody"}

    answers = [form_post(api_client, "/oauth/token", bad) for _ in range(4)]

    assert [a.status_code for a in answers[:3]] == [401, 401, 401] or all(
        a.status_code in (400, 401) for a in answers[:3]
    )
    last = answers[3]
    assert last.status_code == 429, last.content
    assert last.json()["error"] == "throttled"
    assert int(last["Retry-After"]) >= 1
    assert last["RateLimit-Remaining"] == "0" and last["RateLimit-Limit"] == "3"
    assert answers[0]["RateLimit-Remaining"] == "2"


def test_the_token_endpoint_is_throttled_per_client(api_client, set_throttle_rate):
    set_throttle_rate("oauth_client", "2/min")
    bad = {"grant_type": "authorization_code", "code": "nope", "client_id": "target"}

    answers = [
        form_post(api_client, "/oauth/token", bad, REMOTE_ADDR=f"10.0.0.{i}") for i in range(3)
    ]

    assert answers[2].status_code == 429, answers[2].content
    other = form_post(api_client, "/oauth/token", {**bad, "client_id": "else"})
    assert other.status_code != 429


def test_revocation_is_throttled_too(api_client, set_throttle_rate):
    set_throttle_rate("oauth_token", "1/min")
    form_post(api_client, "/oauth/revoke", {"token": "x", "client_id": "c"})

    assert form_post(api_client, "/oauth/revoke", {"token": "x", "client_id": "c"}).status_code == (
        429
    )


# -- HEAD ----------------------------------------------------------------------------------


def test_head_answers_as_get(player, user):
    from tests.games.conftest import pooled_deal

    pooled_deal(1, 1)
    game = player.post("/api/v1/games", {"suits": 1}, format="json").json()
    for path in (
        "/api/v1/me",
        "/api/v1/me/settings",
        f"/api/v1/games/{game['id']}/actions",
        f"/api/v1/games/{game['id']}/analysis",
    ):
        got, head = player.get(path), player.head(path)
        assert head.status_code == got.status_code, (path, head.content)


# -- the race stream's scope ---------------------------------------------------------------


def _stream_request(code: str, token: str) -> Any:
    return RequestFactory().get(
        f"/api/v1/races/{code}/events", HTTP_AUTHORIZATION=f"Bearer {token}"
    )


def test_the_stream_wants_race_play_of_every_token_kind(api_client, user):
    table = race_services.table_open(player=user, suits=1)
    personal = personal_token_create(
        user=user, name="bot", scopes=["game:play"], expires_in_days=7
    ).secret
    player = bearer(api_client.__class__(), token_of(user))
    game_only = tokens_for(player, api_client.__class__(), scope="game:play")["access_token"]
    racing = tokens_for(player, api_client.__class__(), scope="race:play")["access_token"]

    for token in (personal, game_only):
        with pytest.raises(DomainError) as refused:
            _authenticate(_stream_request(table.code, token), table.code)
        assert (refused.value.status, refused.value.code) == (403, "insufficient_scope")
        assert refused.value.extra["scopes"] == ["race:play"]

    assert _authenticate(_stream_request(table.code, racing), table.code) == user
    device = device_token_issue(user=user, device="phone").secret
    assert _authenticate(_stream_request(table.code, device), table.code) == user


# -- the account's end ---------------------------------------------------------------------


def test_a_deleted_players_apps_go_with_them(player, api_client, make_user):
    app = register_app(player)
    other = make_user()
    theirs = tokens_for(
        bearer(api_client.__class__(), token_of(other)), api_client.__class__()
    )  # another player's approval of another app: untouched
    code, verifier = _code(player, app["client_id"])
    assert exchange(api_client, app["client_id"], code, verifier).status_code == 200

    deleted = player.post("/api/v1/me/delete", {"password": PASSWORD}, format="json")
    assert deleted.status_code in (200, 204), deleted.content

    assert not Application.objects.filter(client_id=app["client_id"]).exists()
    assert not RefreshToken.objects.filter(application__client_id=app["client_id"]).exists()
    assert Application.objects.filter(client_id=theirs["client_id"]).exists()


# -- housekeeping --------------------------------------------------------------------------


def test_spent_codes_are_pruned_by_beat_and_by_the_serving_process(player, api_client, settings):
    from django.conf import settings as django_settings

    from oauth.models import IssuedCode
    from oauth.tasks import prune_oauth
    from spider_api import sweeps

    app = register_app(player)
    code, verifier = _code(player, app["client_id"])
    unused, _ = _code(player, app["client_id"])
    assert exchange(api_client, app["client_id"], code, verifier).status_code == 200
    assert IssuedCode.objects.count() == 2

    later = timezone.now() + timedelta(minutes=5)  # the unused code has expired
    assert sweeps.HOUSEKEEPING["prune_oauth"][0](later) == {"codes": 1, "records": 1}
    assert IssuedCode.objects.count() == 1  # the exchanged one: its family may yet be replayed

    schedule = {e["task"]: e["schedule"] for e in django_settings.CELERY_BEAT_SCHEDULE.values()}
    assert schedule["oauth.tasks.prune_oauth"] == sweeps.HOUSEKEEPING["prune_oauth"][1]()
    assert prune_oauth.delay().get() == {"codes": 0, "records": 0}


def test_a_client_secret_is_kept_with_a_fast_hash_and_still_checked(player, api_client):
    """A secret the server made cannot be guessed, so a slow hash only makes each wrong
    secret cost the server (base/hashers.py): it is kept salted SHA-256, and checked."""
    app = register_app(player, confidential=True)
    stored = Application.objects.get(client_id=app["client_id"]).client_secret
    assert stored.startswith("sha256_secret$") and app["client_secret"] not in stored
    code, verifier = _code(player, app["client_id"])
    wrong = exchange(
        api_client, app["client_id"], code, verifier, HTTP_AUTHORIZATION=_basic(app, "nope")
    )
    assert wrong.status_code == 401, wrong.content
    code, verifier = _code(player, app["client_id"])
    right = exchange(
        api_client,
        app["client_id"],
        code,
        verifier,
        HTTP_AUTHORIZATION=_basic(app, app["client_secret"]),
    )
    assert right.status_code == 200, right.content


def _basic(app: dict[str, Any], secret: str) -> str:
    import base64

    return "Basic " + base64.b64encode(f"{app['client_id']}:{secret}".encode()).decode()


@pytest.mark.parametrize(
    "grant",
    ["urn:ietf:params:oauth:grant-type:device_code", "client_credentials", "password", "implicit"],
)
def test_a_grant_the_server_does_not_offer_is_refused_before_any_lookup(api_client, grant):
    """The device-code grant was a 500 (DOT reads its fields unchecked): schemathesis."""
    response = form_post(api_client, "/oauth/token", {"grant_type": grant, "client_id": "any"})

    assert response.status_code == 400, response.content
    assert response.json()["error"] == "unsupported_grant_type"


def test_the_metadata_answers_a_method_it_lacks_with_405(api_client):
    response = api_client.generic("QUERY", "/.well-known/oauth-authorization-server")

    assert response.status_code == 405, response.content


@pytest.mark.parametrize("path", ["/oauth/token", "/oauth/revoke"])
@pytest.mark.parametrize("content_type", ["multipart/form-data", "application/json", "text/plain"])
def test_a_token_request_that_is_not_a_form_is_a_json_400(api_client, path, content_type):
    response = api_client.generic("POST", path, "grant_type=x", content_type=content_type)

    assert response.status_code == 400, response.content
    assert response.json()["error"] == "invalid_request"
