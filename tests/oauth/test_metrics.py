"""The provider's figures (oauth/metrics.py): token requests by grant type and result, both
labels bounded (a grant type or error the server does not know is `other`)."""

from __future__ import annotations

import pytest

from tests.metrics.helpers import value
from tests.oauth.helpers import form_post, refresh, tokens_for

pytestmark = pytest.mark.django_db


def requests(grant_type: str, result: str) -> float:
    return value("spider_oauth_token_requests_total", grant_type=grant_type, result=result)


def test_token_requests_by_grant_type_and_result(metrics_on, auth_client, user, api_client):
    before = {
        "code": requests("authorization_code", "granted"),
        "refresh": requests("refresh_token", "granted"),
        "reused": requests("refresh_token", "invalid_grant"),
        "odd": requests("other", "unsupported_grant_type"),
    }
    tokens = tokens_for(auth_client(user), api_client)
    assert refresh(api_client, tokens["client_id"], tokens["refresh_token"]).status_code == 200
    reused = refresh(api_client, tokens["client_id"], tokens["refresh_token"])
    assert reused.status_code == 400 and reused.json()["error"] == "invalid_grant"
    odd = form_post(api_client, "/oauth/token", {"grant_type": "password-of-my-choosing"})
    assert odd.json()["error"] == "unsupported_grant_type"

    assert requests("authorization_code", "granted") == before["code"] + 1
    assert requests("refresh_token", "granted") == before["refresh"] + 1
    assert requests("refresh_token", "invalid_grant") == before["reused"] + 1
    assert requests("other", "unsupported_grant_type") == before["odd"] + 1


def test_a_body_that_is_no_form_is_counted_without_being_read(metrics_on, api_client):
    before = requests("other", "invalid_request")
    response = api_client.generic("POST", "/oauth/token", b"x", content_type="multipart/form-data")
    assert response.status_code == 400 and response.json()["error"] == "invalid_request"
    assert requests("other", "invalid_request") == before + 1
