# The API image: one image for web, worker, beat and migrate (docker-compose.yml picks the
# command). Static files are collected at build time and served by WhiteNoise.

# The solver's native core (games/solver/native, C++17) is compiled in a stage of its own, on
# the same base image, so the compiler never reaches the image that runs.
FROM python:3.11-slim-bookworm AS core
RUN apt-get update \
    && apt-get install -y --no-install-recommends g++ \
    && rm -rf /var/lib/apt/lists/*
WORKDIR /src
COPY pyproject.toml setup.py README.md ./
COPY games/solver/native ./games/solver/native
RUN pip install --no-cache-dir "setuptools>=68" "pybind11>=3.0,<4" \
    && python setup.py build_ext --inplace

FROM python:3.11-slim-bookworm

ENV PYTHONDONTWRITEBYTECODE=1 \
    PYTHONUNBUFFERED=1 \
    PYTHONPATH=/app \
    PIP_NO_CACHE_DIR=1 \
    PIP_DISABLE_PIP_VERSION_CHECK=1

WORKDIR /app

# Dependencies first, so a code change does not reinstall them (without setup.py this
# installs no native core: the core stage built it).
COPY pyproject.toml README.md ./
RUN mkdir -p spider_api base accounts coins games leaderboard races \
    && pip install . \
    && pip uninstall -y spider-api

COPY manage.py gunicorn.conf.py ./
COPY spider_api ./spider_api
COPY base ./base
COPY accounts ./accounts
COPY games ./games
COPY --from=core /src/games/solver/_core*.so ./games/solver/
COPY leaderboard ./leaderboard
COPY races ./races
COPY coins ./coins
COPY web ./web
COPY preferences ./preferences
COPY oauth ./oauth
COPY docs/rules.md ./docs/rules.md

# collectstatic needs settings that import; these values exist only during the build.
RUN SECRET_KEY=collectstatic-only DATABASE_URL=sqlite:////tmp/build.sqlite3 \
    python manage.py collectstatic --noinput -v0

RUN useradd --system --uid 10001 --no-create-home spider
USER spider

# The web service's healthcheck is in docker-compose.yml (workers and beat serve no HTTP).
EXPOSE 8000
CMD ["gunicorn", "-c", "gunicorn.conf.py", "spider_api.wsgi"]
