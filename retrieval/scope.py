"""Where a question may be answered from: the patients it names, and the kinds of document its domain allows.

- A question naming a patient (an id such as pat-0045, an NHS number in any spacing, a full name, or a
  family name with a title or a possessive that only one patient bears) is searched in that patient's
  records only. A full name two patients share scopes the search to both, and the note says so, unless the
  question's details (a year of birth, a town) fit only one of them.
- A question searched across every collection is not answered from insurance wordings unless it is
  about insurance, nor from patient records unless it is about a patient: a data-protection question
  about a "fee" never meets a policy's "fees of surgeons".
Collections the caller names are never narrowed by domain: the caller chose them.
"""

from __future__ import annotations

import re
import threading
from dataclasses import dataclass
from typing import Any

from db.store import VectorStore
from language.analysis import analyse
from language.names import naming
from language.references import NHS_NUMBER_RE


@dataclass(frozen=True)
class Patient:
    patient_id: str
    name: str
    nhs_number: str
    born: str = ""  # date of birth as the record states it (1931-12-14)
    address: str = ""


_BORN_RE = re.compile(r"\bDate of birth: (\d{4}-\d{2}-\d{2})")
_ADDRESS_RE = re.compile(r"\bAddress: ([^\n]*)")


@dataclass(frozen=True)
class Scope:
    filters: dict[str, Any]
    patients: tuple[Patient, ...] = ()
    note: str = ""
    ask_back: str = ""  # the question names a patient ambiguously: what the user should say instead


class PatientDirectory:
    """The patients of the published index (built once per generation from the records' payloads)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._built_for: int | None = None
        self._patients: list[Patient] = []

    def patients(self, store: VectorStore) -> list[Patient]:
        with self._lock:
            if self._built_for != id(store):
                named: dict[str, tuple[str, str]] = {}  # id -> name, NHS number
                details: dict[str, tuple[str, str]] = {}  # id -> date of birth, address (the demographics record)
                for payload in store.payloads({"document_type": "patient_record"}, limit=1_000_000):
                    if not (patient := payload.get("patient_id")):
                        continue
                    named.setdefault(patient, (payload.get("patient_name") or "", payload.get("nhs_number") or ""))
                    if born := _BORN_RE.search(payload.get("text") or ""):
                        address = _ADDRESS_RE.search(payload.get("text") or "")
                        details[patient] = (born.group(1), address.group(1) if address else "")
                self._patients = [Patient(p, *named[p], *details.get(p, ("", ""))) for p in named]
                self._built_for = id(store)
            return self._patients

    def named_in(self, question: str, store: VectorStore) -> list[Patient]:
        """Patients the question names by id, NHS number (any spacing) or full name; failing those, the one
        patient whose family name it gives with a title or a possessive ("Mrs Okafor", "Okafor's")."""
        lowered = question.lower()
        numbers = {"".join(m) for m in NHS_NUMBER_RE.findall(question)}
        patients = self.patients(store)
        found = []
        for patient in patients:
            if patient.nhs_number in numbers or naming(patient.patient_id, patient.name).search(lowered):
                found.append(patient)
        named = told_apart(question, found)
        return named or by_family_name(question, patients) or by_given_name(question, patients)


def told_apart(question: str, patients: list[Patient]) -> list[Patient]:
    """Of patients sharing a name, the one the question's details fit ("Liam Da Silva, the 1931-born patient
    from York"): a year of birth, or a word of the address, that only that patient's record gives; all
    of them when no detail tells them apart."""
    if len({p.name for p in patients}) != 1 or len(patients) < 2:
        return patients
    return _fitting(question, patients) or patients


def _fitting(question: str, patients: list[Patient]) -> list[Patient]:
    """The one patient the question's details fit best (a year of birth, a word of the address), or none."""
    said = set(re.findall(r"[a-z0-9]+", question.lower()))

    def fits(patient: Patient) -> int:
        told = {patient.born[:4]} | set(re.findall(r"[a-z0-9]+", patient.address.lower()))  # the year of birth
        return len(said & (told - {""} - _ADDRESS_WORDS))

    best = max((fits(p) for p in patients), default=0)
    fitting = [p for p in patients if fits(p) == best]
    return fitting if best and len(fitting) == 1 else []


def by_given_name(question: str, patients: list[Patient]) -> list[Patient]:
    """The patient a first name names with a detail only their record gives ("Keith, the lad born 2004"): a
    first name alone never scopes ("Grace" is also a grace period)."""
    said = set(re.findall(r"\b[A-Z][a-z'’-]+\b", question))
    bearing = [p for p in patients if p.name.partition(" ")[0] in said]
    return _fitting(question, bearing)


# "Liam Da Silva, born 1955": the year of birth the question gives
_BIRTH_YEAR_RE = re.compile(
    r"\bborn (?:in )?((?:19|20)\d\d)\b|\b((?:19|20)\d\d)[- ]born\b|\bb\. ?((?:19|20)\d\d)\b", re.I
)


def born_otherwise(question: str, patients: list[Patient]) -> str:
    """The year of birth the question gives when none of the patients it names was born then ('' otherwise): the
    question is about someone else, whose records are not in the index."""
    match = _BIRTH_YEAR_RE.search(question)
    year = next((g for g in match.groups() if g), "") if match else ""
    return year if year and all(p.born and not p.born.startswith(year) for p in patients) else ""


# words of any address, which tell no patient apart
_ADDRESS_WORDS = frozenset("road street lane avenue close drive way court place the of and".split())


# "Mrs Okafor", "Dr. Da Silva", "Okafor's": capitalised words after a title, or before a possessive
_TITLED_RE = re.compile(r"\b(?:Mr|Mrs|Ms|Miss|Mx|Dr|Master)\.?\s+((?:[A-Z][\w'’-]*\s+)*[A-Z][\w-]*)")
_POSSESSIVE_RE = re.compile(r"\b((?:[A-Z][\w-]*\s+)*[A-Z][\w-]*)['’]s\b")


def _family_named(question: str, patients: list[Patient]) -> tuple[str, list[Patient]]:
    """The family name a title or possessive gives ("Mrs Da Silva" -> "Da Silva") and the patients bearing it."""
    for match in [*_TITLED_RE.finditer(question), *_POSSESSIVE_RE.finditer(question)]:
        tokens = match.group(1).split()
        for start in range(len(tokens)):  # "Dear Mrs Da Silva" -> "Da Silva", then "Silva"
            family = " ".join(tokens[start:])
            bearing = [p for p in patients if f" {p.name.lower()}".endswith(f" {family.lower()}")]
            if bearing:
                return family, bearing
    return "", []


def by_family_name(question: str, patients: list[Patient]) -> list[Patient]:
    """The patient a title or possessive names by family name, when exactly one patient bears it: a family
    name several patients share names none of them (see `which_patient`), and a first name alone never
    scopes ("Grace" is also a grace period)."""
    _, bearing = _family_named(question, patients)
    return bearing if len(bearing) == 1 else []


def which_patient(question: str, patients: list[Patient]) -> str:
    """What to ask back when the question gives a family name several patients share: how many share it, not
    who they are."""
    family, bearing = _family_named(question, patients)
    if len(bearing) < 2:
        return ""
    return (
        f"{len(bearing)} patients have the family name {family}: name the patient by full name, patient id or "
        "NHS number"
    )


def scope_for(question: str, filters: dict[str, Any], store: VectorStore, directory: PatientDirectory) -> Scope:
    """The filters a question is searched with: its patients, or the kinds of document its domain allows."""
    patients = directory.named_in(question, store)
    if patients and (year := born_otherwise(question, patients)):  # none of their records is searched
        ask_back = (
            f"No patient named {patients[0].name} born in {year} is in the records: name the patient by patient id "
            "or NHS number"
        )
        return Scope({**filters, "!document_type": ["patient_record"]}, note=ask_back, ask_back=ask_back)
    if patients:
        names = {p.name for p in patients}
        note = f"two patients named {patients[0].name}: " if len(patients) > 1 and len(names) == 1 else ""
        note += "scoped to " + ", ".join(f"{p.name} ({p.patient_id})" for p in patients)
        return Scope({**filters, "patient_id": [p.patient_id for p in patients]}, tuple(patients), note)
    ask_back = which_patient(question, directory.patients(store))
    if ask_back:  # none of their records is searched: the answer is the question back
        return Scope({**filters, "!document_type": ["patient_record"]}, note=ask_back, ask_back=ask_back)
    if "collection" in filters:
        return Scope(filters)
    domain = analyse(question).domain
    if domain == "records":
        return Scope({**filters, "document_type": "patient_record"}, note="records of every patient")
    if domain == "insurance":
        return Scope({**filters, "document_type": "policy_wording"}, note="insurance wordings only")
    excluded = ["policy_wording", "patient_record"]
    return Scope({**filters, "!document_type": excluded}, note="no insurance wordings or patient records")
