"""GET/POST /me/tokens and DELETE /me/tokens/{id}: the player's sign-ins and personal access
tokens, listed without their secrets, made with chosen scopes and an expiry, revoked one by one."""

from datetime import timedelta

import pytest
from django.urls import reverse
from django.utils import timezone

from accounts.limits import MAX_PERSONAL_TOKENS
from accounts.models import ApiToken
from accounts.services import device_token_issue, personal_token_create
from base.scopes import SCOPES
from base.tokens import secret_hash

pytestmark = pytest.mark.django_db

URL = reverse("accounts:tokens")
ME = reverse("accounts:me")


def _detail(token_id) -> str:
    return reverse("accounts:token-detail", args=[token_id])


def _client(api_client, secret):
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
    return api_client


def test_a_personal_token_is_made_with_its_scopes_and_expiry(auth_client, user):
    response = auth_client(user).post(
        URL, {"name": "my bot", "scopes": ["game:play", "profile:read"], "expires_in_days": 90}
    )

    assert response.status_code == 201
    body = response.json()
    token = ApiToken.objects.get(pk=body["id"])
    assert token.key_hash == secret_hash(body["token"]) and body["token"].startswith("spd_pat_")
    assert (token.kind, token.name, token.scope) == ("personal", "my bot", "game:play profile:read")
    assert body["scopes"] == ["game:play", "profile:read"]
    assert body["kind"] == "personal" and body["last_used"] is None and body["current"] is False
    days = (token.expires - timezone.now()) / timedelta(days=1)
    assert 89.9 < days <= 90
    assert token.is_valid(["game:play"]) and not token.allow_scopes(["race:play"])


def test_the_list_shows_every_token_but_never_a_secret(auth_client, user):
    device_token_issue(user=user, device="phone")
    made = auth_client(user).post(
        URL, {"name": "bot", "scopes": ["game:play"], "expires_in_days": 7}
    )
    secret = made.json()["token"]

    response = auth_client(user).get(URL)

    assert response.status_code == 200
    rows = response.json()
    assert [(r["kind"], r["name"]) for r in rows] == [
        ("personal", "bot"),
        ("device", "phone"),
        ("device", "tests"),
    ]
    assert secret not in response.content.decode()
    assert all("token" not in r for r in rows)
    assert [r["current"] for r in rows] == [False, False, True]  # this request's: "tests"
    assert rows[1]["scopes"] == list(SCOPES)  # a sign-in may do everything
    assert set(rows[0]) == {
        "id",
        "kind",
        "name",
        "scopes",
        "created",
        "last_used",
        "expires",
        "current",
    }
    only = auth_client(user).get(URL, {"kind": "device"}).json()
    assert [r["name"] for r in only] == ["phone", "tests"]


def test_last_used_is_shown_once_the_token_is_used(api_client, auth_client, user):
    pat = personal_token_create(user=user, name="bot", scopes=["profile:read"], expires_in_days=1)
    assert _client(api_client, pat.secret).get(ME).status_code == 200

    rows = auth_client(user).get(URL).json()

    assert next(r for r in rows if r["name"] == "bot")["last_used"] is not None


def test_a_token_is_revoked_by_id_and_refused_at_once(api_client, auth_client, user):
    pat = personal_token_create(user=user, name="bot", scopes=["profile:read"], expires_in_days=1)
    bot = _client(api_client, pat.secret)
    assert bot.get(ME).status_code == 200

    response = auth_client(user).delete(_detail(pat.token.pk))

    assert response.status_code == 204
    assert bot.get(ME).status_code == 401
    assert auth_client(user).delete(_detail(pat.token.pk)).status_code == 404


def test_a_device_can_be_signed_out_from_the_list(api_client, auth_client, user):
    phone = device_token_issue(user=user, device="phone")

    assert auth_client(user).delete(_detail(phone.token.pk)).status_code == 204

    assert _client(api_client, phone.secret).get(ME).status_code == 401


def test_another_players_token_is_404_and_stays(auth_client, make_user, user):
    other = make_user()
    theirs = personal_token_create(user=other, name="x", scopes=["game:play"], expires_in_days=1)

    response = auth_client(user).delete(_detail(theirs.token.pk))

    assert response.status_code == 404
    assert ApiToken.objects.filter(pk=theirs.token.pk).exists()


def test_an_id_too_long_for_the_database_is_404(auth_client, user):
    response = auth_client(user).delete(f"{URL}/{'9' * 30}")

    assert response.status_code == 404


@pytest.mark.parametrize(
    ("body", "field"),
    [
        ({"name": "x", "scopes": ["admin"], "expires_in_days": 9}, "scopes"),
        ({"name": "x", "scopes": [], "expires_in_days": 9}, "scopes"),
        ({"name": "x", "scopes": ["game:play"]}, "expires_in_days"),  # an expiry is required
        ({"name": "x", "scopes": ["game:play"], "expires_in_days": 366}, "expires_in_days"),
        ({"name": "x", "scopes": ["game:play"], "expires_in_days": 0}, "expires_in_days"),
        ({"name": "", "scopes": ["game:play"], "expires_in_days": 9}, "name"),
        # the schema says each scope once (uniqueItems): a repeat is refused, not merged
        ({"name": "x", "scopes": ["game:play", "game:play"], "expires_in_days": 9}, "scopes"),
    ],
)
def test_bad_bodies_are_400_and_make_nothing(auth_client, user, body, field):
    response = auth_client(user).post(URL, body)

    assert response.status_code == 400
    assert field in response.json()["errors"]
    assert not ApiToken.objects.filter(kind="personal").exists()


def test_a_personal_token_cannot_list_make_or_revoke_tokens(api_client, user):
    pat = personal_token_create(user=user, name="bot", scopes=list(SCOPES), expires_in_days=9)
    bot = _client(api_client, pat.secret)
    body = {"name": "more", "scopes": ["game:play"], "expires_in_days": 9}

    answers = [bot.get(URL), bot.post(URL, body), bot.delete(_detail(pat.token.pk))]

    assert [a.status_code for a in answers] == [403, 403, 403]
    assert {a.json()["code"] for a in answers} == {"first_party_only"}
    assert ApiToken.objects.filter(kind="personal").count() == 1


def test_past_the_limit_a_new_personal_token_is_409(auth_client, user):
    for n in range(MAX_PERSONAL_TOKENS):
        personal_token_create(user=user, name=f"t{n}", scopes=["game:play"], expires_in_days=1)

    response = auth_client(user).post(
        URL, {"name": "one more", "scopes": ["game:play"], "expires_in_days": 1}
    )

    assert response.status_code == 409
    assert response.json()["code"] == "too_many_tokens"


def test_an_expired_personal_token_is_refused(api_client, user):
    pat = personal_token_create(user=user, name="bot", scopes=["game:play"], expires_in_days=1)
    ApiToken.objects.filter(pk=pat.token.pk).update(expires=timezone.now())

    assert _client(api_client, pat.secret).get(ME).status_code == 401
    assert pat.token.is_expired() is False  # the instance in memory; the row says otherwise
