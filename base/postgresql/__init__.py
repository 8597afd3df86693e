"""The PostgreSQL backend the project runs on: Django's, with a cheaper connection health check
(see base.py). Settings select it for every postgres:// DATABASE_URL."""
