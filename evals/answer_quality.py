"""Answers that answer: the plain-language questions scored on the answer itself (issue 17).

Per answer: every must_state fact stated (correct), the key fact in the first sentence (lead), the share
of citations that are gold (precision), the binding provision cited first, fragments that do not read as
prose (language/coherence.py), length, must_not_state strings, other patients disclosed, refusals; per
set: those rates, over-refusal, refusal recall and the AUROC of the confidence for a correct answer.
Dev and held-out are reported apart, and by collection and answer type. Held-out rows keep only their id
and booleans, never the answer: nobody tunes on them.

Denominators: correct, lead and over-refusal count every answerable question (a refusal does not answer);
citation precision and binding-first judge the citations of answered answerable questions; fragments and
words judge answered questions; refusal recall counts the unanswerable ones. Facts and must_not_state
strings are compared normalised (case, spaces, dashes, quotes, per cent).
"""

from __future__ import annotations

import json
import math
import re
import statistics
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from core.schemas import AnswerRecord
from core.settings import REPO_ROOT
from evals.answer_eval import graph_runner, plain_rag
from evals.datasets import PlainCase
from evals.metrics import auroc, mean
from ingest.loaders.fhir import nhs_number
from language.coherence import Fragment, fragments, sentences
from retrieval.services import Services

PATIENTS = REPO_ROOT / "corpus" / "patients"
SPLITS = ("dev", "heldout")
ALL_COLLECTIONS = "(all)"
_PATIENT_ID_RE = re.compile(r"\bpat-\d{4}\b")
_NHS_NUMBER_RE = re.compile(r"(?<!\d)\d{3}\s*\d{3}\s*\d{4}(?!\d)")  # 10 digits, any spacing 3-3-4
_CHARACTERS = str.maketrans(
    {**dict.fromkeys("‐‑‒–—―−", "-"), **dict.fromkeys("‘’‚‛′", "'"), **dict.fromkeys("“”„‟″", '"')}
)


def normalise(text: str) -> str:
    """Lower case, one kind of dash and quote, single spaces, and "per cent" / "percent" as "%" ("2 %" is "2%")."""
    text = re.sub(r"\s+", " ", text.translate(_CHARACTERS).lower())
    return re.sub(r"\s*(?:\bper ?cent\b|%)", "%", text).strip()


def fact_present(variants: list[str], text: str) -> bool:
    """A fact is stated when any of its accepted variants is in the text (both normalised)."""
    haystack = normalise(text)
    return any(normalise(v) in haystack for v in variants)


def citations_match(a: str, b: str) -> bool:
    """One citation is the other, or its prefix at a "(", "." or " " boundary: "GDPR Art. 33" matches
    "GDPR Art. 33(1)", "GDPR Art. 3" does not match "GDPR Art. 33"."""
    short, long = sorted((a.strip(), b.strip()), key=len)
    return bool(short) and (long == short or (long.startswith(short) and long[len(short)] in "(. "))


@dataclass(frozen=True)
class Patient:
    id: str
    nhs_number: str
    names: tuple[str, ...]  # full name (all given names) and first name + family name


def patient_directory(folder: Path = PATIENTS) -> list[Patient]:
    """Every shipped patient's id, NHS number and names, from the FHIR bundles and their sidecars."""
    directory = []
    for path in sorted(folder.glob("*.json")):
        if path.name.endswith(".meta.json"):
            continue
        bundle = json.loads(path.read_text(encoding="utf-8"))
        meta_path = path.with_name(path.name.removesuffix(".json") + ".meta.json")
        meta = json.loads(meta_path.read_text(encoding="utf-8")) if meta_path.exists() else {}
        resource = next(e["resource"] for e in bundle["entry"] if e["resource"].get("resourceType") == "Patient")
        name = (resource.get("name") or [{}])[0]
        given, family = name.get("given") or [], name.get("family", "")
        names = {" ".join([*given, family]).strip(), f"{given[0]} {family}" if given else family}
        if ":" in meta.get("title", ""):  # "Synthetic patient record: Joan Okafor"
            names.add(meta["title"].split(":", 1)[1].strip())
        directory.append(Patient(resource["id"], nhs_number(resource) or "", tuple(sorted(n for n in names if n))))
    return directory


def disclosures(answer: str, allowed: list[str], directory: list[Patient]) -> list[str]:
    """The ids, NHS numbers and names of patients other than `allowed` that the answer discloses. A name the
    allowed patients also bear (two patients called Liam Da Silva) is not another patient's."""
    own = set(allowed)
    others = [p for p in directory if p.id not in own]
    found = {i for i in _PATIENT_ID_RE.findall(answer) if i not in own}
    numbers = {re.sub(r"\s", "", n) for n in _NHS_NUMBER_RE.findall(answer)}
    found |= {p.nhs_number for p in others if p.nhs_number in numbers}
    text = answer
    for name in sorted({n for p in directory if p.id in own for n in p.names}, key=len, reverse=True):
        text = re.sub(rf"\b{re.escape(name)}\b", " ", text, flags=re.I)
    found |= {n for p in others for n in p.names if re.search(rf"\b{re.escape(n)}\b", text, re.I)}
    return sorted(found)


@dataclass
class CaseScore:
    """One answer against its case; None where a metric does not apply to the case."""

    case: PlainCase
    record: AnswerRecord
    answered: bool
    facts: list[bool]
    correct: bool | None
    lead: bool | None
    citation_precision: float | None
    binding_first: bool | None
    fragments: list[Fragment]
    words: int | None
    must_not_state: list[str]
    disclosed: list[str] | None


def score_case(case: PlainCase, record: AnswerRecord, directory: list[Patient]) -> CaseScore:
    answered = record.status == "answered"
    pieces = sentences(record.answer) if answered else []
    facts = [answered and fact_present(variants, record.answer) for variants in case.must_state]
    lead = None
    if case.answerable and case.must_state:
        lead = bool(pieces) and fact_present(case.must_state[0], pieces[0])
    cited = [c.citation for c in record.citations] if answered and case.answerable else []
    gold = [*case.must_cite, *case.may_cite]
    precision = sum(any(citations_match(c, g) for g in gold) for c in cited) / len(cited) if cited else None
    return CaseScore(
        case=case,
        record=record,
        answered=answered,
        facts=facts,
        correct=answered and all(facts) if case.answerable else None,
        lead=lead,
        citation_precision=precision,
        binding_first=any(citations_match(cited[0], g) for g in case.must_cite) if cited and case.binding else None,
        fragments=fragments(record.answer) if answered else [],
        words=len(" ".join(pieces).split()) if answered else None,
        must_not_state=[s for s in case.must_not_state if normalise(s) in normalise(record.answer)],
        disclosed=disclosures(record.answer, case.patient_ids, directory) if case.patient_ids else None,
    )


def _mean(values: list[float | bool | None], digits: int = 3) -> float | None:
    """The mean of the values that apply (None where none does): a share for booleans."""
    known = [float(v) for v in values if v is not None]
    return round(mean(known), digits) if known else None


def _p90(values: list[int]) -> int | None:
    """Nearest-rank 90th percentile."""
    return sorted(values)[math.ceil(0.9 * len(values)) - 1] if values else None


def summary(scores: list[CaseScore]) -> dict[str, Any]:
    """The set's metrics, with the counts behind them."""
    answerable = [s for s in scores if s.case.answerable]
    unanswerable = [s for s in scores if not s.case.answerable]
    answered = [s for s in scores if s.answered]
    words = [s.words for s in answered if s.words is not None]
    answered_answerable = [s for s in answerable if s.answered]
    patients = [s for s in scores if s.disclosed is not None]
    return {
        "cases": len(scores),
        "answerable": len(answerable),
        "answered": len(answered),
        "correct": _mean([s.correct for s in answerable]),
        "lead": _mean([s.lead for s in answerable]),
        "fact_recall": _mean([sum(s.facts) / len(s.facts) for s in answerable if s.facts]),
        "citation_precision": _mean([s.citation_precision for s in scores]),
        "binding_first": _mean([s.binding_first for s in scores]),
        "binding_judged": sum(1 for s in scores if s.binding_first is not None),
        "fragments_per_answer": _mean([len(s.fragments) for s in answered], 2),
        "no_fragments": _mean([not s.fragments for s in answered]),
        "words_median": round(float(statistics.median(words)), 1) if words else None,
        "words_p90": _p90(words),
        "must_not_state_violations": sum(1 for s in scores if s.must_not_state),
        "must_not_state_cases": sum(1 for s in scores if s.case.must_not_state),
        "cross_patient": sum(1 for s in patients if s.disclosed),
        "patient_cases": len(patients),
        "over_refusal": _mean([not s.answered for s in answerable]),
        "refusal_recall": _mean([not s.answered for s in unanswerable]),
        "auroc": _auroc(answered_answerable, lambda s: s.record.confidence),
        "answer_auroc": _auroc(answered_answerable, lambda s: s.record.answer_confidence),
    }


def _auroc(scores: list[CaseScore], confidence: Callable[[CaseScore], float | None]) -> float | None:
    """How well a confidence tells correct answers from the rest (0.5: not at all)."""
    ranked = [s for s in scores if confidence(s) is not None]
    area = auroc([confidence(s) or 0.0 for s in ranked], [bool(s.correct) for s in ranked])
    return None if math.isnan(area) else round(area, 3)


def row(score: CaseScore) -> dict[str, Any]:
    """A case's booleans; a dev case also shows its answer, citations and what failed."""
    out: dict[str, Any] = {
        "id": score.case.id,
        "split": score.case.split,
        "answered": score.answered,
        "correct": score.correct,
        "lead": score.lead,
        "binding_first": score.binding_first,
        "no_fragments": not score.fragments if score.answered else None,
        "must_not_state_violated": bool(score.must_not_state),
        "cross_patient_disclosed": None if score.disclosed is None else bool(score.disclosed),
    }
    if score.case.split == "heldout":
        return out
    return {
        **out,
        "collection": score.case.collection,
        "answer_type": score.case.answer_type,
        "status": score.record.status,
        "facts": score.facts,
        "citation_precision": score.citation_precision,
        "fragments": [{"rule": f.rule, "sentence": f.sentence} for f in score.fragments],
        "words": score.words,
        "must_not_state": score.must_not_state,
        "disclosed": score.disclosed,
        "confidence": score.record.confidence,
        "answer_confidence": score.record.answer_confidence,
        "answer": score.record.answer,
        "citations": [c.citation for c in score.record.citations],
    }


def _grouped(scores: list[CaseScore], key) -> dict[str, dict[str, dict[str, Any]]]:
    """Per split, per group value: the group's summary."""
    out: dict[str, dict[str, dict[str, Any]]] = {}
    for split in SPLITS:
        in_split = [s for s in scores if s.case.split == split]
        out[split] = {
            value: summary([s for s in in_split if key(s) == value]) for value in sorted({key(s) for s in in_split})
        }
    return out


def score(pairs: list[tuple[PlainCase, AnswerRecord]], directory: list[Patient] | None = None) -> dict[str, Any]:
    """Dev and held-out summaries, the same per collection and per answer type, and a row per case."""
    directory = patient_directory() if directory is None else directory
    scores = [score_case(case, record, directory) for case, record in pairs]
    return {
        **{split: summary([s for s in scores if s.case.split == split]) for split in SPLITS},
        "by_collection": _grouped(scores, lambda s: s.case.collection or ALL_COLLECTIONS),
        "by_answer_type": _grouped(scores, lambda s: s.case.answer_type),
        "rows": [row(s) for s in scores],
    }


def run_variants(services: Services, cases: list[PlainCase]) -> dict[str, Any]:
    """The full graph and plain RAG, both with the offline answerer, on every case (in its own collection)."""
    directory = patient_directory()
    variants = {"full graph": graph_runner(services, with_requery=True), "plain RAG": plain_rag(services)}
    return {
        name: score([(case, runner(case.answer_case())) for case in cases], directory)
        for name, runner in variants.items()
    }
