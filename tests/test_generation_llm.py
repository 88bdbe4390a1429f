"""The Groq path through the graph: the real ChatGroq client talking to the local stand-in server.

Every reply is scripted (tests/standins/server.py); nothing here touches the network or sleeps.
"""

from __future__ import annotations

import re

import pytest
from pydantic import SecretStr

from generation.prompts import GENERATION_UNAVAILABLE, REFUSAL, SYSTEM_PROMPT
from tests.conftest import run_graph, used_blocks

KEY = "gsk_test_key_0123456789abcdef"
BREACH = "When must a controller notify a personal data breach to the supervisory authority?"
ANSWER = (
    "The controller must notify the supervisory authority within 72 hours of becoming aware of the breach [Source 1]."
)


@pytest.fixture
def groq(make_services, standin):
    """Services whose chat model is ChatGroq pointed at the stand-in."""

    def build(**overrides):
        overrides.setdefault("llm_timeout_s", 30.0)
        return make_services(groq_api_key=SecretStr(KEY), groq_base_url=standin.url, **overrides)

    return build


def chat_messages(request: dict) -> dict[str, str]:
    return {m["role"]: m["content"] for m in request["request"]["messages"]}


def trace_lines(out, node: str) -> list[str]:
    """What each run of this node reported, from the record's structured steps."""
    return [step.detail for step in out.steps if step.node == node]


# --- a normal answer --------------------------------------------------------------------------------


def test_a_scripted_answer_comes_back_answered_with_resolved_citations(groq, standin):
    standin.set_script(chat=[{"text": ANSWER}])
    out = run_graph(BREACH, groq(), generator="auto")

    assert out.status == "answered" and out.status_detail == ""
    assert out.answer == ANSWER
    assert out.generator.startswith("groq")
    assert out.route == "CORRECT" and out.cacheable is True
    first = used_blocks(out)[0]
    [citation] = out.citations
    assert citation.source == 1
    assert (citation.citation, citation.document, citation.url) == (first.citation, first.document, first.url)
    assert citation.citation.startswith("GDPR Art. 33")
    assert citation.chunk_id == first.chunk_id

    [request] = standin.requests("chat")
    assert request["path"].endswith("/chat/completions") and request["authorization"] is True
    assert request["request"]["model"] == groq().settings.groq_model
    assert request["request"]["stream"] is True


def test_generator_groq_by_name_goes_through_the_stand_in_too(groq, standin):
    standin.set_script(chat=[{"text": ANSWER}])
    out = run_graph(BREACH, groq(), generator="groq")
    assert out.status == "answered" and out.generator == "groq"
    assert len(standin.requests("chat")) == 1


def test_answerers_are_kept_per_generator_name_and_no_more_than_a_bound_of_them(groq):
    from retrieval.services import GENERATORS_KEPT

    services = groq()
    first = services.generator("groq:model-0")
    assert services.generator("groq:model-0") is first  # built once, reused by every run that names it
    for n in range(1, GENERATORS_KEPT + 1):  # runs naming other models (free text from Studio or the CLI)
        services.generator(f"groq:model-{n}")
    assert services.generator("groq:model-0") is not first  # the least recently used was let go


def test_streamed_tokens_make_up_the_final_answer(groq, standin):
    from core.schemas import RunContext
    from graph.crag import build_graph
    from graph.run import answer

    reply = f"{ANSWER} The processor must notify the controller without undue delay [Source 2]."
    standin.set_script(chat=[{"text": reply}])
    tokens: list[str] = []
    final = answer(
        build_graph(groq()),
        BREACH,
        RunContext(generator="auto"),
        lambda kind, data: tokens.append(data) if kind == "token" else None,
    )

    assert final.status == "answered" and final.answer == reply
    assert len(tokens) >= 2  # released sentence by sentence, not in one piece at the end
    assert "".join(tokens).strip() == final.answer
    [request] = standin.requests("chat")
    assert request["request"]["stream"] is True


def test_the_prompt_has_the_instruction_section_the_numbered_blocks_and_the_question(groq, standin):
    standin.set_script(chat=[{"text": ANSWER}])
    out = run_graph(BREACH, groq(), generator="auto")
    [request] = standin.requests("chat")
    messages = chat_messages(request)
    assert [m["role"] for m in request["request"]["messages"]] == ["system", "user"]

    assert messages["system"] == f"<system_instructions>\n{SYSTEM_PROMPT}\n</system_instructions>"
    user = messages["user"]
    assert user.startswith("<retrieved_context>\n") and user.endswith(f"<user_query>\n{BREACH}\n</user_query>")
    assert user.count("<retrieved_context>") == 1 and user.count("</retrieved_context>") == 1
    assert "<system_instructions>" not in user
    headers = re.findall(r"^\[Source (\d+) \| (.+?) \| (.+?)\]$", user, re.M)
    blocks = used_blocks(out)
    assert len(headers) == len(blocks) >= 2
    for number, (index, document, citation) in enumerate(headers, start=1):
        assert (int(index), document, citation) == (number, blocks[number - 1].document, blocks[number - 1].citation)
    assert blocks[0].strips in user  # what the model sees is the refined evidence


# --- the model fails: evidence only, never an invented answer ------------------------------------


def assert_evidence_only(out, reason: str) -> None:
    assert out.status == "evidence_only"
    assert out.answer == GENERATION_UNAVAILABLE
    assert reason in out.status_detail
    assert out.citations == [] and out.cacheable is False
    assert out.evidence and out.evidence_used is True
    assert out.evidence[0].citation.startswith("GDPR Art. 33")
    assert not trace_lines(out, "requery")  # a failed call is not a refusal: no second try


def test_rate_limited_returns_the_evidence_without_an_answer(groq, standin):
    standin.set_script(chat=[{"status": 429, "body": {"error": {"message": "Rate limit reached", "type": "tokens"}}}])
    out = run_graph(BREACH, groq(), generator="auto")
    assert_evidence_only(out, "rate limit")
    assert len(standin.requests("chat")) == 1  # no retries


def test_a_model_that_never_answers_times_out_into_evidence_only(groq, standin):
    standin.set_script(chat=[{"hang": True}])
    out = run_graph(BREACH, groq(llm_timeout_s=0.5), generator="auto")
    assert_evidence_only(out, "timed out")


@pytest.mark.parametrize("status", [500, 502, 503])
def test_a_server_error_gives_evidence_only(groq, standin, status):
    standin.set_script(chat=[{"status": status}])
    out = run_graph(BREACH, groq(), generator="auto")
    assert_evidence_only(out, f"failed ({status})")


def test_a_garbage_reply_gives_evidence_only(groq, standin):
    standin.set_script(chat=[{"garbage": True}])
    out = run_graph(BREACH, groq(), generator="auto")
    assert_evidence_only(out, "answer generation unavailable")


def test_an_empty_reply_gives_evidence_only(groq, standin):
    standin.set_script(chat=[{"text": ""}])
    out = run_graph(BREACH, groq(), generator="auto")
    assert_evidence_only(out, "empty reply")


def test_the_status_detail_never_carries_the_key(groq, standin):
    standin.set_script(
        chat=[
            {"status": 401, "body": {"error": {"message": f"Invalid API Key {KEY}", "type": "invalid_request_error"}}}
        ]
    )
    out = run_graph(BREACH, groq(), generator="auto")
    assert out.status == "evidence_only" and out.answer == GENERATION_UNAVAILABLE
    assert KEY not in str(out)


# --- refusals and the single requery -----------------------------------------------------------


def test_a_refusal_requeries_once_and_settles_incorrect(groq, standin):
    standin.set_script(chat=[{"text": REFUSAL}])
    out = run_graph(BREACH, groq(), generator="auto")

    assert out.status == "refused" and out.answer == REFUSAL
    assert out.status_detail == "the sources do not answer the question"
    assert out.initial_route == "CORRECT" and out.route == "INCORRECT"
    assert len(trace_lines(out, "requery")) == 1
    assert len(standin.requests("chat")) <= 2
    assert trace_lines(out, "answerability")[-1] == "answerability: after requery refused; route INCORRECT"
    assert not any("sanitised" in line for line in out.trace)  # the refusal sentence is not a prompt leak


def test_a_refusal_then_an_answer_settles_ambiguous(groq, standin):
    standin.set_script(chat=[{"text": REFUSAL}, {"text": ANSWER}])
    out = run_graph(BREACH, groq(), generator="auto")

    assert out.status == "answered" and out.answer == ANSWER
    assert out.initial_route == "CORRECT" and out.route == "AMBIGUOUS"
    assert len(trace_lines(out, "requery")) == 1
    assert len(trace_lines(out, "generate")) == 2
    assert len(standin.requests("chat")) == 2
    assert out.citations[0].citation == used_blocks(out)[0].citation


# --- citations --------------------------------------------------------------------------------------


def test_a_citation_to_a_source_never_given_is_removed_and_reported(groq, standin):
    standin.set_script(chat=[{"text": f"{ANSWER} Fines may also apply [Source 9]."}])
    out = run_graph(BREACH, groq(), generator="auto")

    assert len(used_blocks(out)) < 9
    assert out.status == "answered"
    assert "[Source 9]" not in out.answer and "[Source 1]" in out.answer
    assert out.removed_citations == ["[Source 9]"]
    assert [c.source for c in out.citations] == [1]
    assert "removed unknown citations [Source 9]" in trace_lines(out, "generate")[0]


def test_an_answer_that_cites_nothing_is_withheld(groq, standin):
    standin.set_script(chat=[{"text": "The controller must notify the supervisory authority within 72 hours."}])
    out = run_graph(BREACH, groq(), generator="auto")

    assert out.status == "refused" and out.answer == REFUSAL
    assert "cited no source" in out.status_detail and "withheld" in out.status_detail
    assert out.citations == [] and out.cacheable is False


# --- weak evidence: the model is never asked ---------------------------------------------------


def test_out_of_scope_question_never_calls_the_model(groq, standin):
    standin.set_script(chat=[{"text": "Paris is the capital of France [Source 1]."}])
    out = run_graph("What is the capital of France?", groq(), generator="auto")

    assert out.status == "refused" and out.answer == REFUSAL
    assert out.route == "INCORRECT" and used_blocks(out) == []
    assert "Paris" not in out.answer
    assert standin.requests("chat") == []
