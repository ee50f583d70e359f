"""Mem0's filter grammar translated into the filters the service can honour, or refused.

Mem0 clients send ``filters`` such as ``{"user_id": "alice"}`` or ``{"AND": [{"user_id":
"alice"}, {"created_at": {"gte": "2026-01-01"}}, {"categories": {"in": ["preference"]}}]}``.
What the service honours: exactly one ``user_id`` (the scope), one category, and
``created_at``/``updated_at`` ranges. Everything else (``agent_id``/``run_id``/``app_id``
filters, metadata keys, several categories, ``OR`` of different conditions, wildcards, ``NOT``)
is refused with a message saying so: a filter is never dropped, which would widen the answer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from typing import Any

from rest_framework import ISO_8601, serializers

from edges.contract.fields import (
    EARLIEST,
    EMPTY_RANGE,
    LATEST,
    OUT_OF_RANGE,
    holds_no_instant,
    read_time,
)
from edges.mem0_api.edge import Refused
from memories.instants import day_end, day_start, next_day_start
from memories.types import Category

ENTITY_FILTERS = ("agent_id", "run_id", "app_id")
RANGE_OPERATORS = ("gte", "gt", "lte", "lt")
CATEGORIES = [c.value for c in Category]
_TINY = timedelta(microseconds=1)
# Every instant the door derives from a day or a date-time it is sent (a bound, an expiry at a
# day's end) lies in EARLIEST..LATEST (``contract.fields``), which /v1 and the answers can still
# show in any time zone.


def date_field(**kwargs: Any) -> serializers.DateField:
    """A day as YYYY-MM-DD (``expiration_date``): a day no calendar has is refused."""
    return serializers.DateField(input_formats=[ISO_8601], **kwargs)


@dataclass
class Translated:
    """The /v1 filter fields one Mem0 filter means."""

    user_id: str = ""
    category: str = ""
    created_after: datetime | None = None  # inclusive
    created_before: datetime | None = None  # exclusive
    updated_after: datetime | None = None
    updated_before: datetime | None = None

    def v1_fields(self) -> dict[str, Any]:
        """What /v1 search takes (ISO 8601 text, as a client would send it)."""
        found: dict[str, Any] = {"user_id": self.user_id}
        if self.category:
            found["category"] = self.category
        for name in ("created_after", "created_before", "updated_after", "updated_before"):
            value = getattr(self, name)
            if value is not None:
                found[name] = value.isoformat()
        return found


def translate(filters: Any, *, user_id: Any = None) -> Translated:
    """``filters`` (and a top-level ``user_id`` where Mem0 allowed one) as a ``Translated``;
    ``Refused`` for what the service cannot honour exactly."""
    result = Translated()
    if filters is not None:
        if not isinstance(filters, dict):
            raise Refused("filters must be an object", "filters")
        _apply(filters, result)
    if user_id is not None:
        _set_user(result, user_id)
    if not result.user_id:
        raise Refused("name the user: filters={'user_id': '...'}", "filters")
    refuse_empty_ranges(result, field="filters")
    return result


def refuse_empty_ranges(result: Translated, *, field: str) -> None:
    """Refused naming ``field`` when a range of ``result`` holds no instant (``gte`` after
    ``lte``…): an answer of nothing would hide the mistake."""
    for key in ("created", "updated"):
        after, before = getattr(result, f"{key}_after"), getattr(result, f"{key}_before")
        if holds_no_instant(after, before):
            bounds = EMPTY_RANGE.format(after="its lower bound", before="its upper bound")
            raise Refused(f"the {key}_at {bounds}", field)


def _apply(condition: dict[str, Any], result: Translated) -> None:
    for key, value in condition.items():
        if key == "AND":
            for part in _conditions(key, value):
                _apply(part, result)
        elif key == "OR":
            parts = _conditions(key, value)
            # One branch, or branches that all say the same, is that branch; anything else
            # would need a union the service's filters cannot express.
            if any(part != parts[0] for part in parts):
                raise Refused("OR of different conditions is not supported; send one query each")
            _apply(parts[0], result)
        elif key == "NOT":
            raise Refused("NOT is not supported by this server's filters")
        elif key == "user_id":
            _set_user(result, value)
        elif key in ENTITY_FILTERS:
            raise Refused(
                f"filtering by {key} is not supported: memories here belong to a user only; "
                "filter by user_id",
                "filters",
            )
        elif key in ("created_at", "updated_at"):
            _apply_range(key, value, result)
        elif key in ("categories", "category"):
            _set_category(result, value)
        elif key == "metadata":
            raise Refused("filtering by metadata is not supported by this server", "filters")
        else:
            raise Refused(f"unknown filter {key!r}", "filters")


def _conditions(key: str, value: Any) -> list[dict[str, Any]]:
    if not isinstance(value, list) or not value or not all(isinstance(v, dict) for v in value):
        raise Refused(f"{key} takes a non-empty list of conditions", "filters")
    return value


def _set_user(result: Translated, value: Any) -> None:
    if isinstance(value, dict) or value == "*":
        raise Refused("user_id must be one user's id: a query never spans users", "filters")
    if not isinstance(value, str) or not value:
        raise Refused("user_id must be a non-empty string", "filters")
    if result.user_id and result.user_id != value:
        raise Refused("two different user_id values: a query never spans users", "filters")
    result.user_id = value


def _set_category(result: Translated, value: Any) -> None:
    if isinstance(value, dict):
        if set(value) - {"in", "contains", "eq"} or len(value) != 1:
            raise Refused("categories takes one of in, contains or eq", "filters")
        value = next(iter(value.values()))
    if isinstance(value, list):
        # A category is a name: an object or a list inside is refused before it is compared
        # (neither can be hashed, and neither names a category).
        if not all(isinstance(item, str) for item in value):
            raise Refused("categories takes category names (strings)", "filters")
        if len(set(value)) != 1:
            raise Refused(
                "one category per query: a memory here has exactly one of " + ", ".join(CATEGORIES),
                "filters",
            )
        value = value[0]
    if value not in CATEGORIES:
        raise Refused(f"unknown category {value!r}: one of {', '.join(CATEGORIES)}", "filters")
    if result.category and result.category != value:
        raise Refused("two different categories: a memory here has exactly one", "filters")
    result.category = value


def _apply_range(key: str, value: Any, result: Translated) -> None:
    if not isinstance(value, dict) or not value or set(value) - set(RANGE_OPERATORS):
        raise Refused(f"{key} takes gte, gt, lte and/or lt with ISO 8601 dates", "filters")
    for operator, raw in value.items():
        narrow(result, key, operator, raw, field="filters")


def narrow(result: Translated, key: str, operator: str, raw: Any, *, field: str) -> None:
    """``result`` with one bound of ``key`` (``created_at``/``updated_at``) applied: ``raw`` is
    an ISO 8601 date or date-time, a bad one is refused naming ``field`` (where it was sent)."""
    what = f"{key} bound {raw!r}" if field == "filters" else f"{field} {raw!r}"
    instant, day = _instant(raw, field=field, what=what)
    if operator in ("gte", "lt"):
        bound = instant
    elif day is not None:  # gt, lte of a date: the whole day, in the service's time zone
        bound = _day_bound(next_day_start, day, field=field, what=what)
    else:  # gt, lte of a date-time: the instant itself
        bound = reachable(instant, _TINY, field=field, what=what)
    name = "after" if operator in ("gte", "gt") else "before"
    attribute = f"{key.removesuffix('_at')}_{name}"
    current = getattr(result, attribute)
    if current is not None:  # two bounds of one side: the narrower holds
        bound = max(current, bound) if name == "after" else min(current, bound)
    setattr(result, attribute, bound)


def reachable(start: datetime, step: timedelta, *, field: str, what: str) -> datetime:
    """``start + step`` if it lies in ``EARLIEST``..``LATEST``; refused naming ``field``."""
    try:
        instant = start + step
    except OverflowError:
        instant = LATEST + _TINY
    if not EARLIEST <= instant <= LATEST:
        raise Refused(f"{what} is {OUT_OF_RANGE}", field)
    return instant


def _instant(raw: Any, *, field: str, what: str) -> tuple[datetime, date | None]:
    """An ISO 8601 date (the start of that day in the service's time zone, ``memories.instants``,
    and the day) or date-time with its UTC offset (no day), read as every door reads a time
    (``contract.fields.read_time``: a date-time without an offset is refused). ``what`` names
    ``raw`` in a refusal."""
    try:
        sent = read_time(raw)
    except serializers.ValidationError as exc:
        problem = " ".join(str(detail) for detail in exc.detail)
        raise Refused(f"{what}: {problem}", field) from None
    if sent.day is not None:
        return _day_bound(day_start, sent.day, field=field, what=what), sent.day
    return reachable(sent.at(day_start), timedelta(0), field=field, what=what), None


def _day_bound(
    instant_of: Callable[[date], datetime], day: date, *, field: str, what: str
) -> datetime:
    """``instant_of(day)`` (``day_start``, ``next_day_start``) if it lies in
    ``EARLIEST``..``LATEST``; refused naming ``field``."""
    try:
        instant = instant_of(day)
    except OverflowError:
        raise Refused(f"{what} is {OUT_OF_RANGE}", field) from None
    return reachable(instant, timedelta(0), field=field, what=what)


def valid_until(day: date | None) -> str | None:
    """A read ``expiration_date`` (null: never) as /v1's ``valid_until``: the memory lives
    through that whole day in the service's time zone (``instants.day_end``, as the console's
    "valid until"), which must end by ``filters.LATEST``."""
    if day is None:
        return None
    end = reachable(day_end(day), timedelta(0), field="expiration_date", what="expiration_date")
    return end.isoformat()
