"""retrieve: hybrid search in Qdrant for the question (collection and filters from the run context)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from core.schemas import RunContext
from core.state import GraphState
from core.steps import timed
from language.analysis import analyse
from retrieval.grading import ACROSS_PATIENTS_K
from retrieval.policy_search import is_policy_scope, narrowed_search
from retrieval.scope import scope_for
from retrieval.services import Services


@timed("retrieve")
def retrieve(state: GraphState, runtime: Runtime[RunContext], services: Services) -> dict[str, Any]:
    """Fetch a deep pool of candidates, every score kept (policy questions narrowed by intent); grading
    chooses the evidence from it."""
    context = runtime.context or RunContext()
    settings = services.settings
    question = state["question"].strip()
    if not question:
        raise ValueError("the question is empty")
    pool = max(settings.candidate_pool, context.k(settings))
    if analyse(question).across_patients:
        pool = max(pool, 2 * ACROSS_PATIENTS_K)
    retriever = services.resources.retriever
    retriever.embedder.embed_ahead(question)  # scored against the sentences later, while the search runs now
    scope = scope_for(question, context.search_filters(), retriever.reader.store(), retriever.patients)
    options = services.retrieval_options(context.retrieval_mode)
    if is_policy_scope(scope.filters, settings.policy_collections):
        correct, _ = context.thresholds(settings)  # a run's own threshold, as answer_side reads it
        candidates, note = narrowed_search(retriever, question, scope.filters, pool, options, correct)
    else:
        named = tuple(p.patient_id for p in scope.patients)  # a patient named by name counts as named by id
        candidates = retriever.retrieve(question, scope.filters, pool, options, named)
        note = f"mode {context.retrieval_mode}"
    trace = f"retrieve: {len(candidates)} candidates (pool {pool}; {scope.note + '; ' if scope.note else ''}{note})"
    return {"query": question, "candidates": candidates, "ask_back": scope.ask_back, "trace": [trace]}
