# make run  - serve the API and the race streams on SQLite at http://127.0.0.1:8000 (no
#            configuration needed; one uvicorn process)
# make test - the whole test suite (set DATABASE_URL to run it on PostgreSQL)
# make lint - ruff, ruff format --check, import contracts, mypy; and the web client's
#             JavaScript: TypeScript's check of its JSDoc types, ESLint (Node and npm needed,
#             for this target only: the tools are installed from package-lock.json)
# make api-types - the web client's API types (web/types/api.d.ts) generated again from the
#             OpenAPI schema (openapi-typescript); `make lint` fails while they differ
# make test-js - the web client's own tests (node --test tests/js: its rules held to the
#             engine's answers, the screens' state), Node needed
# make serve - the production processes (gunicorn, the uvicorn stream, Celery worker and
#              beat) on the local
#              PostgreSQL and Redis, DEBUG off, via honcho and the Procfile
# make sanitize - the solver's native core built with AddressSanitizer and UBSan (in
#              var/sanitize), and its tests run against that build
# make faults - the failure tests (tests/ops): real processes killed, PostgreSQL restarted,
#              Redis stopped, schemathesis; a private PostgreSQL cluster and Redis of their own

VENV ?= .venv
PYTHON ?= python3
BIN := $(VENV)/bin
# Re-install only when pyproject.toml changes, or the solver's native core (setup.py,
# games/solver/native: compiled by the install), or the venv is new.
STAMP := $(VENV)/.installed.stamp
CORE_SOURCES := setup.py $(wildcard games/solver/native/*.cpp games/solver/native/*.hpp)
# The JavaScript checkers, exactly as package-lock.json pins them (again when it changes).
NODE_STAMP := node_modules/.installed

.PHONY: install browser axe run test test-js lint lint-js api-types lint-api-types serve faults \
  sanitize

install: $(STAMP)

$(STAMP): pyproject.toml $(CORE_SOURCES)
	@printf 'int main() { return 0; }\n' | $(CXX) -std=c++17 -x c++ - -o /dev/null 2>/dev/null || { \
	  echo "make install compiles the solver's native core and needs a C++17 compiler: install g++ (Debian/Ubuntu: apt-get install g++)." >&2; exit 1; }
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
	# One ASGI process serves both the API and the race event streams, so the streams get
	# every event in memory (no Redis); from its start (ASGI lifespan) its in-process loop
	# fires the timers beat would (race countdowns, time limits, the daily close).
	$(RUN_ENV) $(BIN)/uvicorn spider_api.asgi:application --host 127.0.0.1 --port 8000 \
	  --lifespan on --no-access-log --no-proxy-headers --timeout-graceful-shutdown 2

# The browser tests drive the system Chromium (Debian's package). As root with apt-get (CI, a
# fresh machine) it is installed here; elsewhere those tests are skipped with a note.
browser:
	@command -v chromium >/dev/null 2>&1 || { \
	  if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
	    echo "Installing Chromium for the browser tests..."; \
	    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null; \
	  else echo "note: no chromium on PATH: the browser tests will be skipped"; fi; }

# The browser tests' accessibility checks inject axe-core, as package-lock.json pins it.
axe:
	@if command -v npm >/dev/null 2>&1; then $(MAKE) --no-print-directory $(NODE_STAMP); \
	else echo "note: no npm: the accessibility checks (axe-core) will be skipped"; fi

test: install browser axe
	$(BIN)/pytest

# The native core with AddressSanitizer and UndefinedBehaviorSanitizer, every error fatal;
# the tests that drive it (the step held to the engine beside the Python model's, garbage
# thrown at every bound function, the searches: solve, exhaust, goals, shorten, the pass
# against its slow reference, the rollouts) run against that build. The interpreter is not
# instrumented, so the sanitizer's runtime is preloaded and leak checks are off; pytest
# captures sys.stderr only, so a sanitizer's report (written to fd 2) reaches the terminal.
SANITIZE_DIR := var/sanitize
SANITIZE_FLAGS := -std=c++17 -O1 -g -fno-omit-frame-pointer -fsanitize=address,undefined \
  -fno-sanitize-recover=all -shared -fPIC
SANITIZE_TESTS ?= tests/solver/test_step.py tests/solver/test_core.py tests/solver/test_solver.py \
  tests/solver/test_goals.py tests/solver/test_shorten.py tests/solver/test_reference_search.py \
  tests/solver/test_rollouts.py

sanitize: install
	mkdir -p $(SANITIZE_DIR)
	$(CXX) $(SANITIZE_FLAGS) $$($(BIN)/python -m pybind11 --includes) -Igames/solver/native \
	  games/solver/native/core.cpp games/solver/native/binding.cpp -o $(SANITIZE_DIR)/_core.so
	ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1 \
	  LD_PRELOAD="$$($(CXX) -print-file-name=libasan.so) $$($(CXX) -print-file-name=libubsan.so)" \
	  $(BIN)/python -m tests.solver.sanitized $(SANITIZE_DIR)/_core.so -q -p no:cacheprovider \
	  --capture=sys $(SANITIZE_TESTS)

lint: install lint-api-types lint-js
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/lint-imports --no-cache
	DEBUG=1 $(BIN)/mypy  # its Django plugin loads the settings; DEBUG needs no SECRET_KEY

$(NODE_STAMP): package.json package-lock.json
	@command -v npm >/dev/null 2>&1 || { \
	  echo "make lint needs Node.js 20.19+ and npm, for the JavaScript checks" >&2; exit 1; }
	npm ci --no-audit --no-fund
	touch $@

# The web client's API types: openapi-typescript over the schema's components (generate.js),
# from its own package (web/types/package-lock.json): it runs on TypeScript 5's compiler API,
# which the checker above (TypeScript 7) no longer has. A schema change the client's types
# no longer match fails `make lint` here, until `make api-types` writes them and tsc agrees.
API_TYPES := web/types/api.d.ts
TYPES_STAMP := web/types/node_modules/.installed
TYPES_TMP := var/api-types
SCHEMA_JSON := DEBUG=1 $(BIN)/python manage.py spectacular --format openapi-json --file

$(TYPES_STAMP): web/types/package.json web/types/package-lock.json
	@command -v npm >/dev/null 2>&1 || { \
	  echo "the API types need Node.js 20.19+ and npm" >&2; exit 1; }
	npm ci --prefix web/types --no-audit --no-fund
	touch $@

api-types: install $(TYPES_STAMP)
	mkdir -p $(TYPES_TMP)
	$(SCHEMA_JSON) $(TYPES_TMP)/schema.json
	node web/types/generate.js $(TYPES_TMP)/schema.json $(API_TYPES)

lint-api-types: install $(TYPES_STAMP)
	mkdir -p $(TYPES_TMP)
	$(SCHEMA_JSON) $(TYPES_TMP)/schema.json
	node web/types/generate.js $(TYPES_TMP)/schema.json $(TYPES_TMP)/api.d.ts
	@diff -u $(API_TYPES) $(TYPES_TMP)/api.d.ts >$(TYPES_TMP)/api.diff || { \
	  head -60 $(TYPES_TMP)/api.diff; echo "$(API_TYPES) is not the schema's: run make api-types" \
	  "(then make lint-js: the client must still type-check against them)" >&2; exit 1; }

# node's own test runner; the rules' tests export the engine's positions with the venv's Python.
test-js: install $(NODE_STAMP)
	npm test

# The web client stays unbuilt (the modules are served as written); this only checks them.
lint-js: $(NODE_STAMP)
	node_modules/.bin/tsc -p jsconfig.json
	node_modules/.bin/eslint --max-warnings 0 .

# `make serve`: DEBUG off, like production; each default below gives way to the environment.
serve: export DEBUG := 0
serve: export SECRET_KEY ?= insecure-key-for-make-serve-only
serve: export ALLOWED_HOSTS ?= 127.0.0.1,localhost
serve: export SECURE_SSL_REDIRECT ?= 0
serve: export DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/spider
serve: export CELERY_BROKER_URL ?= redis://127.0.0.1:6379/0
serve: export CACHE_URL ?= redis://127.0.0.1:6379/1
serve: export CELERY_TASK_ALWAYS_EAGER := 0
serve: export DATABASE_CONN_MAX_AGE ?= 60
serve: export PORT ?= 8000
serve: export STREAM_PORT ?= 8001
serve: export RACE_STREAM_URL ?= http://127.0.0.1:$(STREAM_PORT)
serve: install
	@if [ "$$DATABASE_URL" = postgres://postgres@127.0.0.1:5432/spider ] \
	  && ! psql -h 127.0.0.1 -U postgres -tAc "SELECT 1 FROM pg_database WHERE datname='spider'" \
	  | grep -q 1; then createdb -h 127.0.0.1 -U postgres spider; fi
	$(BIN)/python manage.py migrate --noinput
	$(BIN)/python manage.py collectstatic --noinput -v0
	@echo "API http://127.0.0.1:$$PORT/api/v1/ - docs /api/docs/ - health /health"
	@echo "Race streams http://127.0.0.1:$$STREAM_PORT/api/v1/races/{code}/events"
	PATH="$(CURDIR)/$(BIN):$$PATH" $(BIN)/honcho start -f Procfile

# The failure tests start their own servers, a private PostgreSQL cluster and Redis; they
# never restart the shared ones.
faults: install
	SPIDER_FAULTS=1 $(BIN)/pytest tests/ops -m faults -v -s
