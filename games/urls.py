from django.urls import path

from games.history_views import PlayerGamesApi
from games.views import (
    GameActionsApi,
    GameAnalysisApi,
    GameDetailApi,
    GameHintApi,
    GamePositionApi,
    GameResignApi,
    GamesApi,
    PlayerApi,
)

app_name = "games"

urlpatterns = [
    path("games", GamesApi.as_view(), name="games"),
    path("games/<uuid:game_id>", GameDetailApi.as_view(), name="game"),
    path("games/<uuid:game_id>/actions", GameActionsApi.as_view(), name="actions"),
    path("games/<uuid:game_id>/analysis", GameAnalysisApi.as_view(), name="analysis"),
    path("games/<uuid:game_id>/resign", GameResignApi.as_view(), name="resign"),
    path("games/<uuid:game_id>/hint", GameHintApi.as_view(), name="hint"),
    path("games/<uuid:game_id>/positions/<int:step>", GamePositionApi.as_view(), name="position"),
    path("players/<username:username>", PlayerApi.as_view(), name="player"),
    path("players/<username:username>/games", PlayerGamesApi.as_view(), name="player-games"),
]
