"""Typed readers for environment variables, used by the settings module.

Each reader returns `default` when the variable is unset or empty, and raises
`ImproperlyConfigured` naming the variable when its value cannot be understood, so a bad
deployment fails at start-up rather than at the first request.

    >>> env_bool("DEBUG", default=False)
    False
"""

import os
import re

from django.core.exceptions import ImproperlyConfigured

_TRUE = {"1", "true", "yes", "on"}
_FALSE = {"0", "false", "no", "off"}
_ORIGIN = re.compile(r"^https?://[^/\s?#]+$")
_RATE = re.compile(r"^\d+/(s|sec|second|m|min|minute|h|hour|d|day)$")


def _raw(name: str) -> str | None:
    value = os.environ.get(name, "").strip()
    return value or None


def env_str(name: str, default: str = "") -> str:
    """The variable's value, stripped of surrounding whitespace."""
    value = _raw(name)
    return default if value is None else value


def env_bool(name: str, default: bool) -> bool:
    """1/true/yes/on or 0/false/no/off, in any case."""
    value = _raw(name)
    if value is None:
        return default
    if value.lower() in _TRUE:
        return True
    if value.lower() in _FALSE:
        return False
    raise ImproperlyConfigured(f"{name}={value!r} is not a boolean (use 1/0, true/false).")


def env_int(name: str, default: int, *, minimum: int | None = None) -> int:
    """A base-10 integer, at least `minimum` when given."""
    value = _raw(name)
    if value is None:
        return default
    try:
        number = int(value)
    except ValueError:
        raise ImproperlyConfigured(f"{name}={value!r} is not an integer.") from None
    if minimum is not None and number < minimum:
        raise ImproperlyConfigured(f"{name}={number} is below the minimum of {minimum}.")
    return number


def env_list(name: str, default: list[str] | None = None) -> list[str]:
    """A comma-separated list; blank items are dropped."""
    value = _raw(name)
    if value is None:
        return list(default or [])
    return [item.strip() for item in value.split(",") if item.strip()]


def env_choice(name: str, default: str, choices: tuple[str, ...]) -> str:
    """One of `choices`, compared case-insensitively and returned as spelled in `choices`."""
    value = env_str(name, default)
    for choice in choices:
        if value.lower() == choice.lower():
            return choice
    raise ImproperlyConfigured(f"{name}={value!r} is not one of {', '.join(choices)}.")


def env_rate(name: str, default: str) -> str:
    """A DRF throttle rate such as `20/min` or `1200/minute`."""
    value = env_str(name, default)
    if not _RATE.match(value):
        raise ImproperlyConfigured(f"{name}={value!r} is not a rate like '20/min' or '5/s'.")
    return value


def env_origins(name: str) -> list[str]:
    """A comma-separated list of web origins (``scheme://host[:port]``, no path), or ``*``."""
    origins = env_list(name)
    for origin in origins:
        if origin != "*" and not _ORIGIN.match(origin):
            raise ImproperlyConfigured(
                f"{name}: {origin!r} is not an origin like 'https://app.example.com' or '*'."
            )
    return origins
