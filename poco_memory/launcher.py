"""``make run``: database, migrations, demo data, web server and queue worker in one command.

This process owns the embedded PostgreSQL (when DATABASE_URL is unset) and hands its URL to the
children, so they never start a server of their own.  Ctrl-C or SIGTERM stops the children
first, then the database: nothing is left running.
"""

from __future__ import annotations

import os
import secrets
import shutil
import signal
import subprocess
import sys
import time
from types import FrameType

PORT = int(os.environ.get("PORT", "8000"))
HOST = os.environ.get("POCO_HOST", "127.0.0.1")


def _service_token(settings: object) -> str:
    tokens: list[str] = getattr(settings, "SERVICE_TOKENS", [])
    if tokens:
        return tokens[0]
    path = settings.SERVICE_TOKEN_FILE  # type: ignore[attr-defined]
    token = secrets.token_urlsafe(32)
    path.write_text(token + "\n")
    path.chmod(0o600)
    return token


def main() -> int:
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "poco_memory.settings")
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    token = _service_token(settings)
    call_command("migrate", interactive=False, verbosity=0)
    demo_login = ""
    if settings.DEMO_DATA:
        call_command("seed_demo", verbosity=0)
        password = (settings.DATA_DIR / "demo_password").read_text().strip()
        demo_login = f"demo / {password}"

    # Web and worker counters are merged by /metrics through a shared folder.
    metrics_dir = settings.DATA_DIR / "metrics"
    shutil.rmtree(metrics_dir, ignore_errors=True)
    metrics_dir.mkdir(parents=True)
    env = {
        **os.environ,
        "DATABASE_URL": settings.DATABASE_URL,
        "POCO_SERVICE_TOKENS": token,
        "PROMETHEUS_MULTIPROC_DIR": str(metrics_dir),
    }
    manage = [sys.executable, str(settings.BASE_DIR / "manage.py")]
    children = [
        subprocess.Popen([*manage, "runserver", "--noreload", f"{HOST}:{PORT}"], env=env),
    ]
    worker = [*manage, "procrastinate", "worker", "--queues", "ingest"]
    children.append(subprocess.Popen(worker, env=env))

    stopping = False

    def _stop(signum: int, frame: FrameType | None) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGINT, _stop)
    signal.signal(signal.SIGTERM, _stop)
    print(f"\nPoco Memory is running on http://{HOST}:{PORT}/", flush=True)
    print(f"  /v1 service token: {token}", flush=True)
    if demo_login:
        print(f"  console login:     {demo_login}", flush=True)
    print("  press Ctrl-C to stop\n", flush=True)

    exit_code = 0
    while not stopping:
        for child in children:
            if child.poll() is not None:
                exit_code = child.returncode or 1
                stopping = True
        time.sleep(0.5)
    for child in children:
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
    for child in children:
        try:
            child.wait(timeout=20)
        except subprocess.TimeoutExpired:
            child.kill()
    from poco_memory import embedded_db

    embedded_db.stop()
    print("Poco Memory stopped.", flush=True)
    return exit_code


if __name__ == "__main__":
    sys.exit(main())
