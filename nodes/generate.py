"""generate: a cited answer from the evidence blocks, or the refusal when the evidence is too weak."""

from __future__ import annotations

from typing import Any

from langgraph.config import get_stream_writer
from langgraph.runtime import Runtime

from core.state import GraphState
from core.types import Evidence
from generation.answer import generate_answer
from ingest.policy import POLARITY_LABELS
from nodes.context import RunContext, context_of, services_of
from nodes.grade import thresholds
from nodes.timing import timed

MAX_BLOCKS = 8
POLICY_MEAN_OVER = 2  # policy questions: the mean confidence of this many top clauses decides


def context_blocks(state: GraphState, floor: float) -> list[Evidence]:
    """CORRECT: refined local; AMBIGUOUS: refined local and web; INCORRECT: web only. Weak blocks never go in."""
    route = state.get("route", "INCORRECT")
    local = (state.get("refined") or []) if route in ("CORRECT", "AMBIGUOUS") else []
    web = (state.get("web_evidence") or []) if route in ("AMBIGUOUS", "INCORRECT") else []
    blocks = [b for b in [*local, *web] if (b.confidence or 0.0) >= floor]
    return sorted(blocks, key=lambda b: -(b.confidence or 0.0))[:MAX_BLOCKS]


def adaptive_policy_blocks(blocks: list[Evidence], floor: float, cap: int) -> tuple[list[Evidence], str]:
    """Policy wordings among the blocks: cap them; refuse (no model call) when the top ones are weak on average."""
    clauses = sorted((b for b in blocks if b.document_type == "policy_wording"), key=lambda b: -(b.confidence or 0.0))
    if not clauses:
        return blocks, ""
    top = [c.confidence or 0.0 for c in clauses[:POLICY_MEAN_OVER]]
    mean = sum(top) / len(top)
    if mean < floor:
        return [], f"the best clauses average confidence {mean:.2f}, under the policy floor {floor}"
    return blocks[:cap], ""


def coverage_line(answer: str, citations: list, blocks: list[Evidence]) -> tuple[str, str | None]:
    """Policy answers state their coverage polarity and the clause it comes from."""
    for citation in citations:
        block = blocks[citation.source - 1]
        polarity = block.metadata.get("coverage_type")
        if block.document_type == "policy_wording" and polarity in POLARITY_LABELS and POLARITY_LABELS[polarity]:
            return (
                f"{answer} Coverage: {POLARITY_LABELS[polarity].lower()} under {block.citation} [Source {citation.source}].",
                polarity,
            )
    return answer, None


def _writer():
    try:
        return get_stream_writer()
    except RuntimeError:  # called outside a graph run (unit tests)
        return None


@timed("generate")
def generate(state: GraphState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Answer from the blocks with the chosen generator; stream sanitised text as it comes."""
    context = context_of(runtime)
    services = services_of(context)
    _, incorrect = thresholds(context, services)
    blocks = context_blocks(state, incorrect)
    settings = services.settings
    blocks, weak = adaptive_policy_blocks(blocks, settings.policy_evidence_floor, settings.policy_max_clauses)
    writer = _writer()
    emit = (lambda piece: writer({"token": piece})) if writer else None
    generator = services.generator(context.generator) if blocks else None  # weak evidence: the model is not called
    result = generate_answer(state["question"], blocks, generator, services.sanitiser, emit)
    if weak:
        result.detail = weak
    coverage = None
    if result.status == "answered":
        result.answer, coverage = coverage_line(result.answer, result.citations, blocks)
    notes = f"; sanitised: {', '.join(sorted(set(result.sanitised)))}" if result.sanitised else ""
    if result.removed_citations:
        notes += f"; removed unknown citations {', '.join(result.removed_citations)}"
    return {
        "context": blocks,
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
