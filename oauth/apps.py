from typing import Any

from django.apps import AppConfig


class OAuthConfig(AppConfig):
    """Third-party apps: their registration by players and the approval of their requests; the
    provider itself is django-oauth-toolkit (`oauth2_provider`)."""

    name = "oauth"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.contrib.auth import get_user_model
        from django.db.models.signals import post_delete, post_save
        from oauth2_provider.models import AccessToken

        from base.account_signals import account_erasing
        from base.oauth import forget_access_tokens_of, forget_token
        from oauth import account

        # A cached access token must not outlive its revocation (deleted: the revocation
        # endpoint, a reused refresh token's family, the app deleted) or a change to its
        # user: see base.oauth.
        def on_token(sender: Any, instance: Any, **kwargs: Any) -> None:
            forget_token(instance.pk)

        def on_user(sender: Any, instance: Any, **kwargs: Any) -> None:
            forget_access_tokens_of(instance.pk)

        User = get_user_model()
        post_save.connect(on_token, sender=AccessToken, weak=False, dispatch_uid="oauth_tok_save")
        post_delete.connect(on_token, sender=AccessToken, weak=False, dispatch_uid="oauth_tok_del")
        post_save.connect(on_user, sender=User, weak=False, dispatch_uid="oauth_user_save")
        post_delete.connect(on_user, sender=User, weak=False, dispatch_uid="oauth_user_del")
        account_erasing.connect(account.erase_apps, dispatch_uid="oauth.erase")
