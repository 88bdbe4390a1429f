"""web_search: the corrective fallback. Provider chain, graded results, only the relevant ones kept."""

from __future__ import annotations

from typing import Any

import numpy as np
from langgraph.runtime import Runtime

from core.state import GraphState
from core.types import Evidence
from nodes.context import RunContext, Services, context_of, services_of
from nodes.grade import grade_evidence, thresholds
from nodes.timing import timed


def graded_web_evidence(
    question: str, services: Services, floor: float
) -> tuple[list[Evidence], str | None, list[dict[str, str]]]:
    """Search the web chain, give each result a dense score, grade it like local evidence, keep the relevant ones."""
    result = services.web.search(question)
    evidence = result.evidence
    if evidence:
        vectors = services.resources.embedder.embed_documents(
            [question] + [f"{e.document}\n{e.text}" for e in evidence]
        )
        similarities = vectors[1:] @ vectors[0]
        evidence = [
            e
            if e.scores.dense is not None
            else e.model_copy(update={"scores": e.scores.model_copy(update={"dense": float(s)})})
            for e, s in zip(evidence, np.asarray(similarities))
        ]
    graded = grade_evidence(question, evidence)
    return [e for e in graded if (e.confidence or 0.0) >= floor], result.provider, result.attempts


@timed("web_search")
def web_search(state: GraphState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Add relevant web (or offline commentary) evidence when local evidence is weak."""
    context = context_of(runtime)
    if not context.allow_web:
        attempt = {"provider": "none", "status": "skipped", "detail": "web search disabled for this run"}
        return {
            "web_evidence": [],
            "web_provider": None,
            "web_attempts": [attempt],
            "web_ran": True,
            "trace": ["web_search: disabled for this run"],
        }
    services = services_of(context)
    _, incorrect = thresholds(context, services)
    kept, provider, attempts = graded_web_evidence(state["question"], services, incorrect)
    summary = ", ".join(f"{a['provider']} {a['status']}" for a in attempts) or "no providers configured"
    return {
        "web_evidence": kept,
        "web_provider": provider,
        "web_attempts": attempts,
        "web_ran": True,
        "trace": [f"web_search: {summary}; {len(kept)} relevant results kept"],
    }
