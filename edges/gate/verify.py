"""``memory_gate verify``: the regression an upgrade must pass, against the running service.

Only HTTP: ``/health``, ``/ready`` and ``/v1`` with a service token, in throwaway scopes of a
tenant of its own (``poco-gate-<run>``; a second tenant ``…-x`` for cross-tenant isolation).
Every check is a named condition; a failed blocking condition refuses the release. The report
(``report.md``, ``report.json``) holds versions, the configuration summary (secrets masked by
the service), baseline against new recall, every failure with its detail and the clean-up
counts. It never holds the token.
"""

from __future__ import annotations

import time
import traceback
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from edges.gate import frame, steps
from edges.gate.harness import Gate, Write
from edges.gate.report import Result, recorded_versions, write_report
from edges.gate.service import GateStop, Service

# The steps ``verify`` can run, in order (``--only``); the local ones need the verify process to
# reach the service's database.
STEPS = tuple(step.name for step in steps.ORDER)
# A step failed in a way no check foresaw (a lost database connection, a bug of the gate's): the
# release is refused and the report still written, with where it happened.
CRASHED = "verify.crashed"


def _unforeseen(error: Exception) -> str:
    """The error's type and message, and the line of the gate that raised it."""
    frames = traceback.extract_tb(error.__traceback__)
    at = f" (at {Path(frames[-1].filename).name}:{frames[-1].lineno})" if frames else ""
    return "".join(traceback.format_exception_only(error)).strip() + at


def verify(
    *,
    baseline: dict[str, Any],
    url: str,
    token: str,
    report_dir: Path,
    write: Write = lambda _: None,
    only: frozenset[str] = frozenset(),
) -> Result:
    """Run every step (or, to look into one failure, only the steps named in ``only``: the
    initialisation, the release check and the clean-up always run; a partial run is reported as
    such and never accepts a release by itself)."""
    started = time.monotonic()
    service = Service(url, token)
    result = Result(
        run=uuid.uuid4().hex[:10],
        url=url,
        started_at=datetime.now(UTC).isoformat(),
        baseline_recorded_at=str(baseline.get("recorded_at", "")),
        baseline_versions=recorded_versions(baseline),
    )
    gate = Gate(service, result, write, baseline)
    ready = False
    try:
        with gate.step("initialisation"):
            ready = frame.initialisation(gate)
    except Exception as error:  # reported below, never lost: the run must leave its report
        gate.check(CRASHED, False, _unforeseen(error))
    if ready:
        try:
            with gate.step("release"):
                frame.release_matches(gate)
            for step in steps.ORDER:
                if only and step.name not in only:
                    continue
                if step.local and not gate.local:
                    continue  # release.same_database failed and says what did not run
                with gate.step(step.name):
                    step.run(gate)
        except GateStop as stop:
            gate.check("service_answers", False, str(stop))
        except Exception as error:
            gate.check(CRASHED, False, _unforeseen(error))
        finally:
            with gate.step("cleanup"):
                try:
                    frame.cleanup(gate)
                except GateStop as stop:
                    gate.check("cleanup", False, str(stop))
                except Exception as error:
                    gate.check("cleanup", False, _unforeseen(error))
    if only:
        gate.check(
            "verify.partial",
            False,
            f"only {', '.join(sorted(only))} ran: a release is accepted on a full run only",
            blocking=False,
        )
    result.server_errors = list(service.server_errors)
    gate.check(
        "server_error",
        not service.server_errors,
        f"{len(service.server_errors)} answers were 5xx or none: {service.server_errors[:10]}",
    )
    result.requests = service.requests
    result.seconds = time.monotonic() - started
    write_report(result, report_dir)
    return result
