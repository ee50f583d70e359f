"""The scope's write lock is taken only inside the services (``memories.services.locking``)."""

from __future__ import annotations

import grimp


def test_only_the_services_import_the_locks():
    graph = grimp.build_graph("memories", "lifecycle", "poco_memory", "accounts")
    importers = graph.find_modules_that_directly_import("memories.locks")
    assert importers, "memories.locks is imported by nobody: is the test still looking?"
    assert {m for m in importers if not m.startswith("memories.services.")} == set()
