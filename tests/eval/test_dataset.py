"""The labelled sets of `make eval` are consistent: labels point at stored memories or turns,
an indirect question shares no word or name with the memory it needs, and every conversation
turn is stored as written (pure checks: no database, no model)."""

from __future__ import annotations

import re

import jieba
import pytest

from eval import conversations, dataset
from memories.admission import admit_text

# Words an advisory question and its memory may share without the keyword channel finding the
# memory by them: pronouns and function words.
_GENERIC_HAN = frozenset({"用户", "我们", "一个", "什么", "可以", "一下", "这个", "那个"})
_STOP_WORDS = (
    "the and for with that this what which from into your you our are was how can get "
    "should would will does have has not any some before after about next"
)
_STOP = frozenset(_STOP_WORDS.split())


def _han_words(text: str) -> set[str]:
    """jieba words of two or more Han characters, and every Han bigram (a shared bigram is a
    shared word more often than jieba's cut says)."""
    words = set()
    for run in re.findall(r"[\u4e00-\u9fff]+", text):
        words.update(w for w in jieba.lcut(run) if len(w) >= 2)
        words.update(run[i : i + 2] for i in range(len(run) - 1))
    return words - _GENERIC_HAN


def _latin_stems(text: str) -> set[str]:
    """Latin words of three or more letters, cut to a crude stem of four letters
    ("editor" and "edits" share "edit")."""
    words = {w.lower() for w in re.findall(r"[A-Za-z][A-Za-z'-]{2,}", text)}
    return {w[:4] for w in words if w not in _STOP}


def _shared(question: str, memory: str) -> set[str]:
    return (_han_words(question) & _han_words(memory)) | (
        _latin_stems(question) & _latin_stems(memory)
    )


def test_every_label_names_a_memory_of_its_scope() -> None:
    stored = dataset.memories()
    for query in dataset.QUERIES:
        assert query.kind in dataset.KINDS
        assert (query.kind == "negative") == (not query.relevant), query
        for key in query.relevant:
            assert key in stored[query.scope], (query, key)


def test_indirect_questions_share_no_word_with_their_memory() -> None:
    stored = dataset.memories()
    indirect = [q for q in dataset.QUERIES if q.kind == "indirect"]
    assert len(indirect) >= 60
    assert {q.scope for q in indirect} == set(stored)
    for query in indirect:
        for key in query.relevant:
            shared = _shared(query.text, stored[query.scope][key])
            assert not shared, (query.text, key, shared)


def test_indirect_negatives_exist_in_every_scope() -> None:
    for scope, texts in dataset.INDIRECT_NEGATIVES.items():
        assert scope in dataset.memories()
        assert texts


def test_conversations_are_large_enough_and_labelled() -> None:
    convs = conversations.CONVERSATIONS
    assert len(convs) >= 6
    assert sum(len(c.turns()) for c in convs) >= 300
    assert sum(len(c.questions) for c in convs) >= 120
    for conv in convs:
        turns = conv.turns()
        assert len({t.key for t in turns}) == len(turns), conv.name
        for question in conv.questions:
            assert question.kind in conversations.QUESTION_KINDS, question
            assert question.evidence, question
            conv.evidence(question)  # every piece matches exactly one turn


@pytest.mark.parametrize("conv", conversations.CONVERSATIONS, ids=lambda c: c.name)
def test_every_turn_is_admitted_as_written(conv: conversations.Conversation) -> None:
    for turn in conv.turns():
        admission = admit_text(source="manage", text=turn.text)
        assert admission.admitted, (turn.key, admission.reason)
        assert admission.text == turn.text, turn.key
