"""What every test process shares."""

from __future__ import annotations

from django.conf import global_settings, settings


def pytest_configure() -> None:
    # New passwords are hashed with a cheap hasher, Django's own advice for test suites: a
    # test's user would cost 0.3 s of PBKDF2 per password hashed or checked (hundreds of tests
    # sign in). The production hashers stay listed, so a hash made the production way (for a
    # server process of its own: tests/cluster) still verifies here.
    settings.PASSWORD_HASHERS = [
        "django.contrib.auth.hashers.MD5PasswordHasher",
        *global_settings.PASSWORD_HASHERS,
    ]
