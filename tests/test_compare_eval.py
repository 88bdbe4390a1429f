"""The compare section of `policyrag eval`: matching expected points to table rows, agreement with the side answers
and value recall on hand-made records, the runner's section, and one real run on a shipped-rider case."""

from __future__ import annotations

from typing import Any

from core.schemas import ClauseValues, ComparePoint, CompareRecord, CompareSide
from core.types import Citation, Evidence
from evals import compare_eval, report, runner
from evals.compare_eval import (
    CompareCase,
    ExpectedPoint,
    heading_ids,
    match,
    normalise_value,
    row_agrees,
    same_clause,
    score_case,
    summary,
    value_found,
)

DOC_A, DOC_B = "Acme (Individual)", "Acme (Group)"


def clause(side: str, number: str, name: str, values: list[str] | None = None, page: int | None = None) -> ClauseValues:
    document = DOC_A if side == "a" else DOC_B
    citation = f"{document} cl. {number}" + (f", p. {page}" if page else "")
    return ClauseValues(
        citation=citation, document=document, chunk_id=f"{side}-{number}", benefit_name=name, values=values or []
    )


def point(name: str, verdict: str, a: ClauseValues | None = None, b: ClauseValues | None = None) -> ComparePoint:
    return ComparePoint(point=name, verdict=verdict, a=a, b=b)  # type: ignore[arg-type]


def expected(topic: str, verdict: str, a_clause: str = "", b_clause: str = "", **values: Any) -> ExpectedPoint:
    return ExpectedPoint(
        topic, verdict, tuple(values.get("a_values", ())), tuple(values.get("b_values", ())), a_clause, b_clause
    )


def side(name: str, cited: list[ClauseValues], answer: str = "An answer [Source 1].", status: str = "answered"):
    """A side answer citing these clauses; its evidence holds them with their benefit names."""
    return CompareSide(
        side=name,  # type: ignore[arg-type]
        label=name,
        answer=answer,
        status=status,  # type: ignore[arg-type]
        citations=[
            Citation(source=i + 1, citation=c.citation, document=c.document, chunk_id=c.chunk_id)
            for i, c in enumerate(cited)
        ],
        evidence=[
            Evidence(
                chunk_id=c.chunk_id,
                text=c.text,
                citation=c.citation,
                document=c.document,
                metadata={"benefit_name": c.benefit_name},
            )
            for c in cited
        ],
    )


SETTLEMENT_A, SETTLEMENT_B = clause("a", "7.6", "Settlement of Claims"), clause("b", "7.6", "Settlement of Claims")
COPAY_A, COPAY_B = clause("a", "6.1", "Co-payment", ["20%"]), clause("b", "6.1", "Co-payment")
DAY_CARE_A, DAY_CARE_B = clause("a", "3.3", "Day Care Treatment"), clause("b", "3.3", "Day Care Treatment")


def test_clause_numbers_of_expected_headings_and_of_citations():
    assert heading_ids("3.3 Day Care Treatment; 3.10 Table of Benefits") == {"3.3", "3.10"}
    assert heading_ids("Section B-1.1 Hospitalization Expenses (a)") == {"b-1.1"}
    assert heading_ids("VII.A.3 Claim Settlement (i)") == {"vii.a.3"}
    assert heading_ids("Table of Benefits") == set() and heading_ids("") == set()
    assert compare_eval.clause_id(clause("a", "4.2", "AYUSH", page=5)) == "4.2"  # the page is not the clause
    assert compare_eval.clause_id(ClauseValues(citation="Policy, p. 4", document="Policy", chunk_id="x")) is None
    assert same_clause("9.1.2", {"9.1"}) and same_clause("9.1", {"9.1"})
    assert not same_clause("9.1", {"9.1.2"}) and not same_clause("9.10", {"9.1"}) and not same_clause(None, {"9.1"})


def test_an_expected_point_is_matched_to_the_row_about_it():
    rows = [
        point("Co-payment", "different", COPAY_A, COPAY_B),
        point("Settlement of Claims", "same", SETTLEMENT_A, SETTLEMENT_B),
    ]
    payee = expected("claim payee", "different", "7.6 Settlement of Claims", "7.6 Settlement of Claims")
    assert match(payee, rows) is rows[1]
    copay = expected("age-based co-payment", "only_a", "9.3 Co-payment")
    assert match(copay, rows) is rows[0]  # by its name: the clause number differs
    # A row named only "clause" (a PDF without benefit names) is still found by the clause numbers its citations
    # share with the expected headings, side by side: 4.3 on side a, not on side b.
    unnamed = point("clause", "different", clause("a", "4.3", ""), clause("b", "1.1", ""))
    cataract = expected("cataract limit", "different", "4.3 Cataract Treatment", "3.1.1.2 Limit for Cataract Surgery")
    assert match(cataract, [*rows, unnamed]) is unnamed
    assert match(expected("cataract limit", "different", "1.1 Cataract", ""), [unnamed]) is None  # 1.1 is b's
    assert match(expected("maternity", "only_b", "", "3.7 Maternity"), rows) is None  # nothing in common
    generic = expected("benefit limit", "same")  # generic words alone match nothing
    assert match(generic, [point("Limit of Benefit", "same", clause("a", "2", "Limit"), None)]) is None


def test_the_better_match_wins_and_a_tie_goes_to_the_earlier_row():
    waiting = expected("pre-existing disease waiting period", "same", "4.1 Pre-Existing Diseases", "4.1 PED")
    definition = point("Pre-existing Disease", "same", clause("a", "2.36", "Pre-existing Disease"), None)
    numbered = point("Waiting Periods", "different", clause("a", "4.1", "Waiting Periods"), clause("b", "4.1", ""))
    assert match(waiting, [definition, numbered]) is numbered  # two clause numbers outweigh three shared words
    twin = point("Pre-existing Disease", "same", clause("a", "9.9", "Pre-existing Disease"), None)
    assert match(waiting, [definition, twin]) is definition


def test_a_row_agrees_when_its_clauses_are_the_ones_the_answers_cite():
    record = CompareRecord(sides=[side("a", [SETTLEMENT_A]), side("b", [SETTLEMENT_B, DAY_CARE_B])])
    assert row_agrees(point("Settlement of Claims", "same", SETTLEMENT_A, SETTLEMENT_B), record)
    assert not row_agrees(point("Co-payment", "different", COPAY_A, COPAY_B), record)  # neither answer cites 6.1
    assert not row_agrees(point("Settlement", "same", SETTLEMENT_A, COPAY_B), record)  # b's clause is not cited
    # "Day Care Treatment" listed as only in b although a's answer cites a day care clause: contradicted.
    both = CompareRecord(sides=[side("a", [DAY_CARE_A]), side("b", [DAY_CARE_B])])
    assert not row_agrees(point("Day Care Treatment", "only_b", None, DAY_CARE_B), both)
    assert row_agrees(point("Day Care Treatment", "only_b", None, DAY_CARE_B), record)  # a cites no day care
    refused = CompareRecord(sides=[side("a", [SETTLEMENT_A], status="refused"), side("b", [SETTLEMENT_B])])
    assert not row_agrees(point("Settlement of Claims", "same", SETTLEMENT_A, SETTLEMENT_B), refused)
    by_citation = side("a", [SETTLEMENT_A])  # an answer whose citations carry no chunk id: matched by citation
    by_citation.citations[0].chunk_id = ""
    assert row_agrees(point("Settlement", "only_a", SETTLEMENT_A), CompareRecord(sides=[by_citation]))


def test_a_one_sided_row_agrees_with_an_other_side_that_says_the_point_is_not_covered():
    maternity_a, maternity_b = clause("a", "3.7", "Maternity Benefit"), clause("b", "3.7", "Maternity Benefit")
    excludes = side("a", [maternity_a])
    row = point("Maternity Benefit", "only_b", maternity_a, maternity_b)
    assert not row_agrees(row, CompareRecord(sides=[excludes, side("b", [maternity_b])]))  # a's answer covers it
    excludes.coverage_type = "not_covered"  # "Expenses of the newborn baby are not covered" [Source 1]
    assert row_agrees(row, CompareRecord(sides=[excludes, side("b", [maternity_b])]))


def test_values_are_compared_on_their_quantities_normalised():
    assert normalise_value("Thirty six (36) months") == "36 months" and normalise_value("₹40,000") == "rs 40000"
    assert normalise_value("twenty-four hours, 5 per cent") == "24 hours, 5%"
    assert value_found("INR 40,000 per eye", ["Rs. 40,000"]) and value_found("seventy two hours", ["72 hours"])
    assert value_found("36 (thirty six) months", ["36 months"]) and value_found("max. of 5 days", ["5 days"])
    assert value_found("Policyholder", ["paid to the policyholder [Source 1]"])
    assert not value_found("5%", ["15%"]) and not value_found("INR 500", ["Rs. 5,000"])
    assert not value_found("one year", ["12 months"]) and not value_found("", ["anything"])
    assert not value_found("15% of SI, INR 60,000", ["15%"])  # every quantity of the value


def test_the_metrics_on_hand_made_records():
    a_answer = "Payment is made to the Policyholder within 15 days [Source 1]."
    record = CompareRecord(
        sides=[side("a", [SETTLEMENT_A], a_answer), side("b", [SETTLEMENT_B])],
        points=[
            point(
                "Settlement of Claims", "same", clause("a", "7.6", "Settlement of Claims", ["15 days"]), SETTLEMENT_B
            ),
            point("Co-payment", "different", COPAY_A, COPAY_B),
        ],
    )
    case = CompareCase(
        "c1",
        "dev",
        "Who is paid?",
        "a",
        "b",
        False,
        (
            expected(
                "claim payee",
                "different",
                "7.6 Settlement of Claims",
                "7.6 Settlement of Claims",
                a_values=["Policyholder", "15 days"],
                b_values=["Member"],
            ),
            expected("co-payment", "different", "6.1 Co-payment", "6.1 Co-payment", a_values=["20%"]),
            expected("maternity", "only_b", "", "3.7 Maternity", b_values=["Rs. 50,000"]),
        ),
    )
    scored = score_case(case, record)
    assert scored.verdicts == [False, True, False]  # same where different expected; right; no maternity row
    assert scored.agreeing == [True, False]  # neither answer cites the co-payment clauses
    assert scored.values == [True, True, False, True, False]  # answer text, row values, absent, row values, absent
    assert scored.both_answered
    failed = score_case(CompareCase("c2", "heldout", "q", "a", "b", True, case.expect[:1]), None, "not indexed")
    figures = summary([scored, failed])
    assert figures["cases"] == 2 and figures["points"] == 4 and figures["point_verdict_accuracy"] == 0.25
    assert figures["points_unmatched"] == 2 and figures["table_rows"] == 2 and figures["agreement"] == 0.5
    assert figures["both_answered"] == 0.5 and figures["value_recall"] == round(3 / 8, 3) and figures["errors"] == 1
    assert figures["cases_fully_agreeing"] == 0.0
    assert set(compare_eval.row(failed)) == {
        "id",
        "split",
        "verdicts",
        "rows_agreeing",
        "both_answered",
        "values_found",
    }
    shown = compare_eval.row(scored)
    assert shown["matched"] == ["Settlement of Claims: same", "Co-payment: different", None]
    assert shown["table"][1].endswith("DISAGREES") and not shown["table"][0].endswith("DISAGREES")


def test_the_golden_cases_read_and_name_their_pdfs():
    cases = compare_eval.cases()
    assert len(cases) == 41 and {c.split for c in cases} == {"dev", "heldout"}
    shipped = [c for c in cases if not c.real_pdf]
    assert len(shipped) == 11 and {c.collection for c in shipped} == {compare_eval.SHIPPED_COLLECTION}
    paths = compare_eval.pdf_paths(cases)
    assert len(paths) == len(set(paths)) and all(p.suffix == ".pdf" and p.parent == compare_eval.PDFS for p in paths)
    assert compare_eval.pdf_paths(shipped) == []


class Borrowed:
    """The session's shipped index lent to the runner's section, which closes what it opened."""

    def __init__(self, resources):
        self.resources = resources
        self.settings = resources.settings

    def __getattr__(self, name: str):
        return getattr(self.resources, name)

    def close(self) -> None:
        pass


def test_the_section_skips_the_real_pdfs_without_shared_and_runs_a_shipped_case(shipped, tmp_path, monkeypatch):
    opened: list[str] = []

    def index(name, paths, base, collection=None, defaults=None):
        opened.append(name)
        return Borrowed(shipped)

    chosen = [c for c in compare_eval.cases() if c.id in {"kp-011", "kp-013"}]  # a shipped-rider case, a real PDF's
    monkeypatch.setattr(compare_eval, "PDFS", tmp_path / "absent")
    monkeypatch.setattr(compare_eval, "cases", lambda: chosen)
    monkeypatch.setattr(runner, "index", index)
    results: dict[str, Any] = {"skipped": []}
    runner.compare_mode(shipped.settings, results)
    assert opened == ["shipped"] and results["skipped"][0].startswith("compare ")
    block = results["compare"]
    assert [r["id"] for r in block["rows"]] == ["kp-011"] and set(block["groups"]) == {"all", "shipped riders"}
    dev = block["groups"]["shipped riders"]["dev"]
    assert dev["cases"] == 1 and dev["both_answered"] == 1.0 and dev["errors"] == 0
    assert block["groups"]["shipped riders"]["heldout"]["cases"] == 0
    row = block["rows"][0]
    # Both riders exclude refractive error under cl. 5.12: the expected point is found in the row on cl. 5.12.
    assert row["matched"][0] is not None and row["matched"][0].startswith("Refractive Error")
    assert any("cl. 5.12 | " in line and "(Group) cl. 5.12" in line for line in row["table"])
    assert row["values_found"] == "2/2"  # "less than 7.5 dioptres" stated by both answers
    markdown = report.compare_markdown(block)
    assert "## Compare mode" in markdown and "| shipped riders: dev | 1 |" in markdown
