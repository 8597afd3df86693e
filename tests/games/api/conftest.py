"""Fixtures for the game API tests (the service tests import them too).

- ``player`` / ``player_client``: an ordinary player and their authenticated client;
  ``other`` / ``other_client``: a second one.
- ``staff`` / ``staff_client``: a staff user (may pass ``seed`` or ``layout``).
- ``clock``: freezes ``django.utils.timezone.now``; ``clock.advance(seconds=...)`` moves it.
"""

from __future__ import annotations

from datetime import datetime, timedelta

import pytest
from django.utils import timezone


@pytest.fixture
def player(make_user):
    return make_user()


@pytest.fixture
def player_client(auth_client, player):
    return auth_client(player)


@pytest.fixture
def other(make_user):
    return make_user()


@pytest.fixture
def other_client(auth_client, other):
    return auth_client(other)


@pytest.fixture
def staff(make_user):
    return make_user(is_staff=True)


@pytest.fixture
def staff_client(auth_client, staff):
    return auth_client(staff)


class Clock:
    """A stand-in for ``timezone.now`` that only moves when told to."""

    def __init__(self, start: datetime) -> None:
        self.now = start

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float = 0, ms: int = 0) -> datetime:
        self.now += timedelta(seconds=seconds, milliseconds=ms)
        return self.now


@pytest.fixture
def clock(monkeypatch) -> Clock:
    frozen = Clock(timezone.now().replace(microsecond=0))
    monkeypatch.setattr(timezone, "now", frozen)
    return frozen
