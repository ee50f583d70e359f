"""Strict input fields for both APIs: no silent coercion, bounded numbers, no NUL characters.

DRF's own fields turn ``5`` into ``"5"``, ``"5"`` into ``5``, ``false`` into a UUID and
``"true"`` into ``True``. An agent that sends the wrong type has a bug; it must hear about it
as a 400 naming the field, never have its call reinterpreted. Bounds are published in the
OpenAPI document through the same validators that enforce them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, date, datetime
from typing import Any

from django.core.validators import ProhibitNullCharactersValidator, RegexValidator
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail

from memories.admission.refs import MAX_REF, REF_PATTERN, ref_problem
from memories.instants import day_end, day_start

# PostgreSQL cannot store U+0000 in text or jsonb: refuse it at the edge, never as a 503.
NO_NUL_PATTERN = r"^[^\x00]*$"
NO_NUL = RegexValidator(NO_NUL_PATTERN, "must not contain NUL (\\u0000) characters")
# Trimmed fields must keep a visible character; the same rule published as a pattern.
NOT_BLANK = RegexValidator(
    r"^[^\x00]*[^\s\x00][^\x00]*$", "must contain a non-space character and no NUL characters"
)
UUID_PATTERN = r"^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$"
_UUID = re.compile(UUID_PATTERN)


class StrictSerializer(serializers.Serializer):
    """Rejects fields it does not declare (a typo must not be silently ignored)."""

    def to_internal_value(self, data: Any) -> Any:
        unknown = sorted(set(data) - set(self.fields)) if isinstance(data, Mapping) else []
        errors = {name: [ErrorDetail("unknown field", code="unknown_field")] for name in unknown}
        try:
            value = super().to_internal_value(data)
        except serializers.ValidationError as exc:
            if isinstance(exc.detail, dict):
                exc.detail.update(errors)
            raise
        if errors:
            raise serializers.ValidationError(errors)
        return value


class StrictCharField(serializers.CharField):
    """A JSON string (never a number or boolean), its length counted before trimming."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        blank_ok = self.allow_blank or not self.trim_whitespace
        # In place of DRF's own NUL validator, whose message Django's Chinese catalogue
        # renders as "不允许是用空字符串" (blank not allowed): ours names the NUL.
        self.validators = [
            v for v in self.validators if not isinstance(v, ProhibitNullCharactersValidator)
        ]
        self.validators.append(NO_NUL if blank_ok else NOT_BLANK)

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        if self.max_length is not None and len(data) > self.max_length:
            self.fail("max_length", max_length=self.max_length)
        return super().to_internal_value(data)


class RefField(StrictCharField):
    """An id or a reference (run id, run kind, source, ``source_ref``): a short token of a fixed
    alphabet and never a secret (``memories.admission.refs``). Optional; blank when absent."""

    def __init__(self, *, max_length: int = MAX_REF, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        if not kwargs.get("allow_null"):
            kwargs.setdefault("default", "")
        super().__init__(max_length=max_length, allow_blank=True, trim_whitespace=False, **kwargs)
        # Published as the field's pattern (in place of the NUL rule, which it implies);
        # ``ref_problem`` below is the rule itself.
        self.validators = [v for v in self.validators if not isinstance(v, RegexValidator)]
        self.validators.append(RegexValidator(REF_PATTERN, "not an id"))

    def to_internal_value(self, data: Any) -> str:
        value = super().to_internal_value(data)
        problem = ref_problem(value, max_length=self.max_length or MAX_REF)
        if problem is not None:
            raise serializers.ValidationError(problem, code="invalid_ref")
        return value


class StrictRegexField(serializers.RegexField):
    """A JSON string matching ``regex`` (the pattern is published as is)."""

    def to_internal_value(self, data: Any) -> str:
        if not isinstance(data, str):
            self.fail("invalid")
        return super().to_internal_value(data)


class StrictChoiceField(serializers.ChoiceField):
    def to_internal_value(self, data: Any) -> Any:
        if not isinstance(data, str):
            self.fail("invalid_choice", input=data)
        return super().to_internal_value(data)


class StrictIntegerField(serializers.IntegerField):
    """A JSON integer, never ``"5"`` or ``true``; always bounded. ``5.0`` is the integer 5 and
    ``5.5`` is refused: the published schema is JSON Schema 2020-12 (OpenAPI 3.1), where
    "integer" is any number with a zero fractional part, so a client that validates against it
    (and Schemathesis, which sends ``5.0`` for an integer field on purpose) counts ``5.0`` as
    valid. Refusing it would make the service break its own contract; reading it as 5 loses
    nothing, unlike ``"5"`` or ``true``, which are another type."""

    def __init__(self, *, min_value: int, max_value: int, **kwargs: Any) -> None:
        super().__init__(min_value=min_value, max_value=max_value, **kwargs)

    def to_internal_value(self, data: Any) -> int:
        if isinstance(data, bool) or not isinstance(data, int | float):
            self.fail("invalid")
        if isinstance(data, float) and not data.is_integer():
            self.fail("invalid")
        return int(data)


class StrictFloatField(serializers.FloatField):
    def to_internal_value(self, data: Any) -> float:
        if isinstance(data, bool) or not isinstance(data, int | float):
            self.fail("invalid")
        if not math.isfinite(data):
            self.fail("invalid")
        return float(data)


class StrictBooleanField(serializers.BooleanField):
    """``true`` or ``false`` only: ``"false"`` and ``0`` are mistakes, not opinions."""

    def to_internal_value(self, data: Any) -> bool:
        if not isinstance(data, bool):
            self.fail("invalid", input=data)
        return data


class StrictUUIDField(serializers.UUIDField):
    """A canonical UUID string (8-4-4-4-12 hex); answered as lowercase text."""

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(format="hex_verbose", **kwargs)

    def to_internal_value(self, data: Any) -> str:  # type: ignore[override]
        if not isinstance(data, str) or not _UUID.match(data) or data.endswith("\n"):
            self.fail("invalid", value=data)
        return data.lower()


class StringMapField(serializers.DictField):
    """A flat object of string keys to string values, bounded in entries and lengths. Keys are
    ids (``memories.admission.refs``); values are free text the write's admission reads."""

    def __init__(self, *, max_entries: int, max_key: int, max_value: int, **kwargs: Any) -> None:
        self.max_entries = max_entries
        self.max_key = max_key
        child = StrictCharField(max_length=max_value, allow_blank=True, trim_whitespace=False)
        super().__init__(child=child, **kwargs)

    def to_internal_value(self, data: Any) -> dict[str, str]:
        if not isinstance(data, dict):
            self.fail("not_a_dict", input_type=type(data).__name__)
        if len(data) > self.max_entries:
            raise serializers.ValidationError(f"at most {self.max_entries} entries")
        for key in data:
            problem = ref_problem(key, max_length=self.max_key) if key else "must not be blank"
            if problem is not None:
                raise serializers.ValidationError(f"every key must be an id: {problem}")
        return super().to_internal_value(data)


# --- times a caller sends: one reader for every door -----------------------------------------
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}\Z")
MAX_TIME = 40  # past the longest ISO 8601 instant with microseconds and an offset
MAX_AS_OF = MAX_TIME
# The instants a caller may have the service keep or compare at a day's edge (an expiry, a
# /mem0 filter bound): each can still be shown in any time zone (at most 14 hours from UTC)
# before Python's datetime ends (years 1 to 9999).
FIRST_DAY, LAST_DAY = date(1, 1, 2), date(9999, 12, 30)
EARLIEST = datetime(1, 1, 1, 14, tzinfo=UTC)
LATEST = datetime(9999, 12, 31, 10, tzinfo=UTC)
OUT_OF_RANGE = f"out of range: the days this server can store run from {FIRST_DAY} to {LAST_DAY}"
TIME_FORMS = (
    "a day YYYY-MM-DD or an ISO 8601 date-time with its UTC offset "
    "(2026-03-01T09:00:00+08:00, or Z)"
)
NEEDS_OFFSET = (
    "a date-time needs its UTC offset (…+08:00 or …Z): without one it names no instant; "
    "or send a day YYYY-MM-DD"
)
NOT_A_TIME = f"not {TIME_FORMS}"
NO_SUCH_TIME = f"not a date or time this calendar has: send {TIME_FORMS}"
EMPTY_RANGE = "the range holds no instant: {after} must be earlier than {before}"
AS_OF_HELP = (
    "What was true then: an ISO 8601 instant with its UTC offset (2026-03-01T09:00:00+08:00, "
    "or Z), or a day YYYY-MM-DD meaning the end of that day in the service's time zone. An "
    "instant without an offset is refused; one in the future means now."
)


@dataclass(frozen=True)
class SentTime:
    """A time as a caller sent it: an instant (aware, with the offset it came with) or a day of
    the service's time zone. Which instant a day stands for is the field's to say: a range's
    bound is the day's first instant, an ``as_of`` or an expiry its last."""

    instant: datetime | None = None
    day: date | None = None

    def at(self, day_instant: Callable[[date], datetime]) -> datetime:
        """The instant sent, or the one ``day_instant`` (``instants.day_start``, ``day_end``)
        gives for the day sent."""
        if self.instant is not None:
            return self.instant
        assert self.day is not None
        return day_instant(self.day)


def read_time(raw: Any) -> SentTime:
    """A time a caller sent, at every door (``/v1``, the user API, MCP, ``/mem0``): a JSON
    string holding a day ``YYYY-MM-DD`` or an ISO 8601 date-time with its UTC offset. A
    date-time without an offset is refused rather than guessed: the service's zone, UTC and the
    caller's own clock are all plausible readings, hours apart, and a wrong one silently selects
    other memories. (A stored instant, or one in an export document, is another matter: the
    service wrote it in UTC, ``memories.instants.read_instant``.) Raises ``ValidationError``
    saying what is wrong and naming both forms."""
    if not isinstance(raw, str):
        raise serializers.ValidationError(f"must be a string: {TIME_FORMS}")
    if len(raw) > MAX_TIME:
        raise serializers.ValidationError(f"at most {MAX_TIME} characters")
    try:
        if _DAY.match(raw):
            return SentTime(day=date.fromisoformat(raw))
        parsed = parse_datetime(raw.upper())  # RFC 3339 allows "t" and "z"
    except (ValueError, OverflowError):
        raise serializers.ValidationError(NO_SUCH_TIME) from None
    if parsed is None:
        raise serializers.ValidationError(NOT_A_TIME)
    if timezone.is_naive(parsed):
        raise serializers.ValidationError(NEEDS_OFFSET)
    return SentTime(instant=parsed)


def in_utc(moment: datetime) -> datetime:
    """``moment`` in UTC. Past either end of what UTC can hold (year 1 at +14:00, year 9999 at
    -14:00) it is the nearest instant UTC has: before every memory, or after every one, which
    is what any comparison with a memory's time needs."""
    try:
        return moment.astimezone(UTC)
    except OverflowError:
        if moment.year == 1:
            return datetime.min.replace(tzinfo=UTC)
        return datetime.max.replace(tzinfo=UTC)


def holds_no_instant(after: datetime | None, before: datetime | None) -> bool:
    """Whether a range ``[after, before)`` is empty: two bounds the wrong way round (or equal)
    are a mistake to refuse, never a question whose answer is "nothing"."""
    return after is not None and before is not None and after >= before


def parse_as_of(raw: Any) -> datetime:
    """The instant a search ``as_of`` names (``read_time``): a day is its last instant in the
    service's time zone (``instants.day_end``); a future one is now. Anything else raises
    ``ValidationError`` saying what is wrong."""
    # Past either end of what UTC can hold, an instant is before any memory was written or in
    # the future (``in_utc``): each means what the nearest instant means.
    return min(in_utc(read_time(raw).at(day_end)), timezone.now())


# What every time field publishes: a day or a date-time (``read_time``); its description is
# the field's help text, and a field that allows null gets ``{"type": "null"}`` beside them.
TIME_SCHEMA: dict[str, Any] = {
    "oneOf": [
        {"type": "string", "format": "date", "maxLength": 10},
        {"type": "string", "format": "date-time", "maxLength": MAX_TIME},
    ],
    "example": "2026-03-01",
}


class _TimeField(serializers.Field):
    """An optional instant of a request body, read by its subclass and answered in ISO 8601;
    ``help`` is its description in the schema."""

    help = ""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("help_text", self.help)
        super().__init__(**kwargs)

    def to_representation(self, value: datetime) -> str:
        return value.isoformat()


@extend_schema_field(TIME_SCHEMA)
class AsOfField(_TimeField):
    """``parse_as_of`` as a field of a request body (optional; absent: now)."""

    help = AS_OF_HELP

    def to_internal_value(self, data: Any) -> datetime:
        return parse_as_of(data)


BOUND_HELP = (
    "An ISO 8601 date-time with its UTC offset (2026-03-01T09:00:00+08:00, or Z), or a day "
    "YYYY-MM-DD meaning its first instant in the service's time zone. A date-time without an "
    "offset is refused."
)


@extend_schema_field(TIME_SCHEMA)
class BoundField(_TimeField):
    """One bound of a range of times (``created_after``, ``created_before``…), read by
    ``read_time``: a day is its first instant in the service's time zone, so ``…_after`` a day
    includes it and ``…_before`` a day stops where it starts. Answered in UTC (``in_utc``)."""

    help = BOUND_HELP

    def to_internal_value(self, data: Any) -> datetime:
        return in_utc(read_time(data).at(day_start))


VALID_UNTIL_HELP = (
    "When the memory stops holding: an ISO 8601 date-time with its UTC offset "
    "(2026-12-31T18:00:00+08:00, or Z), or a day YYYY-MM-DD meaning through its end in the "
    "service's time zone; null: never expires. A date-time without an offset is refused."
)


@extend_schema_field(TIME_SCHEMA)
class ValidUntilField(_TimeField):
    """When a memory stops holding (``read_time``): a day is valid through its last instant in
    the service's time zone, as the console's "valid until" and /mem0's ``expiration_date``;
    null: never expires. It must be an instant the service can keep and show (``EARLIEST`` to
    ``LATEST``). One in the past is a decided ``rejected`` (``valid_until_past``) of the
    service, not a schema violation: no schema can say "future"."""

    help = VALID_UNTIL_HELP

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(allow_null=True, **kwargs)

    def to_internal_value(self, data: Any) -> datetime:
        instant = read_time(data).at(day_end)
        if not EARLIEST <= instant <= LATEST:
            raise serializers.ValidationError(OUT_OF_RANGE)
        return instant
