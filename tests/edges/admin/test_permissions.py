"""Staff actions that change a user's experience need a named permission, not just staff
status: retrying, cancelling or aborting queue jobs, and a user's two switches."""

from __future__ import annotations

import pytest
from django.contrib import admin
from django.contrib.auth.models import Permission
from django.test import RequestFactory
from procrastinate.contrib.django.models import ProcrastinateJob

from memories.models import MemorySettings

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff(django_user_model):
    user = django_user_model.objects.create_user(username="helper", password="x", is_staff=True)
    user.user_permissions.add(
        Permission.objects.get(codename="view_procrastinatejob"),
        Permission.objects.get(codename="view_memorysettings"),
    )
    return django_user_model.objects.get(pk=user.pk)  # permissions are cached per instance


def request_by(user):
    request = RequestFactory().get("/admin/")
    request.user = user
    return request


def test_queue_job_actions_need_the_change_permission(staff, admin_user):
    job_admin = admin.site._registry[ProcrastinateJob]
    assert not {"retry", "cancel", "abort"} & set(job_admin.get_actions(request_by(staff)))
    assert {"retry", "cancel", "abort"} <= set(job_admin.get_actions(request_by(admin_user)))


def test_switches_need_the_change_permission(staff, admin_user):
    settings_admin = admin.site._registry[MemorySettings]
    assert not settings_admin.has_change_permission(request_by(staff))
    assert settings_admin.has_change_permission(request_by(admin_user))
