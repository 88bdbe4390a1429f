"""generate: a cited answer from the evidence blocks, or the refusal when the evidence is too weak."""

from __future__ import annotations

from typing import Any

from langgraph.config import get_stream_writer
from langgraph.runtime import Runtime

from core.state import GraphState
from core.types import Evidence
from generation.answer import generate_answer
from nodes.context import RunContext, context_of, services_of
from nodes.grade import thresholds
from nodes.timing import timed

MAX_BLOCKS = 8


def context_blocks(state: GraphState, floor: float) -> list[Evidence]:
    """CORRECT: refined local; AMBIGUOUS: refined local and web; INCORRECT: web only. Weak blocks never go in."""
    route = state.get("route", "INCORRECT")
    local = (state.get("refined") or []) if route in ("CORRECT", "AMBIGUOUS") else []
    web = (state.get("web_evidence") or []) if route in ("AMBIGUOUS", "INCORRECT") else []
    blocks = [b for b in [*local, *web] if (b.confidence or 0.0) >= floor]
    return sorted(blocks, key=lambda b: -(b.confidence or 0.0))[:MAX_BLOCKS]


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
    writer = _writer()
    emit = (lambda piece: writer({"token": piece})) if writer else None
    generator = services.generator(context.generator) if blocks else None  # weak evidence: the model is not called
    result = generate_answer(state["question"], blocks, generator, services.sanitiser, emit)
    notes = f"; sanitised: {', '.join(sorted(set(result.sanitised)))}" if result.sanitised else ""
    if result.removed_citations:
        notes += f"; removed unknown citations {', '.join(result.removed_citations)}"
    return {
        "context": blocks,
        "answer": result.answer,
        "status": result.status,
        "status_detail": result.detail,
        "citations": result.citations,
        "removed_citations": result.removed_citations,
        "generator": result.generator,
        "cacheable": result.status == "answered",
        "trace": [f"generate: {result.status} with {result.generator} from {len(blocks)} blocks{notes}"],
    }
