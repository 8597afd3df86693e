"""The two token caches (base.authentication, base.oauth) driven with every kind of
token a request can carry, interleaved with saves of users and revocations: every request gets
the answer its token deserves, and nothing one request leaves in a cache breaks another
player's request or a save of any user."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test
from oauth2_provider.generators import generate_client_secret
from oauth2_provider.models import AccessToken, Application
from rest_framework.test import APIClient

from accounts.models import ApiToken, User
from accounts.services import device_token_issue, personal_token_create
from base import authentication, oauth

pytestmark = pytest.mark.django_db

KINDS = ("device", "personal", "app", "userless", "registration", "expired", "garbage")
URL = "/api/v1/games"  # needs game:play: every valid token below allows it


class TokenCaches(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.users: list[User] = []
        self.tokens: list[tuple[str, str, User | None]] = []  # (kind, secret, owner)
        self.live: dict[str, bool] = {}  # secret -> should it be accepted now
        self.sentinel = User.objects.create_user(f"sentinel-{id(self)}", password="x")
        self.sentinel_token = device_token_issue(user=self.sentinel, device="s").secret

    def _user(self) -> User:
        user = User.objects.create_user(f"p{User.objects.count()}-{id(self)}", password="x")
        self.users.append(user)
        return user

    def _app(self, owner: User) -> Application:
        return Application.objects.create(
            user=owner,
            name="app",
            client_type=Application.CLIENT_PUBLIC,
            authorization_grant_type=Application.GRANT_AUTHORIZATION_CODE,
            redirect_uris="https://app.example/cb",
        )

    def _access(self, app: Application, user: User | None, expires: Any, secret: str) -> None:
        token = AccessToken(user=user, application=app, scope="game:play", expires=expires)
        token.token = secret
        token.save()

    @rule(kind=st.sampled_from(KINDS), fresh_user=st.booleans())
    def issue(self, kind: str, fresh_user: bool) -> None:
        owner = self._user() if fresh_user or not self.users else self.users[-1]
        later, earlier = timezone.now() + timedelta(hours=1), timezone.now() - timedelta(hours=1)
        live = kind in ("device", "personal", "app")
        if kind == "device":
            secret = device_token_issue(user=owner, device="d").secret
            for k, s, o in self.tokens:  # a device's new sign-in replaces its old one
                if o == owner and k == "device":
                    self.live[s] = False
        elif kind == "personal":
            secret = personal_token_create(
                user=owner, name="bot", scopes=["game:play"], expires_in_days=1
            ).secret
        elif kind in ("app", "userless", "expired"):
            secret = oauth.access_token(None)
            user = None if kind == "userless" else owner
            self._access(self._app(owner), user, earlier if kind == "expired" else later, secret)
        elif kind == "registration":  # what DCR hands out: no prefix of ours
            secret = generate_client_secret()
            self._access(self._app(owner), owner, later, secret)
        else:
            secret = "spa_" + "z" * 40
        self.tokens.append((kind, secret, owner))
        self.live[secret] = live

    @rule(data=st.data())
    def request_with_a_token(self, data: st.DataObject) -> None:
        if not self.tokens:
            return
        kind, secret, _ = data.draw(st.sampled_from(self.tokens))
        status = self._get(secret)
        assert status == (200 if self.live[secret] else 401), (kind, status)

    @rule(data=st.data(), staff=st.booleans())
    def save_a_user(self, data: st.DataObject, staff: bool) -> None:
        user = data.draw(st.sampled_from([self.sentinel, *self.users]))
        user.refresh_from_db()
        user.is_staff = staff
        user.save()  # drops the user's cached tokens: never trips over another entry

    @rule(data=st.data())
    def revoke(self, data: st.DataObject) -> None:
        if not self.tokens:
            return
        kind, secret, owner = data.draw(st.sampled_from(self.tokens))
        if kind in ("device", "personal"):
            ApiToken.objects.filter(user=owner).delete()
            for k, s, o in self.tokens:
                if o == owner and k in ("device", "personal"):
                    self.live[s] = False
        elif kind == "app":
            for token in AccessToken.objects.filter(user=owner):
                token.delete()
            for k, s, o in self.tokens:
                if o == owner and k == "app":
                    self.live[s] = False

    @invariant()
    def another_player_is_served(self) -> None:
        assert self._get(self.sentinel_token) == 200

    def _get(self, secret: str) -> int:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {secret}")
        return int(client.get(URL).status_code)


def test_no_token_in_either_cache_breaks_another_request():
    authentication.forget_all()
    oauth.forget_all_access_tokens()
    run_state_machine_as_test(
        TokenCaches,
        settings=settings(
            max_examples=15,
            stateful_step_count=20,
            deadline=None,
            suppress_health_check=list(HealthCheck),
        ),
    )
