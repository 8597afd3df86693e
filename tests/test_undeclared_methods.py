"""A method an endpoint does not have (TRACE, say) answers 405 with a JSON body, signed in or
not; never a 500."""

from __future__ import annotations

import pytest

from tests.conftest import token_of

pytestmark = pytest.mark.django_db

PATHS = ["/api/v1/me", "/api/v1/me/settings", "/api/v1/leaderboard", "/api/v1/daily"]


@pytest.mark.parametrize("path", PATHS)
@pytest.mark.parametrize("method", ["TRACE", "PURGE"])
def test_an_undeclared_method_is_a_json_405(api_client, make_user, path, method) -> None:
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_of(make_user())}")
    response = api_client.generic(method, path)
    assert response.status_code == 405, response.content
    assert response.json()["code"] == "method_not_allowed"
