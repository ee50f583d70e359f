"""Across languages: whether a memory in the other language answers a question, judged by e5's
cosine once it is corrected for what the two texts' vectors say about anything else.

e5-small's cosine between a question and a memory in different languages is low for right answers
and right and wrong answers overlap (docs/retrieval.md, "Across languages"): one floor drops most
of them. Two parts of that cosine say nothing about the pair, and both are removed here:

* **the language direction** — part of every e5 vector only says which language the text is in:
  the mean Chinese vector minus the mean English one (questions ``query:``, memories
  ``passage:``), estimated on unlabelled texts. Each side loses its part along it (Yang et al.
  2021), so a pair is compared on what it says;
* **hubness** — some texts sit near everything of the other language (a generic question,
  "明天天气怎么样"; a short everyday memory). CSLS (Conneau et al. 2018, the cross-lingual word
  retrieval score) takes off each side's mean cosine to its ``k`` nearest texts of a fixed bank in
  the other language: ``2·cos − r(question) − r(memory)``, where the question's ``r`` is over the
  bank's memories and the memory's over the bank's questions. A right answer stands out from
  what the question is near anyway; a hub does not.

A pair across languages is evidence when that score reaches the threshold, as well as when its
plain cosine reaches the across floor (``POCO_SECOND_MODEL_ACROSS_MIN_SCORE``): the rule only
adds answers. The bank, the directions and the threshold are a small file in the repository
(``hubness.npz``), written by ``python manage.py train_hubness`` from sets shipped beside it: the
bank and the directions from the extraction set's train split (``eval/extraction``, no labels
read), the threshold on the relevance set's dev users (``eval/relevance``: the lowest score over
every wrong memory and off-topic question there, so none of them would have been taken). The
same sets give the same file on every machine. Only valid for the model it was built with
(``meta["model"]``): another second model gets the floors alone.
"""

from __future__ import annotations

import json
import logging
import threading
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np

from memories.recall.languages import Written, written_in

logger = logging.getLogger(__name__)

WEIGHTS = Path(__file__).with_name("hubness.npz")
# How many nearest bank texts a side's hubness averages (measured: 10 and 30; 30 chose on dev).
K = 30


def other(language: Written) -> Written:
    return Written.EN if language is Written.ZH else Written.ZH


def _unit(vectors: np.ndarray) -> np.ndarray:
    return vectors / np.linalg.norm(vectors, axis=-1, keepdims=True)


def _without(vectors: np.ndarray, direction: np.ndarray) -> np.ndarray:
    """``vectors`` (unit rows) without their part along ``direction``, unit again."""
    v = np.asarray(vectors, dtype=np.float32)
    return _unit(v - np.outer(v @ direction, direction).reshape(v.shape))


def _hub(vectors: np.ndarray, bank: np.ndarray, k: int) -> np.ndarray:
    """Each row's mean cosine to its ``k`` nearest rows of ``bank``."""
    near = np.atleast_2d(vectors) @ bank.T
    k = min(k, bank.shape[0])
    return np.asarray(np.partition(near, -k, axis=1)[:, -k:].mean(axis=1))


@dataclass(frozen=True)
class Asked:
    """A question's side of the score: its vector without the language direction, its language
    and its hubness against the bank's memories in the other language."""

    vector: np.ndarray
    language: Written
    hub: float
    bank: Hubness = field(repr=False, compare=False)

    def accepts(self, memories: Sequence[Sequence[float]]) -> list[bool]:
        """Whether each memory (its second vector, in the other language) clears the bank's
        threshold."""
        return [bool(s >= self.bank.threshold) for s in self.bank.scores(self, memories)]


@dataclass(frozen=True)
class Hubness:
    model: str
    query_direction: np.ndarray
    passage_direction: np.ndarray
    # The bank, without the language directions: memories (passages) and questions per language.
    passages: dict[Written, np.ndarray]
    queries: dict[Written, np.ndarray]
    threshold: float
    k: int = K
    meta: dict[str, Any] = field(default_factory=dict)

    def ask(self, vector: Sequence[float], language: Written) -> Asked:
        q = _without(np.asarray(vector, dtype=np.float32), self.query_direction)
        hub = float(_hub(q, self.passages[other(language)], self.k)[0])
        return Asked(vector=q, language=language, hub=hub, bank=self)

    def scores(self, asked: Asked, memories: Sequence[Sequence[float]]) -> np.ndarray:
        """CSLS of the question and each memory, every memory in the other language."""
        if len(memories) == 0:
            return np.zeros(0)
        m = _without(np.asarray(memories, dtype=np.float32), self.passage_direction)
        hubs = _hub(m, self.queries[asked.language], self.k)
        return np.asarray(2.0 * (m @ asked.vector) - asked.hub - hubs, dtype=np.float64)

    def save(self, path: Path) -> None:
        arrays: dict[str, Any] = {
            "query_direction": self.query_direction.astype(np.float32),
            "passage_direction": self.passage_direction.astype(np.float32),
            "threshold": np.float64(self.threshold),
            "k": np.int64(self.k),
            "meta": np.array(json.dumps({**self.meta, "model": self.model}, sort_keys=True)),
        }
        for lang in Written:  # float16: half the size, and ``build`` measured it so
            arrays[f"passages_{lang}"] = self.passages[lang].astype(np.float16)
            arrays[f"queries_{lang}"] = self.queries[lang].astype(np.float16)
        np.savez_compressed(path, **arrays)


def read(path: Path) -> Hubness:
    with np.load(path, allow_pickle=False) as data:
        meta = json.loads(str(data["meta"]))
        return Hubness(
            model=str(meta["model"]),
            query_direction=data["query_direction"].astype(np.float32),
            passage_direction=data["passage_direction"].astype(np.float32),
            # Stored as float16 to stay small: made unit again, in float32.
            passages={w: _unit(data[f"passages_{w}"].astype(np.float32)) for w in Written},
            queries={w: _unit(data[f"queries_{w}"].astype(np.float32)) for w in Written},
            threshold=float(data["threshold"]),
            k=int(data["k"]),
            meta=meta,
        )


_loaded: dict[Path, Hubness | None] = {}
_loaded_lock = threading.Lock()


def bundled(model: str, path: Path = WEIGHTS) -> Hubness | None:
    """The shipped bank for the second model named ``model``, read once per process; None when
    it was built for another model or the file is missing (the floors alone decide)."""
    with _loaded_lock:
        if path not in _loaded:
            try:
                _loaded[path] = read(path)
            except FileNotFoundError:
                logger.warning("%s missing: across languages the floors alone decide", path)
                _loaded[path] = None
        found = _loaded[path]
    return found if found is not None and found.model == model else None


# --- building it (``manage.py train_hubness``) -------------------------------------------------
def bank_texts(
    conversations: Sequence[dict[str, Any]],
) -> tuple[dict[Written, list[str]], dict[Written, list[str]]]:
    """The bank's texts from the extraction set's train split (``decision.read_set``'s records),
    by language: what users said (questions) and the facts written for them (memories)."""
    said: dict[Written, list[str]] = {w: [] for w in Written}
    facts: dict[Written, list[str]] = {w: [] for w in Written}
    for conversation in conversations:
        if conversation["split"] != "train":
            continue
        for message in conversation["messages"]:
            if message["role"] == "user":
                said[written_in(message["content"])].append(message["content"])
            for fact in message["facts"]:
                facts[written_in(fact["text"])].append(fact["text"])
    return said, facts


@dataclass(frozen=True)
class DevPairs:
    """The relevance set's dev users, every pair across languages: the right answers, the
    other memories of the asking user, and each off-topic question with its user's memories."""

    answers: list[tuple[str, str]]
    wrong: list[tuple[str, str]]
    off_topic: list[tuple[str, list[str]]]


def build(
    *,
    model: str,
    embed_queries: Any,
    embed_passages: Any,
    said: dict[Written, list[str]],
    facts: dict[Written, list[str]],
    dev: DevPairs,
    source: dict[str, str],
) -> Hubness:
    """The directions and the bank from ``said`` (questions) and ``facts`` (memories) per
    language, and the threshold from ``dev``: just over the best score of any wrong memory or
    off-topic question there, rounded up to three decimals."""

    def embedded(embed: Any, texts: list[str]) -> np.ndarray:
        return _unit(np.asarray(embed(list(dict.fromkeys(texts))), dtype=np.float32))

    q = {w: embedded(embed_queries, said[w]) for w in Written}
    p = {w: embedded(embed_passages, facts[w]) for w in Written}

    def direction(vectors: dict[Written, np.ndarray]) -> np.ndarray:
        d = vectors[Written.ZH].mean(axis=0) - vectors[Written.EN].mean(axis=0)
        return np.asarray(d / np.linalg.norm(d), dtype=np.float32)

    u_q, u_p = direction(q), direction(p)

    def stored(vectors: np.ndarray) -> np.ndarray:  # as ``read`` gives them back
        return _unit(vectors.astype(np.float16).astype(np.float32))

    provisional = Hubness(
        model=model,
        query_direction=u_q,
        passage_direction=u_p,
        passages={w: stored(_without(p[w], u_p)) for w in Written},
        queries={w: stored(_without(q[w], u_q)) for w in Written},
        threshold=np.inf,
    )
    texts = {t for t, _ in dev.answers + dev.wrong} | {t for t, _ in dev.off_topic}
    memories = {m for _, m in dev.answers + dev.wrong} | {m for _, ms in dev.off_topic for m in ms}
    asked = {
        t: provisional.ask(v, written_in(t))
        for t, v in zip(sorted(texts), embed_queries(sorted(texts)), strict=True)
    }
    held = dict(zip(sorted(memories), embed_passages(sorted(memories)), strict=True))

    def score(question: str, memory: str) -> float:
        return float(provisional.scores(asked[question], [held[memory]])[0])

    answers = [score(t, m) for t, m in dev.answers]
    refused = [score(t, m) for t, m in dev.wrong] + [
        max(score(t, m) for m in ms) for t, ms in dev.off_topic if ms
    ]
    threshold = float(np.ceil(max(refused) * 1000 + 1e-9) / 1000)
    meta = {
        **source,
        "k": K,
        "bank": {f"{kind}_{w}": len(v[w]) for kind, v in (("q", q), ("p", p)) for w in Written},
        "dev": {
            "answers": len(answers),
            "recall": round(float(np.mean(np.asarray(answers) >= threshold)), 4),
            "refused": len(refused),
        },
    }
    return Hubness(
        model=model,
        query_direction=u_q,
        passage_direction=u_p,
        passages=provisional.passages,
        queries=provisional.queries,
        threshold=threshold,
        meta=meta,
    )
