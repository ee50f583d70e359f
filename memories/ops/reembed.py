"""Switch to another embedder or vector width without a gap in recall.

The new vectors are built beside the old ones, in a shadow column of both Mem0 tables, in
batches by id; a row whose live vector changes meanwhile (its text was corrected) loses its
shadow vector and is embedded again. Until the swap every node keeps serving the old vectors.
The swap is one transaction: it embeds what is still missing, then makes the shadow column the
live one (its HNSW index is built beforehand, so the swap only renames) and records the new
``embedding_model`` in every payload.

After the swap, set ``POCO_EMBEDDING_*`` to the new embedder and restart: ``/ready`` answers
503 on any node whose configured width differs from the table's, so a load balancer stops
sending it requests until it runs the new configuration.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from memories.engine import get_engine
from memories.engine import internals as ops
from memories.ops.progress import Progress

BATCH = 100
# pgvector's HNSW index, which the new vectors get before the swap, takes vector(1) to
# vector(2000) (the column type itself would take up to 16,000).
MAX_DIMS = 2000


@dataclass(frozen=True)
class EmbedderTarget:
    model: str
    dims: int
    base_url: str = ""  # empty: the bundled embedder
    api_key: str = ""


@dataclass(frozen=True)
class ReembedReport:
    embedded: int
    total: int
    swapped: bool
    caught_up: int = 0


def reembed_build(
    *, target: EmbedderTarget, write: Callable[[str], None], batch: int = BATCH
) -> ReembedReport:
    """Fill the shadow vectors (resumable: rows already done are skipped) and index them."""
    engine = get_engine()
    embedder = ops.build_embedder(
        model=target.model, dims=target.dims, base_url=target.base_url, api_key=target.api_key
    )
    ops.shadow_prepare(engine, dims=target.dims)
    todo, total = ops.shadow_counts(engine)
    progress = Progress(total=total, label="re-embedding", write=write)
    progress.resume(total - todo)  # done by an earlier, interrupted run
    embedded = 0
    while done := ops.shadow_fill_batch(engine, embedder=embedder, batch=batch):
        embedded += done
        progress.advance(done)
    ops.shadow_index(engine)
    return ReembedReport(embedded=embedded, total=total, swapped=False)


def reembed_swap(*, target: EmbedderTarget, write: Callable[[str], None]) -> ReembedReport:
    """Finish the build, then swap the shadow vectors in atomically."""
    built = reembed_build(target=target, write=write)
    engine = get_engine()
    embedder = ops.build_embedder(
        model=target.model, dims=target.dims, base_url=target.base_url, api_key=target.api_key
    )
    caught_up = ops.shadow_swap(engine, embedder=embedder, model=target.model)
    return ReembedReport(
        embedded=built.embedded, total=built.total, swapped=True, caught_up=caught_up
    )


def reembed_abort() -> None:
    ops.shadow_abort(get_engine())
