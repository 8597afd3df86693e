"""The client's routes: ``/`` and the paths its router knows, all served the same page."""

from django.urls import path, re_path

from web.views import index

app_name = "web"

# Client-side routes: a reload or a shared link of any of them loads the client.
CLIENT_ROUTES = (
    r"^(?:(?:play|daily|leaderboard|replay|players|race|login|signup|rules|forgot|reset|account|apps)"
    r"(?:/[^/]+)?|account/tokens/new)/?$"
)

urlpatterns = [
    path("", index, name="index"),
    re_path(CLIENT_ROUTES, index, name="client-route"),
]
