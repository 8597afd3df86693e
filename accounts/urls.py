from django.urls import path

from accounts.views import (
    GuestCreateApi,
    MeApi,
    MeDeleteApi,
    MeExportApi,
    TokenObtainApi,
    UserClaimApi,
    UserRegisterApi,
)

app_name = "accounts"

urlpatterns = [
    path("auth/register", UserRegisterApi.as_view(), name="register"),
    path("auth/guest", GuestCreateApi.as_view(), name="guest"),
    path("auth/claim", UserClaimApi.as_view(), name="claim"),
    path("auth/token", TokenObtainApi.as_view(), name="token"),
    path("me", MeApi.as_view(), name="me"),
    path("me/export", MeExportApi.as_view(), name="export"),
    path("me/delete", MeDeleteApi.as_view(), name="delete"),
]
