"""answer_side: one wording's answer to the compare question (run twice, in parallel, by Send)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from core.schemas import Citation, CompareSide, RunContext
from core.state import SideTask
from core.steps import timed
from core.types import Evidence
from generation.grounded import grounded_answer
from language.analysis import analyse
from retrieval.grading import grade_evidence
from retrieval.policy_search import narrowed_search
from retrieval.services import Services
from retrieval.strips import strip


def label_for(filters: dict[str, Any], evidence: list[Evidence]) -> str:
    if evidence:
        return evidence[0].document
    return ", ".join(f"{k} {v}" for k, v in filters.items() if k != "collection") or "wording"


def cited_clauses(blocks: list[Evidence], citations: list[Citation]) -> list[Evidence]:
    """The clauses the side's answer cites, in the order it cites them (the answering clause first): the compare
    table is built from these alone, so it never shows a clause the answer did not rely on, nor says a point is
    missing that the answer covers."""
    return [blocks[n - 1] for n in dict.fromkeys(c.source for c in citations)]


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
    )
    result, blocks = grounded.result, grounded.blocks
    cited = cited_clauses(blocks, result.citations) if result.status == "answered" else []
    side = CompareSide(
        side=task["side"],
        label=label_for(filters, graded),
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
    return {"sides": [side], "clauses": {task["side"]: cited}, "trace": [f"answer_side {task['side']}: {note}"]}
