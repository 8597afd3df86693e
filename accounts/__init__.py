"""Accounts: the custom user model, registration and Bearer tokens."""
