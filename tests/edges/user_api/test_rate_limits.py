"""The user API's searches and writes count against the user's scope limits (429 past them)."""

from __future__ import annotations

from tests.memories.conftest import assert_error


def test_user_api_searches_have_the_scope_limit(alice_client, settings):
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, ("scope", "search"): 1}
    settings.RATE_WINDOW_SECONDS = 3600  # no window ends between its requests
    url = "/api/v1/user-customer-settings/memories/search"
    assert alice_client.get(url, {"q": "回答风格"}).status_code == 200
    refused = alice_client.get(url, {"q": "回答风格"})
    assert_error(refused, 429, "rate_limited")
    assert int(refused["Retry-After"]) >= 1
