"""Build ``conversations.jsonl`` from the hand-written parts in ``parts/``, validating as it goes.

The parts are the source (edit them, then rerun this script); ``conversations.jsonl`` is produced.
A part is plain text, one conversation after another:

    === zh                                  a conversation starts; its language: zh | en | mixed
    U durable | 我是素食者，推荐餐厅时记得。   a message: role (U user, A assistant), label, content
    F profile.diet | 用户是素食者。            a fact of the message above: key (or -), text
    A durable | 好的，记住了：你吃素。
    F profile.diet | 用户是素食者。

Labels: durable, one_off, snapshot, suggestion, chitchat.  Facts only under durable messages,
and every durable message has at least one.  In content, ``\\n`` stands for a line break.
Lines starting with ``#`` and blank lines are ignored.

Ids (c0001…) follow the order of the parts.  The split is assigned after writing, stratified
by language, by how many durable messages a conversation holds (0, 1, 2, 3, 4+) and by whether
a later message changes a keyed attribute (a supersede case): within each such group, in order,
every 5th conversation (index % 5 == 4) is test, the one before it (index % 5 == 3) dev, the
rest train — so each split holds every language, about a fifth of each language's durable
messages and of the supersede cases land in test.

Run: ``.venv/bin/python eval/extraction/build_set.py`` (``--check`` validates without writing).
"""

from __future__ import annotations

import json
import re
import sys
from collections import Counter
from pathlib import Path

HERE = Path(__file__).resolve().parent
PARTS = HERE / "parts"
OUT = HERE / "conversations.jsonl"

LABELS = ("durable", "one_off", "snapshot", "suggestion", "chitchat")
LANGS = ("zh", "en", "mixed")
KEYS = (
    "preference.answer_language",
    "profile.home_city",
    "profile.employer",
    "profile.role",
    "profile.time_zone",
    "profile.diet",
    "preference.editor",
    "profile.programming_language",
    "preference.units",
)
ROLES = {"U": "user", "A": "assistant"}
MIN_TEST_DURABLE = {"zh": 60, "en": 40}

HAN = re.compile(r"[\u4e00-\u9fff]")
LATIN = re.compile(r"[A-Za-z]")
# Text inside quotes is the user's own words and may hold anything.
QUOTED = re.compile(r"“[^”]*”|「[^」]*」|《[^》]*》|\"[^\"]*\"|‘[^’]*’|'[^']*'|`[^`]*`")
ZH_FIRST_PERSON = re.compile(r"我|咱们")
EN_FIRST_PERSON = re.compile(r"\b(I|I'm|I've|I'd|I'll|me|my|mine|we|we're|our|ours|us)\b")
EN_FILLER = re.compile(r"^(OK|Okay|So|Well|Alright|Right)\b", re.I)
ZH_FILLER = re.compile(r"^(好|嗯|那|对|行|OK)[，,]")
ZH_WRAPPERS = ("记住", "以后都按这个来", "按这个来", "别忘了", "请注意")
EN_WRAPPERS = (
    "keep that in mind",
    "keep in mind",
    "remember",
    "please",
    "accordingly",
    "assume that",
)


class SetError(ValueError):
    pass


def parse_part(path: Path) -> list[dict]:
    conversations: list[dict] = []
    current: dict | None = None
    for number, raw in enumerate(path.read_text(encoding="utf-8").splitlines(), start=1):
        where = f"{path.name}:{number}"
        line = raw.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("==="):
            lang = line[3:].strip()
            if lang not in LANGS:
                raise SetError(f"{where}: unknown language {lang!r}")
            current = {"lang": lang, "messages": [], "source": where}
            conversations.append(current)
            continue
        if current is None:
            raise SetError(f"{where}: message before the first '==='")
        head, sep, text = line.partition(" | ")
        if not sep or not text.strip():
            raise SetError(f"{where}: expected 'X label | text'")
        text = text.strip().replace("\\n", "\n")
        tag, _, rest = head.partition(" ")
        if tag in ROLES:
            label = rest.strip()
            if label not in LABELS:
                raise SetError(f"{where}: unknown label {label!r}")
            current["messages"].append(
                {"role": ROLES[tag], "content": text, "label": label, "facts": [], "_where": where}
            )
        elif tag == "F":
            if not current["messages"]:
                raise SetError(f"{where}: fact before any message")
            key = rest.strip()
            if key == "-":
                key = None
            elif key not in KEYS:
                raise SetError(f"{where}: unknown key {key!r}")
            current["messages"][-1]["facts"].append({"text": text, "key": key})
        else:
            raise SetError(f"{where}: line must start with U, A, F or ===")
    return conversations


def fact_language(text: str) -> str:
    """A Chinese fact names 用户, an English one "The user" (quoted words may be any language)."""
    unquoted = QUOTED.sub("", text)
    if "用户" in unquoted:
        return "zh"
    if "The user" in unquoted:
        return "en"
    raise SetError(f"a fact must name 用户 or 'The user': {text}")


def check_fact(fact: dict, message: dict, lang: str, where: str) -> None:
    text = fact["text"]
    unquoted = QUOTED.sub("", text)
    try:
        flang = fact_language(text)
    except SetError as error:
        raise SetError(f"{where}: {error}") from None
    if lang in ("zh", "en") and flang != lang:
        raise SetError(f"{where}: a {lang} conversation's fact must be {lang}: {text}")
    # An assistant's confirmation carries the user's fact as the user wrote it, whatever
    # language the assistant answered in.
    if message["role"] == "user" and flang == "zh" and not HAN.search(message["content"]):
        raise SetError(f"{where}: Chinese fact for a message without Chinese: {text}")
    if flang == "zh":
        if not text.endswith("。"):
            raise SetError(f"{where}: Chinese fact must end with 。: {text}")
        if ZH_FIRST_PERSON.search(unquoted):
            raise SetError(f"{where}: first person left in fact: {text}")
        if ZH_FILLER.match(text):
            raise SetError(f"{where}: filler left in fact: {text}")
        for wrapper in ZH_WRAPPERS:
            if wrapper in unquoted:
                raise SetError(f"{where}: instruction {wrapper!r} left in fact: {text}")
    else:
        if not text.endswith("."):
            raise SetError(f"{where}: English fact must end with '.': {text}")
        if EN_FIRST_PERSON.search(unquoted):
            raise SetError(f"{where}: first person left in fact: {text}")
        if EN_FILLER.match(text):
            raise SetError(f"{where}: filler left in fact: {text}")
        lowered = unquoted.lower()
        for wrapper in EN_WRAPPERS:
            if wrapper in lowered:
                raise SetError(f"{where}: instruction {wrapper!r} left in fact: {text}")
        if re.search(r"\bUser (prefer|like|want|use|live|work)\b", text):
            raise SetError(f"{where}: ungrammatical subject: {text}")


def check_conversation(conv: dict) -> None:
    where = conv["source"]
    messages = conv["messages"]
    if not 2 <= len(messages) <= 5:
        raise SetError(f"{where}: a conversation has 2–5 messages, this one {len(messages)}")
    text = "".join(m["content"] for m in messages)
    if conv["lang"] == "zh" and not HAN.search(text):
        raise SetError(f"{where}: zh conversation without Chinese")
    if conv["lang"] == "en" and HAN.search(text):
        raise SetError(f"{where}: en conversation with Chinese")
    if conv["lang"] == "mixed" and not (HAN.search(text) and LATIN.search(text)):
        raise SetError(f"{where}: mixed conversation needs Chinese and Latin text")
    user_facts: set[str] = set()
    for message in messages:
        mwhere = message["_where"]
        if message["label"] == "durable":
            if not message["facts"]:
                raise SetError(f"{mwhere}: durable message without facts")
        elif message["facts"]:
            raise SetError(f"{mwhere}: facts on a {message['label']} message")
        texts = [f["text"] for f in message["facts"]]
        if len(set(texts)) != len(texts):
            raise SetError(f"{mwhere}: the same fact twice in one message")
        for fact in message["facts"]:
            check_fact(fact, message, conv["lang"], mwhere)
        if message["role"] == "user":
            user_facts.update(texts)
        elif message["label"] == "durable":
            # An assistant turn is durable only when it confirms the user's own statement,
            # and then it carries the same fact text (so a writer's duplicates can be counted).
            missing = [t for t in texts if t not in user_facts]
            if missing:
                raise SetError(f"{mwhere}: assistant fact not stated by the user before: {missing}")


def changes_attribute(conv: dict) -> bool:
    """Whether a later user message gives a keyed attribute a new value (a supersede case)."""
    values: dict[str, str] = {}
    changed = False
    for message in conv["messages"]:
        if message["role"] != "user":
            continue
        for fact in message["facts"]:
            if fact["key"]:
                changed |= values.get(fact["key"], fact["text"]) != fact["text"]
                values[fact["key"]] = fact["text"]
    return changed


def build() -> list[dict]:
    parts = sorted(PARTS.glob("part-*.txt"))
    if not parts:
        raise SetError(f"no parts in {PARTS}")
    conversations: list[dict] = []
    for part in parts:
        conversations.extend(parse_part(part))
    seen: dict[str, str] = {}
    for conv in conversations:
        check_conversation(conv)
        for message in conv["messages"]:
            # A longer user message written twice would leak between splits; short fillers
            # ("好。", "Thanks!") recur in real sessions and may.
            if message["role"] == "user" and len(message["content"]) >= 10:
                other = seen.setdefault(message["content"], message["_where"])
                if other != message["_where"]:
                    raise SetError(f"{message['_where']}: same user message as {other}")
    per_group: Counter[tuple[str, int, bool]] = Counter()
    out = []
    for number, conv in enumerate(conversations, start=1):
        durable = sum(1 for m in conv["messages"] if m["label"] == "durable")
        group = (conv["lang"], min(durable, 4), changes_attribute(conv))
        index = per_group[group]
        per_group[group] += 1
        split = "test" if index % 5 == 4 else "dev" if index % 5 == 3 else "train"
        out.append(
            {
                "id": f"c{number:04d}",
                "split": split,
                "lang": conv["lang"],
                "messages": [
                    {k: m[k] for k in ("role", "content", "label", "facts")}
                    for m in conv["messages"]
                ],
            }
        )
    return out


def report(rows: list[dict]) -> tuple[str, list[str]]:
    lines: list[str] = []
    problems: list[str] = []
    messages = [(r["split"], r["lang"], m) for r in rows for m in r["messages"]]
    total = len(messages)
    facts = sum(len(m["facts"]) for _, _, m in messages)
    keyed = Counter(f["key"] for _, _, m in messages for f in m["facts"] if f["key"])
    lines.append(f"conversations {len(rows)}, messages {total}, facts {facts}")
    lines.append("")
    header = "| split | conv | msgs | " + " | ".join(LABELS) + " | zh | en | mixed |"
    lines.append(header)
    lines.append("|" + "---|" * (header.count("|") - 1))
    for split in ("train", "dev", "test", "all"):
        sel = [(s, lang, m) for s, lang, m in messages if split in ("all", s)]
        convs = sum(1 for r in rows if split in ("all", r["split"]))
        labels = Counter(m["label"] for _, _, m in sel)
        langs = Counter(lang for _, lang, _ in sel)
        lines.append(
            f"| {split} | {convs} | {len(sel)} | "
            + " | ".join(str(labels[x]) for x in LABELS)
            + " | "
            + " | ".join(str(langs[x]) for x in LANGS)
            + " |"
        )
    lines.append("")
    lines.append("durable messages by split and language:")
    lines.append("")
    lines.append("| split | zh | en | mixed |")
    lines.append("|---|---|---|---|")
    for split in ("train", "dev", "test"):
        c = Counter(lang for s, lang, m in messages if s == split and m["label"] == "durable")
        lines.append(f"| {split} | {c['zh']} | {c['en']} | {c['mixed']} |")
        for lang, need in MIN_TEST_DURABLE.items():
            if split == "test" and c[lang] < need:
                problems.append(f"test split has {c[lang]} durable {lang} messages, needs {need}")
    lines.append("")
    lines.append("messages by label and language, test split:")
    lines.append("")
    lines.append("| label | zh | en | mixed |")
    lines.append("|---|---|---|---|")
    for label in LABELS:
        c = Counter(lang for s, lang, m in messages if s == "test" and m["label"] == label)
        lines.append(f"| {label} | {c['zh']} | {c['en']} | {c['mixed']} |")
    lines.append("")
    share = Counter(m["label"] for _, _, m in messages)
    lines.append("label share: " + ", ".join(f"{x} {100 * share[x] / total:.1f} %" for x in LABELS))
    by_lang = Counter(lang for _, lang, _ in messages)
    lines.append(
        "language share (messages): "
        + ", ".join(f"{x} {100 * by_lang[x] / total:.1f} %" for x in LANGS)
    )
    changes = Counter(r["split"] for r in rows if changes_attribute(r))
    lines.append(
        "conversations where a later message changes a keyed attribute: "
        + ", ".join(f"{x} {changes[x]}" for x in ("train", "dev", "test"))
    )
    lines.append("facts with a key: " + ", ".join(f"{k} {keyed[k]}" for k in KEYS))
    for split in ("train", "dev", "test"):
        sel = [(lang, m) for s, lang, m in messages if s == split]
        for label in LABELS:
            if not any(m["label"] == label for _, m in sel):
                problems.append(f"split {split} has no {label} message")
        for lang in LANGS:
            if not any(x == lang for x, _ in sel):
                problems.append(f"split {split} has no {lang} message")
    return "\n".join(lines), problems


def main(argv: list[str]) -> int:
    try:
        rows = build()
    except SetError as error:
        print(f"error: {error}", file=sys.stderr)
        return 1
    text, problems = report(rows)
    print(text)
    for problem in problems:
        print(f"problem: {problem}", file=sys.stderr)
    if "--check" not in argv:
        with OUT.open("w", encoding="utf-8") as handle:
            for row in rows:
                handle.write(json.dumps(row, ensure_ascii=False) + "\n")
        # Every line must parse back to what was written.
        with OUT.open(encoding="utf-8") as handle:
            back = [json.loads(line) for line in handle]
        assert back == rows, "conversations.jsonl does not read back"
        print(f"\nwrote {OUT.name}: {len(rows)} lines")
    return 1 if problems else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
