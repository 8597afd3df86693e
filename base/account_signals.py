"""What the accounts app announces, for the apps that hold a player's data it may not import
(the layers run races > leaderboard | accounts: the leaderboard and accounts are independent,
so the signals live here, below both, as the User model is named through settings).

``account_export(sender=User, user=user)``: a receiver returns an iterable of the NDJSON
objects (dicts, each with a ``type``) it adds to the player's export (``GET /me/export``),
read lazily and in bounded chunks: it is consumed while the download streams.

``account_erasing(sender=User, user=user, old_username=..., tombstone=...)``: sent inside the
transaction that deletes an account (docs/rules.md#deleting-an-account), before the user row
is renamed: a receiver ends what the player has running and rewrites the personal data it
holds (a denormalised username), keeping results under the tombstone. An exception rolls the
deletion back.
"""

from django.dispatch import Signal

account_export = Signal()
account_erasing = Signal()
