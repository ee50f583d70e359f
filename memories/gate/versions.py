"""What this deployment runs: package versions and a configuration summary with every secret
masked. ``GET /ready`` shows it to operators (``verify`` reads the live service's), the baseline
records it beside the data's shape."""

from __future__ import annotations

from importlib import metadata
from typing import Any
from urllib.parse import urlsplit, urlunsplit

from django.conf import settings

PACKAGES = ("mem0ai", "Django", "pgvector", "psycopg")


def package_versions() -> dict[str, str]:
    found: dict[str, str] = {}
    for name in PACKAGES:
        try:
            found[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            found[name] = "not installed"
    return found


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
    return {"packages": package_versions(), "configuration": configuration()}
