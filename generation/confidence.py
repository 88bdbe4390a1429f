"""How far an answer answers: its first sentence's coverage of the question, averaged with the grade of the block
that sentence cites.

The route's confidence is the best passage's grade: it says whether the evidence is about the question, not
whether the answer drawn from it answers it (on the fresh development questions it told answers citing the right
provision first from the rest with an AUROC of 0.60; this, 0.69). It is computed from the answer text, so the
offline answerer and a chat model are judged alike, and it costs no model call.
"""

from __future__ import annotations

import re

from core.types import Evidence
from language.support import score_sentences

_FIRST_CITED_RE = re.compile(r"^(?P<sentence>.+?)\s*\[Sources?\s+(?P<number>\d+)", re.S)
# "Yes: ", "No: ", "Yes, subject to conditions: ", "Only in some cases: ": the verdict, not words of the question
_OPENER_RE = re.compile(r"^(?:Yes|No|Only in some cases)\b[^:]{0,30}:\s*")


def answer_confidence(question: str, answer: str, blocks: list[Evidence]) -> float | None:
    """In [0, 1]; None when the answer cites no block it was given (a refusal)."""
    found = _FIRST_CITED_RE.match(answer)
    if found is None or not 0 < int(found["number"]) <= len(blocks):
        return None
    sentence = _OPENER_RE.sub("", found["sentence"].strip())
    scored = score_sentences(question, [[sentence]], None, skip_headings=False)
    if not scored:
        return None
    grade = blocks[int(found["number"]) - 1].confidence or 0.0
    return round((scored[0].score + grade) / 2, 4)
