"""The offline fact extractor: the Mem0 LLM provider that answers Mem0's extraction call.

With no LLM endpoint configured, ``Memory.add(infer=True)`` still works: this class receives the
prompt Mem0 builds, reads the "## New Messages" section and returns the JSON Mem0 2.2.1 expects,
``{"memory": [{"id": "0", "text": "…", "attributed_to": "user"}]}``.

It follows the same extraction rules we give a real LLM (``EXTRACTION_RULES``): keep the user's
language and spelling; keep stable preferences, long-term background, project conventions and
confirmed decisions; drop one-off requests, runtime snapshots and assistant suggestions. The
parts (guards, the learned decision, the fact writer, the keys) are ``memories.engine.extraction``.
"""

from __future__ import annotations

import json
import re
from typing import Any

from mem0.llms.base import LLMBase

from memories.engine.extraction import decision, pipeline
from memories.engine.extraction.keys import propose_key

EXTRACTION_RULES = """\
Memory rules (follow strictly):
- Write every fact in the SAME language and script as the user's messages; never translate.
  Keep names, product names and technical terms exactly as the user spelled them.
- Store only durable information: stable preferences, long-term background, project
  conventions, confirmed architecture decisions, lessons the user explicitly promotes to rules.
- Never store one-off requests (这次/本次/今天/明天/this time/today/tomorrow…), runtime
  snapshots (which tools, plugins, skills or models are available right now), assistant
  suggestions as if they were user preferences, raw chat, attachments, logs, code, paths,
  URLs, credentials or personal identifiers.
- One short self-contained fact per item. attributed_to is "user" for what the user stated and
  "assistant" only for an outcome the assistant confirmed.
- If nothing qualifies, return {"memory": []}."""


def _new_messages(prompt: str) -> list[tuple[str, str]]:
    match = re.search(r"## New Messages\n(.*?)\n\n## Observation Date", prompt, re.DOTALL)
    if not match:
        return []
    messages: list[tuple[str, str]] = []
    for line in match.group(1).splitlines():
        head = re.match(r"^(user|assistant|system): ?(.*)$", line)
        if head:
            messages.append((head.group(1), head.group(2)))
        elif messages:
            role, content = messages[-1]
            messages[-1] = (role, f"{content}\n{line}")
    return messages


def extract_facts(messages: list[tuple[str, str]]) -> list[dict[str, str]]:
    """The facts worth keeping in ``messages``: the rules' guards, the learned head's decision,
    the fact writer (``memories.engine.extraction``)."""
    return pipeline.extract_facts(messages, decide=decision.head_decide, same=decision.same_meaning)


class RulesExtractorLLM(LLMBase):
    """Mem0 LLM provider that never leaves the machine."""

    def _validate_config(self) -> None:
        return None

    def generate_response(
        self,
        messages: list[dict[str, str]],
        response_format: Any = None,
        tools: Any = None,
        tool_choice: str = "auto",
        **kwargs: Any,
    ) -> str:
        prompt = next((m["content"] for m in reversed(messages) if m.get("role") == "user"), "")
        return json.dumps({"memory": extract_facts(_new_messages(prompt))}, ensure_ascii=False)


__all__ = ["EXTRACTION_RULES", "RulesExtractorLLM", "extract_facts", "propose_key"]
