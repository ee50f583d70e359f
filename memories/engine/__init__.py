"""The one door to Mem0: nothing outside this package imports ``mem0``."""

from memories.engine.adapter import (
    ExtractedFact,
    Mem0Adapter,
    build_engine,
    get_engine,
    reset_engine,
)

__all__ = ["ExtractedFact", "Mem0Adapter", "build_engine", "get_engine", "reset_engine"]
