from django.urls import path

from accounts.views import MeApi, TokenObtainApi, UserRegisterApi

app_name = "accounts"

urlpatterns = [
    path("auth/register", UserRegisterApi.as_view(), name="register"),
    path("auth/token", TokenObtainApi.as_view(), name="token"),
    path("me", MeApi.as_view(), name="me"),
]
