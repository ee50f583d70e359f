"""What every run of ``verify`` does around its steps: the service initialised (``/health``,
``/ready``, the configuration against the baseline's), the release beside the service, and the
clean-up of the throwaway scopes with what they left."""

from __future__ import annotations

from typing import Any

from edges.gate import release
from edges.gate.fixtures import PROBE_TEXT
from edges.gate.harness import Gate
from edges.gate.service import RELEASE, Scope


def initialisation(gate: Gate) -> bool:
    health = gate.service.call("GET", "/health")
    gate.check("initialisation.health", health.status == 200, f"/health {health.status}")
    ready = gate.service.call("GET", "/ready")
    checks = ready.get("checks") or {}
    failed = {name: c.get("detail") for name, c in checks.items() if not c.get("ok")}
    gate.result.target = {"checks": checks, **(ready.get("service") or {})}
    if not checks:
        return gate.check(
            "initialisation.ready",
            False,
            f"/ready {ready.status} {ready.body!r}: no checks shown — the token must be a "
            "service token not bound to tenants",
        )
    configuration = (ready.get("service") or {}).get("configuration", {})
    same_as_baseline(
        gate,
        "embedding_model",
        configuration,
        "the embedder changed from {before} to {now}: the stored vectors must have been "
        "re-embedded (memory_reembed --swap), and the floors recalibrated",
    )
    same_as_baseline(
        gate,
        "second_model",
        configuration,
        "recall's second model changed from {before} to {now}: its column must have been "
        "rebuilt and refilled (memory_second_vectors)",
    )
    dimension = checks.get("vector dimension", {})
    gate.check(
        "compatibility.dimension",
        bool(dimension.get("ok")),
        str(dimension.get("detail", "no vector dimension check")),
    )
    return gate.check(
        "initialisation.ready",
        ready.status == 200 and ready.get("status") == "ready" and not failed,
        f"/ready {ready.status} {ready.get('status')}; failed: {failed or 'none'}",
    )


def same_as_baseline(gate: Gate, setting: str, configuration: dict[str, Any], changed: str) -> None:
    """Warn (``compatibility.<setting>``) when the target's ``setting`` is not the
    baseline's; ``changed`` says what the change asks of the operator. Either side unknown
    is no warning."""
    before = gate.result.baseline_versions.get("configuration", {}).get(setting)
    now = configuration.get(setting)
    gate.check(
        f"compatibility.{setting}",
        not before or not now or before == now,
        changed.format(before=before, now=now) if before != now else f"{now}, as at the baseline",
        blocking=False,
    )


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


def cleanup(gate: Gate) -> None:
    for scope in gate.scopes:
        gone = gate.service.v1("delete-user", scope.body())
        memories = len(gate.listed(scope))
        entities = gate.entities(scope)
        gate.result.cleanup[scope.key] = {
            "delete_user": str(gone.get("status") or gone.status),
            "memories": memories,
            "entities": entities,
        }
        if gate.local:
            gate.result.cleanup[scope.key].update(leftovers(gate, scope))
        gate.check(
            "cleanup",
            gone.get("status") == "deleted" and memories == 0 and entities == 0,
            f"{scope.key}: delete-user {gone.status} {gone.get('status')} "
            f"({gone.get('reason')}), {memories} memories and {entities} entities left",
        )


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
