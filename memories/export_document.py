"""The export document's identity and bounds, shared by the edges that accept an import and by
``memories.ops.portability`` that writes and reads it."""

from __future__ import annotations

from memories.types import MemoryStatus

EXPORT_FORMAT = "poco-memory-export"
# Version 2 adds what the detail page shows beside the text: the pin, the change trail, the
# usage counts and the marks of an earlier import. Version 1 documents are still read.
EXPORT_VERSION = 2
OLDEST_READ_VERSION = 1
# One import request at most: the whole document is parsed and checked before anything is written.
MAX_IMPORT_ITEMS = 5000
# The statuses an exported memory may carry.
STATUSES = tuple(status.value for status in MemoryStatus)
# The trail rows of one exported memory, at most (a correction a day for years is far less).
MAX_HISTORY = 500
# The audit events a trail holds, and the fields whose change an UPDATE row names.
HISTORY_EVENTS = ("ADD", "UPDATE", "NOOP")
CHANGED_FIELDS = ("category", "memory_key", "valid_until")
