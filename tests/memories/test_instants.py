"""``memories.instants``: the one reading of a stored instant and the one meaning of a day."""

import csv
import io
from datetime import UTC, date, datetime, timedelta, timezone

import pytest
from django.utils import timezone as dj_timezone
from django.utils import translation

from edges.contract.export_reader import ExportDocument, read_export_data
from edges.support import user_memories
from memories import instants
from memories.engine import get_engine
from memories.export_document import EXPORT_FORMAT
from memories.ops.portability import export_csv, memory_export, memory_import
from memories.selectors import memory_list
from memories.services import memory_add
from memories.types import WriteStatus


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


def test_a_stored_instant_is_read_the_same_as_a_datetime_naive_or_in_any_zone():
    noon = datetime(2026, 3, 1, 12, tzinfo=UTC)
    assert instants.read_instant(datetime(2026, 3, 1, 12)) == noon  # noqa: DTZ001 - naive: UTC
    eastern = datetime(2026, 3, 1, 7, tzinfo=timezone(timedelta(hours=-5)))
    assert instants.read_instant(eastern) == noon


# --- every reader of a stored instant places it at the same instant ---------------------------
OFFSETLESS = "2026-03-01T09:00:00"  # an old row's created_at: no offset, so UTC
MOMENT = datetime(2026, 3, 1, 9, tzinfo=UTC)


@pytest.fixture
def offsetless_memory(scope, agent) -> str:
    outcome = memory_add(scope=scope, text="用户每周一上午开周会。", actor=agent)
    assert outcome.status == WriteStatus.ADDED, outcome
    get_engine().patch_payload(
        memory_id=outcome.memory_id, fields={"created_at": OFFSETLESS, "valid_until": None}
    )
    return str(outcome.memory_id)


@pytest.mark.django_db
def test_the_same_stored_instant_reads_the_same_through_every_reader(
    offsetless_memory, scope, other_scope, agent
):
    [record] = [r for r in memory_list(scope=scope).items if r.id == offsetless_memory]
    assert record.created_at == MOMENT
    [line] = user_memories(scope=scope).latest
    assert line.created == MOMENT
    document = memory_export(scope=scope)
    [item] = document["memories"]
    assert item["created_at"] == MOMENT.isoformat()  # the document writes UTC with its offset
    with translation.override("en"):
        [_, row] = list(csv.reader(io.StringIO(export_csv(document))))
    assert "2026-03-01 17:00" in row  # the same instant on the service's clock (UTC+8)
    # A document written elsewhere without offsets: the import lands it where the list shows it.
    read = read_export_data(
        {"format": EXPORT_FORMAT, "version": 2, "memories": [item | {"created_at": OFFSETLESS}]}
    )
    assert isinstance(read, ExportDocument), read
    report = memory_import(scope=other_scope, items=read.memories, actor=agent)
    assert report.count("added") == 1, report
    [imported] = memory_list(scope=other_scope).items
    assert imported.created_at == MOMENT == record.created_at
