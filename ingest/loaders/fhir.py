"""FHIR R4 resources and bundles (UK Core shape) as readable record units.

A patient bundle becomes one unit for the patient and one per kind of entry (conditions,
medications, allergies, encounters). Every unit repeats the patient's id, name and NHS number
so a record-style question about that patient finds the right part by exact identifier.
"""

from __future__ import annotations

from collections import defaultdict
from typing import Any

from core.types import NONE_RECORDED
from ingest.units import Unit

NHS_NUMBER_SYSTEM = "https://fhir.nhs.uk/Id/nhs-number"
_GROUPS = {
    "Condition": "Conditions",
    "MedicationStatement": "Medications",
    "MedicationRequest": "Medications",
    "AllergyIntolerance": "Allergies and intolerances",
    "Encounter": "Encounters",
    "Observation": "Observations",
    "Procedure": "Procedures",
    "Immunization": "Immunisations",
}


# A patient's record always answers these, also when it holds no entry: "none recorded" is itself the answer
# to "what is she allergic to?", and a search for her allergies must not fall back on her conditions.
ALWAYS_LISTED = ("Conditions", "Medications", "Allergies and intolerances")


def _coding(concept: dict[str, Any] | None) -> str:
    """`Type 2 diabetes mellitus (SNOMED CT 44054006)` from a CodeableConcept."""
    if not concept:
        return ""
    codings = concept.get("coding") or []
    label = concept.get("text") or next((c.get("display") for c in codings if c.get("display")), "")
    codes = [c.get("code") for c in codings if c.get("code")]
    system = next((c.get("system", "") for c in codings), "")
    scheme = "SNOMED CT" if "snomed" in system else "dm+d" if "dmd" in system else system.rsplit("/", 1)[-1]
    return f"{label} ({scheme} {codes[0]})" if codes and label else label or (codes[0] if codes else "")


def _status(concept: dict[str, Any] | None) -> str:
    return _coding(concept).split(" (")[0] if concept else ""


def nhs_number(patient: dict[str, Any]) -> str | None:
    for identifier in patient.get("identifier") or []:
        if identifier.get("system") == NHS_NUMBER_SYSTEM and identifier.get("value"):
            return str(identifier["value"]).replace(" ", "")
    return None


def _spaced(number: str) -> str:
    return f"{number[:3]} {number[3:6]} {number[6:]}" if len(number) == 10 else number


def full_name(patient: dict[str, Any]) -> str:
    names = patient.get("name") or [{}]
    given = " ".join(names[0].get("given") or [])
    return f"{given} {names[0].get('family', '')}".strip()


def identity(patient: dict[str, Any]) -> dict[str, Any]:
    """What every unit of a patient's record carries, so a question can be scoped to that patient."""
    return {"patient_id": patient.get("id"), "patient_name": full_name(patient), "nhs_number": nhs_number(patient)}


def _patient_line(patient: dict[str, Any]) -> str:
    name = full_name(patient)
    number = nhs_number(patient)
    ident = f"Patient {patient.get('id', '?')}"
    if name:
        ident += f", {name}"
    if number:
        ident += f", NHS number {_spaced(number)} ({number})"
    return ident


def _describe(resource: dict[str, Any]) -> str:
    kind = resource.get("resourceType", "")
    if kind == "Condition":
        onset = resource.get("onsetDateTime") or resource.get("recordedDate") or ""
        status = _status(resource.get("clinicalStatus"))
        return (
            f"- {_coding(resource.get('code'))}"
            + (f", onset {onset}" if onset else "")
            + (f", {status}" if status else "")
        )
    if kind in ("MedicationStatement", "MedicationRequest"):
        medication = _coding(resource.get("medicationCodeableConcept")) or resource.get("medicationReference", {}).get(
            "display", ""
        )
        dosage = resource.get("dosage") or resource.get("dosageInstruction") or []
        dose = "; ".join(d.get("text", "") for d in dosage if d.get("text"))
        status = resource.get("status", "")
        # when it was started or prescribed: "when did he start the inhaler?"
        started = (resource.get("effectivePeriod") or {}).get("start") or resource.get("effectiveDateTime")
        authored = resource.get("authoredOn")
        since = f", started {started}" if started else (f", prescribed {authored}" if authored else "")
        return f"- {medication}" + (f": {dose}" if dose else "") + since + (f" ({status})" if status else "")
    if kind == "AllergyIntolerance":
        # each reaction with its severity: "how bad was the reaction?"
        reactions = [
            f"{_coding(m)}, severity {r['severity']}" if r.get("severity") else _coding(m)
            for r in resource.get("reaction") or []
            for m in r.get("manifestation") or []
            if _coding(m)
        ]
        criticality = resource.get("criticality", "")
        text = f"- {_coding(resource.get('code'))}"
        if reactions:
            text += f", reaction: {', '.join(reactions)}"
        text += f", criticality {criticality}" if criticality else ""
        return text + (f", recorded {resource['recordedDate']}" if resource.get("recordedDate") else "")
    if kind == "Encounter":
        period = resource.get("period") or {}
        klass = resource.get("class") or {}
        klass_text = klass.get("display") or klass.get("code", "") if isinstance(klass, dict) else ""
        reasons = ", ".join(_coding(r) for r in resource.get("reasonCode") or [])
        types = ", ".join(_coding(t) for t in resource.get("type") or [])
        text = f"- {klass_text or 'encounter'} {period.get('start', '')}".rstrip()
        if period.get("end") and period["end"][:10] != period.get("start", "")[:10]:  # a stay over several days
            text += f" to {period['end']}"
        if types:
            text += f", {types}"
        if reasons:
            text += f", reason: {reasons}"
        if provider := (resource.get("serviceProvider") or {}).get("display"):  # "which hospital was it?"
            text += f", at {provider}"
        return text + (f" ({resource['status']})" if resource.get("status") else "")
    label = _coding(resource.get("code")) or (resource.get("text") or {}).get("div", "")
    return f"- {kind} {resource.get('id', '')}: {label}".strip()


def _patient_unit(patient: dict[str, Any], organisations: dict[str, dict[str, Any]], citation: str) -> Unit:
    lines = [_patient_line(patient) + "."]
    if patient.get("gender") or patient.get("birthDate"):
        lines.append(
            f"Gender: {patient.get('gender', 'unknown')}. Date of birth: {patient.get('birthDate', 'unknown')}."
        )
    for address in patient.get("address") or []:
        parts = [*(address.get("line") or []), address.get("city", ""), address.get("postalCode", "")]
        lines.append("Address: " + ", ".join(p for p in parts if p) + ".")
    for practitioner in patient.get("generalPractitioner") or []:
        organisation = organisations.get(practitioner.get("reference", ""), {})
        name = organisation.get("name") or practitioner.get("display", "")
        if name:
            lines.append(f"Registered GP practice: {name}.")
    profiles = (patient.get("meta") or {}).get("profile") or []
    if profiles:
        lines.append(f"Profile: {profiles[0]}.")
    return Unit("\n".join(lines), f"{citation} - Demographics", "Patient", extra=identity(patient))


def fhir_units(data: dict[str, Any], citation: str) -> list[Unit]:
    """Units of a FHIR resource or bundle; the patient's identity is repeated in each."""
    resources = (
        [e.get("resource", {}) for e in data.get("entry") or []] if data.get("resourceType") == "Bundle" else [data]
    )
    by_url = {e.get("fullUrl", ""): e.get("resource", {}) for e in data.get("entry") or []}
    organisations = {url: r for url, r in by_url.items() if r.get("resourceType") == "Organization"}
    organisations.update({f"Organization/{r.get('id')}": r for r in organisations.values()})
    patients = [r for r in resources if r.get("resourceType") == "Patient"]
    header = _patient_line(patients[0]) if patients else citation
    units = [_patient_unit(p, organisations, citation) for p in patients]
    groups: dict[str, list[str]] = defaultdict(list)
    for resource in resources:
        kind = resource.get("resourceType")
        if kind in ("Patient", "Organization", None):
            continue
        groups[_GROUPS.get(kind, kind)].append(_describe(resource))
    extra = identity(patients[0]) if patients else {}
    if patients and data.get("resourceType") == "Bundle":  # a whole record: say which lists it has no entry in
        for group in ALWAYS_LISTED:
            groups.setdefault(group, [f"- {NONE_RECORDED}"])
    for group, lines in groups.items():
        units.append(
            Unit(f"{group} of {header}:\n" + "\n".join(lines), f"{citation} - {group}", group, extra=dict(extra))
        )
    return units
