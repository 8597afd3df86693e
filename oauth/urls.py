"""The apps API (`/api/v1/apps`, the authorization page's `/api/v1/oauth/authorization`, the
apps a player approved: `/api/v1/me/approved-apps`) and
the OAuth2 endpoints themselves (django-oauth-toolkit's views, at the root: `PROVIDER`).

The provider's URL names are DOT's (namespace `oauth2_provider`), so DOT's RFC 8414 metadata
names them as mounted here. Its `authorize` is the web client's page (a SPA signed in with a
bearer token, not a Django session); DOT's own session-and-template authorization view, its
device flow, introspection and application pages are not mounted.
"""

from django.urls import include, path

from oauth import endpoints
from oauth.views import (
    AppDetailApi,
    ApprovalDetailApi,
    ApprovalsApi,
    AppsApi,
    AuthorizationApi,
)
from web.views import index

app_name = "oauth"

urlpatterns = [
    path("apps", AppsApi.as_view(), name="apps"),
    path("apps/<str:client_id>", AppDetailApi.as_view(), name="app"),
    path("oauth/authorization", AuthorizationApi.as_view(), name="authorization"),
    path("me/approved-apps", ApprovalsApi.as_view(), name="approvals"),
    path("me/approved-apps/<str:client_id>", ApprovalDetailApi.as_view(), name="approval"),
]

_provider = [
    path("oauth/authorize", index, name="authorize"),  # the web client's page
    path("oauth/token", endpoints.TokenView.as_view(), name="token"),
    path("oauth/revoke", endpoints.RevokeTokenView.as_view(), name="revoke-token"),
    # RFC 7591/7592 dynamic registration (DCR_ENABLED; base.oauth.FirstPartyRegistration)
    path("oauth/register", endpoints.RegistrationView.as_view(), name="dcr-register"),
    path(
        "oauth/register/<str:client_id>",
        endpoints.RegistrationManagementView.as_view(),
        name="dcr-register-management",
    ),
    path(
        ".well-known/oauth-authorization-server",
        endpoints.MetadataView.as_view(),
        name="oauth-server-metadata",
    ),
]
PROVIDER = include((_provider, "oauth2_provider"))
