"""The provider's request validator (OAUTH2_PROVIDER["OAUTH2_VALIDATOR_CLASS"]): DOT's, held
to what the metadata advertises and to RFC 6749 where DOT is lenient.

- Only the grants of ``OAUTH2_GRANT_TYPES_SUPPORTED`` are ever used, whatever an app's row
  says (an app made in the admin, or registered before registration checked its grants).
- A token request must name the redirect URI its authorization request named (4.1.3), and a
  mismatch is ``invalid_grant`` (5.2), not oauthlib's ``invalid_request``.
- A code presented a second time revokes every token its first exchange issued (4.1.2).
"""

from __future__ import annotations

import hashlib
from datetime import timedelta
from typing import Any

from django.utils import timezone
from oauth2_provider.models import get_refresh_token_model
from oauth2_provider.oauth2_validators import OAuth2Validator
from oauth2_provider.settings import oauth2_settings
from oauthlib.oauth2.rfc6749 import errors

from oauth.models import IssuedCode

# Set on the authorization request by the authorization page (oauth.views): whether its query
# string named a redirect_uri.
REDIRECT_NAMED = "redirect_uri_named"


def _code_seconds() -> int:
    return int(oauth2_settings.AUTHORIZATION_CODE_EXPIRE_SECONDS)


def code_hash(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()


class Validator(OAuth2Validator):
    def validate_grant_type(
        self, client_id: str, grant_type: str, client: Any, request: Any, *args: Any, **kw: Any
    ) -> bool:
        if grant_type not in oauth2_settings.OAUTH2_GRANT_TYPES_SUPPORTED:
            return False  # oauthlib answers unauthorized_client
        return bool(super().validate_grant_type(client_id, grant_type, client, request))

    def save_authorization_code(
        self, client_id: str, code: dict[str, str], request: Any, *args: Any, **kw: Any
    ) -> None:
        super().save_authorization_code(client_id, code, request, *args, **kw)
        IssuedCode.objects.create(
            code_hash=code_hash(code["code"]),
            redirect_named=bool(getattr(request, REDIRECT_NAMED, True)),
            expires=timezone.now() + timedelta(seconds=_code_seconds()),
        )

    def confirm_redirect_uri(
        self, client_id: str, code: str, redirect_uri: str, client: Any, *args: Any, **kw: Any
    ) -> bool:
        request = kw.get("request") or (args[0] if args else None)
        if getattr(request, "using_default_redirect_uri", False):
            named = (
                IssuedCode.objects.filter(code_hash=code_hash(code))
                .values_list("redirect_named", flat=True)
                .first()
            )
            if named is not False:  # named, or a code we have no record of: required
                raise errors.InvalidGrantError(
                    description="redirect_uri is required: the authorization request named one.",
                    request=request,
                )
        if not super().confirm_redirect_uri(client_id, code, redirect_uri, client, *args, **kw):
            raise errors.InvalidGrantError(
                description="redirect_uri does not match the authorization request's.",
                request=request,
            )
        return True

    def validate_code(
        self, client_id: str, code: str, client: Any, request: Any, *args: Any, **kw: Any
    ) -> bool:
        if super().validate_code(client_id, code, client, request, *args, **kw):
            return True
        spent = IssuedCode.objects.filter(code_hash=code_hash(code), token_family__isnull=False)
        family = spent.values_list("token_family", flat=True).first()
        if family is not None:  # exchanged before: whoever holds its tokens may be a thief
            for refresh in get_refresh_token_model().objects.filter(
                token_family=family, revoked__isnull=True
            ):
                refresh.revoke()  # and its access token (the token cache hears of it)
        return False

    def _create_refresh_token(
        self, request: Any, refresh_token_code: str, access_token: Any, previous: Any
    ) -> Any:
        refresh = super()._create_refresh_token(request, refresh_token_code, access_token, previous)
        if request.grant_type == "authorization_code":
            IssuedCode.objects.filter(code_hash=code_hash(request.code)).update(
                token_family=refresh.token_family,
                expires=timezone.now()
                + timedelta(seconds=oauth2_settings.REFRESH_TOKEN_EXPIRE_SECONDS),
            )
        return refresh
