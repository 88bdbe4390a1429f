"""The output record callers see (CLI --json, HTTP): plain JSON, every field named in one place."""

from __future__ import annotations

from typing import Any

from core.types import Citation, Evidence


def evidence_record(e: Evidence) -> dict[str, Any]:
    return {
        "chunk_id": e.chunk_id,
        "citation": e.citation,
        "document": e.document,
        "collection": e.collection,
        "text": e.text,
        "highlights": e.highlights,
        "origin": e.origin,
        "url": e.source_url,
        "page": e.page,
        "publisher": e.publisher,
        "jurisdiction": e.jurisdiction,
        "document_type": e.document_type,
        "version": e.version,
        "effective_from": e.effective_from,
        "hierarchy_rank": e.hierarchy_rank,
        "retrieved_at": e.retrieved_at,
        "confidence": e.confidence,
        "grade_explanation": e.grade_explanation,
        "scores": e.scores.model_dump(),
        "metadata": {
            k: v
            for k, v in e.metadata.items()
            if k
            in ("coverage_type", "section_key", "benefit_name", "provider", "product", "variant", "category", "kind")
        },
    }


def citation_record(c: Citation) -> dict[str, Any]:
    return {
        "source": c.source,
        "citation": c.citation,
        "document": c.document,
        "url": c.url,
        "page": c.page,
        "chunk_id": c.chunk_id,
        "origin": c.origin,
    }


def output_record(output: dict[str, Any], total_ms: float | None = None) -> dict[str, Any]:
    """The graph's final state as the documented JSON record."""
    latency = dict(output.get("latency_ms") or {})
    latency["total"] = round(total_ms if total_ms is not None else sum(latency.values()), 3)
    used = output.get("context") or []
    return {
        "question": output.get("question"),
        "answer": output.get("answer", ""),
        "status": output.get("status", "refused"),
        "status_detail": output.get("status_detail", ""),
        "route": output.get("route"),
        "initial_route": output.get("initial_route"),
        "confidence": output.get("confidence"),
        "trust_grade": output.get("trust_grade"),
        "provenance": output.get("provenance") or {},
        "citations": [citation_record(c) for c in output.get("citations") or []],
        "coverage_type": output.get("coverage_type"),
        "removed_citations": output.get("removed_citations") or [],
        "evidence": [evidence_record(e) for e in (used or output.get("evidence") or [])],
        "evidence_used": bool(used),
        "refine_stats": output.get("refine_stats") or {},
        "generator": output.get("generator"),
        "web_provider": output.get("web_provider"),
        "web_attempts": output.get("web_attempts") or [],
        "cacheable": bool(output.get("cacheable")),
        "latency_ms": latency,
        "trace": output.get("trace") or [],
    }
