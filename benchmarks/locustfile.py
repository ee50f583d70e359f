"""The `make load` scenario (locust): agents of many users searching, managing, listing,
ingesting and asking for context at a fixed rate.

Each simulated user owns one scope (``load-<n>``) and writes only there, so the driver
(benchmarks/load.py) can reconcile every scope's final rows with the writes the service
accepted: the ids answered ``added`` minus those answered ``deleted``, each text once.  Ingest
goes to a separate scope per user (its extractor decides how many facts a job stores).
"""

from __future__ import annotations

import itertools
import json
import os
import random
import threading
from typing import Any

from locust import HttpUser, constant_throughput, events, task

TOKEN = os.environ["LOAD_TOKEN"]
TALLY = os.environ["LOAD_TALLY"]
TENANT = "load"
QUERIES = [
    "技术方案用什么语言写",
    "Atlas 项目的周报",
    "飞书 提醒",
    "code review style",
    "林清擅长什么",
]

_numbers = itertools.count()
_lock = threading.Lock()
accepted: dict[str, dict[str, list[str]]] = {}
ingest_jobs: dict[str, list[str]] = {}


class Agent(HttpUser):
    # Each simulated agent makes one call per second: the rate is fixed by the user count.
    wait_time = constant_throughput(1.0)

    def on_start(self) -> None:
        self.n = next(_numbers)
        self.user_id = f"load-{self.n}"
        self.ids: list[str] = []
        self.headers = {"Authorization": f"Bearer {TOKEN}"}
        with _lock:
            accepted[self.user_id] = {"added": [], "deleted": []}
            ingest_jobs[f"load-ingest-{self.n}"] = []

    def call(self, op: str, body: dict[str, Any], user_id: str | None = None) -> Any:
        payload = {"tenant_id": TENANT, "user_id": user_id or self.user_id, **body}
        with self.client.post(
            f"/v1/memories/{op}", json=payload, headers=self.headers, name=op, catch_response=True
        ) as response:
            if response.status_code >= 500:
                response.failure(f"{response.status_code}")
                return None
            response.success()
            return response.json()

    @task(6)
    def search(self) -> None:
        self.call("search", {"query": random.choice(QUERIES)})

    @task(3)
    def add(self) -> None:
        text = f"负载测试第{next(_numbers)}条：用户偏好用简体中文写“Atlas”的周报。"
        answer = self.call("manage", {"action": "add", "text": text})
        if answer and answer.get("status") == "added":
            self.ids.append(answer["memory_id"])
            with _lock:
                accepted[self.user_id]["added"].append(answer["memory_id"])

    @task(1)
    def delete(self) -> None:
        if not self.ids:
            return
        memory_id = self.ids.pop(random.randrange(len(self.ids)))
        answer = self.call("delete-item", {"memory_id": memory_id})
        if answer and answer.get("status") == "deleted":
            with _lock:
                accepted[self.user_id]["deleted"].append(memory_id)

    @task(2)
    def list_user(self) -> None:
        self.call("list-user", {"page": 1, "page_size": 20})

    @task(2)
    def memory_context(self) -> None:  # not `context`: locust.User has one
        self.call(
            "context", {"input": "请按我的习惯写一份 Atlas 项目的周报。", "run_kind": "interactive"}
        )

    @task(1)
    def ingest(self) -> None:
        scope = f"load-ingest-{self.n}"
        k = next(_numbers)
        messages = [
            {"role": "user", "content": f"以后第{k}号项目的技术方案都使用简体中文，结论先行。"},
            {
                "role": "assistant",
                "content": f"好的，已确认：第{k}号项目的技术方案统一使用简体中文。",
            },
        ]
        answer = self.call(
            "ingest",
            {"run_id": f"load-{k}", "source": "task_completed", "messages": messages},
            user_id=scope,
        )
        if answer and answer.get("job_id"):
            with _lock:
                ingest_jobs[scope].append(answer["job_id"])


@events.test_stop.add_listener
def _write_tally(**_: Any) -> None:
    with open(TALLY, "w", encoding="utf-8") as out:
        json.dump({"accepted": accepted, "ingest_jobs": ingest_jobs}, out)
