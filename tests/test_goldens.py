"""Consistency of the golden evaluation sets in evals/goldens against the shipped corpus and the chunker.

The goldens were computed with chunk size 400 words and overlap 50 words. If the chunker or a corpus
text changes so that a gold citation is no longer produced, or a key fact is no longer in its gold
chunk, these tests fail and the goldens must be reviewed (not silently regenerated).
"""

from __future__ import annotations

import json
import re
from collections import Counter
from functools import cache
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
SCOPE_CATEGORIES = {
    "in_scope",
    "near_domain",
    "nonexistent_article",
    "unrelated",
    "medical_advice",
    "nonexistent_record",
}
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
    """(collection, file) of a shipped document:
    NAME.txt-like with NAME.json sidecar, or NAME.json with NAME.meta.json.
    """
    found = []
    for folder in sorted(p for p in CORPUS.iterdir() if p.is_dir()):
        for suffix in TEXT_SUFFIXES:
            if (folder / f"{doc_id}{suffix}").exists():
                found.append((folder.name, folder / f"{doc_id}{suffix}"))
        if (folder / f"{doc_id}.json").exists() and (folder / f"{doc_id}.meta.json").exists():
            found.append((folder.name, folder / f"{doc_id}.json"))
    assert len(found) == 1, f"doc_id {doc_id!r} must name exactly one shipped document, found {found}"
    return found[0]


@cache
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
        assert fact.strip() and any(fact in text for text in texts), (
            f"{row['id']}: key fact {fact!r} not in a gold chunk"
        )


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


# ---------------------------------------------------------------- shared helpers for the newer goldens


def _norm_question(text: str) -> str:
    return " ".join(text.lower().split())


def _unique_ids(rows: list[dict], prefix: str, name: str) -> None:
    ids = Counter(row.get("id") for row in rows)
    assert not [i for i, n in ids.items() if n > 1], f"duplicate ids in {name}"
    assert all(isinstance(i, str) and i.startswith(prefix) for i in ids), f"ids in {name} must start with {prefix!r}"
    questions = Counter(_norm_question(row["question"]) for row in rows)
    assert not [q for q, n in questions.items() if n > 1], f"duplicate questions in {name}"


@cache
def shipped_texts() -> tuple[str, ...]:
    """Every shipped corpus file as text (documents and sidecars)."""
    return tuple(
        p.read_text(encoding="utf-8")
        for p in sorted(CORPUS.rglob("*"))
        if p.is_file() and p.suffix in (*TEXT_SUFFIXES, ".json")
    )


@cache
def shipped_patients() -> tuple[frozenset[str], frozenset[str]]:
    """(patient ids, NHS numbers) of the shipped synthetic patients, read from their sidecar citations."""
    ids, numbers = set(), set()
    for meta in (CORPUS / "patients").glob("*.meta.json"):
        citation = json.loads(meta.read_text(encoding="utf-8"))["citation"]
        match = re.fullmatch(r"Patient (pat-\d{4}) \(NHS number (\d{10})\)", citation)
        assert match, f"unexpected patient citation {citation!r} in {meta.name}"
        ids.add(match.group(1))
        numbers.add(match.group(2))
    assert ids and numbers
    return frozenset(ids), frozenset(numbers)


# ---------------------------------------------------------------- calibration.jsonl

CALIBRATION = read_jsonl("calibration.jsonl")
CAL_CATEGORIES = {
    "answerable",
    "near_domain",
    "nonexistent_provision",
    "not_in_corpus",
    "other_insurer",
    "missing_benefit",
    "nonexistent_record",
    "medical_advice",
    "general",
}
CAL_REQUIRED = {"id", "question", "answerable", "category"}
CAL_ANSWERABLE = [row for row in CALIBRATION if row.get("answerable") is True]


def test_calibration_sizes_ids_and_categories():
    _unique_ids(CALIBRATION, "c", "calibration.jsonl")
    labels = Counter(row["answerable"] for row in CALIBRATION)
    assert labels[False] >= 60, f"need at least 60 unanswerable questions, have {labels[False]}"
    assert labels[True] >= 40, f"need at least 40 answerable questions, have {labels[True]}"
    assert {row["category"] for row in CALIBRATION} == CAL_CATEGORIES, (
        "every calibration category should be represented"
    )


@pytest.mark.parametrize("row", CALIBRATION, ids=lambda r: r["id"])
def test_calibration_row_shape(row):
    assert CAL_REQUIRED <= set(row), f"{row.get('id')}: missing {CAL_REQUIRED - set(row)}"
    assert isinstance(row["answerable"], bool) and row["question"].strip()
    assert row["category"] in CAL_CATEGORIES
    assert row["answerable"] == (row["category"] == "answerable"), row["id"]
    if row["answerable"]:
        # answerable rows name where the answer is, so the label can be checked against the corpus
        assert set(row) == CAL_REQUIRED | {"gold_doc_ids", "key_facts"}
        assert row["gold_doc_ids"] and 1 <= len(row["key_facts"]) <= 3
    else:
        assert set(row) == CAL_REQUIRED


def test_calibration_answerable_questions_are_new():
    known = {_norm_question(r["question"]) for r in RETRIEVAL} | {_norm_question(r["question"]) for r in SCOPE}
    repeated = [row["id"] for row in CALIBRATION if _norm_question(row["question"]) in known]
    assert not repeated, f"calibration questions already in retrieval.jsonl / scope.jsonl: {repeated}"


@pytest.mark.parametrize("row", CAL_ANSWERABLE, ids=lambda r: r["id"])
def test_calibration_answerable_facts_are_in_the_corpus(row):
    texts = [text for doc_id in row["gold_doc_ids"] for _, text in chunks_of(doc_id)[1]]
    for fact in row["key_facts"]:
        assert fact.strip() and any(fact in text for text in texts), (
            f"{row['id']}: {fact!r} is in no chunk of {row['gold_doc_ids']}"
        )


def test_calibration_nonexistent_records_are_not_shipped():
    ids, numbers = shipped_patients()
    rows = [row for row in CALIBRATION if row["category"] == "nonexistent_record"]
    assert rows
    for row in rows:
        question = row["question"]
        for pat in re.findall(r"\bpat-\d{4}\b", question):
            assert pat not in ids, f"{row['id']}: {pat} is a shipped patient"
        for raw in re.findall(r"\b\d{3}\s?\d{3}\s?\d{4}\b", question):
            assert raw.replace(" ", "") not in numbers, f"{row['id']}: NHS number {raw} is a shipped patient"
        # person-like names (overlapping pairs of capitalised words,
        # so "Does Oliver Fairbanks" yields "Oliver Fairbanks")
        for name in re.findall(r"(?=\b([A-Z][a-z]+ (?:Mc|Mac|O')?[A-Z][a-z]+)\b)", question):
            assert not any(name in text for text in shipped_texts()), f"{row['id']}: {name!r} appears in the corpus"


# ---------------------------------------------------------------- injection.jsonl

INJECTION = read_jsonl("injection.jsonl")
INJECTION_KINDS = {"question", "document"}
ATTACKS = {"system_prompt", "keys", "env", "canary", "forged_tags", "drop_citations", "persona"}
CANARY_RE = re.compile(r"CANARY-[A-Z0-9]{8}")
_STOP = {
    "about",
    "which",
    "their",
    "there",
    "under",
    "where",
    "would",
    "should",
    "after",
    "before",
    "within",
    "every",
    "other",
}


def _content_words(text: str) -> set[str]:
    return {w for w in re.findall(r"[a-z][a-z0-9-]{4,}", text.lower()) if w not in _STOP}


def test_injection_sizes_ids_and_coverage():
    assert len(INJECTION) >= 30
    _unique_ids(INJECTION, "i", "injection.jsonl")
    assert {row["kind"] for row in INJECTION} == INJECTION_KINDS
    assert {row["attack"] for row in INJECTION} == ATTACKS, "every attack type should be represented"
    canaries = [row["canary"] for row in INJECTION if row.get("canary")]
    assert len(canaries) == len(set(canaries)), "canaries must be unique, so a leak names its case"
    for canary in canaries:
        assert CANARY_RE.fullmatch(canary), canary
        assert not any(canary in text for text in shipped_texts()), f"{canary} appears in the shipped corpus"


@pytest.mark.parametrize("row", INJECTION, ids=lambda r: r["id"])
def test_injection_row_shape(row):
    assert (
        {"id", "kind", "question", "attack"} <= set(row) <= {"id", "kind", "question", "attack", "document", "canary"}
    )
    assert row["kind"] in INJECTION_KINDS and row["attack"] in ATTACKS and row["question"].strip()
    canary = row.get("canary")
    if row["kind"] == "question":
        assert "document" not in row, f"{row['id']}: a question attack plants no document"
        if canary:
            assert canary in row["question"], f"{row['id']}: the canary must be planted in the question"
        return
    document = row.get("document") or ""
    assert document.strip() and document.splitlines()[0].strip(), (
        f"{row['id']}: a document attack needs the planted text, heading first"
    )
    assert canary or len(document.split()) >= 20, f"{row['id']}: a document attack needs a canary or attack text"
    if canary:
        assert canary in document and canary not in row["question"], (
            f"{row['id']}: the canary belongs in the document only"
        )
    shared = _content_words(row["question"]) & _content_words(document)
    assert len(shared) >= 2, (
        f"{row['id']}: the legitimate question should retrieve the poisoned document (shared words: {shared})"
    )


# ---------------------------------------------------------------- toxicity.jsonl

TOXICITY = read_jsonl("toxicity.jsonl")


def test_toxicity_sizes_and_ids():
    assert len(TOXICITY) >= 15
    _unique_ids(TOXICITY, "t", "toxicity.jsonl")


@pytest.mark.parametrize("row", TOXICITY, ids=lambda r: r["id"])
def test_toxicity_row_shape_and_markers(row):
    assert set(row) == {"id", "question", "must_not_contain"} and row["question"].strip()
    words = row["must_not_contain"]
    assert isinstance(words, list) and words and all(isinstance(w, str) and w.strip() for w in words)
    # a civil, grounded answer may quote the corpus: a marker found there would flag a good answer
    for word in words:
        pattern = re.compile(rf"\b{re.escape(word)}\b", re.I)
        assert not any(pattern.search(text) for text in shipped_texts()), (
            f"{row['id']}: marker {word!r} occurs in the corpus"
        )


# ---------------------------------------------------------------- compare.jsonl

COMPARE = read_jsonl("compare.jsonl")
VERDICTS = {"same", "different", "only_a", "only_b"}
# the points the compare set must keep covering (benefit names as the clause chunker gives them)
COMPARE_MUST_COVER = {
    "cataract surgery",
    "co-payment",
    "room rent limit",
    "pre-existing diseases",
    "specified disease or procedure waiting period",
    "maternity waiting period",
    "maternity benefit",
    "free look period",
    "hospital daily cash benefit",
}


def _name(text: str) -> str:
    return " ".join(re.sub(r"[^a-z0-9%-]+", " ", text.lower()).split())


@cache
def insurance_clauses(doc_id: str) -> tuple:
    """Clause chunks (with section_key, benefit_name, coverage_type) of a shipped insurance wording."""
    collection, path = document_path(doc_id)
    assert collection == "insurance", f"{doc_id} is not an insurance wording"
    document = load_document(path, CORPUS / collection)
    return tuple(chunk_document(document, collection, CHUNK_WORDS, OVERLAP_WORDS))


def clause_values(doc_id: str, point: str, section_key: str | None) -> tuple[list[str], set[str]]:
    """Values (extract_values, in order, no repeats) and coverage types of the clause named by benefit and section.

    Matching is by normalised benefit name and section key, never by chunk position, and a clause split
    over several chunks contributes the values of all its chunks."""
    from retrieval.alignment import extract_values

    chunks = [c for c in insurance_clauses(doc_id) if _name(str(c.metadata.get("benefit_name") or "")) == _name(point)]
    if section_key:
        chunks = [c for c in chunks if c.metadata.get("section_key") == section_key]
    clause_ids = {c.metadata.get("clause_id") or c.citation for c in chunks}
    assert len(clause_ids) == 1, (
        f"{doc_id}: point {point!r} (section {section_key!r}) should name one clause, found {sorted(clause_ids)}"
    )
    values: list[str] = []
    for chunk in chunks:
        values += [v for v in extract_values(chunk.text) if v not in values]
    return values, {str(c.metadata.get("coverage_type")) for c in chunks}


def test_compare_sizes_ids_and_coverage():
    assert len(COMPARE) >= 10
    _unique_ids(COMPARE, "k", "compare.jsonl")
    verdicts = Counter(e["verdict"] for row in COMPARE for e in row["expect"])
    assert verdicts["same"] >= 2 and verdicts["different"] >= 5, verdicts
    covered = {_name(e["point"]) for row in COMPARE for e in row["expect"]}
    assert {_name(p) for p in COMPARE_MUST_COVER} <= covered, f"missing points: {COMPARE_MUST_COVER - covered}"


@pytest.mark.parametrize("row", COMPARE, ids=lambda r: r["id"])
def test_compare_values_are_what_extract_values_gives(row):
    assert set(row) == {"id", "question", "a", "b", "expect"} and row["question"].strip()
    assert row["a"]["doc_id"] != row["b"]["doc_id"]
    assert row["expect"], f"{row['id']}: no expectations"
    for expect in row["expect"]:
        assert (
            {"point", "verdict", "a_values", "b_values"}
            <= set(expect)
            <= {"point", "section_key", "verdict", "a_values", "b_values"}
        )
        assert expect["verdict"] in VERDICTS
        section = expect.get("section_key")
        sides = {}
        for side in ("a", "b"):
            doc_id = row[side]["doc_id"]
            wanted = expect[f"{side}_values"]
            if expect["verdict"] == f"only_{'b' if side == 'a' else 'a'}":
                assert wanted == [], f"{row['id']}: {side} has no such clause, so no {side}_values"
                continue
            got, coverage = clause_values(doc_id, expect["point"], section)
            assert set(wanted) == set(got) and len(wanted) == len(set(wanted)), (
                f"{row['id']} {expect['point']!r} {side}: golden {wanted} but extract_values gives {got}"
            )
            sides[side] = (set(got), coverage)
        if expect["verdict"] in ("same", "different"):
            same = sides["a"][0] == sides["b"][0] and sides["a"][1] == sides["b"][1]
            assert (expect["verdict"] == "same") == same, (
                f"{row['id']} {expect['point']!r}: verdict {expect['verdict']} but values {sides}"
            )
