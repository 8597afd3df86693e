from typing import Any

from django.contrib import admin
from django.contrib.auth.admin import UserAdmin

from accounts.models import ApiToken, User

admin.site.register(User, UserAdmin)


@admin.register(ApiToken)
class ApiTokenAdmin(admin.ModelAdmin):
    """Tokens can be seen and revoked (deleted) here, never made: a secret is shown only to
    the player it is made for. A new password set here revokes every token of the user."""

    list_display = ("user", "kind", "name", "created", "last_used", "expires")
    list_filter = ("kind",)
    search_fields = ("user__username", "name")
    readonly_fields = ("user", "kind", "name", "scope", "created", "last_used", "expires")
    exclude = ("key_hash",)

    def has_add_permission(self, request: Any) -> bool:
        return False

    def has_change_permission(self, request: Any, obj: Any = None) -> bool:
        return False
