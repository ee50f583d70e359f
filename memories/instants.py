"""Instants and days: the one home of how the service reads a stored time and what a day means.

**A stored instant** is an ISO 8601 string in a memory's payload (``created_at``,
``updated_at``, ``valid_until``, ``superseded_at``…). The service always writes one with its
offset. A value without an offset (an old row, another writer) is read as UTC: that is what
PostgreSQL does when a statement casts it to ``timestamptz`` (Django's connections run in
UTC), so Python and SQL place the same memory at the same instant. ``read_instant`` is the
only reader.

**A day** given where an instant is meant ("as of 2026-03-01", "created on 2026-12-01", "valid
until 2026-12-31", an export's file name) is a day in the service's time zone
(``settings.TIME_ZONE``, ``POCO_TIME_ZONE``): it starts at ``day_start`` and includes every
instant before ``next_day_start``; ``day_end`` is its last instant. Every door — the console,
``/v1``, the user API, MCP and ``/mem0`` — goes through these functions.
"""

from __future__ import annotations

from datetime import UTC, date, datetime, time, timedelta
from typing import Any

from django.utils import timezone
from django.utils.dateparse import parse_datetime


def read_instant(value: datetime | str | None | Any) -> datetime | None:
    """A stored instant as an aware datetime (None for no value or one that is not a time);
    a value without an offset is UTC."""
    if isinstance(value, datetime):
        moment: datetime | None = value
    elif isinstance(value, str) and value:
        try:
            moment = parse_datetime(value)
        except ValueError:
            return None
    else:
        return None
    if moment is None:
        return None
    return moment if timezone.is_aware(moment) else moment.replace(tzinfo=UTC)


def service_zone() -> Any:
    """The service's time zone (``settings.TIME_ZONE``), the one days are counted in."""
    return timezone.get_default_timezone()


def day_start(day: date) -> datetime:
    """A day's first instant in the service's time zone."""
    return datetime.combine(day, time.min, tzinfo=service_zone())


def next_day_start(day: date) -> datetime:
    """The first instant after ``day``: a day is the instants in ``[day_start, next_day_start)``."""
    return day_start(day + timedelta(days=1))


def day_end(day: date) -> datetime:
    """A day's last instant in the service's time zone: a day given for an instant ("as of
    2026-03-01", "valid until 2026-12-31") includes that whole day."""
    return datetime.combine(day, time.max, tzinfo=service_zone())


def service_day(moment: datetime | None = None) -> date:
    """The day ``moment`` (default: now) falls on in the service's time zone — the date an
    export's file name carries."""
    return timezone.localtime(moment or timezone.now(), service_zone()).date()
