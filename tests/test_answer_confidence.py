"""The answer confidence: signals of the answer and its evidence, weighted by a model fitted on labelled answers."""

from __future__ import annotations

import json
import random

import pytest

from core.schemas import TrustGrade
from core.settings import ANSWER_CONFIDENCE_FILE, Settings
from core.types import Evidence
from evals.confidence_fit import Labelled, apply, fit, predictions
from evals.metrics import auroc
from generation.confidence import SIGNALS, answer_confidence, answer_signals
from retrieval.trust import answered_trust
from tests.conftest import run_graph

QUESTION = "How many hours does a controller have to notify a personal data breach?"


def graded(citation: str, confidence: float | None, **fields) -> Evidence:
    return Evidence(
        chunk_id=citation, doc_id="d", text="Text.", citation=citation, document="GDPR", confidence=confidence, **fields
    )


def test_the_signals_say_how_far_the_best_passage_stands_out_and_what_the_answer_leads_from():
    standing_out = [graded("GDPR Art. 33(1)", 0.9, authority="binding"), graded("GDPR Art. 33(3)", 0.5)]
    signals = answer_signals("Within 72 hours [Source 1].", standing_out, "deadline")
    assert signals == {"standout": 1.0, "blocks": 0.2, "yes_no": 0.0, "record": 0.0, "policy": 0.0}
    among_equals = [graded("GDPR Art. 35(1)", 0.9), graded("GDPR Art. 35(11)", 0.88), graded("GDPR Art. 35(3)", 0.2)]
    close = answer_signals("Yes: where necessary, a review [Source 1].", among_equals, "yes_no")
    assert close is not None and close["standout"] == pytest.approx(0.02 / 0.3, abs=1e-3)
    assert close["blocks"] == 0.3 and close["yes_no"] == 1.0
    clause = graded("CareShield cl. 4.2", 0.8, document_type="policy_wording")
    record = graded("pat-0001 Medications", 0.8, authority="record")
    assert answer_signals("Covered [Source 1].", [clause], "yes_no")["policy"] == 1.0  # type: ignore[index]
    assert answer_signals("Ramipril [Source 2].", [clause, record], "list")["record"] == 1.0  # type: ignore[index]


def test_no_signals_without_a_cited_block_given_or_graded_evidence():
    block = graded("GDPR Art. 33(1)", 0.9)
    assert answer_signals("I cannot answer this from the available sources.", [block], "deadline") is None
    assert answer_signals("Within 72 hours [Source 3].", [block], "deadline") is None
    assert answer_signals("Within 72 hours [Source 1].", [graded("GDPR Art. 33(1)", None)], "deadline") is None
    assert answer_confidence(None, {"intercept": 3.0}) is None


def test_the_confidence_is_the_logistic_of_the_weighted_signals():
    model = {"intercept": -1.0, "standout": 2.0, "blocks": -1.0}
    assert answer_confidence({"standout": 0.5, "blocks": 0.0}, model) == 0.5
    assert answer_confidence({"standout": 1.0, "blocks": 0.0, "record": 1.0}, model) == pytest.approx(0.7311, abs=1e-4)


def test_the_shipped_model_is_read_from_its_file_and_trusts_a_passage_that_stands_out_more():
    model = json.loads(ANSWER_CONFIDENCE_FILE.read_text(encoding="utf-8"))["answer_confidence_model"]
    assert Settings().answer_confidence_model == model and set(model) == {"intercept", *SIGNALS}
    base = {"standout": 0.0, "blocks": 0.5, "yes_no": 0.0, "record": 0.0, "policy": 0.0}
    assert answer_confidence({**base, "standout": 1.0}, model) > answer_confidence(base, model)  # type: ignore[operator]


def _rows(count: int, seed: int) -> list[Labelled]:
    rng = random.Random(seed)
    rows = []
    for _ in range(count):
        signals = {name: rng.random() for name in SIGNALS}
        correct = signals["standout"] - signals["blocks"] + rng.gauss(0, 0.2) > 0
        rows.append(Labelled(signals, correct))
    return rows


def test_the_fit_learns_which_signals_tell_right_answers_from_wrong_ones(tmp_path):
    model = fit(_rows(300, 1))
    assert model["standout"] > 1.0 and model["blocks"] < -1.0  # the signals the labels depend on
    assert all(abs(model[name]) < abs(model["standout"]) / 2 for name in ("yes_no", "record", "policy"))
    unseen = _rows(200, 2)
    assert auroc(predictions(unseen, model), [r.correct for r in unseen]) > 0.9
    target = tmp_path / "answer_confidence.json"
    apply({"model": model, "high_trust_answer_confidence": 0.8}, target)
    written = json.loads(target.read_text(encoding="utf-8"))
    assert written["answer_confidence_model"] == model and written["high_trust_answer_confidence"] == 0.8


def test_the_record_carries_it_for_an_answer_and_not_for_a_refusal(make_services):
    services = make_services()
    answered = run_graph(QUESTION, services)
    assert answered.status == "answered" and answered.answer_confidence is not None
    assert 0 <= answered.answer_confidence <= 1
    refused = run_graph("What is the HIPAA breach notification deadline?", services)
    assert refused.status == "refused" and refused.answer_confidence is None


def test_high_trust_in_the_evidence_becomes_medium_when_the_answer_confidence_is_under_the_gate():
    high = TrustGrade(grade="high", rationale="Strong match in an authoritative source.")
    lowered = answered_trust(high, 0.7, 0.77)
    assert lowered is not None and lowered.grade == "medium" and "check the cited clause" in lowered.rationale
    assert answered_trust(high, 0.77, 0.77) == high and answered_trust(high, None, 0.77) == high  # a refusal keeps it
    medium = TrustGrade(grade="medium", rationale="Partial match.")
    assert answered_trust(medium, 0.0, 0.77) == medium and answered_trust(None, 0.0, 0.77) is None
