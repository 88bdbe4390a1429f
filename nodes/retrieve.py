"""retrieve: hybrid search in Qdrant for the question (collection and filters from input or context)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from core.state import GraphState
from nodes.context import RunContext, context_of, retrieval_options, services_of
from nodes.timing import timed


def search_filters(state: GraphState, context: RunContext) -> dict[str, Any]:
    """Input wins over run context; the collection is one more filter."""
    filters = {**context.filters, **(state.get("filters") or {})}
    collection = state.get("collection") or context.collection
    if collection:
        filters["collection"] = collection
    return filters


def top_k(state: GraphState, context: RunContext) -> int:
    return state.get("top_k") or context.top_k or services_of(context).settings.top_k


@timed("retrieve")
def retrieve(state: GraphState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Fetch the top-k chunks for the question, every score kept."""
    context = context_of(runtime)
    question = state["question"].strip()
    if not question:
        raise ValueError("the question is empty")
    k = top_k(state, context)
    evidence = services_of(context).resources.retriever.retrieve(question, search_filters(state, context), k, retrieval_options(context))
    return {
        "query": question,
        "evidence": evidence,
        "trace": [f"retrieve: {len(evidence)} chunks (k={k}, mode {context.retrieval_mode})"],
    }
