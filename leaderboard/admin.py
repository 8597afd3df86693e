from django.contrib import admin

from leaderboard.models import DailyChallenge, LeaderboardEntry


@admin.register(DailyChallenge)
class DailyChallengeAdmin(admin.ModelAdmin):
    list_display = ("date", "deal", "commitment", "created_at")
    raw_id_fields = ("deal",)


@admin.register(LeaderboardEntry)
class LeaderboardEntryAdmin(admin.ModelAdmin):
    list_display = ("username", "suits", "score", "elapsed_ms", "finished_at", "daily_date")
    list_filter = ("suits",)
    raw_id_fields = ("game", "player")
