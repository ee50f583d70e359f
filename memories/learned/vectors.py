"""e5-small passage vectors of short texts, with a small per-process cache.

A text a head judges at admission is very often embedded again moments later as the stored
memory's second vector (also a passage vector of the same model): the cache makes the second
call free.  Keys are the exact text; the cache holds the last ``CACHE_SIZE`` texts.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence

import numpy as np

from memories.learned.e5 import bundled_e5

CACHE_SIZE = 512
_cache: OrderedDict[str, np.ndarray] = OrderedDict()
_cache_lock = threading.Lock()


def passage_vectors(texts: Sequence[str]) -> np.ndarray:
    """An (n, 384) float32 matrix of L2-normalised passage vectors, one row per text."""
    rows: list[np.ndarray | None] = []
    missing: list[str] = []
    with _cache_lock:
        for text in texts:
            row = _cache.get(text)
            if row is not None:
                _cache.move_to_end(text)
            else:
                missing.append(text)
            rows.append(row)
    if missing:
        unique = list(dict.fromkeys(missing))
        computed = np.asarray(bundled_e5().passage(unique), dtype=np.float32)
        fresh = dict(zip(unique, computed, strict=True))
        with _cache_lock:
            for text, row in fresh.items():
                _cache[text] = row
                _cache.move_to_end(text)
            while len(_cache) > CACHE_SIZE:
                _cache.popitem(last=False)
        rows = [fresh[text] if row is None else row for text, row in zip(texts, rows, strict=True)]
    if not rows:
        return np.zeros((0, 384), dtype=np.float32)
    return np.vstack([np.asarray(row, dtype=np.float32) for row in rows])
