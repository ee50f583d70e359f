"""Every admin label in words of the page's language: app, model, column and
filter names of the service's own tables and of the sign-in and queue apps it installs."""

from __future__ import annotations

import re

import pytest
from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from django.contrib import admin
from django.db import connection
from django.test import Client
from django.urls import reverse
from django_otp.plugins.otp_totp.models import TOTPDevice

from accounts.models import OidcIdentity, TokenRefusal
from lifecycle.models import IngestJob, IngestRejection, RunLedger
from memories.models import AuditEvent, MemorySettings
from memories.services import memory_switches_update

pytestmark = pytest.mark.django_db

# Names that are words in Chinese too (a product, an abbreviation), not untranslated labels.
KEPT = {"TOTP", "IP", "ID", "Agent", "HTTP", "Poco"}
# What the Chinese admin showed before, as Django renders it before CSS.
RAW = (
    "Oidc identitys",
    "Axes",
    "Otp_Totp",
    "Procrastinate jobs",
    "Run id",
    "以 status",
    "Memory save enabled",
    "Memory ids",
)


def english_words(label: str) -> set[str]:
    return set(re.findall(r"[A-Za-z_]{2,}", label)) - KEPT


def labels(html: str) -> list[str]:
    """App and model names, column headers, filter titles and the page title of an admin page."""
    found = re.findall(r"<caption>\s*<a[^>]*>(.*?)</a>", html, re.S)
    found += re.findall(r'<th scope="row" id="[^"]*">\s*(?:<a[^>]*>)?(.*?)<', html, re.S)
    found += re.findall(r'<div class="text">\s*(?:<a[^>]*>|<span>)(.*?)<', html, re.S)
    found += re.findall(r'data-filter-title="(.*?)"', html)
    found += re.findall(r"<summary>(.*?)</summary>", html, re.S)
    found += re.findall(r"<h1>(.*?)</h1>", html, re.S)
    found += re.findall(r"<label[^>]*>([^<]*?):?</label>", html, re.S)
    return [" ".join(label.split()) for label in found if label.strip()]


@pytest.fixture
def a_row_of_each(alice_scope, remember, admin_user):
    """One row in every registered table, so each changelist renders its columns."""
    remember(alice_scope, "“林清”负责“Poco”项目的前端文档评审。")
    memory_switches_update(scope=alice_scope, memory_save_enabled=False)
    owned = {"tenant_id": alice_scope.tenant_id, "user_id": alice_scope.user_id}
    IngestJob.objects.create(**owned, run_id="run-1", source="task_completed", metadata={})
    IngestRejection.objects.create(**owned, run_id="run-2", source="task_completed", reason="x")
    RunLedger.objects.create(**owned, run_id="run-3", explicit_action="add")
    OidcIdentity.objects.create(
        user=admin_user, issuer="https://idp", subject="s1", scope_tenant="t", scope_user="u"
    )
    TokenRefusal.objects.create(token_name="agent", tenant_id="t", edge="v1")
    base = {"user_agent": "ua", "ip_address": "10.0.0.1", "username": "u", "path_info": "/"}
    AccessAttempt.objects.create(
        **base, http_accept="*/*", get_data="", post_data="", failures_since_start=1
    )
    AccessLog.objects.create(**base, http_accept="*/*")
    AccessFailureLog.objects.create(**base, http_accept="*/*")
    TOTPDevice.objects.create(user=admin_user, name="phone")
    with connection.cursor() as cursor:
        cursor.execute(
            "INSERT INTO procrastinate_jobs (queue_name, task_name, args, status)"
            " VALUES ('ingest', 'lifecycle.tasks.ingest', '{}', 'todo')"
        )


def changelists() -> list[str]:
    return [
        reverse(f"admin:{m._meta.app_label}_{m._meta.model_name}_changelist")
        for m in admin.site._registry
    ]


def test_index_and_changelists_have_no_untranslated_labels(admin_client: Client, a_row_of_each):
    untranslated: dict[str, set[str]] = {}
    for url in ["/admin/", *changelists()]:
        page = admin_client.get(url)
        assert page.status_code == 200, url
        html = page.content.decode()
        assert 'lang="zh-hans"' in html
        for raw in RAW:
            assert raw not in html, (url, raw)
        for label in labels(html):
            if english_words(label):
                untranslated.setdefault(url, set()).add(label)
    assert untranslated == {}


def test_ingest_job_page_names_its_fields_and_shows_no_none(admin_client, alice_scope):
    job = IngestJob.objects.create(
        tenant_id=alice_scope.tenant_id,
        user_id=alice_scope.user_id,
        source="task_completed",
        metadata={"run_kind": None, "agent": "writer"},
    )
    html = admin_client.get(reverse("admin:lifecycle_ingestjob_change", args=[job.pk])).content
    page = html.decode()
    assert "Memory ids" not in page and "Inserted count" not in page
    assert "None" not in re.sub(r"<script.*?</script>", "", page, flags=re.S)
    assert not [label for label in labels(page) if english_words(label)]


def test_english_admin_labels_are_english(admin_client: Client, a_row_of_each):
    admin_client.post("/i18n/setlang/", {"language": "en", "next": "/admin/"})
    index = admin_client.get("/admin/").content.decode()
    assert 'lang="en"' in index
    for name in ("Memory", "Sign-in lockout", "Two-factor devices", "Task queue", "Queue jobs"):
        assert name in index
    settings_list = admin_client.get(
        reverse("admin:memories_memorysettings_changelist")
    ).content.decode()
    assert "Save memories" in settings_list
    assert AuditEvent.Page.SUPPORT.label and MemorySettings._meta.verbose_name


def test_queue_job_states_read_as_words_in_cells_and_filter(admin_client: Client, a_row_of_each):
    html = admin_client.get(
        reverse("admin:procrastinate_procrastinatejob_changelist")
    ).content.decode()
    assert "排队中" in html and "执行中" in html  # the cell and the filter's choices
    assert "Todo" not in html and ">todo<" not in html and ">doing<" not in html
    filtered = admin_client.get(
        reverse("admin:procrastinate_procrastinatejob_changelist") + "?status__exact=todo"
    )
    assert filtered.status_code == 200 and "lifecycle.tasks.ingest" in filtered.content.decode()


def test_second_factor_device_form_explains_its_fields_in_the_page_language(
    admin_client: Client, admin_user
):
    from django_otp.plugins.otp_totp.models import TOTPDevice

    device = TOTPDevice.objects.create(user=admin_user, name="phone")
    html = admin_client.get(
        reverse("admin:otp_totp_totpdevice_change", args=[device.pk])
    ).content.decode()
    assert "十六进制编码的密钥" in html and "一个验证码有效的秒数" in html
    for english in ("A hex-encoded secret key", "The time step in seconds", "Is this device"):
        assert english not in html
