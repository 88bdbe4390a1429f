"""The shipped `secondary` collection: commentary documents (rank 4) used as the offline fallback."""

from __future__ import annotations

import pytest

from tests.corpus.conftest import ShippedDocument, assert_valid_document, load_collection

MIN_DOCUMENTS = 15


def test_collection_has_enough_documents(secondary: dict[str, ShippedDocument]) -> None:
    assert len(secondary) >= MIN_DOCUMENTS


@pytest.mark.parametrize("citation", sorted(load_collection("secondary")))
def test_document_is_valid_commentary(secondary: dict[str, ShippedDocument], citation: str) -> None:
    document = secondary[citation]
    assert_valid_document(document)
    assert document.path.suffix == ".txt"
    assert document.sidecar.hierarchy_rank == 4
    assert document.sidecar.document_type == "commentary"
    assert document.sidecar.publisher == "PolicyRAG editorial"
    assert document.sidecar.version == "2026.1"
    assert document.sidecar.effective_from.isoformat() == "2026-11-01"
    assert citation.startswith("Commentary: ")
    assert document.sidecar.jurisdiction in {"EU", "UK", "England"}
    assert document.text.splitlines()[0].startswith("Commentary - ")
    words = len(document.text.split())
    assert 200 <= words <= 450, f"{document.path.name}: {words} words"


# Exact substrings checked against the official texts (GDPR and EHDS paragraphs in
# /work/shared/corpora) or, for UK material, against the cited instrument.
FACTS = [
    ("Commentary: breach notification timeline", "not later than 72 hours after having become aware of it"),
    ("Commentary: breach notification timeline", "GDPR Art. 34(1)"),
    ("Commentary: subject access requests in practice", "within one month of receipt of the request"),
    ("Commentary: subject access requests in practice", "extended by two further months"),
    ("Commentary: subject access requests in practice", "free of charge"),
    ("Commentary: lawful basis for direct care in the UK", "UK GDPR Art. 6(1)(e)"),
    ("Commentary: lawful basis for direct care in the UK", "UK GDPR Art. 9(2)(h)"),
    ("Commentary: DPIA for health data processing", "GDPR Art. 35(3)(b)"),
    ("Commentary: DPIA for health data processing", "GDPR Art. 36(1)"),
    ("Commentary: data protection officer in NHS bodies", "UK GDPR Art. 37(1)(a)"),
    ("Commentary: research use of health data", "GDPR Art. 9(2)(j)"),
    ("Commentary: research use of health data", "GDPR Art. 89(1)"),
    ("Commentary: consent versus other legal bases in health", "GDPR Recital 43"),
    ("Commentary: UK GDPR versus EU GDPR", "Information Commissioner's Office (ICO)"),
    ("Commentary: national data opt-out", "31 July 2022"),
    ("Commentary: national data opt-out", "does not apply to individual care"),
    ("Commentary: break-glass emergency access", "EHDS Art. 11(5)"),
    ("Commentary: EHDS for a hospital DPO", "applies from 26 March 2027"),
    ("Commentary: EHDS for a hospital DPO", "no later than three months from receipt of the request"),
    ("Commentary: EHDS for a hospital DPO", "EHDS Art. 71(1)"),
    ("Commentary: MyHealth@EU patient summary and ePrescription", "EHDS Art. 23(6)"),
    ("Commentary: MyHealth@EU patient summary and ePrescription", "26 March 2029"),
    ("Commentary: Caldicott Guardians", "eight Caldicott principles"),
    ("Commentary: Data Security and Protection Toolkit", "published by 30 June"),
    ("Commentary: Data Security and Protection Toolkit", "ten data security standards"),
    ("Commentary: FHIR UK Core for implementers", "https://fhir.nhs.uk/Id/nhs-number"),
    ("Commentary: international transfers of health data", "GDPR Art. 46(2)(c)"),
    ("Commentary: international transfers of health data", "Implementing Decision (EU) 2021/914"),
    ("Commentary: pseudonymisation versus anonymisation", "GDPR Art. 4(5)"),
    ("Commentary: pseudonymisation versus anonymisation", "GDPR Recital 26"),
]


@pytest.mark.parametrize(("citation", "fact"), FACTS)
def test_document_states_fact(secondary: dict[str, ShippedDocument], citation: str, fact: str) -> None:
    assert citation in secondary, f"missing document {citation}"
    assert fact in secondary[citation].text, f"{citation}: expected {fact!r}"
