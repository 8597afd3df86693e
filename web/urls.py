"""The client's routes (web/routes.py), all served the same page."""

from django.urls import path, re_path

from web.routes import ROUTES
from web.views import index

app_name = "web"

# A reload or a shared link of any client route loads the client.
urlpatterns = [
    path("", index, name="index"),
    *(re_path(route.server_pattern(), index) for route in ROUTES if route.pattern),
]
