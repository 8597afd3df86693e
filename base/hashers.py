"""The hash kept of an app's client secret (django-oauth-toolkit's CLIENT_SECRET_HASHER).

A password is guessable, so it is kept with a slow hash (PBKDF2, about 0.3 s of CPU a check)
to make each guess dear. A client secret is not: the server makes it, 128 random letters and
digits (about 760 bits), so no guess ever lands and a slow hash only makes every check, and
every wrong secret sent to `/oauth/token`, cost the server that much CPU. A salted SHA-256 is
as strong for it, at microseconds. Secrets kept before stay under their own hasher.
"""

from __future__ import annotations

import hashlib
from typing import Any

from django.contrib.auth.hashers import BasePasswordHasher, mask_hash
from django.utils.crypto import constant_time_compare


class ClientSecretHasher(BasePasswordHasher):
    algorithm = "sha256_secret"

    def encode(self, password: str, salt: str) -> str:
        if password is None or not salt or "$" in salt:  # as Django's own hashers refuse
            raise ValueError("A secret and a salt without '$' are needed.")
        digest = hashlib.sha256((salt + password).encode()).hexdigest()
        return f"{self.algorithm}${salt}${digest}"

    def decode(self, encoded: str) -> dict[str, Any]:
        algorithm, salt, digest = encoded.split("$", 2)
        assert algorithm == self.algorithm
        return {"algorithm": algorithm, "hash": digest, "salt": salt}

    def verify(self, password: str, encoded: str) -> bool:
        return constant_time_compare(encoded, self.encode(password, self.decode(encoded)["salt"]))

    def safe_summary(self, encoded: str) -> dict[Any, Any]:
        decoded = self.decode(encoded)
        return {
            "algorithm": decoded["algorithm"],
            "salt": mask_hash(decoded["salt"], show=2),
            "hash": mask_hash(decoded["hash"]),
        }

    def harden_runtime(self, password: str, encoded: str) -> None:
        pass  # nothing to even out: every check costs the same microseconds
