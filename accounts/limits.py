"""How much of each a player may hold: sign-ins, personal access tokens and their life, a
device's name."""

# A player's sign-ins: signing in on one more device than this signs out the one used least
# recently, so no one can pile up rows by inventing device names.
MAX_DEVICE_TOKENS = 20
MAX_PERSONAL_TOKENS = 50
PERSONAL_TOKEN_MAX_DAYS = 365
DEVICE_NAME_MAX_LENGTH = 64
