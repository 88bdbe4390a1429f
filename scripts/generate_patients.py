"""Generate the synthetic `patients` collection: FHIR R4 bundles in HL7 FHIR UK Core shape.

Usage: python scripts/generate_patients.py [--seed 2026] [--count 75] [--out corpus/patients]

Every value comes from one random.Random(seed) stream and fixed tables, never from the clock,
so the same seed always produces byte-identical files. The output folder's patient files
(patient_NNN.json and patient_NNN.meta.json) are replaced exactly: stale ones are removed.

All people, addresses, practices and identifiers are synthetic. NHS numbers are drawn from the
999 range used for test data, and phone numbers from Ofcom's 07700 900xxx drama range.
Clinical codes are SNOMED CT concepts and NHS dm+d (VMP) concepts; the tables below are a small
illustrative subset, not a terminology release.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import random
import uuid
from datetime import UTC, date, datetime, time, timedelta
from pathlib import Path
from typing import Any

DEFAULT_SEED = 2026
DEFAULT_COUNT = 75
DEFAULT_OUT = Path(__file__).resolve().parents[1] / "corpus" / "patients"

# Fixed "as of" date for ages, onsets and encounters; also the sidecar effective_from.
REFERENCE_DATE = date(2026, 1, 1)
BUNDLE_TIMESTAMP = "2026-01-01T00:00:00+00:00"

UKCORE = "https://fhir.hl7.org.uk/StructureDefinition/"
NHS_NUMBER_SYSTEM = "https://fhir.nhs.uk/Id/nhs-number"
ODS_SYSTEM = "https://fhir.nhs.uk/Id/ods-organization-code"
SNOMED = "http://snomed.info/sct"
DMD = "https://dmd.nhs.uk"
VERIFICATION_STATUS_EXTENSION = UKCORE + "Extension-UKCore-NHSNumberVerificationStatus"
VERIFICATION_STATUS_SYSTEM = "https://fhir.hl7.org.uk/CodeSystem/UKCore-NHSNumberVerificationStatusEngland"
CONDITION_CLINICAL = "http://terminology.hl7.org/CodeSystem/condition-clinical"
CONDITION_VERIFICATION = "http://terminology.hl7.org/CodeSystem/condition-ver-status"
CONDITION_CATEGORY = "http://terminology.hl7.org/CodeSystem/condition-category"
ALLERGY_CLINICAL = "http://terminology.hl7.org/CodeSystem/allergyintolerance-clinical"
ALLERGY_VERIFICATION = "http://terminology.hl7.org/CodeSystem/allergyintolerance-verification"
ACT_CODE = "http://terminology.hl7.org/CodeSystem/v3-ActCode"

SIDECAR_SOURCE_URL = UKCORE + "UKCore-Patient"

# --- reference tables -------------------------------------------------------------------------

GIVEN_FEMALE = [
    "Olivia",
    "Amelia",
    "Isla",
    "Ava",
    "Freya",
    "Priya",
    "Aisha",
    "Zainab",
    "Chloe",
    "Megan",
    "Siobhan",
    "Niamh",
    "Grace",
    "Harriet",
    "Fatima",
    "Maryam",
    "Sophie",
    "Eleanor",
    "Rhiannon",
    "Catrin",
    "Joan",
    "Margaret",
    "Patricia",
    "Sandra",
    "Deborah",
    "Yetunde",
    "Chiamaka",
    "Mei",
    "Anjali",
    "Hannah",
    "Lucy",
    "Agnieszka",
    "Beatriz",
    "Zoe",
    "Imogen",
]
GIVEN_MALE = [
    "Oliver",
    "George",
    "Harry",
    "Jack",
    "Noah",
    "Mohammed",
    "Arjun",
    "Rohan",
    "Kwame",
    "Tunde",
    "Liam",
    "Connor",
    "Callum",
    "Dylan",
    "Owen",
    "Rhys",
    "Gareth",
    "Thomas",
    "William",
    "James",
    "David",
    "Peter",
    "Graham",
    "Keith",
    "Brian",
    "Imran",
    "Bilal",
    "Hamza",
    "Wei",
    "Tomasz",
    "Mateusz",
    "Samuel",
    "Joseph",
    "Ewan",
    "Aled",
]
MIDDLE_NAMES = ["Anne", "Marie", "Louise", "Jane", "Rose", "John", "Michael", "Paul", "Edward", "Lee"]
FAMILY_NAMES = [
    "Smith",
    "Jones",
    "Williams",
    "Taylor",
    "Brown",
    "Davies",
    "Evans",
    "Wilson",
    "Thomas",
    "Roberts",
    "Johnson",
    "Lewis",
    "Walker",
    "Robinson",
    "Wood",
    "Thompson",
    "White",
    "Watson",
    "Jackson",
    "Wright",
    "Green",
    "Harris",
    "Cooper",
    "King",
    "Patel",
    "Khan",
    "Ahmed",
    "Hussain",
    "Begum",
    "Singh",
    "Kaur",
    "Shah",
    "Okafor",
    "Adeyemi",
    "Mensah",
    "Osei",
    "Chen",
    "Wong",
    "Nowak",
    "Kowalski",
    "O'Brien",
    "Murphy",
    "Kelly",
    "MacDonald",
    "Campbell",
    "Stewart",
    "Hughes",
    "Edwards",
    "Price",
    "Morgan",
    "Pritchard",
    "Ali",
    "Iqbal",
    "Da Silva",
    "Costa",
]

# (town, district, outward codes). Inward codes are generated.
TOWNS = [
    ("London", "Tower Hamlets", ["E1", "E3", "E14"]),
    ("London", "Southwark", ["SE1", "SE15", "SE22"]),
    ("London", "Camden", ["NW1", "NW5", "NW6"]),
    ("Manchester", "Greater Manchester", ["M14", "M20", "M21"]),
    ("Birmingham", "West Midlands", ["B13", "B15", "B29"]),
    ("Leeds", "West Yorkshire", ["LS6", "LS8", "LS11"]),
    ("Sheffield", "South Yorkshire", ["S7", "S10", "S11"]),
    ("Bristol", "Bristol", ["BS3", "BS6", "BS7"]),
    ("Newcastle upon Tyne", "Tyne and Wear", ["NE2", "NE4", "NE6"]),
    ("Liverpool", "Merseyside", ["L8", "L15", "L18"]),
    ("Nottingham", "Nottinghamshire", ["NG5", "NG7", "NG9"]),
    ("Leicester", "Leicestershire", ["LE2", "LE3", "LE5"]),
    ("Norwich", "Norfolk", ["NR2", "NR3", "NR4"]),
    ("Exeter", "Devon", ["EX1", "EX2", "EX4"]),
    ("Plymouth", "Devon", ["PL1", "PL4", "PL6"]),
    ("Brighton", "East Sussex", ["BN1", "BN2", "BN3"]),
    ("York", "North Yorkshire", ["YO10", "YO24", "YO31"]),
    ("Cambridge", "Cambridgeshire", ["CB1", "CB2", "CB4"]),
    ("Oxford", "Oxfordshire", ["OX1", "OX3", "OX4"]),
    ("Southampton", "Hampshire", ["SO14", "SO15", "SO17"]),
    ("Hull", "East Riding of Yorkshire", ["HU3", "HU5", "HU8"]),
    ("Derby", "Derbyshire", ["DE1", "DE22", "DE23"]),
    ("Cardiff", "Cardiff", ["CF5", "CF14", "CF24"]),
    ("Swansea", "Swansea", ["SA1", "SA2", "SA6"]),
]
INWARD_LETTERS = "ABDEFGHJLNPQRSTUWXYZ"  # letters used in the inward part of UK postcodes
STREETS = [
    "High Street",
    "Church Lane",
    "Station Road",
    "Victoria Road",
    "Park Avenue",
    "Mill Lane",
    "Elm Grove",
    "Queens Road",
    "Kings Road",
    "Manor Way",
    "Green Lane",
    "Albert Street",
    "Orchard Close",
    "Meadow View",
    "Chapel Street",
    "Windsor Terrace",
    "Willow Crescent",
    "Hawthorn Drive",
    "Beech Road",
    "Cedar Court",
    "Riverside Walk",
    "Brook Street",
]
PRACTICE_PREFIXES = [
    "Riverside",
    "Parkview",
    "Oakwood",
    "Meadowbank",
    "Hillcrest",
    "Northgate",
    "Southfields",
    "Westbrook",
    "Eastleigh Road",
    "Castle Street",
    "Abbey",
    "Kingsway",
    "Harbour",
    "Beacon",
]
PRACTICE_SUFFIXES = ["Medical Centre", "Surgery", "Health Centre", "Medical Practice", "Family Practice"]
HOSPITAL_NAMES = [
    "Northfield Hospitals NHS Trust",
    "Westmoor University Hospitals NHS Foundation Trust",
    "Kingsmead Hospital NHS Trust",
    "Elmbridge Teaching Hospitals NHS Trust",
    "Southcombe Healthcare NHS Foundation Trust",
]

# SNOMED CT disorders: key -> (code, display, weight, minimum age)
CONDITIONS = {
    "t2dm": ("44054006", "Type 2 diabetes mellitus", 14, 30),
    "htn": ("59621000", "Essential hypertension", 18, 30),
    "asthma": ("195967001", "Asthma", 12, 18),
    "copd": ("13645005", "Chronic obstructive lung disease", 7, 45),
    "af": ("49436004", "Atrial fibrillation", 6, 50),
    "ckd3": ("433144002", "Chronic kidney disease stage 3", 5, 50),
    "depression": ("35489007", "Depressive disorder", 10, 18),
    "anxiety": ("197480006", "Anxiety disorder", 7, 18),
    "oa": ("396275006", "Osteoarthritis", 9, 45),
    "hypothyroid": ("40930008", "Hypothyroidism", 5, 25),
    "hf": ("84114007", "Heart failure", 3, 55),
    "lipid": ("55822004", "Hyperlipidemia", 8, 35),
    "gord": ("235595009", "Gastroesophageal reflux disease", 6, 18),
}

# NHS dm+d VMPs: key -> (code, display, dose text, linked condition keys, chronic)
MEDICATIONS = {
    "metformin": ("325278007", "Metformin 500mg tablets", "Take one tablet twice a day with meals", ["t2dm"], True),
    "amlodipine": ("319283006", "Amlodipine 5mg tablets", "Take one tablet once a day", ["htn"], True),
    "salbutamol": (
        "39113611000001102",
        "Salbutamol 100micrograms/dose inhaler CFC free",
        "Inhale two doses when required for breathlessness",
        ["asthma", "copd"],
        True,
    ),
    "apixaban": ("42206511000001102", "Apixaban 5mg tablets", "Take one tablet twice a day", ["af"], True),
    "aspirin": (
        "319773006",
        "Aspirin 75mg dispersible tablets",
        "Take one tablet once a day with or after food",
        ["hf"],
        True,
    ),
    "paracetamol": (
        "322236009",
        "Paracetamol 500mg tablets",
        "Take one or two tablets up to four times a day when required; no more than eight tablets in 24 hours",
        ["oa"],
        True,
    ),
    "amoxicillin": (
        "323509004",
        "Amoxicillin 250mg capsules",
        "Take one capsule three times a day for 5 days",
        [],
        False,
    ),
}

# Allergy substances: (code, display, category, criticality, [(reaction code, reaction display, severity)])
ALLERGENS = [
    ("764146007", "Penicillin", "medication", "high", [("247472004", "Urticarial rash", "moderate")]),
    ("372687004", "Amoxicillin", "medication", "low", [("247472004", "Urticarial rash", "mild")]),
    ("387458008", "Aspirin", "medication", "low", [("56018004", "Wheezing", "moderate")]),
    ("387494007", "Codeine", "medication", "low", [("422587007", "Nausea", "mild")]),
    ("762952008", "Peanut", "food", "high", [("39579001", "Anaphylaxis", "severe")]),
    ("111088007", "Latex", "environment", "low", [("271807003", "Eruption of skin", "mild")]),
]

# Encounter classes: (code, display, weight, min duration minutes, max duration minutes)
ENCOUNTER_CLASSES = [
    ("AMB", "ambulatory", 60, 10, 30),
    ("VR", "virtual", 15, 8, 20),
    ("EMER", "emergency", 15, 120, 480),
    ("IMP", "inpatient encounter", 10, 1440, 8640),
]


# --- NHS numbers --------------------------------------------------------------------------------


def nhs_number_check_digit(first_nine: str) -> int | None:
    """The modulus 11 check digit for nine digits, or None when the result is 10 (no valid number)."""
    if len(first_nine) != 9 or not first_nine.isdigit():
        raise ValueError(f"expected nine digits, got {first_nine!r}")
    total = sum(int(digit) * weight for digit, weight in zip(first_nine, range(10, 1, -1)))
    check = 11 - (total % 11)
    if check == 11:
        return 0
    if check == 10:
        return None
    return check


def nhs_number_is_valid(value: str) -> bool:
    """True for a 10-digit NHS number whose last digit is the modulus 11 check digit of the first nine."""
    if not isinstance(value, str) or len(value) != 10 or not value.isdigit():
        return False
    check = nhs_number_check_digit(value[:9])
    return check is not None and check == int(value[9])


def _nhs_number(rng: random.Random, used: set[str]) -> str:
    while True:
        first_nine = "999" + "".join(str(rng.randint(0, 9)) for _ in range(6))
        check = nhs_number_check_digit(first_nine)
        if check is None:
            continue  # a check result of 10 cannot be issued: draw again
        number = first_nine + str(check)
        if number not in used:
            used.add(number)
            return number


# --- helpers ------------------------------------------------------------------------------------


def _uuid(rng: random.Random) -> str:
    return str(uuid.UUID(int=rng.getrandbits(128), version=4))


def _random_date(rng: random.Random, start: date, end: date) -> date:
    if end <= start:
        return start
    return start + timedelta(days=rng.randint(0, (end - start).days))


def _add_years(day: date, years: int) -> date:
    try:
        return day.replace(year=day.year + years)
    except ValueError:  # 29 February
        return day.replace(year=day.year + years, day=28)


def _instant(day: date, minute_of_day: int) -> datetime:
    return datetime.combine(day, time(0, 0), tzinfo=UTC) + timedelta(minutes=minute_of_day)


def _iso(moment: datetime) -> str:
    return moment.isoformat()


def _postcode(rng: random.Random, outward: str) -> str:
    return f"{outward} {rng.randint(1, 9)}{rng.choice(INWARD_LETTERS)}{rng.choice(INWARD_LETTERS)}"


def _coding(system: str, code: str, display: str) -> dict[str, str]:
    return {"system": system, "code": code, "display": display}


def _concept(system: str, code: str, display: str) -> dict[str, Any]:
    return {"coding": [_coding(system, code, display)], "text": display}


def _ref(full_url: str, display: str | None = None) -> dict[str, str]:
    reference = {"reference": full_url}
    if display:
        reference["display"] = display
    return reference


def _entry(full_url: str, resource: dict[str, Any]) -> dict[str, Any]:
    return {"fullUrl": full_url, "resource": resource}


def _weighted_sample(rng: random.Random, items: list[str], weights: list[int], k: int) -> list[str]:
    """k distinct items, drawn without replacement in proportion to their weights."""
    pool = list(items)
    pool_weights = list(weights)
    chosen: list[str] = []
    for _ in range(min(k, len(pool))):
        pick = rng.choices(range(len(pool)), weights=pool_weights, k=1)[0]
        chosen.append(pool.pop(pick))
        pool_weights.pop(pick)
    return chosen


# --- one patient --------------------------------------------------------------------------------


def build_patient(rng: random.Random, index: int, used_nhs_numbers: set[str]) -> tuple[dict[str, Any], dict[str, str]]:
    """One bundle and the facts the sidecar needs (name, patient id, NHS number)."""
    patient_id = f"pat-{index:04d}"
    gender = rng.choice(["female", "male"])
    given = rng.choice(GIVEN_FEMALE if gender == "female" else GIVEN_MALE)
    family = rng.choice(FAMILY_NAMES)
    middle = rng.choice(MIDDLE_NAMES) if rng.random() < 0.3 else None
    age = rng.choices([rng.randint(18, 39), rng.randint(40, 64), rng.randint(65, 94)], weights=[25, 40, 35], k=1)[0]
    birth_date = REFERENCE_DATE - timedelta(days=age * 365 + age // 4 + rng.randint(1, 364))
    age = (REFERENCE_DATE - birth_date).days // 365
    if gender == "female":
        prefix = rng.choice(["Mrs", "Ms", "Miss", "Dr"]) if age >= 25 else rng.choice(["Ms", "Miss"])
    else:
        prefix = rng.choice(["Mr", "Mr", "Mr", "Dr"])
    nhs_number = _nhs_number(rng, used_nhs_numbers)

    town, district, outwards = rng.choice(TOWNS)
    home_line = f"{rng.randint(1, 180)} {rng.choice(STREETS)}"
    home_postcode = _postcode(rng, rng.choice(outwards))
    practice_name = f"{rng.choice(PRACTICE_PREFIXES)} {rng.choice(PRACTICE_SUFFIXES)}"
    practice_code = f"{rng.choice('ABCDEFGHJKLMNPY')}{rng.randint(10000, 99999)}"
    practice_line = f"{rng.randint(1, 120)} {rng.choice(STREETS)}"
    practice_postcode = _postcode(rng, rng.choice(outwards))

    patient_url = f"urn:uuid:{_uuid(rng)}"
    practice_url = f"urn:uuid:{_uuid(rng)}"
    practice_id = practice_url.removeprefix("urn:uuid:")

    entries: list[dict[str, Any]] = []
    name: dict[str, Any] = {"use": "official", "family": family, "given": [given] + ([middle] if middle else [])}
    name["prefix"] = [prefix]
    patient: dict[str, Any] = {
        "resourceType": "Patient",
        "id": patient_id,
        "meta": {"profile": [UKCORE + "UKCore-Patient"]},
        "identifier": [
            {
                "extension": [
                    {
                        "url": VERIFICATION_STATUS_EXTENSION,
                        "valueCodeableConcept": {
                            "coding": [_coding(VERIFICATION_STATUS_SYSTEM, "01", "Number present and verified")]
                        },
                    }
                ],
                "system": NHS_NUMBER_SYSTEM,
                "value": nhs_number,
            }
        ],
        "active": True,
        "name": [name],
        "telecom": [{"system": "phone", "value": f"07700 900{rng.randint(0, 999):03d}", "use": "mobile"}],
        "gender": gender,
        "birthDate": birth_date.isoformat(),
        "address": [
            {"use": "home", "line": [home_line], "city": town, "district": district, "postalCode": home_postcode}
        ],
        "generalPractitioner": [_ref(practice_url, practice_name)],
    }
    entries.append(_entry(patient_url, patient))
    organization = {
        "resourceType": "Organization",
        "id": practice_id,
        "meta": {"profile": [UKCORE + "UKCore-Organization"]},
        "identifier": [{"system": ODS_SYSTEM, "value": practice_code}],
        "active": True,
        "name": practice_name,
        "address": [{"line": [practice_line], "city": town, "postalCode": practice_postcode}],
    }
    entries.append(_entry(practice_url, organization))

    # Conditions (1-4), only those plausible for the patient's age.
    eligible = [key for key, (_, _, _, min_age) in CONDITIONS.items() if age >= min_age]
    weights = [CONDITIONS[key][2] for key in eligible]
    condition_keys = _weighted_sample(rng, eligible, weights, rng.choices([1, 2, 3, 4], weights=[35, 35, 20, 10])[0])
    earliest_onset = max(_add_years(birth_date, 16), date(1995, 1, 1))
    conditions: dict[str, tuple[str, date]] = {}
    for key in condition_keys:
        code, display, _, min_age = CONDITIONS[key]
        onset = _random_date(rng, max(earliest_onset, _add_years(birth_date, min_age - 5)), date(2025, 9, 30))
        url = f"urn:uuid:{_uuid(rng)}"
        conditions[key] = (url, onset)
        entries.append(
            _entry(
                url,
                {
                    "resourceType": "Condition",
                    "id": url.removeprefix("urn:uuid:"),
                    "meta": {"profile": [UKCORE + "UKCore-Condition"]},
                    "clinicalStatus": {"coding": [_coding(CONDITION_CLINICAL, "active", "Active")]},
                    "verificationStatus": {"coding": [_coding(CONDITION_VERIFICATION, "confirmed", "Confirmed")]},
                    "category": [{"coding": [_coding(CONDITION_CATEGORY, "problem-list-item", "Problem List Item")]}],
                    "code": _concept(SNOMED, code, display),
                    "subject": _ref(patient_url),
                    "onsetDateTime": onset.isoformat(),
                    "recordedDate": _random_date(rng, onset, onset + timedelta(days=60)).isoformat(),
                },
            )
        )

    # Encounters (1-3), each for one of the patient's conditions.
    encounters: list[tuple[str, date]] = []
    hospital_url: str | None = None
    hospital_name = rng.choice(HOSPITAL_NAMES)
    for _ in range(rng.choices([1, 2, 3], weights=[40, 40, 20])[0]):
        cls_code, cls_display, _, low, high = rng.choices(
            ENCOUNTER_CLASSES, weights=[row[2] for row in ENCOUNTER_CLASSES]
        )[0]
        reason_key = rng.choice(condition_keys)
        reason_url, onset = conditions[reason_key]
        day = _random_date(rng, max(onset, date(2023, 1, 1)), date(2025, 12, 15))
        start = _instant(day, rng.randint(8 * 60, 18 * 60) if cls_code in ("AMB", "VR") else rng.randint(0, 1439))
        end = start + timedelta(minutes=rng.randint(low, high))
        if cls_code in ("EMER", "IMP"):
            if hospital_url is None:
                hospital_url = f"urn:uuid:{_uuid(rng)}"
            provider = _ref(hospital_url, hospital_name)
        else:
            provider = _ref(practice_url, practice_name)
        code, display, _, _ = CONDITIONS[reason_key]
        url = f"urn:uuid:{_uuid(rng)}"
        encounters.append((url, day))
        entries.append(
            _entry(
                url,
                {
                    "resourceType": "Encounter",
                    "id": url.removeprefix("urn:uuid:"),
                    "meta": {"profile": [UKCORE + "UKCore-Encounter"]},
                    "status": "finished",
                    "class": _coding(ACT_CODE, cls_code, cls_display),
                    "subject": _ref(patient_url),
                    "period": {"start": _iso(start), "end": _iso(end)},
                    "reasonCode": [_concept(SNOMED, code, display)],
                    "reasonReference": [_ref(reason_url, display)],
                    "serviceProvider": provider,
                },
            )
        )
    if hospital_url is not None:
        entries.append(
            _entry(
                hospital_url,
                {
                    "resourceType": "Organization",
                    "id": hospital_url.removeprefix("urn:uuid:"),
                    "meta": {"profile": [UKCORE + "UKCore-Organization"]},
                    "active": True,
                    "name": hospital_name,
                    "address": [{"city": town}],
                },
            )
        )

    # Medications (0-3): linked to the patient's conditions, plus an occasional acute antibiotic.
    candidates = [key for key, row in MEDICATIONS.items() if any(c in condition_keys for c in row[3])]
    if rng.random() < 0.25:
        candidates.append("amoxicillin")
    for key in rng.sample(candidates, rng.randint(0, min(3, len(candidates)))):
        code, display, dose, linked, chronic = MEDICATIONS[key]
        reason = next((conditions[c] for c in linked if c in conditions), None)
        start_after = reason[1] if reason else date(2024, 1, 1)
        started = _random_date(rng, max(start_after, date(2015, 1, 1)), date(2025, 11, 30))
        url = f"urn:uuid:{_uuid(rng)}"
        medication = _concept(DMD, code, display)
        if chronic and rng.random() < 0.5:
            resource: dict[str, Any] = {
                "resourceType": "MedicationStatement",
                "id": url.removeprefix("urn:uuid:"),
                "meta": {"profile": [UKCORE + "UKCore-MedicationStatement"]},
                "status": "active",
                "medicationCodeableConcept": medication,
                "subject": _ref(patient_url),
                "effectivePeriod": {"start": started.isoformat()},
                "dateAsserted": _random_date(rng, started, date(2025, 12, 31)).isoformat(),
                "informationSource": _ref(practice_url, practice_name),
                "dosage": [{"text": dose}],
            }
        else:
            resource = {
                "resourceType": "MedicationRequest",
                "id": url.removeprefix("urn:uuid:"),
                "meta": {"profile": [UKCORE + "UKCore-MedicationRequest"]},
                "status": "active" if chronic else "completed",
                "intent": "order",
                "medicationCodeableConcept": medication,
                "subject": _ref(patient_url),
                "authoredOn": started.isoformat(),
                "requester": _ref(practice_url, practice_name),
                "dosageInstruction": [{"text": dose}],
            }
            if chronic:
                resource["courseOfTherapyType"] = _concept(
                    "http://terminology.hl7.org/CodeSystem/medicationrequest-course-of-therapy",
                    "continuous",
                    "Continuous long term therapy",
                )
            else:
                resource["courseOfTherapyType"] = _concept(
                    "http://terminology.hl7.org/CodeSystem/medicationrequest-course-of-therapy",
                    "acute",
                    "Short course (acute) therapy",
                )
        if reason:
            resource["reasonReference"] = [_ref(reason[0])]
        entries.append(_entry(url, resource))

    # Allergies (0-2).
    for allergen in rng.sample(ALLERGENS, rng.choices([0, 1, 2], weights=[60, 30, 10])[0]):
        code, display, category, criticality, reactions = allergen
        url = f"urn:uuid:{_uuid(rng)}"
        recorded = _random_date(rng, max(_add_years(birth_date, 1), date(2000, 1, 1)), date(2025, 12, 15))
        entries.append(
            _entry(
                url,
                {
                    "resourceType": "AllergyIntolerance",
                    "id": url.removeprefix("urn:uuid:"),
                    "meta": {"profile": [UKCORE + "UKCore-AllergyIntolerance"]},
                    "clinicalStatus": {"coding": [_coding(ALLERGY_CLINICAL, "active", "Active")]},
                    "verificationStatus": {"coding": [_coding(ALLERGY_VERIFICATION, "confirmed", "Confirmed")]},
                    "type": "allergy",
                    "category": [category],
                    "criticality": criticality,
                    "code": _concept(SNOMED, code, display),
                    "patient": _ref(patient_url),
                    "recordedDate": recorded.isoformat(),
                    "reaction": [
                        {"manifestation": [_concept(SNOMED, r_code, r_display)], "severity": severity}
                        for r_code, r_display, severity in reactions
                    ],
                },
            )
        )

    bundle = {
        "resourceType": "Bundle",
        "id": f"bundle-{patient_id}",
        "type": "collection",
        "timestamp": BUNDLE_TIMESTAMP,
        "entry": entries,
    }
    facts = {"patient_id": patient_id, "given": given, "family": family, "nhs_number": nhs_number}
    return bundle, facts


# --- files --------------------------------------------------------------------------------------


def _json_bytes(value: Any) -> bytes:
    return (json.dumps(value, sort_keys=True, indent=2, ensure_ascii=False) + "\n").encode("utf-8")


def generate(seed: int = DEFAULT_SEED, count: int = DEFAULT_COUNT) -> dict[str, bytes]:
    """File name -> file bytes for every bundle and sidecar; the same seed gives the same bytes."""
    if not 1 <= count <= 999:
        raise ValueError("count must be between 1 and 999")
    rng = random.Random(seed)
    used: set[str] = set()
    files: dict[str, bytes] = {}
    for index in range(1, count + 1):
        bundle, facts = build_patient(rng, index, used)
        data = _json_bytes(bundle)
        sidecar = {
            "title": f"Synthetic patient record: {facts['given']} {facts['family']}",
            "publisher": "PolicyRAG synthetic data",
            "jurisdiction": "UK",
            "document_type": "patient_record",
            "version": "1",
            "effective_from": REFERENCE_DATE.isoformat(),
            "source_url": SIDECAR_SOURCE_URL,
            "citation": f"Patient {facts['patient_id']} (NHS number {facts['nhs_number']})",
            "content_hash": hashlib.sha256(data).hexdigest(),
            "hierarchy_rank": 4,
        }
        files[f"patient_{index:03d}.json"] = data
        files[f"patient_{index:03d}.meta.json"] = _json_bytes(sidecar)
    return files


def write_patients(out: Path, seed: int = DEFAULT_SEED, count: int = DEFAULT_COUNT) -> list[Path]:
    """Replace the patient files in `out` with the generator's output; other files are left alone."""
    files = generate(seed, count)
    out.mkdir(parents=True, exist_ok=True)
    for stale in sorted(out.glob("patient_*.json")):
        if stale.name not in files:
            stale.unlink()
    written = []
    for name, data in files.items():
        path = out / name
        path.write_bytes(data)
        written.append(path)
    return written


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=DEFAULT_SEED, help=f"random seed (default {DEFAULT_SEED})")
    parser.add_argument(
        "--count", type=int, default=DEFAULT_COUNT, help=f"number of patients (default {DEFAULT_COUNT})"
    )
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT, help="output folder (default corpus/patients)")
    args = parser.parse_args(argv)
    written = write_patients(args.out, args.seed, args.count)
    print(f"wrote {len(written) // 2} patient bundle(s) to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
