"""The conversation set of `make eval` (docs/retrieval.md, "Conversations").

Six multi-session dialogues of two people each — three in Chinese, two in English, one between
bilingual colleagues who mix both — of five sessions and fifty turns, a few weeks apart.
Each turn is stored as one memory, as an agent that keeps a whole dialogue would store it: the
session's date and the speaker before the words ("2026-03-07 林晓：…"), and the session's date as
the memory's ``created_at``.  After the last session, twenty questions per dialogue ask about
earlier sessions:

* ``fact`` — something one person said (a name, a number, a place);
* ``date`` — when something was said or will happen (the answer is in the turn's date or words);
* ``speaker`` — who said or suggested it;
* ``changed`` — something said in one session and changed in a later one; the evidence is the
  turn that says how it is now.

Every question names its evidence turns by a piece of their text (``Question.evidence``), which
must match exactly one turn of its dialogue (``tests/eval`` checks it); the score is whether the
evidence is among the first five or ten answers (hit@5, hit@10) and which share of the evidence
turns the first ten hold (recall@10).  Written before any run and kept whatever they score.
"""

from __future__ import annotations

from eval.dialogue import QUESTION_KINDS, Conversation, Question, Turn
from eval.dialogues_en import APP, NEIGHBOURS, OFFSITE
from eval.dialogues_zh import CAFE, HOUSE, STUDIO

__all__ = ["CONVERSATIONS", "QUESTION_KINDS", "Conversation", "Question", "Turn"]

CONVERSATIONS = (CAFE, APP, HOUSE, NEIGHBOURS, OFFSITE, STUDIO)
