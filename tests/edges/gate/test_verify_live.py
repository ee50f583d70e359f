"""``verify`` over HTTP against a live ``make run``: passing on a sound service, and refusing
with a non-zero exit and the condition named in the report when a baseline positive is lost, the
score direction flips, a throwaway scope keeps a residue, or another scope can read a memory."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import threading
import urllib.error
import urllib.request
import uuid
from collections.abc import Iterator
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import psycopg
import pytest

from poco_memory import embedded_db
from tests.edges.gate.conftest import LATER_STEP_CONDITIONS
from tests.processes import ROOT, child_env
from tests.serving.conftest import Running, running_launcher


@dataclass
class Live:
    server: Running
    baseline: Path

    def env(self) -> dict[str, str]:
        return child_env(POCO_DATA_DIR=str(self.server.data_dir))


@pytest.fixture(scope="module")
def live() -> Iterator[Live]:
    """One ``make run`` for the module (as the launcher fixture starts it) and a baseline
    recorded against its database by ``memory_gate baseline`` in a process of its own."""
    from django.conf import settings

    data_dir = settings.DATA_DIR / "test-servers" / f"gate-{uuid.uuid4().hex[:8]}"
    data_dir.mkdir(parents=True)
    try:
        with running_launcher(data_dir) as server:
            baseline = data_dir / "baseline.json"
            done = subprocess.run(
                [sys.executable, "manage.py", "memory_gate", "baseline", "--out", str(baseline)],
                env=child_env(POCO_DATA_DIR=str(data_dir)),
                cwd=ROOT,
                capture_output=True,
                text=True,
                timeout=600,
            )
            assert done.returncode == 0, done.stderr[-3000:]
            yield Live(server, baseline)
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)


@dataclass
class Verdict:
    returncode: int
    output: str
    report: dict[str, Any]
    markdown: str

    def failed(self) -> set[str]:
        return {f["condition"] for f in self.report["findings"] if not f["ok"]}


def run_verify(
    live: Live, tmp_path: Path, *, baseline: Path | None = None, url: str = "", only: str = ""
) -> Verdict:
    """``memory_gate verify`` against the live service; ``only`` runs just the steps a refusal
    needs (the initialisation, release check and clean-up always run; a partial run is never a
    go, so it is only for tests that expect a refusal)."""
    report = tmp_path / "report"
    command = [
        sys.executable,
        "manage.py",
        "memory_gate",
        "verify",
        "--baseline",
        str(baseline or live.baseline),
        "--report",
        str(report),
        "--url",
        url or live.server.url,
        "--token",
        live.server.token(),
        *(["--only", only] if only else []),
    ]
    try:
        done = subprocess.run(
            command, env=live.env(), cwd=ROOT, capture_output=True, text=True, timeout=300
        )
    except subprocess.TimeoutExpired as timeout:
        raise AssertionError(f"verify never finished: {timeout.stderr!r}") from None
    return Verdict(
        done.returncode,
        done.stdout + done.stderr,
        json.loads((report / "report.json").read_text()),
        (report / "report.md").read_text(),
    )


def edited_baseline(live: Live, tmp_path: Path, edit: Any) -> Path:
    baseline = json.loads(live.baseline.read_text())
    edit(baseline["recall"])
    path = tmp_path / "edited-baseline.json"
    path.write_text(json.dumps(baseline, ensure_ascii=False))
    return path


def refused_for(verdict: Verdict, condition: str) -> None:
    assert verdict.returncode != 0, verdict.output[-3000:]
    assert condition in verdict.report["blocking"], verdict.report["blocking"]
    assert "release refused: " in verdict.output and condition in verdict.output
    assert "REFUSED" in verdict.markdown and f"`{condition}`" in verdict.markdown


def server_sql(live: Live, statement: str) -> list[tuple[Any, ...]]:
    with psycopg.connect(embedded_db.url(live.server.data_dir), autocommit=True) as conn:
        cursor = conn.execute(statement)
        return cursor.fetchall() if cursor.description else []


def gate_rows(live: Live) -> int:
    (count,) = server_sql(
        live, "SELECT count(*) FROM poco_memories WHERE payload->>'user_id' LIKE 'poco-gate%'"
    )[0]
    return int(count)


@pytest.mark.reliability
def test_make_gate_passes_on_a_fresh_make_run():
    """``make gate`` itself (``edges.gate.suite``): a fresh ``make run`` in a data directory
    of its own, the baseline, ``verify`` against it over HTTP, the service stopped, exit 0."""
    from django.conf import settings

    data_dir = settings.DATA_DIR / "test-servers" / f"gate-suite-{uuid.uuid4().hex[:8]}"
    report_dir = data_dir.with_name(data_dir.name + "-report")
    try:
        done = subprocess.run(
            [sys.executable, "-m", "edges.gate.suite"],
            env=child_env(POCO_GATE_DATA_DIR=str(data_dir), POCO_GATE_REPORT=str(report_dir)),
            cwd=ROOT,
            capture_output=True,
            text=True,
            timeout=900,
        )
        assert done.returncode == 0, (done.stdout + done.stderr)[-3000:]
        assert "make gate: passed" in done.stdout
        report = json.loads((report_dir / "report.json").read_text())
        markdown = (report_dir / "report.md").read_text()
        token = (data_dir / "service_token").read_text().strip()
    finally:
        shutil.rmtree(data_dir, ignore_errors=True)
        shutil.rmtree(report_dir, ignore_errors=True)
    assert report["verdict"] == "passed" and report["blocking"] == []
    assert {f["condition"] for f in report["findings"] if not f["ok"]} == set()
    conditions = {f["condition"] for f in report["findings"]}
    assert {
        "initialisation.ready",
        "lifecycle.add_writes_one",
        "lifecycle.update_keeps_id",
        "lifecycle.delete_item_leaves_nothing",
        "lifecycle.delete_user_leaves_nothing",
        "admission.credential_refused",
        "admission.noise_stripped",
        "isolation.list",
        "isolation.recall",
        "isolation.update",
        "isolation.delete",
        "recall.score_direction",
        "recall.positive_lost",
        "recall.negative_answered",
        "ingest.extracts_stable_facts",
        "ingest.one_off_yields_nothing",
        "ingest.one_writer_per_run",
        "mcp.manage_add",
        "mcp.search",
        "cleanup",
        *LATER_STEP_CONDITIONS,
        "old_data.fields_restored",
        "user_api.isolation.read",
        "recall.outage_unavailable",
        "cleanup.history_and_jobs",
    } <= conditions
    assert report["target"]["packages"]["mem0ai"]
    assert (
        report["recall"]["positives_found"]["now"]
        >= report["recall"]["positives_found"]["baseline"]
    )
    assert report["cleanup"] and all(
        (c["delete_user"], c["memories"], c["entities"], c["history_with_text"])
        == ("deleted", 0, 0, 0)
        for c in report["cleanup"].values()
    )
    assert token not in markdown + json.dumps(report)
    assert "PASSED" in markdown and "## Recall: baseline against now" in markdown


@pytest.mark.reliability
def test_a_lost_baseline_positive_refuses_the_release(live, tmp_path):
    def lose(recall: dict[str, Any]) -> None:
        # The baseline claims the first question found its memory at rank 1; now it asks
        # something nothing in the set is about.
        first = next(p for p in recall["positives"] if p["rank"] == 1)
        index = recall["positives"].index(first)
        recall["set"]["positives"][index]["query"] = "太阳系有几颗行星"

    verdict = run_verify(
        live, tmp_path, baseline=edited_baseline(live, tmp_path, lose), only="recall"
    )
    refused_for(verdict, "recall.positive_lost")
    assert "太阳系有几颗行星" in verdict.markdown


@pytest.mark.reliability
def test_another_embedder_than_the_baselines_is_a_warning_not_a_refusal(live, tmp_path):
    baseline = json.loads(live.baseline.read_text())
    baseline["configuration"]["embedding_model"] = "text-embedding-3-small"
    path = tmp_path / "other-model.json"
    path.write_text(json.dumps(baseline, ensure_ascii=False))
    verdict = run_verify(live, tmp_path, baseline=path)
    assert verdict.returncode == 0, verdict.output[-3000:]
    assert verdict.failed() == {"compatibility.embedding_model"}
    assert "`compatibility.embedding_model` (warning)" in verdict.markdown
    assert "memory_reembed --swap" in verdict.markdown


@pytest.mark.reliability
def test_a_flipped_score_direction_refuses_the_release(live, tmp_path):
    def flip(recall: dict[str, Any]) -> None:
        for positive in recall["positives"]:
            if positive["score"] is not None:
                positive["score"] = 1 - positive["score"]

    verdict = run_verify(
        live, tmp_path, baseline=edited_baseline(live, tmp_path, flip), only="recall"
    )
    refused_for(verdict, "recall.score_direction")
    assert verdict.report["recall"]["score_correlation"] < 0


@pytest.mark.reliability
def test_a_residue_left_in_a_throwaway_scope_refuses_the_release(live, tmp_path):
    """A trigger in the service's database keeps one recall memory from being deleted."""
    server_sql(
        live,
        "CREATE FUNCTION gate_test_keep() RETURNS trigger LANGUAGE plpgsql AS "
        "$$ BEGIN RETURN NULL; END $$",
    )
    server_sql(
        live,
        "CREATE TRIGGER gate_test_keep BEFORE DELETE ON poco_memories FOR EACH ROW "
        "WHEN (OLD.payload->>'data' = 'User likes green tea') EXECUTE FUNCTION gate_test_keep()",
    )
    try:
        verdict = run_verify(live, tmp_path, only="recall")  # the step that stores green tea
    finally:
        server_sql(live, "DROP TRIGGER gate_test_keep ON poco_memories")
        server_sql(live, "DROP FUNCTION gate_test_keep()")
        server_sql(live, "DELETE FROM poco_memories WHERE payload->>'user_id' LIKE 'poco-gate%'")
    refused_for(verdict, "cleanup")
    left = [c for c in verdict.report["cleanup"].values() if c["memories"]]
    assert [(c["delete_user"], c["memories"], c["memories_here"]) for c in left] == [
        ("partial_cleanup", 1, 1)
    ]
    assert "cleanup.history_and_jobs" in verdict.report["blocking"]
    assert "server_error" in verdict.report["blocking"]  # delete-user answered 500


class _Leaky(BaseHTTPRequestHandler):
    """A service that ignores which user asks: every request of the gate's intruder is
    answered as its owner's."""

    target = ""

    def _forward(self) -> None:
        body = self.rfile.read(int(self.headers.get("Content-Length") or 0))
        if body:
            payload = json.loads(body)
            if payload.get("user_id") == "intruder":
                payload["user_id"] = "owner"
            body = json.dumps(payload).encode()
        request = urllib.request.Request(
            self.target + self.path,
            data=body or None,
            method=self.command,
            headers={
                k: v
                for k, v in self.headers.items()
                if k.lower() not in {"host", "content-length", "connection"}
            },
        )
        try:
            with urllib.request.urlopen(request, timeout=60) as answer:
                status, data = answer.status, answer.read()
        except urllib.error.HTTPError as error:
            status, data = error.code, error.read()
        self.send_response(status)
        self.send_header("Content-Type", "application/json")
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)

    do_GET = do_POST = _forward

    def log_message(self, *args: Any) -> None:
        pass


@pytest.mark.reliability
def test_a_foreign_scope_read_refuses_the_release(live, tmp_path):
    handler = type("Leaky", (_Leaky,), {"target": live.server.url})
    proxy = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=proxy.serve_forever, daemon=True)
    thread.start()
    try:
        verdict = run_verify(
            live, tmp_path, url=f"http://127.0.0.1:{proxy.server_port}", only="isolation"
        )
    finally:
        proxy.shutdown()
        proxy.server_close()
    for condition in ("isolation.list", "isolation.recall", "isolation.update", "isolation.delete"):
        refused_for(verdict, condition)
    # The other tenant's door was not leaky: only the other user's checks failed.
    failures = [f for f in verdict.report["findings"] if f["condition"] == "isolation.list"]
    assert [f["ok"] for f in failures] == [False, True]
    assert gate_rows(live) == 0
