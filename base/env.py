"""Typed readers for environment variables, used by the settings module.

Each reader returns `default` when the variable is unset or empty, and raises
`ImproperlyConfigured` naming the variable when its value cannot be understood, so a bad
deployment fails at start-up rather than at the first request.

    >>> env_bool("DEBUG", default=False)
    False
"""

import os
import re
from typing import Any
from urllib.parse import unquote, urlsplit

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


_EMAIL_BACKENDS = {
    "smtp": "django.core.mail.backends.smtp.EmailBackend",
    "smtps": "django.core.mail.backends.smtp.EmailBackend",
    "file": "django.core.mail.backends.filebased.EmailBackend",
    "console": "django.core.mail.backends.console.EmailBackend",
    "memory": "django.core.mail.backends.locmem.EmailBackend",
    "dummy": "django.core.mail.backends.dummy.EmailBackend",
}


def env_email(name: str, default: str) -> dict[str, Any]:
    """Django's EMAIL_* settings from one URL: ``smtp://user:password@host:port`` (STARTTLS
    unless the port is 25; ``smtps://`` is TLS from the first byte, port 465 by default),
    ``file:///dir`` (a file per email), ``console://``, ``memory://`` or ``dummy://``. The
    user and password are percent-decoded (``%40`` for ``@``)."""
    value = env_str(name, default)
    try:
        url = urlsplit(value)
        port = url.port
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name}: {exc}") from None
    if url.scheme not in _EMAIL_BACKENDS:
        raise ImproperlyConfigured(
            f"{name}={url.scheme}://...: use one of {', '.join(_EMAIL_BACKENDS)}."
        )
    settings: dict[str, Any] = {
        "EMAIL_BACKEND": _EMAIL_BACKENDS[url.scheme],
        "EMAIL_FILE_PATH": None,
        "EMAIL_HOST": "localhost",
        "EMAIL_PORT": 25,
        "EMAIL_HOST_USER": "",
        "EMAIL_HOST_PASSWORD": "",
        "EMAIL_USE_TLS": False,
        "EMAIL_USE_SSL": False,
    }
    if url.scheme == "file":
        if not url.path:
            raise ImproperlyConfigured(f"{name}: file:// needs a directory, file:///path.")
        settings["EMAIL_FILE_PATH"] = unquote(url.path)
    elif url.scheme in ("smtp", "smtps"):
        if not url.hostname:
            raise ImproperlyConfigured(f"{name}: {url.scheme}:// needs a host.")
        ssl = url.scheme == "smtps"
        settings["EMAIL_HOST"] = url.hostname
        settings["EMAIL_PORT"] = port or (465 if ssl else 25)
        settings["EMAIL_HOST_USER"] = unquote(url.username or "")
        settings["EMAIL_HOST_PASSWORD"] = unquote(url.password or "")
        settings["EMAIL_USE_SSL"] = ssl
        settings["EMAIL_USE_TLS"] = not ssl and settings["EMAIL_PORT"] != 25
    return settings
