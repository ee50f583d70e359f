"""Memory governance: what a memory knows about itself, one current value per
key, semantic duplicates, expiry. Real PostgreSQL, Mem0 and the bundled embedder."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import call_command
from django.db import DatabaseError
from django.utils import timezone
from django.utils.dateparse import parse_datetime

from memories import selectors, services
from memories.context import memory_context
from memories.engine import get_engine
from memories.governance import INFERRED_CONFIDENCE, default_valid_until, is_duplicate
from memories.models import AuditEvent, MemoryRow
from memories.ops.dedup_calibration import DEDUP_PAIRS, DedupCalibration, calibrate_dedup
from memories.types import (
    SCHEMA_VERSION,
    BackendError,
    ListQuery,
    MemoryStatus,
    SearchFilters,
    Source,
    WriteStatus,
)
from tests.memories.conftest import assert_invalid, body

pytestmark = pytest.mark.django_db

ZH = "以后默认用中文回答"
EN = "以后默认用英文回答"
EN_AGAIN = "对，还是默认用英文回答"
KEY = "preference.answer_language"


def payload(memory_id: str) -> dict:
    return MemoryRow.objects.get(id=memory_id).payload


def search_ids(scope, query: str, **filters) -> list[str]:
    result = selectors.memory_search(
        scope=scope, query=query, top_k=10, min_score=0.0, filters=SearchFilters(**filters)
    )
    assert result.available
    return [hit.id for hit in result.items]


def listed(scope, status: str = "active", **fields) -> list[str]:
    return [
        r.id
        for r in selectors.memory_list(scope=scope, query=ListQuery(status=status, **fields)).items
    ]


def age(memory_id: str, *, days: int) -> None:
    """Let ``days`` pass for one memory: its valid_until moves into the past."""
    until = parse_datetime(payload(memory_id)["valid_until"])
    assert until is not None
    get_engine().patch_payload(
        memory_id=memory_id, fields={"valid_until": (until - timedelta(days=days)).isoformat()}
    )


# --- what a memory knows about itself ---------------------------------------------------------
def test_every_add_writes_the_governance_fields(scope, agent):
    outcome = services.memory_add(
        scope=scope, text=EN, actor=agent, memory_key=KEY, run_id="run-7", category="preference"
    )
    assert outcome.status == WriteStatus.ADDED and outcome.superseded_id is None
    stored = payload(outcome.memory_id)
    assert stored["memory_key"] == KEY
    assert stored["confidence"] == 1.0  # an explicit statement
    assert stored["status"] == "active" and stored["superseded_by"] is None
    assert stored["source"] == "manage" and stored["source_ref"] == "run-7"
    assert stored["embedding_model"] == get_engine().embedding_model
    assert stored["schema_version"] == SCHEMA_VERSION
    until = parse_datetime(stored["valid_until"])
    assert until is not None
    assert abs(until - default_valid_until()) < timedelta(minutes=1)  # 730 days from now


def test_valid_until_is_settable_and_none_never_expires(scope, agent):
    later = timezone.now() + timedelta(days=3)
    dated = services.memory_add(scope=scope, text=EN, actor=agent, valid_until=later)
    forever = services.memory_add(scope=scope, text="用户住在杭州", actor=agent, valid_until=None)
    assert parse_datetime(payload(dated.memory_id)["valid_until"]) == later
    assert payload(forever.memory_id)["valid_until"] is None


def test_an_inference_below_the_floor_is_not_stored(scope, agent, settings):
    settings.MIN_CONFIDENCE = 0.5
    outcome = services.memory_add(scope=scope, text=EN, actor=agent, confidence=0.3)
    assert (outcome.status, outcome.reason) == (WriteStatus.REJECTED, "low_confidence")
    assert not MemoryRow.objects.exists() and not AuditEvent.objects.exists()


def test_a_memory_key_must_be_namespace_dot_attribute(v1, scope):
    for bad in ("answer_language", "Preference.Lang", "preference.", "a.b c", 7):
        answer = v1.post("manage", body(scope, action="add", text=EN, memory_key=bad))
        assert_invalid(answer, "memory_key")
    assert not MemoryRow.objects.exists()


@pytest.mark.parametrize(
    ("memory_key", "reason"),
    [
        ("password.hunter2xyz", "credential"),
        ("api.key_4f3a9c2b1d8e7f6a5b4c3d2e1f0a9b8c", "credential"),
        ("contact.mobile_13912345678", "sensitive_identifier"),
    ],
)
def test_a_key_holding_a_secret_is_rejected_like_a_text_holding_it(
    v1, scope, agent, memory_key, reason
):
    """A key is stored, listed and exported beside the text: it is read like the text."""
    answer = v1.post("manage", body(scope, action="add", text=EN, memory_key=memory_key)).json()
    assert (answer["status"], answer.get("reason")) == ("rejected", reason), answer
    kept = services.memory_add(scope=scope, text=ZH, actor=agent)
    update = services.memory_update(
        scope=scope, memory_id=kept.memory_id, text=ZH, actor=agent, memory_key=memory_key
    )
    assert (update.status, update.reason) == (WriteStatus.REJECTED, reason)
    assert [row.payload.get("memory_key") or "" for row in MemoryRow.objects.all()] == [""]


def test_rows_written_before_governance_read_as_active_and_never_expiring(scope, agent):
    legacy = get_engine().add_fact(
        scope_key=scope.key, text=EN, metadata={"category": "preference", "source": "manage"}
    )
    record = selectors.memory_get(scope=scope, memory_id=legacy)
    assert (record.status, record.valid_until, record.memory_key) == ("active", None, "")
    assert listed(scope) == [legacy]
    assert search_ids(scope, "回答用什么语言") == [legacy]
    # and a keyed add beside it supersedes nothing it cannot know about
    added = services.memory_add(scope=scope, text=ZH, actor=agent, memory_key=KEY)
    assert added.status == WriteStatus.ADDED and added.superseded_id is None


# --- one current value per key ----------------------------------------------------------------
def test_a_new_value_of_a_key_supersedes_the_old_one(scope, agent):
    old = services.memory_add(scope=scope, text=ZH, actor=agent, memory_key=KEY).memory_id
    other = services.memory_add(scope=scope, text="用户的回答语言偏好和项目无关", actor=agent)
    new = services.memory_add(scope=scope, text=EN, actor=agent, memory_key=KEY)

    assert new.status == WriteStatus.ADDED and new.superseded_id == old
    assert payload(old)["status"] == "superseded"
    assert payload(old)["superseded_by"] == new.memory_id
    assert payload(new.memory_id)["status"] == "active"
    # never searched, related or injected again; still in history and the superseded list
    assert old not in search_ids(scope, "默认用什么语言回答")
    assert old not in search_ids(scope, "回答", memory_key=KEY)
    assert search_ids(scope, "回答", memory_key=KEY) == [new.memory_id]
    assert old not in [
        r.id for r in selectors.memory_related(scope=scope, memory_id=other.memory_id)
    ]
    context = memory_context(
        scope=scope, user_input="以后回答我应该默认用哪种语言？", interactive=True
    )
    assert ZH not in context.text and EN in context.text
    assert listed(scope, status="superseded") == [old]
    assert old not in listed(scope) and old in listed(scope, status="all")
    assert [e.status for e in selectors.memory_history(scope=scope, memory_id=old)] == [
        "",
        "superseded",
    ]


def test_an_inference_never_supersedes_an_explicit_statement(scope, agent):
    explicit = services.memory_add(scope=scope, text=ZH, actor=agent, memory_key=KEY).memory_id
    guessed = services.memory_add(
        scope=scope, text=EN, actor=agent, memory_key=KEY, confidence=INFERRED_CONFIDENCE
    )
    assert (guessed.status, guessed.reason) == (WriteStatus.NO_EFFECT, "explicit_statement_kept")
    assert guessed.memory_id == explicit
    assert MemoryRow.objects.count() == 1 and payload(explicit)["status"] == "active"
    assert AuditEvent.objects.filter(memory_id=explicit, event="NOOP").get().status == (
        "explicit_statement_kept"
    )


def test_an_explicit_statement_supersedes_an_inference(scope, agent):
    guessed = services.memory_add(
        scope=scope, text=ZH, actor=agent, memory_key=KEY, confidence=INFERRED_CONFIDENCE
    ).memory_id
    said = services.memory_add(scope=scope, text=EN, actor=agent, memory_key=KEY)
    assert said.status == WriteStatus.ADDED and said.superseded_id == guessed


def test_update_taking_a_key_supersedes_its_holder_and_names_it(v1, scope, agent):
    holder = services.memory_add(scope=scope, text=ZH, actor=agent, memory_key=KEY).memory_id
    loose = services.memory_add(scope=scope, text="回答要先给结论", actor=agent).memory_id
    answer = v1.post("update-item", body(scope, memory_id=loose, text=EN, memory_key=KEY)).json()
    assert answer["status"] == "updated" and answer["superseded_id"] == holder
    assert payload(holder)["status"] == "superseded"
    assert payload(loose)["memory_key"] == KEY


def test_a_failed_supersede_leaves_the_old_value_current(scope, agent, monkeypatch):
    old = services.memory_add(scope=scope, text=ZH, actor=agent, memory_key=KEY).memory_id
    engine = get_engine()
    patch = engine.patch_payload
    calls = []

    def first_patch_fails(**kwargs):
        calls.append(kwargs)
        if len(calls) == 1:
            raise BackendError("update metadata failed: OperationalError")
        return patch(**kwargs)

    monkeypatch.setattr(engine, "patch_payload", first_patch_fails)
    outcome = services.memory_add(scope=scope, text=EN, actor=agent, memory_key=KEY)

    assert outcome.status == WriteStatus.BACKEND_ERROR
    assert [str(i) for i in MemoryRow.objects.values_list("id", flat=True)] == [old]
    assert payload(old)["status"] == "active" and payload(old)["superseded_by"] is None
    assert not AuditEvent.objects.exclude(memory_id=old).exists()


# --- semantic duplicates ----------------------------------------------------------------------
def test_a_restatement_is_a_noop_naming_the_memory_it_repeats(v1, scope):
    first = v1.post("manage", body(scope, action="add", text=EN)).json()
    again = v1.post("manage", body(scope, action="add", text=EN_AGAIN)).json()
    assert again["success"] is True
    assert (again["status"], again["reason"]) == ("no_effect", "duplicate")
    assert again["memory_id"] == first["memory_id"]
    assert MemoryRow.objects.count() == 1
    noop = AuditEvent.objects.get(event="NOOP")
    assert (str(noop.memory_id), noop.status) == (first["memory_id"], "duplicate")


@pytest.mark.parametrize(
    ("stored", "new"),
    [
        (EN, ZH),  # a contradiction is an update, never a NOOP
        ("用户喜欢喝绿茶", "用户不喜欢喝绿茶"),
        ("Every pull request needs two approvals", "Every pull request needs one approval"),
        ("用户住在杭州", "用户住在杭州西湖区，通勤骑自行车"),
        # a word of one Han character is a content word too (an outside probe lost these)
        ("用户养了一只狗", "用户养了一只猫"),
        ("用户喜欢吃鱼", "用户喜欢吃肉"),
        ("用户不吃辣", "用户不吃肉"),
        ("用户喜欢喝龙井茶", "用户喜欢猫"),
    ],
)
def test_close_but_different_facts_are_not_duplicates(scope, agent, stored, new):
    services.memory_add(scope=scope, text=stored, actor=agent)
    outcome = services.memory_add(scope=scope, text=new, actor=agent)
    assert outcome.status == WriteStatus.ADDED, outcome
    assert MemoryRow.objects.count() == 2


def test_a_superseded_memory_is_no_duplicate_target(scope, agent):
    services.memory_add(scope=scope, text=ZH, actor=agent, memory_key=KEY)
    services.memory_add(scope=scope, text=EN, actor=agent, memory_key=KEY)
    back = services.memory_add(scope=scope, text=ZH, actor=agent, memory_key=KEY)
    assert back.status == WriteStatus.ADDED and back.superseded_id


# --- expiry -----------------------------------------------------------------------------------
def test_an_expired_memory_is_never_searched_related_or_injected(scope, agent):
    gone = services.memory_add(scope=scope, text=EN, actor=agent).memory_id
    kept = services.memory_add(scope=scope, text="回答时先给结论再展开", actor=agent).memory_id
    age(gone, days=731)

    assert gone not in search_ids(scope, "默认用什么语言回答")
    assert gone not in [r.id for r in selectors.memory_related(scope=scope, memory_id=kept)]
    context = memory_context(scope=scope, user_input="以后默认用哪种语言回答我？", interactive=True)
    assert EN not in context.text
    assert listed(scope) == [kept]
    assert listed(scope, status="expired") == [gone]  # before the sweep marks it
    assert selectors.memory_get(scope=scope, memory_id=gone).status == MemoryStatus.EXPIRED


def test_the_sweep_marks_expired_memories_and_audits_it(scope, agent):
    gone = services.memory_add(scope=scope, text=EN, actor=agent).memory_id
    services.memory_add(scope=scope, text="回答时先给结论再展开", actor=agent)
    age(gone, days=731)

    assert services.memories_expire() == 1
    assert payload(gone)["status"] == "expired"
    event = AuditEvent.objects.get(memory_id=gone, event="UPDATE")
    assert (event.status, event.actor_kind, event.source) == ("expired", "system", "expiry")
    assert services.memories_expire() == 0  # nothing left to mark


def test_extending_an_expired_memory_makes_it_current_again(scope, agent):
    memory_id = services.memory_add(scope=scope, text=EN, actor=agent).memory_id
    age(memory_id, days=731)
    services.memories_expire()

    outcome = services.memory_set_validity(
        scope=scope,
        memory_id=memory_id,
        valid_until=timezone.now() + timedelta(days=365),
        actor=agent,
    )
    assert outcome.status == WriteStatus.UPDATED
    assert payload(memory_id)["status"] == "active"
    assert memory_id in search_ids(scope, "默认用什么语言回答")

    cleared = services.memory_set_validity(
        scope=scope, memory_id=memory_id, valid_until=None, actor=agent
    )
    assert cleared.status == WriteStatus.UPDATED and payload(memory_id)["valid_until"] is None


def test_an_expiry_change_whose_audit_row_cannot_be_written_changes_nothing(
    scope, agent, monkeypatch
):
    memory_id = services.memory_add(scope=scope, text=EN, actor=agent).memory_id
    before = payload(memory_id)["valid_until"]

    def broken(*args, **kwargs):
        raise DatabaseError("audit table gone")

    monkeypatch.setattr(AuditEvent.objects, "create", broken)
    outcome = services.memory_set_validity(
        scope=scope, memory_id=memory_id, valid_until=None, actor=agent
    )
    assert outcome.status == WriteStatus.BACKEND_ERROR
    assert payload(memory_id)["valid_until"] == before


def test_an_expired_key_does_not_come_back_over_its_successor(scope, agent):
    old = services.memory_add(scope=scope, text=ZH, actor=agent, memory_key=KEY).memory_id
    age(old, days=731)
    services.memories_expire()
    services.memory_add(scope=scope, text=EN, actor=agent, memory_key=KEY)
    outcome = services.memory_set_validity(
        scope=scope, memory_id=old, valid_until=None, actor=agent
    )
    assert (outcome.status, outcome.reason) == (WriteStatus.REJECTED, "key_in_use")
    assert payload(old)["status"] == "expired"


def test_list_user_filters_by_status_and_key(v1, scope, agent):
    old = services.memory_add(scope=scope, text=ZH, actor=agent, memory_key=KEY).memory_id
    new = services.memory_add(scope=scope, text=EN, actor=agent, memory_key=KEY).memory_id
    other = services.memory_add(scope=scope, text="用户住在杭州", actor=agent).memory_id

    def ids(**fields) -> list[str]:
        answer = v1.post("list-user", body(scope, **fields))
        assert answer.status_code == 200, answer.content
        return sorted(item["id"] for item in answer.json()["items"])

    assert ids() == sorted([new, other])
    assert ids(status="superseded") == [old]
    assert ids(status="all") == sorted([old, new, other])
    assert ids(status="all", memory_key=KEY) == sorted([old, new])
    assert ids(status="expired") == []
    assert_invalid(v1.post("list-user", body(scope, status="deleted")), "status")
    item = v1.post("list-user", body(scope, memory_key=KEY)).json()["items"][0]
    assert item["metadata"]["memory_key"] == KEY and item["metadata"]["status"] == "active"


def test_valid_until_through_v1_add_and_update(v1, scope):
    later = (timezone.now() + timedelta(days=10)).isoformat()
    added = v1.post("manage", body(scope, action="add", text=EN, valid_until=later)).json()
    assert parse_datetime(payload(added["memory_id"])["valid_until"]) == parse_datetime(later)
    updated = v1.post(
        "update-item", body(scope, memory_id=added["memory_id"], text=EN, valid_until=None)
    ).json()
    assert updated["status"] == "updated" and payload(added["memory_id"])["valid_until"] is None
    past = (timezone.now() - timedelta(days=1)).isoformat()
    refused = v1.post("manage", body(scope, action="add", text=ZH, valid_until=past)).json()
    assert (refused["status"], refused["reason"]) == ("rejected", "valid_until_past")
    assert MemoryRow.objects.count() == 1
    assert_invalid(
        v1.post("manage", body(scope, action="add", text=ZH, valid_until=1700000000)),
        "valid_until",
    )


def test_ingested_facts_are_inferences(scope, agent):
    metadata = services.our_metadata(category="fact", source=Source.INGEST)
    assert metadata["confidence"] == INFERRED_CONFIDENCE


# --- calibration of the duplicate floor -------------------------------------------------------
@pytest.fixture(scope="module")
def dedup_calibration() -> DedupCalibration:
    from memories.engine import bootstrap

    bootstrap.prepare()
    from memories.engine.embedder import encode

    return calibrate_dedup(
        embed=encode,
        is_duplicate=lambda existing, candidate, similarity, floor: is_duplicate(
            existing=existing, candidate=candidate, similarity=similarity, min_score=floor
        ),
    )


@pytest.fixture
def bundled_embedder(settings):
    if settings.EMBEDDING_BASE_URL:
        pytest.skip("calibration numbers are for the bundled embedder only")


def test_the_shipped_set_holds_the_sandbox_restatement_and_its_contradiction():
    assert (EN, EN_AGAIN, True) in DEDUP_PAIRS
    assert (EN, ZH, False) in DEDUP_PAIRS
    assert {d for _, _, d in DEDUP_PAIRS} == {True, False}


def test_default_dedup_floor_is_what_calibration_recommends(
    bundled_embedder, dedup_calibration, settings
):
    assert dedup_calibration.recommended == settings.DEDUP_MIN_SCORE


def test_at_the_default_floor_duplicates_are_found_and_nothing_different_is_merged(
    bundled_embedder, dedup_calibration, settings
):
    row = dedup_calibration.row(settings.DEDUP_MIN_SCORE)
    assert row.recall == 1.0 and row.false_merge_rate == 0.0
    # cosine alone cannot do it: at any floor that keeps every duplicate it merges
    # contradictions such as 中文/英文 (measured 0.88 vs the sandbox restatement's 0.77)
    for cosine in dedup_calibration.cosine_only:
        if cosine.recall == 1.0:
            assert cosine.false_merge_rate > 0.3


def test_calibrate_dedup_command_prints_the_table_and_recommendation(bundled_embedder, settings):
    out = StringIO()
    call_command("calibrate_dedup", stdout=out)
    text = out.getvalue()
    assert "false-merge" in text and "cosine alone" in text
    assert f"recommended floor: {settings.DEDUP_MIN_SCORE:.2f}" in text
