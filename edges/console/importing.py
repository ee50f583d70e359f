"""导入记忆: the JSON file of "导出我的记忆", previewed, then imported once confirmed.

Step one uploads the file and shows what the import would do — what would be added, what
admission refuses (named by its place in the file and the reason in words, never its text) and
what is skipped as a duplicate or as history — and writes nothing. Step two posts the memories
to add back (a hidden field: nothing of the file is kept on the server between the steps) and
imports them through the same rules as every add; the import decides again, so a memory
written in between is still not duplicated.
"""

from __future__ import annotations

import json
from typing import Any
from urllib.parse import urlencode

from django.contrib import messages
from django.http import HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods

from edges.console.forms import ImportUploadForm
from edges.console.views.base import (
    HtmxHttpRequest,
    console_login_required,
    request_actor,
    request_scope,
)
from edges.contract.export_reader import (
    ExportDocument,
    Problem,
    read_export_file,
    read_export_items,
)
from memories.export_document import EXPORT_VERSION
from memories.labels import category_label, rejection_label
from memories.ops import portability
from memories.types import BackendError

# How many items of each group the preview lists (the counts are always whole).
PREVIEW_SHOWN = 200

SKIP_LABELS = {
    "duplicate": gettext_lazy("与已有记忆重复"),
    "expired": gettext_lazy("已过期"),
    "not_active:superseded": gettext_lazy("已被替代的旧记忆"),
    "not_active:expired": gettext_lazy("已过期"),
}
REFUSAL_LABELS = {
    "low_confidence": gettext_lazy("可信度太低"),
    "invalid_memory_key": gettext_lazy("记忆键格式不对"),
    "valid_until_past": gettext_lazy("有效期已过"),
    "invalid_text": gettext_lazy("内容为空或太长"),
}


def _document(raw: str | bytes) -> tuple[list[dict[str, Any]] | None, str]:
    """The validated memories of an export document, or None and why not (in words)."""
    read = read_export_file(raw)
    if isinstance(read, ExportDocument):
        return read.memories, ""
    if read.problem == Problem.NOT_JSON:
        return None, _("这不是有效的 JSON 文件。请上传“导出我的记忆”得到的 JSON 文件。")
    if read.problem == Problem.NOT_EXPORT:
        return None, _("这不是本服务导出的记忆文件（格式或版本不对）。")
    if read.problem == Problem.EMPTY:
        return None, _("文件里没有记忆。")
    return None, _("文件中有 %(count)s 处内容不符合导出格式，没有导入任何内容。") % {
        "count": len(read.errors.get("memories") or read.errors) or 1
    }


def _portable(items: list[dict[str, Any]]) -> str:
    """The validated items as JSON for the confirmation form (times as ISO strings)."""
    return json.dumps(
        [{k: v.isoformat() if hasattr(v, "isoformat") else v for k, v in i.items()} for i in items],
        ensure_ascii=False,
        separators=(",", ":"),
        default=str,
    )


def _reason_label(item: portability.PreviewItem) -> str:
    reason = item.reason or ""
    if item.decision == portability.PreviewDecision.SKIP:
        return str(SKIP_LABELS.get(reason, reason))
    if item.decision == portability.PreviewDecision.REFUSE:
        return str(REFUSAL_LABELS.get(reason) or rejection_label(reason))
    return _("替代同一记忆键的现有记忆") if reason == "replaces" else ""


def _group(items: tuple[portability.PreviewItem, ...]) -> dict[str, Any]:
    return {
        "count": len(items),
        "shown": [
            {
                "number": i.index + 1,
                "content": i.content,
                "category": i.category,
                "category_label": category_label(i.category),
                "reason": _reason_label(i),
                "removed": list(i.removed),
            }
            for i in items[:PREVIEW_SHOWN]
        ],
        "more": max(0, len(items) - PREVIEW_SHOWN),
        "cleaned": sum(1 for i in items if i.removed),
    }


def _page(request: HtmxHttpRequest, context: dict[str, Any], status: int = 200) -> HttpResponse:
    return render(request, "console/memory_import.html", context, status=status)


@console_login_required
@require_http_methods(["GET", "POST"])
def memory_import(request: HtmxHttpRequest) -> HttpResponse:
    scope = request_scope(request)
    if request.method != "POST":
        return _page(request, {"form": ImportUploadForm()})
    if "document" in request.POST:  # step two: the confirmed preview
        read = read_export_items(request.POST["document"], version=EXPORT_VERSION)
        items = read.memories if isinstance(read, ExportDocument) else None
        problem = ""
        if not items:
            problem = problem or _("确认的内容无效，请重新上传文件。")
            notice = {"level": "error", "text": problem}
            return _page(request, {"form": ImportUploadForm(), "notice": notice}, status=400)
        report = portability.memory_import(scope=scope, items=items, actor=request_actor(request))
        counts = {
            "added": report.count("added"),
            "skipped": report.count("no_effect"),
            "refused": report.count("rejected"),
        }
        if not report.success:
            failure = (
                _(
                    "导入没有完成：记忆服务暂时不可用。已导入 %(added)s 条，其余没有导入；"
                    "再导入一次同一个文件即可补齐（已导入的不会重复）。"
                )
                % counts
            )
            context = {"form": ImportUploadForm(), "notice": {"level": "error", "text": failure}}
            return _page(request, context, status=503)
        done = _("已导入 %(added)s 条记忆，下面列出的就是这次导入的。") % counts
        if counts["skipped"] or counts["refused"]:  # written in between the two steps
            rest = _("另有 %(skipped)s 条已经存在、%(refused)s 条不能保存，没有导入。")
            done += " " + rest % counts
        messages.success(request, done)
        if not counts["added"]:
            return redirect("console:memories")
        # What came in, and only that: the list filtered to this import (a chip clears it).
        return redirect(
            f"{reverse('console:memories')}?{urlencode({'imported': report.import_id})}"
        )
    # step one: upload and preview
    form = ImportUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return _page(request, {"form": form}, status=422)
    items, problem = _document(form.cleaned_data["file"].read())
    if items is None:
        form.add_error("file", problem)
        return _page(request, {"form": form}, status=422)
    try:
        preview = portability.import_preview(scope=scope, items=items)
    except BackendError:
        notice = {
            "level": "error",
            "text": _("预览失败：记忆服务暂时不可用，没有导入任何内容。请稍后重试。"),
        }
        return _page(request, {"form": form, "notice": notice}, status=503)
    context = {
        "form": ImportUploadForm(),
        "file_name": form.cleaned_data["file"].name,
        "preview": {
            "added": _group(preview.added),
            "refused": _group(preview.refused),
            "skipped": _group(preview.skipped),
            "total": len(preview.items),
        },
        # Only what would be added goes back: nothing refused (it may hold a secret) or skipped
        # sits in the page; the import decides again anyway.
        "document": _portable([items[item.index] for item in preview.added]),
    }
    return _page(request, context)
