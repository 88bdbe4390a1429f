"""One question through the scope check, cache, graph, rate limiter and telemetry: the same path for JSON,
streaming and LangServe. A run stops at its next node once its client has gone."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from core.schemas import AnswerRecord, Filters, RunContext, SearchScope, Step
from db.telemetry import RequestRecord, Telemetry
from graph.run import Cancelled, EventSink, Graph, answer
from retrieval.services import Services
from server.cache import CacheScope, SemanticCache, scope_key
from server.ratelimit import RateLimiter, route_cost
from server.schemas import QueryRequest
from server.security import Caller

CLIENT_GONE_STATUS = 499  # telemetry's status for a request whose client disconnected (nginx's convention)


class UnknownCollection(LookupError):
    """A request names a collection the published index does not hold (404)."""


def named_collections(collection: str | None, filters: Filters) -> list[str]:
    """Every collection a request names: its `collection` and its `collection` filter (a value or a list)."""
    value = filters.get("collection")
    named = value if isinstance(value, list) else [] if value is None else [str(value)]
    return ([collection] if collection is not None else []) + named


def run_context(scope: SearchScope, tenant: str) -> RunContext:
    """The run context of an HTTP request: its scope and the caller's tenant, the rest from the settings."""
    return RunContext(**scope.model_dump(include=set(SearchScope.model_fields)), tenant=tenant)


@dataclass
class QueryService:
    graph: Graph
    services: Services
    cache: SemanticCache
    limiter: RateLimiter
    telemetry: Telemetry

    def collections(self) -> dict[str, int]:
        """Chunks per collection in the published index."""
        return self.services.resources.reader.store().counts_by("collection")

    def check_scope(self, collection: str | None, filters: Filters) -> None:
        """Raise UnknownCollection for a collection (named either way) the index does not hold."""
        named = named_collections(collection, filters)
        known = self.collections() if named else {}
        for name in named:
            if name not in known:
                raise UnknownCollection(f"unknown collection '{name}'; known: {', '.join(sorted(known))}")

    def _scope(self, caller: Caller, request: QueryRequest) -> CacheScope | None:
        """The caller's tenant, the generation published now and the run's options; None while nothing is published
        (an answer is never served from a generation other than the published one)."""
        generation = self.services.resources.backend.current()
        if generation is None:
            return None
        options = scope_key(request.collection, request.filters, f"k={request.top_k};web={request.allow_web}")
        return CacheScope(caller.tenant, generation, options)

    def _keep(self, request: QueryRequest, scope: CacheScope | None, vector: Any, record: AnswerRecord) -> None:
        """Cache a fresh record under the generation it was read from (not if another was published meanwhile)."""
        if scope is not None and self.services.resources.backend.current() == scope.generation:
            self.cache.store(request.question, scope, vector, record)

    def finish(self, caller: Caller, endpoint: str, request: QueryRequest, record: AnswerRecord) -> None:
        """Charge the route's cost and write telemetry (telemetry failure never fails the request)."""
        web_ran = bool(record.web_attempts) and record.web_attempts[0].status != "skipped"
        cost = route_cost(record.cache_hit, web_ran, record.generator, record.status)
        self.limiter.charge(caller.key_id, caller.limits, cost)
        self.telemetry.record(
            RequestRecord(
                endpoint=endpoint,
                http_status=200,
                key_id=caller.key_id,
                question=request.question,
                collection=request.collection,
                route=record.route,
                initial_route=record.initial_route,
                confidence=record.confidence,
                status=record.status,
                cache_hit=record.cache_hit,
                generator=record.generator,
                web_provider=record.web_provider,
                latency_ms=record.latency_ms.get("total"),
                node_latency=record.latency_ms,
            )
        )

    def _cached(
        self, request: QueryRequest, scope: CacheScope | None, started: float
    ) -> tuple[AnswerRecord | None, Any]:
        if scope is None:
            return None, None
        cached, vector = self.cache.lookup(request.question, scope)
        if cached is None:
            return None, vector
        ms = round((time.perf_counter() - started) * 1000, 3)
        record = cached.model_copy(
            update={"cache_hit": True, "question": request.question, "latency_ms": {"cache": ms, "total": ms}}
        )
        return record, vector

    def abandoned(self, caller: Caller, endpoint: str, request: QueryRequest, steps: list[Step]) -> None:
        """A run stopped because its client went away: recorded with the nodes that ran, never charged or cached."""
        self.telemetry.record(
            RequestRecord(
                endpoint=endpoint,
                http_status=CLIENT_GONE_STATUS,
                key_id=caller.key_id,
                question=request.question,
                collection=request.collection,
                node_latency={step.node: step.ms for step in steps},
            )
        )

    def _run(
        self, caller: Caller, endpoint: str, request: QueryRequest, gone: threading.Event, forward: EventSink | None
    ) -> AnswerRecord:
        """One graph run that stops at its next node once `gone` is set (Cancelled, recorded as abandoned)."""
        steps: list[Step] = []

        def on_event(kind: str, data: Any) -> None:
            if kind == "step":
                steps.append(data)
            if gone.is_set():
                raise Cancelled(f"{endpoint}: the client went away")
            if forward is not None:
                forward(kind, data)

        try:  # tokens only for a caller they are forwarded to: a run without them is faster (graph/run.py)
            return answer(
                self.graph, request.question, run_context(request, caller.tenant), on_event, tokens=forward is not None
            )
        except Cancelled:
            self.abandoned(caller, endpoint, request, steps)
            raise

    def answer(
        self, caller: Caller, request: QueryRequest, endpoint: str = "/query", gone: threading.Event | None = None
    ) -> AnswerRecord:
        """The answer (cached or run); a run stops at its next node once `gone` is set (Cancelled)."""
        self.check_scope(request.collection, request.filters)
        started = time.perf_counter()
        scope = self._scope(caller, request)
        record, vector = self._cached(request, scope, started)
        if record is None:
            record = self._run(caller, endpoint, request, gone or threading.Event(), None)
            self._keep(request, scope, vector, record)
        self.finish(caller, endpoint, request, record)
        return record

    def stream(
        self, caller: Caller, request: QueryRequest, gone: threading.Event | None = None
    ) -> Iterator[tuple[str, Any]]:
        """(event, data) pairs: a 'progress' step per node as it finishes, 'token's, then the 'final' record.

        The scope is checked here, before the first event (an unknown collection is a 404, not an event).
        Once `gone` is set the run stops at its next node and the stream ends."""
        self.check_scope(request.collection, request.filters)
        return self._stream(caller, request, gone or threading.Event())

    def _stream(self, caller: Caller, request: QueryRequest, gone: threading.Event) -> Iterator[tuple[str, Any]]:
        started = time.perf_counter()
        scope = self._scope(caller, request)
        record, vector = self._cached(request, scope, started)
        if record is not None:
            self.finish(caller, "/query/stream", request, record)
            yield "progress", {"node": "cache", "cache_hit": True}
            for piece in record.answer.split(" "):
                yield "token", {"text": piece + " "}
            yield "final", record
            return
        events: queue.Queue[tuple[str, Any]] = queue.Queue()

        def forward(kind: str, data: Any) -> None:
            events.put((kind, data))

        def run() -> None:
            try:
                events.put(("final", self._run(caller, "/query/stream", request, gone, forward)))
            except Cancelled:
                events.put(("cancelled", None))  # ends the reader's wait: nobody reads what comes next
            except Exception as error:  # reported to the client as an error event, never as a stack trace
                events.put(("error", error))

        threading.Thread(target=run, daemon=True, name="query-stream").start()
        while True:
            kind, data = events.get()
            if kind == "cancelled":
                return
            if kind == "error":
                raise data
            if kind == "step":
                yield "progress", data.model_dump(exclude={"detail"}, exclude_none=True)
            elif kind == "token":
                yield "token", {"text": data}
            else:
                self._keep(request, scope, vector, data)
                self.finish(caller, "/query/stream", request, data)
                yield "final", data
                return
