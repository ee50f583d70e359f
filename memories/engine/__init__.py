"""The one door to Mem0: nothing outside this package imports ``mem0``.

Mem0 reads its environment at import time, so it is set here, before any module of this
package can import it: telemetry off (else a PostHog thread calls out), and Mem0's own folder
inside our data dir (else ``~/.mem0``).
"""

import os

from django.conf import settings

os.environ["MEM0_TELEMETRY"] = "False"
os.environ["MEM0_DIR"] = str(settings.MEM0_DIR)
settings.MEM0_DIR.mkdir(parents=True, exist_ok=True)

from memories.engine.adapter import (  # noqa: E402 - the environment must be set first
    ExtractedFact,
    Mem0Adapter,
    NewFact,
    PreparedText,
    build_engine,
    get_engine,
    reset_engine,
)

__all__ = [
    "ExtractedFact",
    "Mem0Adapter",
    "NewFact",
    "PreparedText",
    "build_engine",
    "get_engine",
    "reset_engine",
]
