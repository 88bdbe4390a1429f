"""Insurance policy wordings end to end, on real components (no mocks of our code).

Two real IRDAI-filed wordings from ../shared (National Parivar Mediclaim Plus and Arogya Sanjeevani,
both by National Insurance) are ingested into a temporary index for clause chunking, coverage
polarity and cross-insurer comparison; the shipped CareShield riders (fictional, individual and
group) are used for intent narrowing, refusals, stated polarity, the compare graph, the CLI and the
HTTP routes. The real texts are read here only, never copied into the repository: expected clause
texts, pages and phrases are looked up in the ingested chunks and in the page-marked text files.
"""

from __future__ import annotations

import json
import os
import re
import threading
from functools import cache
from pathlib import Path
from typing import Any

import pytest
from pydantic import SecretStr

from core.schemas import RunContext
from core.types import Evidence
from graph.compare import build_compare_graph
from graph.run import compare
from ingest.policy import coverage_type
from retrieval.alignment import align, extract_values
from retrieval.intent import SECTIONS_FOR_INTENT, classify
from retrieval.resources import Resources
from retrieval.services import Services
from tests.conftest import REPO_ROOT, ingest_into, make_settings, policyrag, run_graph, shared_path

NATIONAL_PDF = "National_Parivar_Mediclaim_Plus_policy.pdf"
AROGYA_PDF = "Arogya_Sanjeevani_Policy_-_CIN_-_U10200WB1906GOI001713_1.pdf"
NATIONAL = {
    "document_type": "policy_wording",
    "citation": "National Parivar Mediclaim Plus",
    "category": "health",
    "provider": "national",
    "product": "parivar",
}
AROGYA = {
    "document_type": "policy_wording",
    "citation": "Arogya Sanjeevani",
    "category": "health",
    "provider": "national",
    "product": "arogya",
}
DEFAULTS = {"parivar": NATIONAL, "arogya": AROGYA}
PDFS = {"parivar": NATIONAL_PDF, "arogya": AROGYA_PDF}

INDIVIDUAL, GROUP = "CareShield Rider (Individual)", "CareShield Rider (Group)"
OFFLINE = {"allow_web": False, "generator": "offline", "collection": "insurance"}


# --------------------------------------------------------------------------- the real wordings


@pytest.fixture(scope="module")
def real(tmp_path_factory, models_dir, embedder):
    """A temporary index of the two real PDFs, each ingested with its own product defaults."""
    pdfs = {product: shared_path("corpora", "insurance", "pdf", name) for product, name in PDFS.items()}
    settings = make_settings(tmp_path_factory.mktemp("real-wordings") / "data", models_dir)
    resources = Resources(settings, embedder=embedder)
    for product, pdf in pdfs.items():
        report = ingest_into(resources, [pdf], collection="real_policies", defaults=DEFAULTS[product])
        assert not report.failed and len(report.added) == 1, report.summary()
    yield resources
    resources.close()


@pytest.fixture(scope="module")
def real_chunks(real) -> dict[str, list[dict[str, Any]]]:
    """product -> chunk payloads in document order."""
    out: dict[str, list[dict[str, Any]]] = {}
    for payload in sorted(real.reader.store().payloads(), key=lambda p: (p["doc_id"], p["position"])):
        out.setdefault(payload["product"], []).append(payload)
    return out


def provision(citation: str) -> str:
    """A PDF chunk's citation without the page it starts on: `Arogya Sanjeevani cl. 4.3, p. 5` -> `... cl. 4.3`."""
    return re.sub(r", p\. \d+$", "", citation)


def chunks_of(real_chunks, product: str, clause: str) -> list[dict[str, Any]]:
    """Every chunk of one clause (`cl. 4.1` of the product's citation), in order."""
    citation = f"{DEFAULTS[product]['citation']} {clause}"
    found = [p for p in real_chunks[product] if provision(p["citation"]) == citation]
    assert found, f"no chunk cited {citation!r}; clauses: {sorted({p['citation'] for p in real_chunks[product]})}"
    return found


@cache
def text_pages(pdf: str) -> tuple[tuple[int, str], ...]:
    """(page, line) for every line of the page-marked text extraction of a shared PDF."""
    path = shared_path("corpora", "insurance", "text", Path(pdf).with_suffix(".txt").name)
    page, rows = 0, []
    for line in path.read_text(encoding="utf-8").splitlines():
        if marker := re.match(r"^===== \[page (\d+)\] =====$", line.strip()):
            page = int(marker.group(1))
            continue
        rows.append((page, " ".join(line.split())))
    return tuple(rows)


def page_of(pdf: str, heading: str) -> int:
    pages = [page for page, line in text_pages(pdf) if line.startswith(heading)]
    assert len(pages) == 1, f"{heading!r} should start exactly one line of {pdf}, found pages {pages}"
    return pages[0]


def running_header_lines(pdf: str) -> set[str]:
    """Lines that open at least half of the pages in the text extraction: the printed page header."""
    tops: dict[int, list[str]] = {}
    for page, line in text_pages(pdf):
        if line and len(tops.setdefault(page, [])) < 6:
            tops[page].append(line)
    counts: dict[str, int] = {}
    for lines in tops.values():
        for line in set(re.sub(r"\d+", "#", line) for line in lines):
            counts[line] = counts.get(line, 0) + 1
    signatures = {line for line, n in counts.items() if n >= len(tops) // 2}
    return {line for lines in tops.values() for line in lines if re.sub(r"\d+", "#", line) in signatures}


# (product, clause, heading at the start of its line in the text file, section key)
REAL_CLAUSES = [
    ("parivar", "cl. 3.1.1.2", "3.1.1.2 Limit for Cataract Surgery", "benefits"),
    ("parivar", "cl. 3.1.1.1", "3.1.1.1 Limit for Room Charges", "room_rent"),
    ("parivar", "cl. 2.1", "2.1 Accident means", "definitions"),
    ("parivar", "cl. 2.21", "2.21 Grace Period means", "definitions"),
    ("parivar", "cl. 4.1", "4.1. Pre-Existing Diseases (Excl 01)", "waiting_period"),
    ("parivar", "cl. 4.2", "4.2. Specified disease/procedure waiting period", "waiting_period"),
    ("parivar", "cl. 4.8", "4.8. Cosmetic or Plastic Surgery", "exclusions"),
    ("parivar", "cl. 5.5.8", "5.5.8 Optional Co-payment", "co_payment"),
    ("arogya", "cl. 3.1", "3.1. Accident means", "definitions"),
    ("arogya", "cl. 4.1", "4.1. Hospitalization", "benefits"),
    ("arogya", "cl. 4.3", "4.3. Cataract Treatment", "benefits"),
    ("arogya", "cl. 6.1", "6.1. Pre-Existing Diseases (Excl 01)", "waiting_period"),
    ("arogya", "cl. 6.3", "6.3. Specified disease/procedure waiting period", "waiting_period"),
    ("arogya", "cl. 7.5", "7.5. Cosmetic or plastic Surgery", "exclusions"),
    ("arogya", "cl. 8", "8. Moratorium Period", "conditions"),
    ("arogya", "cl. 9.3", "9.3. Co-payment", "co_payment"),
]


@pytest.mark.parametrize(("product", "clause", "heading", "key"), REAL_CLAUSES, ids=lambda v: str(v)[:40])
def test_real_pdf_clause_has_its_page_section_and_heading(real_chunks, product, clause, heading, key):
    chunks = chunks_of(real_chunks, product, clause)
    first = chunks[0]
    assert first["text"].startswith(heading), first["text"][:120]
    assert first["page"] == page_of(PDFS[product], heading)
    assert first["citation"] == f"{DEFAULTS[product]['citation']} {clause}, p. {first['page']}"
    assert {c["section_key"] for c in chunks} == {key}
    assert first["clause_id"] == clause.removeprefix("cl. ")
    assert first["benefit_name"] and first["benefit_name"].split()[0] in heading


@pytest.mark.parametrize("product", ["parivar", "arogya"])
def test_real_pdf_top_level_sections_follow_in_order_and_annexure_lists_are_not_clauses(real_chunks, product):
    """Top-level clauses are the wording's sections; the numbered lists of the annexures (1 BABY FOOD ...
    67 VASOFIX SAFETY) and lists inside clauses never become clauses of their own."""
    tops = []
    for chunk in real_chunks[product]:
        match = re.search(r" cl\. (\d+)$", provision(chunk["citation"]))
        if match and int(match.group(1)) not in tops:
            tops.append(int(match.group(1)))
    expected = {"parivar": list(range(1, 8)), "arogya": list(range(1, 13))}[product]
    assert tops == expected


@pytest.mark.parametrize("product", ["parivar", "arogya"])
def test_real_pdf_chunks_carry_no_page_headers_and_wrapped_lines_are_joined(real_chunks, product):
    headers = running_header_lines(PDFS[product])
    assert any(re.match(r"Page \d+ of \d+", h) for h in headers), headers  # the text file does have them
    for chunk in real_chunks[product]:
        lines = {" ".join(line.split()) for line in chunk["text"].splitlines()}
        assert not lines & headers, (chunk["citation"], lines & headers)
        assert not re.search(r"\bPage\W*\d+(\s*of\s*\d+)?\b", chunk["text"]), chunk["citation"]
    # a definition wrapped over three lines of the page is one line (one sentence) in its chunk
    clause, heading = {
        "parivar": ("cl. 2.9", "2.9 Cashless Facility means"),
        "arogya": ("cl. 3.9", "3.9. Cashless Facility means"),
    }[product]
    rows = [line for _, line in text_pages(PDFS[product])]
    start = next(i for i, line in enumerate(rows) if line.startswith(heading))
    end = next(i for i in range(start, len(rows)) if not rows[i])
    assert end - start >= 2, "the definition should be wrapped in the text extraction"
    sentence = " ".join(rows[start:end])
    assert sentence in chunks_of(real_chunks, product, clause)[0]["text"].splitlines()


def test_numbered_lists_inside_a_clause_stay_in_it(real_chunks):
    """National Parivar's maternity exclusions (1-7) and Arogya's specified diseases (1-20) stay in their clause."""
    maternity = "\n".join(c["text"] for c in chunks_of(real_chunks, "parivar", "cl. 3.1.14"))
    items = [int(m) for m in re.findall(r"^(\d)\. ", maternity, re.M)]
    assert items[:7] == list(range(1, 8))
    assert "Covered female Insured Person below eighteen (18) years" in maternity
    diseases = "\n".join(c["text"] for c in chunks_of(real_chunks, "arogya", "cl. 6.3"))
    listed = [int(m) for m in re.findall(r"^(\d{1,2})\. ", diseases, re.M)]
    assert listed[:20] == list(range(1, 21))
    assert "Cataract and age related eye ailments" in diseases
    for product in ("parivar", "arogya"):
        assert not [
            c["citation"]
            for c in real_chunks[product]
            if re.search(r" cl\. (3\.1\.14|6\.3)\.\d+$", provision(c["citation"]))
        ]


# (product, clause, coverage type, section key, a phrase the clause must hold so that the right clause is tested)
POLARITY = [
    ("parivar", "cl. 4", "not_covered", "exclusions", "shall not be liable"),
    ("parivar", "cl. 4.8", "not_covered", "exclusions", "Excl 08"),
    ("parivar", "cl. 4.24", "not_covered", "exclusions", "Dental treatment, unless necessitated due to an Injury"),
    ("parivar", "cl. 7.3.2", "not_covered", "exclusions", "shall not be liable"),
    ("arogya", "cl. 7.5", "not_covered", "exclusions", "Excl 08"),
    ("arogya", "cl. 7.12", "not_covered", "exclusions", "Excl 15"),
    ("parivar", "cl. 4.1", "conditional", "waiting_period", "thirty six (36) months"),
    ("parivar", "cl. 4.2", "conditional", "waiting_period", "Specified disease/procedure waiting period"),
    ("arogya", "cl. 6.1", "conditional", "waiting_period", "36 (thirty six) months"),
    ("arogya", "cl. 6.3", "conditional", "waiting_period", "24 (twenty four) months"),
    ("arogya", "cl. 4.3", "conditional", "benefits", "25% of Sum Insured or INR 40,000 per eye"),
    ("arogya", "cl. 4.1", "conditional", "benefits", "up to 2% of the sum insured"),
    ("parivar", "cl. 3.1.1.2", "conditional", "benefits", "up to the limit as shown in the Table of Benefits"),
    ("parivar", "cl. 3.1.1.1", "conditional", "room_rent", "up to the limit as shown in the Table of Benefits"),
    ("arogya", "cl. 9.3", "conditional", "co_payment", "Co-payment of 5%"),
    ("parivar", "cl. 3.1.6", "covered", "benefits", "up to the limit of Sum Insured"),
    ("arogya", "cl. 4.2", "covered", "benefits", "up to the limit of sum insured"),
    ("parivar", "cl. 2.1", "unknown", "definitions", "Accident means"),
    ("parivar", "cl. 2.21", "unknown", "definitions", "Grace Period means"),
    ("parivar", "cl. 2.54", "unknown", "definitions", "Waiting Period means"),
    ("arogya", "cl. 3.22", "unknown", "definitions", "Grace Period means"),
]


@pytest.mark.parametrize(("product", "clause", "polarity", "key", "phrase"), POLARITY, ids=lambda v: str(v)[:30])
def test_polarity_of_real_clauses(real_chunks, product, clause, polarity, key, phrase):
    chunks = chunks_of(real_chunks, product, clause)
    text = "\n".join(c["text"] for c in chunks)
    assert phrase in text
    assert {c["section_key"] for c in chunks} == {key}
    assert {c["coverage_type"] for c in chunks} == {polarity}
    assert coverage_type(text, key) == polarity  # the rule itself, on the real text


# --------------------------------------------------------------------------- clause JSON


def write_json(path: Path, payload: Any) -> Path:
    path.write_text(json.dumps(payload, indent=1), encoding="utf-8")
    return path


def test_clause_json_ingests_with_missing_fields_inferred_and_bad_clauses_named(tmp_path, models_dir, embedder):
    folder = tmp_path / "wordings"
    folder.mkdir()
    document = {
        "title": "Acme Health Rider - Policy Wording",
        "publisher": "Acme General (fictional)",
        "jurisdiction": "IN",
        "citation": "Acme Rider",
        "provider": "acme",
        "product": "shield",
        "version": "ACMHLIP00001V010000",
        "effective_from": "2025-04-01",
        "source_url": "https://example.com/acme/rider",
    }
    write_json(
        folder / "acme_rider.json",
        {
            "document": document,
            "clauses": [
                {
                    "clause_id": "2.1",
                    "section": "Definitions",
                    "text": "Accident means a sudden, unforeseen and involuntary event "
                    "caused by external, visible and violent means.",
                },
                {
                    "clause_id": "3.1.2",
                    "section": "Benefits",
                    "benefit_name": "Cataract Surgery",
                    "text": "Expenses for cataract surgery are payable.",
                    "limits": "25% of Sum Insured up to Rs. 40,000 per eye",
                },
                {
                    "clause_id": "3.8",
                    "section": "Benefits",
                    "text": "AYUSH Treatment\n"
                    "The Company will indemnify in-patient AYUSH treatment up to the Sum Insured.",
                },
                {
                    "clause_id": "4.1",
                    "section": "Waiting Periods",
                    "waiting_period": "36 months of continuous coverage",
                    "text": "Pre-existing Diseases\nExpenses related to a Pre-existing Disease are excluded.",
                },
                {
                    "clause_id": "5.5",
                    "section": "Exclusions",
                    "text": "Cosmetic or Plastic Surgery (Code - Excl08)\n"
                    "Cosmetic or plastic surgery to change appearance.",
                },
                {"clause_id": "6.1", "text": "Co-payment\nA co-payment of 20% applies to every admissible claim."},
            ],
        },
    )
    write_json(
        folder / "unknown_field.json",
        {
            "document": {**document, "citation": "Acme Rider B"},
            "clauses": [
                {"clause_id": "1", "section": "Benefits", "text": "The Company will pay the benefits below."},
                {
                    "clause_id": "2",
                    "section": "Benefits",
                    "text": "Road ambulance up to Rs. 2,000.",
                    "sub_limit": "Rs. 2,000",
                },
            ],
        },
    )
    write_json(
        folder / "empty_text.json",
        {
            "document": {**document, "citation": "Acme Rider C"},
            "clauses": [
                {"clause_id": "1", "section": "Benefits", "text": "The Company will pay the benefits below."},
                {"clause_id": "2", "section": "Exclusions", "text": "   "},
            ],
        },
    )
    settings = make_settings(tmp_path / "data", models_dir)
    resources = Resources(settings, embedder=embedder)
    try:
        report = ingest_into(resources, [folder])
        assert report.added == ["wordings/acme_rider"]
        failed = {Path(path).name: reason for path, reason in report.failed}
        assert set(failed) == {"unknown_field.json", "empty_text.json"}
        assert "unknown_field.json" in failed["unknown_field.json"] and "clause 2" in failed["unknown_field.json"]
        assert "sub_limit" in failed["unknown_field.json"]
        assert "empty_text.json" in failed["empty_text.json"] and "clause 2 has no text" in failed["empty_text.json"]

        clauses = {p["citation"]: p for p in resources.reader.store().payloads({"doc_id": "acme_rider"})}
        inferred = {c: (p["benefit_name"], p["section_key"], p["coverage_type"]) for c, p in clauses.items()}
        assert inferred == {
            "Acme Rider cl. 2.1": ("Accident", "definitions", "unknown"),
            "Acme Rider cl. 3.1.2": ("Cataract Surgery", "benefits", "conditional"),
            "Acme Rider cl. 3.8": ("AYUSH Treatment", "benefits", "covered"),
            "Acme Rider cl. 4.1": ("Pre-existing Diseases", "waiting_period", "conditional"),
            "Acme Rider cl. 5.5": ("Cosmetic or Plastic Surgery", "exclusions", "not_covered"),
            "Acme Rider cl. 6.1": ("Co-payment", "co_payment", "conditional"),
        }
        one = clauses["Acme Rider cl. 3.1.2"]
        assert one["document_type"] == "policy_wording" and one["category"] == "health" and one["provider"] == "acme"
        assert "Limits: 25% of Sum Insured up to Rs. 40,000 per eye" in one["text"]
        assert "Waiting period: 36 months" in clauses["Acme Rider cl. 4.1"]["text"]
    finally:
        resources.close()


# --------------------------------------------------------------------------- intent and narrowing


INTENTS = [
    ("Is maternity covered under the rider?", "benefit"),
    ("Does the policy cover AYUSH treatment?", "benefit"),
    ("Is cosmetic surgery excluded?", "exclusion"),
    ("Which treatments are not covered?", "exclusion"),
    ("What is the limit for cataract surgery?", "amount_limit"),
    ("How much is paid for a road ambulance?", "amount_limit"),
    ("What is the co-payment for a 65 year old?", "amount_limit"),
    ("What is the waiting period for pre-existing diseases?", "waiting_period"),
    ("How long before maternity is covered?", "waiting_period"),
    ("How do I make a claim?", "procedure"),
    ("Which documents are needed for a reimbursement claim?", "procedure"),
    ("I have critical illness cover. By when do we have to tell the insurer?", "procedure"),
    ("I was diagnosed with cancer and have critical illness cover. What do I need to send the insurer?", "procedure"),
    ("What does Hospital mean?", "definition"),
    ("What is meant by Pre-existing Disease?", "definition"),
    ("What is the entry age?", "eligibility"),
    ("Can dependent parents be covered?", "eligibility"),
    ("What is the grace period for premium payment?", "policy_terms"),
    ("What is the free look period?", "policy_terms"),
    ("Can I renew the rider?", "policy_terms"),
]


@pytest.mark.parametrize(("question", "intent"), INTENTS)
def test_intent_classifier(question, intent):
    found = classify(question)
    assert found is not None and found.name == intent
    assert found.sections == SECTIONS_FOR_INTENT[intent]


def test_no_intent_for_a_question_without_policy_words():
    assert classify("hello there") is None


def retrieve_note(output: dict[str, Any]) -> str:
    [note] = [step.detail for step in output.steps if step.node == "retrieve"]
    return note


NARROWED = [
    ("Is maternity covered under the rider?", "benefit"),
    ("Is cosmetic surgery excluded?", "exclusion"),
    ("What is the room rent limit?", "amount_limit"),
    ("What is the waiting period for pre-existing diseases?", "waiting_period"),
    ("Which documents are needed for a reimbursement claim?", "procedure"),
    ("I have critical illness cover. By when do we have to tell the insurer?", "procedure"),
    ("What does Hospital mean?", "definition"),
    ("What is the entry age?", "eligibility"),
    ("What is the grace period for premium payment?", "policy_terms"),
]


@pytest.mark.parametrize(("question", "intent"), NARROWED)
def test_the_graph_narrows_policy_questions_to_the_intents_sections(make_services, question, intent):
    out = run_graph(question, make_services(), **OFFLINE)
    note = retrieve_note(out)
    sections = SECTIONS_FOR_INTENT[intent]
    assert f"intent {intent}: narrowed to {', '.join(sections)}" in note, note
    assert "requery" not in out.nodes()  # the evidence is what retrieve found
    assert out.evidence
    assert {e.metadata["section_key"] for e in out.evidence} <= set(sections)
    assert all(e.collection == "insurance" for e in out.evidence)


@pytest.mark.parametrize(
    "question",
    ["Does the rider pay for treatment in the United States?", "Is there cover for a second medical opinion?"],
)
def test_poorly_scoring_narrowed_candidates_fall_back_to_the_unfiltered_search(make_services, question):
    intent = classify(question)
    services = make_services()
    out = run_graph(question, services, **OFFLINE)
    note = retrieve_note(out)
    assert f"intent {intent.name}: narrowed candidates scored" in note and "fell back to unfiltered" in note, note
    retrieved = out.evidence[: services.settings.top_k]  # a requery may append more after these
    assert {e.metadata["section_key"] for e in retrieved} - set(intent.sections), (
        "the fallback should reach other sections"
    )


@pytest.mark.parametrize(
    ("question", "variant", "citation"),
    [
        ("What is the cataract limit in the group rider?", "group", f"{GROUP} cl. 3.1.2"),
        (
            "What is the waiting period for pre-existing diseases in the individual rider?",
            "individual",
            f"{INDIVIDUAL} cl. 4.1",
        ),
    ],
)
def test_a_variant_named_in_the_question_becomes_a_filter(make_services, question, variant, citation):
    out = run_graph(question, make_services(), **OFFLINE)
    assert f"filters from the question {{'variant': '{variant}'}}" in retrieve_note(out)
    assert out.evidence and {e.metadata["variant"] for e in out.evidence} == {variant}
    assert citation in [e.citation for e in out.evidence]
    assert out.status == "answered" and all(c.citation.startswith(citation.split(" cl.")[0]) for c in out.citations)


# --------------------------------------------------------------------------- refusal without a model call


GROQ_KEY = "gsk_test_insurance_standin_key"


@pytest.fixture
def groq_services(make_services, standin):
    """Services whose configured chat model is ChatGroq pointed at the stand-in."""
    return make_services(groq_api_key=SecretStr(GROQ_KEY), groq_base_url=standin.url, chat_model=None)


@pytest.mark.parametrize(
    "question", ["Does the rider cover dental implants abroad?", "Is organ donor expense covered?"]
)
def test_unanswerable_policy_question_refuses_under_the_floor_without_calling_the_model(
    groq_services, standin, question
):
    standin.set_script(chat=[{"text": "The rider covers it in full [Source 1]."}] * 4)
    out = run_graph(question, groq_services, collection="insurance", allow_web=False)
    record = out
    assert record.status == "refused" and record.coverage_type is None
    # weak clauses: none clears the relevance floor, the best ones average under the policy floor, or no clause
    # names what was asked (organ donor)
    reasons = ("under the policy floor", "no evidence strong enough", "never mention")
    assert any(reason in record.status_detail for reason in reasons), record.status_detail
    floor = groq_services.settings.policy_evidence_floor
    top = sorted((e.confidence for e in out.evidence if e.document_type == "policy_wording"), reverse=True)[:2]
    assert sum(top) / len(top) < floor
    assert standin.requests("chat") == []  # the generator was never called
    assert record.evidence and not record.evidence_used
    assert all(e.collection == "insurance" for e in record.evidence)
    assert "covers it in full" not in record.answer


def test_the_same_services_do_call_the_model_for_an_answerable_question(groq_services, standin):
    """The control for the refusal test: the stand-in is wired in and answers when the clauses are strong."""
    standin.set_script(
        chat=[{"text": "Cataract surgery is payable up to 25% of Sum Insured up to Rs. 40,000 per eye [Source 1]."}]
    )
    record = run_graph(
        "What is the cataract surgery limit in the individual rider?",
        groq_services,
        collection="insurance",
        allow_web=False,
    )
    assert record.status == "answered" and len(standin.requests("chat")) == 1
    assert record.generator != "offline-extractive" and record.evidence_used


# --------------------------------------------------------------------------- stated polarity


COVERAGE_LINE_RE = re.compile(
    r"Coverage: (not covered|covered with conditions|covered) under (.+?) \[Source (\d+)\]\.$"
)


@pytest.mark.parametrize(
    ("question", "polarity", "label", "clause", "values"),
    [
        ("Is cosmetic surgery covered under the rider?", "not_covered", "not covered", "cl. 5.5", []),
        (
            "What is the cataract surgery limit in the individual rider?",
            "conditional",
            "covered with conditions",
            f"{INDIVIDUAL} cl. 3.1.2",
            ["25%", "Rs. 40,000"],
        ),
    ],
)
def test_answers_state_their_coverage_and_the_clause(make_services, question, polarity, label, clause, values):
    record = run_graph(question, make_services(), **OFFLINE)
    assert record.status == "answered" and record.coverage_type == polarity
    match = COVERAGE_LINE_RE.search(record.answer)
    assert match, record.answer
    assert match.group(1) == label and match.group(2).endswith(clause)
    cited = record.citations[int(match.group(3)) - 1]
    assert cited.citation == match.group(2)
    evidence = {e.citation: e for e in record.evidence}
    assert evidence[cited.citation].metadata["coverage_type"] == polarity
    for value in values:
        assert value in record.answer


@pytest.mark.parametrize(
    ("question", "clause", "words"),
    [
        (
            "Individual CareShield claim for an experimental stem-cell injection into an arthritic knee; the hospital"
            " can't point to any published evidence that it works. Do we have grounds to decline?",
            "cl. 5.13",
            "lacks significant medical documentation",
        ),
        (
            "My dad is 80 and can't bathe or feed himself any more. Could we put him in hospital for a few weeks just"
            " so he's looked after, and claim it on his own CareShield rider?",
            "cl. 5.2",
            "custodial care",
        ),
        (
            "I saw an orthopaedic specialist about my back and paid for an MRI scan, but in the end I didn't need any"
            " procedure or admission. Can I claim those costs on my individual CareShield rider?",
            "cl. 3.3",
            "Out-patient consultations and diagnostics",
        ),
    ],
)
def test_a_standard_exclusion_is_found_from_the_claimant_s_words(make_services, question, clause, words):
    """Claimants describe the case ("no evidence it works", "can't bathe ... just so he's looked after", "a
    specialist and a scan, no admission"); the wording names the exclusion (unproven treatments, custodial care,
    out-patient consultations): the answer quotes it and says not covered. These were refused or answered from
    the in-patient benefit."""
    record = run_graph(question, make_services(), collection="insurance", allow_web=False)
    assert record.status == "answered" and record.coverage_type == "not_covered", record.answer
    assert record.citations[0].citation == f"{INDIVIDUAL} {clause}" and words in record.answer.split("[Source")[0]


def test_a_benefit_clause_s_own_exception_is_stated_as_not_covered(make_services):
    """The day care clause is a benefit; its sentence on out-patient consultations is what it leaves out."""
    record = run_graph("Are outpatient consultations covered on the individual rider?", make_services(), **OFFLINE)
    match = COVERAGE_LINE_RE.search(record.answer)
    assert match, record.answer
    assert "Out-patient consultations" in record.answer.split("[Source", 1)[0]
    assert match.group(1) == "not covered" and record.coverage_type == "not_covered"
    evidence = {e.citation: e for e in record.evidence}
    assert evidence[match.group(2)].metadata["coverage_type"] == "covered"  # the clause itself is a benefit


def test_the_birth_asked_about_is_the_wording_s_maternity_cover_not_a_benefit_it_never_names(make_services):
    """ "Will the group rider cover the birth?" was refused: no clause says "birth" (5.15 says "childbirth")."""
    record = run_graph(
        "My wife is pregnant. Will the group rider cover the birth?", make_services(), collection="insurance"
    )
    assert record.status == "answered", record.status_detail
    assert "Maternity Expenses" in record.answer and record.citations[0].citation.startswith(GROUP)


def test_asked_the_deadline_for_a_claim_the_claims_clause_answers_before_the_benefit_s_waiting_period(make_services):
    question = (
        "A policyholder on the individual rider was diagnosed with kidney failure on 3 March and rang us today. What's"
        " the deadline for notifying a critical illness claim, and what do we need from her?"
    )
    record = run_graph(question, make_services(), collection="insurance", allow_web=False)
    assert record.citations[0].citation == f"{INDIVIDUAL} cl. 7.5", record.answer
    assert "within 30 days of diagnosis" in record.answer.split("[Source")[0]


def test_asked_the_maximum_a_clause_saying_there_is_no_limit_answers(make_services):
    """The group rider has no room rent limit; asked the maximum per day, the daily cash benefit's "Rs. 1,500 per
    day, up to a maximum of 45 days" led, its "per" read as part of what was asked about."""
    record = run_graph(
        "What is the maximum room rent I can claim per day on the group rider?",
        make_services(),
        collection="insurance",
        allow_web=False,
    )
    assert record.citations[0].citation == f"{GROUP} cl. 6.2", record.answer
    assert record.answer.startswith("No limit shall apply to Room Rent")


def test_the_asker_s_own_act_is_answered_by_the_clause_giving_it_to_their_kind_of_party(make_services):
    """ "If I cancel ..., do I get any premium back?" was refused as a benefit the wording never names ("premium
    back"), then led by the insurer's right to cancel for fraud: the policyholder's own cancellation answers."""
    question = (
        "If I cancel my individual CareShield rider halfway through the year, how much notice do I give and do I get"
        " any premium back?"
    )
    record = run_graph(question, make_services(), collection="insurance", allow_web=False)
    assert record.status == "answered", record.status_detail
    lead = record.answer.split("[Source")[0]
    assert record.citations[0].citation == f"{INDIVIDUAL} cl. 8.4"
    assert lead.startswith("The Policyholder may cancel") and "7 days' written notice" in lead, record.answer
    assert "pro-rata" in record.answer


# --------------------------------------------------------------------------- compare: shipped riders


def point_for(points: list[dict[str, Any]], a_citation: str, b_citation: str) -> dict[str, Any]:
    found = [
        p
        for p in points
        if p["a"]
        and p["b"]
        and provision(p["a"]["citation"]) == a_citation
        and provision(p["b"]["citation"]) == b_citation
    ]
    assert len(found) == 1, [
        (p["verdict"], (p["a"] or {}).get("citation"), (p["b"] or {}).get("citation")) for p in points
    ]
    return found[0]


def check_cataract(points):
    point = point_for(points, f"{INDIVIDUAL} cl. 3.1.2", f"{GROUP} cl. 3.1.2")
    assert point["verdict"] == "different"
    a_values = {"25% of Sum Insured", "Rs. 40,000 per eye"}  # each with its basis
    assert a_values <= set(point["a"]["values"]) and "as per the table of benefits" in point["b"]["values"]
    assert a_values | {"as per the table of benefits"} <= set(point["differing"])


def check_ped(points):
    point = point_for(points, f"{INDIVIDUAL} cl. 4.1", f"{GROUP} cl. 4.1")
    assert point["verdict"] == "different" and "36 months" in point["a"]["values"] and "waived" in point["b"]["values"]
    # the group answer also cites the definition of Pre-existing Disease: it explains the point, it is not one
    assert all(p["a"] and p["b"] for p in points)


def check_definitions(points):
    assert points and all(p["verdict"] == "same" for p in points), [(p["verdict"], p["point"]) for p in points]
    assert point_for(points, f"{INDIVIDUAL} cl. 2.12", f"{GROUP} cl. 2.12")["point"] == "Hospital"


SHIPPED_COMPARE = [
    ("What is the cataract surgery limit?", check_cataract),
    ("What is the waiting period for pre-existing diseases?", check_ped),
    ("How is a Hospital defined?", check_definitions),
]


@pytest.fixture
def cli_env(shipped) -> dict[str, str]:
    return {
        **os.environ,
        "POLICYRAG_DATA_DIR": str(shipped.settings.data_dir),
        "POLICYRAG_MODELS_DIR": str(shipped.settings.models_dir),
        "HF_HUB_OFFLINE": "1",
    }


@pytest.mark.subprocess
@pytest.mark.parametrize(("question", "check"), SHIPPED_COMPARE, ids=["cataract", "ped", "definitions"])
def test_cli_compare_json_on_the_shipped_riders(cli_env, question, check):
    done = policyrag(
        "compare",
        question,
        "--a",
        "careshield_rider_individual",
        "--b",
        "careshield_rider_group",
        "--json",
        "--generator",
        "offline",
        env=cli_env,
    )
    assert done.returncode == 0, done.stderr
    out = json.loads(done.stdout)
    assert out["question"] == question and [s["side"] for s in out["sides"]] == ["a", "b"]
    assert all(s["status"] == "answered" and s["evidence"] for s in out["sides"])
    check(out["points"])
    assert re.match(r"\d+ point\(s\) differ, \d+ are the same", out["summary"])


@pytest.mark.subprocess
def test_cli_compare_refuses_a_wording_that_is_not_in_the_index(cli_env):
    done = policyrag(
        "compare",
        "What is the cataract surgery limit?",
        "--a",
        "careshield_rider_individual",
        "--b",
        "careshield_rider_gold",
        "--json",
        "--generator",
        "offline",
        env=cli_env,
    )
    assert done.returncode == 2 and not done.stdout.strip()
    assert "wording b (doc_id careshield_rider_gold) was not found" in done.stderr and "Traceback" not in done.stderr


@pytest.mark.parametrize(("question", "check"), SHIPPED_COMPARE, ids=["cataract", "ped", "definitions"])
def test_compare_policies_route_on_the_shipped_riders(api, question, check):
    client = api(groq_api_key=None, chat_model=None)
    for body in (
        {"document_a": "careshield_rider_individual", "document_b": "careshield_rider_group"},
        {"product_a": "careshield", "variant_a": "individual", "product_b": "careshield", "variant_b": "group"},
    ):
        reply = client.post("/compare-policies", json={"query": question, **body})
        assert reply.status_code == 200, reply.text
        out = reply.json()
        assert out["a"]["label"].endswith("Individual - Policy Wording") and out["b"]["label"].endswith(
            "Group - Policy Wording"
        )
        assert "clauses" not in out["a"] and out["a"]["citations"] and out["b"]["citations"]
        check(out["points"])


SIDE_QUESTIONS = [
    "What is the cataract surgery limit?",
    "What is the waiting period for pre-existing diseases?",
    "Is a newborn baby covered?",
    "Who receives the claim payment?",
    "How do I complain about a claim decision?",
    "Is there a co-payment for older insured persons?",
]


@pytest.mark.parametrize("question", SIDE_QUESTIONS)
def test_the_compare_table_shows_only_what_the_side_answers_cite(make_services, question):
    from evals.compare_eval import row_agrees

    record = compare(
        build_compare_graph(make_services()),
        question,
        {"doc_id": "careshield_rider_individual"},
        {"doc_id": "careshield_rider_group"},
        RunContext(allow_web=False, generator="offline"),
    )
    assert record.points
    for point in record.points:
        for side in ("a", "b"):
            clause, answer = getattr(point, side), record.side(side)
            if clause is not None:
                assert answer is not None and answer.status == "answered"
                assert clause.chunk_id in {c.chunk_id for c in answer.citations}, (question, side, clause.citation)
    assert all(row_agrees(point, record) for point in record.points), [(p.point, p.verdict) for p in record.points]


def rider_clause(number: str, heading: str, text: str, key: str, doc: str = "a") -> Evidence:
    return Evidence(
        chunk_id=f"{doc}-{number}",
        doc_id=doc,
        text=f"{number} {heading}\n{text}",
        citation=f"{doc} cl. {number}",
        document=doc,
        document_type="policy_wording",
        metadata={"section_key": key, "benefit_name": heading},
    )


def test_alignment_pairs_the_answering_clauses_and_compares_leftovers_on_the_same_subject():
    ayush = rider_clause("4.2", "AYUSH Treatment", "Covered up to the Sum Insured.", "benefits", "a")
    ayurveda = rider_clause("4", "Ayurvedic/Homeopathic/Unani treatment", "Up to Rs. 10,000.", "benefits", "b")
    a_copay = rider_clause("9.3", "Co-payment", "A Co-payment of 5% applies.", "co_payment", "a")
    b_copay = rider_clause("5.5.8", "Optional Co-payment", "Optional Co-payment of 20%.", "co_payment", "b")
    b_zone = rider_clause("5.5.7", "Zone Co-payment", "Zone B pays 10%.", "co_payment", "b")
    b_definition = rider_clause(
        "2.13", "Co-payment", "Co-payment means a cost sharing requirement.", "definitions", "b"
    )
    points = align([ayush, a_copay], [ayurveda, b_copay, b_zone, b_definition])
    pairs = [(p.a and p.a.citation, p.b and p.b.citation, p.verdict) for p in points]
    # the two answering clauses are one point though their names share nothing
    assert ("a cl. 4.2", "b cl. 4", "different") in pairs
    # both co-payment clauses of b are compared with a's (none is shown as missing from a), and the definition,
    # which only explains a term of that point, is not a row
    assert {("a cl. 9.3", "b cl. 5.5.8", "different"), ("a cl. 9.3", "b cl. 5.5.7", "different")} <= set(pairs)
    assert len(pairs) == 3 and not any(p.verdict.startswith("only") for p in points)


def test_the_answering_point_follows_the_polarity_the_answers_state():
    maternity_a = rider_clause("3.7", "Maternity Benefit", "Expenses of the newborn baby are not covered.", "benefits")
    maternity_b = rider_clause("3.7", "Maternity Benefit", "The newborn baby is covered from day one.", "benefits", "b")
    rest_cure = rider_clause("5.2", "Rest Cure and Respite Care", "Excluded.", "exclusions")
    day_care = rider_clause("3.3", "Day Care Treatment", "Covered up to the Sum Insured.", "benefits", "b")
    rest_cure.metadata["coverage_type"], day_care.metadata["coverage_type"] = "not_covered", "covered"
    [point] = align([maternity_a], [maternity_b], ("not_covered", "conditional"))
    assert point.verdict == "only_b" and point.a and point.b  # a's clause is shown: it is where a excludes it
    assert align([maternity_a], [maternity_b], ("conditional", "not_covered"))[0].verdict == "only_a"
    # a clause's own polarity never makes a point one-sided: an exclusion and a benefit sharing "care" differ
    points = align([maternity_a, rest_cure], [maternity_b, day_care], ("conditional", "conditional"))
    assert [(p.a.citation, p.b.citation, p.verdict) for p in points][1] == ("a cl. 5.2", "b cl. 3.3", "different")


def test_a_point_states_the_values_of_the_sentences_on_the_question_not_the_rest_of_the_clause():
    waiting_a = rider_clause(
        "C-1", "Waiting Periods", "a. PED: 36 months.\nb. Specified diseases: 24 months.", "waiting_period"
    )
    waiting_b = rider_clause("4.1", "Pre-Existing Diseases", "PED: 36 months.", "waiting_period", "b")
    assert align([waiting_a], [waiting_b])[0].verdict == "different"  # 24 months is a's other point
    quoted_a = waiting_a.model_copy(update={"highlights": ["a. PED: 36 months"]})
    [point] = align([quoted_a], [waiting_b])
    assert point.verdict == "same" and point.a.values == ["36 months"] and point.a.text == waiting_a.text


def test_whom_a_clause_pays_is_a_value_and_a_party_merely_named_is_not():
    assert extract_values("Payment is made to the Policyholder or to the Network Provider.") == [
        "policyholder",
        "network provider",
    ]
    assert extract_values("Paid to the Member, never to the Master Policyholder.") == ["member", "master policyholder"]
    assert extract_values("The premium is based on the age of the eldest Insured Person.") == []
    individual = rider_clause("7.6", "Settlement of Claims", "Payment is made to the Policyholder.", "claims")
    group = rider_clause("7.6", "Settlement of Claims", "Payment is made to the Member.", "claims", "b")
    assert align([individual], [group])[0].differing == ["member", "policyholder"]


def test_a_limit_is_stated_with_its_basis():
    assert extract_values("up to 2% of the sum insured subject to maximum of Rs. 5,000/-per day") == [
        "2% of Sum Insured",
        "Rs. 5,000 per day",
    ]
    assert extract_values("Up to 5% of SI; 1% of Sum Insured per day; Rs 2,000 per hospitalisation") == [
        "5% of Sum Insured",
        "1% of Sum Insured per day",
        "Rs. 2,000 per hospitalization",
    ]
    assert extract_values("A co-payment of 5% on all claims.") == ["5%"]  # no basis stated: none made up
    # what is paid in full is one value however a wording says it
    assert (
        extract_values("Room rent limit shall be 'At Actuals'.")
        == extract_values("Room Rent: No limit")
        == ["no limit"]
    )


def test_the_compare_table_says_a_newborn_is_only_in_the_group_rider(make_services):
    record = compare(
        build_compare_graph(make_services()),
        "Is a newborn baby covered under the CareShield individual rider or the group rider?",
        {"doc_id": "careshield_rider_individual"},
        {"doc_id": "careshield_rider_group"},
        RunContext(allow_web=False, generator="offline"),
    )
    assert [s.coverage_type for s in record.sides] == ["not_covered", "conditional"]
    first = record.points[0]
    assert first.verdict == "only_b" and provision(first.a.citation) == f"{INDIVIDUAL} cl. 3.7"


# the individual's cataract clause and the group's Table of Benefits, which states the group's cataract limit
CATARACT = rider_clause("3.1.2", "Cataract Surgery", "Up to 25% of Sum Insured or Rs. 40,000 per eye.", "benefits")
BENEFITS_TABLE = rider_clause(
    "3.10",
    "Table of Benefits",
    "Cataract Surgery (Clause 3.1.2): Rs. 60,000 per eye.\nRoad Ambulance (Clause 3.6): Rs. 3,000.",
    "table_of_benefits",
    "b",
)


def test_a_table_of_benefits_paired_with_one_benefit_states_that_benefit_s_values_only():
    [point] = align([CATARACT], [BENEFITS_TABLE])
    assert point.b.values == ["Rs. 60,000 per eye"]
    assert point.differing == ["25% of Sum Insured", "Rs. 40,000 per eye", "Rs. 60,000 per eye"]


def test_a_table_of_benefits_line_on_a_compared_benefit_is_compared_too_not_shown_as_one_sided():
    group = rider_clause("3.1.2", "Cataract Surgery", "Payable as per the Table of Benefits.", "benefits", "b")
    points = align([CATARACT], [group, BENEFITS_TABLE])
    assert [(p.point, p.verdict, p.b.citation) for p in points] == [
        ("Cataract Surgery", "different", "b cl. 3.1.2"),
        ("Cataract Surgery", "different", "b cl. 3.10"),
    ]
    assert points[1].b.values == ["Rs. 60,000 per eye"]


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"document_a": "careshield_rider_individual"}, 422, "name two wordings"),
        ({"product_a": "careshield", "variant_a": "group"}, 422, "name two wordings"),
        ({"product_a": "careshield", "product_b": "careshield"}, 422, "name two wordings"),
        ({"document_a": "no_such_rider", "document_b": "no_such_other"}, 404, "neither wording was found"),
        (
            {"document_a": "careshield_rider_individual", "document_b": "no_such_rider"},
            404,
            "wording b (doc_id no_such_rider) was not found",
        ),
        (
            {"document_a": "no_such_rider", "document_b": "careshield_rider_group"},
            404,
            "wording a (doc_id no_such_rider) was not found",
        ),
        (
            {"document_a": "careshield_rider_individual", "document_b": "careshield_rider_group", "question": "x"},
            422,
            "question",
        ),
    ],
)
def test_bad_compare_requests_get_a_clear_4xx(api, body, status, message):
    client = api(groq_api_key=None, chat_model=None)
    reply = client.post("/compare-policies", json={"query": "What is the cataract surgery limit?", **body})
    assert reply.status_code == status, reply.text
    assert message in json.dumps(reply.json()) and "Traceback" not in reply.text


def test_a_blank_compare_question_is_refused(api):
    blank = api().post(
        "/compare-policies",
        json={"query": "   ", "document_a": "careshield_rider_individual", "document_b": "careshield_rider_group"},
    )
    assert blank.status_code == 422 and "must not be empty" in blank.text


# --------------------------------------------------------------------------- compare: two real wordings


@pytest.fixture(scope="module")
def real_services(real):
    return Services(
        real.settings.model_copy(update={"web_providers": ["secondary"], "groq_api_key": None, "chat_model": None}),
        real,
    )


def compare_real(services: Services, question: str) -> dict[str, Any]:
    record = compare(
        build_compare_graph(services),
        question,
        {"product": "arogya"},
        {"product": "parivar"},
        RunContext(allow_web=False, generator="offline"),
    )
    return record.model_dump()


# (question, Arogya clause, National Parivar clause, verdict, Arogya values, National Parivar values)
REAL_COMPARE = [
    pytest.param(
        "What is the limit for cataract surgery?",
        "Arogya Sanjeevani cl. 4.3",
        "National Parivar Mediclaim Plus cl. 3.1.1.2",
        "different",
        {"25% of Sum Insured", "Rs. 40,000 per eye", "whichever is lower"},
        {"as per the table of benefits"},
        id="cataract",
    ),
    (
        "What is the co-payment?",
        "Arogya Sanjeevani cl. 9.3",
        "National Parivar Mediclaim Plus cl. 5.5.8",
        "different",
        {"5%", "15%"},
        {"20%", "10%"},
    ),  # Optional Co-payment; the zone co-payments (cl. 5.5.7) are a point of their own
    (
        "What is the room rent limit?",
        "Arogya Sanjeevani cl. 4.1",
        "National Parivar Mediclaim Plus cl. 3.1.1.1",
        "different",
        {"2% of Sum Insured", "Rs. 5,000 per day"},
        {"as per the table of benefits"},
    ),
    (
        "What is the waiting period for pre-existing diseases?",
        "Arogya Sanjeevani cl. 6.1",
        "National Parivar Mediclaim Plus cl. 4.1",
        "same",
        {"36 months"},
        {"36 months"},
    ),
]


@pytest.mark.parametrize(
    ("question", "a_clause", "b_clause", "verdict", "a_values", "b_values"),
    REAL_COMPARE,
    ids=["cataract", "co-payment", "room-rent", "ped"],
)
def test_compare_two_real_wordings(real_services, question, a_clause, b_clause, verdict, a_values, b_values):
    out = compare_real(real_services, question)
    sides = {s["side"]: s for s in out["sides"]}
    assert sides["a"]["filters"]["product"] == "arogya" and sides["b"]["filters"]["product"] == "parivar"
    assert all(e["metadata"]["product"] == "arogya" for e in sides["a"]["evidence"])
    assert all(e["metadata"]["product"] == "parivar" for e in sides["b"]["evidence"])
    point = point_for(out["points"], a_clause, b_clause)
    assert point["verdict"] == verdict
    assert point["a"]["document"] != point["b"]["document"]
    assert a_values <= set(point["a"]["values"]) and b_values <= set(point["b"]["values"])
    if verdict == "different":
        assert (a_values | b_values) - (a_values & b_values) <= set(point["differing"])
    else:
        assert point["a"]["values"] == point["b"]["values"] and not point["differing"]
    for side, clause in (("a", a_clause), ("b", b_clause)):
        assert clause in [provision(c["citation"]) for c in sides[side]["evidence"]]


# --------------------------------------------------------------------------- service routes


def test_policies_lists_the_two_riders(api):
    reply = api().get("/policies")
    assert reply.status_code == 200
    documents = reply.json()["documents"]
    assert [(d["doc_id"], d["provider"], d["product"], d["variant"], d["uin"]) for d in documents] == [
        ("careshield_rider_group", "asterisk", "careshield", "group", "ASTHLGP26002V012627"),
        ("careshield_rider_individual", "asterisk", "careshield", "individual", "ASTHLIP26001V012627"),
    ]
    assert all(d["collection"] == "insurance" and d["title"] for d in documents)


def test_search_policy_returns_answer_coverage_citations_and_evidence(api):
    client = api(groq_api_key=None, chat_model=None)
    reply = client.post(
        "/search-policy",
        json={"query": "Is cosmetic surgery covered?", "product": "careshield", "variant": "individual"},
    )
    assert reply.status_code == 200, reply.text
    body = reply.json()
    assert {"answer", "coverage_type", "citations", "evidence", "status", "route", "confidence"} <= set(body)
    assert body["status"] == "answered" and body["coverage_type"] == "not_covered"
    assert (
        body["citations"][0]["citation"] == f"{INDIVIDUAL} cl. 5.5" and f"under {INDIVIDUAL} cl. 5.5" in body["answer"]
    )
    assert body["evidence"] and all(e["metadata"]["variant"] == "individual" for e in body["evidence"])
    unknown = client.post("/search-policy", json={"query": "Is cosmetic surgery covered?", "surprise": True})
    assert unknown.status_code == 422


def test_evaluate_retrieval_hit_rate_and_mrr_on_a_hand_checked_set(api):
    questions = [
        # rank 1: the individual rider's cataract clause
        {
            "question": "What is the cataract surgery limit in the individual rider?",
            "gold_citations": [f"{INDIVIDUAL} cl. 3.1.2"],
        },
        # rank 2: the question names the group rider (its title is in every chunk's dense text), so the group's
        # clause comes first and its individual twin second
        {
            "question": "How many days of hospital daily cash does the group rider pay?",
            "gold_citations": [f"{INDIVIDUAL} cl. 3.4"],
        },
        # a miss: nothing in the insurance collection is GDPR
        {"question": "Is cosmetic surgery covered?", "gold_citations": ["GDPR Art. 33"]},
    ]
    client = api()
    reply = client.post("/evaluate-retrieval", json={"questions": questions, "k": 5, "collection": "insurance"})
    assert reply.status_code == 200, reply.text
    body = reply.json()
    assert [r["rank"] for r in body["results"]] == [1, 2, None]
    assert body["results"][1]["retrieved"][0] == f"{GROUP} cl. 3.4"
    assert body["questions"] == 3 and body["k"] == 5
    assert body["hit_rate"] == pytest.approx(2 / 3, abs=1e-4)
    assert body["mrr"] == pytest.approx((1 + 0.5) / 3, abs=1e-4)
    by_doc = client.post(
        "/evaluate-retrieval",
        json={
            "questions": [
                {
                    "question": "What is the ICU daily cash benefit in the individual rider?",
                    "gold_doc_ids": ["careshield_rider_individual"],
                }
            ],
            "k": 5,
            "collection": "insurance",
        },
    ).json()
    assert by_doc["results"][0]["rank"] == 1 and by_doc["mrr"] == 1.0


def test_quota_answers_200_then_429_with_retry_after_once_spent(api):
    client = api(anonymous_credit_capacity=2.0, anonymous_credit_refill_per_s=0.001)
    first = client.get("/quota")
    assert first.status_code == 200
    assert first.json()["remaining"] == pytest.approx(2.0, abs=0.01) and first.json()["capacity"] == 2.0
    # 10 labelled questions at 0.2 credits each spend the whole bucket
    spend = client.post(
        "/evaluate-retrieval",
        json={
            "questions": [{"question": f"What is the cataract limit? ({n})"} for n in range(10)],
            "k": 1,
            "collection": "insurance",
        },
    )
    assert spend.status_code == 200
    spent = client.get("/quota")
    assert spent.status_code == 429
    assert int(spent.headers["Retry-After"]) > 0
    assert spent.json()["remaining"] == pytest.approx(0.0, abs=0.01)
    assert client.post("/search-policy", json={"query": "Is cosmetic surgery covered?"}).status_code == 429


# ------------------------------------------------------------------- the compare graph runs its branches in threads


def test_sparse_words_are_the_same_when_stemmed_in_parallel_threads():
    """The compare graph answers both wordings at once (Send) and the HTTP server answers requests in worker
    threads: stemming must not share state between threads (it crashed with IndexError and stemmed wrongly)."""
    from language.words import words

    text = (REPO_ROOT / "corpus" / "insurance" / "careshield_rider_individual.txt").read_text(encoding="utf-8")
    expected = words(text)
    problems: list[str] = []

    def work() -> None:
        for _ in range(15):
            try:
                if words(text) != expected:
                    problems.append("different stems")
            except Exception as error:  # noqa: BLE001 - any failure is the finding
                problems.append(type(error).__name__)

    threads = [threading.Thread(target=work) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert not problems, sorted(set(problems))


# --------------------------------------------------------------------------- what a wording covers


def test_a_benefit_no_clause_mentions_is_refused_as_absent_naming_the_clauses_found(make_services):
    out = run_graph("Do I get money back on the group rider if I stay healthy all year?", make_services(), **OFFLINE)
    assert out.status == "refused" and out.coverage_type is None and not out.citations
    assert out.status_detail.startswith("absent from the wording"), out.status_detail
    assert f"{GROUP} cl." in out.status_detail


def test_a_benefit_asked_about_in_the_first_of_two_questions_is_refused_as_absent(make_services):
    """ "How much no-claim bonus do I get ...? Does the sum insured go up?": the bonus, which no clause mentions, is
    what is asked about, though the last sentence names only the sum insured."""
    out = run_graph(
        "How much no-claim bonus do I get on my own CareShield rider if I don't claim this year? Does the sum insured "
        "go up?",
        make_services(),
        **OFFLINE,
    )
    assert out.status == "refused" and "absent from the wording" in out.status_detail, out.answer


def test_cover_through_work_is_searched_in_the_group_wording():
    from language.analysis import analyse, variants_named

    assert variants_named("What happens to my CareShield cover through work when I leave?") == {"group"}
    assert analyse("Is cataract covered on my employer's plan?").variant == "group"
    assert analyse("I bought it myself - is cataract covered?").variant == "individual"
    assert analyse("She has her own CareShield rider. How much is paid?").variant == "individual"
    assert analyse("Can my employer see my health data?").variant is None


def test_a_clause_about_something_else_never_becomes_the_answer_on_cover(make_services):
    """A question on cover is answered only by a statement naming the thing asked about (here nothing does)."""
    out = run_graph(
        "Will the individual rider give me a free health screening each policy year?", make_services(), **OFFLINE
    )
    assert out.status == "refused", out.answer
    assert "absent from the wording" in out.status_detail


def test_the_chat_model_is_not_asked_about_a_benefit_the_wording_lacks(groq_services, standin):
    standin.set_script(chat=[{"text": "Yes, a yearly cash-back is paid [Source 1]."}] * 4)
    out = run_graph(
        "Do I get money back on the group rider if I stay healthy all year?",
        groq_services,
        collection="insurance",
        allow_web=False,
    )
    assert out.status == "refused" and standin.requests("chat") == []
    assert "cash-back" not in out.answer


def test_an_exclusion_that_only_lists_what_it_excludes_is_answered_as_an_exclusion(make_services):
    out = run_graph("Will the individual rider pay for IVF treatment?", make_services(), **OFFLINE)
    lead = out.answer.split(" [Source")[0]
    assert lead.startswith(f"No: {INDIVIDUAL} excludes Sterility and Infertility (Excl17): "), out.answer
    assert "in vitro fertilisation" in lead
    assert out.coverage_type == "not_covered" and out.citations[0].citation == f"{INDIVIDUAL} cl. 5.14"


def test_asked_whether_something_is_covered_an_exclusion_naming_it_leads(make_services):
    out = run_graph(
        "Is laser eye surgery to fix short sight covered on the individual rider?", make_services(), **OFFLINE
    )
    assert out.citations and out.citations[0].citation == f"{INDIVIDUAL} cl. 5.12", out.answer
    assert "excludes Refractive Error (Excl15)" in out.answer and out.coverage_type == "not_covered"
    assert out.answer.startswith("No: ")  # a threshold (less than 7.5 dioptres) still excludes what was asked


@pytest.mark.parametrize(
    "question",
    [
        "Is cosmetic surgery after burns covered by the group rider?",  # what the exclusion's exception saves
        "Does the group rider cover scuba diving on holiday?",  # the exclusion is of professional participation
    ],
)
def test_an_exclusion_that_leaves_the_asked_case_covered_answers_only_in_some_cases(make_services, question):
    out = run_graph(question, make_services(), **OFFLINE)
    assert out.answer.startswith("Only in some cases: ") and " excludes " in out.answer, out.answer
    assert out.coverage_type == "conditional"
    professional = run_graph(
        "Does the group rider cover scuba diving as a professional diver?", make_services(), **OFFLINE
    )
    assert not professional.answer.startswith("Only in some cases: "), professional.answer


@pytest.mark.parametrize(
    ("question", "feature"),
    [
        ("Does the individual CareShield rider give a premium discount for non-smokers?", "premium discount"),
        (
            "I've had the individual CareShield rider for three years without claiming. What no-claim bonus have I "
            "built up?",
            "no-claim bonus",
        ),
    ],
)
def test_a_benefit_asked_for_by_name_that_no_clause_names_is_refused_naming_it(make_services, question, feature):
    """The premium clause is not a non-smoker discount, nor the pro-rata refund after a year without claims a
    no-claim bonus: the wording never names the thing asked for, so it is refused as absent, saying so."""
    out = run_graph(question, make_services(), **OFFLINE)
    assert out.status == "refused", out.answer
    assert out.status_detail.startswith("absent from the wording"), out.status_detail
    assert f"never mention {feature}" in out.status_detail and f"{INDIVIDUAL} cl." in out.status_detail


def test_a_treatment_no_clause_names_is_refused_not_answered_from_a_waiting_period(make_services):
    """Dental treatment was answered from the pre-existing disease waiting period, which names "treatment"."""
    out = run_graph("Is dental treatment covered by the individual CareShield rider?", make_services(), **OFFLINE)
    assert out.status == "refused", out.answer
    assert "never mention dental" in out.status_detail, out.status_detail
    kept = run_graph("Is ambulance transport covered on the group rider?", make_services(), **OFFLINE)
    assert kept.status == "answered" and kept.citations[0].citation == f"{GROUP} cl. 3.6", kept.answer


def test_a_plain_word_for_a_limit_still_finds_the_clause_that_sets_it(make_services):
    """ "cap" is no clause's word, but it only measures the room rent the group rider's clauses do name."""
    out = run_graph("Is there a room rent cap on the group rider?", make_services(), **OFFLINE)
    assert out.status == "answered", out.status_detail
    assert "No limit shall apply to Room Rent" in out.answer


def test_an_act_named_shorter_than_the_clause_names_it_is_not_outside_the_corpus(make_services):
    """The clause cites "the Clinical Establishments (Registration and Regulation) Act, 2010"; a question naming
    "the Clinical Establishments Act" is about that Act, not a regime no document mentions (it was refused)."""
    out = run_graph(
        "A group member was admitted to a 12-bed nursing home in a town of about 8 lakh people. It isn't registered "
        "under the Clinical Establishments Act. Could it still count as a 'Hospital' under the group rider?",
        make_services(),
        **OFFLINE,
    )
    assert out.status == "answered", out.status_detail
    assert out.citations[0].citation == f"{GROUP} cl. 2.12"
    # the conditions hold only together: every one is quoted, not the beds alone
    for point in ("at least 10 in-patient beds", "round the clock", "operation theatre", "daily patient records"):
        assert point in out.answer, out.answer


def test_an_exclusion_sharing_one_word_with_a_benefit_asked_about_does_not_answer_no(make_services):
    """ "daily allowance" is the wording's Hospital Daily Cash; the custodial-care exclusion's "daily activities"
    names one word of it and once answered "No: ... excludes Rest Cure"."""
    out = run_graph(
        "Do I get a daily allowance while I'm in hospital on the individual rider?", make_services(), **OFFLINE
    )
    assert out.status == "answered" and not out.answer.startswith("No"), out.answer
    assert out.citations[0].citation == f"{INDIVIDUAL} cl. 3.4" and "Rs. 1,000 per day" in out.answer


def test_the_clause_an_answering_clause_names_for_its_condition_is_kept_past_the_clause_cap(make_services):
    """The critical illness benefit pays "after the waiting period in Clause 4.5": the answer states that
    period (90 days) from cl. 4.5, which grading's cut and the cap on clauses used to leave out."""
    out = run_graph(
        "We took out the cover in March and my wife was diagnosed with breast cancer in May. Will the critical "
        "illness lump sum pay out?",
        make_services(),
        **OFFLINE,
    )
    assert out.status == "answered", out.status_detail
    assert "within 90 days" in out.answer and any(c.citation.endswith("cl. 4.5") for c in out.citations)


def test_a_yes_no_policy_question_also_weighs_clauses_outside_the_sections_the_intent_points_to(make_services):
    """The intent reads a benefit question; the answer is in the definition of Sum Insured (cl. 2.22). Asked how
    much or by when, the intent's sections alone are searched (the room rent limit, not its definition)."""
    out = run_graph(
        "On the individual rider, is the critical illness sum insured separate from the ordinary sum insured?",
        make_services(),
        **OFFLINE,
    )
    assert out.status == "answered" and out.citations[0].citation == f"{INDIVIDUAL} cl. 2.22", out.answer
    assert "is separate" in out.answer.split("[Source")[0]
    assert "then the rest" in out.trace[0]


def test_each_rider_s_clause_named_for_its_condition_is_followed_when_no_rider_is_named(make_services):
    """Asked of "CareShield" with no rider named, the critical-illness clause of both riders leads, graded alike; the
    waiting period each names ("after the waiting period in Clause 4.5") is brought for both, not only for the
    first, so the answer states the 90 days of the rider it quotes first."""
    out = run_graph(
        "Does CareShield pay the critical illness lump sum for a stroke diagnosed a month after joining?",
        make_services(),
        **{**OFFLINE, "collection": None},
    )
    assert out.status == "answered", out.status_detail
    cited = [c.citation for c in out.citations]
    assert cited[0] in (f"{INDIVIDUAL} cl. 3.9", f"{GROUP} cl. 3.9")
    assert f"{cited[0].rsplit(' cl.', 1)[0]} cl. 4.5" in cited and "within 90 days" in out.answer


def test_a_cooling_off_period_is_the_free_look_period(make_services):
    out = run_graph("Is there a cooling-off period on the individual CareShield rider?", make_services(), **OFFLINE)
    assert out.status == "answered" and out.citations[0].citation == f"{INDIVIDUAL} cl. 8.2", out.answer
    assert "30 days" in out.answer.split("[Source")[0]


def test_a_question_framed_as_is_there_a_way_is_not_refused_for_a_benefit_called_way(make_services):
    """ "is there a way to keep it going?" names no benefit: the group rider's migration clause answers."""
    out = run_graph(
        "I'm leaving my job next month. What happens to my group CareShield cover, and is there a way to keep it?",
        make_services(),
        **OFFLINE,
    )
    assert out.status == "answered", out.answer
    assert any(c.citation in (f"{GROUP} cl. 8.3", f"{GROUP} cl. 8.4") for c in out.citations)


def test_the_policy_s_own_name_is_not_what_a_question_is_about(make_services):
    """ "I bought the individual CareShield rider ... broke my arm": the pre-existing-disease clause naming "the first
    CareShield Rider" does not lead for the name it shares; the 30-day clause, with its accident exception, does."""
    out = run_graph(
        "I bought the individual CareShield rider a week ago and broke my arm in a car crash. Will they pay, or is "
        "there a 30 day wait first?",
        make_services(),
        **OFFLINE,
    )
    assert out.citations[0].citation == f"{INDIVIDUAL} cl. 4.3", out.answer
    assert "except claims arising due to an Accident" in out.answer.split("[Source")[0]


def test_the_other_rider_s_point_is_the_one_on_the_same_disease_with_its_own_period(make_services):
    """No rider named: the group rider's hernia point (12 months) is followed by the individual rider's hernia
    point with its 24 months, whatever their letters, not by whatever point sits at the same place."""
    out = run_graph("Is there a wait before CareShield pays for hernia surgery?", make_services(), **OFFLINE)
    sentences = out.answer.split("[Source")
    assert len(sentences) >= 3 and all("Hernia" in s for s in sentences[:2]), out.answer
    assert "12 months" in out.answer and "24 months" in out.answer


def test_each_part_of_a_two_part_question_is_searched_on_its_own(make_services):
    """ "What happens to my cover through work when I leave, and can I keep credit for the waiting periods?": the
    whole question finds waiting-period clauses; the part about leaving finds the group wording's clause on a Member
    who leaves the group, which the answer quotes."""
    out = run_graph(
        "I'm leaving my job next month. what happens to my CareShield cover through work, and can I keep credit for "
        "the waiting periods I've already done?",
        make_services(),
        **OFFLINE,
    )
    assert "parts searched too" in out.trace[0], out.trace
    assert out.citations[0].citation.startswith(f"{GROUP} cl. 8."), out.answer
    assert "leaves the group" in out.answer and "without loss of credit" in out.answer


def test_the_first_part_of_a_two_part_question_is_answered_first_from_the_same_clause(make_services):
    """ "How long to settle a claim once all documents are in, and what if it needs investigating?": cl. 7.6 says
    both; its 15 days answer the first part and lead, the 45 days of an investigation follow."""
    out = run_graph(
        "Under the group CareShield rider, how long do we have to settle a claim once all documents are in, and what "
        "if it needs investigating?",
        make_services(),
        **OFFLINE,
    )
    first, _, rest = out.answer.partition("[Source")
    assert "within 15 days" in first and "within 45 days" in rest, out.answer


def test_a_statement_saying_one_more_word_asked_may_go_over_the_word_budget(make_services):
    """ "Can I send it back and get a refund?": the free look clause's refund sentence says "refund", which the lead
    does not; it follows though the lead took most of the word budget."""
    out = run_graph(
        "I just got my individual CareShield rider documents and I'm not happy with the terms. Can I send it back "
        "and get a refund?",
        make_services(),
        **OFFLINE,
    )
    assert "Free Look Period of 30 days" in out.answer and "refund of the premium" in out.answer, out.answer


def test_a_condition_diagnosed_years_ago_is_a_pre_existing_disease(make_services):
    """ "asthma that was diagnosed years ago" on the group rider: its Pre-existing Diseases clause (waived for all
    Insured Persons) answers, not the Critical Illness waiting period."""
    out = run_graph(
        "My company pays for a group CareShield plan. I have asthma that was diagnosed years ago. Is there a waiting "
        "period before they'll cover it?",
        make_services(),
        **OFFLINE,
    )
    assert out.citations[0].citation == f"{GROUP} cl. 4.1" and "waived for all Insured Persons" in out.answer, (
        out.answer
    )


def test_a_family_member_s_age_is_answered_from_the_eligibility_clause(make_services):
    """ "My son is 26, can he stay on my rider?": the son's age is the asker's situation (no text need state 26),
    and a son on a policy is a dependent child: the eligibility clauses' age ranges answer, not a refusal."""
    services = make_services()
    out = run_graph("My son is 26, can he stay on my rider?", services, **OFFLINE)
    assert out.status == "answered" and "25 years of Age" in out.answer, out.answer
    out = run_graph(
        "can I add my 6 month old son and my 24 year old daughter to my individual CareShield rider?",
        services,
        **OFFLINE,
    )
    assert out.citations[0].citation == f"{INDIVIDUAL} cl. 1.3" and "91 days to 25 years" in out.answer, out.answer


def test_a_person_s_age_is_not_a_number_the_text_must_state():
    from language.question import named_numbers

    assert named_numbers("can I add my 6 month old son and my 24 year old daughter?") == set()
    assert named_numbers("My dad is 63 and on the rider") == set()
    assert named_numbers("Is the 30 day waiting period waived?") == {"30"}
    assert named_numbers("the sum insured is 500000") == {"500000"}


def test_using_a_period_the_wording_says_is_not_applicable_is_answered_by_that_clause(make_services):
    """ "Can I use the free look period to send it back?" on the group plan: cl. 8.2 says the Free Look Period is not
    applicable to this Group Policy ("use" is said "applicable" in a wording); it leads, not the definition."""
    out = run_graph(
        "HR gave me the CareShield group plan documents last week and I don't like the terms. can I use the free look "
        "period to send it back?",
        make_services(),
        **OFFLINE,
    )
    assert out.citations[0].citation == f"{GROUP} cl. 8.2" and "not applicable" in out.answer.split("[Source")[0]


def test_a_clause_payable_as_per_the_table_of_benefits_is_followed_by_its_own_line_of_the_table(make_services):
    """ "Expenses for cataract surgery are payable as per the Table of Benefits": the table's line for that clause
    ("Cataract Surgery (Clause 3.1.2): Rs. 60,000 per eye") says how much, and no other line of the table follows."""
    out = run_graph("What does the group rider pay for cataract surgery?", make_services(), **OFFLINE)
    assert "Rs. 60,000 per eye" in out.answer and any(c.citation == f"{GROUP} cl. 3.10" for c in out.citations)
    assert "per day" not in out.answer, out.answer


def test_three_questions_in_one_sentence_are_each_answered_the_first_first(make_services):
    """ "how many days to settle it, what if it needs investigating, and is there a penalty if we're late?": the
    15 days lead, then the 45 days of an investigation and the interest owed on a late payment."""
    out = run_graph(
        "once we've got the last document on an individual rider claim, how many days do we have to settle it,"
        " what if it needs investigating, and is there a penalty if we're late?",
        make_services(),
        **OFFLINE,
    )
    first = out.answer.split("[Source")[0]
    assert "within 15 days" in first, out.answer
    assert "within 45 days" in out.answer and "2% above the bank rate" in out.answer, out.answer


def test_asked_which_of_the_costs_described_are_paid_the_clause_on_those_costs_answers(make_services):
    # "Which of those costs ..." asks neither for a sum (it was refused for stating none) nor for a list
    out = run_graph(
        "Individual CareShield claim: the insured had scans about three weeks before admission and has had physio"
        " for ten weeks since discharge. Which of those costs can we pay?",
        make_services(),
        **OFFLINE,
    )
    assert out.status == "answered" and out.citations[0].citation == f"{INDIVIDUAL} cl. 3.2", out.answer
    assert "30 days immediately before" in out.answer and "60 days immediately after" in out.answer


def test_asked_how_far_before_and_after_admission_costs_are_covered_the_pre_and_post_clause_leads(make_services):
    # "how far before" asks a period, "those costs covered" whether (not how much: it was refused for stating no
    # sum); "after the admission" names the pre- and post-hospitalisation clause, though its words are every
    # policy question's, so the notice period for a planned admission does not lead for sharing "planned"
    out = run_graph(
        "I'm booked in for an operation under my individual CareShield rider. I've already paid for scans and tests"
        " over the past few weeks, and I'll need follow-up check-ups and physio afterwards. How far before and after"
        " the admission are those costs covered?",
        make_services(),
        **OFFLINE,
    )
    assert out.citations[0].citation == f"{INDIVIDUAL} cl. 3.2", out.answer
    assert "30 days immediately before" in out.answer.split("[Source")[0]


def test_a_waiting_period_still_running_for_the_cover_the_question_says_answers(make_services):
    """ "bought it two weeks ago ... admitted with dengue": the 30 days from the first commencement date (no clause
    names dengue, and no pre-existing disease was asked about); "8 months after joining" for a cataract: the 12
    months of the listed diseases, and the part asking the limit per eye gets the table's line."""
    dengue = run_graph(
        "I bought my own CareShield rider two weeks ago - it's my first ever health cover - and now I've been"
        " admitted with dengue fever. Will they pay?",
        make_services(),
        **OFFLINE,
    )
    assert dengue.citations[0].citation == f"{INDIVIDUAL} cl. 4.3", dengue.answer
    assert "within 30 days from the first commencement date" in dengue.answer.split("[Source")[0]
    assert dengue.answer.startswith("No: "), dengue.answer  # not yet: dengue is no accident the exception saves
    cataract = run_graph(
        "A member on the group CareShield rider wants cataract surgery 8 months after joining, no accident"
        " involved. Is it payable yet, and what's the limit per eye?",
        make_services(),
        **OFFLINE,
    )
    assert cataract.citations[0].citation == f"{GROUP} cl. 4.2", cataract.answer
    assert "12 months of continuous coverage" in cataract.answer.split("[Source")[0]
    assert "Rs. 60,000 per eye" in cataract.answer and cataract.answer.count("listed below") == 1


def test_an_alcohol_related_illness_is_answered_by_the_alcoholism_exclusion(make_services):
    out = run_graph(
        "We've received an individual rider claim for treatment of alcoholic liver disease. Is it payable?",
        make_services(),
        **OFFLINE,
    )
    assert out.citations[0].citation == f"{INDIVIDUAL} cl. 5.9", out.answer
    assert "alcoholism, drug or substance abuse" in out.answer


def test_a_period_in_a_clause_s_condition_is_answered_first_by_the_clause_setting_it(make_services):
    """ "... has not received a reply within 14 days, he or she may write to the Grievance Redressal Officer": the
    14 days are 9.1's, which also says the 24 hours to acknowledge; the officer follows for the second part."""
    out = run_graph(
        "I emailed a complaint about my individual CareShield claim. How quickly should they acknowledge it and sort"
        " it out, and who do I go to if they don't?",
        make_services(),
        **OFFLINE,
    )
    assert out.citations[0].citation == f"{INDIVIDUAL} cl. 9.1", out.answer
    assert "within 24 hours" in out.answer.split("[Source")[0] and "Grievance Redressal Officer" in out.answer


def test_two_wordings_named_one_in_plain_words_are_each_answered_from_their_clause(make_services):
    # "his own rider" is the individual wording, "my company's group rider" the group one: both clauses' sums
    out = run_graph(
        "My dad has his own CareShield rider and was taken by road ambulance to the nearest hospital, then moved"
        " to a bigger one. How much will they pay for the ambulance? Would it be more on my company's group"
        " CareShield rider?",
        make_services(),
        **OFFLINE,
    )
    assert [c.citation for c in out.citations][:2] == [f"{INDIVIDUAL} cl. 3.6", f"{GROUP} cl. 3.6"], out.answer
    assert "Rs. 2,000" in out.answer and "Rs. 3,000" in out.answer


def test_will_it_be_paid_asks_whether_a_claim_is_covered_not_who_receives_the_payment(make_services):
    # "be paid" reached claim settlement and cancellation clauses; the gall bladder's waiting period answers
    out = run_graph(
        "I took out my own CareShield rider three weeks ago and now I need my gallbladder out. Will it be paid?",
        make_services(),
        **OFFLINE,
    )
    assert out.citations[0].citation == f"{INDIVIDUAL} cl. 4.2", out.answer
    assert "24 months of continuous coverage" in out.answer.split("[Source")[0]


def test_asked_about_two_named_wordings_each_is_searched_and_answered_even_when_they_say_the_same(make_services):
    """ "his own rider ... his employer's group plan. Would either of them pay?": the group wording crowded the
    individual one out of the candidates and the answer spoke of one (it was refused before "vasectomy" was read as
    sterilisation); now each wording is searched, the same clause of both is quoted, and the No comes first."""
    out = run_graph(
        "My husband wants a vasectomy as a planned day procedure. He has his own CareShield rider and is also on his "
        "employer's group CareShield plan. Would either of them pay for it?",
        make_services(),
        **OFFLINE,
    )
    assert out.answer.startswith("No: CareShield Rider (")
    assert {c.citation for c in out.citations} == {f"{GROUP} cl. 5.14", f"{INDIVIDUAL} cl. 5.14"}, out.answer
    assert any("wordings searched apart" in line for line in out.trace)


def test_antenatal_scans_are_asked_against_the_wording_s_pre_natal_expenses(make_services):
    """ "antenatal scans and check-ups at the clinic" is no word of the wording, which says "pre-natal expenses"
    (covered only during the Hospitalisation, excluded otherwise): it was refused as a benefit the wording lacks."""
    out = run_graph(
        "I'm five months pregnant and past the maternity waiting period on my own CareShield rider. Will it pay for "
        "my antenatal scans and check-ups at the clinic?",
        make_services(),
        **OFFLINE,
    )
    assert out.status == "answered" and "pre-natal" in out.answer.split("[Source")[0], out.answer
    assert out.citations[0].citation.startswith(INDIVIDUAL)


def test_a_benefit_named_with_a_word_no_clause_has_is_absent_even_when_its_last_word_is_there(make_services):
    """ "the air ambulance": the wording covers a road ambulance only; "ambulance" alone found the road ambulance
    clause and quoted its Rs. 3,000 as if it answered. Every word of the benefit named is looked for."""
    out = run_graph(
        "My father lives in a remote hill town. If he has to be airlifted to a city hospital, how much will my "
        "company's CareShield rider pay towards the air ambulance?",
        make_services(),
        **OFFLINE,
    )
    assert out.status == "refused" and "air ambulance" in out.status_detail, out.answer


def test_asked_whether_the_case_is_covered_as_a_defined_term_the_definition_answers(make_services):
    """ "Is he covered as a Member?": the definition of Member (on the employer's rolls, named in the list of Insured
    Persons) decides, though a definition is no clause on cover (it was refused as a benefit the wording lacks)."""
    out = run_graph(
        "A group CareShield claim came in from a security guard at our client's factory who is employed by an outside "
        "staffing agency and is not on the list of insured persons. Is he covered as a Member?",
        make_services(),
        **OFFLINE,
    )
    assert out.status == "answered" and out.citations[0].citation == f"{GROUP} cl. 2.26", out.answer
    assert "named in the list of Insured Persons" in out.answer


def test_who_may_be_insured_is_answered_from_eligibility_with_no_coverage_line(make_services):
    """ "Can I add my father to my cover?" asks who may be insured (cl. 1.3), not what the wording pays for: it was
    refused as a benefit no clause names; and an eligibility clause gets no "Coverage:" line."""
    out = run_graph("Can I add my 72-year-old father to my cover on the group rider?", make_services())
    assert out.status == "answered", out.answer
    assert "80 years" in out.answer.split("[Source")[0] and "Coverage:" not in out.answer, out.answer
    assert out.citations[0].citation == "CareShield Rider (Group) cl. 1.3"


def test_two_sibling_benefits_named_in_one_question_are_both_answered(make_services):
    """ "daily cash in hospital and in ICU": cl. 3.5 (ICU Daily Cash Benefit) leads and cl. 3.4 (Hospital Daily Cash
    Benefit), whose heading differs by the other thing the question names, follows; a sibling not asked does not."""
    out = run_graph(
        "How much daily cash does the individual rider pay in hospital and in the ICU, and for how many days?",
        make_services(),
        **OFFLINE,
    )
    assert "Rs. 2,000 per day" in out.answer and "Rs. 1,000 per day" in out.answer, out.answer
    assert "10 days" in out.answer and "30 days" in out.answer
    assert {f"{INDIVIDUAL} cl. 3.4", f"{INDIVIDUAL} cl. 3.5"} <= {c.citation for c in out.citations}
    only_icu = run_graph("How much ICU daily cash does the individual rider pay?", make_services(), **OFFLINE)
    assert "Rs. 1,000 per day" not in only_icu.answer, only_icu.answer


def test_a_case_the_question_rules_out_does_not_lead_nor_follow(make_services):
    """ "there's been no investigation": cl. 7.6's 15 days to settle answer, not its 45 days "Where the circumstances of
    a claim warrant an investigation"."""
    from generation.compose import _case_denied, _denied

    case = "Where a claim warrants an investigation, the Company shall settle it within 45 days."
    assert _case_denied(_denied("There was no investigation. When do they pay?"), case)
    assert not _case_denied(_denied("When do they pay?"), case)
    out = run_graph(
        "I'm on the individual CareShield rider. I sent my last claim document three weeks ago, there's been no "
        "investigation, and I still haven't been paid. When should they have settled it?",
        make_services(),
        **OFFLINE,
    )
    assert "within 15 days" in out.answer.split("[Source")[0] and "45 days" not in out.answer, out.answer
