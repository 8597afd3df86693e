"""Settings for the Spider Solitaire API: one module, configured by environment variables.

With no environment at all (plus DEBUG=1) it runs on SQLite without a broker; production sets
SECRET_KEY, ALLOWED_HOSTS, DATABASE_URL and CELERY_BROKER_URL. Every variable is listed in
docs/configuration.md. A value that cannot be understood stops start-up with ImproperlyConfigured.
"""

from pathlib import Path
from typing import Any

import dj_database_url
from corsheaders.defaults import default_headers as cors_default_headers
from django.conf import global_settings
from django.core.exceptions import ImproperlyConfigured

from base.converters import SCHEMAS as PATH_CONVERTER_SCHEMAS
from base.env import (
    env_bool,
    env_choice,
    env_email,
    env_int,
    env_list,
    env_origins,
    env_rate,
    env_str,
)
from base.scopes import PROFILE_READ, SCOPES

BASE_DIR = Path(__file__).resolve().parent.parent

DEBUG = env_bool("DEBUG", default=False)

SECRET_KEY = env_str("SECRET_KEY")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "django-insecure-development-only-key"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS")
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "rest_framework",
    "drf_spectacular",
    "drf_spectacular_sidecar",  # Swagger UI served from here, not a CDN
    "corsheaders",
    "oauth2_provider",  # django-oauth-toolkit: third-party apps' OAuth2 (see oauth/)
    "accounts",
    "oauth",
    "coins",
    "games",
    "leaderboard",
    "preferences",  # a player's settings for the clients
    "web",  # the web client at /
    "races",
    "spider_api.metrics",  # Prometheus: /metrics, the Celery and database figures
]

MIDDLEWARE = [
    "base.middleware.RequestIdMiddleware",  # first: every log line has the request id
    "base.metrics.http.MetricsMiddleware",  # per route: requests, latency, in flight
    "base.cors.CorsMiddleware",  # before anything that answers (preflights, redirects)
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",  # static files (the docs) without DEBUG
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # Reads from the standby: marks the views' requests, pins writers to the primary, and
    # answers again from the primary what the standby failed (a no-op without one).
    "base.replica.ReplicaMiddleware",
    "base.middleware.DatabaseUnavailableMiddleware",
]

ROOT_URLCONF = "spider_api.urls"
WSGI_APPLICATION = "spider_api.wsgi.application"
# API paths are exact: no redirect from /api/v1/me/ to /api/v1/me (a redirect drops a POST body).
APPEND_SLASH = False

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

# --- Database ----------------------------------------------------------------------------------


def _parse_database(name: str, default: str = "") -> dict[str, Any]:
    try:
        database = dj_database_url.parse(
            env_str(name, default),
            conn_max_age=env_int("DATABASE_CONN_MAX_AGE", 0, minimum=0),
            conn_health_checks=True,
        )
    except ValueError as exc:
        raise ImproperlyConfigured(f"{name}: {exc}") from None
    if database["ENGINE"] == "django.db.backends.postgresql":
        # Django's backend with the health check once per DATABASE_HEALTH_CHECK_DELAY seconds
        # per connection, not before every request (base/postgresql/base.py).
        database["ENGINE"] = "base.postgresql"
    return dict(database)


_database = _parse_database("DATABASE_URL", f"sqlite:///{BASE_DIR / 'db.sqlite3'}")
DATABASE_HEALTH_CHECK_DELAY = env_int("DATABASE_HEALTH_CHECK_DELAY", 1, minimum=0)
# PgBouncer in transaction mode in front (deploy/pgbouncer): consecutive transactions of one
# connection may run on different server connections, so nothing may outlive a transaction:
# no prepared statements (PgBouncer 1.18 cannot carry them), no server-side cursors (a
# DECLARE outside a transaction). docs/operations.md, "PgBouncer".
DATABASE_TRANSACTION_POOLING = env_bool("DATABASE_TRANSACTION_POOLING", default=False)
# The action path's statements prepared once per connection (base/postgresql/base.py).
DATABASE_PREPARED_STATEMENTS = env_bool(
    "DATABASE_PREPARED_STATEMENTS", default=not DATABASE_TRANSACTION_POOLING
)
if DATABASE_TRANSACTION_POOLING and DATABASE_PREPARED_STATEMENTS:
    raise ImproperlyConfigured(
        "DATABASE_PREPARED_STATEMENTS=1 cannot go through a pooler in transaction mode "
        "(DATABASE_TRANSACTION_POOLING=1)."
    )

if _database["ENGINE"] == "django.db.backends.sqlite3":
    # IMMEDIATE takes the write lock when a transaction starts, so two concurrent writers wait
    # for each other instead of failing with "database is locked" half-way through.
    _database["OPTIONS"] = {"transaction_mode": "IMMEDIATE", "timeout": 20}
else:
    # A database that does not answer fails the request in seconds (503), never hangs it.
    _database["OPTIONS"] = {"connect_timeout": env_int("DATABASE_CONNECT_TIMEOUT", 5, minimum=1)}
    if env_bool("DATABASE_POOL", default=False):
        if _database["CONN_MAX_AGE"]:
            raise ImproperlyConfigured("DATABASE_POOL=1 needs DATABASE_CONN_MAX_AGE=0.")
        # Per process: a gunicorn worker needs one connection per thread.
        _database["OPTIONS"]["pool"] = {
            "min_size": env_int("DATABASE_POOL_MIN_SIZE", 1, minimum=0),
            "max_size": env_int("DATABASE_POOL_MAX_SIZE", 4, minimum=1),
            "timeout": env_int("DATABASE_POOL_TIMEOUT", 5, minimum=1),
        }

if DATABASE_TRANSACTION_POOLING:
    if _database["ENGINE"] != "base.postgresql":
        raise ImproperlyConfigured("DATABASE_TRANSACTION_POOLING=1 needs a postgres:// URL.")
    _database["DISABLE_SERVER_SIDE_CURSORS"] = True
    _database["OPTIONS"]["prepare_threshold"] = None  # psycopg never prepares on its own

DATABASES = {"default": _database}
# The streaming standby (behind HAProxy's replica port and PgBouncer): the reads that may be
# a little stale go there while it is fresh enough (base/replica.py). Empty: every
# read from DATABASE_URL.
if env_str("DATABASE_REPLICA_URL"):
    _replica = _parse_database("DATABASE_REPLICA_URL")
    if _replica["ENGINE"] != "base.postgresql" or _database["ENGINE"] != _replica["ENGINE"]:
        raise ImproperlyConfigured("DATABASE_REPLICA_URL needs postgres:// URLs for both.")
    _replica["OPTIONS"] = dict(_database["OPTIONS"])
    _replica["DISABLE_SERVER_SIDE_CURSORS"] = _database.get("DISABLE_SERVER_SIDE_CURSORS", False)
    _replica["TEST"] = {"MIRROR": "default"}  # the tests' standby is their database itself
    DATABASES["replica"] = _replica
DATABASE_ROUTERS = ["base.replica.ReplicaRouter"]
# The bound: a read goes to the standby only while it holds every commit older than this,
# and a client's reads go to the primary for as long after its last write.
REPLICA_MAX_LAG_SECONDS = env_int("REPLICA_MAX_LAG_SECONDS", 3, minimum=1)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- Cache (throttling counters) -----------------------------------------------------------------

CACHE_URL = env_str("CACHE_URL")
if CACHE_URL and not CACHE_URL.startswith(("redis://", "rediss://")):
    raise ImproperlyConfigured("CACHE_URL must be a redis:// or rediss:// URL.")
CACHES = {
    "default": (
        # Fails soft: with Redis down the cache is empty (throttling lets requests through).
        {"BACKEND": "base.cache.FailSoftRedisCache", "LOCATION": CACHE_URL}
        if CACHE_URL
        else {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}
    )
}

# --- Accounts ----------------------------------------------------------------------------------

AUTH_USER_MODEL = "accounts.User"
# How long a web process may answer from its cache of API tokens (base.authentication);
# a change to a token or its user clears it in that process at once. 0: no cache.
TOKEN_CACHE_SECONDS = env_int("TOKEN_CACHE_SECONDS", 10, minimum=0)
# A first-party sign-in token (POST /auth/token, register, guest) expires this long after it
# was last used (the expiry is moved on when used, written at most once a minute).
FIRST_PARTY_TOKEN_DAYS = env_int("FIRST_PARTY_TOKEN_DAYS", 30, minimum=1)
# A password reset link works once, for this long (Django's PasswordResetTokenGenerator).
PASSWORD_RESET_TIMEOUT = env_int("PASSWORD_RESET_TIMEOUT", 3600, minimum=60)
# Where players open the web client: reset emails link to its /reset page. Never taken from
# a request's Host header, which the caller chooses (reset-link poisoning).
WEB_CLIENT_URL = env_str("WEB_CLIENT_URL", "http://127.0.0.1:8000").rstrip("/")
if not WEB_CLIENT_URL.startswith(("http://", "https://")):
    raise ImproperlyConfigured("WEB_CLIENT_URL must be an http:// or https:// URL.")
# Passwords: Django's hashers (PBKDF2 first). Apps' client secrets: a fast one, as strong for
# a secret the server made (base/hashers.py); listed last, it hashes no password.
PASSWORD_HASHERS = [
    *global_settings.PASSWORD_HASHERS,
    "base.hashers.ClientSecretHasher",
]
AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

# --- OAuth2 for third-party apps (django-oauth-toolkit; docs/api.md, the OAuth2 section) ------

OAUTH2_PROVIDER = {
    "SCOPES": SCOPES,
    "DEFAULT_SCOPES": [PROFILE_READ],  # an authorization request that names no scope
    # Authorization code with PKCE, S256 only (RFC 9700): no implicit, no password grant.
    "PKCE_REQUIRED": True,
    "COMPLIANT_BCP_RFC9700_PKCE_METHOD": True,
    "COMPLIANT_BCP_RFC9700_IMPLICIT_GRANT": True,
    "COMPLIANT_BCP_RFC9700_PASSWORD_GRANT": True,
    "COMPLIANT_BCP_RFC9700_ACCESS_TOKEN_TRANSPORT": True,  # the header only, never ?access_token=
    "COMPLIANT_BCP_RFC9700_TOKEN_STORAGE": True,  # tokens kept as SHA-256 checksums only
    "COMPLIANT_BCP_RFC9700_AUTHZ_RESPONSE_ISS": True,  # `iss` with the code (RFC 9207)
    "OAUTH2_RESPONSE_TYPES_SUPPORTED": ["code"],
    "OAUTH2_GRANT_TYPES_SUPPORTED": ["authorization_code", "refresh_token"],
    "OAUTH2_TOKEN_ENDPOINT_AUTH_METHODS_SUPPORTED": [
        "none",  # public clients: PKCE alone
        "client_secret_basic",
        "client_secret_post",
    ],
    "ACCESS_TOKEN_EXPIRE_SECONDS": env_int("OAUTH_ACCESS_TOKEN_SECONDS", 3600, minimum=60),
    "REFRESH_TOKEN_EXPIRE_SECONDS": env_int(
        "OAUTH_REFRESH_TOKEN_SECONDS", 30 * 24 * 3600, minimum=3600
    ),
    "AUTHORIZATION_CODE_EXPIRE_SECONDS": 60,
    # Each refresh hands out a new refresh token; presenting a used one again refuses it and
    # revokes every token descended from the same grant (a stolen token's family dies).
    "ROTATE_REFRESH_TOKEN": True,
    "REFRESH_TOKEN_REUSE_PROTECTION": True,
    "REFRESH_TOKEN_GRACE_PERIOD_SECONDS": 0,
    "ACCESS_TOKEN_GENERATOR": "base.oauth.access_token",
    "REFRESH_TOKEN_GENERATOR": "base.oauth.refresh_token",
    # Every approval is asked for (the player sees the scopes each time).
    "REQUEST_APPROVAL_PROMPT": "force",
    # RFC 7591 dynamic registration, for signed-in players (first-party token) only.
    "DCR_ENABLED": True,
    "DCR_REGISTRATION_PERMISSION_CLASSES": ("base.oauth.FirstPartyRegistration",),
    # A registration access token (RFC 7592) lasts this long, and dies sooner with the
    # player's other tokens (signing out everywhere, a new password, the account deleted).
    "DCR_REGISTRATION_TOKEN_EXPIRE_SECONDS": env_int(
        "OAUTH_REGISTRATION_TOKEN_SECONDS", 30 * 24 * 3600, minimum=60
    ),
    # Only the advertised grants, a redirect URI named twice, a code reused revokes its tokens.
    "OAUTH2_VALIDATOR_CLASS": "oauth.validator.Validator",
    "CLIENT_SECRET_HASHER": "sha256_secret",
}
# How many apps one player may register (API, page, dynamic registration alike).
OAUTH_APPS_PER_PLAYER = env_int("OAUTH_APPS_PER_PLAYER", 20, minimum=1)

# --- Email (password resets) ---------------------------------------------------------------------

# EMAIL_URL: smtp://user:password@host:587 (STARTTLS; smtps:// for TLS from the start, port 465),
# file:///path (one file per email), console:// (printed), memory:// (tests), dummy://.
# Default: a file per email under var/mail/ with DEBUG (make run), else SMTP on localhost:25.
_email = env_email(
    "EMAIL_URL", f"file://{BASE_DIR / 'var' / 'mail'}" if DEBUG else "smtp://localhost:25"
)
EMAIL_BACKEND = _email["EMAIL_BACKEND"]
EMAIL_FILE_PATH = _email["EMAIL_FILE_PATH"]
EMAIL_HOST = _email["EMAIL_HOST"]
EMAIL_PORT = _email["EMAIL_PORT"]
EMAIL_HOST_USER = _email["EMAIL_HOST_USER"]
EMAIL_HOST_PASSWORD = _email["EMAIL_HOST_PASSWORD"]
EMAIL_USE_TLS = _email["EMAIL_USE_TLS"]
EMAIL_USE_SSL = _email["EMAIL_USE_SSL"]
DEFAULT_FROM_EMAIL = env_str("DEFAULT_FROM_EMAIL", "Spider Solitaire <noreply@localhost>")
EMAIL_TIMEOUT = env_int("EMAIL_TIMEOUT", 10, minimum=1)

# --- Internationalisation, static files ---------------------------------------------------------

LANGUAGE_CODE = "en-us"
TIME_ZONE = "UTC"
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATIC_ROOT = BASE_DIR / "staticfiles"  # `manage.py collectstatic`; WhiteNoise serves it
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedStaticFilesStorage"},
}

# --- Security: safe unless DEBUG is on ---------------------------------------------------------

SESSION_COOKIE_SECURE = not DEBUG
CSRF_COOKIE_SECURE = not DEBUG
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", default=not DEBUG)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0, minimum=0)
# Health checks and Prometheus come from inside the network over plain HTTP: no redirect.
SECURE_REDIRECT_EXEMPT = [r"^health(/live)?$", r"^metrics$"]
if env_bool("TRUST_X_FORWARDED_PROTO", default=False):
    # Only behind a proxy that sets X-Forwarded-Proto itself and strips it from clients.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# --- Browsers on other origins (CORS, base/cors.py) --------------------------------------

# Public reads answer any origin; everything else the origins listed here ("*": any, which is
# safe because the API authenticates with Bearer tokens, never cookies).
_cors_origins = env_origins("CORS_ALLOWED_ORIGINS")
CORS_ALLOW_ALL_ORIGINS = "*" in _cors_origins
CORS_ALLOWED_ORIGINS = [] if CORS_ALLOW_ALL_ORIGINS else _cors_origins
CORS_URLS_REGEX = r"^/api/"
CORS_ALLOW_METHODS = ("GET", "POST", "PATCH", "DELETE", "OPTIONS")
CORS_ALLOW_HEADERS = (*cors_default_headers, "idempotency-key", "if-none-match", "x-request-id")
CORS_EXPOSE_HEADERS = (
    "Retry-After",
    "ETag",
    "Idempotent-Replayed",
    "X-Request-ID",
    # draft-ietf-httpapi-ratelimit-headers-06, on throttled answers (base/throttling.py)
    "RateLimit-Limit",
    "RateLimit-Remaining",
    "RateLimit-Reset",
    "RateLimit-Policy",
)

# --- Django REST framework, OpenAPI ----------------------------------------------------------

REST_FRAMEWORK = {
    "DEFAULT_RENDERER_CLASSES": [
        "rest_framework.renderers.JSONRenderer",
        *(["rest_framework.renderers.BrowsableAPIRenderer"] if DEBUG else []),
    ],
    # An unknown ?format= is 406 with the formats there are, not DRF's 404.
    "DEFAULT_CONTENT_NEGOTIATION_CLASS": "base.negotiation.ContentNegotiation",
    # JSON only, read through the body guard (base/parsers.py: size and depth limits).
    "DEFAULT_PARSER_CLASSES": ["base.parsers.JSONParser"],
    # An OAuth2 access token (its prefix tells it apart at no cost), else a first-party token.
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "base.oauth.OAuthTokenAuthentication",
        "base.authentication.BearerTokenAuthentication",
    ],
    # A signed-in player whose token allows the view's `required_scopes` (public views say
    # AllowAny instead): base/permissions.py.
    "DEFAULT_PERMISSION_CLASSES": ["base.permissions.HasRequiredScopes"],
    # The view's scope, and `pool` on every view that takes a deal from the vetted pool.
    "DEFAULT_THROTTLE_CLASSES": [
        "base.throttling.ScopedRateThrottle",
        "base.throttling.PoolThrottle",
    ],
    "DEFAULT_THROTTLE_RATES": {
        "auth": env_rate("THROTTLE_RATE_AUTH", "20/min"),
        # /oauth/token and /oauth/revoke, per client address and per client id: a
        # confidential client's secret is checked against its hash on every request.
        "oauth_token": env_rate("THROTTLE_RATE_OAUTH_TOKEN", "30/min"),
        "oauth_client": env_rate("THROTTLE_RATE_OAUTH_CLIENT", "60/min"),
        # Password reset emails asked for, per client address (and one per address a minute).
        "password_reset": env_rate("THROTTLE_RATE_PASSWORD_RESET", "5/hour"),
        "game_create": env_rate("THROTTLE_RATE_GAME_CREATE", "30/min"),
        "actions": env_rate("THROTTLE_RATE_ACTIONS", "1200/min"),
        # Deals taken from the vetted pool (a new game, a race's start or `again`), per player.
        "pool": env_rate("THROTTLE_RATE_POOL", "10/min"),
        # Race event streams opened (a ticket, or a stream opened with a token), per player.
        "streams": env_rate("THROTTLE_RATE_STREAMS", "30/min"),
        # A hint at a new position is a search (HINT_* budget in games/solver/hint.py).
        "hints": env_rate("THROTTLE_RATE_HINTS", "60/min"),
        # A player's data export (a whole history read) and account deletion (a password try).
        "export": env_rate("THROTTLE_RATE_EXPORT", "3/hour"),
        "account_delete": env_rate("THROTTLE_RATE_ACCOUNT_DELETE", "5/hour"),
    },
    # Proxies in front of the app that append to X-Forwarded-For. With 0 the client address
    # is REMOTE_ADDR, so a client cannot dodge throttling by sending its own X-Forwarded-For.
    "NUM_PROXIES": env_int("NUM_PROXIES", 0, minimum=0),
    "EXCEPTION_HANDLER": "base.errors.exception_handler",
    "DEFAULT_SCHEMA_CLASS": "base.openapi.AutoSchema",
    "TEST_REQUEST_DEFAULT_FORMAT": "json",
}

# Every JSON body: at most this many bytes (413 `body_too_large`) and this deep in nested
# arrays and objects (400 `json_too_deep`); the largest real body, a staff layout, is ~2 KB
# and 3 deep.
# The hint level the API serves (games/solver/hint.py LEVELS; docs/rules.md#hints):
# "default" is the look-ahead alone; "rollout" plays its best hints out in worlds drawn
# from the cards not in view and gives each its chance to win. Not the default: followed
# blindly it has not won more games than the look-ahead (bench/NOTES.md, Hints).
HINT_LEVEL = env_choice("HINT_LEVEL", "default", ("default", "rollout"))
REQUEST_BODY_MAX_BYTES = env_int("REQUEST_BODY_MAX_BYTES", 64 * 1024, minimum=1024)
REQUEST_JSON_MAX_DEPTH = env_int("REQUEST_JSON_MAX_DEPTH", 32, minimum=4)

SPECTACULAR_SETTINGS = {
    "TITLE": "Spider Solitaire API",
    "DESCRIPTION": (
        "An authoritative Spider Solitaire server: the server deals, enforces every rule and "
        "keeps the score.\n\n"
        "Authenticate with `Authorization: Bearer <token>`; get a token from "
        "`POST /api/v1/auth/register` or `POST /api/v1/auth/token`.\n\n"
        'Every error answers `{"code": "...", "detail": "human sentence", ...}`: branch on '
        "`code`, show `detail`. A 429 or 503 carries `Retry-After` (and `retry_after` in the "
        "body): wait that many seconds before retrying. A method a path does not take answers "
        "405 `method_not_allowed` (components/responses/MethodNotAllowed) with `Allow`.\n\n"
        "Lists are paged alike: `?page=` and `?page_size=` in, "
        "`{page, page_size, has_next, results}` out."
    ),
    "VERSION": "1.0.0",
    # OpenAPI 3.1: a nullable reference is `oneOf: [$ref, {type: null}]`, which strict 3.0
    # validators accept nowhere (3.0's `nullable` beside a bare `allOf` is ignored by them).
    "OAS_VERSION": "3.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    # One named enum per set of values, the same component wherever the values appear.
    "ENUM_NAME_OVERRIDES": {
        "PlayerActionTypeEnum": "games.serializers.PLAYER_ACTIONS",
        "LogEntryTypeEnum": "games.serializers.LOG_ENTRIES",
        "SuitsEnum": "games.serializers.SUIT_MODE_CHOICES",
        "GameKindEnum": "games.models.Game.Kind",
        "ApiTokenKindEnum": "accounts.models.ApiToken.Kind",
        "GameStatusEnum": "games.models.Game.Status",
        "EndReasonEnum": "games.models.Game.EndReason",
        "HealthStatusEnum": "spider_api.schema_docs.HEALTH_STATES",
        "HealthCheckStatusEnum": "spider_api.schema_docs.CHECK_STATES",
        "HealthCheckNameEnum": "spider_api.schema_docs.CHECK_NAMES",
        "PoolModeStatusEnum": "spider_api.schema_docs.POOL_MODE_STATES",
        "TableStatusEnum": "races.serializers.TABLE_STATUSES",
        "RaceStatusEnum": "races.serializers.RACE_STATUSES",
        "RaceEndReasonEnum": "races.serializers.RACE_END_REASONS",
        "OutReasonEnum": "races.serializers.OUT_REASONS",
        "DrawDeclinedReasonEnum": "races.serializers.DRAW_DECLINED_REASONS",
    },
    # The path converters' patterns (base/converters.py), documented as they match.
    "PATH_CONVERTER_OVERRIDES": PATH_CONVERTER_SCHEMAS,
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "base.openapi.postprocess",
    ],
    # The `oauth2` security scheme (base.openapi.OAuthScheme).
    "OAUTH2_FLOWS": ["authorizationCode"],
    "OAUTH2_AUTHORIZATION_URL": "/oauth/authorize",
    "OAUTH2_TOKEN_URL": "/oauth/token",
    "OAUTH2_REFRESH_URL": "/oauth/token",
    "OAUTH2_SCOPES": SCOPES,
    "SWAGGER_UI_SETTINGS": {"persistAuthorization": True},
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
}

# --- Celery --------------------------------------------------------------------------------

# No broker configured: tasks run in-process (eagerly), so the zero-setup run needs no Redis.
_broker = env_str("CELERY_BROKER_URL")
CELERY_BROKER_URL = _broker or "memory://"
CELERY_TASK_ALWAYS_EAGER = env_bool("CELERY_TASK_ALWAYS_EAGER", default=not _broker)
CELERY_TASK_EAGER_PROPAGATES = True
CELERY_TASK_IGNORE_RESULT = True
CELERY_BROKER_CONNECTION_RETRY_ON_STARTUP = True
# Workers and beat outlive a broker outage (they reconnect for ever, not 100 times).
CELERY_BROKER_CONNECTION_MAX_RETRIES = None
# Publishing from a request while Redis is down fails within about a second (and
# base.queueing carries on without it, backing off); it never hangs the request.
CELERY_BROKER_CONNECTION_TIMEOUT = 2
CELERY_BROKER_TRANSPORT_OPTIONS = {
    "socket_connect_timeout": 2,
    "socket_timeout": 2,  # above the worker's 1 s BRPOP; a hung Redis costs a publish 2 s
    # A task whose whole worker died without acking it (acks_late) is delivered again after
    # this; keep it above the longest task (fill_pool's hard limit: POOL_FILL_MAX_SECONDS +
    # 180 s) or a slow task is handed to a second worker while it still runs.
    "visibility_timeout": env_int("CELERY_VISIBILITY_TIMEOUT", 900, minimum=1),
}
CELERY_TASK_PUBLISH_RETRY_POLICY = {
    "max_retries": 2,
    "interval_start": 0,
    "interval_step": 0.2,
    "interval_max": 0.2,
}
CELERY_WORKER_PREFETCH_MULTIPLIER = 1  # long tasks, acks_late: take one at a time
CELERY_WORKER_HIJACK_ROOT_LOGGER = False  # keep LOGGING below (JSON, request ids)
# The heartbeat task (health.py) and the task-failure logging (logging.py) live here.
CELERY_IMPORTS = ("spider_api.health", "base.logging")
CELERY_TIMEZONE = TIME_ZONE
# Beat's heartbeat: /health calls beat stale when the last one is older than this.
BEAT_HEARTBEAT_SECONDS = env_int("BEAT_HEARTBEAT_SECONDS", 30, minimum=1)
BEAT_STALE_SECONDS = env_int("BEAT_STALE_SECONDS", 4 * BEAT_HEARTBEAT_SECONDS, minimum=1)
CELERY_BEAT_SCHEDULE = {
    "beat-heartbeat": {
        "task": "spider_api.health.beat_heartbeat",
        "schedule": BEAT_HEARTBEAT_SECONDS,
        "options": {"expires": BEAT_HEARTBEAT_SECONDS},  # never a backlog of old beats
    },
    "expire-idle-games": {"task": "games.tasks.expire_idle_games", "schedule": 15 * 60},
    # The daily close (00:00 UTC); an action after it ends the attempt itself, sweep or not.
    "close-past-daily-games": {
        "task": "games.tasks.close_past_daily_games",
        "schedule": 60,
        "options": {"expires": 60},
    },
    "prune-idempotent-requests": {
        "task": "games.tasks.prune_idempotent_requests",
        "schedule": 3600,
    },
    "prune-oauth": {"task": "oauth.tasks.prune_oauth", "schedule": 3600},
    "top-up-deal-pools": {
        "task": "games.tasks.top_up_pools",
        "schedule": env_int("POOL_TOP_UP_SECONDS", 60, minimum=1),
    },
    "sweep-races": {
        "task": "races.tasks.sweep_races",
        "schedule": env_int("RACE_SWEEP_SECONDS", 5, minimum=1),
        "options": {"expires": env_int("RACE_SWEEP_SECONDS", 5, minimum=1)},
    },
    "prune-races": {
        "task": "races.tasks.prune_races",
        "schedule": env_int("RACE_PRUNE_SECONDS", 3600, minimum=1),
    },
    "sweep-presence": {
        "task": "races.tasks.sweep_presence",
        "schedule": env_int("RACE_SWEEP_SECONDS", 5, minimum=1),
        "options": {"expires": env_int("RACE_SWEEP_SECONDS", 5, minimum=1)},
    },
    "create-daily-challenges": {
        "task": "leaderboard.tasks.create_daily_challenges",
        "schedule": 3600,
    },
}

# --- Games ---------------------------------------------------------------------------------

# A game with no action for this long ends: lost if it had an action, discarded if not.
GAME_IDLE_EXPIRY_SECONDS = env_int("GAME_IDLE_EXPIRY_SECONDS", 24 * 3600, minimum=60)
# An Idempotency-Key's answer is kept this long (a retry after it is a new request); beat prunes.
IDEMPOTENCY_WINDOW_SECONDS = env_int("IDEMPOTENCY_WINDOW_SECONDS", 24 * 3600, minimum=60)

# The pool of solver-vetted deals, per suit mode: filled up to POOL_TARGET, refilled as soon
# as it drops below POOL_LOW_WATER.
POOL_TARGET = env_int("POOL_TARGET", 50, minimum=1)
POOL_LOW_WATER = env_int("POOL_LOW_WATER", 20, minimum=0)
# The solver's budget per deal: nodes are the budget (deterministic, whatever the machine's
# load); seconds a safety cap, 0 for the solver's own, derived from the node budget (a busy
# machine then still spends the whole node budget instead of losing deals to the clock).
POOL_SOLVER_MAX_NODES = {
    1: env_int("POOL_SOLVER_MAX_NODES_1", 2_000_000, minimum=1000),
    2: env_int("POOL_SOLVER_MAX_NODES_2", 4_000_000, minimum=1000),
    4: env_int("POOL_SOLVER_MAX_NODES_4", 8_000_000, minimum=1000),
}
POOL_SOLVER_MAX_SECONDS = env_int("POOL_SOLVER_MAX_SECONDS", 0, minimum=0)
# How long one fill task may run, and how long a game request may vet when the pool is empty.
POOL_FILL_MAX_SECONDS = env_int("POOL_FILL_MAX_SECONDS", 240, minimum=1)
# Vetting on a request costs seconds of solver CPU: off (0) by default where a worker refills
# the pool (a broker, tasks not in-process), on where nothing else would (`make run`), and at
# most POOL_SYNC_VET_CONCURRENCY requests per process at once (the others answer 503 at once).
POOL_SYNC_VET_SECONDS = env_int(
    "POOL_SYNC_VET_SECONDS", 10 if CELERY_TASK_ALWAYS_EAGER else 0, minimum=0
)
POOL_SYNC_VET_CONCURRENCY = env_int("POOL_SYNC_VET_CONCURRENCY", 1, minimum=1)
POOL_RETRY_AFTER_SECONDS = env_int("POOL_RETRY_AFTER_SECONDS", 30, minimum=1)
# The daily challenge's par: a worker searches its deal's line again, wider, with this many
# positions (35 s of an idle core at 2 suits; 0: not at all), hours before the day's par is shown.
DAILY_PAR_MAX_NODES = env_int("DAILY_PAR_MAX_NODES", 2_000_000, minimum=0)
# A safety cap on one such search (it keeps the shortest line found when the clock stops it).
DAILY_PAR_MAX_SECONDS = env_int("DAILY_PAR_MAX_SECONDS", 240, minimum=1)
# Every vetted deal's line is searched again the same way (its par is what players are shown)
# within this many positions (0: not at all) and milliseconds: with the solver's native
# core 2,000,000 positions take a few tenths of a second, so the pool's pars are as short as
# the daily's (whose own search then finds the deal searched already).
POOL_PAR_MAX_NODES = env_int("POOL_PAR_MAX_NODES", DAILY_PAR_MAX_NODES, minimum=0)
POOL_PAR_MAX_MS = env_int("POOL_PAR_MAX_MS", 1000, minimum=10)
# Top the pool up automatically when it runs low (a task with a broker, a thread without).
POOL_AUTOFILL = env_bool("POOL_AUTOFILL", default=True)

# --- Post-game analysis (docs/rules.md#after-the-game-the-analysis) -------------------------

# The solver's budget, in positions: each position of the game's line it searches (per suit
# mode), the whole analysis (every search, the proof and the shortened line shown; the
# searches share it out, so no analysis runs past it), and each exhaustive search that tries
# to prove a position after the last win lost. With the native core a 4-suit analysis at
# these budgets takes a few seconds of CPU (bench/NOTES.md).
ANALYSIS_PROBE_MAX_NODES = {
    1: env_int("ANALYSIS_PROBE_MAX_NODES_1", 1_200_000, minimum=1000),
    2: env_int("ANALYSIS_PROBE_MAX_NODES_2", 1_200_000, minimum=1000),
    4: env_int("ANALYSIS_PROBE_MAX_NODES_4", 1_200_000, minimum=1000),
}
ANALYSIS_MAX_NODES = env_int("ANALYSIS_MAX_NODES", 16_000_000, minimum=10_000)
ANALYSIS_PROOF_MAX_NODES = env_int("ANALYSIS_PROOF_MAX_NODES", 1_000_000, minimum=0)
# The worker's hard limit on one analysis (a safety net: the node budget ends it first).
ANALYSIS_TIME_LIMIT_SECONDS = env_int("ANALYSIS_TIME_LIMIT_SECONDS", 300, minimum=10)
# Limits on asking (429 with Retry-After past them): a player's analyses waiting at once, a
# player's new analyses per 24 hours, and the analyses waiting overall.
ANALYSIS_PLAYER_PENDING_MAX = env_int("ANALYSIS_PLAYER_PENDING_MAX", 2, minimum=1)
ANALYSIS_PLAYER_DAILY_MAX = env_int("ANALYSIS_PLAYER_DAILY_MAX", 20, minimum=1)
ANALYSIS_QUEUE_MAX = env_int("ANALYSIS_QUEUE_MAX", 50, minimum=1)
ANALYSIS_RETRY_AFTER_SECONDS = env_int("ANALYSIS_RETRY_AFTER_SECONDS", 30, minimum=1)
# Analyses run on a queue of their own, so they never hold up the deal pool's fills: a
# worker must consume it (the Procfile's and docker-compose's `analysis` worker).
ANALYSIS_QUEUE = env_str("ANALYSIS_QUEUE", "analysis")
# Without a broker (the zero-setup run) an analysis runs in a thread of the web process;
# off: inline, after the asking request's commit (tests).
ANALYSIS_IN_THREAD = env_bool("ANALYSIS_IN_THREAD", default=True)
CELERY_TASK_ROUTES = {"games.tasks.analyse_game": {"queue": ANALYSIS_QUEUE}}

# --- Races ----------------------------------------------------------------------------------

# The cards turn over this long after Start; a racer with neither an open stream nor an
# action for RACE_RECONNECT_SECONDS is out.
RACE_COUNTDOWN_SECONDS = env_int("RACE_COUNTDOWN_SECONDS", 3, minimum=0)
RACE_RECONNECT_SECONDS = env_int("RACE_RECONNECT_SECONDS", 60, minimum=1)
# Event fan-out between processes (races/hub.py): Redis pub/sub; empty = in one process.
RACE_EVENTS_REDIS_URL = env_str("RACE_EVENTS_REDIS_URL", _broker)
if RACE_EVENTS_REDIS_URL and not RACE_EVENTS_REDIS_URL.startswith(("redis://", "rediss://")):
    raise ImproperlyConfigured("RACE_EVENTS_REDIS_URL must be a redis:// or rediss:// URL.")
RACE_EVENTS_CHANNEL = env_str("RACE_EVENTS_CHANNEL", "spider.race-events")
# The stream: a keep-alive (and a catch-up read) this often; each stream process sweeps
# the timers every RACE_TICK_SECONDS and refreshes its streams' presence every
# RACE_HEARTBEAT_SECONDS (a presence not refreshed for RACE_PRESENCE_STALE_SECONDS is gone).
RACE_KEEPALIVE_SECONDS = env_int("RACE_KEEPALIVE_SECONDS", 10, minimum=1)
if RACE_KEEPALIVE_SECONDS > 15:
    raise ImproperlyConfigured("RACE_KEEPALIVE_SECONDS must be at most 15.")
RACE_TICK_SECONDS = env_int("RACE_TICK_SECONDS", 1, minimum=1)
RACE_HEARTBEAT_SECONDS = env_int("RACE_HEARTBEAT_SECONDS", 10, minimum=1)
RACE_PRESENCE_STALE_SECONDS = env_int("RACE_PRESENCE_STALE_SECONDS", 30, minimum=2)
RACE_TICKET_SECONDS = env_int("RACE_TICKET_SECONDS", 60, minimum=1)
# A player holds at most this many event streams open at once, across every table and stream
# process (429 `too_many_streams` past it); opening one is throttled too (scope `streams`).
RACE_STREAMS_PER_PLAYER = env_int("RACE_STREAMS_PER_PLAYER", 5, minimum=1)
# Events queued per open stream; a reader further behind reads the rows it missed instead.
RACE_STREAM_QUEUE_MAX = env_int("RACE_STREAM_QUEUE_MAX", 100, minimum=1)
# A seated player's `gone` is written only once away this long (a reload or a reconnect
# within it writes nothing), and their `back` only after a `gone`.
RACE_GONE_GRACE_SECONDS = env_int("RACE_GONE_GRACE_SECONDS", 10, minimum=0)
# Pruning (beat every RACE_PRUNE_SECONDS; without a broker, in the process, as often at most):
# stream tickets used or expired, and open tables never raced at with no event for
# RACE_TABLE_IDLE_SECONDS.
RACE_PRUNE_SECONDS = env_int("RACE_PRUNE_SECONDS", 3600, minimum=1)
RACE_TABLE_IDLE_SECONDS = env_int("RACE_TABLE_IDLE_SECONDS", 7 * 24 * 3600, minimum=60)
# The stream process's database threads (= its database connections, whatever the streams).
RACE_STREAM_DB_THREADS = env_int("RACE_STREAM_DB_THREADS", 4, minimum=1)
# Where browsers reach the stream service, e.g. https://stream.example.org (empty: the same
# origin as the API, a proxy routing /api/v1/races/*/events to it). Tickets name it.
RACE_STREAM_URL = env_str("RACE_STREAM_URL", "").rstrip("/")

# --- Metrics (Prometheus; docs/operations.md, "Metrics and alerts") ----------------------------

# GET /metrics answers only `Authorization: Bearer <METRICS_TOKEN>` (404 to anyone else);
# unset, nothing is measured and /metrics is 404 for everyone.
METRICS_TOKEN = env_str("METRICS_TOKEN")
if METRICS_TOKEN and len(METRICS_TOKEN) < 16:
    raise ImproperlyConfigured("METRICS_TOKEN must be at least 16 characters.")
# Where a process that serves no HTTP (a Celery worker, beat) serves its /metrics, host:port
# (the same token); empty: none.
METRICS_ADDRESS = env_str("METRICS_ADDRESS")
if METRICS_ADDRESS and not METRICS_ADDRESS.rpartition(":")[2].isdigit():
    raise ImproperlyConfigured("METRICS_ADDRESS must be host:port (e.g. 0.0.0.0:9100).")

# --- Logging -------------------------------------------------------------------------------

_LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
# JSON lines (base/logging.py) unless DEBUG; each line carries the request id.
LOG_FORMAT = env_choice("LOG_FORMAT", "plain" if DEBUG else "json", ("json", "plain"))
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "filters": {
        "request_id": {"()": "base.logging.RequestIdFilter"},
        "redact": {"()": "base.logging.RedactSecretsFilter"},
    },
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s [%(request_id)s]: %(message)s"},
        "json": {"()": "base.logging.JsonFormatter"},
    },
    "handlers": {
        "console": {
            "class": "logging.StreamHandler",
            "formatter": LOG_FORMAT,
            "filters": ["request_id", "redact"],
        }
    },
    "root": {"handlers": ["console"], "level": env_choice("LOG_LEVEL", "INFO", _LOG_LEVELS)},
    # Replaces Django's own console handler for "django", which would print each line twice.
    "loggers": {"django": {"handlers": [], "level": "INFO"}},
}
