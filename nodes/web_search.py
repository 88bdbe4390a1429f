"""web_search: the corrective fallback. Provider chain, graded results, only the relevant ones kept."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from core.schemas import RunContext
from core.state import GraphState
from core.steps import timed
from retrieval.services import Services
from retrieval.web_search import graded_web_evidence


@timed("web_search")
def web_search(state: GraphState, runtime: Runtime[RunContext], services: Services) -> dict[str, Any]:
    """Add relevant web (or offline commentary) evidence when local evidence is weak."""
    context = runtime.context or RunContext()
    if not context.allow_web:
        attempt = {"provider": "none", "status": "skipped", "detail": "web search disabled for this run"}
        return {
            "web_evidence": [],
            "web_provider": None,
            "web_attempts": [attempt],
            "web_ran": True,
            "trace": ["web_search: disabled for this run"],
        }
    _, incorrect = context.thresholds(services.settings)
    kept, provider, attempts = graded_web_evidence(
        state["question"], services.web, services.resources.sentence_vectors.embed, incorrect, context.tenant
    )
    summary = ", ".join(f"{a['provider']} {a['status']}" for a in attempts) or "no providers configured"
    return {
        "web_evidence": kept,
        "web_provider": provider,
        "web_attempts": attempts,
        "web_ran": True,
        "trace": [f"web_search: {summary}; {len(kept)} relevant results kept"],
    }
