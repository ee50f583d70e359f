"""The npm ``mem0ai`` client (pinned in tests/edges/mem0_api/node/) runs the same flows against
/mem0
under Node: skipped, saying why, where Node or npm is missing."""

from __future__ import annotations

import json
import shutil
import subprocess
from pathlib import Path

import pytest

from memories.models import MemoryRow
from tests.edges.mem0_api.conftest import TOKEN

NODE_DIR = Path(__file__).parent / "node"


@pytest.fixture(scope="module")
def node_client() -> Path:
    if not shutil.which("node") or not shutil.which("npm"):
        pytest.skip("needs Node and npm: apt-get install nodejs npm")
    if not (NODE_DIR / "node_modules" / "mem0ai" / "package.json").exists():
        # The pinned lock file, from the npm registry; no install scripts run.
        subprocess.run(
            ["npm", "ci", "--ignore-scripts", "--no-audit", "--no-fund"],
            cwd=NODE_DIR,
            check=True,
            timeout=900,
        )
    return NODE_DIR


def test_the_npm_client_flows(node_client, mem0_host, tmp_path):
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(tmp_path),  # the client keeps a config file under $HOME/.mem0
        "MEM0_DIR": str(tmp_path / "mem0"),
        "MEM0_TELEMETRY": "false",
        "MEM0_HOST": mem0_host,
        "MEM0_TOKEN": TOKEN,
    }
    run = subprocess.run(
        ["node", "flows.mjs"], cwd=node_client, env=env, capture_output=True, text=True, timeout=300
    )
    assert run.returncode == 0, run.stderr + run.stdout
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert seen["ok"] is True and seen["projectId"] == "acme" and seen["eventId"]
    # What the flows left: alice's ingest is queued, her explicit memories and bob's are gone.
    assert MemoryRow.objects.count() == 0
