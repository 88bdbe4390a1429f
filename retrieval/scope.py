"""Where a question may be answered from: the patients it names, and the kinds of document its domain allows.

- A question naming a patient (an id such as pat-0045, an NHS number in any spacing, or a full name)
  is searched in that patient's records only. A name two patients share scopes the search to both,
  and the note says so.
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
from language.references import NHS_NUMBER_RE


@dataclass(frozen=True)
class Patient:
    patient_id: str
    name: str
    nhs_number: str


@dataclass(frozen=True)
class Scope:
    filters: dict[str, Any]
    patients: tuple[Patient, ...] = ()
    note: str = ""


class PatientDirectory:
    """The patients of the published index (built once per generation from the records' payloads)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._built_for: int | None = None
        self._patients: list[Patient] = []

    def patients(self, store: VectorStore) -> list[Patient]:
        with self._lock:
            if self._built_for != id(store):
                seen: dict[str, Patient] = {}
                for payload in store.payloads({"document_type": "patient_record"}, limit=1_000_000):
                    if payload.get("patient_id") and payload["patient_id"] not in seen:
                        seen[payload["patient_id"]] = Patient(
                            payload["patient_id"], payload.get("patient_name") or "", payload.get("nhs_number") or ""
                        )
                self._patients, self._built_for = list(seen.values()), id(store)
            return self._patients

    def named_in(self, question: str, store: VectorStore) -> list[Patient]:
        """Patients the question names by id, NHS number (any spacing) or full name."""
        lowered = question.lower()
        numbers = {"".join(m) for m in NHS_NUMBER_RE.findall(question)}
        found = []
        for patient in self.patients(store):
            by_id = re.search(rf"\b{re.escape(patient.patient_id.lower())}\b", lowered)
            by_name = patient.name and re.search(rf"\b{re.escape(patient.name.lower())}\b", lowered)
            if by_id or patient.nhs_number in numbers or by_name:
                found.append(patient)
        return found


def scope_for(question: str, filters: dict[str, Any], store: VectorStore, directory: PatientDirectory) -> Scope:
    """The filters a question is searched with: its patients, or the kinds of document its domain allows."""
    patients = directory.named_in(question, store)
    if patients:
        names = {p.name for p in patients}
        note = f"two patients named {patients[0].name}: " if len(patients) > 1 and len(names) == 1 else ""
        note += "scoped to " + ", ".join(f"{p.name} ({p.patient_id})" for p in patients)
        return Scope({**filters, "patient_id": [p.patient_id for p in patients]}, tuple(patients), note)
    if "collection" in filters:
        return Scope(filters)
    domain = analyse(question).domain
    if domain == "records":
        return Scope({**filters, "document_type": "patient_record"}, note="records of every patient")
    if domain == "insurance":
        return Scope({**filters, "document_type": "policy_wording"}, note="insurance wordings only")
    excluded = ["policy_wording", "patient_record"]
    return Scope({**filters, "!document_type": excluded}, note="no insurance wordings or patient records")
