"""Across languages: whether a memory in the other language answers a question, judged by e5's
cosine once the two languages are aligned and the pair is corrected for what each side's vector
says about anything else.

e5-small's cosine between a question and a memory in different languages is low for right answers
and right and wrong answers overlap (docs/retrieval.md, "Across languages"): one floor drops most
of them. Two corrections make the score:

* **alignment** — e5 puts a Chinese text and its English translation apart by more than what
  they say. An orthogonal map ``R`` that takes the Chinese vectors of common words onto the
  English vectors of their translations (Procrustes, as cross-lingual word embeddings are
  aligned: Mikolov et al. 2013, Xing et al. 2015), learnt from CC-CEDICT's commonest words
  (``lexicon.parallel_words``) and the commonest of them framed as a memory and a question
  ("用户喜欢{词}。" ↔ "The user likes {word}.": ``lexicon.parallel_sentences``, where e5 meets
  words in this service), moves every Chinese vector part of the way:
  ``(1 − blend)·v + blend·vR``, unit again. English vectors stay as they are;
* **hubness** — some texts sit near everything of the other language (a generic question,
  "明天天气怎么样"; a short everyday memory). CSLS (Conneau et al. 2018, the cross-lingual word
  retrieval score) takes off each side's mean cosine to its ``k`` nearest texts of a fixed bank in
  the other language: ``2·cos − r(question) − r(memory)``, where the question's ``r`` is over the
  bank's memories and the memory's over the bank's questions. A right answer stands out from
  what the question is near anyway; a hub does not.

A pair across languages is evidence when that score reaches the threshold, as well as when its
plain cosine reaches the across floor (``POCO_SECOND_MODEL_ACROSS_MIN_SCORE``): the rule only
adds answers. The map, the bank, the blend and the threshold are a small file in the repository
(``hubness.npz``), written by ``python manage.py train_hubness`` from sets shipped beside it: the
map from the dictionary, the bank from the extraction set's train split (``eval/extraction``, no
labels read), the blend and the threshold on the relevance set's train and dev users
(``eval/relevance``: the threshold is the lowest score over every wrong memory and off-topic
question there, so none of them would have been taken, and the blend the one that then finds
most answers there). The same sets give the same file on one machine (another CPU may move
e5's last digits, and the threshold's third decimal with them). Only valid for the model it was
built with (``meta["model"]``): another second model gets the floors alone.
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

from memories.language.lexicon import ParallelSentences
from memories.recall.languages import Written, written_in

logger = logging.getLogger(__name__)

WEIGHTS = Path(__file__).with_name("hubness.npz")
# How many nearest bank texts a side's hubness averages (measured: 10 and 30; 30 chose on dev).
K = 30


def other(language: Written) -> Written:
    return Written.EN if language is Written.ZH else Written.ZH


def _unit(vectors: np.ndarray) -> np.ndarray:
    return vectors / np.linalg.norm(vectors, axis=-1, keepdims=True)


def _aligned(vectors: np.ndarray, rotation: np.ndarray, blend: float) -> np.ndarray:
    """Chinese ``vectors`` (unit rows) moved ``blend`` of the way along the map, unit again."""
    v = np.asarray(vectors, dtype=np.float32)
    return _unit((1.0 - blend) * v + blend * (v @ rotation))


def procrustes(source: np.ndarray, target: np.ndarray) -> np.ndarray:
    """The orthogonal ``R`` that minimises ``|source·R − target|`` (Schönemann 1966)."""
    u, _, vt = np.linalg.svd(source.T @ target)
    return np.asarray(u @ vt, dtype=np.float32)


def _hub(vectors: np.ndarray, bank: np.ndarray, k: int) -> np.ndarray:
    """Each row's mean cosine to its ``k`` nearest rows of ``bank``."""
    near = np.atleast_2d(vectors) @ bank.T
    k = min(k, bank.shape[0])
    return np.asarray(np.partition(near, -k, axis=1)[:, -k:].mean(axis=1))


@dataclass(frozen=True)
class Asked:
    """A question's side of the score: its vector as the bank compares it (aligned when Chinese),
    its language and its hubness against the bank's memories in the other language."""

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
    rotation: np.ndarray  # Chinese -> English, orthogonal
    blend: float
    # The bank, Chinese rows aligned: memories (passages) and questions per language.
    passages: dict[Written, np.ndarray]
    queries: dict[Written, np.ndarray]
    threshold: float
    k: int = K
    meta: dict[str, Any] = field(default_factory=dict)

    def compared(self, vectors: Any, language: Written) -> np.ndarray:
        """Unit e5 vectors of texts in ``language`` as the score compares them."""
        v = _unit(np.asarray(vectors, dtype=np.float32))
        return _aligned(v, self.rotation, self.blend) if language is Written.ZH else v

    def ask(self, vector: Sequence[float], language: Written) -> Asked:
        q = self.compared(vector, language)
        hub = float(_hub(q, self.passages[other(language)], self.k)[0])
        return Asked(vector=q, language=language, hub=hub, bank=self)

    def scores(self, asked: Asked, memories: Sequence[Sequence[float]]) -> np.ndarray:
        """CSLS of the question and each memory, every memory in the other language."""
        if len(memories) == 0:
            return np.zeros(0)
        m = self.compared(memories, other(asked.language))
        hubs = _hub(m, self.queries[asked.language], self.k)
        return np.asarray(2.0 * (m @ asked.vector) - asked.hub - hubs, dtype=np.float64)

    def save(self, path: Path) -> None:
        arrays: dict[str, Any] = {
            "rotation": self.rotation.astype(np.float16),
            "blend": np.float64(self.blend),
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
            rotation=data["rotation"].astype(np.float32),
            blend=float(data["blend"]),
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
class HeldPairs:
    """The relevance set's train and dev users, every pair across languages: the right answers,
    the other memories of the asking user, and each off-topic question with its user's
    memories."""

    answers: list[tuple[str, str]]
    wrong: list[tuple[str, str]]
    off_topic: list[tuple[str, list[str]]]


# How far a Chinese vector moves along the map: ``build`` measures each.
BLENDS = (0.25, 0.5, 0.75, 1.0)


def build(
    *,
    model: str,
    embed_queries: Any,
    embed_passages: Any,
    said: dict[Written, list[str]],
    facts: dict[Written, list[str]],
    words: list[tuple[str, str]],
    sentences: ParallelSentences,
    held: HeldPairs,
    source: dict[str, str],
) -> Hubness:
    """The map from ``words`` (Chinese, English: both sides embedded as questions and as
    memories) and ``sentences`` (its memories embedded as memories, its questions as
    questions), the bank from ``said`` (questions) and ``facts`` (memories) per language, and,
    for each of ``BLENDS``, the threshold on ``held``: just over the best score of any wrong
    memory or off-topic question there, rounded up to three decimals. The blend kept is the one
    whose threshold then takes most of ``held``'s answers (the smaller one on a tie)."""

    def embedded(embed: Any, texts: list[str]) -> np.ndarray:
        return _unit(np.asarray(embed(list(texts)), dtype=np.float32))

    def stored(vectors: np.ndarray) -> np.ndarray:  # as ``read`` gives them back
        return vectors.astype(np.float16).astype(np.float32)

    def sides(embed: Any, pairs: Sequence[tuple[str, str]]) -> tuple[np.ndarray, np.ndarray]:
        return embedded(embed, [c for c, _ in pairs]), embedded(embed, [e for _, e in pairs])

    parts = [
        sides(embed, pairs)
        for embed, pairs in (
            (embed_queries, words),
            (embed_passages, words),
            (embed_passages, sentences.memories),
            (embed_queries, sentences.questions),
        )
        if pairs
    ]
    rotation = stored(
        procrustes(np.vstack([c for c, _ in parts]), np.vstack([e for _, e in parts]))
    )
    q = {w: embedded(embed_queries, list(dict.fromkeys(said[w]))) for w in Written}
    p = {w: embedded(embed_passages, list(dict.fromkeys(facts[w]))) for w in Written}
    texts = sorted({t for t, _ in held.answers + held.wrong} | {t for t, _ in held.off_topic})
    memories = sorted(
        {m for _, m in held.answers + held.wrong} | {m for _, ms in held.off_topic for m in ms}
    )
    text_vectors = dict(zip(texts, embed_queries(texts), strict=True))
    memory_vectors = dict(zip(memories, embed_passages(memories), strict=True))

    def made(blend: float) -> tuple[Hubness, list[float], list[float]]:
        def bank_of(vectors: dict[Written, np.ndarray]) -> dict[Written, np.ndarray]:
            return {
                w: _unit(stored(_aligned(v, rotation, blend) if w is Written.ZH else v))
                for w, v in vectors.items()
            }

        bank = Hubness(
            model=model,
            rotation=rotation,
            blend=blend,
            passages=bank_of(p),
            queries=bank_of(q),
            threshold=np.inf,
        )
        asked = {t: bank.ask(text_vectors[t], written_in(t)) for t in texts}

        def score(question: str, memory: str) -> float:
            return float(bank.scores(asked[question], [memory_vectors[memory]])[0])

        answers = [score(t, m) for t, m in held.answers]
        refused = [score(t, m) for t, m in held.wrong] + [
            max(score(t, m) for m in ms) for t, ms in held.off_topic if ms
        ]
        return bank, answers, refused

    best: tuple[float, Hubness, float, list[float], list[float]] | None = None
    measured: dict[str, float] = {}
    for blend in BLENDS:
        bank, answers, refused = made(blend)
        threshold = float(np.ceil(max(refused) * 1000 + 1e-9) / 1000)
        recall = float(np.mean(np.asarray(answers) >= threshold))
        measured[str(blend)] = round(recall, 4)
        if best is None or recall > best[0]:
            best = (recall, bank, threshold, answers, refused)
    assert best is not None
    recall, bank, threshold, answers, refused = best
    meta = {
        **source,
        "k": K,
        "words": len(words),
        "sentences": len(sentences.memories) + len(sentences.questions),
        "bank": {f"{kind}_{w}": len(v[w]) for kind, v in (("q", q), ("p", p)) for w in Written},
        "held": {
            "answers": len(answers),
            "recall": round(recall, 4),
            "refused": len(refused),
            "recall_by_blend": measured,
        },
    }
    return Hubness(
        model=model,
        rotation=rotation,
        blend=bank.blend,
        passages=bank.passages,
        queries=bank.queries,
        threshold=threshold,
        meta=meta,
    )
