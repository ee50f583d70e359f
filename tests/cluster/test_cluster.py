"""``make cluster`` under faults: haproxy, two web nodes, two queue workers and one
standalone PostgreSQL, started by this module exactly as ``make cluster`` starts them.

Everything is real; the checks read the cluster's own database and the nodes' own folders.
"""

from __future__ import annotations

import contextlib
import http.cookiejar
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.parse
import urllib.request
import uuid
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any

import psycopg
import pytest

from tests.node_files import files_holding
from tests.processes import ROOT, child_env, free_port, postgres_processes
from tests.support import eventually

pytestmark = pytest.mark.reliability

TOKEN = "cluster-" + uuid.uuid4().hex
TOKEN_NAME = "reliability"
UP_TIMEOUT = 300
FACT = "用户的团队周会固定在每周二上午十点。"


class Cluster:
    def __init__(self, data_dir: Path, process: subprocess.Popen[bytes], log: Path) -> None:
        self.data_dir = data_dir
        self.process = process
        self.log = log
        state = json.loads((data_dir / "cluster.json").read_text())
        self.url = state["url"].rstrip("/")
        self.database_url = state["database_url"]
        self.members = {m["name"]: m for m in state["nodes"]}

    def node_url(self, name: str) -> str:
        return f"http://127.0.0.1:{self.members[name]['port']}"

    def call(self, base: str, op: str, **fields: Any) -> tuple[int, dict[str, Any]]:
        return post(f"{base}/v1/memories/{op}", {"tenant_id": "acme", "user_id": "u1", **fields})

    def sql(self, query: str, *params: Any) -> list[tuple[Any, ...]]:
        with psycopg.connect(self.database_url) as conn:
            return conn.execute(query, params).fetchall()

    def kill(self, name: str) -> None:
        """SIGKILL a member's process group and wait until its port refuses connections: a
        request caught in the dying node's listen queue is in flight, lost as on any machine."""
        member = self.members[name]
        os.killpg(member["pid"], signal.SIGKILL)
        deadline = time.monotonic() + 10
        while member["port"] is not None and time.monotonic() < deadline:
            try:
                socket.create_connection(("127.0.0.1", member["port"]), timeout=1).close()
            except OSError:
                return
            time.sleep(0.1)


def post(url: str, payload: dict[str, Any], method: str = "POST") -> tuple[int, dict[str, Any]]:
    data = json.dumps(payload).encode() if method == "POST" else None
    request = urllib.request.Request(
        url,
        data=data,
        method=method,
        headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"},
    )
    try:
        with urllib.request.urlopen(request, timeout=60) as response:
            return response.status, json.loads(response.read() or b"{}")
    except urllib.error.HTTPError as error:
        body = error.read()
        return error.code, json.loads(body) if body.startswith(b"{") else {"raw": body.decode()}


def scrape(url: str) -> str:
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {TOKEN}"})
    with urllib.request.urlopen(request, timeout=30) as response:
        return response.read().decode()


def alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    return True


@pytest.fixture(scope="module")
def cluster():
    from django.conf import settings

    from poco_memory.cluster import find_haproxy

    if find_haproxy() is None:
        message = "haproxy is missing (apt-get install haproxy)"
        if os.environ.get("POCO_REQUIRE_E2E"):
            pytest.fail(message)
        pytest.skip(message)

    data_dir = settings.DATA_DIR / "test-servers" / f"cluster-{uuid.uuid4().hex[:6]}"
    data_dir.mkdir(parents=True)
    log = data_dir / "cluster.log"
    env = child_env(
        PORT=str(free_port()),
        POCO_CLUSTER_NODE_PORTS=f"{free_port()},{free_port()}",
        POCO_DATA_DIR=str(data_dir),
        POCO_SERVICE_TOKENS=f"{TOKEN_NAME}:{TOKEN}",
        POCO_DEMO_DATA="0",
        # A killed worker's running job is retried by the other one after this long.
        POCO_INGEST_STALLED_AFTER_SECONDS="5",
    )
    with log.open("wb") as out:
        process = subprocess.Popen(
            [sys.executable, "-m", "poco_memory.cluster"],
            env=env,
            cwd=ROOT,
            stdout=out,
            stderr=subprocess.STDOUT,
            start_new_session=True,
        )

    def up() -> bool:
        assert process.poll() is None, log.read_text()[-3000:]
        return (data_dir / "cluster.json").exists()

    eventually(up, what="the cluster up (cluster.json written)", timeout=UP_TIMEOUT, interval=0.2)
    running = Cluster(data_dir, process, log)
    yield running
    if process.poll() is None:  # a test failed before the Ctrl-C test
        process.send_signal(signal.SIGINT)
        try:
            process.wait(timeout=90)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            for member in running.members.values():
                with contextlib.suppress(ProcessLookupError):
                    os.killpg(member["pid"], signal.SIGKILL)
    shutil.rmtree(data_dir, ignore_errors=True)


def test_v1_lifecycle_through_the_balancer(cluster):
    status, added = cluster.call(cluster.url, "manage", action="add", text="用户偏好用飞书沟通。")
    assert status == 200 and added["status"] == "added", added
    memory_id = added["memory_id"]
    status, found = cluster.call(cluster.url, "search", query="飞书")
    assert status == 200 and [i["id"] for i in found["items"]] == [memory_id], found
    status, updated = cluster.call(
        cluster.url, "manage", action="update", memory_id=memory_id, text="用户偏好用钉钉沟通。"
    )
    assert status == 200 and updated["status"] == "updated", updated
    status, listed = cluster.call(cluster.url, "list-user")
    assert status == 200 and [i["content"] for i in listed["items"]] == ["用户偏好用钉钉沟通。"]
    status, history = cluster.call(cluster.url, "history", memory_id=memory_id)
    assert [h["event"] for h in history["items"]] == ["ADD", "UPDATE"], history
    assert {h["actor_id"] for h in history["items"]} == {TOKEN_NAME}
    status, deleted = cluster.call(cluster.url, "delete-user")
    assert status == 200 and deleted["status"] == "deleted", deleted
    status, found = cluster.call(cluster.url, "search", query="钉钉")
    assert status == 200 and found["items"] == [] and found["available"] is True
    # Each node counts its own calls; a scraper adds them up (README, "Cluster").
    calls = 0.0
    for name in ("web-1", "web-2"):
        for line in scrape(f"{cluster.node_url(name)}/metrics").splitlines():
            if line.startswith(f'memory_service_calls_total{{edge="v1",token="{TOKEN_NAME}"}}'):
                calls += float(line.split()[-1])
    assert calls >= 7
    assert TOKEN not in scrape(f"{cluster.node_url('web-1')}/metrics")


BUDGET_LINE = re.compile(r"connections: at most (\d+) .* (within|MORE THAN)")


def test_the_cluster_holds_no_more_connections_than_it_says_and_postgresql_allows(cluster):
    log = eventually(
        cluster.log.read_text,
        until=BUDGET_LINE.search,
        what="the cluster's log stating its connection budget",
        interval=0.2,
    )
    said = BUDGET_LINE.search(log)
    assert said is not None
    assert said.group(2) == "within", said.group(0)
    for _ in range(3):  # the nodes have served requests: their pools are open
        assert cluster.call(cluster.url, "search", query="飞书")[0] == 200
    ((held,),) = cluster.sql(
        "SELECT count(*) FROM pg_stat_activity"
        " WHERE backend_type = 'client backend' AND pid <> pg_backend_pid()"
    )
    assert held <= int(said.group(1))


def test_write_on_a_correct_on_b_delete_on_a_leaves_nothing_anywhere(cluster):
    marker = f"CODE{uuid.uuid4().hex[:10]}"
    a, b = cluster.node_url("web-1"), cluster.node_url("web-2")
    status, added = cluster.call(a, "manage", action="add", text=f"用户的项目代号是 {marker}A。")
    assert status == 200 and added["status"] == "added", added
    memory_id = added["memory_id"]
    status, updated = cluster.call(
        b, "manage", action="update", memory_id=memory_id, text=f"用户的项目代号是 {marker}B。"
    )
    assert status == 200 and updated["status"] == "updated", updated
    status, deleted = cluster.call(a, "manage", action="delete", memory_id=memory_id)
    assert status == 200 and deleted["status"] == "deleted", deleted

    like = f"%{marker}%"
    assert cluster.sql("SELECT id FROM poco_memories WHERE payload::text LIKE %s", like) == []
    assert (
        cluster.sql("SELECT id FROM poco_memories_entities WHERE payload::text LIKE %s", like) == []
    )
    assert (
        cluster.sql(
            "SELECT id FROM memories_auditevent WHERE old_text LIKE %s OR new_text LIKE %s",
            like,
            like,
        )
        == []
    )
    for name in ("web-1", "web-2"):
        node_dir = Path(cluster.members[name]["data_dir"])
        assert files_holding(node_dir, marker) == [], f"{name} keeps the text on its disk"


def test_concurrent_writers_on_one_scope_through_both_nodes_store_each_fact_once(cluster):
    facts = [f"用户的第{n}个习惯是每天{n}点喝茶。" for n in range(1, 6)]
    nodes = [cluster.node_url("web-1"), cluster.node_url("web-2")]
    calls = [(node, fact) for fact in facts for node in nodes]
    with ThreadPoolExecutor(max_workers=len(calls)) as pool:
        answers = list(
            pool.map(lambda c: cluster.call(c[0], "manage", action="add", text=c[1]), calls)
        )
    assert all(status == 200 for status, _ in answers), answers
    outcomes: dict[str, list[str]] = {}
    for (_, fact), (_, answer) in zip(calls, answers, strict=True):
        outcomes.setdefault(fact, []).append(answer["status"])
    for fact in facts:
        assert sorted(outcomes[fact]) == ["added", "no_effect"], (fact, outcomes[fact])
        rows = cluster.sql("SELECT id FROM poco_memories WHERE payload->>'data' = %s", fact)
        assert len(rows) == 1, fact


def test_a_session_and_a_switch_set_through_one_node_hold_on_the_other(cluster):
    """Sessions live in the database and switches are read fresh: sign in on node A, turn
    memory reference off on node B, and node A's /v1 context obeys it."""
    from django.contrib.auth.hashers import make_password

    password = uuid.uuid4().hex
    cluster.sql(
        "INSERT INTO auth_user (password, is_superuser, username, first_name, last_name, "
        "email, is_staff, is_active, date_joined) "
        "VALUES (%s, false, 'carol', '', '', '', false, true, now()) RETURNING id",
        make_password(password, hasher="pbkdf2_sha256"),  # the nodes' own hasher
    )
    a, b = cluster.node_url("web-1"), cluster.node_url("web-2")
    jar = http.cookiejar.CookieJar()  # cookies carry no port: one jar for both nodes
    browser = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(jar))
    browser.open(f"{a}/accounts/login/", timeout=30).read()
    csrf = next(c.value for c in jar if c.name == "csrftoken")
    form = urllib.parse.urlencode(
        {"username": "carol", "password": password, "csrfmiddlewaretoken": csrf}
    ).encode()
    browser.open(f"{a}/accounts/login/", data=form, timeout=30).read()
    assert any(c.name == "sessionid" for c in jar), "login through node A failed"
    csrf = next(c.value for c in jar if c.name == "csrftoken")  # login rotates it

    scope = {"tenant_id": "default", "user_id": "carol"}
    status, added = post(f"{a}/v1/memories/manage", {**scope, "action": "add", "text": FACT})
    assert status == 200 and added["status"] == "added", added
    ask = {**scope, "input": "帮我安排一下下周的团队周会", "run_kind": "interactive"}
    status, context = post(f"{a}/v1/memories/context", ask)
    assert context["injected_count"] == 1, context

    api = f"{b}/api/v1/user-customer-settings/memories/switches"
    switch = urllib.request.Request(
        f"{api}/update",
        data=json.dumps({"memory_reference_enabled": False}).encode(),
        headers={"Content-Type": "application/json", "X-CSRFToken": csrf, "Referer": b},
    )
    answer = json.loads(browser.open(switch, timeout=30).read())
    assert answer["memory_reference_enabled"] is False, answer  # node B knew the session

    status, context = post(f"{a}/v1/memories/context", ask)
    assert status == 200 and context["injected_count"] == 0, context


def test_killing_one_web_node_leaves_the_balancer_answering(cluster):
    cluster.kill("web-2")
    answers = [cluster.call(cluster.url, "search", query="喝茶") for _ in range(8)]
    assert [status for status, _ in answers] == [200] * 8, answers
    assert all(body["available"] is True and body["items"] for _, body in answers)
    status, added = cluster.call(cluster.url, "manage", action="add", text="用户住在杭州。")
    assert status == 200 and added["status"] == "added", added


def test_killing_one_worker_lets_the_other_finish_the_jobs(cluster):
    messages = [
        {"role": "user", "content": "以后所有技术方案都使用简体中文。"},
        {"role": "assistant", "content": "好的，已确认：技术方案统一使用简体中文。"},
    ]
    jobs = []
    for n in range(3):
        status, accepted = cluster.call(
            cluster.url, "ingest", run_id=f"run-{n}", source="task_completed", messages=messages
        )
        assert status == 202, accepted
        jobs.append(accepted["job_id"])
    cluster.kill("worker-1")  # whatever it had taken is stalled now
    deadline = time.monotonic() + 120
    pending = set(jobs)
    while pending:
        assert time.monotonic() < deadline, f"jobs never finished: {pending}"
        for job_id in list(pending):
            status, job = post(
                f"{cluster.url}/v1/memories/ingest/{job_id}?tenant_id=acme&user_id=u1",
                {},
                method="GET",
            )
            assert status == 200, job
            # "retrying" is waiting too: the upkeep found the killed worker's attempt
            # interrupted, and the job waits for another worker to take it.
            if job["status"] not in {"queued", "running", "retrying"}:
                assert job["status"] in {"succeeded", "no_effect"}, job
                pending.discard(job_id)
        time.sleep(1)
    assert alive(cluster.members["worker-2"]["pid"])


def test_ctrl_c_stops_all_of_it(cluster):
    cluster.process.send_signal(signal.SIGINT)
    assert cluster.process.wait(timeout=90) == 0, cluster.log.read_text()[-3000:]
    assert "Poco Memory cluster stopped." in cluster.log.read_text()
    for name, member in cluster.members.items():
        assert not alive(member["pid"]), f"{name} still runs"
    assert postgres_processes(cluster.data_dir) == []
    leftover = subprocess.run(
        ["pgrep", "-f", str(cluster.data_dir)], capture_output=True, text=True, check=False
    )
    assert leftover.stdout.strip() == "", leftover.stdout
