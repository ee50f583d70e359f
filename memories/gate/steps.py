"""The steps of ``verify`` beyond the first regression: the release beside the service (same
packages, same database, Mem0's internals), entity quality, the ingest retry policy, old data,
the user API door, an outage, the sample of real scopes, and what deleted scopes leave.

Each takes the running ``Gate``; the in-process parts come from ``memories.gate.release`` and are
reported as exercised in the verify process.
"""

from __future__ import annotations

import json
import urllib.request
from typing import TYPE_CHECKING, Any
from urllib.parse import quote

from memories.gate import release
from memories.gate.service import RELEASE, Answer, GateStop, Scope

if TYPE_CHECKING:
    from memories.gate.verify import Gate

PROBE_TEXT = "用户习惯在周一上午安排站会"
ENTITY_TEXT = "用户的团队沟通用“飞书”"
ENTITY_UPDATE = "用户的团队沟通用“钉钉”"
ENTITY_OLD, ENTITY_NEW = "飞书", "钉钉"
SENTENCE_TEXT = "用户说过“以后报告用飞书发”。"
SENTENCE = "以后报告用飞书发"
OLD_TEXT = "用户习惯每周五下午整理周报"
OLD_QUERY = "用户什么时候整理周报"
OLD_UPDATE = "用户习惯每周五上午整理周报"
CONSOLE_A = "用户喜欢在晚上阅读技术博客"
CONSOLE_B = "用户每天早上跑步五公里"
CONSOLE_B_QUERY = "用户每天早上做什么运动"
USER_API = "/api/v1/user-customer-settings/memories"
OUTAGE_QUERY = "技术方案用什么语言"


# --- the release beside the service -----------------------------------------------------------
def release_matches(gate: Gate) -> None:
    """Same packages as the service, the same database, and Mem0's internals all there. Sets
    ``gate.local`` when the in-process steps may run."""
    packages = gate.result.target.get("packages") or {}
    ok, detail = release.same_packages(packages)
    gate.check("release.same_packages", ok, detail, where=RELEASE)
    for name, passed, found in release.sdk_checks():
        gate.check("sdk.internals", passed, f"{name}: {found}", where=RELEASE)
    scope = gate.scope("probe")
    added = gate.service.v1("manage", scope.body(action="add", text=PROBE_TEXT))
    memory_id = added.get("memory_id")
    gate.local = bool(memory_id) and release.stored_here(str(memory_id))
    gate.check(
        "release.same_database",
        gate.local,
        "the memory the service stored is in this process's database"
        if gate.local
        else f"the service's memory {memory_id} (add answered {added.status}) is not in this "
        "process's database: run verify with the service's DATABASE_URL; the old-data, user "
        "API, outage and clean-up-count checks did not run",
        where=RELEASE,
    )


# --- entity quality ---------------------------------------------------------------------------
def topic_names(gate: Gate, scope: Scope) -> list[str]:
    answer = gate.service.v1("topics", scope.body(limit=200))
    if answer.status != 200:
        raise GateStop(f"topics of {scope.key} answered {answer.status}")
    return [str(item.get("text")) for item in answer.get("items") or []]


def entity_quality(gate: Gate) -> None:
    scope = gate.scope("entities")
    added = gate.service.v1("manage", scope.body(action="add", text=ENTITY_TEXT))
    memory_id = added.get("memory_id")
    topics = topic_names(gate, scope)
    gate.check(
        "entities.quoted_indexed",
        added.get("status") == "added" and ENTITY_OLD in topics,
        f"add answered {added.status} {added.get('status')}; topics {topics}",
    )
    if memory_id:
        updated = gate.service.v1(
            "manage", scope.body(action="update", memory_id=memory_id, text=ENTITY_UPDATE)
        )
        topics = topic_names(gate, scope)
        gate.check(
            "entities.old_gone_after_update",
            updated.get("status") == "updated"
            and ENTITY_NEW in topics
            and ENTITY_OLD not in topics,
            f"update answered {updated.status} {updated.get('status')}; topics {topics}",
        )
    sentence = gate.service.v1("manage", scope.body(action="add", text=SENTENCE_TEXT))
    topics = topic_names(gate, scope)
    gate.check(
        "entities.no_sentence_name",
        sentence.get("status") == "added" and not any(SENTENCE in t for t in topics),
        f"add of a quoted sentence answered {sentence.status} {sentence.get('status')}; "
        f"topics {topics}",
    )


# --- ingest: what the worker decides ----------------------------------------------------------
def ingest_policy(gate: Gate) -> None:
    """The retry policy and the language guard the queue worker runs, asked in-process. The
    worker's own run of a drifted extraction (refused, retried once under a stricter
    instruction, failed for good the second time) needs a scripted LLM the live service does
    not have: tests/lifecycle/test_extraction_guards.py drives it."""
    decisions = release.retry_decisions()
    gate.check(
        "ingest.backoff_1_2_4",
        decisions.backend_delays == (1, 2, 4, None),
        f"a temporary backend failure after attempts 0-3 is retried after "
        f"{list(decisions.backend_delays)} s (None: final)",
        where=RELEASE,
    )
    retried = [name for name, again in decisions.deterministic if again]
    gate.check(
        "ingest.deterministic_not_retried",
        not retried,
        f"retried: {retried}"
        if retried
        else "never retried: " + ", ".join(n for n, _ in decisions.deterministic),
        where=RELEASE,
    )
    ok, detail = release.drift_guard()
    gate.check("ingest.language_guard", ok, detail, where=RELEASE)


# --- old data ---------------------------------------------------------------------------------
def old_data(gate: Gate) -> None:
    scope = gate.scope("old-data")
    added = gate.service.v1("manage", scope.body(action="add", text=OLD_TEXT))
    memory_id = str(added.get("memory_id") or "")
    if not gate.check(
        "old_data.setup", bool(memory_id), f"add answered {added.status} {added.body}"
    ):
        return
    release.strip_payload(memory_id)
    stripped = [f for f in release.LEGACY_FIELDS if f in release.payload_of(memory_id)]
    gate.check(
        "old_data.setup",
        not stripped,
        f"fields {stripped} could not be removed" if stripped else "v2 fields removed",
        where=RELEASE,
    )
    listed = [(m["id"], m["content"]) for m in gate.listed(scope)]
    gate.check("old_data.lists", listed == [(memory_id, OLD_TEXT)], f"list-user shows {listed}")
    found = gate.found(scope, OLD_QUERY)
    hits = [h["id"] for h in found.get("items") or []]
    gate.check(
        "old_data.recalls",
        found.get("available") is True and memory_id in hits,
        f"search answered available={found.get('available')}, hits {hits}",
    )
    updated = gate.service.v1(
        "manage", scope.body(action="update", memory_id=memory_id, text=OLD_UPDATE)
    )
    listed = [(m["id"], m["content"]) for m in gate.listed(scope)]
    gate.check(
        "old_data.updates_in_place",
        updated.get("status") == "updated"
        and updated.get("memory_id") == memory_id
        and listed == [(memory_id, OLD_UPDATE)],
        f"update answered {updated.status} {updated.get('status')}; list-user shows {listed}",
    )
    payload = release.payload_of(memory_id)
    missing = [f for f in release.LEGACY_FIELDS if f not in payload]
    from memories.types import SCHEMA_VERSION

    gate.check(
        "old_data.fields_restored",
        not missing and payload.get("schema_version") == SCHEMA_VERSION,
        f"after the update: missing {missing}, schema_version {payload.get('schema_version')}",
        where=RELEASE,
    )


# --- the user API door ------------------------------------------------------------------------
class Browser:
    """A signed-in user's requests to the user API (session cookie and CSRF, as the page
    sends them)."""

    def __init__(self, gate: Gate, user: release.ConsoleUser) -> None:
        self.gate, self.user = gate, user
        self.csrf = release.csrf_secret()
        session_name, csrf_name = release.cookie_names()
        self.cookie = f"{session_name}={user.session_key}; {csrf_name}={self.csrf}"

    def call(self, method: str, path: str, payload: dict[str, Any] | None = None) -> Answer:
        base = self.gate.service.url
        request = urllib.request.Request(
            base + USER_API + path,
            data=json.dumps(payload).encode() if payload is not None else None,
            method=method,
            headers={
                "Cookie": self.cookie,
                "X-CSRFToken": self.csrf,
                "Referer": base + "/",
                "Origin": base,
                "Content-Type": "application/json",
                "Accept": "application/json",
            },
        )
        service = self.gate.service
        answer = service.send(request)
        if isinstance(answer, OSError):
            service.server_errors.append(f"{method} {path}: no answer ({answer})")
            return Answer(0, None)
        if answer.status >= 500:
            service.server_errors.append(f"{method} {USER_API}{path}: {answer.status}")
        return answer


def user_api(gate: Gate) -> None:
    own, other = gate.scope("console-a"), gate.scope("console-b")
    mine = gate.service.v1("manage", own.body(action="add", text=CONSOLE_A)).get("memory_id")
    theirs = gate.service.v1("manage", other.body(action="add", text=CONSOLE_B)).get("memory_id")
    if not gate.check("user_api.setup", bool(mine and theirs), f"adds gave {mine} and {theirs}"):
        return
    user = release.console_user(own.as_memory_scope())
    try:
        browser = Browser(gate, user)
        listed = browser.call("GET", "/vector?status=all")
        ids = [m.get("id") for m in listed.get("items") or []]
        own_read = browser.call("GET", f"/{mine}")
        gate.check(
            "user_api.own",
            listed.status == 200 and ids == [mine] and own_read.status == 200,
            f"list {listed.status} {ids}; own memory {own_read.status}"
            + (
                ": the signed-in session was refused (does the verify process have the "
                "service's POCO_SECRET_KEY?)"
                if listed.status in (401, 403)
                else ""
            ),
        )
        search = browser.call("GET", f"/search?q={quote(CONSOLE_B_QUERY)}")
        hits = [h.get("id") for h in search.get("items") or []]
        gate.check(
            "user_api.isolation.recall",
            search.status == 200 and theirs not in hits and theirs not in ids,
            f"search {search.status} {hits}; list {ids}",
        )
        read = browser.call("GET", f"/{theirs}")
        history = browser.call("GET", f"/{theirs}/history")
        gate.check(
            "user_api.isolation.read",
            read.status in (403, 404) and history.status in (403, 404),
            f"another user's memory: detail {read.status}, history {history.status}",
        )
        edit = browser.call("POST", f"/{theirs}/update", {"text": "changed by another user"})
        gate.check(
            "user_api.isolation.update",
            edit.status in (403, 404),
            f"update of another user's memory: {edit.status} {edit.body}",
        )
        drop = browser.call("POST", f"/{theirs}/delete")
        gate.check(
            "user_api.isolation.delete",
            drop.status in (403, 404),
            f"delete of another user's memory: {drop.status} {drop.body}",
        )
        kept = [(m["id"], m["content"]) for m in gate.listed(other)]
        gate.check(
            "user_api.isolation.owner_unchanged",
            kept == [(theirs, CONSOLE_B)],
            f"the other user's memory now: {kept}",
        )
    finally:
        release.drop_console_user(user)


# --- an outage --------------------------------------------------------------------------------
def outage(gate: Gate) -> None:
    scope = gate.scope("outage").as_memory_scope()
    ok, detail = release.search_while_unreachable(scope, OUTAGE_QUERY)
    gate.check("recall.outage_unavailable", ok, detail, where=RELEASE)


# --- the sample of real scopes ----------------------------------------------------------------
def recall_sample(gate: Gate, baseline: dict[str, Any]) -> None:
    """Each sampled scope asked the fixed questions again: the baseline's top hit, when it is
    still stored, must still be in the top k."""
    sample = baseline.get("recall_sample") or {}
    entries = sample.get("entries") or []
    if not entries:
        return
    top_k = int(sample.get("top_k", 10))
    lost, overlaps, unavailable = [], [], []
    for entry in entries:
        tenant, _, user = str(entry["scope"]).partition(":")
        scope = Scope(tenant, user)
        answer = gate.found(scope, str(entry["query"]), top_k)
        if answer.get("available") is not True:
            unavailable.append(f"{entry['scope']} {entry['query']!r}")
            continue
        now = [str(h["id"]) for h in answer.get("items") or []]
        before = [str(i) for i in entry["ids"]]
        kept = [i for i in before if not gate.local or release.stored_here(i)]
        if kept:
            overlaps.append(len(set(kept) & set(now)) / len(kept))
            if kept[0] not in now:
                lost.append(f"{entry['scope']} {entry['query']!r}: {kept[0]}")
    gate.check(
        "recall.available",
        not unavailable,
        f"sample searches available=false: {unavailable}"
        if unavailable
        else f"{len(entries)} sample searches available",
    )
    mean = sum(overlaps) / len(overlaps) if overlaps else None
    gate.result.recall_sample = {
        "scopes": len({e["scope"] for e in entries}),
        "searches": len(entries),
        "compared": len(overlaps),
        "mean_overlap": mean,
        "top_hit_lost": lost,
    }
    gate.check(
        "recall.sample_top_hit_lost",
        not lost,
        f"the baseline's top hit, still stored, is no longer in the top {top_k}: {lost}"
        if lost
        else f"{len(overlaps)} sampled searches keep their top hit; mean overlap of the top "
        f"{top_k} with the baseline " + ("n/a" if mean is None else f"{mean:.2f}"),
    )


# --- what deleted scopes leave ----------------------------------------------------------------
def leftovers(gate: Gate, scope: Scope) -> dict[str, int]:
    counts = release.scope_leftovers(scope.as_memory_scope())
    left = {
        name: counts[name]
        for name in (
            "memories_here",
            "entities_here",
            "history_with_text",
            "ingest_jobs_with_messages",
            "queue_jobs_pending",
        )
        if counts[name]
    }
    gate.check(
        "cleanup.history_and_jobs",
        not left,
        f"{scope.key}: left {left}"
        if left
        else f"{scope.key}: {counts['history']} history rows without text, "
        f"{counts['ingest_jobs']} ingest jobs without messages, no queue job pending",
        where=RELEASE,
    )
    return counts
