from typing import Any

from django.apps import AppConfig


class AccountsConfig(AppConfig):
    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.db import transaction
        from django.db.models.signals import post_delete, post_save

        from accounts.models import NOT_CHANGED, ApiToken, User
        from base.authentication import forget_user

        # A cached token must not outlive a change to it or to its user (logout, a revoked
        # token, deactivation, a new password): see base.authentication. Forgotten at
        # once and again at the commit (a request in between reads the rows as they were).
        def forget(user_id: Any) -> None:
            forget_user(user_id)
            transaction.on_commit(lambda: forget_user(user_id))

        def on_user_save(sender: Any, instance: User, created: bool, **kwargs: Any) -> None:
            keep, instance._password_changed_keeping = (
                instance._password_changed_keeping,
                NOT_CHANGED,
            )
            if keep is not NOT_CHANGED and not created:
                # A new password, however it was set (the admin, a shell, a service): every
                # token and session ends but the one the service keeps.
                from accounts.services import revoke_tokens

                revoke_tokens(instance, keep=keep)
            forget(instance.pk)

        def on_user_delete(sender: Any, instance: User, **kwargs: Any) -> None:
            forget(instance.pk)

        def on_token(sender: Any, instance: ApiToken, **kwargs: Any) -> None:
            forget(instance.user_id)

        post_save.connect(on_user_save, sender=User, weak=False, dispatch_uid="user_save")
        post_delete.connect(on_user_delete, sender=User, weak=False, dispatch_uid="user_del")
        post_save.connect(on_token, sender=ApiToken, weak=False, dispatch_uid="api_token_save")
        post_delete.connect(on_token, sender=ApiToken, weak=False, dispatch_uid="api_token_del")
