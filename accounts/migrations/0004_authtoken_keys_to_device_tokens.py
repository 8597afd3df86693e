"""DRF authtoken's keys become device tokens, and its table (plaintext keys) goes.

Each user's key keeps working: it is stored as its SHA-256, a device token named "legacy"
expiring FIRST_PARTY_TOKEN_DAYS from now (sliding with use, like any sign-in). The authtoken
app is no longer installed, so its table is read and dropped with plain SQL, and its rows in
django_migrations go too (installing the app again would then create its table afresh).
Irreversible: the plaintext keys are gone.
"""

import hashlib
from datetime import UTC, timedelta

from django.conf import settings
from django.db import migrations
from django.utils import timezone
from django.utils.dateparse import parse_datetime

TABLE = "authtoken_token"


def _aware(value):
    """A raw cursor's datetime: SQLite's is text, in UTC (Django writes it so)."""
    if isinstance(value, str):
        value = parse_datetime(value)
    if timezone.is_naive(value):
        value = timezone.make_aware(value, UTC)
    return value


def keys_to_device_tokens(apps, schema_editor):
    connection = schema_editor.connection
    if TABLE not in connection.introspection.table_names():
        return
    ApiToken = apps.get_model("accounts", "ApiToken")
    expires = timezone.now() + timedelta(days=settings.FIRST_PARTY_TOKEN_DAYS)
    with connection.cursor() as cursor:
        cursor.execute(f"SELECT key, user_id, created FROM {TABLE}")
        rows = cursor.fetchall()
    ApiToken.objects.bulk_create(
        ApiToken(
            user_id=user_id,
            kind="device",
            name="legacy",
            key_hash=hashlib.sha256(key.encode()).hexdigest(),
            scope="",
            created=_aware(created),
            expires=expires,
        )
        for key, user_id, created in rows
    )
    schema_editor.execute(f"DROP TABLE {TABLE}")
    schema_editor.execute("DELETE FROM django_migrations WHERE app = 'authtoken'")


class Migration(migrations.Migration):
    dependencies = [("accounts", "0003_api_tokens")]

    operations = [migrations.RunPython(keys_to_device_tokens, elidable=False)]
