"""Retrieval on the official GDPR and EHDS texts as a user ingests them (recitals included), asked in
plain words (evals/goldens/official_retrieval.jsonl, issue 15).

Recitals often say in a user's words what an article says in the law's, so besides Hit@k and MRR@10
this measures whether the rank-1 chunk is binding (an article or annex) or a recital. Dev and held-out
figures are kept apart, and only dev keeps per-question citations: nobody tunes on the held-out part.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from core.types import Evidence
from evals.datasets import GOLDENS, SHARED, read_jsonl
from evals.metrics import mean, share
from evals.retrieval_eval import ABLATIONS, Ablation, K
from retrieval.search import Retriever

SOURCES = {
    "GDPR": SHARED / "corpora" / "gdpr" / "gdpr-consolidated-with-corrected-preamble-en.xml",
    "EHDS": SHARED / "corpora" / "ehds" / "32025R0327_EHDS_oj_en.html",
}
RECITALS = SHARED / "corpora" / "gdpr" / "qa" / "gdpr_recital_to_article_retrieval.jsonl"
RECITAL_SET = "GDPR recital -> article"
COLLECTION = "official"
SPLITS = ("dev", "heldout")
_RANGE_RE = re.compile(r"^(.*)\(([a-z])\)-\(([a-z])\)$")
_RECITAL_RE = re.compile(r"\bRecital \d+")


@dataclass(frozen=True)
class OfficialCase:
    id: str
    instrument: str
    split: str
    question: str
    gold: tuple[str, ...]
    binding: bool
    articles_only: bool = False  # rank only binding chunks: the question is a recital, the answer its article


def available() -> bool:
    return all(path.exists() for path in SOURCES.values())


def cases() -> list[OfficialCase]:
    return [
        OfficialCase(r["id"], r["instrument"], r["split"], r["question"], tuple(r["gold"]), bool(r["binding"]))
        for r in read_jsonl(GOLDENS / "official_retrieval.jsonl")
    ]


def recital_cases() -> list[OfficialCase]:
    """The GDPR recital -> article set (gdpr-info's editorial map; evaluation data only, never a source of links):
    each recital's text asked as it stands, its articles the gold, counted among the binding chunks retrieved
    (the recital itself is found first; the question is which article it leads to). Odd recitals are dev,
    even ones held out. None when the set is absent (the questions on the official texts still run)."""
    if not RECITALS.exists():
        return []
    return [
        OfficialCase(
            r["id"],
            RECITAL_SET,
            "dev" if r["recital"] % 2 else "heldout",
            r["query"],
            tuple(f"GDPR Art. {a}" for a in r["relevant_articles"]),
            True,
            articles_only=True,
        )
        for r in read_jsonl(RECITALS)
    ]


def points(citation: str) -> list[str]:
    """The citations a chunk stands for: a piece cut from a paragraph's points, `Art. 9(2)(h)-(j)`,
    holds (h), (i) and (j), so it answers for each of them."""
    match = _RANGE_RE.match(citation)
    if not match:
        return [citation]
    base, first, last = match.groups()
    return [f"{base}({chr(c)})" for c in range(ord(first), ord(last) + 1)]


def _nested(a: str, b: str) -> bool:
    return a == b or a.startswith(b + "(") or b.startswith(a + "(")


def matches(citation: str, gold: str) -> bool:
    """Equal, or one is the other with more `(...)`: `Art. 33(1)` answers for `Art. 33` and back, `Art. 3`
    never for `Art. 33`. Citations start with the instrument, so a GDPR chunk never answers for EHDS."""
    return any(_nested(c, gold) for c in points(citation))


def is_recital(evidence: Evidence) -> bool:
    return evidence.metadata.get("kind") == "recital" or bool(_RECITAL_RE.search(evidence.citation))


def first_hit(evidence: list[Evidence], gold: tuple[str, ...]) -> int | None:
    """1-based rank of the first chunk that answers for a gold, or None."""
    return next((i for i, e in enumerate(evidence, 1) if any(matches(e.citation, g) for g in gold)), None)


def question_row(case: OfficialCase, evidence: list[Evidence]) -> dict[str, Any]:
    return {
        "id": case.id,
        "instrument": case.instrument,
        "split": case.split,
        "gold_binding": case.binding,
        "first_hit": first_hit(evidence[:K], case.gold),
        "rank1_citation": evidence[0].citation if evidence else None,
        "rank1_recital": bool(evidence) and is_recital(evidence[0]),
    }


def summary(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Hit@1, Hit@5, MRR@10, and the authority of the rank-1 chunk: `rank1_binding` is the share of questions
    whose gold is binding that get an article or annex first, `rank1_recital` the share that get a recital."""
    ranks = [r["first_hit"] for r in rows]
    return {
        "questions": len(rows),
        "hit@1": share([r == 1 for r in ranks]),
        "hit@5": share([r is not None and r <= 5 for r in ranks]),
        "mrr@10": round(mean(1 / r if r is not None and r <= 10 else 0.0 for r in ranks), 3),
        "rank1_binding": share(
            [r["rank1_citation"] is not None and not r["rank1_recital"] for r in rows if r["gold_binding"]]
        ),
        "rank1_recital": share([r["rank1_recital"] for r in rows]),
    }


def public_row(row: dict[str, Any]) -> dict[str, Any]:
    """Dev rows keep the rank-1 citation to learn from; held-out rows only the id and the rank."""
    if row["split"] == "dev":
        return {key: row[key] for key in ("id", "split", "first_hit", "rank1_citation")}
    return {"id": row["id"], "first_hit": row["first_hit"]}


def answers(case: OfficialCase, evidence: list[Evidence]) -> list[Evidence]:
    """What is ranked: every chunk, or for the recital -> article set only the binding ones."""
    return [e for e in evidence if not is_recital(e)] if case.articles_only else evidence


def evaluate(retriever: Retriever, cases: list[OfficialCase], ablation: Ablation) -> list[dict[str, Any]]:
    """One row per question, searching the whole official index (no instrument filter, as a user asks)."""
    return [
        question_row(
            case, answers(case, retriever.retrieve(case.question, {"collection": COLLECTION}, K, ablation.options))
        )
        for case in cases
    ]


def run(retriever: Retriever, cases: list[OfficialCase]) -> dict[str, Any]:
    """Per instrument and split, one summary row per ablation with its per-question rows."""
    rows = {ablation.name: evaluate(retriever, cases, ablation) for ablation in ABLATIONS}
    return by_group_and_split(rows, "instrument", summary, public_row)


def by_group_and_split(
    rows: dict[str, list[dict[str, Any]]],
    group_key: str,
    summarise: Callable[[list[dict[str, Any]]], dict[str, Any]],
    public: Callable[[dict[str, Any]], dict[str, Any]],
) -> dict[str, Any]:
    """Per-question rows of each ablation regrouped: per group (row[group_key]) and split, one summary per
    ablation with its public per-question rows."""
    out: dict[str, Any] = {}
    for group in dict.fromkeys(r[group_key] for found in rows.values() for r in found):
        out[group] = {}
        for split in SPLITS:
            part = {
                name: [r for r in found if r[group_key] == group and r["split"] == split]
                for name, found in rows.items()
            }
            out[group][split] = {
                "questions": len(next(iter(part.values()))),
                "ablations": [
                    {"ablation": name, **summarise(found), "per_question": [public(r) for r in found]}
                    for name, found in part.items()
                ],
            }
    return out
