"""mem0ai's own clients against a live server on the test database (nothing of the service
faked). The client's telemetry is off before it is first imported: nothing leaves the machine."""

from __future__ import annotations

import os
import tempfile

# Before mem0 is imported anywhere in this process (the engine sets the same values).
os.environ["MEM0_TELEMETRY"] = "False"
os.environ.setdefault("MEM0_DIR", tempfile.mkdtemp(prefix="mem0-client-"))

import pytest  # noqa: E402

TENANT = "acme"
TOKEN = "tok-acme-0123456789"  # bound to one tenant: the tenant comes from the token
OTHER_TOKEN = "tok-beta-0123456789"  # bound to another tenant
WIDE_TOKEN = "tok-wide-0123456789"  # every tenant: the tenant comes from X-Poco-Tenant-Id
TOKENS = [f"agents:{TOKEN}:{TENANT}", f"beta:{OTHER_TOKEN}:beta", f"wide:{WIDE_TOKEN}"]


@pytest.fixture
def mem0_host(live_server, settings) -> str:
    settings.SERVICE_TOKENS = TOKENS
    return f"{live_server.url}/mem0"


@pytest.fixture
def client(mem0_host):
    from mem0 import MemoryClient

    memory_client = MemoryClient(api_key=TOKEN, host=mem0_host)
    yield memory_client
    memory_client.client.close()
