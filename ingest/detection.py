"""Is this text an insurance policy wording? Decided from the text alone, in whatever collection it lands.

Three signals, each saturating at a level every real wording we have reaches and guidance rarely does:
numbered clause headings (`3.1.2 Cataract Surgery`), the sections only a policy has (waiting periods,
exclusions, grace period, free look, claims, co-payment, renewal ...), and the policy's own vocabulary
(sum insured, insured person, policy period, pre-existing disease ...). The confidence is their mean; a
document at or above DETECTION_THRESHOLD is read as a policy wording (clause by clause) unless the user
said otherwise (`--meta document_type=...` or a sidecar). The threshold is measured over real wordings
and over laws and guidance by `python -m evals.policy_detection`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ingest.policy import section_key
from ingest.structure import Line

POLICY_WORDING = "policy_wording"
DETECTION_THRESHOLD = 0.6
CLAUSES_FOR_FULL = 15  # numbered clause headings
SECTIONS_FOR_FULL = 4  # distinct policy sections among the headings
TERMS_FOR_FULL = 6  # distinct policy terms in the text

_NUMBERED_HEADING_RE = re.compile(r"^(\d{1,2}(?:\.\d{1,2}){1,3})\.?\s+[A-Z(]")
_POLICY_SECTIONS = frozenset(
    (
        "table_of_benefits",
        "waiting_period",
        "exclusions",
        "co_payment",
        "room_rent",
        "claims",
        "grace_period",
        "free_look",
        "renewal",
        "cancellation",
        "grievance",
        "premium",
        "bonus",
    )
)
_POLICY_TERMS = [
    re.compile(pattern, re.I)
    for pattern in (
        r"\bsum insured\b",
        r"\binsured persons?\b",
        r"\bpolicy (?:period|year|schedule)\b",
        r"\bpolicy ?holder\b",
        r"\bpre-?existing (?:disease|condition)",
        r"\bhospitali[sz]ation\b",
        r"\bcashless\b",
        r"\bpremium\b",
        r"\bwaiting period\b",
        r"\bco-?payment\b",
    )
]
_HEADING_WORDS = 8


@dataclass(frozen=True)
class Detection:
    """What the text looks like, how sure, and the counts behind it (printed in the ingest report)."""

    document_type: str | None
    confidence: float
    clauses: int
    sections: int
    terms: int

    def metadata(self) -> dict[str, object]:
        return {"detected_type": self.document_type or "", "detection_confidence": self.confidence}


def _heading(text: str) -> bool:
    return len(text.split()) <= _HEADING_WORDS


def detect(lines: list[Line]) -> Detection:
    """Policy wording or not, with a confidence in [0, 1]."""
    texts = [" ".join(text.split()) for text, _ in lines if text.strip()]
    clauses = {m.group(1) for t in texts if (m := _NUMBERED_HEADING_RE.match(t))}
    sections = {key for t in texts if _heading(t) and (key := section_key(t)) in _POLICY_SECTIONS}
    body = "\n".join(texts)
    terms = sum(1 for pattern in _POLICY_TERMS if pattern.search(body))
    confidence = round(
        (
            min(1.0, len(clauses) / CLAUSES_FOR_FULL)
            + min(1.0, len(sections) / SECTIONS_FOR_FULL)
            + min(1.0, terms / TERMS_FOR_FULL)
        )
        / 3,
        3,
    )
    kind = POLICY_WORDING if confidence >= DETECTION_THRESHOLD else None
    return Detection(kind, confidence, len(clauses), len(sections), terms)
