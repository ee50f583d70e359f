"""Writes: every change to a memory goes through one of these services (selectors read).

Each service checks ownership, calls the engine once, and records the audit trail. Outcomes are
facts (``memories.types``): a failure is never reported as success, and a write that fails
leaves nothing half-written.

One module per write subject: ``add`` (new memories, one or a batch, decided by
``add_decisions`` and stored by ``batch``; ``new_memory`` is what one is made of),
``update`` (corrections), ``delete`` (forgetting, with ``vacuum``), ``validity`` (expiry, pins,
category, switches), ``adoption`` (what auto-ingest extracts), ``staff`` (admin page views).
``write`` (``WriteContext`` and the audit rows) and ``supersede`` (key holders) are shared;
``locking`` holds a scope for work made of several writes (ingest, import, operator tools).
"""

from memories.services.add import (
    ImportChunkReady,
    add_refusal,
    memory_add,
    memory_add_many,
    prepare_import,
)
from memories.services.add_decisions import QUOTA_EXCEEDED, quota_room
from memories.services.adoption import (
    ExtractedFact,
    extraction_instructions,
    memory_discard,
    memory_extract,
    memory_record_extracted,
    propose_key,
)
from memories.services.delete import deletion_marks_prune, memory_delete, memory_delete_user
from memories.services.locking import run_writer_exclusive, scope_write_exclusive
from memories.services.new_memory import NewMemory, our_metadata
from memories.services.restore import memory_restore_version
from memories.services.staff import staff_view_record
from memories.services.update import memory_update
from memories.services.validity import (
    MAX_PINS,
    PIN_LIMIT,
    memories_expire,
    memories_set_category,
    memory_mark_reviewed,
    memory_pin,
    memory_set_validity,
    memory_switches_update,
)
from memories.services.write import MAX_FACT_LENGTH

__all__ = [
    "MAX_FACT_LENGTH",
    "MAX_PINS",
    "PIN_LIMIT",
    "QUOTA_EXCEEDED",
    "ExtractedFact",
    "ImportChunkReady",
    "NewMemory",
    "add_refusal",
    "deletion_marks_prune",
    "extraction_instructions",
    "memories_expire",
    "memories_set_category",
    "memory_add",
    "memory_add_many",
    "prepare_import",
    "memory_delete",
    "memory_delete_user",
    "memory_discard",
    "memory_extract",
    "memory_pin",
    "memory_record_extracted",
    "memory_set_validity",
    "memory_switches_update",
    "memory_update",
    "our_metadata",
    "propose_key",
    "quota_room",
    "run_writer_exclusive",
    "scope_write_exclusive",
    "staff_view_record",
    "memory_mark_reviewed",
    "memory_restore_version",
]
