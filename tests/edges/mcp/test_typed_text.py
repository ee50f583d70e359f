"""MCP's tools store and answer a memory as typed: “”「」《》 come back byte for byte."""

from __future__ import annotations

SEARCH, MANAGE = "search_user_memory", "manage_user_memory"
TYPED = "团队的北极星指标叫“周活跃创作者”，用「」标注术语，周报模板见《写作规范》。"


def test_add_tool_and_search_keep_the_typed_quotes(mcp_agent):
    added = mcp_agent.call(MANAGE, action="add", text=TYPED).structured_content
    assert added["status"] == "added", added
    hits = mcp_agent.call(SEARCH, query="北极星指标").structured_content["items"]
    assert [hit["content"] for hit in hits if hit["id"] == added["memory_id"]] == [TYPED]
