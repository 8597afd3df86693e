"""Every error answers {"code", "detail", ...}: DRF's, Django's and the domain's.

This module is also the URLconf of the tests marked `urls(__name__)`: the real API plus a few
views that fail on purpose.
"""

import pytest
from django.core.exceptions import PermissionDenied
from django.core.exceptions import ValidationError as DjangoValidationError
from django.http import Http404
from django.test import Client
from django.urls import path, reverse
from rest_framework.exceptions import ValidationError
from rest_framework.permissions import AllowAny
from rest_framework.response import Response
from rest_framework.views import APIView

from base.errors import DomainError
from spider_api.urls import urlpatterns as api_urlpatterns

pytestmark = pytest.mark.django_db


class VersionConflict(DomainError):
    code, detail, status = "version_conflict", "The game has moved on.", 409


def _failing_view(exc: Exception):
    class FailingApi(APIView):
        permission_classes = (AllowAny,)

        def get(self, request):
            raise exc

    return FailingApi.as_view()


class CrashApi(APIView):
    permission_classes = (AllowAny,)

    def get(self, request):
        raise RuntimeError("boom")


class EchoApi(APIView):
    permission_classes = (AllowAny,)

    def post(self, request):
        return Response(request.data)


urlpatterns = [
    *api_urlpatterns,
    path("t/domain", _failing_view(DomainError("stock_empty", "The stock is empty.", 422))),
    path("t/subclass", _failing_view(VersionConflict(extra={"version": 7}))),
    path("t/unauthorized", _failing_view(DomainError("nope", "Who are you?", 401))),
    path("t/django-validation", _failing_view(DjangoValidationError({"seed": ["Too big."]}))),
    path("t/nested", _failing_view(ValidationError({"columns": [{}, {"up": ["Bad card."]}]}))),
    path("t/plain", _failing_view(ValidationError("Pick a suit mode."))),
    path("t/http404", _failing_view(Http404("No Game matches the given query."))),
    path("t/forbidden", _failing_view(PermissionDenied())),
    path("t/crash", CrashApi.as_view()),
    path("t/echo", EchoApi.as_view()),
]
handler404 = "base.errors.page_not_found"
handler500 = "base.errors.server_error"

local_urls = pytest.mark.urls(__name__)


@pytest.mark.parametrize("url", ["/nope", "/api/v1/nope", "/api/v1/me/"])
def test_unknown_paths_are_json_404(client, url):
    response = client.get(url)

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json() == {
        "code": "not_found",
        "detail": f"Nothing is at {url}. See /api/docs/.",
    }


@pytest.mark.parametrize("method", ["get", "post"])
@pytest.mark.parametrize("url", ["/api/v1/nope", "/api/v1/me/", "/api/v2/games", "/api/"])
def test_unknown_api_paths_are_json_404_even_under_debug(client, settings, url, method):
    """``make run`` has DEBUG on, where Django would answer its HTML debug page."""
    settings.DEBUG = True

    response = getattr(client, method)(url)

    assert response.status_code == 404
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "not_found"


@pytest.mark.parametrize("url", ["/api/v1/nope", "/api/v1/games/null,null/actions"])
def test_a_post_to_an_unknown_api_path_is_a_json_404_not_a_csrf_page(url):
    """The test client skips CSRF checks unless told; a real client (schemathesis) does not."""
    response = Client(enforce_csrf_checks=True).post(url, "{}", content_type="application/json")

    assert response.status_code == 404
    assert response.json()["code"] == "not_found"


def test_wrong_method_is_405(api_client):
    response = api_client.put(reverse("accounts:register"), {})

    assert response.status_code == 405
    assert response.json() == {"code": "method_not_allowed", "detail": 'Method "PUT" not allowed.'}
    assert response["Allow"] == "POST, OPTIONS"


@pytest.mark.parametrize(
    "content_type", ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data"]
)
def test_bodies_other_than_json_are_415(api_client, content_type):
    response = api_client.post(
        reverse("accounts:register"), data="username=a", content_type=content_type
    )

    assert response.status_code == 415
    assert response.json()["code"] == "unsupported_media_type"


def test_html_is_not_offered(api_client, user, auth_client):
    response = auth_client(user).get(reverse("accounts:me"), HTTP_ACCEPT="text/html")

    assert response.status_code == 406
    assert response.json()["code"] == "not_acceptable"


@local_urls
def test_a_domain_error_renders_its_code_detail_and_status(api_client):
    response = api_client.get("/t/domain")

    assert response.status_code == 422
    assert response.json() == {"code": "stock_empty", "detail": "The stock is empty."}


@local_urls
def test_a_domain_error_subclass_keeps_its_defaults_and_adds_extra(api_client):
    response = api_client.get("/t/subclass")

    assert response.status_code == 409
    assert response.json() == {
        "code": "version_conflict",
        "detail": "The game has moved on.",
        "version": 7,
    }


@local_urls
def test_a_401_domain_error_carries_the_bearer_challenge(api_client):
    response = api_client.get("/t/unauthorized")

    assert response.status_code == 401
    assert response["WWW-Authenticate"] == 'Bearer realm="api"'


def test_extra_may_not_override_code_or_detail():
    with pytest.raises(ValueError, match="extra"):
        DomainError("x", "y", 400, extra={"code": "z"})


@local_urls
def test_a_django_validation_error_is_400_invalid(api_client):
    response = api_client.get("/t/django-validation")

    assert response.status_code == 400
    assert response.json() == {
        "code": "invalid",
        "detail": "Invalid input: seed: Too big.",
        "errors": {"seed": ["Too big."]},
    }


@local_urls
@pytest.mark.parametrize(
    ("url", "detail", "errors"),
    [
        (
            "/t/nested",
            "Invalid input: columns[1].up: Bad card.",
            {"columns[1].up": ["Bad card."]},  # flat: a field's path -> its sentences
        ),
        (
            "/t/plain",
            "Invalid input: Pick a suit mode.",
            {"non_field_errors": ["Pick a suit mode."]},
        ),
    ],
)
def test_validation_errors_name_their_first_problem(api_client, url, detail, errors):
    response = api_client.get(url)

    assert response.status_code == 400
    assert response.json() == {"code": "invalid", "detail": detail, "errors": errors}


@local_urls
def test_http404_in_a_view_is_not_found(api_client):
    response = api_client.get("/t/http404")

    assert response.status_code == 404
    assert response.json() == {"code": "not_found", "detail": "Not found."}


@local_urls
def test_djangos_permission_denied_is_403(api_client):
    response = api_client.get("/t/forbidden")

    assert response.status_code == 403
    assert response.json()["code"] == "permission_denied"


@local_urls
def test_a_crash_is_a_json_500(api_client):
    api_client.raise_request_exception = False

    response = api_client.get("/t/crash")

    assert response.status_code == 500
    assert response["Content-Type"] == "application/json"
    assert response.json()["code"] == "server_error"


@local_urls
def test_malformed_json_is_400_malformed_json(api_client):
    response = api_client.post("/t/echo", data="{nope", content_type="application/json")

    assert response.status_code == 400
    assert response.json()["code"] == "malformed_json"
