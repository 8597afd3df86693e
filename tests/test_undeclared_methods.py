"""A method an endpoint does not have (TRACE, say) answers 405 with a JSON body, signed in or
not; never a 500. A format no renderer has (`?format=AAA`) is 406, not a 404 for a path that
exists."""

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


@pytest.mark.parametrize("path", ["/api/v1/me/export", "/api/v1/me", "/api/v1/leaderboard"])
def test_an_unknown_format_is_406_naming_the_formats_there_are(api_client, make_user, path) -> None:
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_of(make_user())}")
    response = api_client.get(path, {"format": "AAA"})
    assert response.status_code == 406, response.content
    body = response.json()
    assert body["code"] == "not_acceptable"
    assert "'AAA'" in body["detail"] and "json" in body["detail"]


@pytest.mark.parametrize("path", PATHS)
def test_options_describes_the_endpoint_to_a_signed_in_player(api_client, make_user, path) -> None:
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {token_of(make_user())}")
    response = api_client.options(path)
    assert response.status_code == 200, response.content
    assert "name" in response.json()
