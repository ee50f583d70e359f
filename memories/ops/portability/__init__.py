"""Export and import of one scope's memories: the document (``document``), files for
people (``files``), what an item asks (``items``), the import (``importing``) and its preview
(``preview``).

The export is a versioned JSON document (``EXPORT_FORMAT`` / ``EXPORT_VERSION``): the text and
what a memory knows about itself (category, key, status, source, timestamps, validity), never
vectors, and no id of another scope. The same document, for any scope, is what import takes.

Import writes every item through ``memories.services.memory_add_many`` (admission, the
duplicate NOOP, supersede-by-key, exactly as ``memory_add`` for each item) in chunks, each under
one hold of the scope's write lock, so an import is one request, not one round trip per memory.
Between chunks the lock is let go: a writer waiting for it (a delete-user above all) goes
first, and an import whose scope was deleted meanwhile stops there. Importing the same document
twice changes nothing: the second time every item is the identical text already stored
(``no_effect``, reason ``duplicate``).
"""

from memories.ops.portability.document import export_item, history_item, memory_export
from memories.ops.portability.files import ExportFile, export_csv, export_download, export_file
from memories.ops.portability.importing import memory_import
from memories.ops.portability.items import SCOPE_DELETED, ImportItemResult, ImportReport
from memories.ops.portability.preview import (
    ImportPreview,
    PreviewDecision,
    PreviewItem,
    import_preview,
)

__all__ = [
    "SCOPE_DELETED",
    "ExportFile",
    "ImportItemResult",
    "ImportPreview",
    "ImportReport",
    "PreviewDecision",
    "PreviewItem",
    "export_csv",
    "export_download",
    "export_file",
    "export_item",
    "history_item",
    "import_preview",
    "memory_export",
    "memory_import",
]
