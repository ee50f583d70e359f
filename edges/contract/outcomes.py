"""The one table from a decided outcome to the HTTP status each edge answers it with.

The body always says what happened (``success``, ``status``); the HTTP status tells a client
that reads nothing else whether to retry (503), alert (500) or fix its call. The edges differ
on purpose, and only here:

* ``/v1`` (agents): a harmless miss (``not_found``, ``rejected``, ``refused``) is a decided
  answer, 200; the body says which.
* the user API (the browser, through the backend): an unknown id is 404 and rejected text is
  400, as REST clients expect.
* the console (HTMX pages): another user's id is a 404 page (it never confirms the id exists),
  and a rejected edit re-renders the form with 422.
"""

from __future__ import annotations

from enum import StrEnum

from memories.types import WriteStatus


class Edge(StrEnum):
    V1 = "v1"
    USER_API = "user_api"
    CONSOLE = "console"


OK = 200
# outcome status -> (/v1, user API, console). Every WriteStatus has a row (DeleteStatus's
# values are among them), so a status added there without one fails at import.
OUTCOME_HTTP_STATUS: dict[str, tuple[int, int, int]] = {
    WriteStatus.ADDED: (OK, OK, OK),
    WriteStatus.UPDATED: (OK, OK, OK),
    WriteStatus.NO_EFFECT: (OK, OK, OK),
    WriteStatus.DELETED: (OK, OK, OK),
    WriteStatus.REFUSED: (OK, OK, OK),  # lifecycle policy: the save switch is off, a scheduled run
    WriteStatus.REJECTED: (OK, 400, 422),
    WriteStatus.NOT_FOUND: (OK, 404, 404),
    WriteStatus.FORBIDDEN: (403, 403, 404),
    WriteStatus.BACKEND_ERROR: (503, 503, 503),
    # The memory is gone but derived data is not: a failure of ours, never a success.
    WriteStatus.PARTIAL_CLEANUP: (500, 500, 500),
}
assert set(OUTCOME_HTTP_STATUS) == set(WriteStatus), "every write status needs its HTTP status"
_COLUMN = {Edge.V1: 0, Edge.USER_API: 1, Edge.CONSOLE: 2}


def http_status(outcome_status: str, edge: Edge) -> int:
    """The HTTP status ``edge`` answers ``outcome_status`` with (500 for an unknown one)."""
    row = OUTCOME_HTTP_STATUS.get(str(outcome_status))
    return row[_COLUMN[edge]] if row else 500
