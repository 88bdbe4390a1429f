"""The long-lived parts of a PolicyRAG process, built once and shared (CLI, service, graph)."""

from __future__ import annotations

from functools import cached_property

from core.settings import Settings
from db.catalog import Catalog
from db.index import Backend, IndexReader, make_backend
from retrieval.embedder import Embedder
from retrieval.search import Retriever


class Resources:
    """Settings plus lazily created embedder, catalog, index backend, reader and retriever."""

    def __init__(self, settings: Settings, backend: Backend | None = None):
        self.settings = settings
        self._backend = backend

    @cached_property
    def embedder(self) -> Embedder:
        return Embedder(self.settings)

    @cached_property
    def catalog(self) -> Catalog:
        return Catalog(self.settings.catalog_path)

    @cached_property
    def backend(self) -> Backend:
        return self._backend or make_backend(self.settings)

    @cached_property
    def reader(self) -> IndexReader:
        return IndexReader(self.backend)

    @cached_property
    def retriever(self) -> Retriever:
        return Retriever(self.reader, self.embedder)

    def close(self) -> None:
        for name in ("reader", "catalog", "backend"):
            if name in self.__dict__:
                self.__dict__[name].close()
