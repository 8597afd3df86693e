from django.contrib import admin

from races.models import Race, Racer, Seat, Table, TableEvent


@admin.register(Table)
class TableAdmin(admin.ModelAdmin):
    list_display = ("code", "opener", "suits", "time_limit_s", "status", "seq", "created_at")
    search_fields = ("code",)


@admin.register(Race)
class RaceAdmin(admin.ModelAdmin):
    list_display = ("table", "number", "status", "result", "end_reason", "starts_at")


admin.site.register(Seat)
admin.site.register(Racer)
admin.site.register(TableEvent)
