"""Per-run settings (the graph's context schema) and the long-lived services nodes use.

RunContext is plain data, so LangGraph Studio and the HTTP API can set it per run. Services
(index, models, web providers) are built once per process from Settings; tests pass their own.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, Literal

from langgraph.runtime import Runtime

from core.settings import Settings, get_settings
from core.types import Evidence
from generation.answer import Generator
from generation.chat import ChatAnswerer, GenerationUnavailable, make_chat_model
from generation.guard import Sanitiser
from generation.offline import OfflineAnswerer
from retrieval.resources import Resources
from retrieval.search import RetrievalOptions
from retrieval.web_search import WebSearch, make_web_search


@dataclass
class RunContext:
    """Per-run choices; anything left unset falls back to the process settings."""

    collection: str | None = None
    filters: dict[str, Any] = field(default_factory=dict)
    top_k: int | None = None
    correct_threshold: float | None = None
    incorrect_threshold: float | None = None
    allow_web: bool = True
    generator: str = "auto"  # auto / offline / groq / provider:model
    llm_grader: bool = False
    retrieval_mode: Literal["dense", "sparse", "hybrid", "rerank"] = "hybrid"
    services: Any = None  # a Services instance; None uses the process-wide one


class Services:
    """Index, models and web search for one process, built lazily from Settings."""

    def __init__(self, settings: Settings, resources: Resources | None = None, web: WebSearch | None = None):
        self.settings = settings
        self.resources = resources or Resources(settings)
        self._web = web
        self._generators: dict[str, Generator] = {}
        secrets = [
            s.get_secret_value() for s in (settings.groq_api_key, settings.tavily_api_key, settings.qdrant_api_key) if s
        ]
        self.sanitiser = Sanitiser(secrets)

    @cached_property
    def web(self) -> WebSearch:
        return self._web or make_web_search(self.settings, self.secondary_search)

    def secondary_search(self, query: str, k: int) -> list[Evidence]:
        return self.resources.retriever.retrieve(query, {"collection": "secondary"}, k)

    def generator(self, spec: str) -> Generator:
        """The answerer for a run: 'auto' means the configured chat model if any, else offline."""
        key = spec or "auto"
        if key not in self._generators:
            model = None if key == "offline" else make_chat_model(self.settings, None if key == "auto" else key)
            if model is None:
                self._generators[key] = OfflineAnswerer(self.resources.embedder.embed_documents)
            else:
                self._generators[key] = ChatAnswerer(
                    model, key if key != "auto" else (self.settings.chat_model or f"groq:{self.settings.groq_model}")
                )
        return self._generators[key]

    def close(self) -> None:
        if self._web is not None or "web" in self.__dict__:
            self.web.close()
        self.resources.close()


_default: list[Services] = []


def default_services() -> Services:
    """The process-wide services for runs without their own (Studio, LangServe): built from Settings once."""
    if not _default:
        _default.append(Services(get_settings()))
    return _default[0]


def set_default_services(services: Services) -> None:
    """Make a server's services the ones context-less runs use."""
    _default[:] = [services]


def context_of(runtime: Runtime[RunContext] | None) -> RunContext:
    context = getattr(runtime, "context", None)
    return context if isinstance(context, RunContext) else RunContext()


def services_of(context: RunContext) -> Services:
    return context.services or default_services()


def retrieval_options(context: RunContext) -> RetrievalOptions:
    return RetrievalOptions(mode=context.retrieval_mode)


__all__ = [
    "RunContext",
    "Services",
    "GenerationUnavailable",
    "context_of",
    "services_of",
    "default_services",
    "set_default_services",
    "retrieval_options",
]
