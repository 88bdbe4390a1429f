"""An explainable confidence per chunk, from features that can be measured and printed.

Features (each in [0, 1]):
- dense: cosine similarity of question and chunk, rescaled to MiniLM's useful range;
- coverage: share of the question's content words found in the chunk (and its title), a plain phrase
  counting as found when the chunk uses the legal terms it stands for, where covering five words of a
  long, situational question counts as full coverage;
- rerank: best single-sentence similarity (sentence MaxSim);
- reference: the chunk carries the article/paragraph the question names;
- numbers: numbers the question names appear in the chunk;
- title: the law's terms for the question's plain words name the chunk's provision by its title (only
  present when they do).
The confidence is their weighted mean over the features that apply (at least 0.65 when the chunk
carries the exact provision the question names), times a penalty for names the
question uses that the chunk never mentions (HIPAA, California ...), and capped when the question
names a reference that no retrieved chunk carries (an article that does not exist).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from core.settings import Settings
from core.types import Evidence
from generation.guard import neutralise
from generation.opener import DutyAsked, duty_asked
from generation.prompts import RELEVANCE_PROMPT
from generation.records import kinds_asked
from language.analysis import about_ehds, analyse, is_medical_advice, is_product_advice
from language.expansion import bridges, covers_bridge
from language.passages import without_notes_on_the_text
from language.question import (
    content_terms,
    enactments_named,
    mentions,
    named_numbers,
    names_in_order,
    salient_names,
    sets_the_scene,
    states_number,
)
from language.references import exception_to, instrument_named, question_tokens
from language.sentences import split_sentences
from language.thresholds import falls_short, stated_quantities
from language.titles import titled
from language.words import words

WEIGHTS = {
    "dense": 0.35,
    "coverage": 0.35,
    "rerank": 0.15,
    "reference": 0.30,
    "numbers": 0.15,
    "title": 0.15,
    "duty": 0.15,
}
DENSE_RANGE = (0.15, 0.65)
_CLAUSE_NUMBER_RE = re.compile(r"(?m)^\s*\d+(?:\.\d+)*\.?(?=\s)")  # "6.1 Co-payment", "3. As a minimum"
RERANK_RANGE = (0.20, 0.75)
MISSING_NAME_PENALTY = 0.6
# A one-word name that sets the scene ("a lab DNA test", "registered in Dublin") rather than names a regime, a
# person or a thing of several words: a chunk that mentions it is still likelier to be about the question
SCENE_NAME_PENALTY = 0.25
# Names that set the scene rather than name another regime: never penalised when a chunk omits them (nor is
# any name the jargon table bridges: EPR, DSPT are domain vocabulary, often only the scene).
CONTEXT_NAMES = frozenset(
    """gp gps nhs eu uk eea ae icu it dpo dpia sar ico trust hospital england scotland wales ireland northern
    austria belgium bulgaria croatia cyprus czechia czech denmark estonia finland france germany greece hungary
    italy latvia lithuania luxembourg malta netherlands poland portugal romania slovakia slovenia spain sweden
    austrian belgian bulgarian croatian cypriot danish estonian finnish french german greek hungarian irish
    italian latvian lithuanian maltese dutch polish portuguese romanian slovak slovenian spanish swedish
    british english scottish welsh european europe monday tuesday wednesday thursday friday saturday sunday
    january february march april may june july august september october november december""".split()
)
# Regimes and jurisdictions outside the corpus: a question about them is out of scope unless a chunk names them.
FOREIGN_REGIME_RE = re.compile(
    r"\b(hipaa|hitech|ccpa|cpra|pipeda|phipa|lgpd|appi|popia|pdpa|ferpa|glba|coppa|oaic|cfr|ftc|hhs)\b", re.I
)


# Places outside the corpus's jurisdictions: the regime asked about, unless the question names an indexed
# instrument ("I run a US telehealth service ... does the GDPR apply to us?": the GDPR is asked about, the US
# is where the asker is).
def is_context_name(name: str) -> bool:
    """A name that only says where or when ("NHS", "Germany", "Germany and Italy": member states named together)."""
    parts = [w for w in name.lower().split() if w not in ("and", "of", "the")]
    return bool(parts) and all(w in CONTEXT_NAMES for w in parts)


FOREIGN_PLACE_RE = re.compile(
    r"\b(?:(?-i:US)|united states|u\.s\.|usa|america|american|california|californian|texas|new york|canada|"
    r"canadian|ontario|australia|australian|new zealand|brazil|brazilian|japan|japanese|china|chinese|singapore|"
    r"south africa)\b",
    re.I,
)
FOREIGN_REGIME_CAP = 0.3
UNKNOWN_REFERENCE_CAP = 0.3
OTHER_INSTRUMENT_PENALTY = 0.4  # the question names one instrument; the chunk belongs to another
SPECIAL_LAW_PENALTY = 0.1  # an EHDS chunk, for a question about patient data in general
# "which patients have X" keeps this many records as evidence: at 30, 20 of the shipped corpus's 23 patients with
# hypertension were named as if they were all (75 patients)
ACROSS_PATIENTS_K = 80
REFERENCE_MATCH_FLOOR = 0.65  # the chunk carries the very provision the question names
COVERAGE_TARGET = 5  # covering this many of a long question's content words is full coverage
COVERAGE_WINDOW = 3  # sentences read together for coverage
OUT_OF_SCOPE_CAP = 0.3


@dataclass
class ChunkGrade:
    """One chunk's confidence and the features behind it."""

    chunk_id: str
    citation: str
    confidence: float
    features: dict[str, float]
    missing_names: list[str] = field(default_factory=list)
    explanation: str = ""


def _rescale(value: float | None, low: float, high: float) -> float | None:
    if value is None:
        return None
    return max(0.0, min(1.0, (value - low) / (high - low)))


@dataclass(frozen=True)
class Bridge:
    """A plain phrase of the question and the legal terms it stands for, as words, with the question's names the
    phrase holds: "lost a USB stick" stands for "personal data breach" and holds USB."""

    words: frozenset[str]
    legal: frozenset[str]
    names: frozenset[str]


@dataclass(frozen=True)
class Asked:
    """What grading reads from the question, worked out once for all its candidates (the same for each)."""

    question: str
    wanted: set[str]
    numbers: set[str]
    names: list[str]  # acronyms and proper names a relevant chunk should mention
    foreign: list[str]  # the regimes and jurisdictions outside the corpus it names
    instrument: str | None
    bridges: tuple[Bridge, ...]
    general: bool = False  # about patient data in general: nothing in it is what only the EHDS governs
    # the one-word names that set the scene ("a lab DNA test", "registered in Dublin"): penalised less when a
    # chunk omits them than a regime, a person or a name of several words (the Mental Health Act)
    scene: frozenset[str] = frozenset()
    record_kinds: tuple[str, ...] = ()  # the sections of a patient's record it asks for ("on anything": Medications)
    duty: DutyAsked | None = None  # the act it asks whether one must do

    @classmethod
    def of(cls, question: str) -> Asked:
        names = [n for n in salient_names(question) if not is_context_name(n)]
        foreign = [m.group(0) for m in FOREIGN_REGIME_RE.finditer(question)]
        instrument = instrument_named(question)
        places = [m.group(0) for m in FOREIGN_PLACE_RE.finditer(question)]
        if not instrument:
            foreign += places
        scene_places = places if instrument else []  # the scene: not a name a chunk must mention either
        enactments = enactments_named(question)  # an Act no chunk mentions is outside the corpus, like a regime
        foreign += enactments
        # a scene place, or a word of an Act already counted as foreign, is not a name a chunk must mention
        names = [n for n in names if n not in scene_places and not any(n in enactment for enactment in enactments)]
        bridges_ = tuple(
            Bridge(
                frozenset(words(phrase)),
                frozenset(words(terms)),
                frozenset(n for n in (*names, *foreign) if re.search(rf"\b{re.escape(n)}\b", phrase)),
            )
            for phrase, terms in bridges(question)
        )
        known = {n for bridge in bridges_ for n in bridge.names}  # domain vocabulary (EPR, DSPT): often the scene
        return cls(
            question,
            content_terms(question),
            named_numbers(question),
            [n for n in names if n not in known],
            foreign,
            instrument,
            bridges_,
            not about_ehds(question),
            frozenset(n for n in names if sets_the_scene(question, n)),
            tuple(kinds_asked(question, analyse(question))),
            duty_asked(question),
        )

    def bridged(self, haystack_terms: set[str]) -> list[Bridge]:
        """The plain phrases a chunk covers: it uses at least half of the legal terms they stand for, so the
        provision in the law's words ("rectification inaccurate personal data") is not outranked for lacking the
        user's ("correct a wrong"), nor off the point for never naming the USB stick a breach was about."""
        return [b for b in self.bridges if covers_bridge(b.legal, haystack_terms)]


def grade_chunk(asked: Asked, evidence: Evidence, reference_tokens: list[str]) -> ChunkGrade:
    """Confidence that this chunk helps answer the question, with its features."""
    haystack = f"{evidence.document} {evidence.citation} {evidence.section} {without_notes_on_the_text(evidence.text)}"
    haystack_terms = set(words(haystack))
    lowered = haystack.lower()
    wanted = asked.wanted
    bridged = asked.bridged(haystack_terms)
    features: dict[str, float] = {}
    if (dense := _rescale(evidence.scores.dense, *DENSE_RANGE)) is not None:
        features["dense"] = dense
    if wanted:  # its own words, and the words of the plain phrases it covers in the law's terms
        features["coverage"] = min(1.0, _covered(asked, evidence) / min(len(wanted), COVERAGE_TARGET))
    if (rerank := _rescale(evidence.scores.rerank, *RERANK_RANGE)) is not None:
        features["rerank"] = rerank
    named, own = asked.instrument or "", str(evidence.metadata.get("instrument") or "").lower()
    other_law = bool(named and own and named != own)  # the question is about the GDPR; this chunk is the EHDS
    if reference_tokens:  # "GDPR Article 10" is not the EHDS's Article 10, whatever number they share
        features["reference"] = 1.0 if not other_law and set(reference_tokens) & set(evidence.refs) else 0.0
    if titled(asked.question, evidence.section):
        features["title"] = 1.0
    if asked.duty and evidence.authority == "binding" and asked.duty.imposed_by(evidence.text):
        features["duty"] = 1.0
    if numbers := asked.numbers:  # in what the chunk says, not in its clause numbers ("6. Co-payment" is no 6)
        said = _CLAUSE_NUMBER_RE.sub(" ", evidence.text)
        features["numbers"] = sum(1 for n in numbers if states_number(n, said)) / len(numbers)
    total_weight = sum(WEIGHTS[name] for name in features) or 1.0
    confidence = sum(WEIGHTS[name] * value for name, value in features.items()) / total_weight
    if features.get("reference") == 1.0 or _record_asked(asked, evidence):
        confidence = max(confidence, REFERENCE_MATCH_FLOOR)
    names = asked.names
    missing = [n for n in names if not mentions(n, lowered, haystack_terms)]
    if names and missing:
        penalty = sum(SCENE_NAME_PENALTY if n in asked.scene else MISSING_NAME_PENALTY for n in missing)
        confidence *= 1 - penalty / len(names)
    if other_law:
        confidence *= 1 - OTHER_INSTRUMENT_PENALTY
        missing = [*missing, named.upper()]
    elif asked.general and own == "ehds":  # the general law answers a general question before the special one
        confidence *= 1 - SPECIAL_LAW_PENALTY
    # a place named as where data go ("send patient data to the United States") is a third country to the law
    # that covers the transfer, not another regime
    in_bridged = {n for bridge in bridged for n in bridge.names}
    foreign = [
        f for f in asked.foreign if f.lower() not in lowered and not names_in_order(f, lowered) and f not in in_bridged
    ]
    if foreign and confidence > FOREIGN_REGIME_CAP:
        confidence = FOREIGN_REGIME_CAP
        missing = list(dict.fromkeys([*missing, *foreign]))
    grade = ChunkGrade(
        evidence.chunk_id,
        evidence.citation,
        round(confidence, 4),
        {k: round(v, 3) for k, v in features.items()},
        missing,
    )
    grade.explanation = explain(grade)
    return grade


def _covered(asked: Asked, evidence: Evidence) -> int:
    """How many of the question's words the chunk's best COVERAGE_WINDOW sentences say, with its document, citation,
    heading and first sentence (the lead-in of a list's points): a long commentary names most words of any question
    somewhere, a provision says them together."""
    sentences = split_sentences(without_notes_on_the_text(evidence.text)) or [""]
    label = f"{evidence.document} {evidence.citation} {evidence.section} {sentences[0]}"
    best = 0
    for start in range(max(1, len(sentences) - COVERAGE_WINDOW + 1)):
        terms = set(words(f"{label} {' '.join(sentences[start : start + COVERAGE_WINDOW])}"))
        covered = {t for t in asked.wanted if t in terms}
        for bridge in asked.bridged(terms):
            covered |= bridge.words & asked.wanted
        best = max(best, len(covered))
    return best


def _record_asked(asked: Asked, evidence: Evidence) -> bool:
    """The section of a patient's record the question asks for, of the patient it names: "Is Harriet O'Brien on
    anything for her diabetes?" is answered by her Medications, which never mention diabetes. A patient the
    search was scoped to ("Mrs Robinson", "Harriet from Sheffield") is named, whatever words named them."""
    if evidence.authority != "record" or evidence.section not in asked.record_kinds:
        return False
    if evidence.scores.reference_match:
        return True
    question = asked.question.lower()
    named = [str(evidence.metadata.get(key) or "").lower() for key in ("patient_name", "patient_id")]
    nhs = str(evidence.metadata.get("nhs_number") or "")
    return any(n and n in question for n in named) or bool(nhs and nhs in re.sub(r"\D", "", question))


def explain(grade: ChunkGrade) -> str:
    parts = [f"{name} {value:.2f}" for name, value in grade.features.items()]
    text = f"{grade.citation}: confidence {grade.confidence:.2f} ({', '.join(parts)})"
    if grade.missing_names:
        text += f"; never mentions {', '.join(grade.missing_names)}"
    return text


def grade_all(question: str, evidence: list[Evidence], reference_tokens: list[str] | None = None) -> list[ChunkGrade]:
    """Grades for every chunk; a named reference that no chunk carries caps them all."""
    tokens = reference_tokens if reference_tokens is not None else question_tokens(question)
    asked = Asked.of(question)
    grades = [grade_chunk(asked, e, tokens) for e in evidence]
    advice = (
        "personal medical advice"
        if is_medical_advice(question)  # no governing document answers it, whatever a patient record says
        else "advice on which product to choose"
        if is_product_advice(question)  # a wording says what it covers, not which cover to buy
        else ""
    )
    if advice:
        for g in grades:
            g.confidence = min(g.confidence, OUT_OF_SCOPE_CAP)
            g.explanation += f"; asks for {advice}, which no governing document gives"
        return grades
    _lift_pointed_lists(evidence, grades)
    _lift_unmet_thresholds(question, evidence, grades)
    _lift_exceptions(evidence, grades)
    _lift_rules_excepted(evidence, grades)
    if tokens and not any(g.features.get("reference") for g in grades):
        for g in grades:
            if g.confidence > UNKNOWN_REFERENCE_CAP:
                g.confidence = UNKNOWN_REFERENCE_CAP
                g.explanation += f"; capped at {UNKNOWN_REFERENCE_CAP}: no source carries the reference named"
    return grades


def _lift_pointed_lists(evidence: list[Evidence], grades: list[ChunkGrade]) -> None:
    """A policy clause's list kept elsewhere ("listed in Clause 3.9.1") is graded at least as the clause
    referring to it (up to the named-reference floor): the list shares few words with the question (illness
    names, not "lump sum"), yet it is what the referring clause's answer consists of."""
    lists: dict[str, float] = {}
    for e, g in zip(evidence, grades, strict=True):
        if e.document_type == "policy_wording":  # its pointers, found at ingest (ingest.chunking: lists, definitions)
            for token in e.metadata.get("explains") or []:
                lists[token] = max(lists.get(token, 0.0), min(g.confidence, REFERENCE_MATCH_FLOOR))
    for e, g in zip(evidence, grades, strict=True):
        floor = max((lists[t] for t in e.refs if t in lists), default=0.0)
        if floor > g.confidence:
            g.confidence = floor
            g.explanation += f"; raised to {floor:.2f}: the list a retrieved clause refers to"


def _exception_to(evidence: Evidence) -> re.Match[str] | None:
    """A binding paragraph excepting other paragraphs of its article, the paragraphs it names in group "named"."""
    if evidence.authority != "binding":
        return None
    return exception_to(evidence.text)


def _lift_unmet_thresholds(question: str, evidence: list[Evidence], grades: list[ChunkGrade]) -> None:
    """A wording's clause whose minimum or maximum a figure the question states does not meet is graded at least
    as the best clause of that wording (up to the named-reference floor): "a clinic with three in-patient beds"
    is decided by "AYUSH Hospital means ... at least 5 in-patient beds", which shares few words with the question."""
    stated = stated_quantities(question)
    if not stated:
        return
    best: dict[str, float] = {}
    for e, g in zip(evidence, grades, strict=True):
        if e.document_type == "policy_wording":
            best[e.doc_id] = max(best.get(e.doc_id, 0.0), g.confidence)
    for e, g in zip(evidence, grades, strict=True):
        if e.document_type != "policy_wording" or not falls_short(stated, e.text):
            continue
        floor = min(best[e.doc_id], REFERENCE_MATCH_FLOOR)
        if floor > g.confidence:
            g.confidence = floor
            g.explanation += f"; raised to {floor:.2f}: a threshold the question's figures do not meet"


def _lift_exceptions(evidence: list[Evidence], grades: list[ChunkGrade]) -> None:
    """An exception to paragraphs of its own article is graded at least as the paragraph it names (up to the
    named-reference floor): asked whether a hospital must erase a record, 17(3)'s "Paragraphs 1 and 2 shall not
    apply ..." shares few words with the question, yet it changes what 17(1) answers."""
    by_citation = {e.citation: g.confidence for e, g in zip(evidence, grades, strict=True)}
    for e, g in zip(evidence, grades, strict=True):
        named = _exception_to(e)
        if not named or "(" not in e.citation:
            continue
        article = e.citation.split("(")[0]
        paragraphs = re.findall(r"\d+", named["named"])
        floor = min(
            max((by_citation.get(f"{article}({n})", 0.0) for n in paragraphs), default=0.0), REFERENCE_MATCH_FLOOR
        )
        if floor > g.confidence:
            g.confidence = floor
            g.explanation += f"; raised to {floor:.2f}: the exception to a retrieved paragraph of its article"


# "As an exception to the right to opt out provided for in paragraph 1", "By way of derogation from paragraph 2"
_EXCEPTED_RULE_RE = re.compile(
    r"^\W*(?:\d+\.\s*)?(?:as an exception to|by way of derogation from)\b[^.;]{0,80}?\bparagraphs? "
    r"(?P<named>\d+(?:(?:,| and| or) \d+)*)\b",
    re.I,
)


def _lift_rules_excepted(evidence: list[Evidence], grades: list[ChunkGrade]) -> None:
    """The rule an exception departs from is graded at least as the exception: asked whether a patient can stop
    their data being reused, 71(4)'s "As an exception to the right to opt out provided for in paragraph 1" matched
    the question best, and 71(1), the right itself, must answer before it."""
    by_citation = {e.citation: g for e, g in zip(evidence, grades, strict=True)}
    for e, g in zip(evidence, grades, strict=True):
        named = _EXCEPTED_RULE_RE.match(e.text) if e.authority == "binding" and "(" in e.citation else None
        if not named:
            continue
        article = e.citation.split("(")[0]
        for number in re.findall(r"\d+", named["named"]):
            rule = by_citation.get(f"{article}({number})")
            if rule is not None and rule.confidence < g.confidence:
                rule.confidence = g.confidence
                rule.explanation += f"; raised to {g.confidence:.2f}: the rule a retrieved exception departs from"


# When a binding provision and an explanation of it support the same point, the provision is cited first:
# in the order, a candidate counts as this much more confident than its grade for its authority.
# Retrieval's own order (hybrid fusion) carries evidence the grade's features miss; it breaks near-ties.
RANK_WEIGHT = 0.1
RANK_SCALE = 10.0
AUTHORITY_BONUS = {"binding": 0.15, "guidance": 0.05, "record": 0.05, "recital": 0.0, "commentary": 0.0, "web": 0.0}


def apply_grades(evidence: list[Evidence], grades: list[ChunkGrade], authority_order: bool = True) -> list[Evidence]:
    """Evidence carrying its confidence and explanation, best first; a binding provision goes before a
    recital or commentary unless they support the question clearly better."""
    graded = [
        (rank, e.model_copy(update={"confidence": g.confidence, "grade_explanation": g.explanation}))
        for rank, (e, g) in enumerate(zip(evidence, grades, strict=True))
    ]

    def order(ranked: tuple[int, Evidence]) -> tuple[float, str]:
        rank, e = ranked
        bonus = AUTHORITY_BONUS[e.authority] if authority_order else 0.0
        return -((e.confidence or 0.0) + bonus + RANK_WEIGHT / (1 + rank / RANK_SCALE)), e.chunk_id

    return [e for _, e in sorted(graded, key=order)]


def grade_evidence(question: str, evidence: list[Evidence], authority_order: bool = True) -> list[Evidence]:
    """The deterministic grade applied: what every step that finds new evidence does with it."""
    return apply_grades(evidence, grade_all(question, evidence), authority_order)


MAX_EXCEPTIONS_ADDED = 2  # exceptions to kept paragraphs joining the evidence, at most


def with_exceptions(kept: list[Evidence], pool: list[Evidence]) -> list[Evidence]:
    """The kept evidence with the pool's exceptions to a kept paragraph of their article after it ("That right does
    not apply to processing necessary for ... a task carried out in the public interest" after 20(1)'s right to data
    portability): an exception changes the answer its paragraph gives, though it shares few words with the question."""
    held = {e.chunk_id for e in kept}
    citations = {e.citation for e in kept if e.authority == "binding"}
    added = []
    for e in pool:
        named = _exception_to(e)
        if not named or e.chunk_id in held or "(" not in e.citation:
            continue
        article = e.citation.split("(")[0]
        if any(f"{article}({n})" in citations for n in re.findall(r"\d+", named["named"])):
            added.append(e)
    return [*kept, *added[:MAX_EXCEPTIONS_ADDED]]


def with_part_answers(kept: list[Evidence], pool: list[Evidence], parts: list[str]) -> list[Evidence]:
    """Asked two things at once, the best block for each part (graded against that part) joins the kept evidence
    when none of it answers the part as well and it answers its part at least as well as the weakest kept block
    answers the whole; it carries its grade for the part, the confidence that it helps answer the question."""
    if not kept or not parts:
        return kept
    floor = min(b.confidence or 0.0 for b in kept)
    out = list(kept)
    for part in parts:
        graded = grade_evidence(part, pool)
        ids = {b.chunk_id for b in out}
        best = graded[0] if graded else None
        if best is None or best.chunk_id in ids or (best.confidence or 0.0) < floor:
            continue
        if any((g.confidence or 0.0) >= (best.confidence or 0.0) for g in graded if g.chunk_id in ids):
            continue
        out.append(best)
    return out


def llm_relevance(question: str, evidence: list[Evidence], settings: Settings) -> list[float] | None:
    """The CRAG paper's evaluator role, played by the configured chat model: 1.0 relevant, 0.0 not.
    None when no chat model is configured (whichever generator writes the answer)."""
    from generation.chat import make_chat_model

    model = make_chat_model(settings)
    if model is None:
        return None
    votes = []
    for e in evidence:
        reply = model.invoke(RELEVANCE_PROMPT.format(passage=neutralise(e.text), question=neutralise(question)))
        votes.append(1.0 if str(reply.content).strip().lower().startswith("yes") else 0.0)
    return votes


def route_for(confidence: float, correct_threshold: float, incorrect_threshold: float) -> str:
    """CORRECT / AMBIGUOUS / INCORRECT from the best chunk's confidence."""
    if confidence >= correct_threshold:
        return "CORRECT"
    if confidence < incorrect_threshold:
        return "INCORRECT"
    return "AMBIGUOUS"
