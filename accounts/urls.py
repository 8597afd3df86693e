from django.urls import path

from accounts.views import (
    GuestCreateApi,
    GuestNameApi,
    LogoutApi,
    LogoutEverywhereApi,
    MeApi,
    MeDeleteApi,
    MeExportApi,
    PasswordChangeApi,
    PasswordResetApi,
    PasswordResetConfirmApi,
    TokenDetailApi,
    TokenObtainApi,
    TokensApi,
    UserClaimApi,
    UserRegisterApi,
)

app_name = "accounts"

urlpatterns = [
    path("auth/register", UserRegisterApi.as_view(), name="register"),
    path("auth/guest", GuestCreateApi.as_view(), name="guest"),
    path("auth/claim", UserClaimApi.as_view(), name="claim"),
    path("auth/token", TokenObtainApi.as_view(), name="token"),
    path("auth/logout", LogoutApi.as_view(), name="logout"),
    path("auth/logout-everywhere", LogoutEverywhereApi.as_view(), name="logout-everywhere"),
    path("auth/password-reset", PasswordResetApi.as_view(), name="password-reset"),
    path(
        "auth/password-reset/confirm",
        PasswordResetConfirmApi.as_view(),
        name="password-reset-confirm",
    ),
    path("me", MeApi.as_view(), name="me"),
    path("me/export", MeExportApi.as_view(), name="export"),
    path("me/delete", MeDeleteApi.as_view(), name="delete"),
    path("me/password", PasswordChangeApi.as_view(), name="password"),
    path("me/tokens", TokensApi.as_view(), name="tokens"),
    path("me/tokens/<row_id:token_id>", TokenDetailApi.as_view(), name="token-detail"),
    path("me/name", GuestNameApi.as_view(), name="guest-name"),
]
