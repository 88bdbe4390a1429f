"""The optional LLM relevance grader (the CRAG evaluator's role), through ChatGroq against the stand-in."""

from __future__ import annotations

from pydantic import SecretStr

from tests.conftest import run_graph

QUESTION = "How many hours does a controller have to notify a personal data breach to the supervisory authority?"
KEY = "gsk_grader_key_0123456789abcdef"


def grader_services(make_services, standin):
    return make_services(groq_api_key=SecretStr(KEY), groq_base_url=standin.url)


def test_the_grader_is_off_by_default(make_services, standin):
    out = run_graph(QUESTION, grader_services(make_services, standin), generator="offline")
    assert out.status == "answered" and standin.requests("chat") == []


def test_a_yes_vote_keeps_the_route_and_a_no_vote_lowers_confidence(make_services, standin):
    services = grader_services(make_services, standin)
    standin.set_script(chat=[{"text": "yes"}])
    agreed = run_graph(QUESTION, services, generator="offline", llm_grader=True)
    votes = standin.requests("chat")
    assert votes and all("<retrieved_context>" in r["request"]["messages"][-1]["content"] for r in votes)
    assert agreed.route == "CORRECT" and "LLM relevance yes" in agreed.evidence[0].grade_explanation
    local = [e for e in agreed.evidence if e.origin == "local"]
    assert local and all("LLM relevance" in e.grade_explanation for e in local)

    standin.set_script(chat=[{"text": "no"}])
    disagreed = run_graph(QUESTION, services, generator="offline", llm_grader=True)
    assert disagreed.confidence < agreed.confidence
    assert disagreed.confidence <= 0.5  # the mean of the deterministic score and a "no"
    assert any("LLM relevance no" in e.grade_explanation for e in disagreed.evidence if e.origin == "local")


def test_a_failing_grader_leaves_the_deterministic_score(make_services, standin):
    standin.set_script(chat=[{"status": 503}])
    services = grader_services(make_services, standin)
    out = run_graph(QUESTION, services, generator="offline", llm_grader=True)
    assert "LLM relevance grader unavailable" in " ".join(out.trace)
    assert out.route == "CORRECT" and out.status == "answered"
