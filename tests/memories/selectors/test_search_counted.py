"""``memory_search(counted=True)`` counts each hit it returns as recalled, once per search, and
``memory_context(counted=True)`` each memory it injects: the one place the doors (/v1, the user
API, MCP, /mem0) have their use counted. Without ``counted`` (the console, the gate) nothing is
counted."""

from __future__ import annotations

import pytest

from memories import selectors, services
from memories.context import memory_context

pytestmark = pytest.mark.django_db


def test_a_counted_search_counts_each_hit_once_and_an_uncounted_one_nothing(scope, agent):
    added = services.memory_add(scope=scope, text='"Atlas"项目的发布窗口定在三月底。', actor=agent)
    assert added.memory_id is not None
    query = "Atlas 项目什么时候发布"

    seen = selectors.memory_search(scope=scope, query=query)
    assert added.memory_id in [hit.id for hit in seen.items]
    assert selectors.memory_use(scope=scope, memory_id=added.memory_id).recalled_count == 0

    counted = selectors.memory_search(scope=scope, query=query, counted=True)
    hits = [hit.id for hit in counted.items]
    uses = selectors.memory_uses(scope=scope, memory_ids=hits)
    assert all(uses[hit].recalled_count == 1 for hit in hits), uses
    assert selectors.memory_use(scope=scope, memory_id=added.memory_id).injected_count == 0


def test_a_counted_context_counts_each_injected_memory_and_an_uncounted_one_nothing(scope, agent):
    """``memory_context(counted=True)`` (what /v1's context endpoint asks) counts what it
    injects, once; its own search counts no recall."""
    added = services.memory_add(scope=scope, text='"Atlas"项目的发布窗口定在三月底。', actor=agent)
    assert added.memory_id is not None
    question = "“Atlas”项目接下来要注意什么？"

    quiet = memory_context(scope=scope, user_input=question, interactive=True)
    assert quiet.memory_ids == (added.memory_id,)
    assert selectors.memory_use(scope=scope, memory_id=added.memory_id).injected_count == 0

    counted = memory_context(scope=scope, user_input=question, interactive=True, counted=True)
    assert counted.memory_ids == (added.memory_id,)
    use = selectors.memory_use(scope=scope, memory_id=added.memory_id)
    assert (use.injected_count, use.recalled_count) == (1, 0)
