"""The HTTP service: FastAPI routes, the graph mounted with LangServe, the web page."""

from __future__ import annotations

import json
import logging
import sqlite3
import time
import uuid
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
from fastapi import Depends, FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.responses import FileResponse, JSONResponse
from fastapi.staticfiles import StaticFiles
from langserve import add_routes
from pydantic import ValidationError
from sse_starlette.sse import EventSourceResponse

from core.settings import Settings
from db.keys import KeyStore
from db.store import StoreError
from db.telemetry import RequestRecord, Telemetry
from graph import compare_graph, graph
from nodes.context import RunContext, Services, set_default_services
from server.cache import SemanticCache
from server.querying import QueryService
from server.ratelimit import RateLimiter, route_cost
from server.schemas import (
    ComparePoliciesRequest,
    EvaluateRetrievalRequest,
    GraphInputModel,
    GraphOutputModel,
    KeyRequest,
    KeyResponse,
    QueryRequest,
    QueryResponse,
    RevokeRequest,
    SearchPolicyRequest,
    error_responses,
)
from server.security import Caller, HardeningMiddleware, identify, require

STATIC = Path(__file__).resolve().parent / "static"
AUTH = (401, 403)  # every route behind a key
BODY = (400, 413, 422)  # every route with a JSON body
log = logging.getLogger("policyrag.server")


class App:
    """Everything the routes share, built once per process."""

    def __init__(self, settings: Settings, services: Services | None = None, anonymous_read: bool | None = None):
        self.settings = settings
        self.services = services or Services(settings)
        self.anonymous_read = settings.anonymous_read if anonymous_read is None else anonymous_read
        self.keys = KeyStore(settings.keys_path)
        self.telemetry = Telemetry(settings.telemetry_path, settings.telemetry_redaction)
        self.limiter = RateLimiter()
        embedder = self.services.resources.embedder
        self.cache = SemanticCache(
            embedder.embed_query, settings.cache_threshold, settings.cache_max_entries, settings.cache_ttl_s
        )
        self.queries = QueryService(self.services, self.cache, self.limiter, self.telemetry)

    def close(self) -> None:
        self.keys.close()
        self.telemetry.close()


def _known_collections(state: App) -> dict[str, int]:
    return state.services.resources.reader.store().counts_by("collection")


def create_app(settings: Settings, services: Services | None = None, anonymous_read: bool | None = None) -> FastAPI:
    state = App(settings, services, anonymous_read)
    set_default_services(state.services)  # LangServe runs the compiled graph without a run context

    @asynccontextmanager
    async def lifespan(_: FastAPI):
        yield
        state.close()

    app = FastAPI(
        title="PolicyRAG",
        version="0.1.0",
        description="Answers about governing documents, with the clause behind every answer.",
        lifespan=lifespan,
    )
    app.state.policyrag = state
    app.add_middleware(HardeningMiddleware, max_body_bytes=settings.max_body_bytes)
    if settings.cors_origins:
        app.add_middleware(
            CORSMiddleware,
            allow_origins=settings.cors_origins,
            allow_methods=["GET", "POST"],
            allow_headers=["X-API-Key", "Content-Type"],
        )

    def caller(request: Request) -> Caller:
        return identify(request, state.keys, settings, state.anonymous_read)

    def reader(request: Request) -> Caller:
        return require(caller(request), "read")

    def admin(request: Request) -> Caller:
        return require(caller(request), "admin")

    def admitted(request: Request) -> Caller:
        """A reader whose rate limit lets the request start (429 with Retry-After otherwise)."""
        who = reader(request)
        decision = state.limiter.admit(who.key_id, who.limits)
        if not decision.allowed:
            raise HTTPException(
                429, f"rate limit: {decision.reason}", headers={"Retry-After": str(decision.retry_after_s)}
            )
        return who

    def check_query(body: QueryRequest) -> None:
        if len(body.question) > settings.max_question_chars:
            raise HTTPException(422, f"the question is longer than {settings.max_question_chars} characters")
        if body.collection is not None:
            known = _known_collections(state)
            if body.collection not in known:
                raise HTTPException(404, f"unknown collection '{body.collection}'; known: {', '.join(sorted(known))}")

    @app.exception_handler(RequestValidationError)
    async def invalid_request(request: Request, error: RequestValidationError) -> JSONResponse:
        problems = []
        for item in error.errors():
            if not isinstance(item, dict):  # LangServe raises it with plain strings ("Invalid JSON body")
                problems.append(f"body: {item}")
                continue
            where = ".".join(str(p) for p in item.get("loc", []) if p != "body") or "body"
            problems.append(f"{where}: {item.get('msg', 'invalid')}")
        state.telemetry.record(RequestRecord(endpoint=request.url.path, http_status=422))
        return JSONResponse({"detail": "invalid request", "problems": problems}, status_code=422)

    @app.exception_handler(ValidationError)
    async def invalid_graph_input(request: Request, error: ValidationError) -> JSONResponse:
        """LangServe's /batch validates each input outside its own error translation: an invalid input is the caller's error."""
        if not request.url.path.startswith("/graph/"):
            raise error  # anywhere else a failed model is our bug: the 500 handler logs it with a reference
        return await invalid_request(
            request, RequestValidationError(error.errors(include_url=False, include_context=False))
        )

    @app.exception_handler(StoreError)
    async def index_unavailable(request: Request, error: StoreError) -> JSONResponse:
        return JSONResponse({"detail": f"the index is unavailable: {error}"}, status_code=503)

    @app.exception_handler(sqlite3.OperationalError)
    async def storage_busy(request: Request, error: sqlite3.OperationalError) -> JSONResponse:
        log.warning("storage error on %s: %s", request.url.path, error)
        return JSONResponse(
            {"detail": "storage is busy or full; nothing was changed, retry shortly"},
            status_code=503,
            headers={"Retry-After": "5"},
        )

    @app.exception_handler(Exception)
    async def unexpected(request: Request, error: Exception) -> JSONResponse:
        reference = uuid.uuid4().hex[:12]
        log.error("unhandled error %s on %s: %s", reference, request.url.path, type(error).__name__, exc_info=error)
        return JSONResponse({"detail": "internal error", "reference": reference}, status_code=500)

    @app.get("/", include_in_schema=False)
    def page() -> FileResponse:
        return FileResponse(STATIC / "index.html", media_type="text/html")

    app.mount("/static", StaticFiles(directory=STATIC), name="static")

    @app.get("/health", tags=["service"])
    def health() -> dict[str, Any]:
        """Index, models, generator and web providers; never a secret."""
        resources = state.services.resources
        try:
            counts = _known_collections(state)
            index = {
                "present": True,
                "generation": resources.reader.generation,
                "chunks_per_collection": counts,
                "backend": "qdrant-server" if settings.qdrant_url else "qdrant-edge",
            }
        except StoreError as error:
            index = {"present": False, "detail": str(error)}
        generator = state.services.generator("auto")
        return {
            "status": "ok" if index["present"] else "degraded",
            "index": index,
            "models": {
                "embedding": settings.embedding_model,
                "variant": settings.embedding_variant,
                "loaded": "_model" in resources.embedder.__dict__,
            },
            "generator": generator.name,
            "web_providers": [p.name for p in state.services.web.providers],
            "semantic_cache": {"entries": len(state.cache), "threshold": settings.cache_threshold},
            "anonymous_read": state.anonymous_read,
        }

    @app.post(
        "/query", response_model=QueryResponse, tags=["query"], responses=error_responses(*AUTH, 404, *BODY, 429, 503)
    )
    def query(body: QueryRequest, who: Caller = Depends(admitted)) -> dict[str, Any]:
        """Answer with citations, route, confidence, trust grade, evidence with provenance and per-node latency."""
        check_query(body)
        return state.queries.answer(who, body)

    @app.post(
        "/query/stream",
        tags=["query"],
        response_class=EventSourceResponse,
        responses={
            200: {
                "description": "Server-sent events: progress, token, final (or error).",
                "content": {"text/event-stream": {"schema": {"type": "string"}}},
            },
            **error_responses(*AUTH, 404, *BODY, 429, 503),
        },
    )
    async def query_stream(body: QueryRequest, who: Caller = Depends(admitted)) -> EventSourceResponse:
        """Server-sent events: `progress` per node as it finishes, `token`s of the answer, then the `final` record."""
        await anyio.to_thread.run_sync(check_query, body)

        async def events():
            iterator = state.queries.stream(who, body)
            sentinel = object()
            while True:
                try:
                    item = await anyio.to_thread.run_sync(next, iterator, sentinel)
                except Exception as error:  # a failure mid-stream becomes an error event, never a stack trace
                    detail = str(error) if isinstance(error, (StoreError, ValueError)) else "internal error"
                    yield {"event": "error", "data": json.dumps({"detail": detail})}
                    return
                if item is sentinel:
                    return
                event, data = item
                yield {"event": event, "data": json.dumps(data, default=str)}

        return EventSourceResponse(events())

    @app.get("/analytics", tags=["admin"], responses=error_responses(*AUTH, 503))
    def analytics(who: Caller = Depends(admin)) -> dict[str, Any]:
        """Totals, latency percentiles, route breakdown, cache hit rate and refusal rate (from SQLite)."""
        return state.telemetry.analytics()

    @app.get("/rate-limit-status", tags=["query"], responses=error_responses(*AUTH, 503))
    def rate_limit_status(who: Caller = Depends(reader)) -> dict[str, Any]:
        """The caller's own bucket: credits left, refill rate, requests in the last minute."""
        return {"key_id": who.key_id, **state.limiter.status(who.key_id, who.limits)}

    @app.post(
        "/auth/generate", response_model=KeyResponse, tags=["admin"], responses=error_responses(*AUTH, *BODY, 503)
    )
    def generate_key(body: KeyRequest, who: Caller = Depends(admin)) -> dict[str, Any]:
        """A new API key, shown once in this reply and stored only as a salted hash."""
        plain, key = state.keys.create(
            body.name, list(body.scopes), body.expires_in_days, body.rate_per_minute, body.budget
        )
        return {
            "key": plain,
            "key_id": key.key_id,
            "name": key.name,
            "scopes": list(key.scopes),
            "expires_at": key.expires_at,
        }

    @app.post("/auth/revoke", tags=["admin"], responses=error_responses(*AUTH, 404, *BODY, 503))
    def revoke_key(body: RevokeRequest, who: Caller = Depends(admin)) -> dict[str, Any]:
        if not state.keys.revoke(body.key_id):
            raise HTTPException(404, f"no active key with id '{body.key_id}'")
        return {"revoked": body.key_id}

    @app.get("/policies", tags=["insurance"], responses=error_responses(*AUTH, 503))
    def policies(who: Caller = Depends(reader)) -> dict[str, Any]:
        """The policy wordings in the index (for choosing what to compare)."""
        documents: dict[str, dict[str, Any]] = {}
        for payload in state.services.resources.reader.store().payloads(
            {"document_type": "policy_wording"}, limit=100_000
        ):
            documents.setdefault(
                payload["doc_id"],
                {
                    "doc_id": payload["doc_id"],
                    "title": payload.get("title"),
                    "collection": payload.get("collection"),
                    "provider": payload.get("provider"),
                    "product": payload.get("product"),
                    "variant": payload.get("variant"),
                    "uin": payload.get("uin") or payload.get("version"),
                },
            )
        return {"documents": sorted(documents.values(), key=lambda d: d["doc_id"])}

    @app.post("/search-policy", tags=["insurance"], responses=error_responses(*AUTH, *BODY, 429, 503))
    def search_policy(body: SearchPolicyRequest, who: Caller = Depends(admitted)) -> dict[str, Any]:
        """Answer from one insurer's wordings: answer, coverage type (covered / not covered / conditional), citations, evidence."""
        filters = {
            k: v
            for k, v in (
                ("category", body.category),
                ("provider", body.provider),
                ("product", body.product),
                ("variant", body.variant),
            )
            if v
        }
        request = QueryRequest(question=body.query, filters=filters, top_k=body.top_k, allow_web=False)
        check_query(request)
        record = state.queries.answer(who, request, endpoint="/search-policy")
        return {
            key: record.get(key)
            for key in (
                "answer",
                "coverage_type",
                "status",
                "status_detail",
                "citations",
                "evidence",
                "route",
                "confidence",
                "trust_grade",
                "cache_hit",
                "latency_ms",
            )
        }

    @app.post("/compare-policies", tags=["insurance"], responses=error_responses(*AUTH, 404, *BODY, 429, 503))
    def compare_policies(body: ComparePoliciesRequest, who: Caller = Depends(admitted)) -> dict[str, Any]:
        """The same question against two wordings: both answers and, per point, same / different / only in one."""
        try:
            side_a, side_b = body.sides()
        except ValueError as error:
            raise HTTPException(422, str(error)) from None
        started = time.perf_counter()
        out = compare_graph.invoke(
            {"question": body.query, "a": side_a, "b": side_b},
            context=RunContext(services=state.services, allow_web=False),
        )
        sides = {s["side"]: {k: v for k, v in s.items() if k != "clauses"} for s in out["sides"]}
        if not sides["a"]["evidence"] and not sides["b"]["evidence"]:
            raise HTTPException(
                404, "neither wording was found in the index; check the document ids or product names (GET /policies)"
            )
        for (
            name,
            side,
        ) in (
            sides.items()
        ):  # a comparison with a wording that is not there would list everything as "only in" the other
            if not side["evidence"]:
                wanted = ", ".join(f"{k} {v}" for k, v in side["filters"].items() if k != "collection")
                raise HTTPException(
                    404,
                    f"wording {name} ({wanted}) was not found in the index; check the document id or product name (GET /policies)",
                )
        cost = sum(route_cost(False, False, side["generator"], side["status"]) for side in sides.values())
        state.limiter.charge(who.key_id, who.limits, cost)
        total = round((time.perf_counter() - started) * 1000, 3)
        state.telemetry.record(
            RequestRecord(
                endpoint="/compare-policies",
                http_status=200,
                key_id=who.key_id,
                question=body.query,
                latency_ms=total,
                node_latency=out.get("latency_ms"),
            )
        )
        return {
            "question": body.query,
            "a": sides["a"],
            "b": sides["b"],
            "points": out["points"],
            "summary": out["summary"],
            "latency_ms": {**out.get("latency_ms", {}), "total": total},
        }

    @app.post("/evaluate-retrieval", tags=["insurance"], responses=error_responses(*AUTH, *BODY, 429, 503))
    def evaluate_retrieval(body: EvaluateRetrievalRequest, who: Caller = Depends(admitted)) -> dict[str, Any]:
        """Hit rate and MRR of retrieval on your own labelled questions."""
        filters = {**body.filters, **({"collection": body.collection} if body.collection else {})}
        rows = []
        for item in body.questions:
            found = state.services.resources.retriever.retrieve(item.question, filters, body.k)
            rank = next(
                (
                    i
                    for i, e in enumerate(found, start=1)
                    if any(e.citation.startswith(g) for g in item.gold_citations) or e.doc_id in item.gold_doc_ids
                ),
                None,
            )
            rows.append({"question": item.question, "rank": rank, "retrieved": [e.citation for e in found]})
        state.limiter.charge(who.key_id, who.limits, 0.2 * len(rows))
        hits = sum(1 for r in rows if r["rank"])
        return {
            "k": body.k,
            "questions": len(rows),
            "hit_rate": round(hits / len(rows), 4),
            "mrr": round(sum(1 / r["rank"] for r in rows if r["rank"]) / len(rows), 4),
            "results": rows,
        }

    @app.get("/quota", tags=["insurance"], responses=error_responses(*AUTH, 429, 503))
    def quota(who: Caller = Depends(reader)) -> JSONResponse:
        """The caller's remaining quota; 429 (with Retry-After) once it is spent."""
        status = state.limiter.status(who.key_id, who.limits)
        body = {"key_id": who.key_id, "remaining": max(0.0, status["credits"]), **status}
        if status["credits"] < 1:
            detail = f"quota spent; retry after {status['retry_after_s']} s"
            return JSONResponse(
                {"detail": detail, **body}, status_code=429, headers={"Retry-After": str(status["retry_after_s"])}
            )
        return JSONResponse(body)

    add_routes(
        app,
        graph,
        path="/graph",
        input_type=GraphInputModel,
        output_type=GraphOutputModel,
        dependencies=[Depends(reader)],
        enabled_endpoints=["invoke", "batch", "stream", "input_schema", "output_schema", "playground"],
    )
    return app
