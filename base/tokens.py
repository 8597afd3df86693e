"""API token secrets: how they look, how they are made, and the hash the database keeps.

A secret is shown once, when it is made; the database keeps only its SHA-256 (a lookup is by
that hash, so a leaked table holds nothing that authenticates). New secrets say what they are,
so a secret scanner can find them in a commit or a log and a player can tell them apart:

    spd_dev_<40 letters and digits><6: checksum>   a first-party sign-in (`POST /auth/token`)
    spd_pat_<40 letters and digits><6: checksum>   a personal access token

The checksum (CRC32 of the rest, base 62) lets a scanner, and the API before any query, tell
a real secret from a typo or a made-up one. Keys made before these (40 hex digits, DRF's
authtoken) are kept as device tokens and keep working.

A leaf module (no Django import): `base.authentication` reads it on every request.
"""

from __future__ import annotations

import hashlib
import re
import secrets
import zlib
from typing import Final

DEVICE_PREFIX: Final = "spd_dev_"
PERSONAL_PREFIX: Final = "spd_pat_"
_ALPHABET: Final = "0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
_BODY: Final = 40  # 40 of 62 symbols: 238 random bits
_CHECK: Final = 6  # CRC32 fits in 6 base-62 digits
SECRET: Final = re.compile(rf"spd_(?:dev|pat)_[0-9A-Za-z]{{{_BODY + _CHECK}}}")
LEGACY_KEY: Final = re.compile(r"[0-9a-f]{40}")  # rest_framework.authtoken's keys


def _base62(number: int, width: int) -> str:
    digits = []
    for _ in range(width):
        number, digit = divmod(number, 62)
        digits.append(_ALPHABET[digit])
    return "".join(reversed(digits))


def _checksum(head: str) -> str:
    return _base62(zlib.crc32(head.encode()), _CHECK)


def make_secret(prefix: str) -> str:
    """A new secret with ``prefix`` (DEVICE_PREFIX or PERSONAL_PREFIX)."""
    head = prefix + "".join(secrets.choice(_ALPHABET) for _ in range(_BODY))
    return head + _checksum(head)


def looks_like_a_token(key: str) -> bool:
    """A secret of ours with the right checksum, or a legacy 40-hex key: worth a lookup."""
    if SECRET.fullmatch(key):
        return _checksum(key[:-_CHECK]) == key[-_CHECK:]
    return LEGACY_KEY.fullmatch(key) is not None


def secret_hash(key: str) -> str:
    """What the database keeps of a secret: its SHA-256, 64 hex digits."""
    return hashlib.sha256(key.encode()).hexdigest()
