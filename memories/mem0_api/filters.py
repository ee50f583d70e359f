"""Mem0's filter grammar translated into the filters the service can honour, or refused.

Mem0 clients send ``filters`` such as ``{"user_id": "alice"}`` or ``{"AND": [{"user_id":
"alice"}, {"created_at": {"gte": "2026-01-01"}}, {"categories": {"in": ["preference"]}}]}``.
What the service honours: exactly one ``user_id`` (the scope), one category, and
``created_at``/``updated_at`` ranges. Everything else (``agent_id``/``run_id``/``app_id``
filters, metadata keys, several categories, ``OR`` of different conditions, wildcards, ``NOT``)
is refused with a message saying so: a filter is never dropped, which would widen the answer.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_date, parse_datetime

from memories.mem0_api.edge import Refused
from memories.types import Category

ENTITY_FILTERS = ("agent_id", "run_id", "app_id")
RANGE_OPERATORS = ("gte", "gt", "lte", "lt")
CATEGORIES = [c.value for c in Category]
_TINY = timedelta(microseconds=1)


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
    return result


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
    prefix = key.removesuffix("_at")
    for operator, raw in value.items():
        instant, whole_day = _instant(key, raw)
        if operator == "gte":
            bound, name = instant, "after"
        elif operator == "gt":
            bound, name = instant + (timedelta(days=1) if whole_day else _TINY), "after"
        elif operator == "lt":
            bound, name = instant, "before"
        else:  # lte: the whole day of a date, the instant itself of a date-time
            bound, name = instant + (timedelta(days=1) if whole_day else _TINY), "before"
        field = f"{prefix}_{name}"
        current = getattr(result, field)
        if current is not None:  # two bounds of one side: the narrower holds
            bound = max(current, bound) if name == "after" else min(current, bound)
        setattr(result, field, bound)


def _instant(key: str, raw: Any) -> tuple[datetime, bool]:
    """An ISO 8601 date (the start of that day, UTC) or date-time; True for a date."""
    if isinstance(raw, str):
        # A bare date first: parse_datetime would read "2026-12-01" as that day's midnight.
        day: date | None = parse_date(raw) if len(raw) == len("2026-12-01") else None
        if day is not None:
            return datetime.combine(day, time.min, tzinfo=UTC), True
        moment = parse_datetime(raw)
        if moment is not None:
            if timezone.is_naive(moment):
                moment = timezone.make_aware(moment, UTC)
            return moment, False
    raise Refused(f"{key} bounds must be ISO 8601 dates or date-times", "filters")
