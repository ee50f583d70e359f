"""``memory_gate verify``'s later steps, in-process against the test server (pytest-django's
live server on the test database, which the verify process shares as a release node shares the
service's): each passes on the sound code, and each blocking condition, made to fire on purpose,
exits non-zero with the condition named in report.json and report.md.

A fault is produced the way it would arrive: a Mem0 internal removed, a PostgreSQL trigger that
keeps what should go (the database stays real), or a release of ours that answers wrongly.
Remote LLMs are not involved: the service under test runs the offline extractor."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from edges.gate import fixtures, release
from edges.gate.baseline import FORMAT, record_sample
from edges.gate.recall_set import SAMPLE_QUERIES
from memories import selectors
from memories.scope import scope_of
from memories.services import memory_add
from memories.types import SearchResult
from tests.edges.gate.conftest import LATER_STEP_CONDITIONS
from tests.memories.ops.conftest import mem0_sql

pytestmark = pytest.mark.django_db(transaction=True)

OPERATOR = "gate-steps-operator-0123456789"


@dataclass
class Verdict:
    refused: bool
    output: str
    report: dict[str, Any]
    markdown: str

    def findings(self, condition: str) -> list[dict[str, Any]]:
        return [f for f in self.report["findings"] if f["condition"] == condition]


@pytest.fixture
def verify(live_server, settings, tmp_path) -> Callable[..., Verdict]:
    settings.SERVICE_TOKENS = [f"ops:{OPERATOR}"]

    def run(only: str, baseline: dict[str, Any] | None = None) -> Verdict:
        path = tmp_path / "baseline.json"
        recorded = {"format": FORMAT, "recorded_at": "test", **(baseline or {})}
        path.write_text(json.dumps(recorded, ensure_ascii=False))
        report = tmp_path / "report"
        out, err = _Text(), _Text()
        refused = False
        try:
            call_command(
                "memory_gate",
                "verify",
                "--baseline",
                str(path),
                "--report",
                str(report),
                "--url",
                live_server.url,
                "--token",
                OPERATOR,
                "--only",
                only,
                stdout=out,
                stderr=err,
            )
        except CommandError as error:  # what manage.py turns into a non-zero exit
            refused = True
            err.write(str(error))
        return Verdict(
            refused,
            out.text + err.text,
            json.loads((report / "report.json").read_text()),
            (report / "report.md").read_text(),
        )

    return run


class _Text:
    def __init__(self) -> None:
        self.text = ""

    def write(self, text: str) -> None:
        self.text += text + "\n"

    def flush(self) -> None:
        return None


def refused_for(verdict: Verdict, *conditions: str) -> None:
    assert verdict.refused, verdict.output[-3000:]
    assert "release refused: " in verdict.output
    for condition in conditions:
        assert condition in verdict.report["blocking"], verdict.report["blocking"]
        assert f"`{condition}`" in verdict.markdown
        assert condition in verdict.output


@pytest.fixture
def trigger() -> Iterator[Callable[[str, str, str], None]]:
    """``trigger(table, timing_and_events, body)``: a PL/pgSQL row trigger on the test database,
    dropped after the test."""
    made: list[tuple[str, str]] = []

    def make(table: str, when: str, body: str) -> None:
        name = f"gate_fault_{len(made)}"
        mem0_sql(
            f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN {body} END $$"
        )
        mem0_sql(f"CREATE TRIGGER {name} {when} ON {table} FOR EACH ROW EXECUTE FUNCTION {name}()")
        made.append((name, table))

    yield make
    for name, table in made:
        mem0_sql(f"DROP TRIGGER {name} ON {table}")
        mem0_sql(f"DROP FUNCTION {name}()")


# --- on the sound code -------------------------------------------------------------------------
def test_the_later_steps_pass_on_a_sound_service(verify, scope, agent):
    for text in ("用户偏好简洁的技术方案", "User works with PostgreSQL and Django"):
        assert memory_add(scope=scope, text=text, actor=agent).memory_id
    baseline = {"recorded_at": "test", "recall_sample": record_sample(1, write=lambda _: None)}
    assert {e["scope"] for e in baseline["recall_sample"]["entries"]} == {scope.key}
    assert len(baseline["recall_sample"]["entries"]) == len(SAMPLE_QUERIES)
    verdict = verify("entities,ingest-policy,old-data,user-api,outage,recall-sample", baseline)
    assert not verdict.refused, verdict.output[-3000:]
    assert verdict.report["blocking"] == []
    conditions = {f["condition"]: f for f in verdict.report["findings"]}
    for condition in (
        *LATER_STEP_CONDITIONS,
        "old_data.lists",
        "old_data.recalls",
        "old_data.updates_in_place",
        "old_data.fields_restored",
        "user_api.own",
        "user_api.isolation.recall",
        "user_api.isolation.read",
        "user_api.isolation.update",
        "user_api.isolation.delete",
        "recall.outage_unavailable",
        "recall.sample_top_hit_lost",
        "cleanup.history_and_jobs",
    ):
        assert conditions[condition]["ok"], conditions[condition]
    # A partial run says so, as a warning.
    assert not conditions["verify.partial"]["ok"] and not conditions["verify.partial"]["blocking"]
    assert conditions["sdk.internals"]["where"] == "verify process"
    assert conditions["entities.quoted_indexed"]["where"] == "service"
    assert verdict.report["recall_sample"]["compared"] >= 1
    cleanup = verdict.report["cleanup"]
    assert cleanup and all(c["history_with_text"] == 0 for c in cleanup.values())
    assert sum(int(c["history"]) for c in cleanup.values()) > 0
    assert "history_with_text" in verdict.markdown
    # No throwaway user, session or scope is left behind.
    from django.contrib.auth import get_user_model

    assert not get_user_model().objects.filter(username__startswith="poco-gate").exists()
    assert mem0_sql(
        "SELECT count(*) FROM poco_memories WHERE starts_with(payload->>'user_id', 'poco-gate')"
    ) == [(0,)]


# --- each condition made to fire ------------------------------------------------------------
def test_a_removed_mem0_internal_refuses_the_release(verify, monkeypatch):
    from mem0.memory.main import Memory

    monkeypatch.delattr(Memory, "_upsert_entity")
    verdict = verify("ingest-policy")
    refused_for(verdict, "sdk.internals")
    [failed] = [f for f in verdict.findings("sdk.internals") if not f["ok"]]
    assert "Memory._upsert_entity is gone" in failed["detail"]


def test_a_release_other_than_the_services_refuses(verify, monkeypatch):
    real = release.package_versions

    monkeypatch.setattr(release, "package_versions", lambda: {**real(), "mem0ai": "9.9.9"})
    verdict = verify("ingest-policy")
    refused_for(verdict, "release.same_packages")
    assert "mem0ai here 9.9.9" in verdict.findings("release.same_packages")[0]["detail"]


def test_another_database_than_the_services_refuses_and_skips_the_local_steps(verify, monkeypatch):
    monkeypatch.setattr(release, "stored_here", lambda memory_id: False)
    verdict = verify("old-data,outage")
    refused_for(verdict, "release.same_database")
    ran = {f["condition"] for f in verdict.report["findings"]}
    assert not ran & {"old_data.lists", "recall.outage_unavailable"}


def test_a_quoted_entity_not_indexed_refuses(verify, trigger):
    trigger(
        "poco_memories_entities",
        "BEFORE INSERT",
        f"IF NEW.payload->>'data' = '{fixtures.ENTITY_OLD}' THEN RETURN NULL; END IF; RETURN NEW;",
    )
    refused_for(verify("entities"), "entities.quoted_indexed")


def test_an_old_entity_kept_after_an_update_refuses(verify, trigger):
    trigger(
        "poco_memories_entities",
        "BEFORE UPDATE OR DELETE",
        f"IF OLD.payload->>'data' = '{fixtures.ENTITY_OLD}' THEN RETURN NULL; END IF; "
        "IF TG_OP = 'DELETE' THEN RETURN OLD; END IF; RETURN NEW;",
    )
    verdict = verify("entities")
    refused_for(verdict, "entities.old_gone_after_update")
    assert verdict.findings("entities.quoted_indexed")[0]["ok"]


def test_a_sentence_taken_for_a_name_refuses(verify, monkeypatch):
    from memories.language import nlp

    def with_the_sentence(text: str, found: list[tuple[str, str]]) -> list[tuple[str, str]]:
        return [*found, *([("QUOTED", fixtures.SENTENCE)] if fixtures.SENTENCE in text else [])]

    single, batch = nlp.extract_entities, nlp.extract_entities_batch
    monkeypatch.setattr(
        nlp, "extract_entities", lambda text: with_the_sentence(text, list(single(text)))
    )
    monkeypatch.setattr(
        nlp,
        "extract_entities_batch",
        lambda texts: [
            with_the_sentence(text, list(found))
            for text, found in zip(texts, batch(texts), strict=True)
        ],
    )
    verdict = verify("entities")
    refused_for(verdict, "entities.no_sentence_name")
    assert fixtures.SENTENCE in verdict.findings("entities.no_sentence_name")[0]["detail"]


def test_old_data_whose_update_does_not_restore_the_fields_refuses(verify, trigger):
    trigger(
        "poco_memories",
        "BEFORE UPDATE",
        f"IF NEW.payload->>'data' = '{fixtures.OLD_UPDATE}' THEN "
        "NEW.payload := NEW.payload - 'schema_version'; END IF; RETURN NEW;",
    )
    verdict = verify("old-data")
    refused_for(verdict, "old_data.fields_restored")
    assert verdict.findings("old_data.updates_in_place")[0]["ok"]
    assert "schema_version" in verdict.findings("old_data.fields_restored")[0]["detail"]


def test_a_user_api_that_serves_another_users_memory_refuses(verify, monkeypatch):
    from edges.user_api import views
    from memories.types import MemoryScope

    real = views.scope_for_user

    def leaky(user: Any) -> MemoryScope:
        return scope_of(tenant_id=real(user).tenant_id, user_id="console-b")

    monkeypatch.setattr(views, "scope_for_user", leaky)
    verdict = verify("user-api")
    refused_for(verdict, "user_api.own", "user_api.isolation.recall", "user_api.isolation.read")


def test_an_outage_answered_as_zero_hits_refuses(verify, monkeypatch):
    real = selectors.memory_search

    def hides_outages(**kwargs: Any) -> SearchResult:
        result = real(**kwargs)
        return SearchResult(items=result.items, available=True)

    monkeypatch.setattr(selectors, "memory_search", hides_outages)
    verdict = verify("outage")
    refused_for(verdict, "recall.outage_unavailable")
    assert "available=True" in verdict.findings("recall.outage_unavailable")[0]["detail"]


def test_an_ingest_policy_that_retries_wrongly_refuses(verify, monkeypatch):
    from lifecycle import guards, tasks

    monkeypatch.setattr(tasks, "RETRY_DELAYS_SECONDS", (1, 2, 8))
    monkeypatch.setattr(tasks, "BackendError", Exception)  # every failure counts as temporary
    monkeypatch.setattr(guards, "drifted", lambda fact, language: False)
    verdict = verify("ingest-policy")
    refused_for(
        verdict,
        "ingest.backoff_1_2_4",
        "ingest.deterministic_not_retried",
        "ingest.language_guard",
    )
    assert "[1, 2, 8, None]" in verdict.findings("ingest.backoff_1_2_4")[0]["detail"]


def test_audit_text_left_in_a_throwaway_scope_refuses(verify, trigger):
    trigger(
        "memories_auditevent",
        "BEFORE UPDATE",
        "IF starts_with(OLD.tenant_id, 'poco-gate') AND (OLD.old_text <> '' OR OLD.new_text <> '') "
        "THEN RETURN NULL; END IF; RETURN NEW;",
    )
    verdict = verify("ingest-policy")
    refused_for(verdict, "cleanup.history_and_jobs")
    [probe] = [c for k, c in verdict.report["cleanup"].items() if k.endswith(":probe")]
    assert probe["history_with_text"] >= 1 and probe["memories"] == 0
    mem0_sql("DELETE FROM memories_auditevent WHERE starts_with(tenant_id, 'poco-gate')")


def test_a_sampled_scopes_lost_top_hit_refuses(verify, scope, other_scope, agent):
    assert memory_add(scope=scope, text="用户偏好简洁的技术方案", actor=agent).memory_id
    elsewhere = memory_add(scope=other_scope, text="User likes green tea", actor=agent)
    sample = record_sample(1, write=lambda _: None)
    # The baseline claims another scope's memory (still stored) was this scope's top hit.
    sample["entries"][0]["ids"] = [elsewhere.memory_id]
    verdict = verify("recall-sample", {"recorded_at": "test", "recall_sample": sample})
    refused_for(verdict, "recall.sample_top_hit_lost")
    assert str(elsewhere.memory_id) in verdict.markdown


def test_another_second_model_than_the_baselines_is_a_warning(verify, settings):
    baseline = {"recorded_at": "test", "configuration": {"second_model": "bge-m3"}}
    verdict = verify("ingest-policy", baseline)
    assert not verdict.refused, verdict.output[-3000:]
    [warning] = verdict.findings("compatibility.second_model")
    assert not warning["ok"] and not warning["blocking"]
    assert f"from bge-m3 to {settings.SECOND_MODEL}" in warning["detail"]
    assert "memory_second_vectors" in verdict.markdown


def test_unknown_steps_are_named(tmp_path):
    baseline = tmp_path / "b.json"
    baseline.write_text("{}")
    with pytest.raises(CommandError, match="unknown step.*'recal'"):
        call_command(
            "memory_gate",
            "verify",
            *("--baseline", str(baseline), "--report", str(tmp_path / "r")),
            *("--url", "http://127.0.0.1:9", "--token", "t", "--only", "recal"),
        )
    assert not (tmp_path / "r").exists()


def test_the_baseline_records_the_embedders_in_use_and_no_sample_by_default(settings):
    from edges.gate.baseline import embedders_in_use

    primary, second = embedders_in_use()
    assert (primary["role"], primary["dims"]) == ("primary", 512)
    assert primary["table_dims"]["poco_memories"] == 512
    assert (second["role"], second["model"]) == ("second", settings.SECOND_MODEL)
    assert second["table_dims"] == {"poco_memories": int(settings.SECOND_MODEL_DIMS)}
    settings.SECOND_MODEL = "off"
    assert [e["role"] for e in embedders_in_use()] == ["primary"]
    assert record_sample(0, write=lambda _: None)["entries"] == []


def test_an_unforeseen_error_is_reported_not_lost(verify, monkeypatch):
    """A step that fails in a way the gate does not foresee still leaves its report and refuses.
    A run on a loaded machine once exited with no report at all, and nothing said why."""
    from edges.gate import frame

    def fail(gate: Any) -> None:
        raise RuntimeError("connection to the database was lost")

    monkeypatch.setattr(frame, "release_matches", fail)
    verdict = verify("isolation")
    refused_for(verdict, "verify.crashed")
    crashed = verdict.findings("verify.crashed")[0]
    assert "RuntimeError: connection to the database was lost" in crashed["detail"]
