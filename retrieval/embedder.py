"""Dense embeddings through fastembed (ONNX Runtime, no PyTorch), loaded once per process."""

from __future__ import annotations

import hashlib
import threading
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np

from core.settings import Settings

BATCH_SIZE = 64


class Embedder:
    """Turns texts into unit-length vectors; the model is loaded on first use."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self._lock = threading.Lock()
        self._loaded: Any = None
        self.calls = 0  # texts embedded by this instance: lets tests prove a cache was used

    @cached_property
    def model_dir(self) -> Path | None:
        from modelprep.model_files import ensure_embedding_model

        return ensure_embedding_model(self.settings)

    @property
    def loaded(self) -> bool:
        """Whether the model has been loaded (it is, on first use)."""
        return self._loaded is not None

    @property
    def _model(self) -> Any:  # fastembed.TextEmbedding, loaded on first use
        if self._loaded is None:
            from fastembed import TextEmbedding

            if self.model_dir is None:
                self._loaded = TextEmbedding(self.settings.embedding_model)
            else:
                self._loaded = TextEmbedding(self.settings.embedding_model, specific_model_path=str(self.model_dir))
        return self._loaded

    @cached_property
    def model_id(self) -> str:
        """Names the exact model file, so cached vectors from another model are never mixed in."""
        if self.model_dir is None:
            return self.settings.embedding_model
        digest = hashlib.sha256((self.model_dir / "model.onnx").read_bytes()).hexdigest()[:16]
        return f"{self.settings.embedding_model}@{digest}"

    @cached_property
    def dimension(self) -> int:
        return int(self.embed_query("dimension probe").shape[0])

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        with self._lock:  # one ONNX session; fastembed is not re-entrant across threads
            vectors = list(self._model.embed(texts, batch_size=BATCH_SIZE))
        self.calls += len(texts)
        return _normalise(np.asarray(vectors, dtype=np.float32))

    def embed_query(self, text: str) -> np.ndarray:
        with self._lock:
            vector = next(iter(self._model.query_embed(text)))
        self.calls += 1
        return _normalise(np.asarray(vector, dtype=np.float32)[None, :])[0]


def _normalise(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.maximum(norms, 1e-12)
