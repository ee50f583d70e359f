"""MCP tool calls count against the same rate limits as /v1: past one the call is an error
that names the wait, and nothing runs."""

from __future__ import annotations


def test_mcp_tool_calls_have_the_limits(agent_for, scope, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, ("scope", "write"): 1}
    settings.RATE_WINDOW_SECONDS = 3600  # no window ends between its requests
    agent = agent_for(scope)
    assert agent.call("manage_user_memory", action="none").is_error is False
    refused = agent.call("manage_user_memory", action="none")
    assert refused.is_error is True
    assert "rate_limited" in refused.content[0].text
    assert agent.call("search_user_memory", query="回答风格").is_error is False
