"""Loaders: metadata precedence, FHIR records, and bad files that must fail by name."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ingest.loaders import is_document, load_document
from ingest.sidecar import SidecarError, sha256_bytes
from ingest.units import LoaderError
from tests.conftest import CORPUS


def write_doc(folder: Path, name: str, text: str, **meta) -> Path:
    path = folder / f"{name}.txt"
    path.write_text(text, encoding="utf-8")
    sidecar = {
        "title": f"Test {name}",
        "publisher": "Test publisher",
        "jurisdiction": "EU",
        "document_type": "primary_law",
        "version": "1",
        "effective_from": "2020-01-01",
        "source_url": "https://example.org/test",
        "citation": f"TEST Art. {name[-1] if name[-1].isdigit() else 1}",
        "content_hash": sha256_bytes(path.read_bytes()),
        "hierarchy_rank": 1,
        **meta,
    }
    path.with_suffix(".json").write_text(json.dumps(sidecar), encoding="utf-8")
    return path


def test_sidecar_metadata_reaches_every_unit(tmp_path):
    path = write_doc(tmp_path, "doc1", "Article 1 - Scope\n1. First paragraph about scope.\n2. Second paragraph.")
    document = load_document(path, tmp_path)
    assert document.doc_id == "doc1"
    assert document.metadata["publisher"] == "Test publisher" and document.metadata["sidecar"] is True
    assert [u.citation for u in document.units] == ["TEST Art. 1(1)", "TEST Art. 1(2)"]


def test_a_file_without_sidecar_gets_defaults_that_the_command_line_can_override(tmp_path):
    path = tmp_path / "notes_on_consent.md"
    path.write_text("# Consent\nConsent must be freely given.\n", encoding="utf-8")
    document = load_document(path, tmp_path, {"publisher": "Our DPO", "jurisdiction": "UK"})
    assert document.metadata["sidecar"] is False
    assert document.metadata["publisher"] == "Our DPO" and document.metadata["hierarchy_rank"] == 4
    assert document.units[0].section == "Consent"


def test_fhir_bundle_units_repeat_the_patient_identity():
    path = CORPUS / "patients" / "patient_001.json"
    document = load_document(path, path.parent)
    bundle = json.loads(path.read_text())
    patient = next(e["resource"] for e in bundle["entry"] if e["resource"]["resourceType"] == "Patient")
    number = patient["identifier"][0]["value"]
    assert document.units[0].citation.endswith("- Demographics")
    assert all(number in unit.text and patient["id"] in unit.text for unit in document.units)
    conditions = next(u for u in document.units if u.citation.endswith("- Conditions"))
    assert "SNOMED CT" in conditions.text


def test_a_patient_bundle_says_which_lists_have_no_entry_and_a_lone_resource_does_not(tmp_path):
    path = CORPUS / "patients" / "patient_001.json"  # conditions and encounters, no medication, no allergy
    bundle = json.loads(path.read_text())
    units = {u.citation.rsplit(" - ", 1)[1]: u.text for u in load_document(path, path.parent).units}
    for kind in ("Medications", "Allergies and intolerances"):
        assert units[kind].splitlines() == [
            f"{kind} of Patient pat-0001, Joan Okafor, NHS number 999 707 5366 (9997075366):",
            "- none recorded in this record",
        ]
    assert "none recorded" not in units["Conditions"] and "Encounters" in units  # lists with entries are as they were
    condition = next(e["resource"] for e in bundle["entry"] if e["resource"]["resourceType"] == "Condition")
    alone = tmp_path / "condition.json"  # one resource is not the whole record: it cannot say what is missing
    alone.write_text(json.dumps(condition))
    assert all("none recorded" not in u.text for u in load_document(alone, tmp_path).units)


def test_an_encounter_says_where_it_took_place():
    path = CORPUS / "patients" / "patient_074.json"
    units = {u.citation.rsplit(" - ", 1)[1]: u.text for u in load_document(path, path.parent).units}
    inpatient = next(line for line in units["Encounters"].splitlines() if "inpatient" in line)
    assert inpatient.startswith("- inpatient encounter 2024-10-14") and "at Kingsmead Hospital NHS Trust" in inpatient


def test_record_lines_carry_when_a_medicine_started_how_bad_a_reaction_was_and_when_a_stay_ended():
    """A clinician asks "when was the inhaler started?", "how bad was the reaction?", "how long was he in?": the
    record's own dates and severity are in its lines (a one-day visit keeps its one time)."""

    def units(number: str) -> dict[str, str]:
        path = CORPUS / "patients" / f"patient_{number}.json"
        return {u.citation.rsplit(" - ", 1)[1]: u.text for u in load_document(path, path.parent).units}

    inhaler = "Inhale two doses when required for breathlessness, started 2025-07-04 (active)"
    assert inhaler in units("012")["Medications"]
    allergy = units("002")["Allergies and intolerances"]
    assert "reaction: Urticarial rash (SNOMED CT 247472004), severity moderate, criticality high" in allergy
    stays = units("074")["Encounters"]
    assert "inpatient encounter 2024-10-14T09:30:00+00:00 to 2024-10-19T22:44:00+00:00" in stays
    assert all(" to " not in line for line in units("012")["Encounters"].splitlines() if line.startswith("- ambul"))


@pytest.mark.parametrize(
    ("name", "content", "message"),
    [
        ("empty.txt", b"   \n", "empty"),
        ("latin1.txt", "Zürich".encode("latin-1"), "not UTF-8"),
        ("broken.pdf", b"%PDF-1.4 this is not really a pdf", "PDF"),
        ("notes.docx", b"PK\x03\x04", "unsupported file type"),
        ("data.json", b"{not json", "invalid JSON"),
        ("other.xml", b"<root><a/></root>", "unknown XML"),
        ("shapes.json", b'{"hello": "world"}', "unknown JSON"),
    ],
)
def test_bad_files_are_reported_by_name(tmp_path, name, content, message):
    path = tmp_path / name
    path.write_bytes(content)
    with pytest.raises(LoaderError) as error:
        load_document(path, tmp_path)
    assert name in str(error.value) and message in str(error.value)


def test_invalid_sidecar_json_is_reported_by_name(tmp_path):
    path = write_doc(tmp_path, "doc2", "Some text.")
    path.with_suffix(".json").write_text("{broken", encoding="utf-8")
    with pytest.raises(SidecarError, match=r"doc2\.json: sidecar is not valid JSON"):
        load_document(path, tmp_path)


def test_sidecar_missing_fields_lists_them(tmp_path):
    path = write_doc(tmp_path, "doc3", "Some text.")
    meta = json.loads(path.with_suffix(".json").read_text())
    del meta["publisher"]
    meta["hierarchy_rank"] = 9
    path.with_suffix(".json").write_text(json.dumps(meta), encoding="utf-8")
    with pytest.raises(SidecarError) as error:
        load_document(path, tmp_path)
    assert "publisher" in str(error.value) and "hierarchy_rank" in str(error.value)


def test_stale_content_hash_is_refused(tmp_path):
    path = write_doc(tmp_path, "doc4", "Original text.")
    path.write_text("Edited text.", encoding="utf-8")
    with pytest.raises(SidecarError, match="content_hash does not match"):
        load_document(path, tmp_path)


def test_sidecars_and_readmes_are_not_documents(tmp_path):
    path = write_doc(tmp_path, "doc5", "Text.")
    (tmp_path / "README.md").write_text("# About", encoding="utf-8")
    (tmp_path / "record.json").write_text("{}", encoding="utf-8")
    (tmp_path / "record.meta.json").write_text("{}", encoding="utf-8")
    assert is_document(path) and not is_document(path.with_suffix(".json"))
    assert not is_document(tmp_path / "README.md")
    assert is_document(tmp_path / "record.json") and not is_document(tmp_path / "record.meta.json")
