"""The long-lived services one process's graphs use: index and models, web search, answerers, the sanitiser.

Built once per process from Settings (by the CLI, the server, the evaluation, or `graph.crag` for
LangGraph Studio) and bound to the graph's nodes when the graph is built; never a global.
"""

from __future__ import annotations

from cachetools import LRUCache

from core.settings import Settings
from core.types import Evidence
from generation.answer import Generator
from generation.chat import ChatAnswerer, make_chat_model
from generation.guard import Sanitiser
from generation.offline import OfflineAnswerer
from retrieval.resources import Resources
from retrieval.search import Mode, RetrievalOptions
from retrieval.web_search import WebSearch, make_web_search

GENERATORS_KEPT = 8


class Services:
    """Index, models, web search and answerers for one process, built lazily from Settings."""

    def __init__(self, settings: Settings, resources: Resources | None = None, web: WebSearch | None = None):
        self.settings = settings
        self.resources = resources or Resources(settings)
        self._given_web = web
        self._web: WebSearch | None = None
        # keyed by the run's generator spec, free text from Studio or the CLI: bounded whatever runs ask for
        self._generators: LRUCache[str, Generator] = LRUCache(maxsize=GENERATORS_KEPT)
        secrets = [
            s.get_secret_value() for s in (settings.groq_api_key, settings.tavily_api_key, settings.qdrant_api_key) if s
        ]
        self.sanitiser = Sanitiser(secrets)

    @property
    def web(self) -> WebSearch:
        if self._web is None:
            self._web = self._given_web or make_web_search(self.settings, self.secondary_search)
        return self._web

    def retrieval_options(self, mode: Mode) -> RetrievalOptions:
        """How this process retrieves in a run's mode: fusion, query expansion and citation following as set."""
        settings = self.settings
        return RetrievalOptions(
            mode=mode,
            expansion=settings.query_expansion,
            follow_citations=settings.follow_citations,
            fusion=settings.fusion,
        )

    def secondary_search(self, query: str, k: int) -> list[Evidence]:
        return self.resources.retriever.retrieve(query, {"collection": "secondary"}, k)

    def generator(self, spec: str) -> Generator:
        """The answerer for a run: 'auto' means the configured chat model if any, else offline."""
        key = spec or "auto"
        if key not in self._generators:
            model = None if key == "offline" else make_chat_model(self.settings, None if key == "auto" else key)
            if model is None:
                self._generators[key] = OfflineAnswerer(self.resources.sentence_vectors.for_chunks)
            else:
                name = key if key != "auto" else (self.settings.chat_model or f"groq:{self.settings.groq_model}")
                self._generators[key] = ChatAnswerer(model, name)
        return self._generators[key]

    def close_web(self) -> None:
        """Stop the web-search worker threads (the index and models stay open)."""
        if self._web is not None:
            self._web.close()

    def close(self) -> None:
        self.close_web()
        self.resources.close()
