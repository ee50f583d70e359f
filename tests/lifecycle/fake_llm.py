"""A local OpenAI-compatible chat endpoint that answers from a script (tests only).

The engine talks to it exactly as it would talk to a remote LLM: real HTTP, the real OpenAI
client, Mem0's real parsing. Each call takes the next entry of the script:

* a list of facts (dicts, see ``fact``) -> a chat.completion whose message content is
  ``{"memory": [...]}``, the JSON Mem0 expects;
* a ``str`` -> that exact message content;
* an ``int`` -> an HTTP error with that status;
* a callable -> called with the request body, its return value is used as above.

When the script is used up, ``then`` answers every further call (default: HTTP 500, so an
unexpected extra call fails loudly). Every request body and its arrival time are recorded.
"""

from __future__ import annotations

import json
import re
import threading
import time
from collections.abc import Callable, Sequence
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

Answer = list[dict[str, Any]] | str | int
Entry = Answer | Callable[[dict[str, Any]], Answer]


def fact(text: str, attributed_to: str | None = "user") -> dict[str, Any]:
    """One extracted fact as the LLM returns it (``attributed_to=None`` leaves the key out)."""
    item: dict[str, Any] = {"text": text}
    if attributed_to is not None:
        item["attributed_to"] = attributed_to
    return item


def _memory_json(facts: list[dict[str, Any]]) -> str:
    numbered = [{"id": str(i), **f} for i, f in enumerate(facts)]
    return json.dumps({"memory": numbered}, ensure_ascii=False)


class FakeLLM:
    def __init__(self, script: Sequence[Entry] = (), *, then: Entry | None = None) -> None:
        self._script = list(script)
        self._then = then
        self._lock = threading.Lock()
        self.requests: list[dict[str, Any]] = []
        self.arrivals: list[float] = []  # time.monotonic() of each request
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), self._handler())
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)

    # --- lifecycle ---------------------------------------------------------------------------
    def start(self) -> FakeLLM:
        self._thread.start()
        return self

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self._server.server_port}/v1"

    # --- what the engine sent ----------------------------------------------------------------
    @property
    def calls(self) -> int:
        with self._lock:
            return len(self.requests)

    @property
    def prompts(self) -> list[str]:
        """The user prompt (Mem0's extraction prompt with the messages) of every call."""
        with self._lock:
            requests = list(self.requests)
        return [
            next(m["content"] for m in reversed(r["messages"]) if m["role"] == "user")
            for r in requests
        ]

    # --- serving -----------------------------------------------------------------------------
    def _next(self, body: dict[str, Any]) -> Answer:
        with self._lock:
            self.requests.append(body)
            self.arrivals.append(time.monotonic())
            entry = self._script.pop(0) if self._script else self._then
        if entry is None:
            return 500
        return entry(body) if callable(entry) else entry

    def _handler(self) -> type[BaseHTTPRequestHandler]:
        llm = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self) -> None:  # noqa: N802 - http.server API
                if self.path.rstrip("/") != "/v1/chat/completions":
                    self._send(404, {"error": {"message": f"no route {self.path}"}})
                    return
                length = int(self.headers.get("Content-Length") or 0)
                body = json.loads(self.rfile.read(length) or b"{}")
                answer = llm._next(body)
                if isinstance(answer, int):
                    self._send(answer, {"error": {"message": "fake LLM failure", "code": answer}})
                    return
                content = answer if isinstance(answer, str) else _memory_json(answer)
                self._send(
                    200,
                    {
                        "id": f"chatcmpl-fake-{llm.calls}",
                        "object": "chat.completion",
                        "created": int(time.time()),
                        "model": body.get("model", "fake"),
                        "choices": [
                            {
                                "index": 0,
                                "message": {"role": "assistant", "content": content},
                                "finish_reason": "stop",
                            }
                        ],
                        "usage": {"prompt_tokens": 1, "completion_tokens": 1, "total_tokens": 2},
                    },
                )

            def _send(self, status: int, payload: dict[str, Any]) -> None:
                data = json.dumps(payload, ensure_ascii=False).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def log_message(self, *args: Any) -> None:
                return None

        return Handler


def prompt_section(prompt: str, title: str) -> str:
    """The body of one ``## title`` section of Mem0's extraction prompt."""
    match = re.search(rf"^## {re.escape(title)}\n(.*?)(?=^## |^# Output|\Z)", prompt, re.M | re.S)
    assert match, f"section {title!r} not in prompt"
    return match.group(1)
