"""Fill in the memories' second vectors (recall's meaning channel, ``memories.engine.second``).

Every add, correction and ingest writes its memory's second vector at once; an import leaves
them to the queue (so it keeps its rate), and so does a write while the second model was
failing. This fills whatever is missing or was written by another second model, oldest ids
first, in batches: interrupt it any time and it resumes where it stopped. ``manage.py
memory_second_vectors`` runs it with progress; the queue worker runs it every minute
(``lifecycle.tasks.fill_second_vectors``) and right after an import.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from memories.engine import get_engine
from memories.engine import internals as ops
from memories.ops.preflight import second_coverage, second_vector_width
from memories.ops.progress import Progress

BATCH = 64


@dataclass(frozen=True)
class BackfillReport:
    embedded: int
    total: int
    model: str
    rebuilt: bool = False


def second_backfill(
    *,
    write: Callable[[str], None] | None = None,
    batch: int = BATCH,
    limit: int | None = None,
    rebuild: bool = False,
) -> BackfillReport:
    """Embed up to ``limit`` (all when None) memories that lack a second vector of the
    configured model. ``rebuild`` first changes the column's width to the configured model's
    when they differ (a new second model); without it a width that differs is an error.

    Raises ``BackendError`` when the model or the database fails (what was stored stays)."""
    engine = get_engine()
    model = engine.second_model()
    if model is None:
        return BackfillReport(embedded=0, total=0, model="off")
    rebuilt = False
    width = second_vector_width()
    if width != model.dims:
        if not rebuild:
            raise ValueError(
                f"the second vector column is vector({width}) and {model.name} gives "
                f"{model.dims}: run with --rebuild to change it (drops every second vector)"
            )
        ops.second_rebuild(engine, dims=model.dims)
        rebuilt = True
    filled, total = second_coverage()
    todo = total - filled if limit is None else min(limit, total - filled)
    progress = (
        Progress(total=total, label=f"second vectors ({model.name})", write=write)
        if write is not None
        else None
    )
    if progress is not None:
        progress.resume(filled)  # filled before: no part of this run's rate
    embedded = 0
    while embedded < todo:
        done = engine.second_backfill_batch(batch=min(batch, todo - embedded))
        if not done:
            break
        embedded += done
        if progress is not None:
            progress.advance(done)
    return BackfillReport(embedded=embedded, total=total, model=model.name, rebuilt=rebuilt)
