"""Evaluation sets: our goldens, and the external sets in ../shared when they are present."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from core.settings import REPO_ROOT

GOLDENS = REPO_ROOT / "evals" / "goldens"
SHARED = REPO_ROOT.parent / "shared"
PEER = SHARED / "peers" / "healrag"
GDPR = SHARED / "corpora" / "gdpr"
INSURANCE = SHARED / "corpora" / "insurance"


def read_jsonl(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip()]


@dataclass
class RetrievalCase:
    """A question and what counts as relevant: chunk citations (prefix match) or document ids."""

    id: str
    question: str
    filters: dict[str, Any] = field(default_factory=dict)
    gold_citations: list[str] = field(default_factory=list)
    gold_doc_ids: list[str] = field(default_factory=list)
    gold_articles: list[str] = field(default_factory=list)
    gold_facts: list[list[str]] = field(default_factory=list)


@dataclass
class AnswerCase:
    """A question with the facts a good answer states, or the label that it must be refused."""

    id: str
    question: str
    answerable: bool
    key_facts: list[str] = field(default_factory=list)
    filters: dict[str, Any] = field(default_factory=dict)
    category: str = ""


@dataclass
class PlainCase:
    """A question in a user's own words, judged on the answer (fields: evals/goldens/README.md)."""

    id: str
    split: str  # dev or heldout: nothing is tuned on held-out rows
    question: str
    collection: str | None  # None: every collection
    answer_type: str
    answerable: bool
    must_state: list[list[str]]  # facts, each a list of accepted variants; the first is the key fact
    must_cite: list[str]  # binding provisions first
    may_cite: list[str]
    binding: bool
    must_not_state: list[str]
    patient_ids: list[str]

    def answer_case(self) -> AnswerCase:
        """The same question as the answer runners take it."""
        return AnswerCase(
            self.id, self.question, self.answerable, filters={"collection": self.collection} if self.collection else {}
        )


def plain_questions() -> list[PlainCase]:
    return [
        PlainCase(
            r["id"],
            r["split"],
            r["question"],
            r["collection"],
            r["answer_type"],
            bool(r["answerable"]),
            r["must_state"],
            r["must_cite"],
            r["may_cite"],
            bool(r["binding"]),
            r["must_not_state"],
            r["patient_ids"],
        )
        for r in read_jsonl(GOLDENS / "plain_questions.jsonl")
    ]


def our_retrieval() -> list[RetrievalCase]:
    return [
        RetrievalCase(
            r["id"],
            r["question"],
            {"collection": r["collection"]} if r.get("collection") else {},
            r["gold_citations"],
            r["gold_doc_ids"],
        )
        for r in read_jsonl(GOLDENS / "retrieval.jsonl")
    ]


def our_answers() -> list[AnswerCase]:
    """Answerable questions with key facts, plus in/out-of-scope and calibration labels."""
    questions = {r["id"]: r for r in read_jsonl(GOLDENS / "retrieval.jsonl")}
    cases = [
        AnswerCase(
            a["id"],
            questions[a["id"]]["question"],
            True,
            a["key_facts"],
            {"collection": questions[a["id"]]["collection"]} if questions[a["id"]].get("collection") else {},
            "answer",
        )
        for a in read_jsonl(GOLDENS / "answers.jsonl")
    ]
    cases += [
        AnswerCase(s["id"], s["question"], bool(s["in_scope"]), category=s["category"])
        for s in read_jsonl(GOLDENS / "scope.jsonl")
    ]
    return cases


def calibration_cases() -> list[AnswerCase]:
    """Answerable / unanswerable labels for fitting the router: every retrieval golden (answerable, with
    its collection), the scope set and the calibration set."""
    cases = [
        AnswerCase(
            r["id"],
            r["question"],
            True,
            filters={"collection": r["collection"]} if r.get("collection") else {},
            category="retrieval",
        )
        for r in read_jsonl(GOLDENS / "retrieval.jsonl")
    ]
    cases += [
        AnswerCase(s["id"], s["question"], bool(s["in_scope"]), category=s["category"])
        for s in read_jsonl(GOLDENS / "scope.jsonl")
    ]
    path = GOLDENS / "calibration.jsonl"
    if path.exists():
        cases += [
            AnswerCase(c["id"], c["question"], bool(c["answerable"]), category=c.get("category", ""))
            for c in read_jsonl(path)
        ]
    return cases


def peer_available() -> bool:
    return (PEER / "corpus").is_dir()


def peer_retrieval() -> list[RetrievalCase]:
    rows = json.loads((PEER / "eval" / "ir_eval_dataset.remapped_to_latest_corpus.json").read_text(encoding="utf-8"))
    return [
        RetrievalCase(f"peer-ir-{i:02d}", r["query"], gold_doc_ids=[Path(d).stem for d in r["relevant_docs"]])
        for i, r in enumerate(rows, 1)
    ]


def peer_answers() -> list[AnswerCase]:
    rows = json.loads((PEER / "eval" / "eval_dataset.json").read_text(encoding="utf-8"))
    return [
        AnswerCase(
            r["id"],
            r["question"],
            not r["out_of_scope"],
            r.get("expected_answer_keywords") or [],
            category=r.get("category", ""),
        )
        for r in rows
    ]


def peer_published() -> dict[str, Any]:
    return json.loads((PEER / "eval" / "ir_metrics_results.json").read_text(encoding="utf-8"))


def gdpr_available() -> bool:
    return (GDPR / "qa" / "gdpr_recital_to_article_retrieval.jsonl").exists()


def gdpr_recitals() -> list[RetrievalCase]:
    return [
        RetrievalCase(r["id"], r["query"], {"!kind": "recital"}, gold_articles=[str(a) for a in r["relevant_articles"]])
        for r in read_jsonl(GDPR / "qa" / "gdpr_recital_to_article_retrieval.jsonl")
    ]


def insurance_available() -> bool:
    return (INSURANCE / "qa" / "hackrx6_sample_qa_national_parivar_mediclaim_plus.jsonl").exists()


def insurance_retrieval() -> list[RetrievalCase]:
    from evals.insurance_qa import REFERENCE_FACTS

    rows = read_jsonl(INSURANCE / "qa" / "hackrx6_sample_qa_national_parivar_mediclaim_plus.jsonl")
    return [RetrievalCase(r["id"], r["question"], gold_facts=REFERENCE_FACTS[r["id"]]) for r in rows]
