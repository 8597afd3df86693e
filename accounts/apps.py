from typing import Any

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db.models.signals import post_delete, post_save
        from rest_framework.authtoken.models import Token

        from accounts.models import User
        from spider_api.authentication import forget_user

        # A cached token must not outlive a change to it or to its user (logout, a revoked or
        # replaced token, deactivation, a new password): see spider_api.authentication.
        def on_user(sender: Any, instance: Any, **kwargs: Any) -> None:
            forget_user(instance.pk)

        def on_token(sender: Any, instance: Any, **kwargs: Any) -> None:
            forget_user(instance.user_id)

        post_save.connect(on_user, sender=User, weak=False, dispatch_uid="token_cache_user_save")
        post_delete.connect(on_user, sender=User, weak=False, dispatch_uid="token_cache_user_del")
        post_save.connect(on_token, sender=Token, weak=False, dispatch_uid="token_cache_tok_save")
        post_delete.connect(on_token, sender=Token, weak=False, dispatch_uid="token_cache_tok_del")
