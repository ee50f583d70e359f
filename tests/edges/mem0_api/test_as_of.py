"""``as_of`` on /mem0's search, through mem0ai's own client: what was true then, read by /v1's
rule; a bad one is a 400 naming it."""

from __future__ import annotations

import pytest

from tests.edges.mem0_api.test_edge_input import refused, state
from tests.memories.recall.test_as_of import NEW, OLD, QUERY, store_editors

ALICE = {"user_id": "alice"}


def test_search_as_of_returns_what_held_then(client, scope, agent):
    assert (scope.tenant_id, scope.user_id) == ("acme", "alice")  # the token's tenant
    store_editors(scope, agent)
    now = client.search(QUERY, filters=ALICE, top_k=10)["results"]
    assert NEW in {r["memory"] for r in now} and OLD not in {r["memory"] for r in now}
    assert all(set(r["metadata"]) == {"match"} for r in now)  # without as_of: how it matched

    then = client.search(QUERY, filters=ALICE, top_k=10, as_of="2026-02-15")["results"]
    found = {r["memory"]: r for r in then}
    assert OLD in found and NEW not in found
    assert {k: v for k, v in found[OLD]["metadata"].items() if k != "match"} == {
        "valid_from": "2026-01-11T00:00:00+00:00",
        "valid_until": "2026-03-01T09:00:00+08:00",
        "status": "superseded",
    }


@pytest.mark.parametrize("as_of", ["2026-02-15T10:00:00", "2026-02-30", "soon", 20260215])
def test_a_bad_as_of_is_refused_naming_it(client, scope, agent, as_of):
    from mem0.exceptions import ValidationError

    store_editors(scope, agent)
    before = state()
    with pytest.raises(ValidationError, match="as_of"):
        client.search(QUERY, filters=ALICE, as_of=as_of)
    answer = client.client.post(
        "/v3/memories/search/", json={"query": QUERY, "filters": ALICE, "as_of": as_of}
    )
    refused(answer, "as_of")
    assert state() == before
