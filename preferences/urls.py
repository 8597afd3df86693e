from django.urls import path

from preferences.views import PlayerSettingsApi

app_name = "preferences"

urlpatterns = [
    path("me/settings", PlayerSettingsApi.as_view(), name="settings"),
]
