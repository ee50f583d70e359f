"""``memories.instants``: the one reading of a stored instant and the one meaning of a day."""

from datetime import UTC, date, datetime, timedelta

from django.utils import timezone as dj_timezone

from memories import instants


def test_a_day_is_its_last_instant_in_the_service_time_zone():
    end = instants.day_end(date(2026, 3, 1))
    assert end.tzinfo is not None
    local = end.astimezone(dj_timezone.get_default_timezone())
    assert (local.date(), local.hour, local.minute, local.second) == (date(2026, 3, 1), 23, 59, 59)
    assert end.utcoffset() == timedelta(hours=8)  # Asia/Shanghai, the service's default
    assert end.astimezone(UTC).isoformat().startswith("2026-03-01T15:59:59")


def test_a_day_is_the_instants_from_its_start_to_the_next_days_start():
    day = date(2026, 12, 1)
    assert instants.day_start(day).astimezone(UTC) == datetime(2026, 11, 30, 16, tzinfo=UTC)
    assert instants.next_day_start(day).astimezone(UTC) == datetime(2026, 12, 1, 16, tzinfo=UTC)
    assert instants.day_start(day) < instants.day_end(day) < instants.next_day_start(day)


def test_the_day_of_an_instant_is_counted_in_the_service_time_zone():
    # 02:53 on 12-04 in Shanghai is still 12-03 in UTC: the service's day is 12-04.
    assert instants.service_day(datetime(2026, 12, 3, 18, 53, tzinfo=UTC)) == date(2026, 12, 4)


def test_a_stored_instant_without_an_offset_is_utc_and_garbage_is_none():
    assert instants.read_instant("2026-03-01T09:00:00") == datetime(2026, 3, 1, 9, tzinfo=UTC)
    with_offset = instants.read_instant("2026-03-01T09:00:00+08:00")
    assert with_offset == datetime(2026, 3, 1, 1, tzinfo=UTC)
    for nothing in (None, "", "yesterday", "2026-13-45T00:00:00", 17):
        assert instants.read_instant(nothing) is None
