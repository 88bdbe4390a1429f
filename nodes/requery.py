"""requery: one more try after a refusal. Expanded query, wider local search, web if it has not run."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from core.schemas import RunContext
from core.state import GraphState
from core.steps import timed
from core.types import Evidence
from language.expansion import expand
from retrieval.grading import grade_evidence
from retrieval.policy_search import is_policy_scope, named_variants
from retrieval.scope import scope_for
from retrieval.services import Services
from retrieval.strips import strip
from retrieval.web_search import graded_web_evidence


@timed("requery")
def requery(state: GraphState, runtime: Runtime[RunContext], services: Services) -> dict[str, Any]:
    """Look again; report whether anything new turned up (only then is the answer regenerated)."""
    context = runtime.context or RunContext()
    settings = services.settings
    correct, incorrect = context.thresholds(settings)
    question = state["question"]
    query = expand(question)
    candidates = state.get("candidates") or []
    seen = {e.chunk_id for e in candidates}
    options = services.retrieval_options(context.retrieval_mode)
    pool = max(settings.candidate_pool, context.k(settings))
    retriever = services.resources.retriever
    # the first search's scope holds: the patient, the domain and the policy variant the question names
    filters = scope_for(question, context.search_filters(), retriever.reader.store(), retriever.patients).filters
    if is_policy_scope(filters, settings.policy_collections):
        filters = {**filters, **named_variants(question, filters, retriever.reader.store())}
    found = retriever.retrieve(query, filters, pool, options)
    graded = grade_evidence(question, [e for e in found if e.chunk_id not in seen], settings.authority_order)
    new_local = strip(question, graded, services.resources.sentence_vectors.for_chunks, incorrect, correct)
    update: dict[str, Any] = {"query": query, "requeried": True}
    new_web: list[Evidence] = []
    if not state.get("web_ran") and context.allow_web:
        new_web, provider, attempts = graded_web_evidence(
            question, services.web, services.resources.sentence_vectors.embed, incorrect, context.tenant
        )
        update.update({"web_ran": True, "web_provider": provider, "web_attempts": attempts})
    known_web = {e.chunk_id for e in state.get("web_evidence") or []}
    new_web = [e for e in new_web if e.chunk_id not in known_web]
    new_evidence = bool(new_local or new_web)
    update.update(
        {
            "new_evidence": new_evidence,
            "candidates": [*candidates, *graded],
            "refined": [*(state.get("refined") or []), *new_local],
            "web_evidence": [*(state.get("web_evidence") or []), *new_web],
            "route": "AMBIGUOUS" if new_evidence else "INCORRECT",
            "trace": [f"requery: '{query}' gave {len(new_local)} new local and {len(new_web)} new web blocks"],
        }
    )
    if not new_evidence and not state.get("evidence_used"):
        update["evidence"] = update["candidates"]  # the refusal shows every weak candidate found
    return update
