"""What the web page shows beside the answer record, in plain words: collection titles and why a question got
no answer. Pure functions of the record; nothing here changes how a question is answered."""

from __future__ import annotations

from core.schemas import AnswerRecord
from generation.blocks import ABSENT_FROM_WORDING
from language.analysis import is_medical_advice
from language.references import citation_tokens, parse_references
from server.schemas import RefusalReason

COLLECTION_TITLES = {
    "health_governance": "GDPR, EHDS, NHS guidance and FHIR UK Core",
    "insurance": "Health-insurance policy wordings",
    "patients": "Patient records (synthetic)",
    "secondary": "Commentary on the law and guidance",
}
INSTRUMENT_NAMES = {"gdpr": "GDPR", "ehds": "EHDS", "caldicott": "Caldicott", "ndg": "NDG"}
MEDICAL_ADVICE = (
    "This asks for personal medical advice, which none of these documents gives. Please ask a doctor, nurse or "
    "pharmacist; in the UK, call NHS 111 for urgent advice, or 999 in an emergency."
)


def collection_title(name: str) -> str:
    """A collection's human title; an unknown one reads as its name in words."""
    return COLLECTION_TITLES.get(name) or name.replace("_", " ").strip().capitalize()


def missing_provisions(record: AnswerRecord) -> list[str]:
    """The provisions the question names that no evidence found carries ("GDPR Article 120")."""
    carried = {token for e in record.evidence for token in citation_tokens(e.citation)}
    missing = []
    for ref in parse_references(record.question):
        if set(ref.tokens(ancestors=False)) & carried:
            continue
        kind = "Article" if ref.kind == "ref" else ref.kind.capitalize()
        path = ref.path[0] + "".join(f"({part})" for part in ref.path[1:])
        missing.append(" ".join(p for p in (INSTRUMENT_NAMES.get(ref.instrument or ""), kind, path) if p))
    return missing


def refusal_reason(record: AnswerRecord, collection: str | None) -> RefusalReason | None:
    """Why the record has no answer (None when it has one): medical advice, a provision that is not in the
    sources, a benefit the policy wording does not have, an answer that could not be written, or sources
    that do not say it."""
    if record.status == "answered":
        return None
    if is_medical_advice(record.question):
        return RefusalReason(kind="medical_advice", text=MEDICAL_ADVICE)
    if record.status == "evidence_only":
        detail = record.status_detail or "the answer could not be written"
        text = f"The answer could not be written ({detail}). The clauses found are listed below."
        return RefusalReason(kind="not_written", text=text)
    if record.status_detail.startswith(ABSENT_FROM_WORDING):
        reason = record.status_detail.removeprefix(ABSENT_FROM_WORDING)
        text = f"The policy wording does not mention this benefit: {reason}."
        return RefusalReason(kind="absent_from_wording", text=text)
    if missing := missing_provisions(record):
        text = f"None of the documents has {' or '.join(missing)}. Check the number: it may not exist."
        return RefusalReason(kind="no_such_provision", text=text)
    searched = collection_title(collection) if collection else "the documents searched"
    text = f"Nothing in {searched} says this. Try naming the law, guidance or policy, or asking in other words."
    return RefusalReason(kind="not_in_sources", text=text)
