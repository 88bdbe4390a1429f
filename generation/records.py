"""Answers from patient records: one patient's list complete, several patients each named, never a mix.

A record block is a patient's record of one kind (Conditions, Medications, Allergies and intolerances,
Encounters, Demographics), every line an item. So:
- "What conditions does pat-0045 have?" lists every condition of that record and says how many;
- a name two patients share is said so, and each patient is answered with their id;
- "Which patients have atrial fibrillation?" names each patient whose record has it, with the item.
Only the patients of the blocks given are ever named, each with their own record's citation.
"""

from __future__ import annotations

import re
from collections import defaultdict

from core.types import NONE_RECORDED, Evidence
from language.analysis import QuestionAnalysis
from language.expansion import bridges
from language.names import naming
from language.passages import statements
from language.question import content_terms
from language.words import words

# What users call each kind of record entry, by the record's section name.
KINDS = {
    "Conditions": (
        "condition",
        "conditions",
        "diagnosis",
        "diagnoses",
        "illness",
        "illnesses",
        "problem",  # "the problem list"
        "problems",
        "disease",
    ),
    "Medications": ("medication", "medications", "medicine", "medicines", "drug", "drugs", "tablets", "prescribed"),
    "Allergies and intolerances": (
        "allergy",
        "allergies",
        "allergic",
        "intolerance",
        "intolerances",
        "reaction",
        "reactions",
        "react",
        "reacts",
        "reacted",
        "sensitive",
        "sensitivity",
    ),
    "Encounters": (
        "encounter",
        "encounters",
        "visit",
        "visits",
        "visited",
        "appointment",
        "appointments",
        "admission",
        "admissions",
        "admitted",
        "attended",
        "attendance",
        "attendances",
        "seen",
    ),
}
# "been to A&E", "been in hospital": a visit asked about without a word naming one
_BEEN_TO_RE = re.compile(
    r"\bbeen (?:in|to|into) (?:the |a |an )?(?:a&e|hospital|gp|doctor|clinic|surgery|emergency)\b", re.I
)
# The demographic fields of a record (written by ingest.loaders.fhir) and the words users ask them by.
FIELDS = {
    "Registered GP practice": ("gp", "practice", "surgery", "registered"),
    "Address": ("address", "live", "lives", "living", "postcode"),
    "Date of birth": ("born", "birth", "birthday", "dob"),
    "Gender": ("gender", "sex"),
    "NHS number": ("nhs",),  # in the record's first line and its metadata, not a "Field: value" line
}
_FIELD_WORDS = frozenset(words(" ".join(n for names in FIELDS.values() for n in names)))  # no item's name
_FIELD_RE = re.compile(rf"\b({'|'.join(re.escape(f) for f in FIELDS)}): ([^\n]*?)\.(?=\s|$)")
_TREATED_FOR_RE = re.compile(r"\b(treated for|suffer(s|ing)? from|diagnosed with|wrong with)\b", re.I)
_TAKES_RE = re.compile(r"\b(taking|takes|take)\b", re.I)
# "what's Lucy on?", "Is Harriet O'Brien on anything for ...?"
_TAKING_RE = re.compile(rf"\b(is|are|was|were|'s) ([\w'’-]+ ){{0,3}}on\b|{_TAKES_RE.pattern}", re.I)


# Words that say which record or how it is phrased, never what is in it: "which patients take warfarin?" must
# match warfarin, not every "Take one tablet" of a medication line.
_RECORD_WORDS = frozenset(
    words(" ".join(name for names in KINDS.values() for name in names))
    + words("patient patients record records take takes taking taken prescribed diagnosed active recorded")
)


def kinds_asked(question: str, analysis: QuestionAnalysis) -> list[str]:
    """The record sections the question asks about, from its words ("what's she on?" -> Medications;
    "allergies, and what is she taking?" -> both)."""
    asked = set(re.findall(r"[a-z]+", question.lower())) | ({analysis.list_of} if analysis.list_of else set())
    found = [section for section, names in KINDS.items() if asked & set(names)]
    if _TREATED_FOR_RE.search(question) and "Conditions" not in found:  # "what is she being treated for?"
        found.insert(0, "Conditions")
    if _BEEN_TO_RE.search(question) and "Encounters" not in found:  # "How many times has she been to A&E?"
        found.append("Encounters")
    taking = _TAKES_RE.search(question) or (not found and _TAKING_RE.search(question))  # "are listed on my record"
    if taking and "Medications" not in found:
        found.append("Medications")
    return found


def _items(block: Evidence) -> list[str]:
    items = [s.text.rstrip(";.") for s in statements(block.text) if s.marker in ("-", "•", "*")]
    return items


def _who(block: Evidence) -> str:
    name, pid = block.metadata.get("patient_name") or "", block.metadata.get("patient_id") or ""
    return f"{name} ({pid})" if name else pid


def _asked_words(question: str, blocks: list[Evidence]) -> set[str]:
    """The question's words for the thing asked about in a record: not the record's kind, not the patient's name."""
    names = {w for b in blocks for w in words(str(b.metadata.get("patient_name") or ""))}
    return {w for w in content_terms(question) - _RECORD_WORDS - names if not any(c.isdigit() for c in w)}


def _coded_names(question: str) -> list[set[str]]:
    """The words of the coded names the question's lay terms stand for ("COPD": "chronic obstructive ...")."""
    return [set(words(terms)) for _, terms in bridges(question)]


def _naming_sentences(found: list[tuple[int, list[str]]], blocks: list[Evidence]) -> list[str]:
    """One sentence per record with the items naming what was asked: "Joan Okafor (pat-0001), conditions: ..."."""
    return [
        f"{_who(blocks[i])}, {blocks[i].section.lower()}: {'; '.join(items)} [Source {i + 1}]." for i, items in found
    ]


def _names_it(item: str, wanted: set[str], coded: list[set[str]]) -> bool:
    """The item names a word asked about, or half the words of the coded name of a lay one ("COPD": "chronic
    obstructive lung disease", "high blood pressure": "hypertension")."""
    said = set(words(item))
    return bool(wanted & said) or any(len(terms & said) >= len(terms) / 2 for terms in coded)


def _naming_strength(item: str, wanted: set[str], coded: list[set[str]]) -> float:
    """The share of the asked words the item names, or of the words of a coded name the lay words stand for
    ("CKD": "chronic kidney disease"); 0 when it does not name what was asked."""
    if not _names_it(item, wanted, coded):
        return 0.0
    said = set(words(item))
    shares = [len(terms & said) / len(terms) for terms in (wanted, *coded) if terms]
    return round(max(shares, default=0.0), 3)


def _asked_items(
    question: str, blocks: list[Evidence], besides: frozenset[str] = frozenset()
) -> list[tuple[int, list[str]]]:
    """Asked about one thing in a patient's records ("When did Harriet Costa's diabetes start?"), the items that
    name it, by block: a condition's record before the encounters that mention it. Empty when none does. Words
    `besides` ask for something else (the "practice" of "which practice is she with?")."""
    wanted = _asked_words(question, blocks) - besides
    coded = _coded_names(question)
    found = []
    for index, block in sorted(enumerate(blocks), key=lambda pair: pair[1].section == "Encounters"):
        matching = (
            [item for item in _items(block) if _names_it(item, wanted, coded)] if block.authority == "record" else []
        )
        if matching:
            found.append((index, matching))
    return found


def _not_recorded(question: str, blocks: list[Evidence]) -> list[str]:
    """Asked whether a patient has something their conditions record does not name ("Does she have asthma?"): that
    the recorded conditions do not mention it, with the whole list, so the reader judges what a word match cannot
    ("cancer" against "Malignant neoplasm of breast"). Not for allergies or medicines: an allergy to amoxicillin is
    one to penicillin, which no word match would say."""
    wanted = _asked_words(question, blocks)
    tokens = [t for t in re.findall(r"[A-Za-z][\w-]*", question) if not any(c.isdigit() for c in t)]
    asked = [t for t in tokens if words(t) and words(t)[0] in wanted]
    for index, block in enumerate(blocks):
        if block.authority == "record" and block.section == "Conditions" and asked:
            listed = "; ".join(_items(block))
            return [
                f"The conditions recorded for {_who(block)} do not mention {' '.join(asked)}: {listed} "
                f"[Source {index + 1}]."
            ]
    return []


# details that say which patient is meant, not what is asked: "Keith, born 2004", "the one living in Plymouth"
_DETAIL_RE = re.compile(
    r"\bNHS (?:number|no\.?) *[\d ]{10,13}"
    r"|\b(?:date of birth|dob|born)(?: is| on)? (?:\d{1,2}(?:st|nd|rd|th)? \w+ (?:19|20)\d\d|(?:19|20)\d\d-\d\d-\d\d)"
    r"|\bborn (?:in )?(?:19|20)\d\d\b|\b(?:19|20)\d\d[- ]born\b|\b(?:living|lives|who lives|from) in [A-Z][\w'-]*"
    r"|\bfrom [A-Z][\w'-]*"
)


def fields_asked(question: str) -> list[str]:
    """The demographic fields a question asks for ("Which GP practice is she registered with?"), not the details
    that say which patient is meant ("Keith, the lad born 2004 - what inhaler has he got?")."""
    asked = set(re.findall(r"[a-z]+", _DETAIL_RE.sub(" ", question).lower()))
    return [field for field, names in FIELDS.items() if asked & set(names)]


def _as_in_sentence(field: str) -> str:
    """A field's name inside a sentence: "date of birth", "NHS number" (an acronym keeps its capitals)."""
    return field if field[1:2].isupper() else f"{field[0].lower()}{field[1:]}"


def demographic_answers(fields: list[str], blocks: list[Evidence]) -> list[str]:
    """Each asked field of each patient's demographics, as the record states it."""
    sentences = []
    for index, block in enumerate(blocks):
        stated = dict(_FIELD_RE.findall(block.text)) if block.authority == "record" else {}
        if stated and (number := block.metadata.get("nhs_number")):  # a demographics record: whose it is too
            stated["NHS number"] = str(number)
        for field in fields:
            if stated.get(field):
                sentences.append(
                    f"The {_as_in_sentence(field)} of {_who(block)} is {stated[field]} [Source {index + 1}]."
                )
    return sentences


def one_patient_each(question: str, analysis: QuestionAnalysis, blocks: list[Evidence]) -> list[str]:
    """Every item of the asked kind for each patient of the blocks, one sentence per patient; asked about one
    thing of no named kind, the items that name it."""
    kinds = kinds_asked(question, analysis)
    year = year_asked(question)
    if not kinds:
        # "Which practice is she with, and since when has osteoarthritis been on her record?": both, as asked
        fields = fields_asked(question)
        stated = demographic_answers(fields, blocks) if fields else []
        asked = _asked_items(question, blocks, _FIELD_WORDS)
        naming = _naming_sentences(asked, blocks)
        if stated and naming:
            first_field = _first_said(question, [n for f in fields for n in FIELDS[f]])
            return [*stated, *naming] if first_field < _first_item_said(question, asked) else [*naming, *stated]
        if stated or naming:
            return stated or naming
    by_patient: dict[str, list[int]] = defaultdict(list)
    for index, block in enumerate(blocks):
        if block.authority == "record" and (not kinds or block.section in kinds):
            by_patient[str(block.metadata.get("patient_id"))].append(index)
    sentences = []
    names = [blocks[indexes[0]].metadata.get("patient_name") for indexes in by_patient.values()]
    if len(by_patient) > 1 and len(set(names)) == 1 and names[0]:
        ids = " and ".join(str(blocks[i[0]].metadata.get("patient_id")) for i in by_patient.values())
        sources = "".join(f" [Source {i[0] + 1}]" for i in by_patient.values())
        sentences.append(f"Two patients are named {names[0]}: {ids}{sources}.")
    for indexes in by_patient.values():
        for index in indexes:
            block, items = blocks[index], _items(blocks[index])
            what = block.section.lower()
            if items == [NONE_RECORDED]:
                sentences.append(f"No {what} are recorded for {_who(block)} [Source {index + 1}].")
            elif items and (selected := _selected_entries(question, index, block, items, year)):
                # "How many times was he seen in 2025?", "... been to A&E?": those entries, and how many others
                sentences.append(selected[0])
            elif items:
                listed = "; ".join(items)
                count = f"{len(items)} recorded {what}" if len(items) > 1 else f"one recorded entry under {what}"
                sentences.append(f"{_who(block)} has {count}: {listed} [Source {index + 1}].")
            elif not kinds and block.text:
                first = next((s.text for s in statements(block.text) if not s.heading), block.text)
                sentences.append(f"{first.rstrip('.')} [Source {index + 1}].")
    if kinds and sentences:  # "Is she on anything for her diabetes?": the diabetes her conditions record names too
        named = [(i, items) for i, items in _asked_items(question, blocks) if blocks[i].section not in kinds]
        sentences += _naming_sentences(named[:1], blocks)  # its condition's record, before encounters mentioning it
    if kinds and (fields := fields_asked(question)) and (stated := demographic_answers(fields, blocks)):
        # "which GP practice is she registered with, and what heart problems does she have?": both, as asked
        first_field = _first_said(question, [n for f in fields for n in FIELDS[f]])
        first_kind = _first_said(question, [n for k in kinds for n in KINDS.get(k, ())])
        sentences = [*stated, *sentences] if first_field < first_kind else [*sentences, *stated]
    return sentences


# The encounter classes of FHIR's v3 ActCode, as the record's lines open with them, and the words users name them by
ENCOUNTER_CLASSES = {
    "emergency": re.compile(r"\b(a&e|a ?and ?e|emergency|casualty)\b", re.I),
    "inpatient encounter": re.compile(r"\b(admitted|admissions?|inpatient|in-patient|stay(ed)? in hospital)\b", re.I),
    "virtual": re.compile(r"\b(virtual|video|phone|telephone|online|remote)\b", re.I),
    "ambulatory": re.compile(r"\b(outpatient|out-patient|ambulatory|clinic)\b", re.I),
}


def encounter_class_asked(question: str) -> str | None:
    """The one encounter class a question names ("been to A&E": emergency), or None."""
    named = [kind for kind, said in ENCOUNTER_CLASSES.items() if said.search(question)]
    return named[0] if len(named) == 1 else None


def _selected_entries(
    question: str, index: int, block: Evidence, items: list[str], year: str | None
) -> tuple[str, int] | None:
    """The sentence naming a record's entries of the year asked, or of the encounter class asked, counted, with how
    many others the record holds, and how many it names; None when the question asks for neither."""
    kind = encounter_class_asked(question) if block.section == "Encounters" else None
    if not year and not kind:
        return None
    selected = [i for i in items if not year or re.search(rf"\b{year}-\d\d-\d\d", i)]
    selected = [i for i in selected if not kind or i.startswith(f"{kind} ")]
    what = f"{kind.removesuffix(' encounter')} encounters" if kind else block.section.lower()
    others = len(items) - len(selected)
    when = f" in {year}" if year else ""
    one = f"one {kind.removesuffix(' encounter')} encounter" if kind else _entries(block.section, 1)
    count = f"{len(selected)} {what}" if len(selected) != 1 else one
    listed = f": {'; '.join(selected)}" if selected else ""
    other = f"other{'s' if others > 1 else ''}" if not kind else f"other encounter{'s' if others > 1 else ''}"
    rest = f" ({others} {other} on record{'' if kind else ' from other years'})"
    sentence = f"{_who(block)} has {count if selected else f'no {what}'}{when}{listed}{rest if others else ''}"
    return f"{sentence} [Source {index + 1}].", len(selected)


_YEAR_RE = re.compile(r"\b(?:in|during|throughout|over) (?:the (?:calendar )?year )?((?:19|20)\d\d)\b", re.I)


def year_asked(question: str) -> str | None:
    """The one year a question asks about ("seen in 2025"), whose dated entries answer it."""
    years = set(_YEAR_RE.findall(question))
    return years.pop() if len(years) == 1 else None


def _first_item_said(question: str, found: list[tuple[int, list[str]]]) -> int:
    """Where the question first says a word of the items found for it (its length when it says none)."""
    named = {w for _, items in found for item in items for w in words(item)}
    spans = [m.start() for m in re.finditer(r"[\w'-]+", question) if set(words(m.group(0))) & named]
    return min(spans, default=len(question))


def _first_said(question: str, names: list[str]) -> int:
    """Where the question first says one of these words (its length when it says none)."""
    found = [m.start() for n in names for m in [re.search(rf"\b{re.escape(n)}\b", question, re.I)] if m]
    return min(found, default=len(question))


def patients_with(question: str, analysis: QuestionAnalysis, blocks: list[Evidence]) -> list[str]:
    """For "which patients have X": each patient whose record of the asked kind has an item about X, with that
    item, once per patient (a condition's record before the encounters that mention it), by its own words or its
    coded name ("high blood pressure": "hypertension")."""
    wanted = content_terms(question) - _RECORD_WORDS
    coded = _coded_names(question)
    kinds = kinds_asked(question, analysis)
    asked = [b for b in blocks if b.authority == "record" and (not kinds or b.section in kinds)]
    # the items naming most of what is asked: "chronic kidney disease" is not every "chronic ... disease"
    best = max((_naming_strength(i, wanted, coded) for b in asked for i in _items(b)), default=0)
    found, named = [], set()
    for index, block in sorted(enumerate(blocks), key=lambda pair: pair[1].section == "Encounters"):
        patient = block.metadata.get("patient_id")
        if block.authority != "record" or patient in named or (kinds and block.section not in kinds):
            continue
        matching = [item for item in _items(block) if best and _naming_strength(item, wanted, coded) == best]
        if matching:
            named.add(patient)
            found.append(f"{_who(block)}: {'; '.join(matching)} [Source {index + 1}]")
    if not found:
        return []
    counted = f"{len(found)} patients" if len(found) > 1 else "One patient"  # a sentence opens with no bare digit
    return [f"{counted} in the records: " + "; ".join(found) + "."]


_SOURCE_RE = re.compile(r"\[Source (\d+)\]")


def _patients_named(question: str, blocks: list[Evidence]) -> set[str]:
    """The ids of the patients of the records whom the question names: by id, NHS number (any spacing) or a
    way of saying their full name."""
    lowered, digits = question.lower(), re.sub(r"\D", "", question)
    named = set()
    for block in blocks:
        patient = str(block.metadata.get("patient_id") or "")
        nhs = str(block.metadata.get("nhs_number") or "")
        name = str(block.metadata.get("patient_name") or "")
        if (
            block.authority == "record"
            and patient
            and ((nhs and nhs in digits) or naming(patient, name).search(lowered))
        ):
            named.add(patient)
    return named


def compose_records(question: str, analysis: QuestionAnalysis, blocks: list[Evidence]) -> list[str] | None:
    """The answer's sentences from patient records; None when the blocks are not records or the question is
    not about their entries. Only the records of the patients the question names are answered from when the
    search brought others too; when it names none of several patients, only those whose records hold what is
    asked are named ("Which of our patients ...?"), never every patient the search happened to bring."""
    if not any(b.authority == "record" for b in blocks):
        return None
    patients = {b.metadata.get("patient_id") for b in blocks if b.authority == "record"}
    in_question = _patients_named(question, blocks)
    named = in_question if len(patients) > 1 else patients
    # "Who is Joan Okafor's GP?" names her: it is about one patient, not which patients have something
    if (analysis.across_patients and not in_question) or not named:
        return patients_with(question, analysis, blocks)
    kept = [i for i, b in enumerate(blocks) if b.authority != "record" or b.metadata.get("patient_id") in named]
    sentences = _from_records(question, analysis, [blocks[i] for i in kept])
    if sentences is None:
        return None
    return [_SOURCE_RE.sub(lambda m: f"[Source {kept[int(m.group(1)) - 1] + 1}]", s) for s in sentences]


def _from_records(question: str, analysis: QuestionAnalysis, blocks: list[Evidence]) -> list[str] | None:
    """The sentences from the records of the patients asked about; None when the question is not about their
    entries."""
    if analysis.answer_type == "yes_no" and not kinds_asked(question, analysis) and not fields_asked(question):
        if found := _asked_items(question, blocks):  # "Has she got COPD?"
            first, *rest = _naming_sentences(found, blocks)
            return [f"Yes: {first}", *rest]
        return _not_recorded(question, blocks) or None
    kinds = kinds_asked(question, analysis)
    if analysis.answer_type == "yes_no" and "Encounters" in kinds and encounter_class_asked(question):
        # "Has he had any video appointments?": his encounters of that class, or that there are none
        said = [
            _selected_entries(question, i, b, _items(b), year_asked(question))
            for i, b in enumerate(blocks)
            if b.authority == "record" and b.section == "Encounters"
        ]
        return [f"{'Yes' if count else 'No'}: {sentence}" for sentence, count in filter(None, said)] or None
    if analysis.answer_type == "yes_no" and kinds and not fields_asked(question):
        # "Is he allergic to aspirin?", "does his record show an allergy to it?": the entry of that kind naming it
        found = [(i, items) for i, items in _asked_items(question, blocks) if blocks[i].section in kinds]
        if found:
            answered = {f"[Source {i + 1}]" for i, _ in found}
            # what else the record says of the kinds asked about ("he is on aspirin": his medications)
            besides = [s for s in one_patient_each(question, analysis, blocks) if not any(a in s for a in answered)]
            return [
                *(
                    f"Yes: the record of {_who(blocks[i])} shows {_entries(blocks[i].section, len(items))}: "
                    f"{'; '.join(items)} [Source {i + 1}]."
                    for i, items in found
                ),
                *besides,
            ]
    if analysis.answer_type in ("list", "explanation") or kinds or fields_asked(question):
        return one_patient_each(question, analysis, blocks) or None
    return None


def _entries(section: str, count: int) -> str:
    """ "an allergy or intolerance", "2 encounters": entries of a record section, as a yes answer names them."""
    return _ONE_OF.get(section, "an entry") if count == 1 else f"{count} {section.lower()}"


# one entry of a record section, as a yes answer names it
_ONE_OF = {
    "Allergies and intolerances": "an allergy or intolerance",
    "Conditions": "a condition",
    "Medications": "a medication",
    "Encounters": "an encounter",
    "Observations": "an observation",
    "Procedures": "a procedure",
    "Immunisations": "an immunisation",
}
