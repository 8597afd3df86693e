"""DRF authtoken's 40-hex keys (before accounts.ApiToken) keep working: the data migration keeps
each as a device token, stored as its hash, and drops the table of plaintext keys."""

import importlib
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.db import connection
from django.urls import reverse

from accounts.models import ApiToken

pytestmark = pytest.mark.django_db

MIGRATION = importlib.import_module("accounts.migrations.0004_authtoken_keys_to_device_tokens")
KEY = "9944b09199c62bcf9418ad846dd0e4bbdfc6ee4b"


def test_an_old_key_becomes_a_device_token_that_still_works(api_client, make_user):
    user = make_user()
    ApiToken.objects.filter(user=user).delete()
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, "
            "user_id bigint NOT NULL, created timestamp with time zone NOT NULL)"
            if connection.vendor == "postgresql"
            else "CREATE TABLE authtoken_token (key varchar(40) PRIMARY KEY, "
            "user_id bigint NOT NULL, created datetime NOT NULL)"
        )
        cursor.execute(
            "INSERT INTO authtoken_token VALUES (%s, %s, %s)",
            [KEY, user.pk, "2026-11-30 05:42:00"],
        )
        editor = SimpleNamespace(connection=connection, execute=cursor.execute)

        MIGRATION.keys_to_device_tokens(apps, editor)

    assert "authtoken_token" not in connection.introspection.table_names()
    token = ApiToken.objects.get(user=user)
    assert (token.kind, token.name, token.created.year) == ("device", "legacy", 2026)
    assert KEY not in token.key_hash
    api_client.credentials(HTTP_AUTHORIZATION=f"Bearer {KEY}")
    assert api_client.get(reverse("accounts:me")).json()["username"] == user.username


def test_without_the_old_table_the_migration_does_nothing(make_user):
    make_user()
    editor = SimpleNamespace(connection=connection, execute=None)

    MIGRATION.keys_to_device_tokens(apps, editor)

    assert ApiToken.objects.count() == 1
