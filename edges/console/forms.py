"""Forms of the management console: filters, correction, typed delete-all, the two switches."""

from __future__ import annotations

import uuid
from datetime import datetime
from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from edges.console.filters import ListFilters, SearchMode, status_choices
from edges.contract.serializers import MAX_PAGE
from memories.governance import UNSET, Unset
from memories.instants import day_end, service_day
from memories.labels import category_choices, delete_all_phrase, source_choices
from memories.services import MAX_FACT_LENGTH
from memories.types import ListOrder

SEMANTIC_TOP_K = 20
MAX_QUERY_LENGTH = 200


class MemoryFilterForm(forms.Form):
    q = forms.CharField(
        label=_("搜索记忆"),
        required=False,
        max_length=MAX_QUERY_LENGTH,
        error_messages={
            "max_length": _(
                "搜索词最多 %(limit_value)d 个字（这次有 %(show_value)d 个），请缩短后再搜索。"
            )
        },
        widget=forms.TextInput(
            attrs={
                "type": "search",
                "placeholder": _("关键词，例如：飞书 周报"),
                "autocomplete": "off",
            }
        ),
    )
    mode = forms.ChoiceField(
        label=_("搜索方式"),
        required=False,
        choices=[(SearchMode.KEYWORD, _("关键词")), (SearchMode.SEMANTIC, _("语义"))],
    )
    category = forms.ChoiceField(
        label=_("类别"), required=False, choices=[("", _("全部类别")), *category_choices()]
    )
    source = forms.ChoiceField(
        label=_("来源"), required=False, choices=[("", _("全部来源")), *source_choices()]
    )
    sort = forms.ChoiceField(
        label=_("排序"),
        required=False,
        choices=[
            (ListOrder.CREATED.value, _("最近创建")),
            (ListOrder.UPDATED.value, _("最近更新")),
            (ListOrder.USED.value, _("最常被使用")),
            (ListOrder.LAST_USED.value, _("最近被使用")),
        ],
    )
    status = forms.ChoiceField(label=_("状态"), required=False, choices=status_choices)
    date_from = forms.DateField(
        label=_("创建日期从"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    date_to = forms.DateField(
        label=_("到"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    topic = forms.CharField(required=False, max_length=200, widget=forms.HiddenInput)
    # The agent run whose memories to show (the detail page's "此任务记下的记忆").
    run = forms.CharField(required=False, max_length=128, widget=forms.HiddenInput)
    # The import whose memories to show (where an import leads when it is done).
    imported = forms.CharField(required=False, max_length=64, widget=forms.HiddenInput)
    page = forms.IntegerField(required=False, min_value=1, widget=forms.HiddenInput)

    def clean_page(self) -> int | None:
        """A typed number past the last page, however large, is clamped (the list then shows
        and redirects to the last page): one past PostgreSQL's bigint OFFSET was a 503."""
        page: int | None = self.cleaned_data.get("page")
        return None if page is None else min(page, MAX_PAGE)

    def filters(self) -> ListFilters:
        """The valid values; an invalid one falls back to its default (its error is shown)."""
        self.is_valid()
        data: dict[str, Any] = {k: v for k, v in self.cleaned_data.items() if v}
        return ListFilters(**data)


class MemoryEditForm(forms.Form):
    """Correct a memory, or add one by hand: the same fields and the same admission."""

    text = forms.CharField(
        label=_("记忆内容"),
        max_length=MAX_FACT_LENGTH,
        widget=forms.Textarea(attrs={"rows": 4}),
        error_messages={"required": _("记忆内容不能为空。")},
    )
    category = forms.ChoiceField(label=_("类别"), choices=category_choices())
    # The cleaned text the person was shown and accepted: admission cuts links, paths and log
    # lines out, and the console saves such a text only once it was shown.
    accept_cleaned = forms.CharField(required=False, widget=forms.HiddenInput, strip=False)


class MemoryAddForm(MemoryEditForm):
    """Adding by hand also sets how long the memory lasts: left
    empty, the service's default lifetime; a day, valid to its end; or "长期有效"."""

    until = forms.DateField(
        label=_("有效期至"), required=False, widget=forms.DateInput(attrs={"type": "date"})
    )
    forever = forms.BooleanField(label=_("长期有效"), required=False)

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        day = data.get("until")
        if data.get("forever") and day:
            self.add_error("until", _("选了“长期有效”就不要再选日期。"))
        elif day and day < service_day():
            self.add_error("until", _("有效期不能早于今天。"))
        return data

    def valid_until(self) -> datetime | None | Unset:
        """What ``services.memory_add`` takes: UNSET keeps its default lifetime."""
        if self.cleaned_data.get("forever"):
            return None
        day = self.cleaned_data.get("until")
        return day_end(day) if day else UNSET


class DeleteAllForm(forms.Form):
    confirm = forms.CharField(label=_("确认文字"), max_length=50, required=False)

    def clean_confirm(self) -> str:
        value = (self.cleaned_data.get("confirm") or "").strip()
        phrase = delete_all_phrase()
        if value.casefold() != phrase.casefold():
            raise forms.ValidationError(
                _("请输入“%(phrase)s”以确认删除全部记忆。"),
                code="mismatch",
                params={"phrase": phrase},
            )
        return value


class SwitchesForm(forms.Form):
    memory_save_enabled = forms.BooleanField(label=_("保存记忆"), required=False)
    memory_reference_enabled = forms.BooleanField(label=_("参考记忆"), required=False)


MAX_SELECTED = 100


class SelectedForm(forms.Form):
    """Memories ticked in the list (at most ``MAX_SELECTED``; ids that are not UUIDs are
    dropped) and, for a bulk change, the category they all get."""

    category = forms.ChoiceField(
        label=_("改为类别"),
        choices=[("", _("选择类别")), *category_choices()],
        error_messages={"required": _("请选择一个类别。"), "invalid_choice": _("请选择一个类别。")},
    )

    def __init__(self, data: Any, *args: Any, **kwargs: Any) -> None:
        super().__init__(data, *args, **kwargs)
        self.ids: list[str] = []
        for raw in data.getlist("ids")[:MAX_SELECTED]:
            try:
                self.ids.append(str(uuid.UUID(raw)))
            except ValueError:
                continue


MAX_IMPORT_BYTES = 5 * 1024 * 1024


class ImportUploadForm(forms.Form):
    """The JSON file of "导出我的记忆" (this service's export document)."""

    file = forms.FileField(
        label=_("导出文件（JSON）"),
        error_messages={"required": _("请选择一个 JSON 导出文件。")},
        widget=forms.ClearableFileInput(attrs={"accept": ".json,application/json"}),
    )

    def clean_file(self) -> Any:
        upload = self.cleaned_data["file"]
        if upload.size > MAX_IMPORT_BYTES:
            raise forms.ValidationError(
                _("文件太大：最多 %(mb)s MB。"), code="too_large", params={"mb": 5}
            )
        return upload
