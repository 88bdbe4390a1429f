"""The optional LLM-as-judge (ragas faithfulness and answer relevancy) through ChatGroq against the stand-in."""

from __future__ import annotations

import json

import numpy as np
import pytest
from pydantic import SecretStr

from core.schemas import AnswerRecord
from core.types import Evidence
from evals import report
from evals.answer_eval import run_variants
from evals.datasets import AnswerCase
from evals.judge import make_judge

QUESTION = "Within how many hours must a controller notify a personal data breach?"
ANSWER = (
    "The controller must notify the supervisory authority within 72 hours [Source 1]. "
    "It must also pay a fee [Source 1]."
)
CONTEXT = [
    Evidence(
        chunk_id="c1",
        citation="GDPR Art. 33(1)",
        document="GDPR",
        text="In the case of a personal data breach, the controller shall without undue delay and, where "
        "feasible, not later than 72 hours after having become aware of it, notify the supervisory authority.",
    )
]
GENERATED_QUESTION = "How long does a controller have to notify a data breach?"
KEY = "gsk_judge_key_0123456789abcdef"


def judge_for(settings, standin, embedder):
    judged = settings.model_copy(
        update={"judge_model": "groq", "groq_api_key": SecretStr(KEY), "groq_base_url": standin.url}
    )
    return make_judge(judged, embedder.embed_documents)


def script_one_answer(standin, cycle: bool = False) -> None:
    """ragas' own call order: statements, then verdicts, then three questions the answer would answer."""
    standin.set_script(
        cycle=cycle,
        chat=[
            {
                "text": json.dumps(
                    {
                        "statements": [
                            "The controller must notify the supervisory authority within 72 hours.",
                            "The controller must pay a fee.",
                        ]
                    }
                )
            },
            {
                "text": json.dumps(
                    {
                        "statements": [
                            {
                                "statement": "The controller must notify the supervisory authority within 72 hours.",
                                "reason": "stated",
                                "verdict": 1,
                            },
                            {
                                "statement": "The controller must pay a fee.",
                                "reason": "not in the context",
                                "verdict": 0,
                            },
                        ]
                    }
                )
            },
            *[{"text": json.dumps({"question": GENERATED_QUESTION, "noncommittal": 0})}] * 3,
        ],
    )


def cosine(a, b) -> float:
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    return float(a @ b / (np.linalg.norm(a) * np.linalg.norm(b)))


def test_no_judge_model_means_no_judge(settings, embedder):
    assert make_judge(settings, embedder.embed_documents) is None


def test_faithfulness_counts_supported_statements_and_relevancy_uses_our_embedder(settings, standin, embedder):
    script_one_answer(standin)
    faithful, relevant = judge_for(settings, standin, embedder).score(QUESTION, ANSWER, CONTEXT)
    assert faithful == pytest.approx(0.5)  # one of the two statements is supported
    expected = cosine(embedder.embed_documents([QUESTION])[0], embedder.embed_documents([GENERATED_QUESTION])[0])
    assert relevant == pytest.approx(expected, abs=1e-4)
    sent = standin.requests("chat")
    assert all(r["authorization"] for r in sent)
    assert [r["request"].get("n", 1) for r in sent] == [1] * 5  # Groq accepts only n=1: three questions, three calls
    prompts = [r["request"]["messages"][-1]["content"] for r in sent]
    assert "[Source" not in prompts[0] and "72 hours" in prompts[0]  # citation marks removed, the answer judged
    assert "not later than 72 hours" in prompts[1]  # the verdicts are asked against the evidence given


def test_refusals_are_not_judged_and_failures_are_counted_with_their_reason(settings, standin, embedder):
    judge = judge_for(settings, standin, embedder)
    refused = AnswerRecord(question=QUESTION, status="refused", answer="I cannot answer", evidence=CONTEXT)
    answered = AnswerRecord(question=QUESTION, status="answered", answer=ANSWER, evidence=CONTEXT, evidence_used=True)

    standin.set_script(chat=[{"status": 503}])
    failed = judge.score_all([refused, answered]).summary("groq")
    assert failed["judged"] == 0 and failed["failed"] == 1
    assert failed["failure_reasons"] == ["the model provider failed (503)"]
    assert failed["faithfulness"] is None

    standin.set_script(
        chat=[
            {"text": json.dumps({"statements": []})},
            {"text": json.dumps({"question": GENERATED_QUESTION, "noncommittal": 0})},
        ]
    )
    empty = judge.score_all([answered]).summary("groq")
    assert (
        empty["failure_reasons"] == ["the judge returned no score"] and empty["faithfulness"] is None
    )  # never NaN in the report

    script_one_answer(standin)
    before = len(standin.requests("chat"))
    scored = judge.score_all([refused, answered]).summary("groq")
    assert scored["judged"] == 1 and scored["failed"] == 0 and scored["faithfulness"] == pytest.approx(0.5)
    assert len(standin.requests("chat")) - before >= 3  # the refusal cost no judge call


def test_each_variant_of_the_answer_evaluation_gets_judge_scores(settings, standin, embedder, make_services, tmp_path):
    script_one_answer(standin, cycle=True)
    cases = [
        AnswerCase("a1", "How many hours does a controller have to notify a personal data breach?", True, ["72 hours"]),
        AnswerCase("a2", "What is the HIPAA breach notification deadline?", False),
    ]
    variants = run_variants(make_services(), cases, judge_for(settings, standin, embedder))
    plain, full = variants["plain RAG"]["llm_judge"], variants["full graph"]["llm_judge"]
    assert plain["judged"] == 2 and full["judged"] == 1  # the full graph refuses the HIPAA question: not judged
    assert full["failed"] == 0 and full["faithfulness"] == pytest.approx(0.5) and full["model"] == "groq"
    report.write({"command": "test", "machine": "test", "answers": {"tiny": variants}}, tmp_path)
    assert "| full graph | 0.5 |" in (tmp_path / "eval.md").read_text()
