"""EHDS (Regulation (EU) 2025/327) and HL7 FHIR UK Core documents of the health_governance collection.

Coverage: every EHDS article and FHIR UK Core document written for the collection is present, valid and
carries the right provenance; each EHDS topic area maps to the article that covers it in the final text.
Facts: deadlines, numbers and list items that were checked against the official text (OJ L, 2025/327,
5.3.2025) are present verbatim in the paragraph that states them. When the derived official text is
available locally (POLICYRAG_EHDS_PARAGRAPHS), each fact is checked against it too.
"""

from __future__ import annotations

import json
import os
import re
from datetime import date
from pathlib import Path

import pytest

from tests.corpus.conftest import ShippedDocument, assert_valid_document

EHDS_SOURCE_URL = "https://eur-lex.europa.eu/eli/reg/2025/327/oj"
# Published in the OJ on 5.3.2025; Article 105: in force on the twentieth day following publication.
EHDS_ENTRY_INTO_FORCE = date(2025, 3, 25)

# Article number -> (official title, numbered paragraphs, points incl. sub-points), from the official text.
EHDS_ARTICLES: dict[int, tuple[str, int, int]] = {
    3: ("Right of natural persons to access their personal electronic health data", 3, 0),
    4: ("Electronic health data access services for natural persons and their representatives", 5, 2),
    5: ("Right of natural persons to insert information in their own EHR", 0, 0),
    6: ("Right of natural persons to rectification", 0, 0),
    7: ("Right to data portability for natural persons", 4, 0),
    8: ("Right to restrict access", 0, 0),
    9: ("Right to obtain information on accessing data", 3, 3),
    10: ("Right of natural persons to opt out in primary use", 2, 0),
    14: ("Priority categories of personal electronic health data for primary use", 2, 8),
    23: ("MyHealth@EU", 9, 0),
    51: ("Minimum categories of electronic health data for secondary use", 4, 17),
    53: ("Purposes for which electronic health data can be processed for secondary use", 2, 8),
    54: ("Prohibited secondary use", 0, 5),
    55: ("Health data access bodies", 6, 3),
    57: ("Tasks of health data access bodies", 4, 25),
    67: ("Health data access applications", 5, 11),
    68: ("Data permit", 14, 18),
    71: ("Right to opt out from the processing of personal electronic health data for secondary use", 8, 5),
    73: ("Secure processing environment", 5, 6),
}

# Topic area of the brief -> (citation of the article covering it, keyword expected in the sidecar title).
EHDS_TOPICS: dict[str, tuple[str, str]] = {
    "a_right_of_access": ("EHDS Art. 3", "access their personal electronic health data"),
    "a_access_and_proxy_services": ("EHDS Art. 4", "Electronic health data access services"),
    "a_insert_information": ("EHDS Art. 5", "insert information"),
    "a_rectification": ("EHDS Art. 6", "rectification"),
    "a_data_portability": ("EHDS Art. 7", "data portability"),
    "a_restrict_access": ("EHDS Art. 8", "restrict access"),
    "a_information_on_access": ("EHDS Art. 9", "information on accessing data"),
    "a_opt_out_primary_use": ("EHDS Art. 10", "opt out in primary use"),
    "b_myhealth_at_eu": ("EHDS Art. 23", "MyHealth@EU"),
    "c_minimum_categories_secondary_use": ("EHDS Art. 51", "Minimum categories"),
    "c_purposes_secondary_use": ("EHDS Art. 53", "Purposes for which electronic health data can be processed"),
    "c_prohibited_secondary_use": ("EHDS Art. 54", "Prohibited secondary use"),
    "d_health_data_access_bodies": ("EHDS Art. 55", "Health data access bodies"),
    "d_tasks_of_health_data_access_bodies": ("EHDS Art. 57", "Tasks of health data access bodies"),
    "e_data_access_application": ("EHDS Art. 67", "Health data access applications"),
    "e_data_permit": ("EHDS Art. 68", "Data permit"),
    "f_opt_out_secondary_use": ("EHDS Art. 71", "opt out from the processing"),
    "g_secure_processing_environment": ("EHDS Art. 73", "Secure processing environment"),
    "h_priority_categories_primary_use": ("EHDS Art. 14", "Priority categories"),
}

# FHIR UK Core documents: citation -> (file stem, version, effective_from, source_url).
_SD = "https://fhir.hl7.org.uk/StructureDefinition/"
FHIR_DOCUMENTS: dict[str, tuple[str, str, date, str]] = {
    "FHIR UK Core Overview": (
        "fhir_ukcore_overview",
        "UKCore.R4.STU.02.00.00 2.0.0",
        date(2025, 6, 20),
        "https://simplifier.net/hl7fhirukcorer4",
    ),
    "FHIR UK Core Terminology": (
        "fhir_ukcore_terminology",
        "UKCore.R4.STU.02.00.00 2.0.0",
        date(2025, 6, 20),
        "https://simplifier.net/hl7fhirukcorer4",
    ),
    "FHIR UK Core UKCore-Patient": (
        "fhir_ukcore_patient",
        "UKCore-Patient 2.6.1",
        date(2024, 7, 23),
        _SD + "UKCore-Patient",
    ),
    "FHIR UK Core NHS Number identifier": (
        "fhir_ukcore_nhs_number",
        "UKCore-Patient 2.6.1",
        date(2024, 7, 23),
        _SD + "UKCore-Patient",
    ),
    "FHIR UK Core UKCore-Condition": (
        "fhir_ukcore_condition",
        "UKCore-Condition 2.6.0",
        date(2024, 6, 7),
        _SD + "UKCore-Condition",
    ),
    "FHIR UK Core UKCore-AllergyIntolerance": (
        "fhir_ukcore_allergyintolerance",
        "UKCore-AllergyIntolerance 2.5.0",
        date(2024, 7, 11),
        _SD + "UKCore-AllergyIntolerance",
    ),
    "FHIR UK Core UKCore-MedicationRequest": (
        "fhir_ukcore_medicationrequest",
        "UKCore-MedicationRequest 2.5.0",
        date(2024, 7, 11),
        _SD + "UKCore-MedicationRequest",
    ),
    "FHIR UK Core UKCore-Encounter": (
        "fhir_ukcore_encounter",
        "UKCore-Encounter 2.5.0",
        date(2023, 12, 12),
        _SD + "UKCore-Encounter",
    ),
}

# (document citation, official paragraph citation, exact substring), each checked against the official text.
EHDS_FACTS: list[tuple[str, str, str]] = [
    ("EHDS Art. 3", "EHDS Art. 3(1)", "free of charge and in an easily readable, consolidated and accessible format"),
    ("EHDS Art. 7", "EHDS Art. 7(3)", "one-way only"),
    ("EHDS Art. 9", "EHDS Art. 9(2)", "at least three years from each date"),
    ("EHDS Art. 9", "EHDS Art. 9(2)", "the date and time of access"),
    ("EHDS Art. 14", "EHDS Art. 14(1)", "(c) electronic dispensations"),
    ("EHDS Art. 14", "EHDS Art. 14(1)", "(f) discharge reports"),
    ("EHDS Art. 23", "EHDS Art. 23(2)", "26 March 2027"),
    ("EHDS Art. 23", "EHDS Art. 23(7)", "The Commission shall act as processor."),
    ("EHDS Art. 51", "EHDS Art. 51(1)", "human genetic, epigenomic and genomic data"),
    ("EHDS Art. 51", "EHDS Art. 51(1)", "data from wellness applications"),
    ("EHDS Art. 53", "EHDS Art. 53(1)", "training, testing and evaluation of algorithms"),
    (
        "EHDS Art. 53",
        "EHDS Art. 53(1)",
        "education or teaching activities in health or care sectors at vocational or higher education level",
    ),
    ("EHDS Art. 54", "EHDS Art. 54", "carrying out advertising or marketing activities"),
    ("EHDS Art. 54", "EHDS Art. 54", "insurance or credit contract"),
    ("EHDS Art. 54", "EHDS Art. 54", "illicit drugs, alcoholic beverages, tobacco and nicotine products, weaponry"),
    ("EHDS Art. 54", "EHDS Art. 54", "ethical provisions laid down in national law"),
    ("EHDS Art. 55", "EHDS Art. 55(6)", "paragraph 1 by 26 March 2027"),
    ("EHDS Art. 57", "EHDS Art. 57(1)", "within 30 working days of the issuance, approval or refusal"),
    (
        "EHDS Art. 68",
        "EHDS Art. 68(4)",
        "issue or refuse a data permit within three months of receiving a complete health data access application",
    ),
    ("EHDS Art. 68", "EHDS Art. 68(4)", "by three additional months"),
    ("EHDS Art. 68", "EHDS Art. 68(4)", "within four weeks"),
    ("EHDS Art. 68", "EHDS Art. 68(6)", "within two months of receiving a complete health data access application"),
    ("EHDS Art. 68", "EHDS Art. 68(6)", "by one additional month"),
    ("EHDS Art. 68", "EHDS Art. 68(7)", "within two months of receiving them from the health data holders"),
    ("EHDS Art. 68", "EHDS Art. 68(12)", "shall not exceed 10 years"),
    ("EHDS Art. 68", "EHDS Art. 68(12)", "deleted within six months of the expiry of the data permit"),
    ("EHDS Art. 71", "EHDS Art. 71(1)", "at any time"),
    ("EHDS Art. 71", "EHDS Art. 71(1)", "that right shall be reversible"),
    ("EHDS Art. 71", "EHDS Art. 71(4)", "scientific research for important reasons of public interest"),
    ("EHDS Art. 73", "EHDS Art. 73(1)", "logs of access shall be kept for at least one year"),
    ("EHDS Art. 73", "EHDS Art. 73(5)", "By 26 March 2027"),
]

# (document citation, exact substring), checked against the UK Core StructureDefinitions and IG pages.
FHIR_FACTS: list[tuple[str, str]] = [
    ("FHIR UK Core UKCore-Patient", "https://fhir.nhs.uk/Id/nhs-number"),
    ("FHIR UK Core NHS Number identifier", "https://fhir.nhs.uk/Id/nhs-number"),
    ("FHIR UK Core NHS Number identifier", "https://fhir.hl7.org.uk/ValueSet/UKCore-NHSNumberVerificationStatus"),
    (
        "FHIR UK Core NHS Number identifier",
        "in England and Wales, Patient.identifier SHOULD include the patient's NHS number",
    ),
    ("FHIR UK Core Overview", "v4.0.1"),
    ("FHIR UK Core Overview", "published by HL7 UK"),
    ("FHIR UK Core Terminology", "http://snomed.info/sct"),
    ("FHIR UK Core UKCore-AllergyIntolerance", "716186003"),
    ("FHIR UK Core UKCore-MedicationRequest", "Where a dm+d code exists it SHALL be used"),
    ("FHIR UK Core UKCore-Encounter", "AMB (ambulatory)"),
]

_NUMBERED = re.compile(r"^(\d+)\. ", re.MULTILINE)
_POINT = re.compile(r"^\((?:[a-z]|[ivx]+)\) ", re.MULTILINE)


def _ehds_citation(number: int) -> str:
    return f"EHDS Art. {number}"


def _article_body(text: str) -> str:
    """The provision itself: without the heading, the Annex I summary and the Article 105 sentence."""
    body = text.split("\n", 1)[1]
    for marker in ("\nAnnex I (summary)", "\nApplication dates are staggered"):
        body = body.split(marker, 1)[0]
    return body


def _paragraph(text: str, number: int) -> str:
    """Paragraph `number` of an article document: from its `N.` line up to the next numbered paragraph."""
    body = _article_body(text)
    match = re.search(rf"(?ms)^{number}\. .*?(?=^\d+\. |\Z)", body)
    assert match, f"paragraph {number} not found"
    return match.group(0)


def _fact_id(fact: tuple[str, ...]) -> str:
    return f"{fact[1] if len(fact) == 3 else fact[0]}: {fact[-1][:40]}"


# --- coverage -------------------------------------------------------------------------------------


@pytest.mark.parametrize("number", sorted(EHDS_ARTICLES), ids=lambda n: f"EHDS Art. {n}")
def test_ehds_article_present_and_valid(health_governance: dict[str, ShippedDocument], number: int) -> None:
    citation = _ehds_citation(number)
    assert citation in health_governance, f"{citation} missing"
    doc = health_governance[citation]
    assert_valid_document(doc)
    title = EHDS_ARTICLES[number][0]
    meta = doc.sidecar
    assert doc.path.name == f"ehds_art_{number:03d}.txt"
    assert meta.title == f"EHDS Article {number} - {title}"
    assert doc.text.splitlines()[0] == f"Article {number} - {title}"
    assert meta.hierarchy_rank == 1
    assert meta.instrument == "EHDS"
    assert meta.document_type == "primary_law"
    assert meta.publisher == "EUR-Lex"
    assert meta.jurisdiction == "EU"
    assert meta.version == "2025/327"
    assert meta.effective_from == EHDS_ENTRY_INTO_FORCE
    assert str(meta.source_url) == EHDS_SOURCE_URL
    assert "staggered under Article 105" in doc.text.splitlines()[-1]


@pytest.mark.parametrize("number", sorted(EHDS_ARTICLES), ids=lambda n: f"EHDS Art. {n}")
def test_ehds_article_keeps_every_paragraph_and_point(
    health_governance: dict[str, ShippedDocument], number: int
) -> None:
    _, paragraphs, points = EHDS_ARTICLES[number]
    body = _article_body(health_governance[_ehds_citation(number)].text)
    numbers = [int(n) for n in _NUMBERED.findall(body)]
    assert numbers == list(range(1, paragraphs + 1))
    assert len(_POINT.findall(body)) == points


@pytest.mark.parametrize("topic", sorted(EHDS_TOPICS))
def test_ehds_topic_area_is_covered(health_governance: dict[str, ShippedDocument], topic: str) -> None:
    citation, keyword = EHDS_TOPICS[topic]
    assert citation in health_governance, f"{topic}: {citation} missing"
    assert keyword in health_governance[citation].sidecar.title


def test_ehds_topic_map_uses_every_article() -> None:
    assert {citation for citation, _ in EHDS_TOPICS.values()} == {_ehds_citation(n) for n in EHDS_ARTICLES}


@pytest.mark.parametrize("citation", sorted(FHIR_DOCUMENTS))
def test_fhir_uk_core_document_present_and_valid(health_governance: dict[str, ShippedDocument], citation: str) -> None:
    assert citation in health_governance, f"{citation} missing"
    doc = health_governance[citation]
    assert_valid_document(doc)
    stem, version, effective_from, source_url = FHIR_DOCUMENTS[citation]
    meta = doc.sidecar
    assert doc.path.name == f"{stem}.txt"
    assert meta.title.startswith(citation)
    assert meta.hierarchy_rank == 3
    assert meta.instrument == "FHIR UK Core"
    assert meta.document_type == "technical_standard"
    assert meta.publisher == "HL7 UK"
    assert meta.jurisdiction == "UK"
    assert meta.version == version
    assert meta.effective_from == effective_from
    assert str(meta.source_url) == source_url


def test_no_unexpected_ehds_or_fhir_documents(health_governance: dict[str, ShippedDocument]) -> None:
    ours = {c for c, d in health_governance.items() if d.path.name.startswith(("ehds_art_", "fhir_ukcore_"))}
    assert ours == {_ehds_citation(n) for n in EHDS_ARTICLES} | set(FHIR_DOCUMENTS)


# --- facts ----------------------------------------------------------------------------------------


@pytest.mark.parametrize("fact", EHDS_FACTS, ids=_fact_id)
def test_ehds_fact_in_its_paragraph(health_governance: dict[str, ShippedDocument], fact: tuple[str, str, str]) -> None:
    citation, paragraph_citation, text = fact
    document = health_governance[citation].text
    match = re.search(r"\((\d+)\)$", paragraph_citation)
    where = _paragraph(document, int(match.group(1))) if match else _article_body(document)
    assert text in where, f"{text!r} not in {paragraph_citation}"


def _official_paragraphs() -> dict[str, str] | None:
    path = Path(os.environ.get("POLICYRAG_EHDS_PARAGRAPHS", "/work/shared/corpora/ehds/ehds_2025_327_paragraphs.jsonl"))
    if not path.is_file():
        return None
    rows = (json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line.strip())
    return {row["citation"]: row["text"] for row in rows if row.get("kind") == "article_paragraph"}


@pytest.mark.parametrize("fact", EHDS_FACTS, ids=_fact_id)
def test_ehds_fact_matches_official_text(fact: tuple[str, str, str]) -> None:
    official = _official_paragraphs()
    if official is None:
        pytest.skip("official EHDS paragraphs not available locally")
    _, paragraph_citation, text = fact
    assert text in official[paragraph_citation]


@pytest.mark.parametrize("fact", FHIR_FACTS, ids=_fact_id)
def test_fhir_uk_core_fact(health_governance: dict[str, ShippedDocument], fact: tuple[str, str]) -> None:
    citation, text = fact
    assert text in health_governance[citation].text
