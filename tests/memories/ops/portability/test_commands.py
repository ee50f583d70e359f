"""The export and import commands."""

from __future__ import annotations

import io
import json

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.utils import translation

from memories.export_document import EXPORT_FORMAT
from tests.memories.ops.portability.conftest import (
    FACTS,
    store,
    texts,
)

pytestmark = pytest.mark.django_db


def test_export_and_import_commands_round_trip(scope, other_scope, agent, tmp_path):
    store(scope, agent)
    path = tmp_path / "export.json"
    call_command("memory_export", tenant=scope.tenant_id, user=scope.user_id, output=str(path))
    assert json.loads(path.read_text(encoding="utf-8"))["format"] == EXPORT_FORMAT
    out, progress = io.StringIO(), io.StringIO()
    args = ["--tenant", other_scope.tenant_id, "--user", other_scope.user_id, str(path)]
    call_command("memory_import", *args, stdout=out, stderr=progress)
    assert "added 3" in out.getvalue()
    assert "imported: 3/3 (" in progress.getvalue()
    again = io.StringIO()
    call_command("memory_import", *args, stdout=again)
    assert "added 0" in again.getvalue() and "no_effect 3" in again.getvalue()
    assert texts(other_scope) == {text for text, _ in FACTS}


def test_import_command_refuses_an_invalid_file(other_scope, tmp_path):
    path = tmp_path / "bad.json"
    path.write_text(json.dumps({"format": EXPORT_FORMAT, "version": 9, "memories": []}))
    with pytest.raises(CommandError, match="version"):
        call_command("memory_import", "--tenant", "acme", "--user", other_scope.user_id, str(path))


def test_export_command_into_a_missing_directory_is_a_command_error(scope, tmp_path):
    path = tmp_path / "no-such-dir" / "export.json"
    with pytest.raises(CommandError, match="no-such-dir") as refused:
        call_command("memory_export", tenant=scope.tenant_id, user=scope.user_id, output=str(path))
    assert "cannot write" in str(refused.value)
    assert not path.parent.exists()


def test_import_command_shows_field_errors_readably(other_scope, tmp_path):
    """The serializer's messages as written (Chinese here), not JSON-escaped."""

    path = tmp_path / "list.json"
    path.write_text("[]")
    with translation.override("zh-hans"), pytest.raises(CommandError) as refused:
        call_command("memory_import", "--tenant", "acme", "--user", other_scope.user_id, str(path))
    message = str(refused.value)
    assert "无效" in message and "\\u" not in message


@pytest.mark.parametrize("content", ["[" * 5000, "9" * 5000, "5", "null"])
def test_import_command_refuses_a_deep_or_odd_file_without_a_traceback(
    other_scope, tmp_path, content
):
    path = tmp_path / "odd.json"
    path.write_text(content)
    with pytest.raises(CommandError):
        call_command("memory_import", "--tenant", "acme", "--user", other_scope.user_id, str(path))
    assert texts(other_scope) == set()
