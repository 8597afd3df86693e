# make run  - serve the API on SQLite at http://127.0.0.1:8000 (no configuration needed)
# make test - the whole test suite (set DATABASE_URL to run it on PostgreSQL)
# make lint - ruff, ruff format --check, import contracts

VENV ?= .venv
PYTHON ?= python3
BIN := $(VENV)/bin
# Re-install only when pyproject.toml changes (or the venv is new).
STAMP := $(VENV)/.installed.stamp

.PHONY: install run test lint

install: $(STAMP)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $@

# DEBUG on, SQLite (db.sqlite3 here), no broker: Celery tasks run in-process.
RUN_ENV := DEBUG=1 DATABASE_URL= CELERY_BROKER_URL=

run: install
	$(RUN_ENV) $(BIN)/python manage.py migrate --noinput
	@echo "Vetting a few deals for the pool (the first run takes a few seconds)..."
	$(RUN_ENV) $(BIN)/python manage.py fill_pool --count 3 --max-seconds 90
	@echo
	@echo "API docs: http://127.0.0.1:8000/api/docs/"
	@echo
	$(RUN_ENV) $(BIN)/python manage.py runserver 127.0.0.1:8000

test: install
	$(BIN)/pytest

lint: install
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache
