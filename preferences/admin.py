from django.contrib import admin

from preferences.models import PlayerSettings


@admin.register(PlayerSettings)
class PlayerSettingsAdmin(admin.ModelAdmin):
    list_display = ("player", "four_colours", "look", "one_tap", "sound", "updated_at")
    raw_id_fields = ("player",)
