"""The one door to Mem0: nothing outside this package imports ``mem0``.

Mem0 reads its environment when it is first imported; ``memories.apps`` sets it when Django
starts, before any module of this package can be imported.
"""

from memories.engine.adapter import Mem0Adapter, build_engine, get_engine, reset_engine
from memories.engine.writes import ExtractedFact, NewFact, PreparedText

__all__ = [
    "ExtractedFact",
    "Mem0Adapter",
    "NewFact",
    "PreparedText",
    "build_engine",
    "get_engine",
    "reset_engine",
]
