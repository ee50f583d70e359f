"""The offline fact extractor: deterministic rules that answer Mem0's extraction call.

With no LLM endpoint configured, ``Memory.add(infer=True)`` still works: this class receives the
prompt Mem0 builds, reads the "## New Messages" section and returns the JSON Mem0 2.2.1 expects,
``{"memory": [{"id": "0", "text": "…", "attributed_to": "user"}]}``.

It follows the same extraction rules we give a real LLM (``EXTRACTION_RULES``): keep the user's
language and spelling; keep stable preferences, long-term background, project conventions and
confirmed decisions; drop one-off requests, runtime snapshots and assistant suggestions.
"""

from __future__ import annotations

import json
import re
from typing import Any

from mem0.llms.base import LLMBase

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

SENTENCE_SPLIT = re.compile(r"(?<=[。！？!?；;])|\n+|(?<=[.])\s+")
ONE_OFF = re.compile(
    r"这次|本次|这一次|今天|明天|昨天|今晚|今早|下午|上午|刚才|刚刚|马上|临时|暂时|待会|一会儿|"
    r"\bthis time\b|\btoday\b|\btomorrow\b|\btonight\b|\bright now\b|\bfor now\b|\bjust once\b",
    re.IGNORECASE,
)
SNAPSHOT = re.compile(
    r"(当前|现在|目前).{0,8}(可用|可以用|启用|安装)|可用的?(工具|插件|技能|模型)|"
    r"(工具|插件|技能|模型)(列表|清单)|"
    r"\b(currently|now) (available|enabled|installed)\b|"
    r"\bavailable (tools|plugins|skills|models)\b",
    re.IGNORECASE,
)
DURABLE = re.compile(
    r"以后|今后|后续|往后|将来|始终|总是|一直|默认|偏好|喜欢|习惯|统一|一律|都用|都要|记住|长期|"
    r"项目(叫|名|是|使用|采用|要求)|我(是|在|叫|负责)|我们(团队|公司|组)|团队|约定|规范|惯例|决定|"
    r"确认|优先|不要|禁止|必须|从不|"
    r"\balways\b|\bprefer|\bfrom now on\b|\bby default\b|\bremember\b|\bmy name\b|\bi am\b|"
    r"\bi work\b|\bour team\b|\bconvention\b|\bwe decided\b|\bgoing forward\b|\bnever\b|\bmust\b",
    re.IGNORECASE,
)
CONFIRMED = re.compile(
    r"已确认|确认采用|已决定|决定采用|最终方案|\bconfirmed\b|\bdecided\b|\bagreed\b", re.IGNORECASE
)
SUGGESTION = re.compile(
    r"建议|可以考虑|不妨|推荐|\bsuggest|\brecommend|\bconsider\b", re.IGNORECASE
)
LEADING_FILLER = re.compile(
    r"^(请|麻烦)?(帮我)?(记住|记一下|记下)[：:，, ]*|^(please )?remember( that)?[:, ]*|"
    r"^(好的|嗯|ok)[，,。 ]*",
    re.IGNORECASE,
)
MAX_FACT_CHARS = 300


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


def _as_fact(sentence: str) -> str:
    fact = LEADING_FILLER.sub("", sentence.strip()).strip(" ，,；;")
    if re.match(r"^我(?!们)", fact):
        fact = "用户" + fact[1:]
    fact = re.sub(r"^I\b", "User", fact)
    fact = re.sub(r"^My\b", "User's", fact)
    return fact


def extract_facts(messages: list[tuple[str, str]]) -> list[dict[str, str]]:
    facts: list[dict[str, str]] = []
    seen: set[str] = set()
    for role, content in messages:
        if role not in ("user", "assistant"):
            continue
        for raw in SENTENCE_SPLIT.split(content):
            sentence = (raw or "").strip()
            if len(sentence) < 4 or ONE_OFF.search(sentence) or SNAPSHOT.search(sentence):
                continue
            if role == "assistant":
                if not CONFIRMED.search(sentence) or SUGGESTION.search(sentence):
                    continue
            elif not DURABLE.search(sentence):
                continue
            fact = _as_fact(sentence)
            if 4 <= len(fact) <= MAX_FACT_CHARS and fact not in seen:
                seen.add(fact)
                facts.append({"id": str(len(facts)), "text": fact, "attributed_to": role})
    return facts


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


# Attributes a fact can be recognised as the current value of (the extractor may
# propose a memory_key). Only unambiguous ones: a wrong key would supersede an unrelated fact.
KEY_RULES: tuple[tuple[str, re.Pattern[str]], ...] = (
    (
        "preference.answer_language",
        re.compile(
            r"(用|使用|以)(简体中文|繁体中文|中文|英文|英语|日文|日语)(来)?(回答|回复|答复|交流)|"
            r"(回答|回复|答复).{0,4}(用|使用)(简体中文|繁体中文|中文|英文|英语|日文|日语)|"
            r"\b(answer|answers|respond|reply|replies)\b.{0,24}\bin (english|chinese|japanese)\b",
            re.IGNORECASE,
        ),
    ),
    (
        "profile.home_city",
        re.compile(r"^(用户|我)(现在|目前)?住在|^user (now |currently )?lives in\b", re.IGNORECASE),
    ),
)


def propose_key(fact: str) -> str:
    """The ``memory_key`` a stored fact is the value of, or "" when none is recognised."""
    for key, pattern in KEY_RULES:
        if pattern.search(fact.strip()):
            return key
    return ""
