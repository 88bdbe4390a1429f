"""Shipped health_governance corpus: GDPR Articles 25-89 (selected), Caldicott Principles, NDG standards.

GDPR facts were checked against the official text (Regulation (EU) 2016/679, consolidated with the 2018
corrigendum); each fact is located at the paragraph or point where the official text puts it.
"""

from __future__ import annotations

import re

import pytest

from tests.corpus.conftest import ShippedDocument, assert_valid_document

# Article number -> number of numbered paragraphs in the official text (0: one unnumbered paragraph).
GDPR_PARAGRAPH_COUNTS = {
    25: 3,
    28: 10,
    30: 5,
    32: 4,
    33: 5,
    34: 4,
    35: 11,
    36: 5,
    37: 7,
    44: 0,
    45: 9,
    46: 5,
    83: 9,
    89: 4,
}
GDPR_TITLES = {
    25: "Data protection by design and by default",
    28: "Processor",
    30: "Records of processing activities",
    32: "Security of processing",
    33: "Notification of a personal data breach to the supervisory authority",
    34: "Communication of a personal data breach to the data subject",
    35: "Data protection impact assessment",
    36: "Prior consultation",
    37: "Designation of the data protection officer",
    44: "General principle for transfers",
    45: "Transfers on the basis of an adequacy decision",
    46: "Transfers subject to appropriate safeguards",
    83: "General conditions for imposing administrative fines",
    89: "Safeguards and derogations relating to processing for archiving purposes in the public interest, "
    "scientific or historical research purposes or statistical purposes",
}
GDPR_CITATIONS = [f"GDPR Art. {n}" for n in GDPR_PARAGRAPH_COUNTS]
CALDICOTT_CITATIONS = [f"Caldicott Principle {n}" for n in range(1, 9)]
NDG_CITATIONS = [f"NDG Data Security Standard {n}" for n in range(1, 11)]

# citation -> (hierarchy_rank, instrument, document_type, jurisdiction)
EXPECTED_META = {
    **{c: (1, "GDPR", "primary_law", "EU") for c in GDPR_CITATIONS},
    **{c: (2, "Caldicott", "regulator_guidance", "UK") for c in CALDICOTT_CITATIONS},
    **{c: (2, "NDG", "regulator_guidance", "England") for c in NDG_CITATIONS},
}

PARAGRAPH_LINE = re.compile(r"^(\d+)\. ", re.MULTILINE)
POINT_LINE = re.compile(r"^\(([a-z]+)\) ", re.MULTILINE)


def paragraphs(text: str) -> dict[str, str]:
    """Numbered paragraphs of a document: '1' -> text up to the next numbered paragraph."""
    starts = list(PARAGRAPH_LINE.finditer(text))
    return {
        m.group(1): text[m.end() : starts[i + 1].start() if i + 1 < len(starts) else len(text)].strip()
        for i, m in enumerate(starts)
    }


def locate(document: ShippedDocument, locator: str | None) -> str:
    """The text at a locator: '1' (paragraph 1), '3(b)' (paragraph 3, point (b)); None for the whole text."""
    if locator is None:
        return document.text
    m = re.fullmatch(r"(\d+)(?:\(([a-z]+)\))?", locator)
    assert m, f"bad locator {locator}"
    paragraph = paragraphs(document.text).get(m.group(1))
    assert paragraph is not None, f"{document.sidecar.citation}: no paragraph {m.group(1)}"
    if m.group(2) is None:
        return paragraph
    points = list(POINT_LINE.finditer(paragraph))
    for i, p in enumerate(points):
        if p.group(1) == m.group(2):
            end = points[i + 1].start() if i + 1 < len(points) else len(paragraph)
            return paragraph[p.end() : end].strip()
    raise AssertionError(f"{document.sidecar.citation}: no point ({m.group(2)}) in paragraph {m.group(1)}")


# --- (1) coverage -------------------------------------------------------------------------------


@pytest.mark.parametrize("citation", GDPR_CITATIONS + CALDICOTT_CITATIONS + NDG_CITATIONS)
def test_document_present_and_valid(health_governance: dict[str, ShippedDocument], citation: str) -> None:
    assert citation in health_governance, f"missing {citation}"
    document = health_governance[citation]
    assert_valid_document(document)
    rank, instrument, document_type, jurisdiction = EXPECTED_META[citation]
    assert document.sidecar.hierarchy_rank == rank
    assert document.sidecar.instrument == instrument
    assert document.sidecar.document_type == document_type
    assert document.sidecar.jurisdiction == jurisdiction
    assert document.sidecar.title.startswith(citation.replace("GDPR Art.", "GDPR Article") + " - ")


@pytest.mark.parametrize("article", sorted(GDPR_PARAGRAPH_COUNTS))
def test_gdpr_heading_and_paragraph_count(health_governance: dict[str, ShippedDocument], article: int) -> None:
    document = health_governance[f"GDPR Art. {article}"]
    assert document.text.splitlines()[0] == f"Article {article} - {GDPR_TITLES[article]}"
    assert document.sidecar.title == f"GDPR Article {article} - {GDPR_TITLES[article]}"
    numbers = PARAGRAPH_LINE.findall(document.text)
    assert numbers == [str(n) for n in range(1, GDPR_PARAGRAPH_COUNTS[article] + 1)]


@pytest.mark.parametrize(
    ("article", "paragraph", "labels"),
    [
        (28, "3", "abcdefgh"),
        (30, "1", "abcdefg"),
        (30, "2", "abcd"),
        (32, "1", "abcd"),
        (33, "3", "abcd"),
        (34, "3", "abc"),
        (35, "3", "abc"),
        (35, "7", "abcd"),
        (36, "3", "abcdef"),
        (37, "1", "abc"),
        (45, "2", "abc"),
        (46, "2", "abcdef"),
        (46, "3", "ab"),
        (83, "2", "abcdefghijk"),
        (83, "4", "abc"),
        (83, "5", "abcde"),
    ],
)
def test_gdpr_points(health_governance: dict[str, ShippedDocument], article: int, paragraph: str, labels: str) -> None:
    text = paragraphs(health_governance[f"GDPR Art. {article}"].text)[paragraph]
    assert POINT_LINE.findall(text) == list(labels)


@pytest.mark.parametrize("citation", CALDICOTT_CITATIONS)
def test_caldicott_scope_is_england(health_governance: dict[str, ShippedDocument], citation: str) -> None:
    text = health_governance[citation].text
    assert text.startswith(citation + " - ")
    assert "health and adult social care in England" in text


@pytest.mark.parametrize(
    ("standard", "obligation"),
    [(n, "People") for n in (1, 2, 3)]
    + [(n, "Process") for n in (4, 5, 6, 7)]
    + [(n, "Technology") for n in (8, 9, 10)],
)
def test_ndg_leadership_obligation(
    health_governance: dict[str, ShippedDocument], standard: int, obligation: str
) -> None:
    text = health_governance[f"NDG Data Security Standard {standard}"].text
    assert text.startswith(f"NDG Data Security Standard {standard} - ")
    number = {"People": 1, "Process": 2, "Technology": 3}[obligation]
    assert f"Leadership obligation {number} - {obligation}:" in text
    assert "Data Security and Protection Toolkit (DSPT)" in text


# --- (2) facts ----------------------------------------------------------------------------------

FACTS = [
    # GDPR: (citation, paragraph or paragraph(point), exact substring), checked against the official text
    ("GDPR Art. 25", "2", "by default"),
    ("GDPR Art. 25", "3", "Article 42"),
    ("GDPR Art. 28", "3(a)", "documented instructions"),
    ("GDPR Art. 28", "3(f)", "Articles 32 to 36"),
    ("GDPR Art. 28", "10", "Articles 82, 83 and 84"),
    ("GDPR Art. 30", "5", "fewer than 250 persons"),
    ("GDPR Art. 30", "5", "Article 9(1)"),
    ("GDPR Art. 32", "1(a)", "pseudonymisation and encryption"),
    ("GDPR Art. 33", "1", "72 hours"),
    ("GDPR Art. 33", "1", "Article 55"),
    ("GDPR Art. 33", "2", "without undue delay"),
    ("GDPR Art. 34", "1", "high risk"),
    ("GDPR Art. 34", "2", "points (b), (c) and (d) of Article 33(3)"),
    ("GDPR Art. 34", "3(a)", "encryption"),
    ("GDPR Art. 34", "3(c)", "disproportionate effort"),
    ("GDPR Art. 35", "3(b)", "special categories of data referred to in Article 9(1)"),
    ("GDPR Art. 35", "3(c)", "publicly accessible area on a large scale"),
    ("GDPR Art. 35", "4", "Article 68"),
    ("GDPR Art. 35", "10", "point (c) or (e) of Article 6(1)"),
    ("GDPR Art. 36", "2", "eight weeks"),
    ("GDPR Art. 36", "2", "six weeks"),
    ("GDPR Art. 36", "2", "one month"),
    ("GDPR Art. 37", "1(a)", "courts acting in their judicial capacity"),
    ("GDPR Art. 37", "1(b)", "regular and systematic monitoring of data subjects on a large scale"),
    ("GDPR Art. 37", "1(c)", "large scale"),
    ("GDPR Art. 44", None, "onward transfers"),
    ("GDPR Art. 45", "1", "adequate level of protection"),
    ("GDPR Art. 45", "3", "at least every four years"),
    ("GDPR Art. 45", "3", "Article 93(2)"),
    ("GDPR Art. 46", "1", "Article 45(3)"),
    ("GDPR Art. 46", "2(b)", "binding corporate rules in accordance with Article 47"),
    ("GDPR Art. 83", "4", "10 000 000 EUR"),
    ("GDPR Art. 83", "4", "2 %"),
    ("GDPR Art. 83", "4(a)", "Articles 8, 11, 25 to 39 and 42 and 43"),
    ("GDPR Art. 83", "5", "20 000 000 EUR"),
    ("GDPR Art. 83", "5", "4 %"),
    ("GDPR Art. 83", "5", "whichever is higher"),
    ("GDPR Art. 83", "5(b)", "Articles 12 to 22"),
    ("GDPR Art. 83", "5(c)", "Articles 44 to 49"),
    ("GDPR Art. 83", "6", "20 000 000 EUR"),
    ("GDPR Art. 83", "9", "25 May 2018"),
    ("GDPR Art. 89", "2", "Articles 15, 16, 18 and 21"),
    ("GDPR Art. 89", "3", "Articles 15, 16, 18, 19, 20 and 21"),
    # Caldicott Principles (National Data Guardian, December 2020)
    ("Caldicott Principle 1", None, "appropriate guardian"),
    ("Caldicott Principle 3", None, "minimum amount of confidential information"),
    ("Caldicott Principle 4", None, "strict need-to-know basis"),
    ("Caldicott Principle 6", None, "common law"),
    (
        "Caldicott Principle 7",
        None,
        "duty to share information for individual care is as important as the duty to protect patient confidentiality",
    ),
    ("Caldicott Principle 7", None, "2013"),
    ("Caldicott Principle 8", None, "no surprises"),
    ("Caldicott Principle 8", None, "December 2020"),
    # NDG data security standards (2016 review)
    ("NDG Data Security Standard 1", None, "handled, stored and transmitted securely"),
    ("NDG Data Security Standard 3", None, "annual data security training"),
    ("NDG Data Security Standard 3", None, "mandatory test"),
    ("NDG Data Security Standard 4", None, "attributed to individuals"),
    ("NDG Data Security Standard 5", None, "reviewed at least annually"),
    ("NDG Data Security Standard 6", None, "CareCERT"),
    ("NDG Data Security Standard 7", None, "at least once a year"),
    ("NDG Data Security Standard 8", None, "unsupported operating systems, software or internet browsers"),
    ("NDG Data Security Standard 9", None, "Cyber Essentials"),
    ("NDG Data Security Standard 10", None, "held accountable via contracts"),
]


def fact_locator_id(locator: str | None) -> str:
    """'3(b)' -> '(3)(b)', '1' -> '(1)', None -> ''."""
    if locator is None:
        return ""
    paragraph, _, point = locator.partition("(")
    return f"({paragraph})" + (f"({point}" if point else "")


@pytest.mark.parametrize(
    ("citation", "locator", "fact"),
    FACTS,
    ids=[f"{c}{fact_locator_id(loc)}: {f}" for c, loc, f in FACTS],
)
def test_fact(health_governance: dict[str, ShippedDocument], citation: str, locator: str | None, fact: str) -> None:
    assert fact in locate(health_governance[citation], locator)


@pytest.mark.parametrize(
    ("locator", "wrong"),
    [("4", "20 000 000"), ("4", "4 %"), ("5", "10 000 000"), ("5", "2 %")],
)
def test_gdpr_83_fine_tiers_not_mixed(health_governance: dict[str, ShippedDocument], locator: str, wrong: str) -> None:
    assert wrong not in locate(health_governance["GDPR Art. 83"], locator)
