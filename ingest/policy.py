"""Insurance policy wordings: what each clause is (section, benefit) and which way it cuts (coverage polarity).

Everything here is rule-based and explainable: a claims handler can see why a clause was called
"not covered" (an exclusion, "shall not be liable") or "conditional" (a waiting period, a
sub-limit, a co-payment, "subject to").
"""

from __future__ import annotations

import re
from typing import Literal

CoverageType = Literal["covered", "not_covered", "conditional", "unknown"]

# heading words -> section key (first match wins; order matters: "waiting period" before "exclusions")
SECTION_KEYS: list[tuple[str, str]] = [
    (r"table of benefits|schedule of benefits", "table_of_benefits"),
    (r"waiting period|excl\s*0?[123]\b", "waiting_period"),
    (r"exclusion|not covered|what is not covered", "exclusions"),
    (r"definition", "definitions"),
    (r"co-?payment|copay", "co_payment"),
    (r"room rent|room charges|icu charges", "room_rent"),
    (r"claim", "claims"),
    (r"grace period", "grace_period"),
    (r"free look", "free_look"),
    (r"renewal|migration|portability", "renewal"),
    (r"cancellation", "cancellation"),
    (r"grievance|ombudsman|complaint", "grievance"),
    (r"eligib|entry age|who can be covered|age limit", "eligibility"),
    (r"premium", "premium"),
    (r"preamble|operative clause", "preamble"),
    (r"cumulative bonus|no claim|bonus|discount", "bonus"),
    (r"benefit|coverage|cover|what is covered|scope", "benefits"),
    (r"condition|general terms|terms and conditions|moratorium|disclosure|fraud", "conditions"),
]
_SECTION_RES = [(re.compile(pattern, re.I), key) for pattern, key in SECTION_KEYS]

_EXCLUDED_RE = re.compile(
    r"shall not be liable|will not be liable|not be covered|is not covered|are not covered|not covered|excluded|"
    r"no payment|not payable|not admissible|shall not (?:pay|indemnify)|is an exclusion|code[:\s-]*excl",
    re.I,
)
_CONDITION_RE = re.compile(
    r"subject to|waiting period|sub-?limit|limited to|up to|upto|co-?payment|provided that|provided the|maximum of|"
    r"not exceeding|% of (?:the )?sum insured|per cent of|only if|only after|"
    r"after (?:a )?(?:continuous )?(?:period of )?\d+|as per the table of benefits|restricted to|capped",
    re.I,
)
_COVERED_RE = re.compile(
    r"will indemnify|shall indemnify|indemnif|will pay|shall pay|is covered|are covered|covers|cover the|is payable|"
    r"are payable|will reimburse|shall reimburse|reimburse|benefit is available|shall be admissible|admissible",
    re.I,
)
_WHOLE_SUM_INSURED_RE = re.compile(
    r"\bup ?to (?:the )?(?:limit of (?:the )?)?(?:full |available |floater )?sum insured\b", re.I
)
_DEFINED_TERM_RE = re.compile(r"^(.{2,80}?)\s+(?:means|refers to|shall mean|is defined as)\b", re.I)
_HEADING_NUMBER_RE = re.compile(r"^\s*\d{1,2}(?:\.\d{1,2}){0,4}\.?\s*")
# "(Code - Excl18)", "(Code – Excl 18)" with an en dash, and "(Code – Excl" whose number a PDF wrapped to the next line
_CODE_RE = re.compile(r"\(\s*code\s*[-–—:]?\s*(?:excl\s*0*\d*\s*\)?|$)|\(?\s*excl\s*0*\d+\s*\)?", re.I)


def section_key(*headings: str) -> str:
    """The normalised section of a clause from its own heading, then its section's heading."""
    for heading in headings:
        for pattern, key in _SECTION_RES:
            if heading and pattern.search(heading):
                return key
    return "other"


def benefit_name(heading: str) -> str:
    """`3.1.2 Cataract Surgery` -> `Cataract Surgery`; `2.1 Accident means ...` -> `Accident`."""
    text = _HEADING_NUMBER_RE.sub("", heading).strip()
    if match := _DEFINED_TERM_RE.match(text):
        text = match.group(1)
    text = _CODE_RE.sub("", text).strip(" -:–—")
    return " ".join(text.split()[:10])


def coverage_type(text: str, key: str) -> CoverageType:
    """Polarity of a clause: exclusions and 'shall not be liable' -> not covered; waiting periods,
    sub-limits, co-payments and 'subject to' -> conditional; 'will indemnify' -> covered."""
    if key in ("definitions", "grievance", "preamble", "cancellation", "premium"):
        return "unknown"
    if key == "waiting_period":
        return "covered" if re.search(r"\bwaived\b", text, re.I) else "conditional"
    excluded = bool(_EXCLUDED_RE.search(text)) or key == "exclusions"
    limited = _WHOLE_SUM_INSURED_RE.sub(" ", text)  # "up to the Sum Insured" is the policy's cap, not a sub-limit
    conditions = bool(_CONDITION_RE.search(limited)) or key in ("co_payment", "room_rent")
    covered = bool(_COVERED_RE.search(text)) or key in ("benefits", "table_of_benefits")
    if excluded and not covered:
        return "not_covered"
    if excluded and key == "exclusions":
        return "not_covered"
    if conditions and (covered or excluded):
        return "conditional"
    if covered:
        return "covered"
    if conditions:
        return "conditional"
    return "unknown"
