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
# A space in a term stands for any run of whitespace, so each line is searched as it is: never copied word by
# word to collapse its spaces (a file of one line would be, at about ten times its size).
_POLICY_TERMS = [
    re.compile(pattern.replace(" ?", r"\s*").replace(" ", r"\s+"), re.I)
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


def detect(lines: list[Line]) -> Detection:
    """Policy wording or not, with a confidence in [0, 1]."""
    clauses: set[str] = set()
    sections: set[str] = set()
    terms: set[int] = set()
    for text, _ in lines:
        words = text.split(maxsplit=_HEADING_WORDS)  # a heading's words; the rest of a long line in one piece
        if not words:
            continue
        if match := _NUMBERED_HEADING_RE.match(" ".join(words[:2])):
            clauses.add(match.group(1))
        if len(words) <= _HEADING_WORDS and (key := section_key(" ".join(words))) in _POLICY_SECTIONS:
            sections.add(key)
        terms.update(i for i, pattern in enumerate(_POLICY_TERMS) if i not in terms and pattern.search(text))
    confidence = round(
        (
            min(1.0, len(clauses) / CLAUSES_FOR_FULL)
            + min(1.0, len(sections) / SECTIONS_FOR_FULL)
            + min(1.0, len(terms) / TERMS_FOR_FULL)
        )
        / 3,
        3,
    )
    kind = POLICY_WORDING if confidence >= DETECTION_THRESHOLD else None
    return Detection(kind, confidence, len(clauses), len(sections), len(terms))
