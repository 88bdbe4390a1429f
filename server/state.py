"""What every route of one service shares, built once per app: services, graphs, keys, limits, cache, telemetry."""

from __future__ import annotations

from core.settings import Settings
from db.keys import KeyStore
from db.telemetry import Telemetry
from graph.compare import build_compare_graph
from graph.crag import build_graph
from retrieval.services import Services
from server.cache import SemanticCache
from server.querying import QueryService
from server.ratelimit import RateLimiter


class ServiceState:
    """One app's long-lived parts; its graphs (LangServe's included) run on its own services."""

    def __init__(self, settings: Settings, services: Services | None = None, anonymous_read: bool | None = None):
        self.settings = settings
        self.services = services or Services(settings)
        self.anonymous_read = settings.anonymous_read if anonymous_read is None else anonymous_read
        self.graph = build_graph(self.services)
        self.compare_graph = build_compare_graph(self.services)
        self.keys = KeyStore(settings.keys_path)
        self.telemetry = Telemetry(settings.telemetry_path, settings.telemetry_redaction)
        self.limiter = RateLimiter()
        embedder = self.services.resources.embedder
        self.cache = SemanticCache(
            embedder.embed_query, settings.cache_threshold, settings.cache_max_entries, settings.cache_ttl_s
        )
        self.queries = QueryService(self.graph, self.services, self.cache, self.limiter, self.telemetry)

    def close(self) -> None:
        self.keys.close()
        self.telemetry.close()
