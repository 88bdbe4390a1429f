"""Which evidence blocks the answerer is given, and the coverage line a policy answer ends with."""

from __future__ import annotations

from core.types import COVERAGE_LABELS, Citation, Evidence

MAX_BLOCKS = 8
POLICY_MEAN_OVER = 2  # policy questions: the mean confidence of this many top clauses decides


def context_blocks(
    route: str, refined: list[Evidence], web: list[Evidence], floor: float, cap: int = MAX_BLOCKS
) -> list[Evidence]:
    """CORRECT: refined local; AMBIGUOUS: refined local and web; INCORRECT: web only. Weak blocks never go in."""
    local = refined if route in ("CORRECT", "AMBIGUOUS") else []
    web = web if route in ("AMBIGUOUS", "INCORRECT") else []
    blocks = [b for b in [*local, *web] if (b.confidence or 0.0) >= floor]
    return sorted(blocks, key=lambda b: -(b.confidence or 0.0))[:cap]


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


# Sections (ingest.policy.SECTION_KEYS) about how the policy is run, not what it pays for: a coverage line
# there would mislead.
PROCEDURAL_SECTIONS = frozenset(
    {
        "claims",
        "grievance",
        "definitions",
        "renewal",
        "cancellation",
        "free_look",
        "grace_period",
        "premium",
        "preamble",
    }
)


def coverage_line(answer: str, citations: list[Citation], blocks: list[Evidence]) -> tuple[str, str | None]:
    """Policy answers state the coverage polarity of the clause that answers (the first one cited) and name
    it; procedural clauses (claims, grievances, renewal, definitions) get no coverage line."""
    for citation in citations[:1]:
        block = blocks[citation.source - 1]
        if block.metadata.get("section_key") in PROCEDURAL_SECTIONS:
            return answer, None
        polarity = str(block.metadata.get("coverage_type") or "")
        if block.document_type == "policy_wording" and COVERAGE_LABELS.get(polarity):
            label = COVERAGE_LABELS[polarity].lower()
            return f"{answer} Coverage: {label} under {block.citation} [Source {citation.source}].", polarity
    return answer, None
