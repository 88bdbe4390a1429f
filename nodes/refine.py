"""refine: knowledge strips. Keep the sentences that support the question; drop the rest."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from core.state import GraphState
from core.types import Evidence
from nodes.context import RunContext, context_of, services_of
from nodes.grade import thresholds
from nodes.timing import timed
from retrieval.strips import Embed, score_sentences, sentences_of

STRIP_MIN_SCORE = 0.4
STRONG_FLOOR = 2  # strong evidence keeps at least its two best sentences


def strip(
    question: str, evidence: list[Evidence], embed: Embed | None, relevant: float, strong: float
) -> list[Evidence]:
    """Evidence above the relevance floor, each with the sentences that support the question."""
    kept_chunks = [e for e in evidence if (e.confidence or 0.0) >= relevant]
    passages = [sentences_of(e.text) for e in kept_chunks]
    referenced = {i for i, e in enumerate(kept_chunks) if e.scores.reference_match}
    scored = score_sentences(question, passages, embed, referenced)
    out = []
    for index, chunk in enumerate(kept_chunks):
        ranked = sorted((s for s in scored if s.block == index), key=lambda s: -s.score)
        keep = {s.text for s in ranked if s.score >= STRIP_MIN_SCORE}
        if len(keep) < STRONG_FLOOR and (chunk.confidence or 0.0) >= strong:
            keep |= {s.text for s in ranked[:STRONG_FLOOR]}
        if not keep:
            continue
        highlights = [s for s in passages[index] if s in keep]  # document order
        out.append(chunk.model_copy(update={"highlights": highlights}))
    return out


@timed("refine")
def refine(state: GraphState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Reduce graded evidence to its supporting sentences, recording how much was kept."""
    context = context_of(runtime)
    services = services_of(context)
    correct, incorrect = thresholds(context, services)
    evidence = state.get("evidence") or []
    refined = strip(state["question"], evidence, services.resources.embedder.embed_documents, incorrect, correct)
    original = sum(len(e.text.split()) for e in evidence)
    kept = sum(len(" ".join(e.highlights).split()) for e in refined)
    return {
        "refined": refined,
        "refine_stats": {
            "chunks_in": len(evidence),
            "chunks_kept": len(refined),
            "words_in": original,
            "words_kept": kept,
        },
        "trace": [f"refine: kept {kept} of {original} words in {len(refined)} of {len(evidence)} chunks"],
    }
