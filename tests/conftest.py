"""Fixtures for the whole suite.

- `api_client`: a DRF APIClient sending JSON, no credentials.
- `make_user(username=None, password=PASSWORD, **fields)`: creates a user signed in on one
  device (a device token, as `POST /auth/token` makes).
- `user`: one such user.
- `token_of(user)`: the secret of that token (a new sign-in for a user made otherwise).
- `auth_client(user)`: an APIClient sending `Authorization: Bearer <token_of(user)>`.
- `set_throttle_rate(scope, rate)`: turns one throttle scope on for this test (all are off).
- `metrics_on`: metrics on for this test (METRICS_TOKEN set; off otherwise, as in a
  deployment without one); tests/metrics/helpers.py reads and scrapes them.

Every test starts with POOL_AUTOFILL off and no broker failure remembered (base.queueing's
back-off), and the background threads it started (base.queueing.in_thread) are finished
before the next one.

Every response a test client receives is checked against the published OpenAPI schema
(`tests/schema_check.py`): an undocumented status code, header or field fails the test.
"""

import itertools
import threading
import time
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import pytest
from django.core.cache import cache
from django.db import connection
from django.test import Client
from rest_framework.test import APIClient

from accounts.models import User
from accounts.services import device_token_issue
from base import oauth
from base.authentication import forget_all
from base.queueing import BACKGROUND_THREAD_PREFIX, forget_broker_failure
from tests import schema_check

pytest_plugins = ["tests.browser_plugin"]

ROOT = Path(__file__).resolve().parent.parent  # the repository
PASSWORD = "correct horse battery staple"
# How long a test's teardown waits for the background threads it started.
BACKGROUND_JOIN_SECONDS = 60.0

_usernames = (f"player{n}" for n in itertools.count(1))
# user pk -> the secret of the sign-in the fixtures made for them (only hashes are stored)
_secrets: dict[int, str] = {}


def token_of(user: User) -> str:
    """The secret of ``user``'s test sign-in, made now if they have none."""
    if user.pk not in _secrets:
        _secrets[user.pk] = device_token_issue(user=user, device="tests").secret
    return _secrets[user.pk]


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    if connection.vendor == "postgresql":
        return
    skip = pytest.mark.skip(reason="needs PostgreSQL: set DATABASE_URL=postgres://...")
    for item in items:
        if "postgres" in item.keywords:
            item.add_marker(skip)


@pytest.fixture(autouse=True, scope="session")
def _stream_connections_closed(django_db_setup: None) -> Iterator[None]:
    """Set up after the test database and torn down before it: the race stream's database
    threads keep their connections open, and PostgreSQL will not drop a database in use."""
    yield
    from races.stream import close_db_connections

    close_db_connections()


@pytest.fixture(autouse=True, scope="session")
def _responses_match_the_schema() -> Iterator[None]:
    """Wrap the test client: every response it returns must match the schema."""
    answer = Client.request

    def request(self: Client, **environ: Any) -> Any:
        response: Any = answer(self, **environ)
        wsgi = getattr(response, "wsgi_request", None)
        if wsgi is not None and getattr(wsgi, "urlconf", None) is None:  # test-only URLconfs
            schema_check.check(wsgi.method, wsgi.path, dict(wsgi.GET.lists()), response)
        return response

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(Client, "request", request)
        yield


@pytest.fixture(autouse=True)
def _fast_password_hashing(settings) -> None:
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.MD5PasswordHasher",
        "base.hashers.ClientSecretHasher",  # apps' client secrets, as in production
    ]


@pytest.fixture(autouse=True)
def _no_throttling(settings) -> None:
    """Every throttle scope is off (rate None) unless a test calls `set_throttle_rate`."""
    rest_framework = dict(settings.REST_FRAMEWORK)
    rates = rest_framework["DEFAULT_THROTTLE_RATES"]
    rest_framework["DEFAULT_THROTTLE_RATES"] = dict.fromkeys(rates)
    settings.REST_FRAMEWORK = rest_framework
    cache.clear()  # throttle counters live in the cache


@pytest.fixture(autouse=True)
def _fresh_token_cache() -> None:
    """Each test starts with an empty token cache (base.authentication): a test's rolled
    back users and tokens must not answer for the next test's (OAuth2 ones: base.oauth)."""
    forget_all()
    oauth.forget_all_access_tokens()
    _secrets.clear()


def background_threads() -> list[threading.Thread]:
    """The threads base.queueing started for a task's work (no broker), still running."""
    return [t for t in threading.enumerate() if t.name.startswith(BACKGROUND_THREAD_PREFIX)]


@pytest.fixture(autouse=True)
def _no_autofill(settings) -> None:
    """No pool fill and no daily challenge made behind a test's back (POOL_AUTOFILL): a test
    that takes the pool's last deals or reads a missing challenge would otherwise vet deals
    in a thread for seconds or minutes. A test of that background work turns it on."""
    settings.POOL_AUTOFILL = False


@pytest.fixture(autouse=True)
def _background_work_ends_with_its_test() -> Iterator[None]:
    """Without a broker a queued task's work may run in a thread of this process (a pool
    fill, the day's challenge made for a reader, an analysis), on a database connection of
    its own that commits into the test database: one still running when its test ended
    wrote into the next test (a daily challenge appearing in the middle of it). So each is
    waited for when its test is torn down (autouse, so after the test's own database
    fixture), and one still running after BACKGROUND_JOIN_SECONDS fails the test.

    A broker failure remembered by an earlier test (base.queueing's back-off) is forgotten:
    each test publishes as if the broker had never failed."""
    forget_broker_failure()
    yield
    deadline = time.monotonic() + BACKGROUND_JOIN_SECONDS
    for thread in background_threads():
        thread.join(max(0.0, deadline - time.monotonic()))
    running = [t.name for t in background_threads()]
    assert not running, f"background work still running {BACKGROUND_JOIN_SECONDS}s on: {running}"


@pytest.fixture
def set_throttle_rate(settings) -> Callable[[str, str], None]:
    def set_rate(scope: str, rate: str) -> None:
        rest_framework = dict(settings.REST_FRAMEWORK)
        rates = dict(rest_framework["DEFAULT_THROTTLE_RATES"])
        assert scope in rates, f"unknown throttle scope {scope!r}"
        rates[scope] = rate
        rest_framework["DEFAULT_THROTTLE_RATES"] = rates
        settings.REST_FRAMEWORK = rest_framework

    return set_rate


@pytest.fixture
def metrics_on(settings) -> str:
    """Metrics on (a client made from here on has the metrics middleware); the token."""
    from tests.metrics.helpers import TOKEN

    settings.METRICS_TOKEN = TOKEN
    return TOKEN


@pytest.fixture
def api_client() -> APIClient:
    return APIClient()


@pytest.fixture
def make_user(db) -> Callable[..., User]:
    def make(username: str | None = None, password: str = PASSWORD, **fields) -> User:
        user = User.objects.create_user(username or next(_usernames), password=password, **fields)
        token_of(user)
        return user

    return make


@pytest.fixture
def user(make_user) -> User:
    return make_user()


@pytest.fixture
def auth_client() -> Callable[[User], APIClient]:
    def client_for(user: User) -> APIClient:
        client = APIClient()
        client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_of(user)}")
        return client

    return client_for
