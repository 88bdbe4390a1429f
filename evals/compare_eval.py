"""Compare mode measured (issue 17, item 8): evals/goldens/compare_plain.jsonl through the product's compare graph.

Each case compares two wordings by doc_id: the shipped CareShield riders (collection `insurance`) or two real
PDFs from ../shared/corpora/insurance/pdf/, ingested without metadata into one collection (`COLLECTION`) of an
evaluation index, as a user would drop them in. Measured per split (dev and held-out apart; nothing here is
tuned, on either):

- point-verdict accuracy: each expected point is matched to the table row (ComparePoint) about it (`match`:
  stemmed subject words shared between the expected topic and clause headings and the row's point and benefit
  names, plus two for each side whose cited clause number is an expected heading's; most wins); the
  share of expected points whose matched row has the expected verdict (no row shares anything: wrong).
- table/answer agreement: the share of table rows consistent with the two side answers (`row_agrees`):
  every clause a row shows for a side is one that side's answer cites (by chunk id, or by citation when the
  answer's citation carries no chunk id), and a row saying only_a (only_b) is not contradicted by side b's
  (a's) answer citing a clause on the same point (a cited clause whose name shares a subject word with the
  row's point) whose answer does not say it is not covered. A side that refused cites nothing, so every row
  showing its clause disagrees.
- both answered: the share of cases where both side answers have status `answered`.
- value recall: the share of expected a_values / b_values found in the values the matched row states for that
  side, or in that side's answer; not in the clause's full text, which holds them whenever the row is the right
  clause. A value is found when each of its quantities is (an amount, a percentage, a number with the word after
  it: "Up to INR 2,500" needs "rs 2500"), or, without quantities, the whole value; compared case-insensitive with
  number words, thousands separators, per cent and currency normalised ("twenty four hours" is "24 hours",
  "INR 40,000" and "Rs. 40000" are "rs 40000"). The basis words around a quantity are not checked.

Held-out rows keep only their id and figures, never the table or the answers.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from core.schemas import ClauseValues, ComparePoint, CompareRecord, CompareSide, RunContext
from evals.datasets import GOLDENS, INSURANCE, read_jsonl
from evals.metrics import share
from graph.compare import build_compare_graph
from graph.run import WordingNotFound, compare
from language.words import words
from retrieval.alignment import digits
from retrieval.services import Services

SPLITS = ("dev", "heldout")
SHIPPED_COLLECTION = "insurance"
COLLECTION = "insurance_pdfs"  # the real PDFs, ingested without metadata, in one collection
PDFS = INSURANCE / "pdf"
Side = Literal["a", "b"]
SIDES: tuple[Side, Side] = ("a", "b")

# Words that say what kind of provision or question a name is about, not its subject: "Limit for Cataract
# Surgery" and "cataract limit" share "cataract", not "limit".
GENERIC = frozenset(
    words(
        "limit limits sub-limit cover covered coverage benefit benefits treatment expenses expense charges "
        "policy clause section code excl table rider"
    )
)
NOTE = (
    "Offline answerer, through the compare graph. point_verdict_accuracy: expected points whose matched table row "
    "(most shared subject words and clause numbers) has the expected verdict (no matching row: wrong); agreement: "
    "table rows whose clauses are cited by their side's answer and, for a one-sided row, not contradicted by the "
    "other side citing a clause on the same point without saying it is not covered; both_answered: cases where "
    "both sides answered; value_recall: "
    "expected values whose quantities are in the values the matched row states for that side or in that side's "
    "answer. Targets (issue 17): point-verdict accuracy >= 0.9, agreement 1.0. Real PDFs ingested without metadata "
    "into one collection. Per-case rows (held-out: ids and figures only) are in eval.json."
)
_PAGE_RE = re.compile(r",?\s*\bp\.\s*\d+\b")
_CLAUSE_ID_RE = re.compile(r"\bcl\.\s*([^\s,]+)")
_HEADING_ID_RE = re.compile(r"^(?:section\s+)?([A-Z0-9]+(?:[.\-][A-Z0-9]+)*)(?=\s|$)", re.I)


@dataclass(frozen=True)
class ExpectedPoint:
    topic: str
    verdict: str
    a_values: tuple[str, ...]
    b_values: tuple[str, ...]
    a_clause: str
    b_clause: str

    def values(self, side: Side) -> tuple[str, ...]:
        return self.a_values if side == "a" else self.b_values

    def clause(self, side: Side) -> str:
        return self.a_clause if side == "a" else self.b_clause


@dataclass(frozen=True)
class CompareCase:
    id: str
    split: str  # dev or heldout
    question: str
    a: str  # doc_id
    b: str
    real_pdf: bool
    expect: tuple[ExpectedPoint, ...]

    @property
    def collection(self) -> str:
        return COLLECTION if self.real_pdf else SHIPPED_COLLECTION


def cases() -> list[CompareCase]:
    return [
        CompareCase(
            r["id"],
            r["split"],
            r["question"],
            r["a"]["doc_id"],
            r["b"]["doc_id"],
            bool(r["real_pdf"]),
            tuple(
                ExpectedPoint(
                    p["topic"],
                    p["verdict"],
                    tuple(p["a_values"]),
                    tuple(p["b_values"]),
                    p["a_clause"],
                    p["b_clause"],
                )
                for p in r["expect"]
            ),
        )
        for r in read_jsonl(GOLDENS / "compare_plain.jsonl")
    ]


def available() -> bool:
    return PDFS.is_dir()


def pdf_paths(selected: list[CompareCase]) -> list[Path]:
    """The real PDFs the cases compare (doc ids are file stems), each ingested once."""
    return [PDFS / f"{stem}.pdf" for stem in sorted({d for c in selected if c.real_pdf for d in (c.a, c.b)})]


# Matching an expected point to a table row.


def subject(*texts: str | None) -> set[str]:
    """The stemmed subject words of names and headings: content words, not clause numbers, not generic."""
    return {w for text in texts if text for w in words(text) if not w[0].isdigit()} - GENERIC


def heading_ids(headings: str) -> set[str]:
    """Clause numbers of expected headings: "3.3 Day Care Treatment; 3.10 Table of Benefits" -> {3.3, 3.10};
    "Section B-1.1 Hospitalization Expenses (a)" -> {b-1.1}; a heading without a number gives none."""
    found = set()
    for heading in headings.split(";"):
        match = _HEADING_ID_RE.match(heading.strip())
        if match and any(ch.isdigit() for ch in match.group(1)):
            found.add(match.group(1).lower().rstrip("."))
    return found


def clause_id(clause: ClauseValues | None) -> str | None:
    """The clause number in a row's citation ("Arogya Sanjeevani Policy cl. 4.2, p. 5" -> "4.2")."""
    if clause is None:
        return None
    match = _CLAUSE_ID_RE.search(_PAGE_RE.sub("", clause.citation))
    return match.group(1).lower().rstrip(".") if match else None


def same_clause(row_id: str | None, expected: set[str]) -> bool:
    """The row's clause is an expected one, or a numbered part of one (3.1.1 within 3.1.1.2 does not count,
    3.1.1.2 within 3.1.1 does)."""
    return row_id is not None and any(row_id == e or row_id.startswith((f"{e}.", f"{e}(")) for e in expected)


def row_subject(row: ComparePoint) -> set[str]:
    """What a row is about: its point name, both clauses' benefit names."""
    return subject(row.point, *(c.benefit_name for c in (row.a, row.b) if c is not None))


def match_score(point: ExpectedPoint, row: ComparePoint) -> tuple[int, float]:
    """(shared subject words + 2 per side whose clause number agrees, Jaccard of the subjects): 0 is no match.
    A clause number names the clause exactly, a shared word only suggests it."""
    expected = subject(point.topic, point.a_clause, point.b_clause)
    found = row_subject(row)
    shared = len(expected & found)
    clauses = sum(same_clause(clause_id(getattr(row, side)), heading_ids(point.clause(side))) for side in SIDES)
    jaccard = shared / len(expected | found) if expected | found else 0.0
    return shared + 2 * clauses, jaccard


def match(point: ExpectedPoint, rows: list[ComparePoint]) -> ComparePoint | None:
    """The row that shares most with the expected topic and clause headings (the earlier row on a tie);
    None when no row shares a subject word or a clause number with it."""
    best: tuple[tuple[int, float], int] | None = None
    for index, row in enumerate(rows):
        score = match_score(point, row)
        if score[0] and (best is None or score > best[0]):
            best = (score, index)
    return rows[best[1]] if best else None


# Agreement between the table and the side answers.


def cited(side: CompareSide | None) -> tuple[set[str], set[str]]:
    """The chunk ids and citations a side's answer cites (nothing when it did not answer)."""
    if side is None or side.status != "answered":
        return set(), set()
    return {c.chunk_id for c in side.citations if c.chunk_id}, {c.citation for c in side.citations}


def is_cited(clause: ClauseValues, side: CompareSide | None) -> bool:
    chunk_ids, citations = cited(side)
    return clause.chunk_id in chunk_ids if clause.chunk_id and chunk_ids else clause.citation in citations


def cited_subjects(side: CompareSide | None) -> list[set[str]]:
    """The subject of each clause a side's answer cites: its benefit name, else its section."""
    chunk_ids, citations = cited(side)
    if side is None:
        return []
    return [
        subject(str(e.metadata.get("benefit_name") or e.section))
        for e in side.evidence
        if e.chunk_id in chunk_ids or e.citation in citations
    ]


def row_agrees(row: ComparePoint, record: CompareRecord) -> bool:
    """Every clause the row shows is cited by its side's answer, and a one-sided row is not contradicted by the
    other side's answer citing a clause on the same point (unless that answer says it is not covered: a
    wording that excludes what the other covers does not have it)."""
    for side in SIDES:
        clause = getattr(row, side)
        if clause is not None and not is_cited(clause, record.side(side)):
            return False
    if row.verdict in ("only_a", "only_b"):
        other: Side = "b" if row.verdict == "only_a" else "a"
        answer, point = record.side(other), row_subject(row)
        says_not_covered = answer is not None and answer.coverage_type == "not_covered"
        if not says_not_covered and any(point & cited_subject for cited_subject in cited_subjects(answer)):
            return False
    return True


# Values.


def normalise_value(text: str) -> str:
    """Lower case; number words as digits ("thirty six (36)" -> "36"); no thousands separators; "per cent" as
    "%"; Rs., INR and the rupee sign as "rs"; single spaces."""
    text = digits(text.lower())
    text = re.sub(r"(?<=\d),(?=\d)", "", text)
    text = re.sub(r"\s*(?:\bper ?cent\b|%)", "%", text)
    text = re.sub(r"(?:\brs\b\.?|\binr\b|₹)\s*", "rs ", text)
    return re.sub(r"\s+", " ", text.replace("/-", " ")).strip()


_QUANTITY_RE = re.compile(r"rs \d+(?:\.\d+)?(?: (?:lakhs?|crores?))?|\d+(?:\.\d+)?%|\d+(?:\.\d+)?(?: [a-z]+)?")


def value_keys(value: str) -> list[str]:
    """What must be found of an expected value: its quantities (an amount, a percentage, a number with the word
    after it: "Up to INR 2,500" -> "rs 2500", "max. of 5 days" -> "5 days"), or the whole value when it has none
    ("Policyholder", "up to the Sum Insured")."""
    text = normalise_value(value)
    return _QUANTITY_RE.findall(text) or ([text] if text else [])


def value_found(value: str, texts: list[str]) -> bool:
    """Every key of the value in the texts, not inside a longer number or word ("5%" is not in "15%")."""
    haystack = " | ".join(normalise_value(text) for text in texts)
    keys = value_keys(value)
    return bool(keys) and all(re.search(rf"(?<![\w.]){re.escape(key)}(?!\w)", haystack) for key in keys)


# One case, and the sets.


@dataclass
class CaseScore:
    case: CompareCase
    record: CompareRecord | None  # None: the compare failed (a wording not in the index)
    error: str
    matches: list[ComparePoint | None]
    verdicts: list[bool]  # per expected point: the matched row has the expected verdict
    agreeing: list[bool]  # per table row
    values: list[bool]  # per expected value

    @property
    def both_answered(self) -> bool:
        return self.record is not None and all(
            (s := self.record.side(side)) is not None and s.status == "answered" for side in SIDES
        )


def score_case(case: CompareCase, record: CompareRecord | None, error: str = "") -> CaseScore:
    rows = record.points if record else []
    matches = [match(point, rows) for point in case.expect]
    values = []
    for point, row in zip(case.expect, matches):
        for side in SIDES:
            clause = getattr(row, side) if row else None
            answer = record.side(side) if record else None
            texts = [
                *(clause.values if clause else []),
                answer.answer if answer and answer.status == "answered" else "",
            ]
            values += [value_found(v, texts) for v in point.values(side)]
    return CaseScore(
        case=case,
        record=record,
        error=error,
        matches=matches,
        verdicts=[row is not None and row.verdict == point.verdict for point, row in zip(case.expect, matches)],
        agreeing=[row_agrees(row, record) for row in rows] if record else [],
        values=values,
    )


def summary(scores: list[CaseScore]) -> dict[str, Any]:
    rows = [flag for s in scores for flag in s.agreeing]
    return {
        "cases": len(scores),
        "points": sum(len(s.verdicts) for s in scores),
        "point_verdict_accuracy": share(flag for s in scores for flag in s.verdicts),
        "points_unmatched": sum(1 for s in scores for m in s.matches if m is None),
        "table_rows": len(rows),
        "agreement": share(rows),
        "cases_fully_agreeing": share(bool(s.record) and all(s.agreeing) for s in scores),
        "both_answered": share(s.both_answered for s in scores),
        "value_recall": share(flag for s in scores for flag in s.values),
        "errors": sum(1 for s in scores if s.error),
    }


def row(score: CaseScore) -> dict[str, Any]:
    """A case's figures; a dev case also shows the matched rows, the table and both answers."""
    out: dict[str, Any] = {
        "id": score.case.id,
        "split": score.case.split,
        "verdicts": score.verdicts,
        "rows_agreeing": f"{sum(score.agreeing)}/{len(score.agreeing)}",
        "both_answered": score.both_answered,
        "values_found": f"{sum(score.values)}/{len(score.values)}",
    }
    if score.case.split == "heldout":
        return out
    record = score.record
    return {
        **out,
        "question": score.case.question,
        "error": score.error,
        "expected": [f"{p.topic}: {p.verdict}" for p in score.case.expect],
        "matched": [f"{m.point}: {m.verdict}" if m else None for m in score.matches],
        "table": [
            f"{p.point}: {p.verdict} ({p.a.citation if p.a else '-'} | {p.b.citation if p.b else '-'})"
            f"{'' if agrees else ' DISAGREES'}"
            for p, agrees in zip(record.points if record else [], score.agreeing)
        ],
        "answers": {s.side: {"status": s.status, "answer": s.answer} for s in (record.sides if record else [])},
    }


def run(services: dict[str, Services], selected: list[CompareCase]) -> dict[str, Any]:
    """Each case through the compare graph over the index that holds its collection (`services` by collection),
    with the offline answerer; dev and held-out summaries, shipped and real-PDF cases apart, and a row per case."""
    graphs = {name: build_compare_graph(s) for name, s in services.items()}
    scores = []
    for case in selected:
        context = RunContext(generator="offline", collection=case.collection)
        try:
            record = compare(graphs[case.collection], case.question, {"doc_id": case.a}, {"doc_id": case.b}, context)
        except WordingNotFound as error:
            scores.append(score_case(case, None, str(error)))
            continue
        scores.append(score_case(case, record))
    groups = {"all": scores, "shipped riders": [s for s in scores if not s.case.real_pdf]}
    groups["real PDFs"] = [s for s in scores if s.case.real_pdf]
    return {
        "groups": {
            name: {split: summary([s for s in group if s.case.split == split]) for split in SPLITS}
            for name, group in groups.items()
            if group
        },
        "rows": [row(s) for s in scores],
    }
