"""A tenant the token cannot serve is refused before anything is looked up: another tenant's
memory id and a random one get the same 403, every refusal is recorded and counted, nothing
changes, and ``ping`` names no project for such a tenant."""

from __future__ import annotations

import uuid

import httpx
import pytest

from accounts.models import TokenRefusal
from memories import metrics
from memories.models import MemoryRow
from tests.edges.mem0_api.conftest import OTHER_TOKEN, TOKEN, TOKENS

NONE_TOKEN = "tok-none-0123456789"  # bound to no tenant: /metrics and /ready only


@pytest.fixture
def mem0_host(live_server, settings) -> str:
    settings.SERVICE_TOKENS = [*TOKENS, f"scraper:{NONE_TOKEN}:"]
    return f"{live_server.url}/mem0"


def beta_ids(mem0_host: str) -> tuple[str, str]:
    """A memory and an ingest job of tenant beta, made by beta's own token."""
    with httpx.Client(
        base_url=mem0_host, headers={"Authorization": f"Token {OTHER_TOKEN}"}, timeout=120
    ) as c:
        added = c.post(
            "/v3/memories/add/",
            json={"messages": "I drink green tea.", "user_id": "bob", "infer": False},
        )
        assert added.status_code == 200, added.text
        memory = added.json()["results"][0]["id"]
        queued = c.post(
            "/v3/memories/add/",
            json={"messages": [{"role": "user", "content": "我每天早上跑步。"}], "user_id": "bob"},
        )
        assert queued.status_code == 200, queued.text
        return memory, queued.json()["results"][0]["event_id"]


def refused_count(token: str) -> float:
    return metrics.service_refused.labels(token, "mem0")._value.get()


@pytest.mark.parametrize(("token", "name"), [(TOKEN, "agents"), (NONE_TOKEN, "scraper")])
def test_another_tenants_ids_and_random_ones_are_refused_alike(mem0_host, token, name):
    memory, job = beta_ids(mem0_host)
    random_memory, random_job = str(uuid.uuid4()), str(uuid.uuid4())
    stored = MemoryRow.objects.count()
    counted, recorded = refused_count(name), TokenRefusal.objects.count()
    headers = {"Authorization": f"Token {token}", "X-Poco-Tenant-Id": "beta"}
    with httpx.Client(base_url=mem0_host, headers=headers, timeout=60) as c:
        calls = 0
        for real, random in ((memory, random_memory), (job, random_job)):
            paths = (
                ["/v1/memories/{}/", "/v1/memories/{}/history/"]
                if real == memory
                else ["/v1/event/{}/"]
            )
            for path in paths:
                answers = [c.get(path.format(real)), c.get(path.format(random))]
                assert [a.status_code for a in answers] == [403, 403], [a.text for a in answers]
                assert answers[0].json() == answers[1].json()
                calls += 2
        deletes = [
            c.request("DELETE", "/v1/batch/", json={"memories": [{"memory_id": m}]})
            for m in (memory, random_memory)
        ]
        assert [d.status_code for d in deletes] == [403, 403], [d.text for d in deletes]
        assert deletes[0].json() == deletes[1].json()
        ping = c.get("/v1/ping/")
        assert ping.status_code == 403, ping.text
        assert "beta" not in ping.json().get("project_id", "")
        calls += 3
    assert MemoryRow.objects.count() == stored
    assert refused_count(name) - counted == calls
    assert TokenRefusal.objects.count() - recorded == calls
    assert set(TokenRefusal.objects.values_list("token_name", "tenant_id", "edge")[recorded:]) == {
        (name, "beta", "mem0")
    }


def test_a_token_bound_to_no_tenant_is_refused_without_a_header_too(mem0_host):
    headers = {"Authorization": f"Token {NONE_TOKEN}"}
    with httpx.Client(base_url=mem0_host, headers=headers, timeout=60) as c:
        answers = [c.get("/v1/ping/"), c.get(f"/v1/memories/{uuid.uuid4()}/")]
    assert [a.status_code for a in answers] == [403, 403], [a.text for a in answers]
