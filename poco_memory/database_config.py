"""Django's database from ``DATABASE_URL``: PostgreSQL through a bounded psycopg pool
(``poco_memory.settings``, "database", says why each bound is what it is)."""

from __future__ import annotations

import os
from urllib.parse import parse_qsl, unquote, urlsplit

from django.core.exceptions import ImproperlyConfigured

from infra.db import BoundedConnection


def database_from_url(
    url: str, *, session_options: str, pool_size: int, pool_timeout: float, pool_max_idle: float
) -> dict[str, object]:
    parts = urlsplit(url)
    if parts.scheme not in {"postgres", "postgresql"}:
        raise ImproperlyConfigured("DATABASE_URL must be a postgresql:// URL")
    query = dict(parse_qsl(parts.query))
    options: dict[str, object] = {"options": session_options}
    for key in ("sslmode", "sslrootcert", "connect_timeout", "application_name"):
        if key in query:
            options[key] = query[key]
    options.setdefault("connect_timeout", "5")
    options["pool"] = {
        "name": "django",
        "min_size": 1,
        "max_size": pool_size,
        "timeout": pool_timeout,
        "max_idle": pool_max_idle,
        "connection_class": BoundedConnection,
    }
    return {
        "ENGINE": "django.db.backends.postgresql",
        "NAME": unquote(parts.path.lstrip("/")) or "postgres",
        "USER": unquote(parts.username or ""),
        "PASSWORD": unquote(parts.password or ""),
        "HOST": query.get("host") or parts.hostname or "",
        "PORT": str(parts.port or query.get("port") or ""),
        "OPTIONS": options,
        # Persistent per-thread connections leak under ASGI (every request runs on a thread
        # of its own); the pool bounds them and takes each back when the request ends.
        "CONN_MAX_AGE": 0,
        # The pool checks a connection before it hands it out: after PostgreSQL restarted (the
        # launcher restarts the embedded one), every pooled connection is dead, and each would
        # otherwise fail one request before the pool drops it.
        "CONN_HEALTH_CHECKS": True,
        # One test database per test process: several suites may run side by side.
        "TEST": {"NAME": f"test_poco_memory_{os.getpid()}"},
    }
