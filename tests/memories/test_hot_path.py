"""Guards on the request hot path (issue 13): costs that must not come back silently."""

from __future__ import annotations

import pytest
from django.db import connection
from django.db.backends.utils import CursorDebugWrapper

from tests.memories.conftest import body

pytestmark = pytest.mark.django_db


def test_no_debug_cursor_outside_debug(v1, scope, settings):
    """Django wraps every cursor to log its SQL when DEBUG is on (or a test forces it); off,
    a search must run on plain cursors and keep no query log."""
    settings.DEBUG = False
    answer = v1.post("search", body(scope, query="技术方案用什么语言写"))
    assert answer.status_code == 200 and answer.json()["available"] is True
    assert connection.queries_logged is False
    assert not isinstance(connection.cursor(), CursorDebugWrapper)
    assert len(connection.queries_log) == 0
