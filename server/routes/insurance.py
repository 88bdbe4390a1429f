"""Insurance routes: the wordings in the index, a question about one insurer's wordings, two wordings
compared, retrieval measured on the caller's own labelled questions, and the caller's quota."""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, Depends, HTTPException
from fastapi.responses import JSONResponse

from core.schemas import Filters, RunContext
from db.telemetry import RequestRecord
from graph.run import compare
from retrieval.metrics import first_relevant_rank, hit_at_k, reciprocal_rank
from server.deps import admitted, reader, service
from server.ratelimit import route_cost
from server.schemas import (
    ComparePoliciesRequest,
    EvaluateRetrievalRequest,
    QueryRequest,
    SearchPolicyRequest,
    error_responses,
)
from server.security import Caller
from server.state import ServiceState

router = APIRouter(tags=["insurance"])
SEARCH_POLICY_FIELDS = {
    "answer", "coverage_type", "status", "status_detail", "citations", "evidence", "route", "confidence",
    "trust_grade", "cache_hit", "latency_ms",
}  # fmt: skip


@router.get("/policies", responses=error_responses(401, 403, 503))
def policies(who: Caller = Depends(reader), state: ServiceState = Depends(service)) -> dict[str, Any]:
    """The policy wordings in the index (for choosing what to compare)."""
    documents: dict[str, dict[str, Any]] = {}
    store = state.services.resources.reader.store()
    for payload in store.payloads({"document_type": "policy_wording"}, limit=100_000):
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


@router.post("/search-policy", responses=error_responses(401, 403, 400, 413, 422, 429, 503))
def search_policy(
    body: SearchPolicyRequest, who: Caller = Depends(admitted), state: ServiceState = Depends(service)
) -> dict[str, Any]:
    # The docstring is the OpenAPI description: the backslash-newline keeps its text on one line.
    """Answer from one insurer's wordings: answer, coverage type (covered / not covered / conditional), \
citations, evidence."""
    filters: Filters = {
        key: value
        for key, value in (
            ("category", body.category),
            ("provider", body.provider),
            ("product", body.product),
            ("variant", body.variant),
        )
        if value
    }
    request = QueryRequest(question=body.query, filters=filters, top_k=body.top_k, allow_web=False)
    record = state.queries.answer(who, request, endpoint="/search-policy")
    return record.model_dump(include=SEARCH_POLICY_FIELDS)


@router.post("/compare-policies", responses=error_responses(401, 403, 404, 400, 413, 422, 429, 503))
def compare_policies(
    body: ComparePoliciesRequest, who: Caller = Depends(admitted), state: ServiceState = Depends(service)
) -> dict[str, Any]:
    """The same question against two wordings: both answers and, per point, same / different / only in one."""
    try:
        side_a, side_b = body.sides()
    except ValueError as error:
        raise HTTPException(422, str(error)) from None
    record = compare(state.compare_graph, body.query, side_a, side_b, RunContext(allow_web=False))
    cost = sum(route_cost(False, False, side.generator, side.status) for side in record.sides)
    state.limiter.charge(who.key_id, who.limits, cost)
    state.telemetry.record(
        RequestRecord(
            endpoint="/compare-policies",
            http_status=200,
            key_id=who.key_id,
            question=body.query,
            latency_ms=record.latency_ms["total"],
            node_latency=record.latency_ms,
        )
    )
    return {
        "question": body.query,
        "a": record.side("a"),
        "b": record.side("b"),
        "points": record.points,
        "summary": record.summary,
        "latency_ms": record.latency_ms,
    }


@router.post("/evaluate-retrieval", responses=error_responses(401, 403, 404, 400, 413, 422, 429, 503))
def evaluate_retrieval(
    body: EvaluateRetrievalRequest, who: Caller = Depends(admitted), state: ServiceState = Depends(service)
) -> dict[str, Any]:
    """Hit rate and MRR of retrieval on your own labelled questions."""
    state.queries.check_scope(body.collection, body.filters)
    filters: dict[str, Any] = {**body.filters, **({"collection": body.collection} if body.collection else {})}
    k = body.k or state.settings.top_k
    rows: list[dict[str, Any]] = []
    for item in body.questions:
        found = state.services.resources.retriever.retrieve(item.question, filters, k)
        ranked = [e.chunk_id for e in found]
        relevant = [
            e.chunk_id
            for e in found
            if any(e.citation.startswith(g) for g in item.gold_citations) or e.doc_id in item.gold_doc_ids
        ]
        rows.append(
            {
                "question": item.question,
                "rank": first_relevant_rank(ranked, relevant),
                "hit": hit_at_k(ranked, relevant, k),
                "reciprocal_rank": reciprocal_rank(ranked, relevant, k),
                "retrieved": [e.citation for e in found],
            }
        )
    state.limiter.charge(who.key_id, who.limits, 0.2 * len(rows))
    state.telemetry.record(
        RequestRecord(endpoint="/evaluate-retrieval", http_status=200, key_id=who.key_id, collection=body.collection)
    )
    return {
        "k": k,
        "questions": len(rows),
        "hit_rate": round(sum(r["hit"] for r in rows) / len(rows), 4),
        "mrr": round(sum(r["reciprocal_rank"] for r in rows) / len(rows), 4),
        "results": [{key: r[key] for key in ("question", "rank", "retrieved")} for r in rows],
    }


@router.get("/quota", responses=error_responses(401, 403, 429, 503))
def quota(who: Caller = Depends(reader), state: ServiceState = Depends(service)) -> JSONResponse:
    """The caller's remaining quota; 429 (with Retry-After) once it is spent."""
    status = state.limiter.status(who.key_id, who.limits)
    body = {"key_id": who.key_id, "remaining": max(0.0, status["credits"]), **status}
    if status["credits"] < 1:
        detail = f"quota spent; retry after {status['retry_after_s']} s"
        retry = {"Retry-After": str(status["retry_after_s"])}
        return JSONResponse({"detail": detail, **body}, status_code=429, headers=retry)
    return JSONResponse(body)
