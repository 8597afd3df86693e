from django.urls import path

from races import views
from races.stream import race_events

app_name = "races"

# The stream is an async view (races.stream); drf-spectacular documents it from
# RaceEventsApi, which it finds through the callback's `cls`.
race_events.cls = views.RaceEventsApi  # type: ignore[attr-defined]
race_events.initkwargs = {}  # type: ignore[attr-defined]

urlpatterns = [
    path("races", views.RacesApi.as_view(), name="races"),
    path("races/<race_code:code>", views.RaceDetailApi.as_view(), name="race"),
    path("races/<race_code:code>/events", race_events, name="events"),
    path("races/<race_code:code>/ticket", views.RaceTicketApi.as_view(), name="ticket"),
    *[
        path(f"races/<race_code:code>/{name}", view.as_view(), name=name)
        for name, view in [
            ("sit", views.RaceSitApi),
            ("stand", views.RaceStandApi),
            ("ready", views.RaceReadyApi),
            ("unready", views.RaceUnreadyApi),
            ("start", views.RaceStartApi),
            ("again", views.RaceAgainApi),
            ("settings", views.RaceSettingsApi),
            ("resign", views.RaceResignApi),
            ("draw", views.RaceDrawApi),
        ]
    ],
    path("players/<username:username>/races", views.PlayerRacesApi.as_view(), name="player-races"),
]
