"""Retrieval ablations through the graph's own retrieve and grade nodes (issue 15).

Each variant is the full pipeline with one setting changed: no authority order, no chunk context (an index
built without it), no citation following, a candidate pool of 10 or 50, RRF instead of DBSF fusion, no query
expansion. The evidence measured is what the graph's retrieve node fetches (pool, scope, following) and its
grade node keeps (every candidate graded, then cut to k), so nothing here re-implements retrieval.

Two sets of golds: plain-language questions on the official GDPR and EHDS texts as a user ingests them
(recitals included; evals/goldens/official_retrieval.jsonl), and the gold provisions (`must_cite`) of the
answerable plain-language questions on the shipped corpus (evals/goldens/plain_questions.jsonl). Hit@1, Hit@5,
MRR@10 and the authority of the rank-1 chunk, dev and held-out apart; held-out rows keep only ids and ranks.
"""

from __future__ import annotations

import statistics
from dataclasses import dataclass, field
from typing import Any

from langgraph.runtime import Runtime

from core.schemas import RunContext
from core.settings import Settings
from core.types import Evidence
from evals import datasets, official_eval
from evals.answer_quality import citations_match
from evals.metrics import mean, share
from nodes.grade import grade
from nodes.retrieve import retrieve
from retrieval.resources import Resources
from retrieval.services import Services

K = 10  # evidence kept per question: Hit@5 and MRR@10 look this deep
PLAIN = "plain questions"


@dataclass(frozen=True)
class Variant:
    """The full pipeline with some settings changed; `chunk_context` off means the index built without it."""

    name: str
    settings: dict[str, Any] = field(default_factory=dict)

    @property
    def match_context(self) -> bool:
        return bool(self.settings.get("chunk_context", True))


VARIANTS = [
    Variant("full pipeline"),
    Variant("no authority order", {"authority_order": False}),
    Variant("no chunk context", {"chunk_context": False}),
    Variant("no citation following", {"follow_citations": False}),
    Variant("pool 10", {"candidate_pool": 10}),
    Variant("pool 50", {"candidate_pool": 50}),
    Variant("fusion rrf", {"fusion": "rrf"}),
    Variant("no expansion", {"query_expansion": False}),
]


@dataclass(frozen=True)
class Gold:
    """A question, where it is asked, and the provisions that answer it."""

    id: str
    group: str  # GDPR, EHDS or plain questions
    split: str
    question: str
    collection: str | None  # None: every collection, as a user asks without choosing
    gold: tuple[str, ...]
    binding: bool


def official_golds() -> list[Gold]:
    return [
        Gold(c.id, c.instrument, c.split, c.question, official_eval.COLLECTION, c.gold, c.binding)
        for c in official_eval.cases()
    ]


def plain_golds() -> list[Gold]:
    """The answerable plain-language questions, each with the provisions an answer must cite."""
    return [
        Gold(c.id, PLAIN, c.split, c.question, c.collection, tuple(c.must_cite), c.binding)
        for c in datasets.plain_questions()
        if c.answerable and c.must_cite
    ]


def answers_for(citation: str, gold: str) -> bool:
    """A chunk answers for a gold when one citation is the other or its prefix at a "(", "." or " " boundary,
    a piece cut from points (h)-(j) counting for each point it holds."""
    return any(citations_match(point, gold) for point in official_eval.points(citation))


def graph_evidence(services: Services, question: str, collection: str | None) -> tuple[list[Evidence], float]:
    """The evidence the graph's retrieve and grade nodes choose (k = K), and the milliseconds both took."""
    runtime = Runtime(context=RunContext(collection=collection, top_k=K, allow_web=False))
    found = retrieve({"question": question}, runtime, services=services)
    graded = grade({"question": question, "candidates": found["candidates"]}, runtime, services=services)
    return graded["candidates"], found["latency_ms"]["retrieve"] + graded["latency_ms"]["grade"]


def question_row(gold: Gold, evidence: list[Evidence], ms: float) -> dict[str, Any]:
    first = next((i for i, e in enumerate(evidence[:K], 1) if any(answers_for(e.citation, g) for g in gold.gold)), None)
    return {
        "id": gold.id,
        "group": gold.group,
        "split": gold.split,
        "gold_binding": gold.binding,
        "first_hit": first,
        "rank1_citation": evidence[0].citation if evidence else None,
        "rank1_authority": evidence[0].authority if evidence else None,
        "ms": ms,
    }


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Hit@1, Hit@5, MRR@10; `rank1_binding`: share of the questions whose gold is binding that get a binding
    chunk first; `rank1_authority`: share of each authority at rank 1; the median ms of retrieve + grade."""
    ranks = [r["first_hit"] for r in rows]
    authorities = [r["rank1_authority"] for r in rows]
    return {
        "questions": len(rows),
        "hit@1": share([r == 1 for r in ranks]),
        "hit@5": share([r is not None and r <= 5 for r in ranks]),
        "mrr@10": round(mean(1 / r if r is not None and r <= K else 0.0 for r in ranks), 3),
        "rank1_binding": share([r["rank1_authority"] == "binding" for r in rows if r["gold_binding"]]),
        "rank1_authority": {a: share([x == a for x in authorities]) for a in sorted(set(filter(None, authorities)))},
        "ms_p50": round(statistics.median(r["ms"] for r in rows), 1) if rows else None,
    }


def public_row(row: dict[str, Any]) -> dict[str, Any]:
    """Dev rows keep the rank-1 citation to learn from; held-out rows only the id and the rank."""
    if row["split"] == "dev":
        return {key: row[key] for key in ("id", "first_hit", "rank1_citation", "rank1_authority")}
    return {"id": row["id"], "first_hit": row["first_hit"]}


def run(golds: list[Gold], indexes: dict[bool, Resources]) -> dict[str, Any]:
    """Per group and split, one summary row per variant; `indexes` holds the index built with the chunk
    context (True) and without it (False), over the same documents."""
    rows: dict[str, list[dict[str, Any]]] = {}
    for variant in VARIANTS:
        resources = indexes[variant.match_context]
        services = Services(resources.settings.model_copy(update=variant.settings), resources)
        rows[variant.name] = [
            question_row(gold, *graph_evidence(services, gold.question, gold.collection)) for gold in golds
        ]
    return official_eval.by_group_and_split(rows, "group", summary, public_row)


def note(base: Settings) -> str:
    return (
        f"The graph's retrieve and grade nodes, k={K}: full pipeline = pool {base.candidate_pool}, "
        f"{base.fusion.upper()} fusion, citation following, query expansion, authority order, chunk context; each "
        "other row changes one of them ('no chunk context' searches an index built without it). Official texts: "
        "the full GDPR and EHDS in one index, recitals included, searched as one collection. Plain questions: the "
        "answerable plain-language questions over the shipped corpus in their own collection (none: every "
        "collection, scoped as the graph scopes it), a hit being a `must_cite` provision. rank1_binding: share of "
        "questions whose gold is binding that get a binding provision first."
    )
