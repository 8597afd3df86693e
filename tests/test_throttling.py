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


class _Clock:
    def __init__(self, now: float) -> None:
        self.now = now

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def throttle_at(monkeypatch, set_throttle_rate):
    """A throttle of the "auth" scope at `rate`, on a clock the test moves."""
    from rest_framework.test import APIRequestFactory

    from base.throttling import ScopedRateThrottle

    clock = _Clock(6_000_000.0)  # the start of a window
    monkeypatch.setattr(ScopedRateThrottle, "timer", clock)
    view = type("View", (), {"throttle_scope": "auth"})()
    request = APIRequestFactory().post("/", REMOTE_ADDR="10.1.2.3")
    request.user = None

    def ask(rate: str) -> tuple[bool, float | None]:
        set_throttle_rate("auth", rate)
        throttle = ScopedRateThrottle()
        allowed = throttle.allow_request(request, view)
        return allowed, None if allowed else throttle.wait()

    return clock, ask


def test_a_full_window_refuses_until_the_next_window_has_slid_far_enough(throttle_at):
    clock, ask = throttle_at
    assert [ask("10/min")[0] for _ in range(10)] == [True] * 10
    clock.now += 20
    allowed, wait = ask("10/min")
    assert not allowed and wait == 40  # the rest of this window; then all ten still count

    clock.now += 40 + 30  # half-way through the next window: half of the last one counts
    admitted = [ask("10/min")[0] for _ in range(6)]
    assert admitted == [True] * 5 + [False]
    allowed, wait = ask("10/min")
    assert not allowed and wait == 1
    clock.now += 6.1  # one more tenth of the last window has slid out of the period
    assert ask("10/min")[0]


def test_the_counters_stay_two_integers_whatever_the_rate(throttle_at):
    from django.core.cache import cache

    clock, ask = throttle_at
    for _ in range(300):
        assert ask("1200/min")[0]
        clock.now += 0.1
    assert ask("1200/min")[0]
    keys = [k for k in cache._cache if "throttle_auth" in k]  # LocMem's own store
    assert len(keys) == 1
    assert cache.get(keys[0].split(":", 2)[2]) == 301
