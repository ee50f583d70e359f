"""What this deployment runs: package versions, the database server's and its extensions'
versions, and a configuration summary with every secret masked. ``GET /ready`` shows it to
operators (``verify`` reads the live service's), the baseline records it beside the data's
shape: both through ``deployment_versions``, so the report compares like with like."""

from __future__ import annotations

from importlib import metadata
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings
from django.db import DatabaseError, connection

from memories.ops.preflight import EXTENSIONS

PACKAGES = ("mem0ai", "Django", "pgvector", "psycopg")


def package_versions() -> dict[str, str]:
    found: dict[str, str] = {}
    for name in PACKAGES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = "not installed"
    return found


def database_versions() -> dict[str, str]:
    """The PostgreSQL server (``postgresql``) and each extension the schema needs, named
    ``vector extension``, ``pg_trgm extension``…: apart from the Python packages (``pgvector``
    is the client package, not the extension). Raises ``DatabaseError`` when it cannot ask."""
    with connection.cursor() as cursor:
        cursor.execute("SHOW server_version")
        server = cursor.fetchone()
        cursor.execute(
            "SELECT extname, extversion FROM pg_extension WHERE extname = ANY(%s)",
            [list(EXTENSIONS)],
        )
        found = dict(cursor.fetchall())
    return {
        "postgresql": str(server[0]) if server else "unknown",
        **{f"{name} extension": str(found.get(name, "not installed")) for name in EXTENSIONS},
    }


def deployment_versions(summary: dict[str, Any]) -> dict[str, str]:
    """Every version of a ``service_summary`` by one name each: what the baseline records and
    what ``verify`` reads from the target's ``/ready``."""
    return {**(summary.get("packages") or {}), **(summary.get("database") or {})}


def mask_url(url: str) -> str:
    """An endpoint without its user, password or query string (where keys hide)."""
    if not url:
        return ""
    parts = urlsplit(url)
    host = parts.hostname or ""
    if parts.port:
        host = f"{host}:{parts.port}"
    if parts.username or parts.password:
        host = f"***@{host}"
    return urlunsplit((parts.scheme, host, parts.path, "***" if parts.query else "", ""))


def mask_secret(value: str) -> str:
    return "set (masked)" if value else "unset"


def configuration() -> dict[str, Any]:
    """The settings an upgrade can change recall or extraction with; secrets only as set/unset."""
    return {
        "environment": settings.POCO_ENV,
        "embedding_model": settings.EMBEDDING_MODEL,
        "embedding_dims": int(settings.EMBEDDING_DIMS),
        "embedding_base_url": mask_url(settings.EMBEDDING_BASE_URL) or "bundled",
        "embedding_api_key": mask_secret(settings.EMBEDDING_API_KEY),
        "extractor": "llm" if settings.LLM_BASE_URL else "offline rules",
        "llm_model": settings.LLM_MODEL or "",
        "llm_base_url": mask_url(settings.LLM_BASE_URL),
        "llm_api_key": mask_secret(settings.LLM_API_KEY),
        "second_model": settings.SECOND_MODEL,
        "second_model_dims": int(settings.SECOND_MODEL_DIMS or 0),
        "second_model_base_url": mask_url(settings.SECOND_MODEL_BASE_URL),
        "second_model_api_key": mask_secret(settings.SECOND_MODEL_API_KEY),
        "search_min_score": float(settings.SEARCH_MIN_SCORE),
        "dedup_min_score": float(settings.DEDUP_MIN_SCORE),
        "search_top_k": int(settings.SEARCH_TOP_K),
    }


def service_summary() -> dict[str, Any]:
    try:
        database = database_versions()
    except DatabaseError:  # /ready says so in its checks; the versions are then unknown
        database = {}
    return {"packages": package_versions(), "database": database, "configuration": configuration()}
