"""refine: knowledge strips. Keep the sentences that support the question; drop the rest."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from core.schemas import RunContext
from core.state import GraphState
from core.steps import timed
from generation.blocks import series_members
from retrieval.services import Services
from retrieval.strips import strip


@timed("refine")
def refine(state: GraphState, runtime: Runtime[RunContext], services: Services) -> dict[str, Any]:
    """Reduce graded evidence to its supporting sentences, recording how much was kept."""
    context = runtime.context or RunContext()
    correct, incorrect = context.thresholds(services.settings)
    candidates = state.get("candidates") or []
    series = frozenset(e.chunk_id for e in series_members(state["question"], candidates))  # every one, listed
    refined = strip(
        state["question"], candidates, services.resources.sentence_vectors.for_chunks, incorrect, correct, series
    )
    original = sum(len(e.text.split()) for e in candidates)
    kept = sum(len(" ".join(e.highlights).split()) for e in refined)
    return {
        "refined": refined,
        "refine_stats": {
            "chunks_in": len(candidates),
            "chunks_kept": len(refined),
            "words_in": original,
            "words_kept": kept,
        },
        "trace": [f"refine: kept {kept} of {original} words in {len(refined)} of {len(candidates)} chunks"],
    }
