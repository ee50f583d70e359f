"""Our own value types: the scope, the typed outcomes, the domain exceptions.

Everything above the engine speaks these; nothing above the engine sees a Mem0 shape.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from datetime import datetime
from enum import StrEnum
from typing import Any

SCOPE_PART = re.compile(r"^[A-Za-z0-9_.@+\-]{1,64}\Z")


class ScopeError(ValueError):
    """A tenant or user id that cannot form a scope."""


@dataclass(frozen=True)
class MemoryScope:
    """One user's memory: ``tenant_id`` + ``user_id``, stored in Mem0 as ``tenant:user``."""

    tenant_id: str
    user_id: str

    def __post_init__(self) -> None:
        for name in ("tenant_id", "user_id"):
            if not SCOPE_PART.match(getattr(self, name)):
                raise ScopeError(f"{name} must be 1-64 characters of A-Z a-z 0-9 _ . @ + -")

    @property
    def key(self) -> str:
        return f"{self.tenant_id}:{self.user_id}"

    @classmethod
    def from_key(cls, key: str) -> MemoryScope:
        tenant_id, _, user_id = key.partition(":")
        return cls(tenant_id=tenant_id, user_id=user_id)


class Category(StrEnum):
    PREFERENCE = "preference"
    FACT = "fact"
    GOAL = "goal"
    PROJECT = "project"
    CONSTRAINT = "constraint"


class Source(StrEnum):
    MANAGE = "manage"
    INGEST = "ingest"
    CONSOLE = "console"
    IMPORT = "import"
    ADMIN = "admin"


class ActorKind(StrEnum):
    AGENT = "agent"
    USER = "user"
    STAFF = "staff"
    SYSTEM = "system"


@dataclass(frozen=True)
class Actor:
    kind: ActorKind
    id: str = ""


# 2: governance fields (memory_key, confidence, status, superseded_by, valid_until,
# source_ref) on every write. Rows of version 1 lack them and read as active, never expiring.
SCHEMA_VERSION = 2

# ``namespace.attribute`` (one current value per namespace and attribute key),
# e.g. ``preference.answer_language``. Lower-case ASCII so two spellings are never two keys.
MEMORY_KEY = re.compile(r"^[a-z][a-z0-9_]{0,31}\.[a-z][a-z0-9_]{0,63}\Z")


class MemoryStatus(StrEnum):
    """A memory's place in its life: only ``active`` memories are recalled or injected."""

    ACTIVE = "active"
    SUPERSEDED = "superseded"
    EXPIRED = "expired"


class StatusFilter(StrEnum):
    """What a list shows: ``active`` (the default), one other status, or ``all``."""

    ACTIVE = "active"
    SUPERSEDED = "superseded"
    EXPIRED = "expired"
    ALL = "all"


@dataclass(frozen=True)
class MemoryRecord:
    id: str
    content: str
    scope_key: str
    category: str
    source: str
    created_at: datetime | None
    updated_at: datetime | None
    metadata: dict[str, Any] = field(default_factory=dict)
    memory_key: str = ""
    status: str = MemoryStatus.ACTIVE
    valid_until: datetime | None = None
    superseded_by: str = ""


@dataclass(frozen=True)
class SearchHit:
    id: str
    content: str
    score: float
    category: str
    # Not evidence: one of the nearest memories by meaning, filling an answer that has evidence
    # (``memories.recall.fusion``); always after the evidence, and scored below it.
    related: bool = False
    # A search ``as_of`` an instant says when each fact held (``Validity``); None otherwise.
    validity: Validity | None = None


@dataclass(frozen=True)
class Validity:
    """When a recalled memory's fact holds: from ``valid_from`` (its ``created_at``) until
    ``valid_until`` (the earlier of its expiry and when it was superseded; None: open), and
    its ``status`` now (``active``, ``superseded`` or ``expired``)."""

    valid_from: datetime | None
    valid_until: datetime | None
    status: str


class Channel(StrEnum):
    """The ways recall finds a memory: the first embedder's vector, words, named things, and
    the second model's vector (``meaning``, when a second model is configured)."""

    VECTOR = "vector"
    KEYWORD = "keyword"
    ENTITY = "entity"
    MEANING = "meaning"


@dataclass(frozen=True)
class SearchFilters:
    """Restrictions every recall channel applies before its top-k cut. Empty means any."""

    category: str = ""
    source: str = ""
    created_after: datetime | None = None
    created_before: datetime | None = None
    updated_after: datetime | None = None
    updated_before: datetime | None = None
    memory_key: str = ""
    # What was true then (``memories.recall.live``: validity at an instant) in place of what is
    # live now; None: now.
    as_of: datetime | None = None


class ListOrder(StrEnum):
    """How a list is ordered: by creation or last change (newest first), by how often agents
    were given the memory (``used``) or how recently (``last_used``)."""

    CREATED = "created"
    UPDATED = "updated"
    USED = "used"
    LAST_USED = "last_used"


@dataclass(frozen=True)
class ListQuery:
    """One page of a scope's memories as any edge asks for it (``/v1``, the user API, the
    console, Mem0's ``get_all``): every edge parses its own parameters into this and hands it to
    ``selectors.memory_list``, so a filter means the same everywhere. Empty means any."""

    query: str = ""
    category: str = ""
    source: str = ""
    topic: str = ""
    status: str = StatusFilter.ACTIVE
    memory_key: str = ""
    run_id: str = ""
    import_id: str = ""  # what one import brought (``payload.import_id``)
    order: str = ListOrder.CREATED
    created_from: datetime | None = None
    created_before: datetime | None = None
    page: int = 1
    page_size: int = 20


@dataclass(frozen=True)
class ChannelHit:
    """One memory one channel found, best first within the channel.

    ``strength`` is on the channel's own scale (cosine, matched keyword share, entity weight):
    it orders and gates within a channel and is never added across channels. ``margin`` is how
    far the strength clears the channel's floor, as a share of the way from the floor to the
    channel's best (1.0), so 0 is "only just evidence" on every channel; ``similarity`` is the
    memory's cosine to the query under the first model whatever the channel: fusion breaks
    ties with it.
    ``names_only`` marks a keyword hit whose matched words are all names the query names: when
    the entity channel found the same memory, that is one piece of evidence, counted there.
    ``under_floor`` marks a meaning hit under its channel's floor: not evidence, but the
    nearest memories by meaning, which fill an answer that has evidence up to ``top_k``
    (``memories.recall.fusion``).
    """

    channel: Channel
    id: str
    content: str
    category: str
    strength: float
    similarity: float
    margin: float
    names_only: bool
    under_floor: bool = False
    # When the memory was stored (``payload.created_at``): a question about now ranks the newer
    # of the candidates first (``memories.recall.fusion``).
    created_at: datetime | None = None


@dataclass(frozen=True)
class SearchResult:
    items: tuple[SearchHit, ...]
    available: bool
    error_reason: str | None = None

    @property
    def total(self) -> int:
        return len(self.items)


class WriteStatus(StrEnum):
    """What became of one write (add, update, delete, a decision to change nothing). Every edge
    answers these values as they are; ``DeleteStatus`` is the subset a delete service returns."""

    ADDED = "added"
    UPDATED = "updated"
    DELETED = "deleted"
    NO_EFFECT = "no_effect"
    NOT_FOUND = "not_found"
    FORBIDDEN = "forbidden"
    REJECTED = "rejected"
    # The lifecycle policy withheld the write (the save switch is off, a scheduled run).
    REFUSED = "refused"
    BACKEND_ERROR = "backend_error"
    # The memory is gone but derived data is not: a failure, never a success.
    PARTIAL_CLEANUP = "partial_cleanup"


WRITE_SUCCESSES = frozenset(
    {WriteStatus.ADDED, WriteStatus.UPDATED, WriteStatus.DELETED, WriteStatus.NO_EFFECT}
)


@dataclass(frozen=True)
class WriteOutcome:
    """The one result of a write, from the services up to every edge: ``/v1``, MCP and the
    user API serialize it with ``edges.contract.shapes`` and add nothing of their own."""

    status: WriteStatus
    memory_id: str | None = None
    inserted_count: int = 0
    reason: str | None = None
    # The active memory of the same key this write replaced (status=superseded now).
    superseded_id: str | None = None
    # The agent's action this answers (add, update, delete, none); "" for a service's own.
    action: str = ""

    @property
    def success(self) -> bool:
        return self.status in WRITE_SUCCESSES

    @classmethod
    def of_delete(cls, memory_id: str, outcome: DeleteOutcome) -> WriteOutcome:
        """A delete by id as a write: the reason is the status when the delete gave none."""
        reason = outcome.reason or (None if outcome.success else outcome.status.value)
        return cls(
            status=WriteStatus(outcome.status.value),
            memory_id=memory_id,
            reason=reason,
            action="delete",
        )


class DeleteStatus(StrEnum):
    DELETED = "deleted"
    NOT_FOUND = "not_found"
    FORBIDDEN = "forbidden"
    BACKEND_ERROR = "backend_error"
    PARTIAL_CLEANUP = "partial_cleanup"


@dataclass(frozen=True)
class DeleteOutcome:
    status: DeleteStatus
    deleted_count: int = 0
    # With partial_cleanup: how many memories (or message rows) really are left.
    remaining_count: int = 0
    reason: str | None = None

    @property
    def success(self) -> bool:
        return self.status == DeleteStatus.DELETED


class MemoryNotFound(LookupError):
    """No memory (or ingest job) with this id for the caller. For a memory that is also one of
    another tenant, which is never confirmed (``selectors.memory_owned_row``)."""


class MemoryForbidden(PermissionError):
    """The id exists but belongs to another user of the caller's tenant. Carries nothing about
    it."""


class BackendError(Exception):
    """The database, embedder or LLM failed: nothing may be reported as success."""


class ScopeBusy(BackendError):
    """The scope's other writers held its lock longer than a writer may wait: retry later
    (an answer of 503 with Retry-After, like any outage)."""


class CleanupError(BackendError):
    """The main row is gone but derived data (entities, history) could not be purged."""
