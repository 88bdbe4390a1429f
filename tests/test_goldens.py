"""Consistency of the golden evaluation sets in evals/goldens against the shipped corpus and the chunker.

The goldens were computed with chunk size 400 words and overlap 50 words. If the chunker or a corpus
text changes so that a gold citation is no longer produced, or a key fact is no longer in its gold
chunk, these tests fail and the goldens must be reviewed (not silently regenerated).
"""

from __future__ import annotations

import json
from collections import Counter
from functools import lru_cache
from pathlib import Path

import pytest

from ingest.chunking import chunk_document
from ingest.loaders import load_document

REPO = Path(__file__).resolve().parent.parent
GOLDENS = REPO / "evals" / "goldens"
CORPUS = REPO / "corpus"
CHUNK_WORDS = 400
OVERLAP_WORDS = 50

COLLECTIONS = {"health_governance", "patients", "secondary"}
KINDS = {"article_named", "plain", "situational", "keyword", "record"}
SCOPE_CATEGORIES = {"in_scope", "near_domain", "nonexistent_article", "unrelated", "medical_advice", "nonexistent_record"}
TEXT_SUFFIXES = (".txt", ".md", ".pdf", ".html", ".xml")


def read_jsonl(name: str) -> list[dict]:
    path = GOLDENS / name
    rows = []
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if line.strip():
            try:
                rows.append(json.loads(line))
            except json.JSONDecodeError as exc:  # pragma: no cover - message only
                pytest.fail(f"{name}:{number}: invalid JSON ({exc})")
    return rows


RETRIEVAL = read_jsonl("retrieval.jsonl")
ANSWERS = read_jsonl("answers.jsonl")
SCOPE = read_jsonl("scope.jsonl")
RETRIEVAL_BY_ID = {row["id"]: row for row in RETRIEVAL}


def document_path(doc_id: str) -> tuple[str, Path]:
    """(collection, file) of a shipped document: NAME.txt-like with NAME.json sidecar, or NAME.json with NAME.meta.json."""
    found = []
    for folder in sorted(p for p in CORPUS.iterdir() if p.is_dir()):
        for suffix in TEXT_SUFFIXES:
            if (folder / f"{doc_id}{suffix}").exists():
                found.append((folder.name, folder / f"{doc_id}{suffix}"))
        if (folder / f"{doc_id}.json").exists() and (folder / f"{doc_id}.meta.json").exists():
            found.append((folder.name, folder / f"{doc_id}.json"))
    assert len(found) == 1, f"doc_id {doc_id!r} must name exactly one shipped document, found {found}"
    return found[0]


@lru_cache(maxsize=None)
def chunks_of(doc_id: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """(collection, ((citation, text), ...)) as the chunker produces them for a shipped document."""
    collection, path = document_path(doc_id)
    document = load_document(path, CORPUS / collection)
    assert document.doc_id == doc_id, f"{path} loads as doc_id {document.doc_id!r}, not {doc_id!r}"
    chunks = chunk_document(document, collection, CHUNK_WORDS, OVERLAP_WORDS)
    return collection, tuple((c.citation, c.text) for c in chunks)


def gold_texts(doc_ids: list[str], citations: list[str]) -> list[str]:
    """Texts of every chunk of the gold documents whose citation is a gold citation."""
    wanted = set(citations)
    return [text for doc_id in doc_ids for citation, text in chunks_of(doc_id)[1] if citation in wanted]


# ---------------------------------------------------------------- retrieval.jsonl


def test_retrieval_size_and_unique_ids():
    assert len(RETRIEVAL) >= 80
    ids = Counter(row["id"] for row in RETRIEVAL)
    assert not [i for i, n in ids.items() if n > 1], "duplicate ids in retrieval.jsonl"
    questions = Counter(row["question"].strip().lower() for row in RETRIEVAL)
    assert not [q for q, n in questions.items() if n > 1], "duplicate questions in retrieval.jsonl"


@pytest.mark.parametrize("row", RETRIEVAL, ids=lambda r: r["id"])
def test_retrieval_row_shape(row):
    assert set(row) == {"id", "question", "collection", "gold_citations", "gold_doc_ids", "kind"}
    assert row["id"].startswith("r") and row["question"].strip()
    assert row["collection"] is None or row["collection"] in COLLECTIONS
    assert row["kind"] in KINDS
    assert 1 <= len(row["gold_citations"]) <= 3
    assert row["gold_doc_ids"] and len(set(row["gold_doc_ids"])) == len(row["gold_doc_ids"])


@pytest.mark.parametrize("row", RETRIEVAL, ids=lambda r: r["id"])
def test_gold_citations_are_produced_by_the_chunker(row):
    produced = {doc_id: {citation for citation, _ in chunks_of(doc_id)[1]} for doc_id in row["gold_doc_ids"]}
    for citation in row["gold_citations"]:
        assert any(citation in cits for cits in produced.values()), (
            f"{row['id']}: {citation!r} is not produced by the chunker for {row['gold_doc_ids']}"
        )
    for doc_id, cits in produced.items():
        assert cits & set(row["gold_citations"]), f"{row['id']}: gold doc {doc_id} has none of the gold citations"
    if row["collection"] is not None:
        for doc_id in row["gold_doc_ids"]:
            assert chunks_of(doc_id)[0] == row["collection"], f"{row['id']}: {doc_id} is not in {row['collection']}"


# ---------------------------------------------------------------- answers.jsonl


def test_answers_size_and_ids():
    assert len(ANSWERS) >= 40
    ids = Counter(row["id"] for row in ANSWERS)
    assert not [i for i, n in ids.items() if n > 1], "duplicate ids in answers.jsonl"
    missing = [i for i in ids if i not in RETRIEVAL_BY_ID]
    assert not missing, f"answers ids not in retrieval.jsonl: {missing}"


@pytest.mark.parametrize("row", ANSWERS, ids=lambda r: r["id"])
def test_key_facts_are_in_gold_chunks(row):
    assert set(row) == {"id", "key_facts", "gold_citations"}
    retrieval = RETRIEVAL_BY_ID.get(row["id"])
    assert retrieval is not None
    assert set(row["gold_citations"]) <= set(retrieval["gold_citations"]) and row["gold_citations"]
    assert 1 <= len(row["key_facts"]) <= 3
    texts = gold_texts(retrieval["gold_doc_ids"], row["gold_citations"])
    assert texts, f"{row['id']}: no chunk carries the gold citations"
    for fact in row["key_facts"]:
        assert fact.strip() and any(fact in text for text in texts), f"{row['id']}: key fact {fact!r} not in a gold chunk"


# ---------------------------------------------------------------- scope.jsonl


def test_scope_labels():
    assert len(SCOPE) >= 40
    ids = Counter(row["id"] for row in SCOPE)
    assert not [i for i, n in ids.items() if n > 1], "duplicate ids in scope.jsonl"
    labels = Counter(row["in_scope"] for row in SCOPE)
    assert labels[True] >= 15 and labels[False] >= 15, labels
    for row in SCOPE:
        assert set(row) == {"id", "question", "in_scope", "category"}
        assert isinstance(row["in_scope"], bool) and row["question"].strip()
        assert row["category"] in SCOPE_CATEGORIES
        assert row["in_scope"] == (row["category"] == "in_scope"), row["id"]
    assert {row["category"] for row in SCOPE} == SCOPE_CATEGORIES, "every scope category should be represented"
