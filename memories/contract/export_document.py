"""The export document's identity and bounds, shared by the edges that accept an import and by
``memories.ops.portability`` that writes and reads it."""

from __future__ import annotations

from memories.types import MemoryStatus

EXPORT_FORMAT = "poco-memory-export"
EXPORT_VERSION = 1
# One import request at most: the whole document is parsed and checked before anything is written.
MAX_IMPORT_ITEMS = 5000
# The statuses an exported memory may carry.
STATUSES = tuple(status.value for status in MemoryStatus)
