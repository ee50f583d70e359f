"""The memory admin's list filters: payload keys, the user, creation time, coded columns
shown as words, and status as readers see it."""

from __future__ import annotations

from datetime import timedelta
from typing import Any

from django.contrib import admin
from django.contrib.admin.options import IncorrectLookupParameters
from django.db.models import Count, DateTimeField, QuerySet
from django.db.models.fields.json import KT
from django.db.models.functions import Cast
from django.http import HttpRequest
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from memories.labels import (
    ACTOR_LABELS,
    SOURCE_LABELS,
    STATUS_LABELS,
    category_choices,
    source_choices,
)
from memories.models import MemoryRow
from memories.selectors import rows_with_status


def text_filter_value(value: str | None) -> str | None:
    """A filter's value that PostgreSQL can compare with text: a NUL byte is refused as Django
    refuses a bad lookup (the list without filters, "e=1"), never sent to SQL (a DataError)."""
    if value and "\x00" in value:
        raise IncorrectLookupParameters("a filter value holds a NUL byte")
    return value


class PayloadKeyFilter(admin.SimpleListFilter):
    payload_key = ""

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = text_filter_value(self.value())
        if not value:
            return queryset
        return queryset.alias(_key=KT(f"payload__{self.payload_key}")).filter(_key=value)


class CategoryFilter(PayloadKeyFilter):
    title = _("类别")
    parameter_name = "category"
    payload_key = "category"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return list(category_choices())


class SourceFilter(PayloadKeyFilter):
    title = _("来源")
    parameter_name = "source"
    payload_key = "source"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return list(source_choices())


class MemoryUserFilter(admin.SimpleListFilter):
    """The memories of one user (scope ``tenant:user``), the users with most memories first."""

    title = _("用户")
    parameter_name = "scope"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        users = (
            MemoryRow.objects.annotate(owner=KT("payload__user_id"))
            .values_list("owner")
            .annotate(n=Count("id"))
            .order_by("-n")[:30]
        )
        return [(owner, owner) for owner, _n in users if owner]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = text_filter_value(self.value())
        if not value:
            return queryset
        return queryset.alias(_owner=KT("payload__user_id")).filter(_owner=value)


class CreatedWithinFilter(admin.SimpleListFilter):
    title = _("创建时间")
    parameter_name = "created_within"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [("1", _("今天起 24 小时内")), ("7", _("最近 7 天")), ("30", _("最近 30 天"))]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = self.value()
        if value not in {"1", "7", "30"}:
            return queryset
        since = timezone.now() - timedelta(days=int(value))
        return queryset.alias(_created=Cast(KT("payload__created_at"), DateTimeField())).filter(
            _created__gte=since
        )


class WordsFilter(admin.SimpleListFilter):
    """A filter on a code column whose values are shown as words."""

    labels: dict[str, Any] = {}

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return [(code, label) for code, label in self.labels.items()]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = text_filter_value(self.value())
        return queryset.filter(**{str(self.parameter_name): value}) if value else queryset


class AuditSourceFilter(WordsFilter):
    title = _("来源")
    parameter_name = "source"
    labels = SOURCE_LABELS


class AuditActorFilter(WordsFilter):
    title = _("操作者类型")
    parameter_name = "actor_kind"
    labels = ACTOR_LABELS


class GovernanceStatusFilter(admin.SimpleListFilter):
    """Status as readers see it: past its valid_until a memory is expired before the sweep."""

    title = _("状态")
    parameter_name = "status"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        return list(STATUS_LABELS.items())

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = self.value()
        if value not in STATUS_LABELS:
            return queryset
        return rows_with_status(queryset, str(value), now=timezone.now())
