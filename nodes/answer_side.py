"""answer_side: one wording's answer to the compare question (run twice, in parallel, by Send)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from core.record import citation_record, evidence_record
from core.state import SideTask
from generation.answer import generate_answer
from nodes.context import RunContext, context_of, services_of
from nodes.generate import adaptive_policy_blocks, coverage_line
from nodes.grade import grade_evidence, thresholds
from nodes.refine import strip
from nodes.retrieve import narrowed_search
from nodes.timing import timed


def label_for(filters: dict[str, Any], evidence: list) -> str:
    if evidence:
        return evidence[0].document
    return ", ".join(f"{k} {v}" for k, v in filters.items() if k != "collection") or "wording"


@timed("answer_side")
def answer_side(task: SideTask, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Retrieve (intent-narrowed), grade, strip and answer for one wording; report its clauses."""
    context = context_of(runtime)
    services = services_of(context)
    correct, incorrect = thresholds(context, services)
    question = task["question"]
    found, note = narrowed_search(question, task["filters"], task["top_k"], context, correct)
    graded = grade_evidence(question, found)
    refined = strip(question, graded, services.resources.embedder.embed_documents, incorrect, correct)
    settings = services.settings
    blocks, weak = adaptive_policy_blocks(refined, settings.policy_evidence_floor, settings.policy_max_clauses)
    generator = services.generator(context.generator) if blocks else None
    result = generate_answer(question, blocks, generator, services.sanitiser)
    coverage = None
    if result.status == "answered":
        result.answer, coverage = coverage_line(result.answer, result.citations, blocks)
    return {
        "sides": [
            {
                "side": task["side"],
                "label": label_for(task["filters"], graded),
                "filters": task["filters"],
                "answer": result.answer,
                "status": result.status,
                "status_detail": weak or result.detail,
                "generator": result.generator,
                "coverage_type": coverage,
                "citations": [citation_record(c) for c in result.citations],
                "clauses": blocks,
                "evidence": [evidence_record(e) for e in (blocks or graded)],
                "trace": note,
            }
        ]
    }
