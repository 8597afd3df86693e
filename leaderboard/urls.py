from django.urls import path

from leaderboard.views import DailyApi, DailyLeaderboardApi, DailyPlayApi, LeaderboardApi

app_name = "leaderboard"

urlpatterns = [
    path("leaderboard", LeaderboardApi.as_view(), name="leaderboard"),
    path("daily", DailyApi.as_view(), name="daily"),
    path("daily/play", DailyPlayApi.as_view(), name="daily-play"),
    path("daily/<str:day>/leaderboard", DailyLeaderboardApi.as_view(), name="daily-leaderboard"),
]
