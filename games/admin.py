from django.contrib import admin, messages

from games.integrity import replay_problem
from games.models import Action, Deal, Game, PlayerStats


@admin.register(Deal)
class DealAdmin(admin.ModelAdmin):
    list_display = ("id", "suits", "seed_db", "source", "state", "vetted", "par", "created_at")
    list_filter = ("suits", "source", "state", "vetted")


@admin.register(Game)
class GameAdmin(admin.ModelAdmin):
    list_display = ("id", "player", "suits", "kind", "status", "score", "actions", "created_at")
    list_filter = ("suits", "kind", "status", "ranked")
    raw_id_fields = ("player", "deal", "replay_of")
    actions = ("verify_replay",)

    @admin.action(description="Verify replay: the log rebuilds the stored state")
    def verify_replay(self, request, queryset):
        bad = 0
        for game in queryset.select_related("deal"):
            problem = replay_problem(game)
            if problem:
                bad += 1
                self.message_user(request, f"{game.id}: {problem}", messages.ERROR)
        if not bad:
            self.message_user(request, f"All {queryset.count()} games replay exactly.")


@admin.register(Action)
class ActionAdmin(admin.ModelAdmin):
    list_display = ("game", "seq", "kind", "src", "dst", "count", "created_at")
    raw_id_fields = ("game",)


@admin.register(PlayerStats)
class PlayerStatsAdmin(admin.ModelAdmin):
    list_display = ("player", "suits", "played", "wins", "best_score")
    raw_id_fields = ("player",)
