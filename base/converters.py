"""Path converters for the API's names: a path segment that cannot be a username or a race code
matches no route and is a JSON 404 (`base.errors.page_not_found`) before any view or query
runs. (PostgreSQL refuses a NUL byte in a text parameter with a DataError: a 500.)

Importing this module registers the converters (the settings do, for the schema's patterns).
"""

from __future__ import annotations

from django.urls import register_converter

# accounts.models.User.username and races.models.Table.code (a test holds them equal; this
# module is read by the settings, before the models can be imported).
USERNAME_MAX_LENGTH = 30
CODE_MAX_LENGTH = 16


class _Converter:
    regex = ""

    def to_python(self, value: str) -> str:
        return value

    def to_url(self, value: str) -> str:
        return value


class UsernameConverter(_Converter):
    """A username as accounts.models.username_validator allows it (any length up to the
    maximum: a name too short for sign-up is simply nobody)."""

    regex = rf"[A-Za-z0-9_-]{{1,{USERNAME_MAX_LENGTH}}}"


class RaceCodeConverter(_Converter):
    """A table's invite code: letters and digits, in either case (codes are matched upper-case)."""

    regex = rf"[A-Za-z0-9]{{1,{CODE_MAX_LENGTH}}}"


class RowIdConverter(_Converter):
    """A database row's id: at most 18 digits, so it always fits a 64-bit column (a longer
    number would be a database error, not a 404)."""

    regex = r"[0-9]{1,18}"

    def to_python(self, value: str) -> int:  # type: ignore[override]
        return int(value)

    def to_url(self, value: object) -> str:
        return str(value)


register_converter(UsernameConverter, "username")
register_converter(RowIdConverter, "row_id")
register_converter(RaceCodeConverter, "race_code")

# For drf-spectacular (SPECTACULAR_SETTINGS["PATH_CONVERTER_OVERRIDES"]): the same patterns.
SCHEMAS = {
    "username": {"type": "string", "pattern": f"^{UsernameConverter.regex}$"},
    "race_code": {"type": "string", "pattern": f"^{RaceCodeConverter.regex}$"},
    "row_id": {"type": "integer", "minimum": 0, "maximum": 10**18 - 1},
}
