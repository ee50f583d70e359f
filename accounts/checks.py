"""System checks of the access settings (``manage.py check``, ``migrate``)."""

from __future__ import annotations

from typing import Any

from django.conf import settings
from django.core.checks import Warning as CheckWarning

from infra import service_tokens


def service_token_reach(app_configs: Any = None, **kwargs: Any) -> list[CheckWarning]:
    """In production, each service token that acts for every tenant — the launcher prints the
    same lines at start; this shows them to a deployment that runs uvicorn itself."""
    if not settings.PRODUCTION:
        return []
    tokens = service_tokens.parsed(tuple(settings.SERVICE_TOKENS))
    return [
        CheckWarning(message, id="poco.W001") for message in service_tokens.reach_warnings(tokens)
    ]
