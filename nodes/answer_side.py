"""answer_side: one wording's answer to the compare question (run twice, in parallel, by Send)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from core.schemas import CompareSide, RunContext
from core.state import SideTask
from core.steps import timed
from generation.grounded import grounded_answer
from language.analysis import analyse
from retrieval.grading import grade_evidence
from retrieval.policy_search import narrowed_search
from retrieval.services import Services
from retrieval.strips import strip


@timed("answer_side")
def answer_side(task: SideTask, runtime: Runtime[RunContext], services: Services) -> dict[str, Any]:
    """Retrieve (intent-narrowed), grade, strip and answer for one wording; report its clauses."""
    context = runtime.context or RunContext()
    settings = services.settings
    correct, incorrect = context.thresholds(settings)
    question = task["question"]
    filters = {**context.search_filters(), **task["filters"]}
    retriever = services.resources.retriever
    options = services.retrieval_options(context.retrieval_mode)
    found, note = narrowed_search(retriever, question, filters, settings.compare_top_k, options, correct)
    graded = grade_evidence(question, found, settings.authority_order)
    refined = strip(question, graded, services.resources.sentence_vectors.for_chunks, incorrect, correct)
    grounded = grounded_answer(
        question,
        analyse(question),
        refined,
        lambda: services.generator(context.generator),
        services.sanitiser,
        settings.policy_evidence_floor,
        settings.policy_max_clauses,
        services.resources.retriever.mentions,
    )
    result, blocks = grounded.result, grounded.blocks
    named_by_filters = ", ".join(f"{k} {v}" for k, v in filters.items() if k != "collection") or "wording"
    side = CompareSide(
        side=task["side"],
        label=graded[0].document if graded else named_by_filters,
        filters=filters,
        answer=result.answer,
        status=result.status,
        status_detail=result.detail,
        generator=result.generator,
        coverage_type=grounded.coverage,
        citations=result.citations,
        evidence=blocks or graded,
        note=note,
    )
    return {
        "sides": [side],
        "clauses": {task["side"]: grounded.cited_clauses()},
        "trace": [f"answer_side {task['side']}: {note}"],
    }
