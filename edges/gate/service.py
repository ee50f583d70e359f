"""What the gate talks to and records: the live service over HTTP, its answers, a gate scope,
a finding, and the stop that ends a run early.  Shared by ``verify`` and ``steps``."""

from __future__ import annotations

import json
import urllib.error
import urllib.request
from dataclasses import dataclass
from typing import Any

from memories.scope import scope_of
from memories.types import MemoryScope

# Where a finding was exercised: through the live service's doors, or in the verify process
# with the release's code against the service's database (``edges.gate.release``).
SERVICE, RELEASE = "service", "verify process"


@dataclass
class Finding:
    condition: str
    ok: bool
    detail: str
    blocking: bool = True
    where: str = SERVICE


@dataclass
class Answer:
    status: int
    body: Any

    def get(self, key: str, default: Any = None) -> Any:
        return self.body.get(key, default) if isinstance(self.body, dict) else default


class Service:
    """The live service over HTTP; every 5xx it answers is kept for the report."""

    def __init__(self, url: str, token: str, *, timeout: float = 60) -> None:
        self.url = url.rstrip("/")
        self.token = token
        self.timeout = timeout
        self.server_errors: list[str] = []
        self.requests = 0

    def call(self, method: str, path: str, payload: dict[str, Any] | None = None) -> Answer:
        data = json.dumps(payload).encode() if payload is not None else None
        request = urllib.request.Request(
            self.url + path,
            data=data,
            method=method,
            headers={"Authorization": f"Bearer {self.token}", "Content-Type": "application/json"},
        )
        answer = self.send(request)
        if isinstance(answer, OSError):
            self.server_errors.append(f"{method} {path}: no answer ({type(answer).__name__})")
            return Answer(0, None)
        if answer.status >= 500:
            excerpt = json.dumps(answer.body, ensure_ascii=False)[:300]
            self.server_errors.append(f"{method} {path}: {answer.status} {excerpt}")
        return answer

    def send(self, request: urllib.request.Request) -> Answer | OSError:
        """Send ``request`` (it counts as one of the run's requests): the answer, its body JSON
        or else its first 200 bytes as text; the error when nothing answered."""
        self.requests += 1
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as response:
                status, raw = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, raw = error.code, error.read()
        except OSError as error:
            return error
        try:
            body = json.loads(raw) if raw else None
        except ValueError:
            body = raw[:200].decode(errors="replace")
        return Answer(status, body)

    def v1(self, operation: str, payload: dict[str, Any]) -> Answer:
        return self.call("POST", f"/v1/memories/{operation}", payload)


@dataclass(frozen=True)
class Scope:
    tenant_id: str
    user_id: str

    def body(self, **fields: Any) -> dict[str, Any]:
        return {"tenant_id": self.tenant_id, "user_id": self.user_id, **fields}

    @property
    def key(self) -> str:
        return f"{self.tenant_id}:{self.user_id}"

    def as_memory_scope(self) -> MemoryScope:
        return scope_of(tenant_id=self.tenant_id, user_id=self.user_id)


class GateStop(RuntimeError):
    """The service answered so wrongly that the remaining steps cannot run."""
