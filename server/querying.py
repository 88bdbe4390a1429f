"""One question through cache, graph, rate limiter and telemetry; the same path for JSON and streaming."""

from __future__ import annotations

import queue
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from typing import Any

from core.record import output_record
from db.telemetry import RequestRecord, Telemetry
from graph import graph
from nodes.context import RunContext, Services
from server.cache import SemanticCache, scope_key
from server.ratelimit import RateLimiter, route_cost
from server.schemas import QueryRequest
from server.security import Caller


@dataclass
class QueryService:
    services: Services
    cache: SemanticCache
    limiter: RateLimiter
    telemetry: Telemetry

    def _context(self, request: QueryRequest) -> RunContext:
        return RunContext(services=self.services, allow_web=request.allow_web)

    @staticmethod
    def _input(request: QueryRequest) -> dict[str, Any]:
        return {
            "question": request.question,
            "collection": request.collection,
            "filters": request.filters,
            "top_k": request.top_k,
        }

    def _scope(self, request: QueryRequest) -> str:
        return scope_key(request.collection, request.filters, f"k={request.top_k};web={request.allow_web}")

    def finish(
        self, caller: Caller, endpoint: str, request: QueryRequest, record: dict[str, Any], cache_hit: bool
    ) -> None:
        """Charge the route's cost and write telemetry (telemetry failure never fails the request)."""
        web_ran = bool(record.get("web_attempts")) and record.get("web_attempts", [{}])[0].get("status") != "skipped"
        self.limiter.charge(
            caller.key_id, caller.limits, route_cost(cache_hit, web_ran, record.get("generator"), record.get("status"))
        )
        self.telemetry.record(
            RequestRecord(
                endpoint=endpoint,
                http_status=200,
                key_id=caller.key_id,
                question=request.question,
                collection=request.collection,
                route=record.get("route"),
                initial_route=record.get("initial_route"),
                confidence=record.get("confidence"),
                status=record.get("status"),
                cache_hit=cache_hit,
                generator=record.get("generator"),
                web_provider=record.get("web_provider"),
                latency_ms=record["latency_ms"].get("total"),
                node_latency=record["latency_ms"],
            )
        )

    def answer(self, caller: Caller, request: QueryRequest, endpoint: str = "/query") -> dict[str, Any]:
        started = time.perf_counter()
        scope = self._scope(request)
        cached, vector = self.cache.lookup(request.question, scope)
        if cached is not None:
            record = {**cached, "cache_hit": True, "question": request.question}
            record["latency_ms"] = {
                "cache": round((time.perf_counter() - started) * 1000, 3),
                "total": round((time.perf_counter() - started) * 1000, 3),
            }
            self.finish(caller, endpoint, request, record, cache_hit=True)
            return record
        output = graph.invoke(self._input(request), context=self._context(request))
        record = {**output_record(output, (time.perf_counter() - started) * 1000), "cache_hit": False}
        self.cache.store(request.question, scope, vector, record)
        self.finish(caller, endpoint, request, record, cache_hit=False)
        return record

    def stream(self, caller: Caller, request: QueryRequest) -> Iterator[tuple[str, dict[str, Any]]]:
        """(event, data) pairs: a 'progress' per node as it finishes, 'token's, then the 'final' record."""
        started = time.perf_counter()
        scope = self._scope(request)
        cached, vector = self.cache.lookup(request.question, scope)
        if cached is not None:
            record = {**cached, "cache_hit": True, "question": request.question}
            record["latency_ms"] = {"total": round((time.perf_counter() - started) * 1000, 3)}
            self.finish(caller, "/query/stream", request, record, cache_hit=True)
            yield "progress", {"node": "cache", "cache_hit": True}
            for piece in record["answer"].split(" "):
                yield "token", {"text": piece + " "}
            yield "final", record
            return
        events: queue.Queue = queue.Queue()
        final: dict[str, Any] = {}

        def run() -> None:
            try:
                for mode, chunk in graph.stream(
                    self._input(request), context=self._context(request), stream_mode=["updates", "custom", "values"]
                ):
                    if mode == "values":
                        final.clear()
                        final.update(chunk)
                    else:
                        events.put((mode, chunk))
                events.put(("done", None))
            except Exception as error:  # reported to the client as an error event, never as a stack trace
                events.put(("error", error))

        threading.Thread(target=run, daemon=True, name="query-stream").start()
        while True:
            mode, chunk = events.get()
            if mode == "done":
                break
            if mode == "error":
                raise chunk
            if mode == "updates":
                for node, update in chunk.items():
                    data: dict[str, Any] = {"node": node}
                    for key in ("route", "confidence", "status"):
                        if isinstance(update, dict) and key in update:
                            data[key] = update[key]
                    yield "progress", data
            elif mode == "custom" and "token" in chunk:
                yield "token", {"text": chunk["token"]}
        record = {**output_record(final, (time.perf_counter() - started) * 1000), "cache_hit": False}
        self.cache.store(request.question, scope, vector, record)
        self.finish(caller, "/query/stream", request, record, cache_hit=False)
        yield "final", record
