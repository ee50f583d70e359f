"""Writes of the sign-in app that other edges call: the record of a refused service token."""

from __future__ import annotations

import logging

from django.db import DatabaseError

from accounts.models import TokenRefusal
from memories import metrics

logger = logging.getLogger(__name__)


def token_refusal_record(*, token_name: str, tenant_id: str, edge: str) -> None:
    """Record that ``token_name`` was refused ``tenant_id`` ("" for what spans every tenant) on
    ``edge``: a row for staff (admin), a counter for alerts, a log line. The refusal stands even
    when the row cannot be written (the database is down): it is then only logged."""
    metrics.service_refused.labels(token_name, edge).inc()
    logger.warning(
        "service token %r refused for tenant %r on %s", token_name, tenant_id or "*", edge
    )
    try:
        TokenRefusal.objects.create(token_name=token_name, tenant_id=tenant_id, edge=edge)
    except DatabaseError as exc:
        logger.error("token refusal not recorded: %s", type(exc).__name__)
