"""How far to trust an answer: the probability that it states what the question asks, from signals of the answer
and its evidence, weighted by a logistic model fitted on labelled answers (issue 17, item 9).

The route's confidence is the best passage's grade: it says whether the evidence is about the question, not whether
the answer drawn from it is right (AUROC 0.39 to 0.48 for a correct answer: when every paragraph of an article grades
0.99, the composer can quote the wrong one). The signals that tell right answers from wrong ones, measured on the
development answers (`python -m evals.confidence_fit`): how far the best passage stands out from the next one, how
many passages the answer was given (evidence spread thin), whether a yes/no question is answered (a polarity to get
right), and what the first cited passage is (a patient's record, a policy clause, or law and guidance, where most
wrong answers are). Whether the first citation is the best passage, the earlier rule's other half, adds nothing
once these are known (its fitted weight came out negative and was dropped). Computed from the answer text, the
graded evidence and the question's answer type, so the offline answerer and a chat model are judged alike, at no
model call.
"""

from __future__ import annotations

import math
import re

from core.types import Evidence

_FIRST_CITED_RE = re.compile(r"\[Sources?\s+(?P<number>\d+)")
STANDOUT_MARGIN = 0.3  # a best passage graded this far above the next one stands out fully
SIGNALS = ("standout", "blocks", "yes_no", "record", "policy")
BLOCKS_SCALE = 10.0  # the passage count enters as a share of ten, so every signal lies in [0, 1] or near it


def answer_signals(answer: str, blocks: list[Evidence], answer_type: str) -> dict[str, float] | None:
    """The signals of one answer; None when it cites no block it was given (a refusal) or the evidence was not
    graded."""
    found = _FIRST_CITED_RE.search(answer)
    if found is None or not 0 < int(found["number"]) <= len(blocks):
        return None
    grades = [b.confidence for b in blocks]
    if any(g is None for g in grades):
        return None
    ranked = sorted((g for g in grades if g is not None), reverse=True)
    first = blocks[int(found["number"]) - 1]
    return {
        "standout": min(1.0, (ranked[0] - ranked[1]) / STANDOUT_MARGIN) if len(ranked) > 1 else 1.0,
        "blocks": len(blocks) / BLOCKS_SCALE,
        "yes_no": float(answer_type == "yes_no"),
        "record": float(first.authority == "record"),
        "policy": float(first.document_type == "policy_wording"),
    }


def answer_confidence(signals: dict[str, float] | None, model: dict[str, float]) -> float | None:
    """The fitted probability that the answer is correct: the logistic of the model's intercept plus its weighted
    signals (a signal the model has no weight for counts nothing)."""
    if signals is None:
        return None
    score = model.get("intercept", 0.0) + sum(model.get(name, 0.0) * value for name, value in signals.items())
    return round(1.0 / (1.0 + math.exp(-score)), 4)
