"""Accounts endpoints: register, get a token, read your own profile. Each calls one service or
selector; the serializers only validate input and shape output."""

from drf_spectacular.utils import OpenApiExample, extend_schema
from rest_framework import serializers, status
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from accounts.models import User, username_validator
from accounts.selectors import user_profile
from accounts.services import token_obtain, user_register
from coins.serializers import CoinSummarySerializer
from games.serializers import ModeStatsSerializer
from spider_api.openapi import bad_request, error_response, invalid_example
from spider_api.serializers import JsonInputSerializer

_CREDENTIALS = OpenApiExample(
    "Credentials",
    value={"username": "alice", "password": "correct horse battery"},
    request_only=True,
)
_TOKEN = "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"


class _AuthApi(APIView):
    """Anyone may call these; a stale token sent along is ignored rather than refused."""

    authentication_classes = ()
    permission_classes = (AllowAny,)
    throttle_scope = "auth"


class UserRegisterApi(_AuthApi):
    class InputSerializer(JsonInputSerializer):
        username = serializers.CharField(
            min_length=3, max_length=30, validators=[username_validator]
        )
        password = serializers.CharField(max_length=128, trim_whitespace=False)

    class OutputSerializer(serializers.Serializer):
        username = serializers.CharField()
        token = serializers.CharField(help_text="Send as `Authorization: Bearer <token>`.")

    @extend_schema(
        operation_id="auth_register",
        tags=["auth"],
        summary="Create an account",
        description="Creates a player and returns their API token. Usernames are unique "
        "regardless of case; passwords must pass the server's password rules.",
        request=InputSerializer,
        responses={
            201: OutputSerializer,
            400: bad_request(invalid_example("username", "This field is required.")),
            409: error_response(
                "The username exists (in any letter case).",
                "username_taken",
                "That username is taken; choose another.",
            ),
        },
        examples=[
            _CREDENTIALS,
            OpenApiExample(
                "Registered",
                value={"username": "alice", "token": _TOKEN},
                response_only=True,
                status_codes=["201"],
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        user = user_register(**serializer.validated_data)
        output = self.OutputSerializer({"username": user.username, "token": user.auth_token.key})
        return Response(output.data, status=status.HTTP_201_CREATED)


class TokenObtainApi(_AuthApi):
    class InputSerializer(JsonInputSerializer):
        username = serializers.CharField(max_length=150)
        password = serializers.CharField(max_length=128, trim_whitespace=False)

    class OutputSerializer(serializers.Serializer):
        token = serializers.CharField(help_text="Send as `Authorization: Bearer <token>`.")

    @extend_schema(
        operation_id="auth_token",
        tags=["auth"],
        summary="Get your API token",
        description="Returns the player's API token (the same one until it is revoked).",
        request=InputSerializer,
        responses={
            200: OutputSerializer,
            400: bad_request(invalid_example("password", "This field is required.")),
            401: error_response(
                "The username or the password is wrong.",
                "invalid_credentials",
                "Wrong username or password.",
            ),
        },
        examples=[
            _CREDENTIALS,
            OpenApiExample(
                "Token", value={"token": _TOKEN}, response_only=True, status_codes=["200"]
            ),
        ],
    )
    def post(self, request: Request) -> Response:
        serializer = self.InputSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        token = token_obtain(**serializer.validated_data)
        return Response(self.OutputSerializer({"token": token.key}).data)


class MeApi(APIView):
    class OutputSerializer(serializers.Serializer):
        username = serializers.CharField()
        date_joined = serializers.DateTimeField()
        is_staff = serializers.BooleanField()
        stats = ModeStatsSerializer(many=True, help_text="Per suit mode (1, 2, 4).")
        coins = CoinSummarySerializer(help_text="Your balance and today's (UTC) earnings.")

    @extend_schema(
        operation_id="me",
        tags=["auth"],
        summary="Your profile",
        description="Your account, your statistics per suit mode (1, 2, 4) and your coins "
        "(balance and today's earnings, UTC).",
        responses={200: OutputSerializer},
    )
    def get(self, request: Request) -> Response:
        assert isinstance(request.user, User)  # the view's permission let only players in
        profile = user_profile(user=request.user)
        return Response(self.OutputSerializer(profile).data)
