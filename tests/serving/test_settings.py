"""Settings are a pure function of the environment: importing them starts nothing."""

from __future__ import annotations

import subprocess
import sys

from tests.processes import ROOT, child_env, postgres_processes, settings_process, wait_gone

PRINT = "from django.conf import settings as s; print(s.{})"


def settings_value(name: str, **env: str) -> str:
    result = settings_process(PRINT.format(name), **env)
    assert result.returncode == 0, result.stderr
    return result.stdout.strip()


def test_importing_settings_starts_no_database(server_data_dir):
    host = settings_value("DATABASES['default']['HOST']", POCO_DATA_DIR=str(server_data_dir))
    assert host == str(server_data_dir / "pg")
    assert postgres_processes(server_data_dir) == []
    assert not (server_data_dir / "pg").exists()


def test_manage_py_starts_and_stops_the_embedded_database(server_data_dir):
    result = subprocess.run(
        [sys.executable, "manage.py", "showmigrations", "lifecycle"],
        env=child_env(POCO_DATA_DIR=str(server_data_dir)),
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=180,
    )
    assert result.returncode == 0, result.stderr
    assert "[ ] 0001_" in result.stdout  # it read the (new, empty) database
    assert wait_gone(server_data_dir) == []


def test_debug_is_off_unless_asked_for(server_data_dir):
    assert settings_value("DEBUG", POCO_DATA_DIR=str(server_data_dir)) == "False"
    assert settings_value("DEBUG", POCO_DATA_DIR=str(server_data_dir), POCO_DEBUG="1") == "True"


def test_production_sends_hsts_and_secure_cookies(server_data_dir):
    production = {
        "POCO_DATA_DIR": str(server_data_dir),
        "POCO_ENV": "production",
        "POCO_SECRET_KEY": "x" * 50,
        "DATABASE_URL": "postgresql://poco@db.internal/poco",
        "POCO_SERVICE_TOKENS": "t" * 40,
        "POCO_ALLOWED_HOSTS": "memory.example.com",
    }
    assert int(settings_value("SECURE_HSTS_SECONDS", **production)) >= 31536000
    for name in ("SESSION_COOKIE_SECURE", "CSRF_COOKIE_SECURE", "LANGUAGE_COOKIE_SECURE"):
        assert settings_value(name, **production) == "True", name
    assert settings_value("SECURE_HSTS_SECONDS", POCO_DATA_DIR=str(server_data_dir)) == "0"
