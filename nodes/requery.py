"""requery: one more try after a refusal. Expanded query, wider local search, web if it has not run."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from core.state import GraphState
from nodes.context import RunContext, context_of, retrieval_options, services_of
from nodes.grade import grade_evidence, thresholds
from nodes.refine import strip
from nodes.retrieve import search_filters, top_k
from nodes.timing import timed
from nodes.web_search import graded_web_evidence
from retrieval.expansion import expand


@timed("requery")
def requery(state: GraphState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Look again; report whether anything new turned up (only then is the answer regenerated)."""
    context = context_of(runtime)
    services = services_of(context)
    correct, incorrect = thresholds(context, services)
    question = state["question"]
    query = expand(question)
    seen = {e.chunk_id for e in state.get("evidence") or []}
    found = services.resources.retriever.retrieve(
        query, search_filters(state, context), 2 * top_k(state, context), retrieval_options(context)
    )
    fresh = [e for e in found if e.chunk_id not in seen]
    graded = grade_evidence(question, fresh)
    new_local = strip(question, graded, services.resources.embedder.embed_documents, incorrect, correct)
    update: dict[str, Any] = {"query": query, "requeried": True}
    new_web = []
    if not state.get("web_ran") and context.allow_web:
        new_web, provider, attempts = graded_web_evidence(question, services, incorrect)
        update.update({"web_ran": True, "web_provider": provider, "web_attempts": attempts})
    known_web = {e.chunk_id for e in state.get("web_evidence") or []}
    new_web = [e for e in new_web if e.chunk_id not in known_web]
    new_evidence = bool(new_local or new_web)
    update.update(
        {
            "new_evidence": new_evidence,
            "evidence": [*(state.get("evidence") or []), *graded],
            "refined": [*(state.get("refined") or []), *new_local],
            "web_evidence": [*(state.get("web_evidence") or []), *new_web],
            "route": "AMBIGUOUS" if new_evidence else "INCORRECT",
            "trace": [f"requery: '{query}' gave {len(new_local)} new local and {len(new_web)} new web blocks"],
        }
    )
    return update
