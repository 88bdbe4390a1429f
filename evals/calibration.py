"""Calibrated routing: fit the grader's thresholds on answerable / unanswerable labels (train split),
report accuracy and AUROC on the held-out split next to the hand-set baseline (0.60 / 0.45). Fitting changes
nothing; `apply_thresholds` (`policyrag eval --apply-thresholds`) makes them the routing in config/thresholds.json."""

from __future__ import annotations

import json
import random
from pathlib import Path
from typing import Any

from core.settings import THRESHOLDS_FILE
from evals.datasets import AnswerCase
from evals.metrics import auroc
from retrieval.grading import grade_all
from retrieval.search import Retriever

BASELINE = {"correct_threshold": 0.60, "incorrect_threshold": 0.45}
CORRECT_PRECISION = 0.97
SEED = 2026


def best_confidence(retriever: Retriever, case: AnswerCase, pool: int) -> float:
    """The best graded confidence among the candidates the graph grades (`pool` of them), as routing sees it."""
    evidence = retriever.retrieve(case.question, case.filters or None, pool)
    return max((g.confidence for g in grade_all(case.question, evidence)), default=0.0)


def split(cases: list[AnswerCase], train_fraction: float = 0.6) -> tuple[list[int], list[int]]:
    """A stratified split by label, fixed seed."""
    rng = random.Random(SEED)
    train: list[int] = []
    test: list[int] = []
    for label in (True, False):
        indices = [i for i, c in enumerate(cases) if c.answerable == label]
        rng.shuffle(indices)
        cut = round(train_fraction * len(indices))
        train += indices[:cut]
        test += indices[cut:]
    return sorted(train), sorted(test)


def accuracy(scores: list[float], labels: list[bool], threshold: float) -> float:
    return sum((s >= threshold) == y for s, y in zip(scores, labels)) / len(labels) if labels else 0.0


def fit(scores: list[float], labels: list[bool]) -> dict[str, float]:
    """Refusal threshold: the best training accuracy (ties: the midpoint of the best run); CORRECT threshold:
    the lowest score above which at least 97% of training questions are answerable."""
    candidates = sorted(set([0.0, 1.01] + [round(s, 4) for s in scores]))
    cuts = [(a + b) / 2 for a, b in zip(candidates, candidates[1:])]
    scored = [(accuracy(scores, labels, t), t) for t in cuts]
    best = max(a for a, _ in scored)
    best_cuts = [t for a, t in scored if a == best]
    low = round((best_cuts[0] + best_cuts[-1]) / 2, 3)
    high = low
    for t in sorted(c for c in cuts if c >= low):
        above = [y for s, y in zip(scores, labels) if s >= t]
        if above and sum(above) / len(above) >= CORRECT_PRECISION:
            high = round(t, 3)
            break
    return {"correct_threshold": max(high, low), "incorrect_threshold": low}


def calibrate(retriever: Retriever, cases: list[AnswerCase], pool: int) -> dict[str, Any]:
    """Fit the thresholds on a train split and report them on the held-out split (nothing is written)."""
    scores = [best_confidence(retriever, c, pool) for c in cases]
    labels = [c.answerable for c in cases]
    train, test = split(cases)
    chosen = fit([scores[i] for i in train], [labels[i] for i in train])
    test_scores, test_labels = [scores[i] for i in test], [labels[i] for i in test]
    report = {
        "cases": len(cases),
        "answerable": sum(labels),
        "unanswerable": len(labels) - sum(labels),
        "train": len(train),
        "test": len(test),
        "chosen": chosen,
        "baseline": BASELINE,
        "test_auroc": round(auroc(test_scores, test_labels), 4),
        "train_auroc": round(auroc([scores[i] for i in train], [labels[i] for i in train]), 4),
        "test_accuracy_chosen": round(accuracy(test_scores, test_labels, chosen["incorrect_threshold"]), 4),
        "test_accuracy_baseline": round(accuracy(test_scores, test_labels, BASELINE["incorrect_threshold"]), 4),
        "test_correct_precision_chosen": _precision_above(test_scores, test_labels, chosen["correct_threshold"]),
        "test_correct_precision_baseline": _precision_above(test_scores, test_labels, BASELINE["correct_threshold"]),
        "scores": [
            {
                "id": c.id,
                "answerable": c.answerable,
                "confidence": round(s, 4),
                "split": "train" if i in train else "test",
            }
            for i, (c, s) in enumerate(zip(cases, scores))
        ],
    }
    return report


def apply_thresholds(chosen: dict[str, float], target: Path = THRESHOLDS_FILE) -> None:
    """Make fitted thresholds the production routing (config/thresholds.json, read by Settings)."""
    target.parent.mkdir(parents=True, exist_ok=True)
    target.write_text(
        json.dumps({**chosen, "evidence": "evals/results/calibration.json"}, indent=2) + "\n", encoding="utf-8"
    )


def _precision_above(scores: list[float], labels: list[bool], threshold: float) -> float | None:
    above = [y for s, y in zip(scores, labels) if s >= threshold]
    return round(sum(above) / len(above), 4) if above else None
