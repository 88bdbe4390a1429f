"""How far to trust an answer: whether one passage stands out from the rest of the evidence and the answer's
first sentence cites it.

The route's confidence is the best passage's grade: it says whether the evidence is about the question, not whether
the answer drawn from it is right. Measured on labelled plain-language questions, the best grade did not tell
right answers from wrong ones (AUROC 0.39 to 0.47: when every paragraph of an article grades 0.99, the composer
can quote the wrong one), nor did the first sentence's coverage of the question (0.47 to 0.53). What did: the
margin between the best and the second-best grade, and whether the answer leads from the best-graded passage
(0.65 on the development answers, 0.65 on held-out ones, 0.81 and 0.85 on two new sets). It is computed from the
answer text and the graded evidence, so the offline answerer and a chat model are judged alike, at no model call.
"""

from __future__ import annotations

import re

from core.types import Evidence

_FIRST_CITED_RE = re.compile(r"\[Sources?\s+(?P<number>\d+)")
STANDOUT_MARGIN = 0.3  # a best passage graded this far above the next one stands out fully


def answer_confidence(answer: str, blocks: list[Evidence]) -> float | None:
    """In [0, 1]: half how far the best passage stands out, half whether the first citation is that passage;
    None when the answer cites no block it was given (a refusal) or the evidence was not graded."""
    found = _FIRST_CITED_RE.search(answer)
    if found is None or not 0 < int(found["number"]) <= len(blocks):
        return None
    grades = [b.confidence for b in blocks]
    if any(g is None for g in grades):
        return None
    ranked = sorted((g for g in grades if g is not None), reverse=True)
    standout = min(1.0, (ranked[0] - ranked[1]) / STANDOUT_MARGIN) if len(ranked) > 1 else 1.0
    cites_best = grades[int(found["number"]) - 1] == ranked[0]
    return round(0.5 * standout + 0.5 * cites_best, 4)
