"""From a conversation to the facts worth keeping: guards, then the decision, then the facts
written once.

Every sentence the guards let through is written as fact(s) first (``facts.write``); the
decision judges each written fact with its sentence, so the passage vector the learned head
computes is the one the stored memory's second vector reuses (same text, same model, the
per-process cache of ``memories.learned.vectors``).  The user's messages are judged before the
assistant's: an assistant sentence that only confirms what the user's kept facts already say is
the same fact, stored once (and never embedded).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace

from memories.engine.extraction import facts, rules
from memories.engine.extraction.keys import propose_key


@dataclass(frozen=True)
class Candidate:
    role: str  # user | assistant
    sentence: str  # as said
    fact: str  # as it would be stored
    # The user verified it ("我同意你刚才说的，…") or set how every answer is given: kept on the
    # user's word, not the head's.
    verified: bool = False
    # The list of its message it is an item of (``facts.listed``), None outside a list.
    listed: int | None = None


Decide = Callable[[Sequence[Candidate]], list[bool]]

# The share of an assistant fact's tokens found among the user's kept facts above which it only
# restates them (measured on the labelled set's dev split: docs/extraction.md).
RESTATES_SHARE = 0.6
# (assistant facts, the user's kept facts) -> whether each assistant fact says one of them.
Same = Callable[[Sequence[str], Sequence[str]], list[bool]]


def candidates(role: str, content: str) -> list[Candidate]:
    """The facts a message's sentences would become, the guards' vetoes left out."""
    found: list[Candidate] = []
    for said, item in facts.listed(content):
        sentence = rules.without_exception(said)
        agreed = rules.agreement(sentence) if role == "user" else None
        sentence = rules.without_deadline(agreed or sentence)
        if rules.veto(sentence, role):
            continue
        verified = role == "user" and (agreed is not None or rules.on_the_users_word(sentence))
        written = facts.write(sentence, role)
        if rules.recent_change(sentence):
            # Dated today or yesterday, a change passes the one-off guard as the new value of
            # one of the user's one-value attributes ("我昨天从阿里离职了"), and only so: "I joined
            # a call yesterday" keys nothing and stays a one-off.
            written = [fact for fact in written if propose_key(fact)]
        found.extend(
            Candidate(role, sentence, fact, verified=verified, listed=item) for fact in written
        )
    return found


def message_candidates(messages: Sequence[tuple[str, str]], i: int) -> list[Candidate]:
    """The candidates of message ``i``. A user's answer to the assistant's question about the
    user's own preference, tool, setting or setup ("What editor do you use?" / "Vim, always.",
    "周报要用什么格式？" / "按…三段写") is the question answered ("I use Vim.", "周报按…三段写。"),
    kept on the user's word; the guards still veto it, and what else the message states ("…, I'm
    in Shanghai.") is judged as said. Only in a language the user writes in: "嗯，VS Code" to "你
    平时用什么编辑器？" alone is English, and a Chinese fact would be language drift to ingest
    (which fails the whole job)."""
    role, text = messages[i]
    if role == "user" and i > 0 and messages[i - 1][0] == "assistant":
        asked = facts.sentences(messages[i - 1][1])
        answer = rules.answered(asked[-1], facts.strip_filler(text)) if asked else None
        if answer is not None and any(
            facts.is_chinese(said) == facts.is_chinese(answer[0])
            for who, said in messages
            if who == "user"
        ):
            statement, rest = answer
            said = [replace(c, verified=True) for c in candidates(role, statement)]
            return said + (candidates(role, rest) if rest else [])
    return candidates(role, text)


def extract(
    messages: Sequence[tuple[str, str]], *, decide: Decide | None, same: Same | None = None
) -> list[tuple[int, Candidate]]:
    """The kept candidates with the index of the message each came from, in message order, each
    text once. ``decide`` judges candidates (None: every candidate is kept — the fact writer
    alone, for its tests)."""
    found = [(i, c) for i in range(len(messages)) for c in message_candidates(messages, i)]
    users = [(i, c) for i, c in found if c.role == "user"]
    kept = _decided(users, decide)
    said = [c.fact for _, c in kept]
    # An assistant sentence that only restates what the user's kept facts say is never judged.
    assistants = [
        (i, c)
        for i, c in found
        if c.role == "assistant" and not facts.restates(c.fact, said, share=RESTATES_SHARE)
    ]
    if same is not None and assistants and said:
        # Restated in other words ("Noted — decaf after noon."): the same meaning.
        verdicts = same([c.fact for _, c in assistants], said)
        assistants = [pair for pair, repeat in zip(assistants, verdicts, strict=True) if not repeat]
    kept += _decided(assistants, decide)
    conclusions = settled(messages, {i for i, c in kept if c.role == "user"})
    cured = diagnosed(messages, conclusions)
    # The symptom a verified cause explains was true until the fix: the cause is the fact.
    kept = [(i, c) for i, c in kept if not (i in cured and rules.SYMPTOM.search(c.sentence))]
    kept += conclusions
    out: list[tuple[int, Candidate]] = []
    seen: set[str] = set()
    for i, c in sorted(kept, key=lambda pair: pair[0]):
        if c.fact not in seen:
            seen.add(c.fact)
            out.append((i, c))
    return out


def settled(messages: Sequence[tuple[str, str]], stated: set[int]) -> list[tuple[int, Candidate]]:
    """What the assistant concluded and the user's next message verifies or settles ("根据压测结果，
    瓶颈在数据库连接池，建议调大到 200。" / "对，调完之后确实好了，就这么定了。"), when that message
    states nothing of its own (``stated``: the user's messages a fact was kept from): the
    assistant's statement, written as a fact, is the user's, with the user's message. The user's
    word decides, not the head; the guards (one-off, snapshot, code) still veto the sentence."""
    found: list[tuple[int, Candidate]] = []
    for i, (role, text) in enumerate(messages):
        if role != "user" or i == 0 or i in stated or not rules.settles(text):
            continue
        before_role, before = messages[i - 1]
        if before_role != "assistant":
            continue
        for said in facts.sentences(before):
            sentence = rules.as_conclusion(said)
            if rules.veto(sentence, before_role) in (None, "suggestion", "assistant_unconfirmed"):
                found.extend(
                    (i, Candidate("user", sentence, fact)) for fact in facts.conclusion(sentence)
                )
    return found


def diagnosed(
    messages: Sequence[tuple[str, str]], conclusions: Sequence[tuple[int, Candidate]]
) -> set[int]:
    """The user's messages whose problem a verified conclusion names the cause of ("服务内存一直
    涨。" / "看起来是因为缓存没有设置过期时间。" / "对，就是这个原因，加了之后就好了。"): the
    user's message before the diagnosis the user then settled (``conclusions``: ``settled``)."""
    return {
        i - 2
        for i, c in conclusions
        if i >= 2 and messages[i - 2][0] == "user" and rules.CAUSE.search(c.fact)
    }


def extract_facts(
    messages: Sequence[tuple[str, str]], *, decide: Decide | None, same: Same | None = None
) -> list[dict[str, str]]:
    """Mem0's extraction answer for ``messages`` ((role, content) pairs): ``[{"id", "text",
    "attributed_to"}]``."""
    return [
        {"id": str(n), "text": c.fact, "attributed_to": c.role}
        for n, (_, c) in enumerate(extract(messages, decide=decide, same=same))
    ]


def _decided(
    found: list[tuple[int, Candidate]], decide: Decide | None
) -> list[tuple[int, Candidate]]:
    if not found or decide is None:
        return found
    verdicts = shared(found, decide([c for _, c in found]))
    return [pair for pair, keep in zip(found, verdicts, strict=True) if keep or pair[1].verified]


def shared(found: Sequence[tuple[int, Candidate]], verdicts: Sequence[bool]) -> list[bool]:
    """The items of one list share a verdict: all are kept when at least half of them are ("-
    前端统一用 React / - 后端统一用 Go / - 测试框架用 Vitest" is one statement of a stack in
    three lines, and the head dropped the line without the cue word of the others). Of a list
    mostly dropped, each item keeps its own verdict."""
    votes: dict[tuple[int, int], list[bool]] = {}
    for (i, c), keep in zip(found, verdicts, strict=True):
        if c.listed is not None:
            votes.setdefault((i, c.listed), []).append(keep)
    out: list[bool] = []
    for (i, c), keep in zip(found, verdicts, strict=True):
        items = votes.get((i, c.listed), []) if c.listed is not None else []
        out.append(keep or (bool(items) and 2 * sum(items) >= len(items)))
    return out


def rules_decide(found: Sequence[Candidate]) -> list[bool]:
    """The rules alone (no model): what the extractor decided before the learned head."""
    return [rules.rules_keep(c.sentence, c.role) for c in found]
