"""The list page's filters as the form shows them, and the ``ListQuery`` they ask for."""

from __future__ import annotations

from dataclasses import dataclass, replace
from datetime import date, datetime
from typing import Any

from django.utils.translation import gettext_lazy as _

from edges.contract.serializers import ListFiltersParams
from memories.instants import day_start, next_day_start
from memories.labels import STATUS_LABELS
from memories.types import ListOrder, ListQuery, StatusFilter

PAGE_SIZE = 20


class SearchMode:
    KEYWORD = "keyword"
    SEMANTIC = "semantic"


@dataclass(frozen=True)
class ListFilters:
    """The list page's filters as the form shows them (its parameter names, dates as days);
    ``list_query`` is what they ask of the memory list, the same ``ListQuery`` the APIs build."""

    q: str = ""
    mode: str = SearchMode.KEYWORD
    category: str = ""
    source: str = ""
    topic: str = ""
    sort: str = ListOrder.CREATED
    date_from: date | None = None
    date_to: date | None = None
    status: str = StatusFilter.ACTIVE
    run: str = ""
    imported: str = ""  # the import whose memories to show (after an import)
    page: int = 1

    def list_query(self, *, page_size: int = PAGE_SIZE) -> ListQuery:
        return console_list_query(self, page_size=page_size)

    @property
    def active(self) -> bool:
        return bool(
            self.q
            or self.category
            or self.source
            or self.topic
            or self.run
            or self.imported
            or self.date_from
            or self.date_to
            or self.status != StatusFilter.ACTIVE
        )

    def created_range(self) -> tuple[datetime | None, datetime | None]:
        """The dates as instants, days in the service's time zone as on every door
        (``memories.instants``); ``date_to`` includes its day."""
        return (
            day_start(self.date_from) if self.date_from else None,
            next_day_start(self.date_to) if self.date_to else None,
        )

    @property
    def reversed_dates(self) -> bool:
        return bool(self.date_from and self.date_to and self.date_from > self.date_to)

    @property
    def folded_count(self) -> int:
        """How many of the filters behind "筛选" (source, sort, status, dates) are set."""
        return sum(
            (
                bool(self.source),
                self.sort != ListOrder.CREATED,
                self.status != StatusFilter.ACTIVE,
                bool(self.date_from),
                bool(self.date_to),
            )
        )

    @property
    def by_update(self) -> bool:
        return self.sort == ListOrder.UPDATED

    @property
    def semantic(self) -> bool:
        # Recall only ever finds active memories: history (superseded, expired) is searched
        # by keyword.
        return (
            self.mode == SearchMode.SEMANTIC and bool(self.q) and self.status == StatusFilter.ACTIVE
        )

    @property
    def status_label(self) -> str:
        return str(dict(status_choices()).get(self.status, self.status))


def status_choices() -> list[tuple[str, Any]]:
    return [
        (StatusFilter.ACTIVE, STATUS_LABELS[StatusFilter.ACTIVE]),
        (StatusFilter.SUPERSEDED, STATUS_LABELS[StatusFilter.SUPERSEDED]),
        (StatusFilter.EXPIRED, STATUS_LABELS[StatusFilter.EXPIRED]),
        (StatusFilter.ALL, _("全部状态")),
    ]


def console_list_query(filters: ListFilters, *, page_size: int = PAGE_SIZE) -> ListQuery:
    """The list page's filters as the one ``ListQuery``, read by the serializer every door's list
    parameters go through (``contract.serializers.ListFiltersParams``); the console's own
    filters (the import just confirmed, the days of creation) are added to it. The form has
    already refused a bad value, so one reaching here is a programming error."""
    params = ListFiltersParams(
        data={
            "q": filters.q,
            "category": filters.category,
            "source": filters.source,
            "topic": filters.topic,
            "status": filters.status,
            "run_id": filters.run,
            "order": filters.sort,
            "page": filters.page,
            "page_size": page_size,
        }
    )
    params.is_valid(raise_exception=True)
    created_from, created_before = filters.created_range()
    return replace(
        params.list_query(),
        import_id=filters.imported,
        created_from=created_from,
        created_before=created_before,
    )
