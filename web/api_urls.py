"""The web app's API: the rulebook."""

from django.urls import path

from web.api import RulebookApi

app_name = "web-api"

urlpatterns = [path("rules", RulebookApi.as_view(), name="rules")]
