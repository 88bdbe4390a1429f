"""Deterministic answer and calibration metrics, written to be checked by hand
(ranking metrics: retrieval/metrics.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence


def mean(values: Iterable[float]) -> float:
    values = list(values)
    return sum(values) / len(values) if values else 0.0


def share(flags: Iterable[bool]) -> float | None:
    """The share of true flags, to 3 places; None when there are none to count."""
    flags = list(flags)
    return round(mean(float(f) for f in flags), 3) if flags else None


def auroc(scores: Sequence[float], labels: Sequence[bool]) -> float:
    """Area under the ROC curve by the rank-sum formula (ties count half)."""
    positives = [s for s, y in zip(scores, labels) if y]
    negatives = [s for s, y in zip(scores, labels) if not y]
    if not positives or not negatives:
        return float("nan")
    wins = sum(1.0 if p > n else 0.5 if p == n else 0.0 for p in positives for n in negatives)
    return wins / (len(positives) * len(negatives))
