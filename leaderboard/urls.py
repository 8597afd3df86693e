from django.urls import path

from leaderboard.views import (
    DailyApi,
    DailyDaysApi,
    DailyLeaderboardApi,
    DailyPlayApi,
    GamePlacesApi,
    LeaderboardApi,
    PlayerDailyApi,
    PlayerPlacesApi,
)

app_name = "leaderboard"

urlpatterns = [
    path("leaderboard", LeaderboardApi.as_view(), name="leaderboard"),
    path("leaderboard/games/<uuid:game_id>", GamePlacesApi.as_view(), name="game-places"),
    path("players/<username:username>/places", PlayerPlacesApi.as_view(), name="player-places"),
    path("players/<username:username>/daily", PlayerDailyApi.as_view(), name="player-daily"),
    path("daily", DailyApi.as_view(), name="daily"),
    path("daily/play", DailyPlayApi.as_view(), name="daily-play"),
    path("daily/days", DailyDaysApi.as_view(), name="daily-days"),
    path("daily/<str:day>/leaderboard", DailyLeaderboardApi.as_view(), name="daily-leaderboard"),
]
