"""How the staff admin pages show stored values, shared by the memory and lifecycle admins.

Local times, memory ids as links, links to a user's support page, stored key/values as a
table, and the filter by user of tables with ``tenant_id``/``user_id`` columns.  Kept apart
so neither admin module imports the other.
"""

from __future__ import annotations

from datetime import datetime
from typing import Any
from urllib.parse import urlencode

from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.html import format_html, format_html_join
from django.utils.safestring import SafeString
from django.utils.translation import gettext_lazy as _

from edges.support import memory_refs
from memories.instants import read_instant, service_zone
from memories.labels import category_label, source_label, status_label

MEMORY_LINK_TEMPLATE = "admin/memories/_memory_link.html"


def local_time(value: datetime | str | None) -> str:
    """A stored instant (datetime or the payload's ISO string, read by the one reader) in the
    service's time zone (``TIME_ZONE``, Asia/Shanghai by default), the console's clock."""
    moment = read_instant(value)
    if moment is None:
        return ""
    return timezone.localtime(moment, service_zone()).strftime("%Y-%m-%d %H:%M")


def _metadata_value(key: str, value: Any) -> str:
    """A stored value as staff read it: times in the admin's one local format, labels for the
    codes the console shows as words, yes/no for flags, nothing as "—"."""
    if value is None or value == "":
        return "—"
    if key.endswith(("_at", "_until")) and isinstance(value, str):
        return local_time(value) or str(value)
    if isinstance(value, bool):
        return str(_("是") if value else _("否"))
    if key == "category":
        return category_label(str(value))
    if key == "source":
        return source_label(str(value))
    if key == "status":
        return status_label(str(value))
    return str(value)


def metadata_rows(values: dict[str, Any], hidden: frozenset[str] = frozenset()) -> SafeString:
    """Stored key/values as a table, each value as staff read it (``_metadata_value``)."""
    rows = sorted((k, _metadata_value(k, v)) for k, v in values.items() if k not in hidden)
    if not rows:
        return format_html("{}", "—")
    return format_html(
        "<table>{}</table>", format_html_join("", "<tr><th>{}</th><td>{}</td></tr>", rows)
    )


def memory_link(memory_id: Any) -> SafeString | str:
    """A memory id that links to the memory (or says it is gone), never wrapping; the same
    template draws the ids of the support page."""
    if memory_id is None:
        return "—"  # a staff view of a page of memories names no single one
    (ref,) = memory_refs([memory_id])
    return render_to_string(MEMORY_LINK_TEMPLATE, {"ref": ref})


def support_link(tenant_id: str, user_id: str) -> SafeString:
    """The user ``tenant:user`` as a link to their support page."""
    url = reverse("admin:memories_support") + "?" + urlencode({"scope": f"{tenant_id}:{user_id}"})
    return format_html('<a href="{}">{}:{}</a>', url, tenant_id, user_id)


class ScopeUserFilter(admin.SimpleListFilter):
    """One user's rows of a Django table with ``tenant_id``/``user_id`` columns."""

    title = _("用户")
    parameter_name = "scope"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, Any]]:
        rows = (
            model_admin.model.objects.values_list("tenant_id", "user_id")
            .annotate(n=Count("id"))
            .order_by("-n")[:30]
        )
        return [(f"{t}:{u}", f"{t}:{u}") for t, u, _n in rows]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Any]) -> QuerySet[Any]:
        value = self.value()
        if not value or ":" not in value:
            return queryset
        tenant_id, user_id = value.split(":", 1)
        return queryset.filter(tenant_id=tenant_id, user_id=user_id)
