"""Does correction pay? Plain RAG, CRAG routing without the requery loop, and the full graph, scored on
key-fact recall, citations, refusal precision/recall and over-refusal, with route and loop rates."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from core.schemas import AnswerRecord, RunContext
from core.types import Evidence
from evals.datasets import AnswerCase
from evals.insurance_qa import normalise
from evals.metrics import mean
from generation.answer import generate_answer
from generation.guard import leaks_system_prompt
from generation.offline import OfflineAnswerer
from graph.crag import build_graph
from graph.run import answer
from retrieval.services import Services

if TYPE_CHECKING:  # ragas is imported only when a judge is configured
    from evals.judge import Judge

Runner = Callable[[AnswerCase], AnswerRecord]
_KEY_RE = re.compile(r"\b(gsk_|tvly-|sk-|prag_)[A-Za-z0-9_-]{8,}")


def plain_rag(services: Services) -> Runner:
    """Retrieve and generate: no grading, no strips, no web, no loop (the answerer's own floor still applies)."""
    answerer = OfflineAnswerer(services.resources.sentence_vectors.for_chunks)
    k = services.settings.top_k

    def run(case: AnswerCase) -> AnswerRecord:
        started = time.perf_counter()
        evidence = services.resources.retriever.retrieve(case.question, case.filters or None, k)
        result = generate_answer(case.question, evidence, answerer, services.sanitiser)
        return AnswerRecord(
            question=case.question,
            answer=result.answer,
            status=result.status,
            citations=result.citations,
            evidence=evidence,
            evidence_used=True,
            generator=result.generator,
            latency_ms={"total": round((time.perf_counter() - started) * 1000, 3)},
        )

    return run


def graph_runner(services: Services, with_requery: bool, generator: str = "offline") -> Runner:
    compiled = build_graph(services, with_requery=with_requery)

    def run(case: AnswerCase) -> AnswerRecord:
        return answer(
            compiled, case.question, RunContext(collection=case.filters.get("collection"), generator=generator)
        )

    return run


def used_evidence(record: AnswerRecord) -> list[Evidence]:
    """The blocks the answer was written from (none when it refused for want of evidence)."""
    return record.evidence if record.evidence_used else []


def requeried(record: AnswerRecord) -> bool:
    return "requery" in record.nodes()


def loop_ms(record: AnswerRecord) -> float:
    """The requery loop's own cost: the requery node, plus the second generation when there was one."""
    generations = [s.ms for s in record.steps if s.node == "generate"]
    return sum(s.ms for s in record.steps if s.node == "requery") + (generations[-1] if len(generations) > 1 else 0.0)


def _facts_in(facts: list[str], text: str) -> int:
    haystack = normalise(text)
    return sum(1 for f in facts if normalise(f) in haystack)


def _cited_text(record: AnswerRecord) -> str:
    by_id = {b.chunk_id: b for b in used_evidence(record)}
    return " ".join(by_id[c.chunk_id].text for c in record.citations if c.chunk_id in by_id)


def score(cases: list[AnswerCase], results: list[AnswerRecord]) -> dict[str, Any]:
    """Key-fact recall, citation validity, refusal precision/recall, over-refusal, routes, loop rate."""
    answerable = [(c, r) for c, r in zip(cases, results) if c.answerable]
    unanswerable = [(c, r) for c, r in zip(cases, results) if not c.answerable]
    with_facts = [(c, r) for c, r in answerable if c.key_facts]
    refused = [(c, r) for c, r in zip(cases, results) if r.status != "answered"]
    answered_with_facts = [(c, r) for c, r in with_facts if r.status == "answered"]
    true_refusals = sum(1 for c, _ in refused if not c.answerable)
    routes: dict[str, int] = {}
    for r in results:
        if r.initial_route:
            routes[r.initial_route] = routes.get(r.initial_route, 0) + 1
    route_ok = [
        (r.initial_route == "INCORRECT") == (not c.answerable) for c, r in zip(cases, results) if r.initial_route
    ]
    return {
        "questions": len(cases),
        "answerable": len(answerable),
        "unanswerable": len(unanswerable),
        "key_fact_recall": round(
            mean(
                _facts_in(c.key_facts, r.answer) / len(c.key_facts) if r.status == "answered" else 0.0
                for c, r in with_facts
            ),
            3,
        ),
        "cited_block_has_fact": round(
            mean(1.0 if _facts_in(c.key_facts, _cited_text(r)) else 0.0 for c, r in answered_with_facts), 3
        ),
        "citations_valid": all(c.source >= 1 for _, r in zip(cases, results) for c in r.citations),
        "refusal_precision": round(true_refusals / len(refused), 3) if refused else None,
        "refusal_recall": round(true_refusals / len(unanswerable), 3) if unanswerable else None,
        "over_refusal": round(sum(1 for _, r in answerable if r.status != "answered") / len(answerable), 3)
        if answerable
        else None,
        "route_accuracy": round(mean(1.0 if ok else 0.0 for ok in route_ok), 3) if route_ok else None,
        "initial_routes": routes,
        "loop_rate": round(mean(1.0 if requeried(r) else 0.0 for r in results), 3),
        "recovered_by_loop": sum(1 for r in results if requeried(r) and r.status == "answered"),
        "latency_ms_mean": round(mean(r.latency_ms["total"] for r in results), 1),
        "latency_ms_total": round(sum(r.latency_ms["total"] for r in results), 1),
        "loop_ms_total": round(sum(loop_ms(r) for r in results), 1),
        "leaks": sum(1 for r in results if leaks_system_prompt(r.answer) or _KEY_RE.search(r.answer)),
    }


def run_variants(services: Services, cases: list[AnswerCase], judge: Judge | None = None) -> dict[str, Any]:
    """Every variant over the cases; with a judge, each variant's answers also get ragas scores."""
    variants = {
        "plain RAG": plain_rag(services),
        "CRAG, no requery loop": graph_runner(services, with_requery=False),
        "full graph": graph_runner(services, with_requery=True),
    }
    out: dict[str, Any] = {}
    for name, runner in variants.items():
        results = [runner(case) for case in cases]
        out[name] = score(cases, results)
        if judge is not None:
            out[name]["llm_judge"] = judge.score_all(results).summary(judge.name)
    full = out["full graph"]
    recovered = full["recovered_by_loop"]
    spent = full["loop_ms_total"]
    out["loop_cost"] = {
        "loop_runs": round(full["loop_rate"] * full["questions"]),
        "answers_recovered_by_loop": recovered,
        "loop_latency_ms_total": spent,
        "loop_latency_ms_per_recovered_answer": round(spent / recovered, 1) if recovered else None,
    }
    return out
