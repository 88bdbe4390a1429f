"""Dense embeddings through fastembed (ONNX Runtime, no PyTorch), loaded once per process."""

from __future__ import annotations

import hashlib
import os
import queue
import threading
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from contextlib import contextmanager
from functools import cached_property
from pathlib import Path
from typing import Any

import numpy as np
from cachetools import LRUCache

from core.heap import settle
from core.settings import Settings

# The default model quantises its activations per run of the model (dynamic int8, one scale for the whole
# batch), so a text embedded beside others comes out different (cosine about 0.99 to itself alone). Each text
# is therefore run alone: its vector is then the same at ingest and at query time, whatever it is embedded
# with, so vectors stored at ingest can stand in for query-time ones. Unpadded, it is no slower here.
BATCH_SIZE = 1
SCHEME = "alone"  # part of model_id: vectors cached under the old batched scheme are not mixed in
RECENT_QUERIES = 256  # a question searched again in the same run (the web fallback's collection) is not re-embedded
AHEAD = 1  # texts embedded ahead at a time (embed_ahead)


class Embedder:
    """Turns texts into unit-length vectors; the model is loaded on first use.

    A pool of ONNX sessions of one intra-op thread each, one per core by default (`embedding_sessions`), so
    concurrent questions embed at the same time instead of queueing for one session. Measured on 2 cores
    (`python -m evals.bench_sessions`): as fast as one session with two threads on an idle machine, 1.45x
    as fast when another process takes a core. Every session gives bit-identical vectors."""

    def __init__(self, settings: Settings):
        self.settings = settings
        self._pool_lock = threading.Lock()
        self._pool: queue.SimpleQueue[Any] | None = None
        self.calls = 0  # texts embedded by this instance: lets tests prove a cache was used
        self._recent: LRUCache[str, np.ndarray] = LRUCache(maxsize=RECENT_QUERIES)
        self._recent_lock = threading.Lock()  # guards _recent and _ahead
        self._ahead: dict[str, Future[np.ndarray]] = {}  # at most AHEAD texts being embedded in the background
        self._ahead_pool: ThreadPoolExecutor | None = None

    @cached_property
    def model_dir(self) -> Path | None:
        from modelprep.model_files import ensure_embedding_model

        return ensure_embedding_model(self.settings)

    @property
    def loaded(self) -> bool:
        """Whether the model has been loaded (it is, on first use)."""
        return self._pool is not None

    @property
    def session_count(self) -> int:
        return self.settings.embedding_sessions or os.cpu_count() or 1

    def _sessions(self) -> queue.SimpleQueue[Any]:  # of fastembed.TextEmbedding, loaded on first use
        with self._pool_lock:
            if self._pool is None:
                from fastembed import TextEmbedding

                path = None if self.model_dir is None else str(self.model_dir)
                pool: queue.SimpleQueue[Any] = queue.SimpleQueue()
                for _ in range(self.session_count):
                    pool.put(TextEmbedding(self.settings.embedding_model, specific_model_path=path, threads=1))
                self._pool = pool
                settle()  # with the first question, after the index reader: the long-lived heap (core/heap.py)
            return self._pool

    @contextmanager
    def _session(self) -> Iterator[Any]:
        """A free session, held for one call (fastembed is not re-entrant across threads)."""
        pool = self._sessions()
        model = pool.get()
        try:
            yield model
        finally:
            pool.put(model)

    def _count(self, texts: int) -> None:
        with self._pool_lock:
            self.calls += texts

    @cached_property
    def model_id(self) -> str:
        """Names the exact model file and how texts go through it, so cached vectors made otherwise are never
        mixed in."""
        if self.model_dir is None:
            return f"{self.settings.embedding_model}+{SCHEME}"
        digest = hashlib.sha256((self.model_dir / "model.onnx").read_bytes()).hexdigest()[:16]
        return f"{self.settings.embedding_model}@{digest}+{SCHEME}"

    @cached_property
    def dimension(self) -> int:
        return int(self.embed_query("dimension probe").shape[0])

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        if not texts:
            return np.zeros((0, 384), dtype=np.float32)
        with self._session() as model:
            vectors = list(model.embed(texts, batch_size=BATCH_SIZE))  # each text alone: see BATCH_SIZE
        self._count(len(texts))
        return _normalise(np.asarray(vectors, dtype=np.float32))

    def recent_query(self, text: str) -> np.ndarray | None:
        """The vector of a text lately embedded as a query (or being embedded ahead: then it is awaited), if kept:
        each text runs alone, so it is bit for bit the vector `embed_documents` would compute for it (the question
        is scored against sentences as the same text it was searched or embedded ahead as)."""
        with self._recent_lock:
            known, ahead = self._recent.get(text), self._ahead.get(text)
        return ahead.result() if known is None and ahead is not None else known

    def embed_query(self, text: str) -> np.ndarray:
        if (known := self.recent_query(text)) is not None:
            return known
        return self._embed_and_keep(text)

    def embed_ahead(self, text: str) -> None:
        """Start embedding, on a session nobody uses, a text a later step will ask for: at one question at a time
        the second core is idle while the search embeds its expanded query, and the question alone (which refine
        and the composer score sentences against) is then ready for them. Nothing is started unless two sessions
        are free (one for the search itself), so concurrent questions, which keep the cores busy, never wait."""
        pool = self._sessions()
        with self._recent_lock:
            if text in self._recent or text in self._ahead or len(self._ahead) >= AHEAD or pool.qsize() < 2:
                return
            if self._ahead_pool is None:
                self._ahead_pool = ThreadPoolExecutor(max_workers=AHEAD, thread_name_prefix="embed-ahead")
            self._ahead[text] = self._ahead_pool.submit(self._embed_and_keep, text)

    def _embed_and_keep(self, text: str) -> np.ndarray:
        try:
            with self._session() as model:
                vector = next(iter(model.query_embed(text)))
            self._count(1)
            unit = _normalise(np.asarray(vector, dtype=np.float32)[None, :])[0]
            unit.setflags(write=False)  # shared by every caller asking for this text
            with self._recent_lock:
                self._recent[text] = unit
            return unit
        finally:
            with self._recent_lock:
                self._ahead.pop(text, None)  # kept in _recent (or failed, and the caller that awaits it is told)


def _normalise(vectors: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(vectors, axis=1, keepdims=True)
    return vectors / np.maximum(norms, 1e-12)
