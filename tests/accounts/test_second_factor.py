"""Staff second factor (django-otp TOTP) for the admin: POCO_ADMIN_REQUIRE_2FA."""

from __future__ import annotations

from io import StringIO
from urllib.parse import parse_qs, urlsplit

import pytest
from django.core.management import CommandError, call_command
from django.test import Client
from django_otp.oath import totp
from django_otp.plugins.otp_totp.models import TOTPDevice

pytestmark = pytest.mark.django_db

ADMIN = "/admin/"
ADMIN_LOGIN = "/admin/login/?next=/admin/"


@pytest.fixture
def staff(django_user_model):
    return django_user_model.objects.create_user(
        username="ops", password="ops-pass-1", is_staff=True, is_superuser=True
    )


@pytest.fixture
def device(staff) -> TOTPDevice:
    out = StringIO()
    call_command("totp_device", "ops", stdout=out)
    return TOTPDevice.objects.get(user=staff)


def current_code(device: TOTPDevice) -> str:
    return f"{totp(device.bin_key, step=device.step, t0=device.t0, digits=device.digits):06d}"


def test_command_creates_a_confirmed_device_and_prints_its_uri(staff):
    out = StringIO()
    call_command("totp_device", "ops", stdout=out)
    uri = urlsplit(out.getvalue().strip())
    assert uri.scheme == "otpauth"
    assert uri.netloc == "totp"
    assert uri.path == "/Poco%20Memory%3Aops"
    params = parse_qs(uri.query)
    assert params["issuer"] == ["Poco Memory"]
    device = TOTPDevice.objects.get(user=staff)
    assert device.confirmed
    assert params["secret"][0]  # base32 of device.bin_key
    call_command("totp_device", "ops", "--replace", stdout=StringIO())
    assert TOTPDevice.objects.filter(user=staff).count() == 1


def test_command_refuses_unknown_and_non_staff_users(django_user_model):
    django_user_model.objects.create_user(username="plain", password="plain-pass-1")
    with pytest.raises(CommandError, match="no user"):
        call_command("totp_device", "nobody", stdout=StringIO())
    with pytest.raises(CommandError, match="not staff"):
        call_command("totp_device", "plain", stdout=StringIO())
    assert not TOTPDevice.objects.exists()


def test_without_the_setting_a_password_opens_the_admin(staff, settings):
    settings.ADMIN_REQUIRE_2FA = False
    client = Client()
    response = client.post(ADMIN_LOGIN, {"username": "ops", "password": "ops-pass-1"})
    assert response.status_code == 302
    assert client.get(ADMIN).status_code == 200


def test_with_the_setting_a_password_alone_is_not_enough(staff, device, settings):
    settings.ADMIN_REQUIRE_2FA = True
    client = Client()
    page = client.get(ADMIN_LOGIN).content.decode()
    assert 'name="otp_token"' in page
    response = client.post(ADMIN_LOGIN, {"username": "ops", "password": "ops-pass-1"})
    assert response.status_code == 200  # the form again, with an error
    assert client.get(ADMIN).status_code == 302
    wrong = client.post(
        ADMIN_LOGIN,
        {
            "username": "ops",
            "password": "ops-pass-1",
            "otp_device": device.persistent_id,
            "otp_token": "000000" if current_code(device) != "000000" else "111111",
        },
    )
    assert wrong.status_code == 200
    assert client.get(ADMIN).status_code == 302


def test_with_the_setting_the_code_opens_the_admin(staff, device, settings):
    settings.ADMIN_REQUIRE_2FA = True
    client = Client()
    response = client.post(
        ADMIN_LOGIN,
        {
            "username": "ops",
            "password": "ops-pass-1",
            "otp_device": device.persistent_id,
            "otp_token": current_code(device),
        },
    )
    assert response.status_code == 302
    assert client.get(ADMIN).status_code == 200


def test_a_console_session_is_not_a_verified_admin_session(staff, device, settings):
    settings.ADMIN_REQUIRE_2FA = True
    client = Client()
    assert (
        client.post("/accounts/login/", {"username": "ops", "password": "ops-pass-1"}).status_code
        == 302
    )
    assert client.get("/").status_code == 200  # the console is theirs
    assert client.get(ADMIN)["Location"].startswith("/admin/login/")
