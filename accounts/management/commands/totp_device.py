"""``manage.py totp_device <username>``: a TOTP device for a staff user, and its otpauth URI."""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError, CommandParser
from django_otp.plugins.otp_totp.models import TOTPDevice


class Command(BaseCommand):
    help = (
        "Create a confirmed TOTP device for a staff user and print its otpauth:// URI "
        "(scan it in an authenticator app). With POCO_ADMIN_REQUIRE_2FA=1 the admin asks "
        "for its codes."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("username")
        parser.add_argument("--name", default="authenticator", help="the device's name")
        parser.add_argument(
            "--replace", action="store_true", help="delete the user's other TOTP devices first"
        )

    def handle(self, *args: Any, username: str, name: str, replace: bool, **options: Any) -> None:
        user = get_user_model().objects.filter(username=username).first()
        if user is None:
            raise CommandError(f"no user named {username!r}")
        if not user.is_staff:
            raise CommandError(f"{username!r} is not staff: the second factor guards the admin")
        if replace:
            TOTPDevice.objects.filter(user=user).delete()
        device = TOTPDevice.objects.create(user=user, name=name, confirmed=True)
        self.stdout.write(device.config_url)
