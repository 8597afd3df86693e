"""Throttling is off in tests (conftest) except here, where one scope is turned on."""

import pytest
from django.urls import reverse

pytestmark = pytest.mark.django_db


def test_the_auth_scope_answers_429_with_retry_after(api_client, set_throttle_rate):
    set_throttle_rate("auth", "2/min")
    url = reverse("accounts:token")
    credentials = {"username": "nobody", "password": "whatever it is"}

    statuses = [api_client.post(url, credentials).status_code for _ in range(2)]
    response = api_client.post(url, credentials)

    assert statuses == [401, 401]
    assert response.status_code == 429
    body = response.json()
    assert body["code"] == "throttled"
    assert 0 < body["retry_after"] <= 60
    assert response["Retry-After"] == str(body["retry_after"])


def test_the_auth_scope_is_shared_by_register_and_token(api_client, set_throttle_rate):
    set_throttle_rate("auth", "1/min")
    api_client.post(reverse("accounts:token"), {"username": "nobody", "password": "x"})

    response = api_client.post(reverse("accounts:register"), {})

    assert response.status_code == 429


def test_clients_are_told_apart_by_address_not_by_x_forwarded_for(api_client, set_throttle_rate):
    set_throttle_rate("auth", "1/min")
    url = reverse("accounts:token")
    api_client.post(url, {}, HTTP_X_FORWARDED_FOR="10.0.0.1")

    response = api_client.post(url, {}, HTTP_X_FORWARDED_FOR="10.0.0.2")

    assert response.status_code == 429


def test_other_scopes_stay_off(api_client, set_throttle_rate):
    set_throttle_rate("actions", "1/min")
    url = reverse("accounts:token")

    statuses = {api_client.post(url, {}).status_code for _ in range(5)}

    assert statuses == {400}
