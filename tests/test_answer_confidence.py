"""The answer confidence: how far the answer's first sentence answers the question, with its passage's grade."""

from __future__ import annotations

from core.types import Evidence
from generation.confidence import answer_confidence
from tests.conftest import run_graph

QUESTION = "How many hours does a controller have to notify a personal data breach?"


def graded(text: str, confidence: float) -> Evidence:
    return Evidence(
        chunk_id=text[:20], doc_id="d", text=text, citation="GDPR Art. 33(1)", document="GDPR", confidence=confidence
    )


def test_an_answer_saying_what_was_asked_scores_above_one_about_something_else_from_an_equally_graded_passage():
    on_point = graded("The controller shall notify a personal data breach within 72 hours.", 0.7)
    beside = graded("A personal data breach means a breach of security.", 0.7)
    answering = answer_confidence(QUESTION, f"{on_point.text[:-1]} [Source 1].", [on_point, beside])
    defining = answer_confidence(QUESTION, f"{beside.text[:-1]} [Source 2].", [on_point, beside])
    assert answering is not None and defining is not None and 0 <= defining < answering <= 1


def test_the_cited_passage_s_grade_counts_and_a_verdict_opener_does_not():
    strong, weak = graded("The controller shall notify it within 72 hours.", 0.9), graded("Same words.", 0.3)
    text = "The controller shall notify it within 72 hours"
    assert answer_confidence(QUESTION, f"{text} [Source 1].", [strong, weak]) > answer_confidence(
        QUESTION, f"{text} [Source 2].", [strong, weak]
    )
    assert answer_confidence(QUESTION, f"Yes: {text} [Source 1].", [strong]) == answer_confidence(
        QUESTION, f"{text} [Source 1].", [strong]
    )


def test_no_confidence_without_a_cited_block_given():
    block = graded("The controller shall notify it within 72 hours.", 0.9)
    assert answer_confidence(QUESTION, "I cannot answer this from the available sources.", [block]) is None
    assert answer_confidence(QUESTION, "Within 72 hours [Source 3].", [block]) is None


def test_the_record_carries_it_for_an_answer_and_not_for_a_refusal(make_services):
    services = make_services()
    answered = run_graph(QUESTION, services)
    assert answered.status == "answered" and answered.answer_confidence is not None
    assert 0 < answered.answer_confidence <= 1
    refused = run_graph("What is the HIPAA breach notification deadline?", services)
    assert refused.status == "refused" and refused.answer_confidence is None
