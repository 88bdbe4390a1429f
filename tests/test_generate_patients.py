"""scripts/generate_patients.py: deterministic synthetic FHIR UK Core bundles, and the shipped copy."""

from __future__ import annotations

import importlib.util
import json
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from ingest.sidecar import read_sidecar, sha256_bytes

ROOT = Path(__file__).resolve().parents[1]
SCRIPT = ROOT / "scripts" / "generate_patients.py"
SHIPPED = ROOT / "corpus" / "patients"
NHS_NUMBER_SYSTEM = "https://fhir.nhs.uk/Id/nhs-number"
UKCORE_PATIENT = "https://fhir.hl7.org.uk/StructureDefinition/UKCore-Patient"
UUID_URN = re.compile(r"^urn:uuid:[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$")
FHIR_ID = re.compile(r"^[A-Za-z0-9\-.]{1,64}$")


def _load_generator():
    spec = importlib.util.spec_from_file_location("generate_patients", SCRIPT)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules.setdefault("generate_patients", module)
    spec.loader.exec_module(module)
    return module


generator = _load_generator()
nhs_number_is_valid = generator.nhs_number_is_valid


def _patient_files(folder: Path) -> dict[str, bytes]:
    return {path.name: path.read_bytes() for path in sorted(folder.glob("patient_*.json"))}


def _bundles(folder: Path) -> dict[str, dict[str, Any]]:
    return {
        path.name: json.loads(path.read_text(encoding="utf-8"))
        for path in sorted(folder.glob("patient_*.json"))
        if not path.name.endswith(".meta.json")
    }


def _references(node: Any) -> list[str]:
    found: list[str] = []
    if isinstance(node, dict):
        for key, value in node.items():
            if key == "reference" and isinstance(value, str):
                found.append(value)
            else:
                found.extend(_references(value))
    elif isinstance(node, list):
        for item in node:
            found.extend(_references(item))
    return found


def _nhs_number(bundle: dict[str, Any]) -> str:
    patient = next(e["resource"] for e in bundle["entry"] if e["resource"]["resourceType"] == "Patient")
    return next(i["value"] for i in patient["identifier"] if i["system"] == NHS_NUMBER_SYSTEM)


@pytest.fixture(scope="module")
def shipped_bundles() -> dict[str, dict[str, Any]]:
    bundles = _bundles(SHIPPED)
    assert bundles, "corpus/patients is empty: run scripts/generate_patients.py"
    return bundles


# --- NHS number check ---------------------------------------------------------------------------


@pytest.mark.parametrize("number", ["9434765919", "9990000018", "4010232137"])
def test_nhs_number_valid_examples(number: str) -> None:
    assert nhs_number_is_valid(number)


@pytest.mark.parametrize(
    "number",
    [
        "9434765918",  # wrong check digit
        "943476591",  # nine digits
        "94347659190",  # eleven digits
        "943476591A",  # not all digits
        "",
    ],
)
def test_nhs_number_invalid_examples(number: str) -> None:
    assert not nhs_number_is_valid(number)


def test_check_result_ten_is_never_valid() -> None:
    # 9*10 + 9*9 + 9*8 = 243; 243 mod 11 = 1; 11 - 1 = 10: no check digit exists for 999000000.
    assert generator.nhs_number_check_digit("999000000") is None
    assert not any(nhs_number_is_valid(f"999000000{digit}") for digit in range(10))


def test_check_digit_eleven_maps_to_zero() -> None:
    # 0*10 + ... all zeros: sum 0, 11 - 0 = 11 -> check digit 0.
    assert generator.nhs_number_check_digit("000000000") == 0
    assert nhs_number_is_valid("0000000000")


# --- determinism --------------------------------------------------------------------------------


def test_same_seed_gives_identical_bytes(tmp_path: Path) -> None:
    first, second = tmp_path / "a", tmp_path / "b"
    generator.main(["--seed", "2026", "--count", "12", "--out", str(first)])
    generator.main(["--seed", "2026", "--count", "12", "--out", str(second)])
    files_a, files_b = _patient_files(first), _patient_files(second)
    assert len(files_a) == 24
    assert files_a == files_b


def test_different_seed_gives_different_output(tmp_path: Path) -> None:
    generator.main(["--seed", "2026", "--count", "12", "--out", str(tmp_path / "a")])
    generator.main(["--seed", "7", "--count", "12", "--out", str(tmp_path / "b")])
    files_a, files_b = _patient_files(tmp_path / "a"), _patient_files(tmp_path / "b")
    assert files_a.keys() == files_b.keys()
    assert all(files_a[name] != files_b[name] for name in files_a if not name.endswith(".meta.json"))


def test_rewrite_removes_stale_patient_files(tmp_path: Path) -> None:
    (tmp_path / "patient_999.json").write_text("{}", encoding="utf-8")
    (tmp_path / "keep.txt").write_text("not a patient file", encoding="utf-8")
    generator.main(["--count", "3", "--out", str(tmp_path)])
    assert sorted(_patient_files(tmp_path)) == [
        "patient_001.json",
        "patient_001.meta.json",
        "patient_002.json",
        "patient_002.meta.json",
        "patient_003.json",
        "patient_003.meta.json",
    ]
    assert (tmp_path / "keep.txt").exists()


def test_shipped_corpus_matches_default_seed(tmp_path: Path) -> None:
    generator.main(["--out", str(tmp_path)])
    expected = _patient_files(tmp_path)
    assert len(expected) == 150
    shipped = _patient_files(SHIPPED)
    assert sorted(shipped) == sorted(expected), "corpus/patients has missing or extra files"
    drifted = [name for name in expected if shipped[name] != expected[name]]
    assert not drifted, f"shipped files differ from the generator output: {drifted[:5]}"


# --- FHIR shape of the shipped bundles ----------------------------------------------------------


def test_shipped_count(shipped_bundles: dict[str, dict[str, Any]]) -> None:
    assert sorted(shipped_bundles) == [f"patient_{n:03d}.json" for n in range(1, 76)]


def test_bundle_shape(shipped_bundles: dict[str, dict[str, Any]]) -> None:
    for name, bundle in shipped_bundles.items():
        assert bundle["resourceType"] == "Bundle", name
        assert bundle["type"] == "collection", name
        assert FHIR_ID.match(bundle["id"]), name
        full_urls = [entry["fullUrl"] for entry in bundle["entry"]]
        assert len(full_urls) == len(set(full_urls)), f"{name}: duplicate fullUrl"
        ids = []
        for entry in bundle["entry"]:
            resource = entry["resource"]
            assert UUID_URN.match(entry["fullUrl"]), f"{name}: {entry['fullUrl']}"
            assert resource.get("resourceType"), f"{name}: entry without resourceType"
            assert isinstance(resource.get("id"), str) and FHIR_ID.match(resource["id"]), f"{name}: bad id"
            ids.append((resource["resourceType"], resource["id"]))
        assert len(ids) == len(set(ids)), f"{name}: duplicate resource id"


def test_every_reference_resolves_inside_its_bundle(shipped_bundles: dict[str, dict[str, Any]]) -> None:
    for name, bundle in shipped_bundles.items():
        full_urls = {entry["fullUrl"] for entry in bundle["entry"]}
        references = _references(bundle["entry"])
        assert references, name
        unresolved = [ref for ref in references if ref not in full_urls]
        assert not unresolved, f"{name}: unresolved references {unresolved}"


def test_resource_counts(shipped_bundles: dict[str, dict[str, Any]]) -> None:
    for name, bundle in shipped_bundles.items():
        types = [entry["resource"]["resourceType"] for entry in bundle["entry"]]
        medications = types.count("MedicationStatement") + types.count("MedicationRequest")
        assert types.count("Patient") == 1, name
        assert types[0] == "Patient", name
        assert 1 <= types.count("Condition") <= 4, name
        assert 0 <= medications <= 3, name
        assert 0 <= types.count("AllergyIntolerance") <= 2, name
        assert 1 <= types.count("Encounter") <= 3, name
        assert types.count("Organization") >= 1, name


def test_patient_resource(shipped_bundles: dict[str, dict[str, Any]]) -> None:
    for name, bundle in shipped_bundles.items():
        patient = bundle["entry"][0]["resource"]
        assert patient["meta"]["profile"] == [UKCORE_PATIENT], name
        assert re.fullmatch(r"pat-\d{4}", patient["id"]), name
        systems = [identifier["system"] for identifier in patient["identifier"]]
        assert NHS_NUMBER_SYSTEM in systems, name
        assert patient["name"][0]["family"] and patient["name"][0]["given"], name
        assert patient["gender"] in {"male", "female", "other", "unknown"}, name
        assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", patient["birthDate"]), name
        postcode = patient["address"][0]["postalCode"]
        assert re.fullmatch(r"[A-Z]{1,2}\d{1,2}[A-Z]? \d[A-Z]{2}", postcode), f"{name}: {postcode}"
        practitioner = patient["generalPractitioner"][0]["reference"]
        gp = next(e["resource"] for e in bundle["entry"] if e["fullUrl"] == practitioner)
        assert gp["resourceType"] == "Organization", name


def test_clinical_codes(shipped_bundles: dict[str, dict[str, Any]]) -> None:
    for name, bundle in shipped_bundles.items():
        for entry in bundle["entry"]:
            resource = entry["resource"]
            kind = resource["resourceType"]
            if kind in {"Condition", "AllergyIntolerance"}:
                coding = resource["code"]["coding"][0]
                assert coding["system"] == "http://snomed.info/sct" and coding["code"].isdigit(), name
            elif kind in {"MedicationStatement", "MedicationRequest"}:
                coding = resource["medicationCodeableConcept"]["coding"][0]
                assert coding["system"] == "https://dmd.nhs.uk" and coding["code"].isdigit(), name
                dosage = resource.get("dosage") or resource.get("dosageInstruction")
                assert dosage and dosage[0]["text"], name
            elif kind == "Encounter":
                assert resource["class"]["code"] in {"AMB", "VR", "EMER", "IMP"}, name
                assert resource["period"]["start"] < resource["period"]["end"], name
                assert resource["reasonReference"], name


def test_nhs_numbers_valid_and_unique(shipped_bundles: dict[str, dict[str, Any]]) -> None:
    numbers = [_nhs_number(bundle) for bundle in shipped_bundles.values()]
    invalid = [number for number in numbers if not nhs_number_is_valid(number)]
    assert not invalid, invalid
    assert len(numbers) == len(set(numbers))


def test_varied_demographics(shipped_bundles: dict[str, dict[str, Any]]) -> None:
    patients = [bundle["entry"][0]["resource"] for bundle in shipped_bundles.values()]
    assert len({p["name"][0]["family"] for p in patients}) >= 30
    assert len({p["name"][0]["given"][0] for p in patients}) >= 30
    assert len({p["address"][0]["postalCode"].split()[0] for p in patients}) >= 20
    assert len({p["birthDate"][:3] for p in patients}) >= 5  # birth decades
    assert {p["gender"] for p in patients} == {"male", "female"}


# --- sidecars -----------------------------------------------------------------------------------


def test_sidecars_match_bundles(shipped_bundles: dict[str, dict[str, Any]]) -> None:
    citations = set()
    for name, bundle in shipped_bundles.items():
        document = SHIPPED / name
        sidecar = read_sidecar(document.with_name(document.stem + ".meta.json"))
        assert sidecar.content_hash == sha256_bytes(document.read_bytes()), f"{name}: stale content_hash"
        patient = bundle["entry"][0]["resource"]
        human = patient["name"][0]
        assert sidecar.title == f"Synthetic patient record: {human['given'][0]} {human['family']}", name
        assert sidecar.citation == f"Patient {patient['id']} (NHS number {_nhs_number(bundle)})", name
        assert sidecar.publisher == "PolicyRAG synthetic data"
        assert sidecar.jurisdiction == "UK"
        assert sidecar.document_type == "patient_record"
        assert sidecar.version == "1"
        assert sidecar.hierarchy_rank == 4
        assert str(sidecar.source_url) == UKCORE_PATIENT
        assert sidecar.effective_from.isoformat() == "2026-01-01"
        citations.add(sidecar.citation)
    assert len(citations) == len(shipped_bundles)
