"""The daily 2-suit challenge and the public leaderboards of won games."""
