"""``as_of`` on the agent's search tool: what was true then, by /v1's rule, over a live
server."""

from __future__ import annotations

import pytest

from tests.memories.recall.test_as_of import NEW, OLD, QUERY, store_editors

SEARCH = "search_user_memory"


def test_search_as_of_answers_what_held_then_with_its_validity(mcp_agent, scope, agent):
    ids = store_editors(scope, agent)
    now = mcp_agent.call(SEARCH, query=QUERY, top_k=10).structured_content
    assert NEW in {i["content"] for i in now["items"]}
    assert OLD not in {i["content"] for i in now["items"]}

    result = mcp_agent.call(SEARCH, query=QUERY, top_k=10, as_of="2026-02-15")
    assert result.is_error is False
    items = {i["content"]: i for i in result.structured_content["items"]}
    assert OLD in items and NEW not in items
    assert items[OLD]["id"] == ids["old"]
    assert items[OLD]["metadata"]["status"] == "superseded"
    assert items[OLD]["metadata"]["valid_until"] == "2026-03-01T09:00:00+08:00"
    text = result.content[0].text
    assert "until 2026-03-01T09:00:00+08:00, superseded now" in text


@pytest.mark.parametrize("as_of", ["2026-02-15T10:00:00", "2026-02-30", "soon", "2" * 41])
def test_a_bad_as_of_fails_the_call_naming_it(mcp_agent, scope, agent, as_of):
    result = mcp_agent.call(SEARCH, query=QUERY, as_of=as_of)
    assert result.is_error is True
    assert result.structured_content is None
    assert "as_of" in result.content[0].text
