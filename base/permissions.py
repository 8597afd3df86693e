"""The one check of a token's scopes: every API view names the scopes each of its methods needs.

A view that needs a signed-in player says what its token must allow, in one attribute:

    required_scopes = (GAME_PLAY,)                              # every method
    required_scopes = {"GET": (PROFILE_READ,), "POST": (GAME_PLAY,)}  # per method
    required_scopes = FIRST_PARTY                               # managing the account

A public method (anyone, a token optional) says `AllowAny` instead and needs no scope.
`tests/test_scopes.py` walks every view of the URLconf and fails on one that says neither.

The check is DOT's `TokenHasScope` (`token.is_valid(scopes)`: unexpired and allowing each
scope), on whatever token authenticated the request: an OAuth2 access token, a personal
access token, a first-party sign-in (which allows every scope of base.scopes.SCOPES).

`FIRST_PARTY` (the scope `account`) is the one decision of who may manage the account: the
account's own sign-ins only (a token whose `is_first_party` is true: accounts.ApiToken's
device tokens), never a token handed to a script or an app, whatever scopes it lists. It is
no scope an app can be granted (not in SCOPES); it is decided by the token's kind, so a
personal token given `account` by hand in the admin still cannot pass it. No handler checks
it again.

A refusal for scope is 403 `insufficient_scope` naming the scopes needed, with RFC 6750's
`WWW-Authenticate: Bearer error="insufficient_scope", scope="..."`; for FIRST_PARTY it is
403 `first_party_only`. The schema says both from the same declaration
(base.openapi: an `account` operation has no `oauth2` security and documents
`first_party_only`).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, Final

from django.core.exceptions import ImproperlyConfigured
from oauth2_provider.contrib.rest_framework import TokenHasScope
from rest_framework import exceptions

from base.authentication import BEARER_CHALLENGE

ACCOUNT: Final = "account"  # managing the account itself: never granted to an app
FIRST_PARTY: Final = (ACCOUNT,)
FIRST_PARTY_ONLY: Final = "first_party_only"  # the code of a refusal for ACCOUNT

ScopeDeclaration = Sequence[str] | Mapping[str, Sequence[str]]
# A read: GET, and HEAD (GET without its body). A view whose reads are public tests this.
READ_METHODS: Final = frozenset({"GET", "HEAD"})


class InsufficientScope(exceptions.PermissionDenied):
    """403 `insufficient_scope` with `scopes`. A DRF exception, not a DomainError: this module
    is loaded while DRF's views are (base.errors imports them); the exception handler
    adds `extra` to the body, DRF sends `auth_header` as WWW-Authenticate."""

    default_code = "insufficient_scope"

    def __init__(self, scopes: Sequence[str]) -> None:
        if ACCOUNT in scopes:
            code = FIRST_PARTY_ONLY
            detail = (
                "Only a first-party sign-in (POST /auth/token) may do this, not an app's token."
            )
        else:
            code = self.default_code
            detail = f"This token does not allow this: it needs {' '.join(scopes)}."
        super().__init__(detail, code)
        self.extra = {"scopes": list(scopes)}
        self.auth_header = (
            f'{BEARER_CHALLENGE}, error="insufficient_scope", scope="{" ".join(scopes)}"'
        )


def declared_scopes(view: Any, method: str) -> tuple[str, ...] | None:
    """What ``view`` declares for ``method``; None if it declares nothing for it. HEAD is
    GET without the body, so it needs what GET needs."""
    declared: ScopeDeclaration | None = getattr(view, "required_scopes", None)
    if declared is None:
        return None
    if isinstance(declared, Mapping):
        method = method.upper()
        scopes = declared.get("GET" if method == "HEAD" else method)
        return None if scopes is None else tuple(scopes)
    return tuple(declared)


def token_allows(token: Any, scopes: Sequence[str]) -> bool:
    """Whether ``token`` (what authenticated a request) allows every one of ``scopes``:
    unexpired and granted each (``is_valid``, DOT's and ours alike); ``account`` only if it
    is a first-party sign-in."""
    if token is None:
        return False
    if ACCOUNT in scopes and not getattr(token, "is_first_party", False):
        return False
    return bool(token.is_valid(list(scopes)))


class HasRequiredScopes(TokenHasScope):
    """The default permission: a signed-in player, whose token allows the view's scopes."""

    def get_scopes(self, request: Any, view: Any) -> list[str]:
        scopes = declared_scopes(view, request.method)
        if scopes is None:  # a view that forgot: refused, never let through
            raise ImproperlyConfigured(
                f"{type(view).__name__} declares no required_scopes for {request.method}"
            )
        return list(scopes)

    def has_permission(self, request: Any, view: Any) -> bool:
        user = request.user
        if not (user and user.is_authenticated):
            return False  # DRF answers 401 not_authenticated
        method = request.method.upper()
        if method == "OPTIONS" or method not in view.allowed_methods:
            # Nothing to allow: the view's description (DRF's metadata, no data of anyone's),
            # or a method it does not have (405 method_not_allowed).
            return True
        scopes = self.get_scopes(request, view)
        if token_allows(request.auth, scopes):
            return True
        raise InsufficientScope(scopes)
