"""The per-process token cache (base.authentication): a known token costs no query, and
any change to the token or its user is seen by the very next request."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from accounts.models import ApiToken
from accounts.services import device_token_issue
from base import authentication
from tests.conftest import token_of

pytestmark = pytest.mark.django_db

URL = reverse("accounts:me")


def _token_lookups(client) -> tuple[int, int]:
    """(status, statements that read accounts_apitoken) of one GET /me."""
    with CaptureQueriesContext(connection) as captured:
        status = client.get(URL).status_code
    return status, sum(
        "accounts_apitoken" in q["sql"] and q["sql"].startswith("SELECT")
        for q in captured.captured_queries
    )


def test_a_known_token_is_not_looked_up_again(auth_client, user):
    client = auth_client(user)

    assert _token_lookups(client) == (200, 1)
    assert _token_lookups(client) == (200, 0)
    assert _token_lookups(client) == (200, 0)


def test_a_deleted_token_is_refused_at_once(auth_client, user):
    client = auth_client(user)
    assert client.get(URL).status_code == 200

    ApiToken.objects.filter(user=user).delete()  # signed out, or revoked in the admin

    response = client.get(URL)
    assert response.status_code == 401
    assert response.json()["code"] == "invalid_token"


def test_a_replaced_token_refuses_the_old_and_accepts_the_new(auth_client, api_client, user):
    old_client = auth_client(user)
    assert old_client.get(URL).status_code == 200

    new = device_token_issue(user=user, device="tests")  # signed in again on that device

    assert old_client.get(URL).status_code == 401
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {new.secret}")
    assert api_client.get(URL).status_code == 200


def test_a_deactivated_user_is_refused_at_once(auth_client, user):
    client = auth_client(user)
    assert client.get(URL).status_code == 200

    user.is_active = False
    user.save()

    assert client.get(URL).status_code == 401


def test_new_rights_are_seen_at_once(auth_client, user):
    client = auth_client(user)
    assert client.get(URL).json()["is_staff"] is False

    user.is_staff = True
    user.save()

    status, lookups = _token_lookups(client)
    assert (status, lookups) == (200, 1)  # read again from the database
    assert client.get(URL).json()["is_staff"] is True


def test_a_new_password_refuses_the_cached_token_at_once(auth_client, user):
    client = auth_client(user)
    assert client.get(URL).status_code == 200

    user.set_password("another long password 2")
    user.save()

    assert client.get(URL).status_code == 401


def test_an_entry_expires_after_the_ttl(auth_client, user, monkeypatch):
    client = auth_client(user)
    now = [1000.0]
    monkeypatch.setattr(authentication.time, "monotonic", lambda: now[0])
    assert _token_lookups(client) == (200, 1)

    now[0] += 9.9
    assert _token_lookups(client) == (200, 0)
    now[0] += 0.2  # past TOKEN_CACHE_SECONDS (10)
    assert _token_lookups(client) == (200, 1)


def test_no_cache_with_a_ttl_of_zero(auth_client, user, settings):
    settings.TOKEN_CACHE_SECONDS = 0
    client = auth_client(user)

    assert _token_lookups(client) == (200, 1)
    assert _token_lookups(client) == (200, 1)


def test_each_request_gets_its_own_user_object(auth_client, user):
    """The cached user is copied out: what one request caches on it is not another's."""
    key = token_of(user)
    auth = authentication.BearerTokenAuthentication()

    first, _ = auth.authenticate_credentials(key)
    second, _ = auth.authenticate_credentials(key)

    assert first == second and first is not second
    first.first_name = "changed"
    assert second.first_name != "changed"


CHECKER = """
import sys, django
django.setup()
from rest_framework.exceptions import AuthenticationFailed
from base.authentication import BearerTokenAuthentication
auth = BearerTokenAuthentication()
for line in sys.stdin:
    try:
        auth.authenticate_credentials(line.strip())
        print("ok", flush=True)
    except AuthenticationFailed:
        print("refused", flush=True)
"""


@pytest.mark.postgres
@pytest.mark.django_db(transaction=True)
def test_another_process_refuses_a_revoked_token_within_the_bound(user):
    """Another web process keeps its cache: it may accept a revoked token for at most
    TOKEN_CACHE_SECONDS (2 here), never longer."""
    import os
    import subprocess
    import sys
    import time

    from django.db import connection

    from accounts.services import revoke_tokens
    from tests.conftest import ROOT

    db = connection.settings_dict
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "spider_api.settings",
        "DATABASE_URL": f"postgres://{db['USER']}@{db['HOST']}:{db['PORT']}/{db['NAME']}",
        "TOKEN_CACHE_SECONDS": "2",
    }
    checker = subprocess.Popen(
        [sys.executable, "-c", CHECKER],
        cwd=ROOT,
        env=env,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    assert checker.stdin and checker.stdout

    def check() -> str:
        checker.stdin.write(token_of(user) + "\n")
        checker.stdin.flush()
        return checker.stdout.readline().strip()

    try:
        key = token_of(user)
        assert check() == "ok"  # cached there now
        revoke_tokens(user)
        revoked = time.monotonic()
        answers = []
        while time.monotonic() - revoked < 4:
            answers.append((time.monotonic() - revoked, check()))
            if answers[-1][1] == "refused":
                break
            time.sleep(0.1)
        assert answers[-1][1] == "refused", answers
        assert answers[-1][0] <= 2.5, answers  # the TTL, and a little for the round trip
        assert key == token_of(user)
    finally:
        checker.stdin.close()
        checker.wait(timeout=10)


def test_a_lookup_reads_what_the_orm_reads_in_one_statement(user):
    """The cache's lookup is a statement of its own (base.rows): it builds the token
    and its user as the ORM would, every field, with the user loaded."""
    issued = device_token_issue(user=user, device="lookup")
    authentication.forget_all()
    key_hash = issued.token.key_hash
    with CaptureQueriesContext(connection) as captured:
        token = authentication._token_with_user(key_hash)
    assert len(captured.captured_queries) == 1
    orm = ApiToken.objects.select_related("user").get(key_hash=key_hash)
    for field in ApiToken._meta.concrete_fields:
        assert getattr(token, field.attname) == getattr(orm, field.attname), field.name
    with CaptureQueriesContext(connection) as captured:
        loaded = token.user  # no second query: it came with the token
    assert not captured.captured_queries
    for field in type(orm.user)._meta.concrete_fields:
        assert getattr(loaded, field.attname) == getattr(orm.user, field.attname), field.name
    assert authentication._token_with_user("0" * 64) is None
