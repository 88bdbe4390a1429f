"""retrieve: hybrid search in Qdrant for the question (collection and filters from input or context)."""

from __future__ import annotations

import re
from typing import Any

from langgraph.runtime import Runtime

from core.state import GraphState
from core.types import Evidence
from nodes.context import RunContext, context_of, retrieval_options, services_of
from nodes.timing import timed
from retrieval.grading import grade_all
from retrieval.intent import classify


def search_filters(state: GraphState, context: RunContext) -> dict[str, Any]:
    """Input wins over run context; the collection is one more filter."""
    filters = {**context.filters, **(state.get("filters") or {})}
    collection = state.get("collection") or context.collection
    if collection:
        filters["collection"] = collection
    return filters


def top_k(state: GraphState, context: RunContext) -> int:
    return state.get("top_k") or context.top_k or services_of(context).settings.top_k


POLICY_FILTER_KEYS = ("category", "provider", "product", "variant")


def is_policy_scope(filters: dict[str, Any], policy_collections: list[str]) -> bool:
    """A search over insurance policy wordings (by collection or by insurance metadata)."""
    return (
        any(key in filters for key in POLICY_FILTER_KEYS)
        or filters.get("collection") in policy_collections
        or filters.get("document_type") == "policy_wording"
    )


def _best(question: str, evidence: list[Evidence]) -> float:
    return max((g.confidence for g in grade_all(question, evidence)), default=0.0)


def named_variants(question: str, filters: dict[str, Any], context: RunContext) -> dict[str, Any]:
    """A product or variant the question names ("the group variant") becomes a filter, if the index has it."""
    store = services_of(context).resources.reader.store()
    words = set(re.findall(r"[a-z0-9]+", question.lower()))
    found: dict[str, Any] = {}
    for key in ("variant", "product", "provider"):
        if key in filters:
            continue
        values = [v for v in store.counts_by(key) if v and v.lower() in words]
        if len(values) == 1:
            found[key] = values[0]
    return found


def narrowed_search(
    question: str, filters: dict[str, Any], k: int, context: RunContext, good: float
) -> tuple[list[Evidence], str]:
    """Policy questions: search only the sections the intent points to; fall back to the unnarrowed
    search when the narrowed candidates score poorly (below the CORRECT threshold and below it)."""
    retriever = services_of(context).resources.retriever
    options = retrieval_options(context)
    named = named_variants(question, filters, context)
    filters = {**filters, **named}
    note = f"filters from the question {named}; " if named else ""
    intent = classify(question)
    if intent is None:
        return retriever.retrieve(question, filters, k, options), f"{note}no intent recognised; unfiltered"
    narrowed = retriever.retrieve(question, {**filters, "section_key": intent.sections}, k, options)
    best = _best(question, narrowed)
    if best >= good:
        return narrowed, f"{note}intent {intent.name}: narrowed to {', '.join(intent.sections)} (best {best:.2f})"
    everything = retriever.retrieve(question, filters, k, options)
    if _best(question, everything) > best:
        return everything, f"{note}intent {intent.name}: narrowed candidates scored {best:.2f}; fell back to unfiltered"
    return (
        narrowed,
        f"{note}intent {intent.name}: narrowed to {', '.join(intent.sections)} (best {best:.2f}; unfiltered was no better)",
    )


@timed("retrieve")
def retrieve(state: GraphState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Fetch the top-k chunks for the question, every score kept (policy questions narrowed by intent)."""
    context = context_of(runtime)
    settings = services_of(context).settings
    question = state["question"].strip()
    if not question:
        raise ValueError("the question is empty")
    k = top_k(state, context)
    filters = search_filters(state, context)
    if is_policy_scope(filters, settings.policy_collections):
        evidence, note = narrowed_search(question, filters, k, context, settings.correct_threshold)
    else:
        evidence = services_of(context).resources.retriever.retrieve(question, filters, k, retrieval_options(context))
        note = f"mode {context.retrieval_mode}"
    return {
        "query": question,
        "evidence": evidence,
        "trace": [f"retrieve: {len(evidence)} chunks (k={k}; {note})"],
    }
