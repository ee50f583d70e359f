"""Hooks of the contract fuzz (``st run``, ``tests/schemathesis_cli.py``), loaded by path through
``SCHEMATHESIS_HOOKS`` in the ``st`` process (no Django there: nothing of the service is
imported).

One rule of ``/v1``'s input cannot be written in JSON Schema: a range of times must hold an
instant (``created_after`` earlier than ``created_before``, and the same for ``updated_*``;
``edges.contract.fields.holds_no_instant``). The schema says it in the fields' descriptions; a
generated body whose ends are the wrong way round is refused with 400 naming both, which
Schemathesis would report as valid data refused. Only that refusal is forgiven, recognised by
its message; every other failure stands."""

from __future__ import annotations

import json
from typing import Any

import schemathesis

# The fixed start of ``edges.contract.fields.EMPTY_RANGE`` (test_openapi_fuzz checks they agree).
EMPTY_RANGE_START = "the range holds no instant: "
RANGE_FIELDS = {"created_after", "created_before", "updated_after", "updated_before"}


def empty_range_refusal(status: int, content: bytes) -> bool:
    """Whether an answer is /v1's 400 for ranges that hold no instant, and nothing else."""
    if status != 400:
        return False
    try:
        fields = json.loads(content)["error"]["fields"]
    except (ValueError, KeyError, TypeError):
        return False
    if not isinstance(fields, dict) or not fields or not set(fields) <= RANGE_FIELDS:
        return False
    messages = [m for ms in fields.values() for m in ms]
    return all(isinstance(m, str) and m.startswith(EMPTY_RANGE_START) for m in messages)


@schemathesis.hook
def filter_failure(context: Any, failure: Any, case: Any, response: Any) -> bool:
    """Keep every failure but "valid data refused" for a range that holds no instant."""
    if type(failure).__name__ != "RejectedPositiveData":
        return True
    return not empty_range_refusal(response.status_code, response.content)
