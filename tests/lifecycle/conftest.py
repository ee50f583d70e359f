from __future__ import annotations

import pytest

from tests.memories.conftest import TOKEN, V1, v1  # noqa: F401 - v1: the /v1 caller fixture


@pytest.fixture
def v1_live(settings, transactional_db):
    """A /v1 caller whose writes are committed, so a queue worker can see them."""
    from rest_framework.test import APIClient

    settings.SERVICE_TOKENS = [TOKEN]
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Bearer {TOKEN}")
    return V1(client)


def run_queue() -> None:
    """Run every ingest job that is due now, then return (a real procrastinate worker)."""
    from procrastinate.contrib.django import app

    # What `manage.py procrastinate worker` does: a psycopg connector, not Django's.
    with app.replace_connector(app.connector.get_worker_connector()) as worker_app:
        worker_app.run_worker(
            queues=["ingest"], wait=False, install_signal_handlers=False, listen_notify=False
        )
