"""`Authorization: Bearer <token>` authentication, with DRF's authtoken tokens.

A leaf module: DRF imports authentication classes while `rest_framework.views` is still loading,
so this must not import anything that imports `rest_framework.views`.
"""

from rest_framework.authentication import TokenAuthentication

BEARER_CHALLENGE = 'Bearer realm="api"'


class BearerTokenAuthentication(TokenAuthentication):
    keyword = "Bearer"

    def authenticate_header(self, request) -> str:
        return BEARER_CHALLENGE
