"""The write pipeline's part of ``manage.py memory_rescan``: run ids and ingest metadata stored
before ids and metadata were checked (``memories.admission.refs``, ``find_field_secret``).

Counts by where, never the value; ``apply`` blanks them — a run ledger row is dropped, its run
id is all it holds (the run then has no explicit writer on record, which only lets a later
ingest of that run through).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Any

from lifecycle.models import IngestJob, IngestRejection, RunLedger
from memories.admission import find_field_secret
from memories.admission.refs import ref_problem


@dataclass
class PipelineRefs:
    """By where: what the scan found, and what ``apply`` blanked (or dropped) of it."""

    found: Counter[str] = field(default_factory=Counter)
    blanked: Counter[str] = field(default_factory=Counter)


def pipeline_refs_rescan(*, apply: bool = False) -> PipelineRefs:
    jobs_run_id = _bad_run_ids(IngestJob.objects.exclude(run_id=""))
    rejections = _bad_run_ids(IngestRejection.objects.exclude(run_id=""))
    ledger = _bad_run_ids(RunLedger.objects.all())
    jobs_metadata = [
        job_id
        for job_id, metadata in IngestJob.objects.exclude(metadata={}).values_list("id", "metadata")
        if _metadata_refused(metadata)
    ]
    counts = Counter(
        {
            "ingest job run_id": len(jobs_run_id),
            "ingest job metadata": len(jobs_metadata),
            "ingest refusal run_id": len(rejections),
            "run ledger run_id": len(ledger),
        }
    )
    result = PipelineRefs(found=+counts)  # only the places that hold something
    if apply:
        blanked = Counter(
            {
                "ingest job run_id": IngestJob.objects.filter(id__in=jobs_run_id).update(run_id=""),
                "ingest job metadata": IngestJob.objects.filter(id__in=jobs_metadata).update(
                    metadata={}
                ),
                "ingest refusal run_id": IngestRejection.objects.filter(id__in=rejections).update(
                    run_id=""
                ),
                "run ledger run_id": RunLedger.objects.filter(id__in=ledger).delete()[0],
            }
        )
        result.blanked = +blanked
    return result


def _bad_run_ids(rows: Any) -> list[Any]:
    return [row_id for row_id, run_id in rows.values_list("id", "run_id") if ref_problem(run_id)]


def _metadata_refused(metadata: Any) -> bool:
    if not isinstance(metadata, dict):
        return True
    fields = {str(key): str(value) for key, value in metadata.items()}
    return any(ref_problem(key) for key in fields) or find_field_secret(fields) is not None
