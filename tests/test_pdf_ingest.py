"""PDFs in any collection: policy-wording detection, short-title citations with clause and page, passwords.

The wordings here are built in the test with pypdf (a fictional "Sunrise Health Shield" policy and a short
guidance note), so every expected clause and page is known; the real insurer PDFs in ../shared are read
only, and their tests skip cleanly when ../shared is absent.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from pypdf import PdfReader, PdfWriter
from pypdf.generic import DictionaryObject, NameObject, StreamObject

from ingest.detection import DETECTION_THRESHOLD, POLICY_WORDING
from ingest.loaders import load_document
from ingest.loaders.pdf import load_pdf
from ingest.units import LoaderError
from retrieval.resources import Resources
from tests.conftest import ingest_into, shared_path

HEADER = "Sunrise Health Shield Policy UIN: SUNHLIP26001V012627"
WORDING = [
    [
        HEADER,
        "1. PREAMBLE",
        "This policy is a contract between the Policyholder and the insurer.",
        "The Insured Person is covered for Hospitalization during the Policy Period up to the Sum Insured.",
        "2. DEFINITIONS",
        "2.1 Accident means a sudden, unforeseen and involuntary event caused by external means.",
        "2.2 Grace Period means thirty days after the due date of the premium.",
        "2.3 Hospital means an institution registered for in-patient care.",
        "2.4 Sum Insured means the amount stated in the policy schedule.",
        "3. BENEFITS",
        "3.1 In-patient Hospitalization",
        "We will indemnify medical expenses for Hospitalization of at least 24 hours.",
        "3.2 Pre-hospitalization expenses",
        "We will pay expenses incurred in the 30 days before admission.",
        "3.3 Cataract Treatment",
        "Cataract treatment is covered up to 25% of the Sum Insured per eye.",
        "Page 1 of 3",
    ],
    [
        HEADER,
        "4. WAITING PERIODS",
        "4.1 Pre-Existing Diseases",
        "Expenses of a pre-existing disease are excluded until 36 months of continuous coverage.",
        "4.2 Specified disease waiting period",
        "Expenses of joint replacement, hernia and cataract are excluded until 24 months of continuous coverage.",
        "4.3 Initial waiting period",
        "Claims in the first 30 days are not payable except for an Accident.",
        "5. EXCLUSIONS",
        "5.1 Cosmetic Surgery",
        "Cosmetic or plastic surgery is not covered.",
        "5.2 Dental Treatment",
        "Dental treatment is excluded unless necessitated by an Accident.",
        "Page 2 of 3",
    ],
    [
        HEADER,
        "6. CLAIMS PROCEDURE",
        "6.1 Cashless claims",
        "Cashless facility is available at network hospitals.",
        "6.2 Reimbursement claims",
        "Documents must be submitted within 30 days of discharge.",
        "7. RENEWAL",
        "7.1 Renewal of the policy",
        "The policy is renewable for life subject to payment of the premium within the Grace Period.",
        "7.2 Free look period",
        "The Policyholder may return the policy within 15 days of receiving it.",
        "Page 3 of 3",
    ],
]
GUIDANCE = [
    ["Keeping records for the right time", "Organisations should keep personal data no longer than needed."],
    ["RETENTION SCHEDULES", "A retention schedule lists each kind of record and how long it is kept."],
]


def text_pdf(path: Path, pages: list[list[str]], title: str | None = None, password: str | None = None) -> Path:
    """A PDF with one line of Helvetica text per entry (pypdf only); encrypted when asked: with an owner password
    alone (`password=""`, it opens without one) or with a user password too."""
    writer = PdfWriter()
    font = writer._add_object(
        DictionaryObject(
            {
                NameObject("/Type"): NameObject("/Font"),
                NameObject("/Subtype"): NameObject("/Type1"),
                NameObject("/BaseFont"): NameObject("/Helvetica"),
            }
        )
    )
    for lines in pages:
        page = writer.add_blank_page(612, 792)
        page[NameObject("/Resources")] = DictionaryObject(
            {NameObject("/Font"): DictionaryObject({NameObject("/F1"): font})}
        )
        escaped = (line.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)") for line in lines)
        content = StreamObject()
        content.set_data(
            "\n".join(["BT", "/F1 9 Tf", "12 TL", "40 760 Td", *(f"({line}) Tj T*" for line in escaped), "ET"]).encode(
                "latin-1"
            )
        )
        page[NameObject("/Contents")] = writer._add_object(content)
    if title:
        writer.add_metadata({"/Title": title})
    if password is not None:
        writer.encrypt(user_password=password, owner_password="owner-secret", algorithm="AES-128")
    with path.open("wb") as out:
        writer.write(out)
    return path


@pytest.fixture
def resources(settings, embedder):
    made = Resources(settings, embedder=embedder)
    yield made
    made.close()


def ingested(resources: Resources, paths: list[Path], collection: str, expect_detected: list[str]) -> list[dict]:
    """Ingest into the named collection; the report lists the documents read as policy wordings."""
    report = ingest_into(resources, paths, collection=collection)
    assert not report.failed, report.failed
    assert [name for name, _ in report.detected] == expect_detected
    return sorted(resources.reader.store().payloads(), key=lambda p: (p["doc_id"], p["position"]))


# --------------------------------------------------------------------------- detection and citations


def test_a_policy_pdf_in_a_collection_of_any_name_is_cited_by_short_title_clause_and_page(tmp_path, resources):
    pdf = text_pdf(tmp_path / "SHS_wording_v3_final.pdf", WORDING, title="SHS wording v3 (2).cdr")
    payloads = ingested(resources, [pdf], "my_documents", ["my_documents/SHS_wording_v3_final"])
    citations = [p["citation"] for p in payloads]
    assert "Sunrise Health Shield Policy cl. 4.2, p. 2" in citations
    assert "Sunrise Health Shield Policy cl. 3.3, p. 1" in citations
    assert "Sunrise Health Shield Policy cl. 7.2, p. 3" in citations
    assert not [c for c in citations if "SHS" in c or "wording" in c.lower()]  # not the file stem, not the .cdr
    clause = next(p for p in payloads if p["citation"].startswith("Sunrise Health Shield Policy cl. 4.2"))
    assert clause["collection"] == "my_documents"
    assert clause["document_type"] == POLICY_WORDING and clause["section_key"] == "waiting_period"
    assert clause["detected_type"] == POLICY_WORDING
    assert DETECTION_THRESHOLD <= clause["detection_confidence"] <= 1.0
    assert clause["page"] == 2 and clause["clause_id"] == "4.2"


def test_a_pdf_that_is_not_a_wording_keeps_a_page_citation_under_its_title(tmp_path, resources):
    pdf = text_pdf(tmp_path / "doc_0042.pdf", GUIDANCE, title="Data Retention Guidance Note")
    payloads = ingested(resources, [pdf], "notes", [])
    assert {p["detected_type"] for p in payloads} == {""}
    assert all(p["detection_confidence"] < DETECTION_THRESHOLD for p in payloads)
    assert {p["document_type"] for p in payloads} == {"commentary"}
    assert [p["citation"] for p in payloads][:1] == ["Data Retention Guidance Note, p. 1"]
    second = [p for p in payloads if "retention schedule" in p["text"]]
    assert [p["citation"] for p in second] == ["Data Retention Guidance Note, p. 2"]


def test_the_users_document_type_wins_over_the_detection(tmp_path):
    pdf = text_pdf(tmp_path / "wording.pdf", WORDING)
    document = load_document(pdf, tmp_path, {"document_type": "commentary"})
    assert document.metadata["document_type"] == "commentary"
    assert document.metadata["detected_type"] == POLICY_WORDING  # recorded all the same
    assert not [u for u in document.units if " cl. " in u.citation]


@pytest.mark.slow
def test_a_real_wording_ingested_into_a_collection_named_by_the_user_gets_clause_and_page_citations(
    tmp_path, resources
):
    pdf = shared_path("corpora", "insurance", "pdf", "Arogya_Sanjeevani_Policy_-_CIN_-_U10200WB1906GOI001713_1.pdf")
    payloads = ingested(
        resources, [pdf], "my_wordings", ["my_wordings/Arogya_Sanjeevani_Policy_-_CIN_-_U10200WB1906GOI001713_1"]
    )
    assert {p["detected_type"] for p in payloads} == {POLICY_WORDING}
    cataract = [p for p in payloads if p["citation"].startswith("Arogya Sanjeevani Policy cl. 4.3, p. ")]
    assert cataract and cataract[0]["text"].startswith("4.3. Cataract Treatment")
    assert cataract[0]["citation"] == f"Arogya Sanjeevani Policy cl. 4.3, p. {cataract[0]['page']}"
    assert not [p["citation"] for p in payloads if "CIN" in p["citation"] or "_" in p["citation"]]


# --------------------------------------------------------------------------- passwords


def test_a_pdf_with_only_an_owner_password_is_read(tmp_path):
    pdf = text_pdf(tmp_path / "locked_for_editing.pdf", WORDING, password="")
    assert PdfReader(pdf).is_encrypted
    metadata, lines = load_pdf(pdf)
    assert metadata["citation"] == "Sunrise Health Shield Policy"
    assert ("4.2 Specified disease waiting period", 2) in lines


def test_a_pdf_that_needs_a_password_is_refused_with_a_message_naming_it(tmp_path, resources):
    pdf = text_pdf(tmp_path / "private.pdf", WORDING, password="user-secret")
    with pytest.raises(LoaderError, match=r"private\.pdf: the PDF needs a password to open"):
        load_pdf(pdf)
    report = ingest_into(resources, [pdf], collection="private")
    assert [Path(path).name for path, _ in report.failed] == ["private.pdf"] and not report.added
    assert "needs a password" in report.failed[0][1]


def test_the_real_care_supreme_wording_decrypts_with_an_empty_password(tmp_path):
    pdf = shared_path("corpora", "insurance", "pdf", "policy-care-plan-supreme.pdf")
    assert PdfReader(pdf).is_encrypted
    metadata, lines = load_pdf(pdf)
    assert max(page for _, page in lines) == 45
    assert len({page for _, page in lines}) >= 40  # text on the pages, not just opened
    assert "cdr" not in metadata.get("citation", "").lower()
