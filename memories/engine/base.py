"""What every part of the adapter shares: Mem0's ``Memory``, the entity table's name, and how a
failure of the SDK or the driver is reported (``backend``)."""

from __future__ import annotations

import contextlib
import logging
from collections.abc import Iterator
from typing import Any

from memories.types import BackendError

logger = logging.getLogger(__name__)


@contextlib.contextmanager
def backend(operation: str) -> Iterator[None]:
    try:
        yield
    except (BackendError, LookupError):
        raise
    except Exception as exc:  # noqa: BLE001 - every SDK/driver failure is a backend failure
        logger.warning("memory backend failed during %s: %s", operation, type(exc).__name__)
        raise BackendError(f"{operation} failed: {type(exc).__name__}") from exc


class AdapterBase:
    """The state the adapter's parts share, set by ``Mem0Adapter.__init__``."""

    _memory: Any
    entity_collection: str
