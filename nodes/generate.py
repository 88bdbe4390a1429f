"""generate: a cited answer from the evidence blocks, or the refusal when the evidence is too weak."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from core.schemas import RunContext
from core.state import GraphState
from core.steps import timed
from generation.answer import GeneratedAnswer
from generation.blocks import MAX_BLOCKS, context_blocks, series_members
from generation.confidence import answer_confidence, answer_signals
from generation.grounded import GroundedAnswer, grounded_answer
from language.analysis import analyse
from retrieval.grading import ACROSS_PATIENTS_K
from retrieval.services import Services
from retrieval.trust import answered_trust


@timed("generate")
def generate(state: GraphState, runtime: Runtime[RunContext], services: Services) -> dict[str, Any]:
    """Answer from the blocks with the chosen generator; stream sanitised text as it comes."""
    context = runtime.context or RunContext()
    settings = services.settings
    _, incorrect = context.thresholds(settings)
    route = state.get("route", "INCORRECT")
    analysis = analyse(state["question"])
    refined = state.get("refined") or []
    series = series_members(state["question"], refined)  # "What are the Caldicott principles?": all of them
    cap = ACROSS_PATIENTS_K if analysis.across_patients else MAX_BLOCKS + len(series)
    blocks = context_blocks(route, refined, state.get("web_evidence") or [], incorrect, cap, series)

    def emit(piece: str) -> None:
        runtime.stream_writer({"token": piece})

    if ask_back := state.get("ask_back"):  # a patient named ambiguously: the answer is the question back
        grounded = GroundedAnswer(
            GeneratedAnswer(f"{ask_back[0].upper()}{ask_back[1:]}.", "refused", ask_back, "none"), [], None
        )
        emit(grounded.result.answer)
    else:
        grounded = grounded_answer(
            state["question"],
            analysis,
            blocks,
            lambda: services.generator(context.generator),
            services.sanitiser,
            settings.policy_evidence_floor,
            settings.policy_max_clauses,
            services.resources.retriever.mentions,
            emit,
        )
    result, blocks = grounded.result, grounded.blocks
    signals = answer_signals(result.answer, blocks, analysis.answer_type) if result.status == "answered" else None
    confidence = answer_confidence(signals, settings.answer_confidence_model)
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
        "coverage_type": grounded.coverage,
        "answer_confidence": confidence,
        "trust_grade": answered_trust(state.get("trust_grade"), confidence, settings.high_trust_answer_confidence),
        "removed_citations": result.removed_citations,
        "generator": result.generator,
        "cacheable": result.status == "answered",
        "trace": [f"generate: {result.status} with {result.generator} from {len(blocks)} blocks{notes}"],
    }
