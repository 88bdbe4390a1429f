"""How far to trust an answer's best evidence, in words, and where that evidence comes from."""

from __future__ import annotations

from typing import Any

from core.schemas import TrustGrade
from core.types import Evidence


def trust_grade(route: str, best: Evidence | None) -> TrustGrade:
    if best is None:
        return TrustGrade(grade="low", rationale="No evidence was found.")
    source = f"{best.citation} ({best.publisher or 'unknown publisher'}, hierarchy rank {best.hierarchy_rank})"
    confidence = best.confidence or 0.0
    if route == "CORRECT" and best.hierarchy_rank <= 2:
        return TrustGrade(
            grade="high", rationale=f"Strong match in an authoritative source: {source}, confidence {confidence:.2f}."
        )
    if route == "CORRECT":
        return TrustGrade(grade="medium", rationale=f"Strong match, but in a lower-authority source: {source}.")
    if route == "AMBIGUOUS":
        return TrustGrade(
            grade="medium",
            rationale=f"Partial match ({source}, confidence {confidence:.2f}); web or commentary evidence added.",
        )
    return TrustGrade(
        grade="low", rationale=f"No local source answers well (best {source}, confidence {confidence:.2f})."
    )


def answered_trust(trust: TrustGrade | None, answer_confidence: float | None, high_trust: float) -> TrustGrade | None:
    """The evidence's trust grade, lowered from high to medium when the answer's confidence is under `high_trust`
    (the evidence was strong, but the answer may quote the wrong passage of it)."""
    if trust is None or trust.grade != "high" or answer_confidence is None:
        return trust
    if answer_confidence >= high_trust:
        return trust
    return TrustGrade(
        grade="medium",
        rationale=f"{trust.rationale} Several passages match about as well, and the answer may not quote the one "
        "that answers: check the cited clause.",
    )


def provenance(best: Evidence | None) -> dict[str, Any]:
    if best is None:
        return {}
    return {
        "citation": best.citation,
        "document": best.document,
        "publisher": best.publisher,
        "jurisdiction": best.jurisdiction,
        "version": best.version,
        "effective_from": best.effective_from,
        "hierarchy_rank": best.hierarchy_rank,
        "source_url": best.url,
        "page": best.page,
    }
