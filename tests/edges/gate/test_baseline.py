"""``memory_gate baseline`` in-process on the test database, and the baseline files that
``verify`` refuses to use."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.db.models.fields.json import KT

from memories.models import MemoryRow
from memories.services import memory_add
from tests.edges.gate.conftest import OPERATOR


@pytest.mark.django_db(transaction=True)
def test_baseline_records_shape_and_recall_and_leaves_no_scope_behind(scope, agent, tmp_path):
    for text in ("用户住在杭州", "User likes green tea"):
        assert memory_add(scope=scope, text=text, actor=agent).memory_id
    out, err = StringIO(), StringIO()
    call_command(
        "memory_gate", "baseline", "--out", str(tmp_path / "b.json"), stdout=out, stderr=err
    )
    baseline = json.loads((tmp_path / "b.json").read_text())
    assert baseline["format"] == "poco-memory-gate-baseline"
    assert {"mem0ai", "Django", "postgresql", "pgvector"} <= set(baseline["versions"])
    assert baseline["data"]["memories"]["total"] == 2
    assert baseline["data"]["memories"]["active"] == 2
    assert baseline["data"]["embedding"]["table_dims"]["poco_memories"] == 512
    recall = baseline["recall"]
    ranks = [p["rank"] for p in recall["positives"]]
    assert sum(1 for r in ranks if r == 1) >= len(ranks) // 2, ranks
    assert sum(1 for n in recall["negatives"] if n["hits"] == 0) >= len(recall["negatives"]) - 5
    for positive in recall["positives"]:
        assert (positive["rank"] is None) == (positive["score"] is None)
    # The throwaway scope is gone; the real one is untouched; no user text in the file.
    owners = set(MemoryRow.objects.annotate(o=KT("payload__user_id")).values_list("o", flat=True))
    assert owners == {scope.key}
    assert "杭州" not in json.dumps(baseline["data"], ensure_ascii=False)
    assert "residue {'memories': 0, 'entities': 0, 'audit_text': 0}" in err.getvalue()
    assert "recall baseline searches: 72/72" in err.getvalue()


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        (None, "no such file"),
        ("[1, 2]", "not a baseline"),
        ('{"format": "something-else"}', "not a baseline"),
        ("{", "not JSON"),
    ],
)
def test_verify_names_a_baseline_it_cannot_use(tmp_path, content, problem):
    path = tmp_path / "baseline.json"
    if content is not None:
        path.write_text(content)
    with pytest.raises(CommandError, match=problem) as refused:
        call_command(
            "memory_gate",
            "verify",
            *("--baseline", str(path), "--report", str(tmp_path / "report")),
            *("--url", "http://127.0.0.1:9", "--token", OPERATOR),
            stdout=StringIO(),
            stderr=StringIO(),
        )
    assert str(path) in str(refused.value)
    assert not (tmp_path / "report").exists()


@pytest.mark.parametrize("count", ["-1", "-3"])
def test_a_negative_sample_scopes_is_refused_and_nothing_is_written(tmp_path, count):
    out = tmp_path / "baseline.json"
    with pytest.raises(CommandError, match="--sample-scopes"):
        call_command(
            "memory_gate",
            "baseline",
            *("--out", str(out), "--sample-scopes", count),
            stdout=StringIO(),
            stderr=StringIO(),
        )
    assert not out.exists()
