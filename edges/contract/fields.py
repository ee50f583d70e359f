"""Strict input fields for both APIs: no silent coercion, bounded numbers, no NUL characters.

DRF's own fields turn ``5`` into ``"5"``, ``"5"`` into ``5``, ``false`` into a UUID and
``"true"`` into ``True``. An agent that sends the wrong type has a bug; it must hear about it
as a 400 naming the field, never have its call reinterpreted. Bounds are published in the
OpenAPI document through the same validators that enforce them.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping
from datetime import UTC, date, datetime
from typing import Any

from django.core.validators import ProhibitNullCharactersValidator, RegexValidator
from django.utils import timezone
from django.utils.dateparse import parse_datetime
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers
from rest_framework.exceptions import ErrorDetail

from memories.admission.refs import MAX_REF, REF_PATTERN, ref_problem
from memories.instants import day_end

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
    """A JSON integer (``5`` or ``5.0``), never ``"5"`` or ``true``; always bounded."""

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


# --- as_of: an instant or a day, the same at every door -------------------------------------
_DAY = re.compile(r"^\d{4}-\d{2}-\d{2}\Z")
MAX_AS_OF = 40  # past the longest ISO 8601 instant with microseconds and an offset
AS_OF_HELP = (
    "What was true then: an ISO 8601 instant with its UTC offset (2026-03-01T09:00:00+08:00, "
    "or Z), or a day YYYY-MM-DD meaning the end of that day in the service's time zone. An "
    "instant without an offset is refused; one in the future means now."
)


def parse_as_of(raw: Any) -> datetime:
    """The instant a search ``as_of`` names: a JSON string holding an ISO 8601 instant with an
    offset, or a day (its last instant in the service's time zone, ``instants.day_end``); a future
    one is now. Anything else raises ``ValidationError`` saying what is wrong."""
    if not isinstance(raw, str):
        raise serializers.ValidationError("must be a string: an ISO 8601 instant or YYYY-MM-DD")
    if len(raw) > MAX_AS_OF:
        raise serializers.ValidationError(f"at most {MAX_AS_OF} characters")
    try:
        if _DAY.match(raw):
            instant = day_end(date.fromisoformat(raw))
        else:
            parsed = parse_datetime(raw.upper())  # RFC 3339 allows "t" and "z"
            if parsed is None:
                raise serializers.ValidationError(
                    "not an ISO 8601 instant (2026-03-01T09:00:00+08:00) or day (YYYY-MM-DD)"
                )
            if timezone.is_naive(parsed):
                # Whose clock? A day's end is the service's rule; an instant names its own.
                raise serializers.ValidationError(
                    "an instant needs its UTC offset (…+08:00 or …Z); or send a day YYYY-MM-DD"
                )
            instant = parsed
    except (ValueError, OverflowError):
        raise serializers.ValidationError("not a date or time this calendar has") from None
    now = timezone.now()
    try:
        instant.astimezone(UTC)
    except OverflowError:
        # Past either end of what UTC can hold (year 1 at +14:00, year 9999 at -14:00): before
        # any memory was written, or the future — each means what the nearest instant means.
        return datetime.min.replace(tzinfo=UTC) if instant.year == 1 else now
    return min(instant, now)


@extend_schema_field(
    {
        "oneOf": [
            {"type": "string", "format": "date", "maxLength": 10},
            {"type": "string", "format": "date-time", "maxLength": MAX_AS_OF},
        ],
        "example": "2026-03-01",
    }
)
class AsOfField(serializers.Field):
    """``parse_as_of`` as a field of a request body (optional; absent: now)."""

    def __init__(self, **kwargs: Any) -> None:
        kwargs.setdefault("required", False)
        kwargs.setdefault("help_text", AS_OF_HELP)
        super().__init__(**kwargs)

    def to_internal_value(self, data: Any) -> datetime:
        return parse_as_of(data)

    def to_representation(self, value: datetime) -> str:
        return value.isoformat()
