"""The answer confidence: one passage stands out from the evidence and the answer leads from it."""

from __future__ import annotations

import pytest

from core.schemas import TrustGrade
from core.types import Evidence
from generation.confidence import answer_confidence
from retrieval.trust import answered_trust
from tests.conftest import run_graph

QUESTION = "How many hours does a controller have to notify a personal data breach?"


def graded(citation: str, confidence: float | None) -> Evidence:
    return Evidence(
        chunk_id=citation, doc_id="d", text="Text.", citation=citation, document="GDPR", confidence=confidence
    )


def test_an_answer_leading_from_a_passage_that_stands_out_scores_above_one_among_equals():
    standing_out = [graded("GDPR Art. 33(1)", 0.9), graded("GDPR Art. 33(3)", 0.5)]
    among_equals = [graded("GDPR Art. 35(1)", 0.9), graded("GDPR Art. 35(11)", 0.88)]
    clear = answer_confidence("Within 72 hours [Source 1].", standing_out)
    close = answer_confidence("Where necessary, a review [Source 1].", among_equals)
    assert clear == 1.0 and close == pytest.approx(0.5 + 0.5 * 0.02 / 0.3, abs=1e-3)


def test_an_answer_leading_from_another_passage_than_the_best_scores_half_at_most():
    blocks = [graded("GDPR Art. 33(1)", 0.9), graded("Commentary", 0.6)]
    assert answer_confidence("A commentary says so [Source 2]. Within 72 hours [Source 1].", blocks) == 0.5
    assert answer_confidence("Within 72 hours [Source 1].", [graded("GDPR Art. 33(1)", 0.7)]) == 1.0  # alone


def test_no_confidence_without_a_cited_block_given_or_graded_evidence():
    block = graded("GDPR Art. 33(1)", 0.9)
    assert answer_confidence("I cannot answer this from the available sources.", [block]) is None
    assert answer_confidence("Within 72 hours [Source 3].", [block]) is None
    assert answer_confidence("Within 72 hours [Source 1].", [graded("GDPR Art. 33(1)", None)]) is None


def test_the_record_carries_it_for_an_answer_and_not_for_a_refusal(make_services):
    services = make_services()
    answered = run_graph(QUESTION, services)
    assert answered.status == "answered" and answered.answer_confidence is not None
    assert 0 <= answered.answer_confidence <= 1
    refused = run_graph("What is the HIPAA breach notification deadline?", services)
    assert refused.status == "refused" and refused.answer_confidence is None


def test_high_trust_in_the_evidence_becomes_medium_when_the_answer_does_not_lead_from_a_passage_that_stands_out():
    high = TrustGrade(grade="high", rationale="Strong match in an authoritative source.")
    lowered = answered_trust(high, 0.4)
    assert lowered is not None and lowered.grade == "medium" and "check the cited clause" in lowered.rationale
    assert answered_trust(high, 0.5) == high and answered_trust(high, None) == high  # a refusal keeps it
    medium = TrustGrade(grade="medium", rationale="Partial match.")
    assert answered_trust(medium, 0.0) == medium and answered_trust(None, 0.0) is None
