from django.contrib import admin

from coins.models import CoinDay, CoinEntry


@admin.register(CoinEntry)
class CoinEntryAdmin(admin.ModelAdmin):
    """Read-only: the ledger is written by the game service and never edited."""

    list_display = ("player", "game", "day", "suits", "kind", "base", "bonus", "amount", "cut")
    list_filter = ("day", "suits", "kind")
    raw_id_fields = ("player", "game")

    def has_add_permission(self, request) -> bool:
        return False

    def has_change_permission(self, request, obj=None) -> bool:
        return False

    def has_delete_permission(self, request, obj=None) -> bool:
        return False


@admin.register(CoinDay)
class CoinDayAdmin(admin.ModelAdmin):
    list_display = ("player", "day", "earned")
    raw_id_fields = ("player",)

    def has_change_permission(self, request, obj=None) -> bool:
        return False
