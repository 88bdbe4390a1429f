"""Knowledge strips (CRAG's refine step): each relevant chunk cut to the sentences that support the question."""

from __future__ import annotations

from core.types import Evidence
from language.sentences import split_sentences
from language.support import EmbedFor, score_sentences

STRIP_MIN_SCORE = 0.4
STRONG_FLOOR = 2  # strong evidence keeps at least its two best sentences ...
RELEVANT_FLOOR = 1  # ... relevant evidence its best one: the grader judged the chunk, plain words may miss
# every sentence of it ("races cars for a living" against "professional participation in motor racing")


def strip(
    question: str,
    evidence: list[Evidence],
    embed_for: EmbedFor | None,
    relevant: float,
    strong: float,
    whole: frozenset[str] = frozenset(),
) -> list[Evidence]:
    """Evidence above the relevance floor, each with the sentences that support the question; `whole`: the chunk
    ids kept whatever their grade (the members of a series asked for whole: a list is wrong without one)."""
    kept_chunks = [e for e in evidence if (e.confidence or 0.0) >= relevant or e.chunk_id in whole]
    passages = [split_sentences(e.text) for e in kept_chunks]
    referenced = {i for i, e in enumerate(kept_chunks) if e.scores.reference_match}
    scored = score_sentences(question, passages, embed_for(kept_chunks) if embed_for else None, referenced)
    out = []
    for index, chunk in enumerate(kept_chunks):
        ranked = sorted((s for s in scored if s.block == index), key=lambda s: -s.score)
        keep = {s.text for s in ranked if s.score >= STRIP_MIN_SCORE}
        floor = STRONG_FLOOR if (chunk.confidence or 0.0) >= strong else RELEVANT_FLOOR
        if len(keep) < floor:
            keep |= {s.text for s in ranked[:floor]}
        if not keep:
            continue
        highlights = [s for s in passages[index] if s in keep]  # document order
        out.append(chunk.model_copy(update={"highlights": highlights}))
    return out
