"""The extraction section of `make eval`: the offline extractor on the labelled set's test split.

Each conversation of ``conversations.jsonl`` (split ``test``) is extracted as one ingest. Scored:

* **durable recall** — durable messages whose statement is stored (a fact from the message, or
  any stored fact of the conversation covering one of the facts a person wrote for it, or a
  kept message a person wrote the same fact for: the assistant confirming the user is the
  user's fact, stored once);
* **facts recalled** — the distinct facts a person wrote, covered by a stored fact;
* **other labels stored** — one-off, snapshot, suggestion and chit-chat messages a fact was
  stored from (should be 0);
* **well-formed** — stored facts the checker (``problems``) finds nothing wrong with;
* **stored twice** — written facts covered by two stored facts of different messages;

by the conversation's language, for the rules alone, the learned head (what ships), and, with
``POCO_LLM_BASE_URL`` (+ ``POCO_LLM_MODEL``), the operator's LLM given the same extraction rules.
Measures, never asserts.
"""

from __future__ import annotations

import json
import os
import re
from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

HERE = Path(__file__).resolve().parent
SET = HERE / "conversations.jsonl"
DOC = HERE.parent.parent / "docs" / "extraction.md"
BEGIN, END = "<!-- eval-extraction:begin -->", "<!-- eval-extraction:end -->"

# An extractor: (role, content) messages -> (message index, fact text) pairs.
Extractor = Callable[[Sequence[tuple[str, str]]], list[tuple[int, str]]]

_QUOTED = re.compile(r"“[^”]*”|「[^」]*」|『[^』]*』|《[^》]*》|\"[^\"]*\"")
_FIRST_PERSON_ZH = re.compile(r"我|咱们|咱")
_FIRST_PERSON_EN = re.compile(
    r"\b(?:I|I'm|I’m|I've|I'd|I'll|[Mm]e|[Mm]y|[Mm]ine|[Oo]ur|[Ww]e|us)\b"
)
_INSTRUCTION = re.compile(
    r"记住|别忘|一定要记|按这个来|以此为准|keep (?:that|this|it) in mind|remember (?:that|this)|"
    r"\baccordingly\b|\bassume (?:that|this)\b|\bplease\b|don'?t forget",
    re.IGNORECASE,
)
_UNGRAMMATICAL = re.compile(
    r"User'm|^User\b|\buser (?:prefer|use|work|live|like|want|need|have|am|are)\b", re.IGNORECASE
)


def problems(fact: str, language: str, said: str = "") -> list[str]:
    """What keeps ``fact`` from being a well-formed memory of a user who writes ``language``
    (``said``: the user's message it came from; a code-mixed one is matched by its words)."""
    from memories.engine.extraction import facts as writer

    found = []
    unquoted = _QUOTED.sub("", fact)
    if _FIRST_PERSON_ZH.search(unquoted) or _FIRST_PERSON_EN.search(unquoted):
        found.append("first_person")
    if _INSTRUCTION.search(unquoted):
        found.append("instruction")
    if writer.strip_filler(fact) != fact:
        found.append("filler")
    if writer.is_fragment(fact):
        found.append("dangling")
    if _UNGRAMMATICAL.search(fact):
        found.append("ungrammatical")
    if ("zh" if writer.is_chinese(fact) else "en") != language and not _untranslated(fact, said):
        found.append("language")
    return found


def _untranslated(fact: str, said: str) -> bool:
    """A fact from a message mixing Chinese and English is in the user's language when its
    Chinese is the message's own (beside the person words the writer adds): nothing translated."""
    from memories.text import HAN

    said_han = set(HAN.findall(said))
    if not said_han or not re.search(r"[A-Za-z]", said):
        return False
    return set(HAN.findall(fact)) - set("用户的团队") <= said_han


def user_language(messages: Sequence[dict[str, Any]]) -> str:
    from memories.engine.extraction.facts import is_chinese

    return (
        "zh"
        if is_chinese(" ".join(m["content"] for m in messages if m["role"] == "user"))
        else "en"
    )


@dataclass
class Tally:
    durable: int = 0
    durable_kept: int = 0
    facts: int = 0
    facts_kept: int = 0
    others: int = 0
    others_stored: int = 0
    stored: int = 0
    well_formed: int = 0
    twice: int = 0
    bad: list[str] = field(default_factory=list)

    def row(self) -> list[str]:
        def share(a: int, b: int) -> str:
            return f"{a / b:.2f}" if b else "–"

        return [
            f"{share(self.durable_kept, self.durable)} ({self.durable_kept}/{self.durable})",
            f"{share(self.facts_kept, self.facts)}",
            f"{share(self.others_stored, self.others)} ({self.others_stored}/{self.others})",
            f"{share(self.well_formed, self.stored)} ({self.well_formed}/{self.stored})",
            str(self.twice),
        ]


def score(conversations: Sequence[dict[str, Any]], extract: Extractor) -> dict[str, Tally]:
    from memories.engine.extraction.facts import restates

    tallies: dict[str, Tally] = defaultdict(Tally)
    for conversation in conversations:
        messages = conversation["messages"]
        stored = extract([(m["role"], m["content"]) for m in messages])
        language = user_language(messages)
        for tally in (tallies[conversation["lang"]], tallies["all"]):
            from_message: dict[int, list[str]] = defaultdict(list)
            for i, text in stored:
                from_message[i].append(text)
                tally.stored += 1
                # The user's language is the message's when the user said it (a mixed
                # conversation switches), the conversation's for the assistant's confirmation.
                said = messages[i]
                found = (
                    problems(text, user_language([said]), said["content"])
                    if said["role"] == "user"
                    else problems(text, language)
                )
                if found:
                    tally.bad.append(f"{text}  <- {', '.join(found)}")
                else:
                    tally.well_formed += 1
            texts = [t for _, t in stored]
            written: dict[str, None] = {}
            kept_facts: set[str] = set()  # labelled facts of a durable message kept
            durable: list[list[str]] = []
            for i, message in enumerate(messages):
                if message["label"] != "durable":
                    tally.others += 1
                    tally.others_stored += 1 if from_message.get(i) else 0
                    continue
                labelled = [f["text"] for f in message.get("facts") or []]
                durable.append(labelled)
                if from_message.get(i) or any(restates(f, [t]) for f in labelled for t in texts):
                    kept_facts.update(labelled)
                written.update(dict.fromkeys(labelled))
            # A message whose facts a person wrote the same as a kept one's (the assistant
            # confirming the user) is kept: it is the same statement, stored once.
            tally.durable += len(durable)
            tally.durable_kept += sum(1 for labelled in durable if kept_facts & set(labelled))
            for fact in written:
                sources = {i for i, t in stored if restates(fact, [t])}
                tally.facts += 1
                tally.facts_kept += 1 if sources else 0
                tally.twice += 1 if len(sources) > 1 else 0
    return tallies


def shipped() -> Extractor:
    from memories.engine.extraction import decision, pipeline

    def run(messages: Sequence[tuple[str, str]]) -> list[tuple[int, str]]:
        found = pipeline.extract(messages, decide=decision.head_decide, same=decision.same_meaning)
        return [(i, c.fact) for i, c in found]

    return run


def rules_alone() -> Extractor:
    from memories.engine.extraction import pipeline

    def run(messages: Sequence[tuple[str, str]]) -> list[tuple[int, str]]:
        return [(i, c.fact) for i, c in pipeline.extract(messages, decide=pipeline.rules_decide)]

    return run


def llm(base_url: str, model: str, api_key: str = "") -> Extractor:
    """The operator's LLM, given the extraction rules Mem0's prompt carries, answering Mem0's
    JSON; each fact is credited to the message it shares most tokens with."""
    from openai import OpenAI

    from memories.engine.extraction.facts import tokens

    rules = _extraction_rules()
    client = OpenAI(base_url=base_url, api_key=api_key or "not-needed", timeout=60, max_retries=1)

    def run(messages: Sequence[tuple[str, str]]) -> list[tuple[int, str]]:
        conversation = "\n".join(f"{role}: {content}" for role, content in messages)
        answer = client.chat.completions.create(
            model=model,
            temperature=0,
            messages=[
                {
                    "role": "system",
                    "content": f"{rules}\n\nAnswer only JSON: "
                    '{"memory": [{"id": "0", "text": "…", "attributed_to": "user"}]}',
                },
                {"role": "user", "content": f"## New Messages\n{conversation}"},
            ],
        )
        raw = answer.choices[0].message.content or "{}"
        match = re.search(r"\{.*\}", raw, re.S)
        items = json.loads(match.group(0)).get("memory", []) if match else []
        out = []
        for item in items:
            text = str(item.get("text", "")).strip()
            if not text:
                continue
            mine = tokens(text)
            best = max(
                range(len(messages)),
                key=lambda i: len(mine & tokens(messages[i][1])),
            )
            out.append((best, text))
        return out

    return run


def _extraction_rules() -> str:
    # The rules text lives beside Mem0's provider; read it without importing Mem0.
    source = (HERE.parent.parent / "memories" / "engine" / "extractor.py").read_text("utf-8")
    match = re.search(r'EXTRACTION_RULES = """\\\n(.*?)"""', source, re.S)
    return match.group(1) if match else ""


def evaluate(path: Path = SET, split: str = "test", show_bad: bool = False) -> str:
    conversations = [
        c
        for c in (json.loads(line) for line in path.read_text("utf-8").splitlines() if line)
        if c["split"] == split
    ]
    systems: dict[str, Extractor] = {
        "rules alone": rules_alone(),
        "guards + learned head (shipped)": shipped(),
    }
    base_url = os.environ.get("POCO_LLM_BASE_URL", "")
    if base_url:
        model = os.environ.get("POCO_LLM_MODEL", "")
        systems[f"LLM {model}"] = llm(base_url, model, os.environ.get("POCO_LLM_API_KEY", ""))
    header = (
        "| extractor | language | durable recall | facts recalled | other labels stored "
        "| well-formed | stored twice |\n|---|---|---|---|---|---|---|"
    )
    lines = [header]
    for name, extract in systems.items():
        tallies = score(conversations, extract)
        for language in ("all", "zh", "en", "mixed"):
            if language in tallies:
                cells = " | ".join(tallies[language].row())
                lines.append(f"| {name} | {language} | {cells} |")
        if show_bad:
            for bad in tallies["all"].bad:
                print(f"  [{name}] {bad}")
    counts = defaultdict(int)
    for c in conversations:
        for m in c["messages"]:
            counts[m["label"]] += 1
    summary = ", ".join(f"{n} {label}" for label, n in sorted(counts.items()))
    return (
        f"Split `{split}`: {len(conversations)} conversations, {summary} messages.\n\n"
        + "\n".join(lines)
    )


def write(table: str) -> None:
    text = DOC.read_text(encoding="utf-8")
    pattern = re.compile(re.escape(BEGIN) + ".*?" + re.escape(END), re.S)
    if not pattern.search(text):
        raise SystemExit(f"{DOC} has no {BEGIN} … {END} block")
    DOC.write_text(pattern.sub(lambda _: f"{BEGIN}\n{table}\n{END}", text), encoding="utf-8")


if __name__ == "__main__":
    import sys

    arguments = sys.argv[1:]
    table = evaluate(
        Path(arguments[arguments.index("--set") + 1]) if "--set" in arguments else SET,
        split=arguments[arguments.index("--split") + 1] if "--split" in arguments else "test",
        show_bad="--bad" in arguments,
    )
    print(table)
    if "--write" in arguments:
        write(table)
