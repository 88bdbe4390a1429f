"""The evaluation code: metric functions on hand-computed cases, and the runner's parts on a tiny set."""

from __future__ import annotations

import json
import math

import pytest

from core.schemas import AnswerRecord, Step
from core.types import Citation, Evidence
from evals import report
from evals.answer_eval import run_variants, score
from evals.calibration import accuracy, fit, split
from evals.datasets import AnswerCase, RetrievalCase
from evals.metrics import auroc
from evals.retrieval_eval import ABLATIONS, evaluate, gold_keys, relevance_keys
from retrieval.metrics import first_relevant_rank, hit_at_k, ndcg_at_k, reciprocal_rank


def test_rank_metrics_by_hand():
    ranked = ["x", "a", "y", "b"]
    assert first_relevant_rank(ranked, {"a", "b"}) == 2
    assert hit_at_k(ranked, {"a"}, 1) == 0.0 and hit_at_k(ranked, {"a"}, 2) == 1.0
    assert reciprocal_rank(ranked, {"b"}) == 0.25 and reciprocal_rank(ranked, {"z"}) == 0.0
    # DCG = 1/log2(3) + 1/log2(5); ideal = 1 + 1/log2(3)
    expected = (1 / math.log2(3) + 1 / math.log2(5)) / (1 + 1 / math.log2(3))
    assert ndcg_at_k(ranked, {"a", "b"}, 10) == pytest.approx(expected)
    assert ndcg_at_k(["a", "a"], {"a"}, 10) == 1.0  # a repeated item counts once


def test_auroc_by_hand():
    assert auroc([0.9, 0.8, 0.3, 0.1], [True, True, False, False]) == 1.0
    assert auroc([0.1, 0.9], [True, False]) == 0.0
    assert auroc([0.5, 0.5], [True, False]) == 0.5
    assert math.isnan(auroc([0.5], [True]))


def evidence(citation: str, doc_id: str, text: str = "") -> Evidence:
    return Evidence(chunk_id=citation, text=text or citation, citation=citation, document=doc_id, doc_id=doc_id)


def test_relevance_keys_for_each_kind_of_gold():
    found = [
        evidence("GDPR Art. 33(2)", "a33"),
        evidence("GDPR Art. 33(1)", "a33"),
        evidence("GDPR Art. 9(2)(h)", "a9"),
    ]
    by_citation = RetrievalCase("c", "q", gold_citations=["GDPR Art. 33(1)"])
    assert relevance_keys(by_citation, found)[1] == "GDPR Art. 33(1)" and gold_keys(by_citation) == ["GDPR Art. 33(1)"]
    by_doc = RetrievalCase("d", "q", gold_doc_ids=["a9"])
    assert relevance_keys(by_doc, found) == ["a33", "a9"]  # one entry per document
    by_article = RetrievalCase("r", "q", gold_articles=["9"])
    assert relevance_keys(by_article, found) == ["art:33", "art:9"]
    by_fact = RetrievalCase("f", "q", gold_facts=[["72 hours"]])
    assert relevance_keys(by_fact, [evidence("x", "x", "within 72 hours of becoming aware")]) == ["fact"]


def test_answer_scores_by_hand():
    cases = [
        AnswerCase("1", "q1", True, ["72 hours"]),
        AnswerCase("2", "q2", True, ["one month"]),
        AnswerCase("3", "q3", False),
    ]
    block = evidence("GDPR Art. 33(1)", "a33", "not later than 72 hours")

    def step(node: str, ms: float) -> Step:
        return Step(node=node, ms=ms)

    refused = "I cannot answer this from the available sources."
    loop = [step("retrieve", 1.0), step("generate", 1.0), step("requery", 5.0)]
    results = [
        AnswerRecord(
            status="answered",
            answer="Within 72 hours [Source 1].",
            citations=[Citation(source=1, citation="c", document="d", chunk_id=block.chunk_id)],
            evidence=[block],
            evidence_used=True,
            route="CORRECT",
            initial_route="CORRECT",
            latency_ms={"total": 10.0},
        ),
        AnswerRecord(
            answer=refused, route="INCORRECT", initial_route="INCORRECT", latency_ms={"total": 20.0}, steps=loop
        ),
        AnswerRecord(
            answer=refused, route="INCORRECT", initial_route="INCORRECT", latency_ms={"total": 30.0}, steps=loop
        ),
    ]
    scored = score(cases, results)
    assert scored["key_fact_recall"] == 0.5 and scored["cited_block_has_fact"] == 1.0
    assert scored["refusal_precision"] == 0.5 and scored["refusal_recall"] == 1.0 and scored["over_refusal"] == 0.5
    assert scored["route_accuracy"] == pytest.approx(2 / 3, abs=1e-3) and scored["loop_rate"] == pytest.approx(
        2 / 3, abs=1e-3
    )
    assert scored["recovered_by_loop"] == 0 and scored["loop_ms_total"] == 10.0 and scored["leaks"] == 0


def test_threshold_fit_and_split_by_hand():
    scores = [0.9, 0.8, 0.7, 0.35, 0.3, 0.1]
    labels = [True, True, True, False, False, False]
    chosen = fit(scores, labels)
    assert 0.35 < chosen["incorrect_threshold"] < 0.7  # separates the two groups
    assert accuracy(scores, labels, chosen["incorrect_threshold"]) == 1.0
    assert chosen["correct_threshold"] >= chosen["incorrect_threshold"]
    cases = [AnswerCase(str(i), "q", i % 3 != 0) for i in range(30)]
    train, test = split(cases)
    assert not set(train) & set(test) and len(train) + len(test) == 30
    assert split(cases) == (train, test)  # fixed seed
    assert {cases[i].answerable for i in test} == {True, False}


def test_runner_parts_on_a_tiny_set(shipped, make_services, tmp_path):
    cases = [
        RetrievalCase("t1", "How many hours to notify a personal data breach?", gold_citations=["GDPR Art. 33(1)"]),
        RetrievalCase("t2", "explicit consent special categories", gold_doc_ids=["gdpr_art_09_2_a"]),
    ]
    rows = [evaluate(shipped.retriever, cases, ablation) for ablation in ABLATIONS]
    default = next(r for r in rows if r["ablation"] == "hybrid + boost")
    assert default["questions"] == 2 and default["hit@10"] == 1.0 and 0 < default["mrr@10"] <= 1
    answers = [
        AnswerCase("a1", "How many hours does a controller have to notify a personal data breach?", True, ["72 hours"]),
        AnswerCase("a2", "What is the HIPAA breach notification deadline?", False),
    ]
    variants = run_variants(make_services(), answers)
    assert variants["full graph"]["refusal_recall"] == 1.0 and variants["full graph"]["key_fact_recall"] == 1.0
    assert variants["plain RAG"]["refusal_recall"] == 0.0  # plain RAG answers a HIPAA question from GDPR text
    results = {
        "command": "test",
        "machine": "test",
        "retrieval": {"tiny": {"questions": 2, "ablations": rows}},
        "answers": {"tiny": variants},
    }
    report.write(results, tmp_path)
    assert "| hybrid + boost |" in (tmp_path / "eval.md").read_text()
    assert (tmp_path / "plots" / "retrieval_tiny.png").stat().st_size > 1000


def test_calibration_fits_without_changing_the_routing(shipped, tmp_path, monkeypatch):
    from core import settings as settings_module
    from evals import calibration

    before = settings_module.THRESHOLDS_FILE.read_bytes()
    cases = [AnswerCase("a", "How many hours to notify a personal data breach?", True)] * 3 + [
        AnswerCase("u", "What is the HIPAA breach deadline?", False)
    ] * 3
    report = calibration.calibrate(shipped.retriever, cases, shipped.settings.candidate_pool)
    assert {"correct_threshold", "incorrect_threshold"} == set(report["chosen"])
    assert settings_module.THRESHOLDS_FILE.read_bytes() == before  # evaluating never changes production routing
    target = tmp_path / "thresholds.json"
    calibration.apply_thresholds(report["chosen"], target)
    assert json.loads(target.read_text())["incorrect_threshold"] == report["chosen"]["incorrect_threshold"]
