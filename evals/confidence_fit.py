"""Refit the answer confidence from labelled answers (issue 17, item 9): `python -m evals.confidence_fit [--apply]`.

The labels are whether the full graph's answer states the gold facts: every `must_state` fact of the development
split of the plain-language questions, every key fact of our goldens' answer set (held-out questions are never
used). Each answered question gives the signals of `generation/confidence.py`; an L2-regularised logistic
regression on them is the model. Reported: 10-fold cross-validated AUROC (five shuffles) of the fitted model
against the model in use, the coefficients, and the high-trust gate. Writes evals/results/confidence_fit.json;
`--apply` also makes the model the one the product uses (config/answer_confidence.json).
"""

from __future__ import annotations

import argparse
import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from scipy.optimize import minimize

from core.settings import ANSWER_CONFIDENCE_FILE, REPO_ROOT, Settings
from evals.answer_eval import _facts_in, graph_runner
from evals.answer_quality import patient_directory, score_case
from evals.datasets import our_answers, plain_questions
from evals.metrics import auroc
from generation.confidence import SIGNALS, answer_confidence, answer_signals
from language.analysis import analyse
from retrieval.services import Services

RESULTS = REPO_ROOT / "evals" / "results" / "confidence_fit.json"
L2 = 1.0  # on standardised signals: five weights, fewer than two hundred answers
FOLDS, SHUFFLES, SEED = 10, 5, 2026
# High trust is shown only for an answer at least this likely to be right, on the development answers: an answer
# more likely right than the average answer
TRUST_RULE = "the development answers' share of correct answers"


@dataclass(frozen=True)
class Labelled:
    """One answered development question: its signals and whether the answer stated the gold facts."""

    signals: dict[str, float]
    correct: bool


def labelled_answers(services: Services) -> list[Labelled]:
    """The full graph's answers to the development questions with gold facts, each with its label."""
    run = graph_runner(services, with_requery=True)
    directory = patient_directory()
    out: list[Labelled] = []

    def keep(question: str, record: Any, correct: bool) -> None:
        signals = answer_signals(record.answer, record.evidence, analyse(question).answer_type)
        if record.status == "answered" and signals is not None:
            out.append(Labelled(signals, correct))

    for case in plain_questions():
        if case.split == "dev" and case.answerable:
            record = run(case.answer_case())
            keep(case.question, record, bool(score_case(case, record, directory).correct))
    for answer_case in our_answers():
        if answer_case.answerable and answer_case.key_facts:
            record = run(answer_case)
            correct = _facts_in(answer_case.key_facts, record.answer) == len(answer_case.key_facts)
            keep(answer_case.question, record, correct)
    return out


def fit(rows: list[Labelled], l2: float = L2) -> dict[str, float]:
    """The logistic model's weights on the raw signals (fitted on standardised ones, so the penalty treats each
    signal alike)."""
    x = np.array([[r.signals[name] for name in SIGNALS] for r in rows])
    y = np.array([r.correct for r in rows], dtype=float)
    mean, spread = x.mean(axis=0), x.std(axis=0)
    spread[spread == 0] = 1.0
    z = np.c_[np.ones(len(x)), (x - mean) / spread]

    def loss(w: np.ndarray) -> float:
        score = z @ w
        return float(np.sum(np.logaddexp(0.0, score) - y * score) + l2 * np.sum(w[1:] ** 2))

    w = minimize(loss, np.zeros(z.shape[1]), method="L-BFGS-B").x
    weights = w[1:] / spread
    model = {"intercept": float(w[0] - np.sum(weights * mean))}
    model.update({name: float(v) for name, v in zip(SIGNALS, weights, strict=True)})
    return {k: round(v, 4) for k, v in model.items()}


def predictions(rows: list[Labelled], model: dict[str, float]) -> list[float]:
    return [answer_confidence(r.signals, model) or 0.0 for r in rows]


def cross_validated_auroc(rows: list[Labelled]) -> float:
    """Mean AUROC of models fitted without the questions they score (10 folds, five shuffles)."""
    labels = [r.correct for r in rows]
    scores = []
    for shuffle in range(SHUFFLES):
        order = np.random.default_rng(SEED + shuffle).permutation(len(rows))
        predicted = [0.0] * len(rows)
        for fold in range(FOLDS):
            held = set(order[fold::FOLDS].tolist())
            model = fit([r for i, r in enumerate(rows) if i not in held])
            for i in held:
                predicted[i] = answer_confidence(rows[i].signals, model) or 0.0
        scores.append(auroc(predicted, labels) or 0.0)
    return round(float(np.mean(scores)), 3)


def report(rows: list[Labelled], in_use: dict[str, float]) -> dict[str, Any]:
    labels = [r.correct for r in rows]
    model = fit(rows)
    return {
        "answers": len(rows),
        "correct": sum(labels),
        "signals": list(SIGNALS),
        "auroc_in_use": round(auroc(predictions(rows, in_use), labels) or 0.0, 3),
        "auroc_fitted_cross_validated": cross_validated_auroc(rows),
        "auroc_fitted_on_all": round(auroc(predictions(rows, model), labels) or 0.0, 3),
        "signal_auroc": {name: round(auroc([r.signals[name] for r in rows], labels) or 0.0, 3) for name in SIGNALS},
        "model": model,
        "high_trust_answer_confidence": round(sum(labels) / len(labels), 3),
        "high_trust_rule": TRUST_RULE,
    }


def apply(result: dict[str, Any], target: Path = ANSWER_CONFIDENCE_FILE) -> None:
    chosen = {
        "answer_confidence_model": result["model"],
        "high_trust_answer_confidence": result["high_trust_answer_confidence"],
        "evidence": "evals/results/confidence_fit.json",
    }
    target.write_text(json.dumps(chosen, indent=2) + "\n", encoding="utf-8")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--apply", action="store_true", help="make the fitted model the product's")
    args = parser.parse_args()
    settings = Settings()
    services = Services(settings)
    try:
        result = report(labelled_answers(services), settings.answer_confidence_model)
    finally:
        services.close()
    RESULTS.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    if args.apply:
        apply(result)
    print(json.dumps(result, indent=2))


if __name__ == "__main__":
    main()
