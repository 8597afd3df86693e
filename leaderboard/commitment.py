"""The daily challenge's commitment to its seed, and how anyone checks it.

Before the day starts the server publishes ``commitment = SHA-256(text)`` where ``text`` is::

    spider-daily:v1:<date YYYY-MM-DD>:<suits>:<deal_version>:<seed decimal>:<nonce hex>

When the day (UTC) has closed, ``seed`` and ``nonce`` are revealed. To verify: rebuild the
text, hash it, compare with the commitment published earlier; then deal
``(suits, seed)`` with DEAL_VERSION's documented shuffle and compare with the games played.
The random nonce keeps the seed from being guessed from the hash before the reveal.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import date


def new_nonce() -> str:
    return secrets.token_hex(16)


def commitment_text(*, day: date, suits: int, deal_version: int, seed: int, nonce: str) -> str:
    return f"spider-daily:v1:{day.isoformat()}:{suits}:{deal_version}:{seed}:{nonce}"


def commit(*, day: date, suits: int, deal_version: int, seed: int, nonce: str) -> str:
    text = commitment_text(day=day, suits=suits, deal_version=deal_version, seed=seed, nonce=nonce)
    return hashlib.sha256(text.encode()).hexdigest()
