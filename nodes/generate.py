"""generate: a cited answer from the evidence blocks, or the refusal when the evidence is too weak."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from core.schemas import RunContext
from core.state import GraphState
from core.steps import timed
from generation.answer import generate_answer
from generation.blocks import (
    MAX_BLOCKS,
    absent_from_wording,
    adaptive_policy_blocks,
    context_blocks,
    cover_clauses,
    coverage_line,
)
from language.analysis import analyse
from retrieval.grading import ACROSS_PATIENTS_K
from retrieval.services import Services


@timed("generate")
def generate(state: GraphState, runtime: Runtime[RunContext], services: Services) -> dict[str, Any]:
    """Answer from the blocks with the chosen generator; stream sanitised text as it comes."""
    context = runtime.context or RunContext()
    settings = services.settings
    _, incorrect = context.thresholds(settings)
    route = state.get("route", "INCORRECT")
    analysis = analyse(state["question"])
    cap = ACROSS_PATIENTS_K if analysis.across_patients else MAX_BLOCKS
    blocks = context_blocks(route, state.get("refined") or [], state.get("web_evidence") or [], incorrect, cap)
    blocks, absent = cover_clauses(analysis, blocks)
    clauses = [b for b in blocks if b.document_type == "policy_wording"]
    blocks, weak = adaptive_policy_blocks(blocks, settings.policy_evidence_floor, settings.policy_max_clauses)
    if weak and analysis.about_cover:  # a benefit only weakly matched is, as far as the wording shows, not in it
        weak = absent_from_wording(clauses, f"match it only weakly ({weak})")
    weak = absent or weak

    def emit(piece: str) -> None:
        runtime.stream_writer({"token": piece})

    generator = services.generator(context.generator) if blocks else None  # weak evidence: the model is not called
    result = generate_answer(state["question"], blocks, generator, services.sanitiser, emit)
    if weak:
        result.detail = weak
    elif result.status == "refused" and analysis.about_cover and blocks:
        result.detail = absent_from_wording(blocks, "do not name what was asked")
    coverage = None
    if result.status == "answered":
        result.answer, coverage = coverage_line(result.answer, result.citations, blocks)
    notes = f"; sanitised: {', '.join(sorted(set(result.sanitised)))}" if result.sanitised else ""
    if result.removed_citations:
        notes += f"; removed unknown citations {', '.join(result.removed_citations)}"
    return {
        "evidence": blocks or state.get("candidates") or [],
        "evidence_used": bool(blocks),
        "answer": result.answer,
        "status": result.status,
        "status_detail": result.detail,
        "citations": result.citations,
        "coverage_type": coverage,
        "removed_citations": result.removed_citations,
        "generator": result.generator,
        "cacheable": result.status == "answered",
        "trace": [f"generate: {result.status} with {result.generator} from {len(blocks)} blocks{notes}"],
    }
