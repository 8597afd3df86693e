"""The root URLconf: the v1 API, its OpenAPI schema and docs, health checks, the admin, and
the web client at `/`.

Apps add their API under `api/v1/` here; every path is exact (no trailing-slash redirects).
"""

from django.contrib import admin
from django.urls import include, path, re_path
from django.views.decorators.csrf import csrf_exempt
from drf_spectacular.views import SpectacularAPIView, SpectacularSwaggerView

from base.errors import page_not_found
from oauth.urls import PROVIDER
from spider_api.health import HealthApi, LivenessApi

urlpatterns = [
    path("api/v1/", include("accounts.urls")),
    path("api/v1/", include("games.urls")),
    path("api/v1/", include("leaderboard.urls")),
    path("api/v1/", include("races.urls")),
    path("api/v1/", include("oauth.urls")),
    path("api/v1/", include("preferences.urls")),
    path("api/v1/", include("web.api_urls")),  # the rulebook
    path("api/schema/", SpectacularAPIView.as_view(), name="schema"),
    path("api/docs/", SpectacularSwaggerView.as_view(url_name="schema"), name="docs"),
    path("health", HealthApi.as_view(), name="health"),
    path("health/live", LivenessApi.as_view(), name="health-live"),
    path("admin/", admin.site.urls),
    path("", PROVIDER),  # OAuth2: /oauth/token, /oauth/revoke, /.well-known/... (oauth/urls.py)
    # Any other /api/ path is a JSON 404 whatever DEBUG is (Django's debug 404 is HTML).
    # csrf_exempt: a POST there would otherwise get CSRF's HTML 403 (the API uses no cookies).
    re_path(r"^api/", csrf_exempt(page_not_found), name="api-not-found"),
    path("", include("web.urls")),  # the web client: / and its client-side routes
]

# Outside DRF views (unknown paths, crashes) Django answers with these: JSON, never HTML.
handler400 = "base.errors.handle_bad_request"
handler403 = "base.errors.permission_denied"
handler404 = "base.errors.page_not_found"
handler500 = "base.errors.server_error"
