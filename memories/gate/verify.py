"""``memory_gate verify``: the regression an upgrade must pass, against the running service.

Only HTTP: ``/health``, ``/ready`` and ``/v1`` with a service token, in throwaway scopes of a
tenant of its own (``poco-gate-<run>``; a second tenant ``…-x`` for cross-tenant isolation).
Every check is a named condition; a failed blocking condition refuses the release. The report
(``report.md``, ``report.json``) holds versions, the configuration summary (secrets masked by
the service), baseline against new recall, every failure with its detail and the clean-up
counts. It never holds the token.
"""

from __future__ import annotations

import json
import time
import uuid
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import asdict, dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from memories.contract.export_document import EXPORT_FORMAT, EXPORT_VERSION
from memories.gate.mcp_door import MANAGE, SEARCH, ToolAnswer, call_tool
from memories.gate.recall_set import (
    MIN_SCORE_CORRELATION,
    RANK_TOLERANCE,
    TOP_K,
    RecallComparison,
    RecallSet,
)
from memories.gate.service import (
    RELEASE,
    SERVICE,
    Answer,
    Finding,
    GateStop,
    Scope,
    Service,
)
from memories.gate.versions import deployment_versions

Write = Callable[[str], None]

# What the regression writes; none of it is personal, none of it may be refused by admission.
LIFECYCLE_TEXT = "用户偏好用简体中文撰写技术方案"
LIFECYCLE_UPDATE = "用户偏好用英文撰写技术方案"
LIFECYCLE_SECOND = "User reviews pull requests every morning"
CREDENTIAL_TEXT = "我的 GitHub token 是 ghp_Zr8Kq2Lm4Nx7Vb1Cd9Fg3Hj5Tp6Ws0Ye2Ua4"
NOISE_PROSE = "用户希望周报结论先行"
NOISE_TEXT = (
    f"{NOISE_PROSE}。\nTraceback (most recent call last):\n"
    '  File "/srv/poco/app/main.py", line 3, in <module>\nValueError: boom\n'
    "参考 https://wiki.example.com/report/weekly 和 /etc/poco/report.yaml"
)
NOISE_LEFTOVERS = ("Traceback", "ValueError", "/srv/poco", "https://", "/etc/poco")
INGEST_TASK = [
    {
        "role": "user",
        "content": "以后所有技术方案都使用简体中文，项目叫“Poco”。这次先生成一份 HTML 报告。",
    },
    {"role": "assistant", "content": "好的，已生成报告。已确认：Poco 的技术方案统一使用简体中文。"},
]
INGEST_ONE_OFF = [
    {"role": "user", "content": "这次帮我把报告发给林清。"},
    {"role": "assistant", "content": "好的，今天下午已经发送。"},
]
INGEST_WAIT_SECONDS = 120
ISOLATION_TEXT = "用户的团队每周四下午做架构评审"
ISOLATION_QUERY = "团队什么时候做架构评审"


@dataclass
class Result:
    run: str
    url: str
    started_at: str
    baseline_recorded_at: str
    target: dict[str, Any] = field(default_factory=dict)
    baseline_versions: dict[str, Any] = field(default_factory=dict)
    findings: list[Finding] = field(default_factory=list)
    recall: dict[str, Any] = field(default_factory=dict)
    recall_sample: dict[str, Any] = field(default_factory=dict)
    cleanup: dict[str, dict[str, int | str]] = field(default_factory=dict)
    server_errors: list[str] = field(default_factory=list)
    requests: int = 0
    seconds: float = 0.0

    @property
    def blocking(self) -> list[str]:
        names = [f.condition for f in self.findings if not f.ok and f.blocking]
        return list(dict.fromkeys(names))

    def summary(self) -> str:
        passed = sum(1 for f in self.findings if f.ok)
        verdict = "REFUSED: " + ", ".join(self.blocking) if self.blocking else "PASSED"
        return f"gate {verdict} ({passed}/{len(self.findings)} checks passed, {self.seconds:.0f}s)"


class Gate:
    def __init__(self, service: Service, result: Result, write: Write) -> None:
        self.service = service
        self.result = result
        self.write = write
        tenant = f"poco-gate-{result.run}"
        self.tenant, self.other_tenant = tenant, f"{tenant}-x"
        self.scopes: list[Scope] = []
        # The verify process reaches the service's database (``release.same_database``).
        self.local = False

    def scope(self, user: str, *, tenant: str | None = None) -> Scope:
        scope = Scope(tenant or self.tenant, user)
        if scope not in self.scopes:
            self.scopes.append(scope)
        return scope

    def check(
        self,
        condition: str,
        ok: bool,
        detail: str = "",
        *,
        blocking: bool = True,
        where: str = SERVICE,
    ) -> bool:
        """Record the finding of ``condition`` (said at once when it failed); whether it held."""
        if not ok:
            self.write(f"FAIL {condition}: {detail}")
        self.result.findings.append(Finding(condition, bool(ok), detail, blocking, where))
        return bool(ok)

    @contextmanager
    def step(self, name: str) -> Iterator[None]:
        started = time.monotonic()
        self.write(f"{name} …")
        yield
        self.write(f"{name}: done in {time.monotonic() - started:.1f}s")

    # --- reads used by several checks ------------------------------------------------------
    def listed(self, scope: Scope) -> list[dict[str, Any]]:
        answer = self.service.v1("list-user", scope.body(status="all", page_size=100))
        if answer.status != 200:
            raise GateStop(f"list-user of {scope.key} answered {answer.status}")
        return list(answer.get("items") or [])

    def found(self, scope: Scope, query: str, top_k: int = TOP_K) -> Answer:
        return self.service.v1("search", scope.body(query=query, top_k=top_k))

    def entities(self, scope: Scope) -> int:
        answer = self.service.v1("topics", scope.body(limit=200))
        return len(answer.get("items") or []) if answer.status == 200 else -1

    def history_text(self, scope: Scope, memory_id: str) -> int:
        """Audit rows of the memory that still carry text (0 after a delete)."""
        answer = self.service.v1("history", scope.body(memory_id=memory_id))
        if answer.status == 404:
            return 0
        items = answer.get("items") or []
        return sum(1 for item in items if item.get("old_text") or item.get("new_text"))

    # --- the checks --------------------------------------------------------------------------
    def initialisation(self) -> bool:
        health = self.service.call("GET", "/health")
        self.check("initialisation.health", health.status == 200, f"/health {health.status}")
        ready = self.service.call("GET", "/ready")
        checks = ready.get("checks") or {}
        failed = {name: c.get("detail") for name, c in checks.items() if not c.get("ok")}
        self.result.target = {"checks": checks, **(ready.get("service") or {})}
        if not checks:
            return self.check(
                "initialisation.ready",
                False,
                f"/ready {ready.status} {ready.body!r}: no checks shown — the token must be a "
                "service token not bound to tenants",
            )
        configuration = (ready.get("service") or {}).get("configuration", {})
        self.same_as_baseline(
            "embedding_model",
            configuration,
            "the embedder changed from {before} to {now}: the stored vectors must have been "
            "re-embedded (memory_reembed --swap), and the floors recalibrated",
        )
        self.same_as_baseline(
            "second_model",
            configuration,
            "recall's second model changed from {before} to {now}: its column must have been "
            "rebuilt and refilled (memory_second_vectors)",
        )
        dimension = checks.get("vector dimension", {})
        self.check(
            "compatibility.dimension",
            bool(dimension.get("ok")),
            str(dimension.get("detail", "no vector dimension check")),
        )
        return self.check(
            "initialisation.ready",
            ready.status == 200 and ready.get("status") == "ready" and not failed,
            f"/ready {ready.status} {ready.get('status')}; failed: {failed or 'none'}",
        )

    def same_as_baseline(self, setting: str, configuration: dict[str, Any], changed: str) -> None:
        """Warn (``compatibility.<setting>``) when the target's ``setting`` is not the
        baseline's; ``changed`` says what the change asks of the operator. Either side unknown
        is no warning."""
        before = self.result.baseline_versions.get("configuration", {}).get(setting)
        now = configuration.get(setting)
        self.check(
            f"compatibility.{setting}",
            not before or not now or before == now,
            changed.format(before=before, now=now)
            if before != now
            else f"{now}, as at the baseline",
            blocking=False,
        )

    def lifecycle(self) -> None:
        scope = self.scope("lifecycle")
        added = self.service.v1(
            "manage", scope.body(action="add", text=LIFECYCLE_TEXT, category="preference")
        )
        memory_id = added.get("memory_id")
        listed = self.listed(scope)
        self.check(
            "lifecycle.add_writes_one",
            added.get("status") == "added"
            and added.get("inserted_count") == 1
            and len(listed) == 1,
            f"add answered {added.status} {added.body}; list-user shows {len(listed)}",
        )
        if not memory_id:
            return
        updated = self.service.v1(
            "manage", scope.body(action="update", memory_id=memory_id, text=LIFECYCLE_UPDATE)
        )
        listed = self.listed(scope)
        self.check(
            "lifecycle.update_keeps_id",
            updated.get("status") == "updated"
            and updated.get("memory_id") == memory_id
            and [m["id"] for m in listed] == [memory_id]
            and listed[0]["content"] == LIFECYCLE_UPDATE,
            f"update answered {updated.status} {updated.body}; list-user shows "
            f"{[(m['id'], m['content']) for m in listed]}",
        )
        edited = self.service.v1(
            "update-item", scope.body(memory_id=memory_id, text=LIFECYCLE_TEXT)
        )
        self.check(
            "lifecycle.update_keeps_id",
            edited.status == 200 and edited.get("memory_id") == memory_id,
            f"update-item answered {edited.status} {edited.body}",
        )
        deleted = self.service.v1("delete-item", scope.body(memory_id=memory_id))
        left = self.listed(scope)
        hits = self.found(scope, LIFECYCLE_TEXT).get("items")
        text_left = self.history_text(scope, memory_id)
        self.check(
            "lifecycle.delete_item_leaves_nothing",
            deleted.get("status") == "deleted" and not left and not hits and text_left == 0,
            f"delete-item answered {deleted.status} {deleted.body}; {len(left)} listed, "
            f"{len(hits or [])} recalled, {text_left} audit rows with text",
        )
        ids = []
        for text in (LIFECYCLE_TEXT, LIFECYCLE_SECOND):
            answer = self.service.v1("manage", scope.body(action="add", text=text))
            ids.append(answer.get("memory_id"))
        gone = self.service.v1("delete-user", scope.body())
        left = self.listed(scope)
        text_left = sum(self.history_text(scope, i) for i in ids if i)
        entities = self.entities(scope)
        self.check(
            "lifecycle.delete_user_leaves_nothing",
            gone.get("status") == "deleted"
            and gone.get("deleted_count") == 2
            and not left
            and entities == 0
            and text_left == 0,
            f"delete-user answered {gone.status} {gone.body}; {len(left)} listed, "
            f"{entities} entities, {text_left} audit rows with text",
        )

    def admission(self) -> None:
        scope = self.scope("admission")
        refused = self.service.v1("manage", scope.body(action="add", text=CREDENTIAL_TEXT))
        listed = self.listed(scope)
        self.check(
            "admission.credential_refused",
            refused.get("status") == "rejected"
            and refused.get("reason") == "credential"
            and not listed
            and "ghp_" not in json.dumps(refused.body),
            f"credential add answered {refused.status} {refused.body}; {len(listed)} stored",
        )
        cleaned = self.service.v1("manage", scope.body(action="add", text=NOISE_TEXT))
        stored = [m["content"] for m in self.listed(scope)]
        leftovers = [n for n in NOISE_LEFTOVERS if any(n in text for text in stored)]
        self.check(
            "admission.noise_stripped",
            cleaned.get("status") == "added"
            and len(stored) == 1
            and NOISE_PROSE in stored[0]
            and not leftovers,
            f"noisy add answered {cleaned.status} {cleaned.get('status')}; stored {stored!r}, "
            f"noise left: {leftovers or 'none'}",
        )

    def ingest_job(self, scope: Scope, run_id: str, messages: list[dict[str, str]]) -> Answer:
        """Send an ingest and wait for the queue worker's final state."""
        accepted = self.service.v1(
            "ingest", scope.body(run_id=run_id, source="task_completed", messages=messages)
        )
        job_id = accepted.get("job_id")
        if accepted.status != 202 or not job_id:
            return accepted
        path = f"/v1/memories/ingest/{job_id}?tenant_id={scope.tenant_id}&user_id={scope.user_id}"
        deadline = time.monotonic() + INGEST_WAIT_SECONDS
        while True:
            state = self.service.call("GET", path)
            if state.get("status") not in {"queued", "running", "retrying"}:
                return state
            if time.monotonic() > deadline:
                return Answer(state.status, {**state.body, "waited": INGEST_WAIT_SECONDS})
            time.sleep(0.5)

    def ingest(self) -> None:
        scope = self.scope("ingest")
        done = self.ingest_job(scope, "gate-run-1", INGEST_TASK)
        stored = [m["content"] for m in self.listed(scope)]
        self.check(
            "ingest.extracts_stable_facts",
            done.get("status") == "succeeded"
            and any("简体中文" in text for text in stored)
            and not any("这次" in text for text in stored),
            f"job {done.get('status')} ({done.get('reason')}); stored {stored!r}",
        )
        self.service.v1("delete-user", scope.body())
        one_off = self.ingest_job(scope, "gate-run-2", INGEST_ONE_OFF)
        stored = [m["content"] for m in self.listed(scope)]
        self.check(
            "ingest.one_off_yields_nothing",
            one_off.get("status") == "no_effect" and not stored,
            f"job {one_off.get('status')} ({one_off.get('reason')}); stored {stored!r}",
        )
        self.service.v1(
            "manage", scope.body(action="add", text=LIFECYCLE_SECOND, run_id="gate-run-3")
        )
        skipped = self.ingest_job(scope, "gate-run-3", INGEST_TASK)
        stored = [m["content"] for m in self.listed(scope)]
        self.check(
            "ingest.one_writer_per_run",
            skipped.get("status") == "skipped" and stored == [LIFECYCLE_SECOND],
            f"ingest after an explicit manage of the run: {skipped.get('status')} "
            f"({skipped.get('reason')}); stored {stored!r}",
        )

    def tool(self, scope: Scope, name: str, **arguments: Any) -> ToolAnswer:
        self.service.requests += 1
        return call_tool(
            url=self.service.url,
            token=self.service.token,
            tenant_id=scope.tenant_id,
            user_id=scope.user_id,
            name=name,
            arguments=arguments,
        )

    def mcp(self) -> None:
        """The agent's door: an add and a search over MCP reach the same memory as /v1, and
        another user's connection neither finds nor deletes it."""
        scope, other = self.scope("mcp"), self.scope("mcp-intruder")
        added = self.tool(scope, MANAGE, action="add", text=ISOLATION_TEXT, category="fact")
        memory_id = added.content.get("memory_id")
        listed = [m["id"] for m in self.listed(scope)]
        self.check(
            "mcp.manage_add",
            added.ok and added.content.get("status") == "added" and listed == [memory_id],
            f"manage_user_memory add: {added.content or added.error}; /v1 lists {listed}",
        )
        found = self.tool(scope, SEARCH, query=ISOLATION_QUERY)
        hits = [item.get("id") for item in found.content.get("items") or []]
        self.check(
            "mcp.search",
            found.ok and found.content.get("available") is True and memory_id in hits,
            f"search_user_memory: {hits or found.error or found.content}",
        )
        foreign = self.tool(other, SEARCH, query=ISOLATION_QUERY)
        foreign_hits = [item.get("id") for item in foreign.content.get("items") or []]
        self.check(
            "isolation.recall",
            foreign.ok and memory_id not in foreign_hits,
            f"another user over MCP recalls {foreign.error or foreign_hits}",
        )
        drop = self.tool(other, MANAGE, action="delete", memory_id=memory_id)
        self.check(
            "isolation.delete",
            drop.content.get("status") == "forbidden" and len(self.listed(scope)) == 1,
            f"another user over MCP deletes: {drop.content or drop.error}",
        )

    def isolation(self) -> None:
        owner = self.scope("owner")
        added = self.service.v1("manage", owner.body(action="add", text=ISOLATION_TEXT))
        memory_id = added.get("memory_id")
        if not self.check(
            "isolation.setup", bool(memory_id), f"owner add answered {added.status} {added.body}"
        ):
            return
        for label, other in (
            ("another user", self.scope("intruder")),
            ("another tenant", self.scope("owner", tenant=self.other_tenant)),
        ):
            listed = [m["id"] for m in self.listed(other)]
            self.check(
                "isolation.list",
                memory_id not in listed,
                f"{label} ({other.key}) lists {listed}",
            )
            hits = [h["id"] for h in self.found(other, ISOLATION_QUERY).get("items") or []]
            self.check(
                "isolation.recall", memory_id not in hits, f"{label} ({other.key}) recalls {hits}"
            )
            history = self.service.v1("history", other.body(memory_id=memory_id))
            self.check(
                "isolation.read",
                history.status == 403,
                f"{label} ({other.key}) reads its history: {history.status}",
            )
            edit = self.service.v1(
                "update-item", other.body(memory_id=memory_id, text="changed by another scope")
            )
            manage = self.service.v1(
                "manage",
                other.body(action="update", memory_id=memory_id, text="changed by another scope"),
            )
            self.check(
                "isolation.update",
                edit.status == 403 and manage.get("status") == "forbidden",
                f"{label} ({other.key}) update-item {edit.status} {edit.get('status')}, "
                f"manage update {manage.status} {manage.get('status')}",
            )
            drop = self.service.v1("delete-item", other.body(memory_id=memory_id))
            self.check(
                "isolation.delete",
                drop.status == 403 and drop.get("status") == "forbidden",
                f"{label} ({other.key}) delete-item {drop.status} {drop.get('status')}",
            )
        kept = self.listed(owner)
        self.check(
            "isolation.owner_unchanged",
            [(m["id"], m["content"]) for m in kept] == [(memory_id, ISOLATION_TEXT)],
            f"the owner's memory now: {[(m['id'], m['content']) for m in kept]}",
        )

    def recall(self, baseline: dict[str, Any]) -> None:
        """The shipped recall set imported into a throwaway scope and searched again: no
        baseline positive lost or fallen far, scores still falling with the rank and moving
        with the baseline's, no silent negative answering."""
        recorded = baseline["recall"]
        recall_set = RecallSet.from_json(recorded["set"])
        comparison = RecallComparison(top_k=int(recorded.get("top_k", TOP_K)))
        scope = self.scope("recall")
        ids = self.import_recall_set(scope, recall_set)
        if ids is None:
            return
        self.search_positives(scope, recall_set, recorded["positives"], ids, comparison)
        self.search_negatives(scope, recall_set, recorded["negatives"], comparison)
        correlation = self.judge_recall(comparison)
        self.result.recall = comparison.summary(correlation)

    def import_recall_set(self, scope: Scope, recall_set: RecallSet) -> list[Any] | None:
        """The ids of the set's memories imported into ``scope``, in the set's order; None (and a
        failed ``recall.setup``) when the import did not store them all."""
        document = {
            "format": EXPORT_FORMAT,
            "version": EXPORT_VERSION,
            "memories": [{"content": text} for text in recall_set.memories],
        }
        imported = self.service.v1("import", scope.body(document=document))
        items = imported.get("items") or []
        ids = [item.get("memory_id") for item in items]
        stored = self.check(
            "recall.setup",
            imported.status == 200
            and len(ids) == len(recall_set.memories)
            and all(ids)
            and all(item.get("status") in ("added", "no_effect") for item in items),
            f"import answered {imported.status} {imported.get('status')}: "
            f"{[(i.get('index'), i.get('status')) for i in items if i.get('status') != 'added']}",
        )
        return ids if stored else None

    def recall_hits(self, scope: Scope, query: str, comparison: RecallComparison) -> list[Any]:
        """The hits of one search of the recall set; an unavailable search is noted."""
        answer = self.found(scope, query, comparison.top_k)
        if answer.get("available") is not True:
            comparison.unavailable.append(query)
        return list(answer.get("items") or [])

    def search_positives(
        self,
        scope: Scope,
        recall_set: RecallSet,
        recorded: list[dict[str, Any]],
        ids: list[Any],
        comparison: RecallComparison,
    ) -> None:
        total = len(recall_set.positives)
        for number, ((query, memory), before) in enumerate(
            zip(recall_set.positives, recorded, strict=True), 1
        ):
            hits = self.recall_hits(scope, query, comparison)
            comparison.add_positive(query, before, hits, ids[memory])
            if number % 8 == 0 or number == total:
                self.write(f"recall positives: {number}/{total}")

    def search_negatives(
        self,
        scope: Scope,
        recall_set: RecallSet,
        recorded: list[dict[str, Any]],
        comparison: RecallComparison,
    ) -> None:
        for query, before in zip(recall_set.negatives, recorded, strict=True):
            hits = self.recall_hits(scope, query, comparison)
            comparison.add_negative(query, before, len(hits))
        self.write(f"recall negatives: {len(recall_set.negatives)} searched")

    def judge_recall(self, comparison: RecallComparison) -> float | None:
        """The recall conditions on ``comparison``; returns the scores' rank correlation."""
        unavailable, unordered = comparison.unavailable, comparison.unordered
        self.check(
            "recall.available",
            not unavailable,
            f"available=false for {unavailable}" if unavailable else "every search available",
        )
        correlation = comparison.correlation()
        flipped = correlation is not None and correlation < MIN_SCORE_CORRELATION
        shown = "n/a" if correlation is None else f"{correlation:.2f}"
        self.check(
            "recall.score_direction",
            not unordered and not flipped,
            (f"scores rise with the rank for {unordered}; " if unordered else "")
            + f"rank correlation of the positives' scores with the baseline {shown} "
            f"(refused below {MIN_SCORE_CORRELATION})",
        )
        top_k, lost, drifted = comparison.top_k, comparison.lost, comparison.drifted
        self.check(
            "recall.positive_lost",
            not lost,
            f"no longer in the top {top_k}: {lost}"
            if lost
            else f"all {comparison.found_before} baseline positives found in the top {top_k}",
        )
        self.check(
            "recall.rank_drift",
            not drifted,
            f"fell more than {RANK_TOLERANCE} places: {drifted}"
            if drifted
            else f"no baseline positive fell more than {RANK_TOLERANCE} places",
        )
        answered = comparison.answered
        self.check(
            "recall.negative_answered",
            not answered,
            f"now answered: {answered}"
            if answered
            else f"the {comparison.silent_before} negatives silent at the baseline answer nothing",
        )
        return correlation

    def cleanup(self) -> None:
        for scope in self.scopes:
            gone = self.service.v1("delete-user", scope.body())
            memories = len(self.listed(scope))
            entities = self.entities(scope)
            self.result.cleanup[scope.key] = {
                "delete_user": str(gone.get("status") or gone.status),
                "memories": memories,
                "entities": entities,
            }
            if self.local:
                from memories.gate.steps import leftovers

                self.result.cleanup[scope.key].update(leftovers(self, scope))
            self.check(
                "cleanup",
                gone.get("status") == "deleted" and memories == 0 and entities == 0,
                f"{scope.key}: delete-user {gone.status} {gone.get('status')} "
                f"({gone.get('reason')}), {memories} memories and {entities} entities left",
            )


# The steps ``verify`` can run, in order (``--only``); those in LOCAL_STEPS need the verify
# process to reach the service's database.
STEPS = (
    "lifecycle",
    "entities",
    "admission",
    "ingest",
    "ingest-policy",
    "isolation",
    "mcp",
    "old-data",
    "user-api",
    "outage",
    "recall",
    "recall-sample",
)
LOCAL_STEPS = frozenset({"old-data", "user-api", "outage"})


def verify(
    *,
    baseline: dict[str, Any],
    url: str,
    token: str,
    report_dir: Path,
    write: Write = lambda _: None,
    only: frozenset[str] = frozenset(),
) -> Result:
    """Run every step (or, to look into one failure, only the steps named in ``only``: the
    initialisation, the release check and the clean-up always run; a partial run is reported as
    such and never accepts a release by itself)."""
    started = time.monotonic()
    service = Service(url, token)
    result = Result(
        run=uuid.uuid4().hex[:10],
        url=url,
        started_at=datetime.now(UTC).isoformat(),
        baseline_recorded_at=str(baseline.get("recorded_at", "")),
        baseline_versions=recorded_versions(baseline),
    )
    from memories.gate import steps

    gate = Gate(service, result, write)
    with gate.step("initialisation"):
        ready = gate.initialisation()
    if ready:
        try:
            with gate.step("release"):
                steps.release_matches(gate)
            for name, run in (
                ("lifecycle", gate.lifecycle),
                ("entities", lambda: steps.entity_quality(gate)),
                ("admission", gate.admission),
                ("ingest", gate.ingest),
                ("ingest-policy", lambda: steps.ingest_policy(gate)),
                ("isolation", gate.isolation),
                ("mcp", gate.mcp),
                ("old-data", lambda: steps.old_data(gate)),
                ("user-api", lambda: steps.user_api(gate)),
                ("outage", lambda: steps.outage(gate)),
                ("recall", lambda: gate.recall(baseline)),
                ("recall-sample", lambda: steps.recall_sample(gate, baseline)),
            ):
                if only and name not in only:
                    continue
                if name in LOCAL_STEPS and not gate.local:
                    continue  # release.same_database failed and says what did not run
                with gate.step(name):
                    run()
        except GateStop as stop:
            gate.check("service_answers", False, str(stop))
        finally:
            with gate.step("cleanup"):
                try:
                    gate.cleanup()
                except GateStop as stop:
                    gate.check("cleanup", False, str(stop))
    if only:
        gate.check(
            "verify.partial",
            False,
            f"only {', '.join(sorted(only))} ran: a release is accepted on a full run only",
            blocking=False,
        )
    result.server_errors = list(service.server_errors)
    gate.check(
        "server_error",
        not service.server_errors,
        f"{len(service.server_errors)} answers were 5xx or none: {service.server_errors[:10]}",
    )
    result.requests = service.requests
    result.seconds = time.monotonic() - started
    write_report(result, report_dir)
    return result


def recorded_versions(baseline: dict[str, Any]) -> dict[str, Any]:
    """What the report shows of the baseline beside the target, under the names
    ``deployment_versions`` gives now: a baseline of the first format kept the vector
    extension's version as "pgvector" (the Python package's name) and not the package's."""
    versions = dict(baseline.get("versions") or {})
    if int(baseline.get("version") or 1) < 2 and "pgvector" in versions:
        versions = {
            ("vector extension" if name == "pgvector" else name): value
            for name, value in versions.items()
        }
    return {
        "versions": versions,
        "configuration": baseline.get("configuration", {}),
        "data": baseline.get("data", {}),
    }


# --- the report ------------------------------------------------------------------------------
def write_report(result: Result, directory: Path) -> None:
    directory.mkdir(parents=True, exist_ok=True)
    data = asdict(result)
    data["verdict"] = "refused" if result.blocking else "passed"
    data["blocking"] = result.blocking
    (directory / "report.json").write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    (directory / "report.md").write_text(render_markdown(result))


def _table(header: tuple[str, ...], rows: list[tuple[Any, ...]]) -> list[str]:
    def cell(value: Any) -> str:
        text = "—" if value is None else f"{value:.4f}" if isinstance(value, float) else str(value)
        return text.replace("|", "\\|").replace("\n", " ")

    return [
        "| " + " | ".join(header) + " |",
        "|" + "---|" * len(header),
        *("| " + " | ".join(cell(v) for v in row) + " |" for row in rows),
    ]


def render_markdown(result: Result) -> str:
    """The report for people: a summary, then one section a subject (a section with nothing to
    say is left out)."""
    sections = (
        ("Versions", _versions(result)),
        ("Configuration (secrets masked)", _configuration(result)),
        ("Stored data at the baseline", _baseline_data(result)),
        ("Failures", _failures(result)),
        ("Checks", _checks(result)),
        ("Recall: baseline against now", _recall(result)),
        ("Recall: the sample of real scopes", _recall_sample(result)),
        ("Clean-up", _cleanup(result)),
        ("Server errors", [f"- {e}" for e in result.server_errors]),
    )
    lines = ["# Upgrade gate report", "", *_summary(result)]
    for title, body in sections:
        if body:
            lines += ["", f"## {title}", "", *body]
    return "\n".join(lines) + "\n"


def _summary(result: Result) -> list[str]:
    verdict = (
        "**REFUSED** — blocking: " + ", ".join(f"`{name}`" for name in result.blocking)
        if result.blocking
        else "**PASSED** — no blocking condition"
    )
    return [
        f"- verdict: {verdict}",
        f"- service: {result.url}, run `{result.run}` started {result.started_at}, "
        f"{result.requests} requests in {result.seconds:.0f} s",
        f"- baseline recorded {result.baseline_recorded_at}",
    ]


def _beside(header: str, before: dict[str, Any], now: dict[str, Any]) -> list[str]:
    """A table of each name at the baseline and on the target."""
    names = list(dict.fromkeys([*before, *now]))
    return _table((header, "baseline", "target"), [(n, before.get(n), now.get(n)) for n in names])


def _versions(result: Result) -> list[str]:
    now = deployment_versions(result.target)
    return _beside("component", result.baseline_versions.get("versions", {}), now)


def _configuration(result: Result) -> list[str]:
    before = result.baseline_versions.get("configuration", {})
    return _beside("setting", before, result.target.get("configuration") or {})


def _baseline_data(result: Result) -> list[str]:
    data = result.baseline_versions.get("data") or {}
    if not data:
        return []
    return [
        f"- {name}: {json.dumps(data.get(name), ensure_ascii=False)}"
        for name in ("memories", "entities", "embedding")
    ]


def _failures(result: Result) -> list[str]:
    failures = [f for f in result.findings if not f.ok]
    return [
        f"- `{f.condition}` ({'blocking' if f.blocking else 'warning'}): {f.detail}"
        for f in failures
    ] or ["none"]


def _checks(result: Result) -> list[str]:
    return [
        f"Exercised through the {SERVICE} (HTTP: /health, /ready, /v1, /mcp, the user API) or "
        f"in the {RELEASE} (the release's code against the service's database: Mem0's "
        "internals, the queue's retry decisions, old data's payload, an unreachable vector "
        "store, what deleted scopes leave).",
        "",
        *_table(
            ("condition", "result", "exercised", "detail"),
            [(f.condition, "ok" if f.ok else "FAIL", f.where, f.detail) for f in result.findings],
        ),
    ]


def _recall(result: Result) -> list[str]:
    recall = result.recall
    if not recall:
        return []
    found, silent = recall["positives_found"], recall["negatives_silent"]
    return [
        f"top {recall['top_k']}; a baseline positive may fall {recall['rank_tolerance']} "
        f"places; positives found: {found['baseline']} at the baseline, {found['now']} now "
        f"(of {found['of']}); negatives silent at the baseline: {silent['baseline']} of "
        f"{silent['of']}, answered now: {silent['now_answered']}; rank correlation of the "
        f"scores: {recall['score_correlation']}",
        "",
        *_table(
            ("query", "baseline rank", "baseline score", "rank", "score"),
            [
                (r["query"], r["baseline_rank"], r["baseline_score"], r["rank"], r["score"])
                for r in recall["positives"]
            ],
        ),
    ]


def _recall_sample(result: Result) -> list[str]:
    sample = result.recall_sample
    if not sample:
        return []
    return [
        f"{sample['searches']} searches in {sample['scopes']} scopes (ids and scores only); "
        f"{sample['compared']} compared; mean overlap of the top k with the baseline: "
        f"{sample['mean_overlap']}; top hits lost: {sample['top_hit_lost'] or 'none'}"
    ]


# The counts of what a deleted scope left, when the verify process could read them.
CLEANUP_COUNTS = (
    "history",
    "history_with_text",
    "ingest_jobs",
    "ingest_jobs_with_messages",
    "queue_jobs_pending",
)


def _cleanup(result: Result) -> list[str]:
    return _table(
        ("scope", "delete-user", "memories left", "entities left", *CLEANUP_COUNTS),
        [
            (k, v["delete_user"], v["memories"], v["entities"], *(v.get(c) for c in CLEANUP_COUNTS))
            for k, v in result.cleanup.items()
        ],
    )
