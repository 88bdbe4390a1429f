"""Does correction pay? Plain RAG, CRAG routing without the requery loop, and the full graph, scored on
key-fact recall, citations, refusal precision/recall and over-refusal, with route and loop rates."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from core.types import Evidence
from evals.datasets import AnswerCase
from evals.insurance_qa import normalise
from evals.metrics import mean
from generation.answer import generate_answer
from generation.guard import leaks_system_prompt
from generation.offline import OfflineAnswerer
from graph.crag import build_graph
from nodes.context import RunContext, Services

if TYPE_CHECKING:  # ragas is imported only when a judge is configured
    from evals.judge import Judge

Runner = Callable[[AnswerCase], dict[str, Any]]
_KEY_RE = re.compile(r"\b(gsk_|tvly-|sk-|prag_)[A-Za-z0-9_-]{8,}")


def plain_rag(services: Services, k: int = 5) -> Runner:
    """Retrieve and generate: no grading, no strips, no web, no loop (the answerer's own floor still applies)."""
    answerer = OfflineAnswerer(services.resources.embedder.embed_documents)

    def run(case: AnswerCase) -> dict[str, Any]:
        started = time.perf_counter()
        evidence = services.resources.retriever.retrieve(case.question, case.filters or None, k)
        result = generate_answer(case.question, evidence, answerer, services.sanitiser)
        return {
            "status": result.status,
            "answer": result.answer,
            "citations": result.citations,
            "context": evidence,
            "route": None,
            "initial_route": None,
            "requeried": False,
            "loop_ms": 0.0,
            "ms": (time.perf_counter() - started) * 1000,
        }

    return run


def graph_runner(services: Services, with_requery: bool, generator: str = "offline") -> Runner:
    compiled = build_graph(with_requery=with_requery)

    def run(case: AnswerCase) -> dict[str, Any]:
        started = time.perf_counter()
        out = compiled.invoke(
            {
                "question": case.question,
                **({"collection": case.filters["collection"]} if case.filters.get("collection") else {}),
            },
            context=RunContext(services=services, generator=generator),
        )
        trace = out.get("trace", [])
        latency = out.get("latency_ms") or {}
        generations = sum(1 for t in trace if t.startswith("generate"))
        # the loop's own cost: the requery node, plus the second generation when there was one
        loop_ms = latency.get("requery", 0.0) + (latency.get("generate", 0.0) / generations if generations > 1 else 0.0)
        return {
            "status": out.get("status"),
            "answer": out.get("answer", ""),
            "citations": out.get("citations") or [],
            "context": out.get("context") or [],
            "route": out.get("route"),
            "initial_route": out.get("initial_route"),
            "requeried": any(t.startswith("requery") for t in trace),
            "loop_ms": loop_ms,
            "ms": (time.perf_counter() - started) * 1000,
        }

    return run


def _facts_in(facts: list[str], text: str) -> int:
    haystack = normalise(text)
    return sum(1 for f in facts if normalise(f) in haystack)


def _cited_text(result: dict[str, Any]) -> str:
    blocks: list[Evidence] = result["context"]
    by_id = {b.chunk_id: b for b in blocks}
    return " ".join(by_id[c.chunk_id].text for c in result["citations"] if c.chunk_id in by_id)


def score(cases: list[AnswerCase], results: list[dict[str, Any]]) -> dict[str, Any]:
    """Key-fact recall, citation validity, refusal precision/recall, over-refusal, routes, loop rate."""
    answerable = [(c, r) for c, r in zip(cases, results) if c.answerable]
    unanswerable = [(c, r) for c, r in zip(cases, results) if not c.answerable]
    with_facts = [(c, r) for c, r in answerable if c.key_facts]
    refused = [(c, r) for c, r in zip(cases, results) if r["status"] != "answered"]
    answered_with_facts = [(c, r) for c, r in with_facts if r["status"] == "answered"]
    true_refusals = sum(1 for c, _ in refused if not c.answerable)
    routes: dict[str, int] = {}
    for r in results:
        if r["initial_route"]:
            routes[r["initial_route"]] = routes.get(r["initial_route"], 0) + 1
    route_ok = [
        (r["initial_route"] == "INCORRECT") == (not c.answerable) for c, r in zip(cases, results) if r["initial_route"]
    ]
    return {
        "questions": len(cases),
        "answerable": len(answerable),
        "unanswerable": len(unanswerable),
        "key_fact_recall": round(
            mean(
                _facts_in(c.key_facts, r["answer"]) / len(c.key_facts) if r["status"] == "answered" else 0.0
                for c, r in with_facts
            ),
            3,
        ),
        "cited_block_has_fact": round(
            mean(1.0 if _facts_in(c.key_facts, _cited_text(r)) else 0.0 for c, r in answered_with_facts), 3
        ),
        "citations_valid": all(c.source >= 1 for _, r in zip(cases, results) for c in r["citations"]),
        "refusal_precision": round(true_refusals / len(refused), 3) if refused else None,
        "refusal_recall": round(true_refusals / len(unanswerable), 3) if unanswerable else None,
        "over_refusal": round(sum(1 for _, r in answerable if r["status"] != "answered") / len(answerable), 3)
        if answerable
        else None,
        "route_accuracy": round(mean(1.0 if ok else 0.0 for ok in route_ok), 3) if route_ok else None,
        "initial_routes": routes,
        "loop_rate": round(mean(1.0 if r["requeried"] else 0.0 for r in results), 3),
        "recovered_by_loop": sum(1 for r in results if r["requeried"] and r["status"] == "answered"),
        "latency_ms_mean": round(mean(r["ms"] for r in results), 1),
        "latency_ms_total": round(sum(r["ms"] for r in results), 1),
        "loop_ms_total": round(sum(r["loop_ms"] for r in results), 1),
        "leaks": sum(1 for r in results if leaks_system_prompt(r["answer"]) or _KEY_RE.search(r["answer"])),
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
            out[name]["llm_judge"] = judge.score_all([(c.question, r) for c, r in zip(cases, results)]).summary(
                judge.name
            )
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
