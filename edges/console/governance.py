"""The detail page's governance card: key, status and expiry in human words, and the form that
extends or clears the expiry (``templates/console/_governance.html``)."""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from memories.instants import day_end, service_day
from memories.labels import status_label
from memories.types import MemoryRecord, MemoryStatus

EXTEND_BY = dt.timedelta(days=365)


@dataclass(frozen=True)
class GovernanceItem:
    memory_id: str
    memory_key: str
    status: str
    status_label: str
    valid_until: dt.datetime | None
    superseded_by: str

    @property
    def can_change_expiry(self) -> bool:
        # A superseded memory is history: making it last longer would change nothing.
        return self.status != MemoryStatus.SUPERSEDED


def governance_item(record: MemoryRecord) -> GovernanceItem:
    return GovernanceItem(
        memory_id=record.id,
        memory_key=record.memory_key,
        status=record.status,
        status_label=status_label(record.status),
        valid_until=record.valid_until,
        superseded_by=record.superseded_by,
    )


class ValidityForm(forms.Form):
    """Extend by a year, pick a day (valid to its end, in the user's time zone) or clear."""

    ACTIONS = (("extend", _("延长一年")), ("date", _("设为指定日期")), ("clear", _("长期有效")))
    action = forms.ChoiceField(choices=ACTIONS)
    until = forms.DateField(required=False, label=_("有效期至"))

    def clean(self) -> dict[str, object]:
        data = super().clean() or {}
        if data.get("action") == "date":
            day = data.get("until")
            if not isinstance(day, dt.date):
                self.add_error("until", _("请选择一个日期。"))
            elif day <= service_day():
                self.add_error("until", _("请选择今天以后的日期。"))
        return data

    def valid_until(self, current: dt.datetime | None) -> dt.datetime | None:
        """The new expiry the form asks for (None: never expires)."""
        action = self.cleaned_data["action"]
        if action == "clear":
            return None
        if action == "extend":
            now = timezone.now()
            return max(current or now, now) + EXTEND_BY
        return day_end(self.cleaned_data["until"])
