"""The shipped `insurance` collection: the two CareShield rider wordings (fictional insurer).

Both variants come from one product family and differ deliberately on the points listed in
DIFFERENCES, so that questions such as "how does the cataract limit differ between the
individual and the group rider?" have one exact clause in each wording.
"""

from __future__ import annotations

import re

import pytest

from tests.corpus.conftest import CORPUS, ShippedDocument, assert_valid_document, load_collection

INDIVIDUAL = "CareShield Rider (Individual)"
GROUP = "CareShield Rider (Group)"
UINS = {INDIVIDUAL: "ASTHLIP26001V012627", GROUP: "ASTHLGP26002V012627"}
VARIANTS = {INDIVIDUAL: "individual", GROUP: "group"}

# A heading line: clause number, then the heading text (the clause text follows on later lines).
_HEADING_RE = re.compile(r"^(\d{1,2}(?:\.\d{1,2}){0,3})\.?\s+(\S.{0,120})$", re.M)

# (section, regex on the heading text); definitions (clauses 2.x) do not count as sections.
REQUIRED_SECTIONS = [
    ("preamble", r"^Preamble\b"),
    ("operative clause", r"^Operative Clause$"),
    ("definitions", r"^Definitions$"),
    ("benefits", r"^Benefits$"),
    ("waiting periods", r"^Waiting Periods$"),
    ("pre-existing disease waiting period", r"^Pre-existing Diseases \(Code - Excl01\)$"),
    ("specified disease waiting period", r"^Specified Disease or Procedure Waiting Period \(Code - Excl02\)$"),
    ("first 30 days waiting period", r"^First 30 Days Waiting Period \(Code - Excl03\)$"),
    ("exclusions", r"^Exclusions$"),
    ("co-payment", r"^Co-payment$"),
    ("room rent", r"^Room Rent Limit$"),
    ("claims procedure", r"^Claims Procedure$"),
    ("grace period", r"Grace Period$"),
    ("free look period", r"^Free Look Period$"),
    ("renewal", r"^Renewal$"),
    ("cancellation", r"^Cancellation$"),
    ("grievance redressal", r"^Grievance Redressal$"),
]

REQUIRED_DEFINITIONS = [
    "Accident",
    "Hospital",
    "Pre-existing Disease",
    "Sum Insured",
    "Co-payment",
    "Grace Period",
    "Free Look Period",
    "Room Rent",
]

# (question topic, exact substring only in the individual wording, exact substring only in the group wording)
DIFFERENCES = [
    ("cataract limit", "25% of Sum Insured up to Rs. 40,000 per eye", "Rs. 60,000 per eye"),
    (
        "cataract limit wording",
        "Expenses for cataract surgery are payable up to 25%",
        "Expenses for cataract surgery are payable as per the Table of Benefits",
    ),
    ("co-payment", "A Co-payment of 20% of every admissible claim", "No Co-payment shall apply to any claim"),
    ("co-payment age trigger", "aged 61 years or above", "irrespective of the Age of the Insured Person"),
    ("room rent", "Room Rent is limited to 1% of the Sum Insured per day", "No limit shall apply to Room Rent"),
    (
        "ICU room limit",
        "2% of the Sum Insured per day",
        "Room Rent and Intensive Care Unit charges are payable as actually charged",
    ),
    (
        "proportionate deduction",
        "Associated Medical Expenses shall be reduced in the same proportion",
        "no proportionate reduction of any other expenses",
    ),
    (
        "pre-existing disease waiting period",
        "until the expiry of 36 months of continuous coverage",
        "The waiting period for Pre-existing Diseases is waived",
    ),
    (
        "specified disease waiting period",
        "until the expiry of 24 months of continuous coverage",
        "until the expiry of 12 months of continuous coverage",
    ),
    ("maternity waiting period", "maternity waiting period of 2 years", "maternity waiting period of 9 months"),
    ("maternity limit", "up to Rs. 30,000 per delivery", "up to Rs. 50,000 per delivery"),
    ("newborn baby", "Expenses of the newborn baby are not covered", "The newborn baby is covered from day one"),
    (
        "free look period",
        "A Free Look Period of 30 days",
        "The Free Look Period is not applicable to this Group Policy",
    ),
    ("hospital daily cash", "Rs. 1,000 per day", "Rs. 1,500 per day"),
    (
        "hospital daily cash maximum days",
        "up to a maximum of 30 days per Policy Year",
        "up to a maximum of 45 days per Policy Year",
    ),
    ("ICU daily cash", "Rs. 2,000 per day", "Rs. 3,000 per day"),
    (
        "ICU daily cash maximum days",
        "up to a maximum of 10 days per Policy Year",
        "up to a maximum of 15 days per Policy Year",
    ),
    ("road ambulance", "up to Rs. 2,000 per hospitalisation", "up to Rs. 3,000 per hospitalisation"),
    ("critical illness survival period", "survival period of 30 days", "survival period of 15 days"),
    ("entry age", "18 years to 65 years", "18 years to 70 years"),
    (
        "renewal",
        "This Rider is renewable lifelong",
        "This Rider is renewable annually along with the Group Base Policy",
    ),
    ("cancellation notice", "by giving 7 days' written notice", "by giving 30 days' written notice"),
    ("UIN", "ASTHLIP26001V012627", "ASTHLGP26002V012627"),
    (
        "table of benefits",
        "Payment is limited to the Sum Insured and is subject to the sub-limits",
        "3.10 Table of Benefits",
    ),
]

# Exact substrings that both wordings share word for word.
SHARED = [
    (
        "initial waiting period",
        "within 30 days from the first commencement date of this Rider shall be excluded, "
        "except claims arising due to an Accident",
    ),
    (
        "emergency notification",
        "within 48 hours of admission or before discharge from the Hospital, whichever is earlier",
    ),
    ("planned notification", "at least 48 hours before admission"),
    ("reimbursement documents", "within 30 days of discharge from the Hospital"),
    (
        "grace period annual",
        "A Grace Period of 30 days is allowed for payment of premium where the premium is payable annually",
    ),
    ("grace period monthly", "a Grace Period of 15 days where the premium is payable monthly"),
    (
        "pre and post hospitalisation",
        "in the 30 days immediately before the date of admission "
        "and in the 60 days immediately after the date of discharge",
    ),
    ("critical illness waiting period", "within 90 days of the first commencement date of the cover under Clause 3.9"),
    ("critical illness lump sum", "100% of the Critical Illness Sum Insured as a lump sum"),
    ("AYUSH", "taken in an AYUSH Hospital for at least 24 consecutive hours, up to the Sum Insured"),
    ("exclusions lead-in", "The Company shall not be liable to make any payment under this Rider"),
    ("moratorium", "After completion of 60 continuous months of coverage under this Rider"),
    ("grievance email", "careshield.care@asterisk-general.example"),
    ("claim settlement", "within 15 days of receipt of the last necessary document"),
]

EXCLUSION_CODES = [f"Excl{n:02d}" for n in range(1, 19)]


@pytest.fixture(scope="module")
def riders() -> dict[str, ShippedDocument]:
    return load_collection("insurance")


def _headings(document: ShippedDocument) -> list[tuple[str, str]]:
    return [(m.group(1), m.group(2).strip()) for m in _HEADING_RE.finditer(document.text)]


def test_both_riders_present(riders: dict[str, ShippedDocument]) -> None:
    assert INDIVIDUAL in riders
    assert GROUP in riders


@pytest.mark.parametrize("citation", [INDIVIDUAL, GROUP])
def test_rider_is_valid(riders: dict[str, ShippedDocument], citation: str) -> None:
    document = riders[citation]
    assert_valid_document(document)
    assert document.path.suffix == ".txt"
    assert document.path.name == f"careshield_rider_{VARIANTS[citation]}.txt"
    sidecar = document.sidecar
    assert sidecar.document_type == "policy_wording"
    assert sidecar.jurisdiction == "IN"
    assert sidecar.hierarchy_rank == 2
    assert sidecar.publisher == "Asterisk General Insurance Ltd"
    assert sidecar.effective_from.isoformat() == "2026-04-01"
    assert str(sidecar.source_url).startswith("https://example.com/asterisk/careshield/")
    assert sidecar.category == "health"
    assert sidecar.provider == "asterisk"
    assert sidecar.product == "careshield"
    assert sidecar.variant == VARIANTS[citation]
    assert sidecar.uin == UINS[citation]
    assert sidecar.version == UINS[citation]
    assert VARIANTS[citation].title() in sidecar.title
    assert "fictional insurer" in document.text
    words = len(document.text.split())
    assert 2500 <= words <= 4500, f"{document.path.name}: {words} words"


@pytest.mark.parametrize("citation", [INDIVIDUAL, GROUP])
@pytest.mark.parametrize(("section", "pattern"), REQUIRED_SECTIONS, ids=[s for s, _ in REQUIRED_SECTIONS])
def test_rider_has_section(riders: dict[str, ShippedDocument], citation: str, section: str, pattern: str) -> None:
    headings = [(number, title) for number, title in _headings(riders[citation]) if not number.startswith("2.")]
    assert any(re.search(pattern, title) for _, title in headings), f"{citation}: no '{section}' heading"


@pytest.mark.parametrize("citation", [INDIVIDUAL, GROUP])
def test_rider_definitions_and_exclusion_codes(riders: dict[str, ShippedDocument], citation: str) -> None:
    document = riders[citation]
    definitions = {title for number, title in _headings(document) if number.startswith("2.")}
    for term in REQUIRED_DEFINITIONS:
        assert term in definitions, f"{citation}: definition '{term}' missing"
    for code in EXCLUSION_CODES:
        assert f"(Code - {code})" in document.text, f"{citation}: {code} missing"


@pytest.mark.parametrize("citation", [INDIVIDUAL, GROUP])
def test_clause_numbers_are_unique(riders: dict[str, ShippedDocument], citation: str) -> None:
    numbers = [number for number, _ in _headings(riders[citation])]
    assert len(numbers) == len(set(numbers)), f"{citation}: duplicate clause numbers"


def test_table_of_benefits_only_in_group(riders: dict[str, ShippedDocument]) -> None:
    assert "Table of Benefits" in riders[GROUP].text
    assert "Table of Benefits" not in riders[INDIVIDUAL].text


@pytest.mark.parametrize(("topic", "individual_fact", "group_fact"), DIFFERENCES, ids=[d[0] for d in DIFFERENCES])
def test_variants_differ(riders: dict[str, ShippedDocument], topic: str, individual_fact: str, group_fact: str) -> None:
    individual, group = riders[INDIVIDUAL].text, riders[GROUP].text
    assert individual_fact in individual, f"{topic}: individual wording lacks {individual_fact!r}"
    assert individual_fact not in group, f"{topic}: group wording also has {individual_fact!r}"
    assert group_fact in group, f"{topic}: group wording lacks {group_fact!r}"
    assert group_fact not in individual, f"{topic}: individual wording also has {group_fact!r}"


@pytest.mark.parametrize(("topic", "fact"), SHARED, ids=[s[0] for s in SHARED])
def test_variants_share(riders: dict[str, ShippedDocument], topic: str, fact: str) -> None:
    assert fact in riders[INDIVIDUAL].text, f"{topic}: individual wording lacks {fact!r}"
    assert fact in riders[GROUP].text, f"{topic}: group wording lacks {fact!r}"


def test_no_readme_in_collection() -> None:
    """A README in the folder would be indexed as a document."""
    assert not any(p.name.lower().startswith("readme") for p in (CORPUS / "insurance").iterdir())
