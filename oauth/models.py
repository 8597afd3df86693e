"""What the provider (django-oauth-toolkit) does not keep of an authorization code: whether
its authorization request named the redirect URI, and, once exchanged, the token family it
became. Keyed by the code's SHA-256, so a row says nothing usable of a code it outlives."""

from __future__ import annotations

from django.db import models


class IssuedCode(models.Model):
    code_hash = models.CharField(max_length=64, unique=True)
    # RFC 6749 4.1.3: a token request must repeat a redirect URI the authorization named.
    redirect_named = models.BooleanField()
    # The refresh tokens issued for the code (DOT's token_family): a second use of the code
    # revokes them (RFC 6749 4.1.2). Null until the code is exchanged.
    token_family = models.UUIDField(null=True)
    # The row is useless after this: the code's expiry, then the family's refresh lifetime.
    expires = models.DateTimeField(db_index=True)

    def __str__(self) -> str:
        return f"code {self.code_hash[:8]}"
