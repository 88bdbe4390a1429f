"""answer_side: one wording's answer to the compare question (run twice, in parallel, by Send)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from core.schemas import CompareSide, RunContext
from core.state import SideTask
from core.steps import timed
from core.types import Evidence
from generation.answer import generate_answer
from generation.blocks import adaptive_policy_blocks, coverage_line
from retrieval.grading import grade_evidence
from retrieval.policy_search import narrowed_search
from retrieval.services import Services
from retrieval.strips import strip


def label_for(filters: dict[str, Any], evidence: list[Evidence]) -> str:
    if evidence:
        return evidence[0].document
    return ", ".join(f"{k} {v}" for k, v in filters.items() if k != "collection") or "wording"


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
    blocks, weak = adaptive_policy_blocks(refined, settings.policy_evidence_floor, settings.policy_max_clauses)
    generator = services.generator(context.generator) if blocks else None
    result = generate_answer(question, blocks, generator, services.sanitiser)
    coverage = None
    if result.status == "answered":
        result.answer, coverage = coverage_line(result.answer, result.citations, blocks)
    side = CompareSide(
        side=task["side"],
        label=label_for(filters, graded),
        filters=filters,
        answer=result.answer,
        status=result.status,
        status_detail=weak or result.detail,
        generator=result.generator,
        coverage_type=coverage,
        citations=result.citations,
        evidence=blocks or graded,
        note=note,
    )
    return {"sides": [side], "clauses": {task["side"]: blocks}, "trace": [f"answer_side {task['side']}: {note}"]}
