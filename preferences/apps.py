from django.apps import AppConfig


class PreferencesConfig(AppConfig):
    name = "preferences"
    default_auto_field = "django.db.models.BigAutoField"
