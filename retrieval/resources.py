"""The long-lived parts of a PolicyRAG process, built on first use and shared (CLI, service, graph)."""

from __future__ import annotations

from core.settings import Settings
from db.catalog import Catalog
from db.index import Backend, IndexReader, make_backend
from retrieval.embedder import Embedder
from retrieval.search import Retriever
from retrieval.sentence_vectors import SentenceVectors


class Resources:
    """Settings plus the embedder, catalog, index backend, reader and retriever, each made when first used.

    An embedder or backend given here is used instead of building one (tests share one model)."""

    def __init__(self, settings: Settings, backend: Backend | None = None, embedder: Embedder | None = None):
        self.settings = settings
        self._backend = backend
        self._embedder = embedder
        self._catalog: Catalog | None = None
        self._reader: IndexReader | None = None
        self._retriever: Retriever | None = None
        self._sentence_vectors: SentenceVectors | None = None

    @property
    def embedder(self) -> Embedder:
        if self._embedder is None:
            self._embedder = Embedder(self.settings)
        return self._embedder

    @property
    def catalog(self) -> Catalog:
        if self._catalog is None:
            self._catalog = Catalog(self.settings.catalog_path)
        return self._catalog

    @property
    def backend(self) -> Backend:
        if self._backend is None:
            self._backend = make_backend(self.settings)
        return self._backend

    @property
    def reader(self) -> IndexReader:
        if self._reader is None:
            self._reader = IndexReader(self.backend)
        return self._reader

    @property
    def retriever(self) -> Retriever:
        if self._retriever is None:
            self._retriever = Retriever(self.reader, self.embedder)
        return self._retriever

    @property
    def sentence_vectors(self) -> SentenceVectors:
        if self._sentence_vectors is None:
            self._sentence_vectors = SentenceVectors(self.embedder, self.reader)
        return self._sentence_vectors

    def close(self) -> None:
        for part in (self._reader, self._catalog, self._backend):
            if part is not None:
                part.close()
        self._reader = self._catalog = None
        self._retriever = None
        self._sentence_vectors = None
