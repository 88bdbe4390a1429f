"""Sentence splitting shared by ingest (sentence vectors for reranking) and refine (knowledge strips)."""

from __future__ import annotations

import re
from functools import lru_cache

# After a semicolon a number starts a new point only when it is short ("; 2. ..."), not a code in a list of codes
# ("... drug allergy; 196471000000108 Transfer-degraded non-drug allergy").
_BOUNDARY_RE = re.compile(r"(?<=[.!?])\s+(?=[A-Z(\"'‘“0-9])|(?<=;)\s+(?=[A-Z(\"'‘“]|\d{1,3}\b)|\n+")
# Abbreviations that end in a full stop but do not end a sentence.
_ABBREVIATIONS = re.compile(
    r"\b(?:Art|Arts|No|Nos|para|e\.g|i\.e|cf|etc|Dr|Mr|Mrs|Ms|St|p|pp|vs|Rs|approx|incl|s|ss|cl|reg|sch|sec)\.$", re.I
)
MIN_WORDS = 3
_HEADING_RE = re.compile(
    r"^(?:\d{1,2}(?:\.\d{1,2})*\.?\s+|#+\s+|(?:article|section|chapter|annex)\s+\w+\s*[-–—:]?\s*)?[A-Z][^.;:!?]{0,90}$",
    re.I,
)
MAX_SENTENCES = 64


def split_sentences(text: str) -> list[str]:
    """Sentences (and list points) of a passage, short fragments joined to their neighbour."""
    return list(_split(text))


@lru_cache(maxsize=8192)  # the same evidence texts are split by refine, the guard and the composer in one run
def _split(text: str) -> tuple[str, ...]:
    raw = [p.strip() for p in _BOUNDARY_RE.split(text) if p and p.strip()]
    merged: list[str] = []
    for piece in raw:
        lead_in = merged and merged[-1].endswith(":") and not is_heading(piece)  # "shall not apply if:" + its point
        if merged and (lead_in or _ABBREVIATIONS.search(merged[-1]) or len(merged[-1].split()) < MIN_WORDS):
            merged[-1] = f"{merged[-1]} {piece}"
        else:
            merged.append(piece)
    if len(merged) > 1 and len(merged[-1].split()) < MIN_WORDS:
        last = merged.pop()
        merged[-1] = f"{merged[-1]} {last}"
    return tuple(merged)


def ends_with_abbreviation(text: str) -> bool:
    """'... Art.', '... p.': a full stop that does not end a sentence."""
    return bool(_ABBREVIATIONS.search(text.strip()))


def sentences_for_index(text: str) -> list[str]:
    """Sentences that get their own vector at ingest (bounded, never empty)."""
    sentences = split_sentences(text)[:MAX_SENTENCES]
    return sentences or [text.strip()]


def is_heading(sentence: str) -> bool:
    """A clause or article heading ("3.1.2 Cataract Surgery"): a label, not a statement to quote."""
    text = sentence.strip()
    return len(text.split()) <= 12 and not text.endswith((".", ";", ":", "?", "!")) and bool(_HEADING_RE.match(text))
