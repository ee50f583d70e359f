"""The harness every step of ``verify`` runs in: the ``Gate`` (the service, the findings, the
throwaway scopes, the reads several steps share) and the shape of a step."""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from edges.gate.recall_set import TOP_K
from edges.gate.report import Result
from edges.gate.service import SERVICE, Answer, Finding, GateStop, Scope, Service

Write = Callable[[str], None]


class Gate:
    def __init__(
        self, service: Service, result: Result, write: Write, baseline: dict[str, Any]
    ) -> None:
        self.service = service
        self.result = result
        self.write = write
        # What ``memory_gate baseline`` recorded before the upgrade.
        self.baseline = baseline
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


@dataclass(frozen=True)
class Step:
    """One step of ``verify``: its name (``--only``), what it checks, and whether it needs the
    verify process to reach the service's database (``release.same_database``)."""

    name: str
    run: Callable[[Gate], None]
    local: bool = False
