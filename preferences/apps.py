from django.apps import AppConfig


class PreferencesConfig(AppConfig):
    name = "preferences"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # A player's export and the deletion of an account (accounts cannot import us).
        from base.account_signals import account_erasing, account_export
        from preferences import account

        account_export.connect(account.export_settings, dispatch_uid="preferences.export")
        account_erasing.connect(account.erase_settings, dispatch_uid="preferences.erase")
