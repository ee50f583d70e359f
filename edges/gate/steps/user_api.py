"""The user API door: a signed-in user sees their own memories and nothing of another user's."""

from __future__ import annotations

import json
import urllib.request
from typing import Any
from urllib.parse import quote

from edges.gate import release
from edges.gate.fixtures import CONSOLE_A, CONSOLE_B, CONSOLE_B_QUERY, USER_API
from edges.gate.harness import Gate, Step
from edges.gate.service import Answer


class Browser:
    """A signed-in user's requests to the user API (session cookie and CSRF, as the page
    sends them)."""

    def __init__(self, gate: Gate, user: release.ConsoleUser) -> None:
        self.gate, self.user = gate, user
        self.csrf = release.csrf_secret()
        session_name, csrf_name = release.cookie_names()
        self.cookie = f"{session_name}={user.session_key}; {csrf_name}={self.csrf}"

    def call(self, method: str, path: str, payload: dict[str, Any] | None = None) -> Answer:
        base = self.gate.service.url
        request = urllib.request.Request(
            base + USER_API + path,
            data=json.dumps(payload).encode() if payload is not None else None,
            method=method,
            headers={
                "Cookie": self.cookie,
                "X-CSRFToken": self.csrf,
                "Referer": base + "/",
                "Origin": base,
                "Content-Type": "application/json",
                "Accept": "application/json",
            },
        )
        service = self.gate.service
        answer = service.send(request)
        if isinstance(answer, OSError):
            service.server_errors.append(f"{method} {path}: no answer ({answer})")
            return Answer(0, None)
        if answer.status >= 500:
            service.server_errors.append(f"{method} {USER_API}{path}: {answer.status}")
        return answer


def user_api(gate: Gate) -> None:
    own, other = gate.scope("console-a"), gate.scope("console-b")
    mine = gate.service.v1("manage", own.body(action="add", text=CONSOLE_A)).get("memory_id")
    theirs = gate.service.v1("manage", other.body(action="add", text=CONSOLE_B)).get("memory_id")
    if not gate.check("user_api.setup", bool(mine and theirs), f"adds gave {mine} and {theirs}"):
        return
    user = release.console_user(own.as_memory_scope())
    try:
        browser = Browser(gate, user)
        listed = browser.call("GET", "/vector?status=all")
        ids = [m.get("id") for m in listed.get("items") or []]
        own_read = browser.call("GET", f"/{mine}")
        gate.check(
            "user_api.own",
            listed.status == 200 and ids == [mine] and own_read.status == 200,
            f"list {listed.status} {ids}; own memory {own_read.status}"
            + (
                ": the signed-in session was refused (does the verify process have the "
                "service's POCO_SECRET_KEY?)"
                if listed.status in (401, 403)
                else ""
            ),
        )
        search = browser.call("GET", f"/search?q={quote(CONSOLE_B_QUERY)}")
        hits = [h.get("id") for h in search.get("items") or []]
        gate.check(
            "user_api.isolation.recall",
            search.status == 200 and theirs not in hits and theirs not in ids,
            f"search {search.status} {hits}; list {ids}",
        )
        read = browser.call("GET", f"/{theirs}")
        history = browser.call("GET", f"/{theirs}/history")
        gate.check(
            "user_api.isolation.read",
            read.status in (403, 404) and history.status in (403, 404),
            f"another user's memory: detail {read.status}, history {history.status}",
        )
        edit = browser.call("POST", f"/{theirs}/update", {"text": "changed by another user"})
        gate.check(
            "user_api.isolation.update",
            edit.status in (403, 404),
            f"update of another user's memory: {edit.status} {edit.body}",
        )
        drop = browser.call("POST", f"/{theirs}/delete")
        gate.check(
            "user_api.isolation.delete",
            drop.status in (403, 404),
            f"delete of another user's memory: {drop.status} {drop.body}",
        )
        kept = [(m["id"], m["content"]) for m in gate.listed(other)]
        gate.check(
            "user_api.isolation.owner_unchanged",
            kept == [(theirs, CONSOLE_B)],
            f"the other user's memory now: {kept}",
        )
    finally:
        release.drop_console_user(user)


STEP = Step("user-api", user_api, local=True)
