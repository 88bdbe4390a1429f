"""Retrieval ablations: dense, sparse, hybrid, hybrid + sentence rerank, each with and without the
exact-reference boost (and the default without jargon expansion), scored by Hit@k, MRR@10, nDCG@10."""

from __future__ import annotations

import re
import time
from dataclasses import dataclass
from typing import Any

from core.types import Evidence
from evals.datasets import RetrievalCase
from evals.insurance_qa import facts_found
from evals.metrics import mean
from retrieval.metrics import hit_at_k, ndcg_at_k, reciprocal_rank
from retrieval.search import RetrievalOptions, Retriever

K = 10


@dataclass(frozen=True)
class Ablation:
    name: str
    options: RetrievalOptions


ABLATIONS = [
    Ablation(f"{mode}{' + boost' if boost else ''}", RetrievalOptions(mode=mode, reference_boost=boost))
    for mode in ("dense", "sparse", "hybrid", "rerank")
    for boost in (False, True)
] + [Ablation("hybrid + boost, no expansion", RetrievalOptions(mode="hybrid", reference_boost=True, expansion=False))]
DEFAULT = "hybrid + boost"

_ARTICLE_RE = re.compile(r"\bArt(?:icle)?\.?\s*(\d+)", re.I)


def relevance_keys(case: RetrievalCase, evidence: list[Evidence]) -> list[str]:
    """Each retrieved item as the key it is judged by (a gold key when relevant), duplicates dropped
    when relevance is judged per document or article."""
    keys: list[str] = []
    for e in evidence:
        if case.gold_citations:
            key = next((g for g in case.gold_citations if e.citation.startswith(g)), f"other:{e.chunk_id}")
        elif case.gold_doc_ids:
            key = e.doc_id
        elif case.gold_articles:
            match = _ARTICLE_RE.search(e.citation)
            key = f"art:{match.group(1)}" if match else f"other:{e.chunk_id}"
        else:
            key = "fact" if all(facts_found(case.gold_facts, e.text)) else f"other:{e.chunk_id}"
        if case.gold_citations or key not in keys:
            keys.append(key)
    return keys


def gold_keys(case: RetrievalCase) -> list[str]:
    if case.gold_citations:
        return case.gold_citations
    if case.gold_doc_ids:
        return case.gold_doc_ids
    if case.gold_articles:
        return [f"art:{a}" for a in case.gold_articles]
    return ["fact"]


def evaluate(
    retriever: Retriever, cases: list[RetrievalCase], ablation: Ablation, base_filters: dict[str, Any] | None = None
) -> dict[str, Any]:
    per_case: list[dict[str, Any]] = []
    started = time.perf_counter()
    for case in cases:
        evidence = retriever.retrieve(case.question, {**(base_filters or {}), **case.filters}, K, ablation.options)
        ranked = relevance_keys(case, evidence)
        gold = gold_keys(case)
        per_case.append(
            {
                "id": case.id,
                "ranked": ranked[:K],
                "first_hit": next((i for i, k in enumerate(ranked, 1) if k in gold), None),
                "ndcg": ndcg_at_k(ranked, gold, K),
                "rr": reciprocal_rank(ranked, gold, K),
                **{f"hit@{k}": hit_at_k(ranked, gold, k) for k in (1, 3, 5, 10)},
            }
        )
    elapsed = time.perf_counter() - started
    return {
        "ablation": ablation.name,
        "questions": len(cases),
        **{f"hit@{k}": round(mean(c[f"hit@{k}"] for c in per_case), 3) for k in (1, 3, 5, 10)},
        "mrr@10": round(mean(c["rr"] for c in per_case), 3),
        "ndcg@10": round(mean(c["ndcg"] for c in per_case), 3),
        "ms_per_query": round(1000 * elapsed / max(1, len(cases)), 2),
        "misses": [c["id"] for c in per_case if c["first_hit"] is None],
    }


def run_ablations(
    retriever: Retriever, cases: list[RetrievalCase], base_filters: dict[str, Any] | None = None
) -> list[dict[str, Any]]:
    return [evaluate(retriever, cases, ablation, base_filters) for ablation in ABLATIONS]
