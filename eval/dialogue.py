"""The shapes of the conversation set (``eval.conversations``): a dialogue's turns, as stored,
and the questions asked about them."""

from __future__ import annotations

from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

QUESTION_KINDS = ("fact", "date", "speaker", "changed")


@dataclass(frozen=True)
class Turn:
    key: str  # "s2t7": session 2, turn 7
    text: str  # as stored: "<date> <speaker>：<words>"
    created_at: datetime


@dataclass(frozen=True)
class Question:
    kind: str
    text: str
    evidence: tuple[str, ...]  # pieces of the evidence turns' text, one turn each


@dataclass(frozen=True)
class Conversation:
    name: str
    sessions: tuple[tuple[str, tuple[str, ...]], ...]  # (ISO date, lines "speaker：words")
    questions: tuple[Question, ...]

    def turns(self) -> list[Turn]:
        made = []
        for s, (day, lines) in enumerate(self.sessions, start=1):
            start = datetime.fromisoformat(day).replace(hour=12, tzinfo=UTC)
            for t, line in enumerate(lines, start=1):
                made.append(Turn(f"s{s}t{t}", f"{day} {line}", start + timedelta(minutes=t)))
        return made

    def evidence(self, question: Question) -> tuple[str, ...]:
        """The keys of the question's evidence turns (each piece must match one turn)."""
        turns = self.turns()
        keys = []
        for piece in question.evidence:
            found = [t.key for t in turns if piece in t.text]
            if len(found) != 1:
                raise ValueError(f"{self.name}: {piece!r} matches {found}")
            keys.append(found[0])
        return tuple(keys)


def question(kind: str, text: str, *evidence: str) -> Question:
    return Question(kind=kind, text=text, evidence=evidence)
