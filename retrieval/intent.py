"""What a policy question asks for (benefit, exclusion, amount/limit, waiting period, procedure,
definition, eligibility, policy terms such as grace or free-look periods), and which clause sections
can answer it.

Used to narrow a policy-wording search by section before the vector search; the caller falls back
to the unnarrowed search when the narrowed candidates score poorly.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# (intent, pattern) in priority order: the first that matches wins
INTENT_PATTERNS: list[tuple[str, str]] = [
    (
        "definition",
        r"\b(define[sd]?|definition|what (does|is meant by)|meaning of|what is an?\b.{0,30}\bunder the policy)\b",
    ),
    (
        "waiting_period",
        r"\b(waiting period|wait(ing)?\b|how long (before|until)|after how (many|long)|pre-?existing|\bped\b)",
    ),
    (
        "procedure",
        r"\b(how (do|can|should) (i|we|you) (make a )?claim|claim (procedure|process|form)|documents?|notify|intimat\w*"
        r"|cashless|reimbursement (process|claim)|submit|grievance|complain"
        # telling the insurer in plain words: "by when do we have to tell them, and what do we send?"
        r"|(tell|inform|let) (the|my|our|your|them|him|her)\b.{0,20}\b(insurer|company|tpa|know)|inform them"
        r"|what (do|will|would|should|must) (i|we|you) (need to |have to )?(send|provide|give|attach))\b",
    ),
    ("exclusion", r"\b(exclu\w*|not covered|isn'?t covered|never (covered|paid)|what is not|which .* not covered)\b"),
    (
        "amount_limit",
        r"\b(limit|sub-?limit|how much|maximum|max\b|cap(ped)?|amount|sum insured|room rent|co-?pay\w*|percent|%|rs\.?"
        r"|inr|₹|per (day|eye|delivery))\b",
    ),
    (
        "eligibility",
        r"\b(eligib\w*|entry age|who (can|is) (be )?(covered|insured)|age limit|dependants?|dependents?"
        r"|family members?)\b",
    ),
    ("policy_terms", r"\b(grace|free[- ]look|cancel\w*|renew\w*|discount|bonus|ncd|premium|portab\w*|migrat\w*)\b"),
    ("benefit", r"\b(cover(s|ed|age)?|benefit|include[sd]?|pay for|reimburse)\b"),
]
_COMPILED = [(intent, re.compile(pattern, re.I)) for intent, pattern in INTENT_PATTERNS]

SECTIONS_FOR_INTENT: dict[str, list[str]] = {
    "definition": ["definitions"],
    "waiting_period": ["waiting_period", "exclusions", "definitions"],
    "procedure": ["claims", "grievance", "conditions"],
    "exclusion": ["exclusions", "waiting_period"],
    "amount_limit": ["benefits", "table_of_benefits", "room_rent", "co_payment"],
    "eligibility": ["eligibility", "preamble", "renewal", "conditions"],
    "policy_terms": [
        "grace_period",
        "free_look",
        "renewal",
        "cancellation",
        "bonus",
        "premium",
        "conditions",
        "definitions",
    ],
    # "is X covered?" is answered as often by an exclusion or a waiting period as by a benefit clause
    "benefit": ["benefits", "table_of_benefits", "room_rent", "co_payment", "bonus", "exclusions", "waiting_period"],
}


@dataclass(frozen=True)
class Intent:
    name: str
    sections: list[str]


def classify(question: str) -> Intent | None:
    """The question's intent and the sections that can answer it; None if nothing matches."""
    for intent, pattern in _COMPILED:
        if pattern.search(question):
            return Intent(intent, SECTIONS_FOR_INTENT[intent])
    return None
