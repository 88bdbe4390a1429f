"""GDPR Articles 2-9 and 12-22 in the health_governance collection: coverage, structure and key facts.

The facts below were checked against the official text (Regulation (EU) 2016/679 as corrected in 2018):
each substring appears in that text at the given place and must survive in the project's paraphrase.
"""

from __future__ import annotations

import re
from datetime import date

import pytest

from tests.corpus.conftest import ShippedDocument, assert_valid_document

ARTICLE_9_PARTS = ["9(1)", *[f"9(2)({point})" for point in "abcdefghij"], "9(3)", "9(4)"]
ARTICLES = ["2", "3", "4", "5", "6", "7", "8", *ARTICLE_9_PARTS, *[str(n) for n in range(12, 23)]]
CITATIONS = [f"GDPR Art. {article}" for article in ARTICLES]

# Numbered paragraphs and, for each, the labels of its points, as in the official text.
# Articles 4, 16 and 19 have no numbered paragraphs; the Article 9 parts are single provisions.
STRUCTURE: dict[str, dict[int, str]] = {
    "GDPR Art. 2": {1: "", 2: "abcd", 3: "", 4: ""},
    "GDPR Art. 3": {1: "", 2: "ab", 3: ""},
    "GDPR Art. 5": {1: "abcdef", 2: ""},
    "GDPR Art. 6": {1: "abcdef", 2: "", 3: "ab", 4: "abcde"},
    "GDPR Art. 7": {1: "", 2: "", 3: "", 4: ""},
    "GDPR Art. 8": {1: "", 2: "", 3: ""},
    "GDPR Art. 12": {1: "", 2: "", 3: "", 4: "", 5: "ab", 6: "", 7: "", 8: ""},
    "GDPR Art. 13": {1: "abcdef", 2: "abcdef", 3: "", 4: ""},
    "GDPR Art. 14": {1: "abcdef", 2: "abcdefg", 3: "abc", 4: "", 5: "abcd"},
    "GDPR Art. 15": {1: "abcdefgh", 2: "", 3: "", 4: ""},
    "GDPR Art. 17": {1: "abcdef", 2: "", 3: "abcde"},
    "GDPR Art. 18": {1: "abcd", 2: "", 3: ""},
    "GDPR Art. 20": {1: "ab", 2: "", 3: "", 4: ""},
    "GDPR Art. 21": {1: "", 2: "", 3: "", 4: "", 5: "", 6: ""},
    "GDPR Art. 22": {1: "", 2: "abc", 3: "", 4: ""},
}
UNNUMBERED = ["GDPR Art. 4", "GDPR Art. 16", "GDPR Art. 19", *[f"GDPR Art. {part}" for part in ARTICLE_9_PARTS]]

PARAGRAPH_LINE = re.compile(r"^(\d+)\. ", re.MULTILINE)
POINT_LINE = re.compile(r"^\(([a-z])\) ", re.MULTILINE)
DEFINITION_LINE = re.compile(r"^\((\d+)\) ", re.MULTILINE)


def body(document: ShippedDocument) -> str:
    """The text after the heading line."""
    return document.text.split("\n", 1)[1]


def paragraphs(document: ShippedDocument) -> dict[int, str]:
    """Numbered paragraph -> its text (up to the next numbered paragraph)."""
    text = body(document)
    starts = list(PARAGRAPH_LINE.finditer(text))
    return {
        int(match.group(1)): text[match.start() : starts[i + 1].start() if i + 1 < len(starts) else len(text)]
        for i, match in enumerate(starts)
    }


def points(text: str) -> dict[str, str]:
    """Point label -> its line."""
    return {match.group(1): text[match.start() :].split("\n", 1)[0] for match in POINT_LINE.finditer(text)}


def definitions(document: ShippedDocument) -> dict[int, str]:
    """Article 4: definition number -> its text (including its points)."""
    text = body(document)
    starts = list(DEFINITION_LINE.finditer(text))
    return {
        int(match.group(1)): text[match.start() : starts[i + 1].start() if i + 1 < len(starts) else len(text)]
        for i, match in enumerate(starts)
    }


def locate(document: ShippedDocument, where: str | None) -> str:
    """The part of a document a fact must appear in: None (whole text), "3", "2(b)" or, for Article 4, "(15)"."""
    if where is None:
        return document.text
    definition = re.fullmatch(r"\((\d+)\)", where)
    if definition:
        return definitions(document)[int(definition.group(1))]
    match = re.fullmatch(r"(\d+)(?:\(([a-z])\))?", where)
    assert match, f"bad locator {where}"
    paragraph = paragraphs(document)[int(match.group(1))]
    return points(paragraph)[match.group(2)] if match.group(2) else paragraph


# --- coverage -----------------------------------------------------------------------------------


def test_citation_list_is_complete() -> None:
    assert len(CITATIONS) == 31
    assert len(set(CITATIONS)) == 31


@pytest.mark.parametrize("citation", CITATIONS)
def test_document_present_and_valid(health_governance: dict[str, ShippedDocument], citation: str) -> None:
    assert citation in health_governance, f"missing {citation}"
    document = health_governance[citation]
    assert_valid_document(document)
    sidecar = document.sidecar
    assert sidecar.hierarchy_rank == 1
    assert sidecar.instrument == "GDPR"
    assert sidecar.publisher == "EUR-Lex"
    assert sidecar.jurisdiction == "EU"
    assert sidecar.document_type == "primary_law"
    assert sidecar.version == "2016/679"
    assert sidecar.effective_from == date(2018, 5, 25)
    assert str(sidecar.source_url) == "https://eur-lex.europa.eu/eli/reg/2016/679/oj"
    assert document.path.suffix == ".txt"
    assert document.path.name.startswith("gdpr_art_")


@pytest.mark.parametrize("citation", CITATIONS)
def test_heading_and_title_match_citation(health_governance: dict[str, ShippedDocument], citation: str) -> None:
    document = health_governance[citation]
    provision = citation.removeprefix("GDPR Art. ")
    heading = document.text.split("\n", 1)[0]
    assert heading.startswith(f"Article {provision} - "), heading
    assert document.sidecar.title.startswith(f"GDPR Article {provision} - "), document.sidecar.title


@pytest.mark.parametrize("citation", sorted(STRUCTURE))
def test_paragraph_and_point_numbering(health_governance: dict[str, ShippedDocument], citation: str) -> None:
    document = health_governance[citation]
    numbers = [int(n) for n in PARAGRAPH_LINE.findall(body(document))]
    expected = STRUCTURE[citation]
    assert numbers == sorted(expected), f"{citation}: paragraphs {numbers}, expected 1-{max(expected)}"
    for number, text in paragraphs(document).items():
        assert "".join(points(text)) == expected[number], f"{citation}({number}): wrong points"


@pytest.mark.parametrize("citation", UNNUMBERED)
def test_unnumbered_provisions_have_no_paragraph_numbers(
    health_governance: dict[str, ShippedDocument], citation: str
) -> None:
    document = health_governance[citation]
    assert not PARAGRAPH_LINE.search(body(document))
    if citation.startswith("GDPR Art. 9"):
        # a single provision: no point lines either, so chunk citations stay on the document citation
        assert not POINT_LINE.search(body(document))


def test_article_4_has_26_definitions_in_order(health_governance: dict[str, ShippedDocument]) -> None:
    document = health_governance["GDPR Art. 4"]
    assert list(definitions(document)) == list(range(1, 27))
    defs = definitions(document)
    assert "".join(points(defs[16])) == "ab"
    assert "".join(points(defs[22])) == "abc"
    assert "".join(points(defs[23])) == "ab"


@pytest.mark.parametrize("point", list("abcdefghij"))
def test_article_9_2_documents_start_with_chapeau(health_governance: dict[str, ShippedDocument], point: str) -> None:
    document = health_governance[f"GDPR Art. 9(2)({point})"]
    assert body(document).strip().startswith("Paragraph 1 ")
    assert "shall not apply if" in body(document).split("\n", 2)[1]


# --- key facts ----------------------------------------------------------------------------------

# (citation, where, substring): where is None (whole document), "N" (paragraph N), "N(x)" (point x of
# paragraph N) or "(N)" (Article 4 definition N).
FACTS: list[tuple[str, str | None, str]] = [
    ("GDPR Art. 2", "1", "filing system"),
    ("GDPR Art. 2", "2(b)", "Chapter 2 of Title V of the TEU"),
    ("GDPR Art. 2", "2(c)", "purely personal or household activity"),
    ("GDPR Art. 2", "3", "Regulation (EC) No 45/2001"),
    ("GDPR Art. 2", "3", "Article 98"),
    ("GDPR Art. 2", "4", "Directive 2000/31/EC"),
    ("GDPR Art. 2", "4", "Articles 12 to 15"),
    ("GDPR Art. 3", "1", "establishment of a controller or a processor in the Union"),
    ("GDPR Art. 3", "2(a)", "irrespective of whether a payment of the data subject is required"),
    ("GDPR Art. 3", "2(b)", "monitoring of their behaviour"),
    ("GDPR Art. 3", "3", "public international law"),
    ("GDPR Art. 4", "(1)", "online identifier"),
    ("GDPR Art. 4", "(4)", "‘profiling’"),
    ("GDPR Art. 4", "(5)", "‘pseudonymisation’"),
    ("GDPR Art. 4", "(5)", "kept separately"),
    ("GDPR Art. 4", "(7)", "alone or jointly with others"),
    ("GDPR Art. 4", "(8)", "on behalf of the controller"),
    ("GDPR Art. 4", "(11)", "freely given, specific, informed and unambiguous"),
    ("GDPR Art. 4", "(12)", "‘personal data breach’"),
    ("GDPR Art. 4", "(13)", "‘genetic data’"),
    ("GDPR Art. 4", "(14)", "dactyloscopic data"),
    ("GDPR Art. 4", "(15)", "‘data concerning health’"),
    ("GDPR Art. 4", "(15)", "including the provision of health care services"),
    ("GDPR Art. 4", "(17)", "Article 27"),
    ("GDPR Art. 4", "(21)", "Article 51"),
    ("GDPR Art. 4", "(25)", "Directive (EU) 2015/1535"),
    ("GDPR Art. 5", "1(a)", "lawfulness, fairness and transparency"),
    ("GDPR Art. 5", "1(b)", "purpose limitation"),
    ("GDPR Art. 5", "1(b)", "Article 89(1)"),
    ("GDPR Art. 5", "1(c)", "data minimisation"),
    ("GDPR Art. 5", "1(d)", "without delay"),
    ("GDPR Art. 5", "1(e)", "storage limitation"),
    ("GDPR Art. 5", "1(f)", "integrity and confidentiality"),
    ("GDPR Art. 5", "2", "accountability"),
    ("GDPR Art. 6", "1(a)", "one or more specific purposes"),
    ("GDPR Art. 6", "1(d)", "vital interests"),
    ("GDPR Art. 6", "1(f)", "legitimate interests"),
    ("GDPR Art. 6", "1(f)", "where the data subject is a child"),
    ("GDPR Art. 6", "1", "public authorities in the performance of their tasks"),
    ("GDPR Art. 6", "2", "Chapter IX"),
    ("GDPR Art. 6", "4", "Article 23(1)"),
    ("GDPR Art. 6", "4(c)", "Article 10"),
    ("GDPR Art. 6", "4(e)", "encryption or pseudonymisation"),
    ("GDPR Art. 7", "2", "clearly distinguishable"),
    ("GDPR Art. 7", "3", "at any time"),
    ("GDPR Art. 7", "3", "as easy to withdraw as to give consent"),
    ("GDPR Art. 7", "4", "utmost account"),
    ("GDPR Art. 8", "1", "16 years"),
    ("GDPR Art. 8", "1", "13 years"),
    ("GDPR Art. 8", "1", "point (a) of Article 6(1)"),
    ("GDPR Art. 8", "1", "holder of parental responsibility"),
    ("GDPR Art. 8", "2", "available technology"),
    ("GDPR Art. 8", "3", "general contract law"),
    ("GDPR Art. 9(1)", None, "racial or ethnic origin"),
    ("GDPR Art. 9(1)", None, "trade union membership"),
    ("GDPR Art. 9(1)", None, "for the purpose of uniquely identifying a natural person"),
    ("GDPR Art. 9(1)", None, "data concerning health"),
    ("GDPR Art. 9(1)", None, "sexual orientation"),
    ("GDPR Art. 9(2)(a)", None, "explicit consent"),
    ("GDPR Art. 9(2)(b)", None, "collective agreement"),
    ("GDPR Art. 9(2)(c)", None, "physically or legally incapable of giving consent"),
    ("GDPR Art. 9(2)(d)", None, "not-for-profit body"),
    ("GDPR Art. 9(2)(d)", None, "former members"),
    ("GDPR Art. 9(2)(e)", None, "manifestly made public"),
    ("GDPR Art. 9(2)(f)", None, "judicial capacity"),
    ("GDPR Art. 9(2)(g)", None, "substantial public interest"),
    ("GDPR Art. 9(2)(h)", None, "preventive or occupational medicine"),
    ("GDPR Art. 9(2)(h)", None, "working capacity of the employee"),
    ("GDPR Art. 9(2)(h)", None, "contract with a health professional"),
    ("GDPR Art. 9(2)(h)", None, "paragraph 3"),
    ("GDPR Art. 9(2)(i)", None, "serious cross-border threats to health"),
    ("GDPR Art. 9(2)(i)", None, "medicinal products or medical devices"),
    ("GDPR Art. 9(2)(i)", None, "professional secrecy"),
    ("GDPR Art. 9(2)(j)", None, "Article 89(1)"),
    ("GDPR Art. 9(3)", None, "point (h) of paragraph 2"),
    ("GDPR Art. 9(3)", None, "professional secrecy"),
    ("GDPR Art. 9(3)", None, "national competent bodies"),
    ("GDPR Art. 9(4)", None, "further conditions, including limitations"),
    ("GDPR Art. 9(4)", None, "genetic data, biometric data or data concerning health"),
    ("GDPR Art. 12", "1", "concise, transparent, intelligible and easily accessible form"),
    ("GDPR Art. 12", "1", "Articles 15 to 22 and 34"),
    ("GDPR Art. 12", "2", "Article 11(2)"),
    ("GDPR Art. 12", "3", "without undue delay"),
    ("GDPR Art. 12", "3", "one month"),
    ("GDPR Art. 12", "3", "two further months"),
    ("GDPR Art. 12", "4", "one month"),
    ("GDPR Art. 12", "4", "judicial remedy"),
    ("GDPR Art. 12", "5", "free of charge"),
    ("GDPR Art. 12", "5", "manifestly unfounded or excessive"),
    ("GDPR Art. 12", "5(a)", "reasonable fee"),
    ("GDPR Art. 12", "6", "Articles 15 to 21"),
    ("GDPR Art. 12", "7", "machine-readable"),
    ("GDPR Art. 12", "8", "Article 92"),
    ("GDPR Art. 13", "1", "at the time when personal data are obtained"),
    ("GDPR Art. 13", "1(d)", "point (f) of Article 6(1)"),
    ("GDPR Art. 13", "1(f)", "Article 46 or 47"),
    ("GDPR Art. 13", "1(f)", "second subparagraph of Article 49(1)"),
    ("GDPR Art. 13", "2(b)", "data portability"),
    ("GDPR Art. 13", "2(c)", "point (a) of Article 9(2)"),
    ("GDPR Art. 13", "2(f)", "Article 22(1) and (4)"),
    ("GDPR Art. 13", "4", "already has the information"),
    ("GDPR Art. 14", "2(f)", "publicly accessible sources"),
    ("GDPR Art. 14", "3(a)", "one month"),
    ("GDPR Art. 14", "3(b)", "first communication"),
    ("GDPR Art. 14", "5(b)", "disproportionate effort"),
    ("GDPR Art. 14", "5(b)", "Article 89(1)"),
    ("GDPR Art. 14", "5(d)", "professional secrecy"),
    ("GDPR Art. 15", "1(h)", "meaningful information about the logic involved"),
    ("GDPR Art. 15", "2", "Article 46"),
    ("GDPR Art. 15", "3", "copy of the personal data undergoing processing"),
    ("GDPR Art. 15", "3", "reasonable fee based on administrative costs"),
    ("GDPR Art. 15", "3", "commonly used electronic form"),
    ("GDPR Art. 15", "4", "rights and freedoms of others"),
    ("GDPR Art. 16", None, "without undue delay"),
    ("GDPR Art. 16", None, "supplementary statement"),
    ("GDPR Art. 17", "1", "without undue delay"),
    ("GDPR Art. 17", "1(b)", "point (a) of Article 9(2)"),
    ("GDPR Art. 17", "1(c)", "Article 21(1)"),
    ("GDPR Art. 17", "1(c)", "Article 21(2)"),
    ("GDPR Art. 17", "1(f)", "Article 8(1)"),
    ("GDPR Art. 17", "2", "available technology and the cost of implementation"),
    ("GDPR Art. 17", "3(a)", "freedom of expression and information"),
    ("GDPR Art. 17", "3(c)", "points (h) and (i) of Article 9(2)"),
    ("GDPR Art. 17", "3(c)", "Article 9(3)"),
    ("GDPR Art. 17", "3(d)", "Article 89(1)"),
    ("GDPR Art. 17", "3(e)", "legal claims"),
    ("GDPR Art. 18", "1(a)", "accuracy of the personal data"),
    ("GDPR Art. 18", "1(d)", "Article 21(1)"),
    ("GDPR Art. 18", "2", "with the exception of storage"),
    ("GDPR Art. 18", "2", "important public interest"),
    ("GDPR Art. 18", "3", "before the restriction of processing is lifted"),
    ("GDPR Art. 19", None, "Article 16, Article 17(1) and Article 18"),
    ("GDPR Art. 19", None, "each recipient"),
    ("GDPR Art. 19", None, "disproportionate effort"),
    ("GDPR Art. 20", "1", "structured, commonly used and machine-readable format"),
    ("GDPR Art. 20", "1(a)", "point (b) of Article 6(1)"),
    ("GDPR Art. 20", "1(b)", "automated means"),
    ("GDPR Art. 20", "2", "technically feasible"),
    ("GDPR Art. 20", "3", "without prejudice to Article 17"),
    ("GDPR Art. 21", "1", "point (e) or (f) of Article 6(1)"),
    ("GDPR Art. 21", "1", "compelling legitimate grounds"),
    ("GDPR Art. 21", "2", "direct marketing"),
    ("GDPR Art. 21", "4", "first communication"),
    ("GDPR Art. 21", "5", "Directive 2002/58/EC"),
    ("GDPR Art. 21", "6", "Article 89(1)"),
    ("GDPR Art. 22", "1", "solely on automated processing"),
    ("GDPR Art. 22", "1", "legal effects"),
    ("GDPR Art. 22", "2(c)", "explicit consent"),
    ("GDPR Art. 22", "3", "points (a) and (c) of paragraph 2"),
    ("GDPR Art. 22", "3", "human intervention"),
    ("GDPR Art. 22", "4", "Article 9(1)"),
    ("GDPR Art. 22", "4", "point (a) or (g) of Article 9(2)"),
]


def _fact_id(fact: tuple[str, str | None, str]) -> str:
    """E.g. "Art.13(2)(b): data portability", "Art.4(15): ...", "Art.9(2)(h): ..."."""
    citation, where, substring = fact
    place = citation.removeprefix("GDPR ").replace(" ", "")
    if where:
        place += where if where.startswith("(") else re.sub(r"^(\d+)", r"(\1)", where)
    return f"{place}: {substring.strip('‘’')}"


def test_facts_cover_at_least_22_provisions() -> None:
    assert len({citation for citation, _, _ in FACTS}) >= 22
    assert {citation for citation, _, _ in FACTS} <= set(CITATIONS)


@pytest.mark.parametrize("fact", FACTS, ids=[_fact_id(fact) for fact in FACTS])
def test_key_fact(health_governance: dict[str, ShippedDocument], fact: tuple[str, str | None, str]) -> None:
    citation, where, substring = fact
    text = locate(health_governance[citation], where)
    assert substring in text.replace("\n", " "), f"{citation} {where or ''}: {substring!r} not found"
