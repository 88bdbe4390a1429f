"""Question analysis: what kind of answer a question wants, what it is about, and where to look.

Deterministic and explainable (every decision names the words that made it), so the answerer can
lead with the right kind of fact and the output record can show why:

- answer type: a deadline or period, an amount or limit, yes / no, who is responsible, a
  definition, a list of items, a procedure, a comparison, or an explanation;
- scope named in the question: an instrument, a provision (`46(2)(c)`), a patient (id or NHS
  number; names are matched against the index by retrieval), a policy variant;
- the domain the question belongs to (governance, insurance wording, patient records), so that an
  insurance clause never answers a data-protection question by sharing the word "fee";
- personal medical advice, recognised by meaning: a person asking what to take, stop or do about
  their own symptoms or treatment. Questions about one's rights over one's records are in scope.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Literal

from language.question import POLICY_FRAME_RE, content_terms
from language.references import NHS_NUMBER_RE, instrument_named, parse_references
from language.words import STOPWORDS

AnswerType = Literal[
    "deadline",
    "amount",
    "yes_no",
    "who",
    "definition",
    "list",
    "procedure",
    "comparison",
    "condition",
    "provision",
    "obligation",
    "explanation",
]
Domain = Literal["governance", "insurance", "records"]


@dataclass(frozen=True)
class QuestionAnalysis:
    answer_type: AnswerType
    because: str  # the words that decided the answer type
    instrument: str | None = None  # gdpr, ehds, caldicott, ndg
    provisions: list[str] = field(default_factory=list)  # "46(2)(c)", "principle 2"
    patient_ids: list[str] = field(default_factory=list)
    nhs_numbers: list[str] = field(default_factory=list)
    variant: str | None = None  # individual / group, when a policy variant is named
    domain: Domain | None = None
    medical_advice: bool = False
    list_of: str | None = None  # what a list question lists: conditions, medications, exclusions ...
    across_patients: bool = False  # "which patients have X": every patient's record is a candidate
    about_cover: bool = False  # "is X covered / do I get Y": answered by what a wording covers, excludes or limits
    feature: str | None = None  # the benefit or term a policy question asks for by name ("a no-claim bonus")


# Ordered: the first rule that matches the question sentence decides. Each is (answer type, pattern).
_RULES: list[tuple[AnswerType, str]] = [
    ("comparison", r"\b(differ(ence|ent|s)?|compare[ds]?|comparison|versus|vs\.?|same as|unlike)\b"),
    (
        "yes_no",
        # "Under the EHDS, can I ...?", "So can I ...?": the law asked under, or a word carrying on, before the modal
        r"^\s*(?:(?:under|according to|in line with) (?:the )?[\w@-]+(?: (?!(?:how|what|when|which|who|why|where)\b)"
        r"[\w@-]+){0,4}?,?\s+|(?:so|and|but|then)\s+)?"
        # ... or negated: "Weren't they supposed to answer me by now?", "Can't I see it?", "Won't they tell me?"
        r"(can|may|must|do|does|did|is|are|was|were|will|would|should|could|am|has|have|need|won)(?:n?['’]t)?\s+[a-z]+\b"
        r"|([,;:]\s+|\s-\s+)(can|may|must|do|does|did|is|are|was|were|will|would|should|could|am|has|have|need)"
        r"\s+(i|we|you|he|she|it|they|that|this|there|the|a|an|my|our|their|his|her|every|each|all|any|patients?"
        r"|[a-z]+s)\b"
        # a statement asked to be confirmed: "Surely we're too small to need one?", "We can refuse, right?"
        r"|^\W*surely\b|,\s*(right|correct|yes|no|true|(is|are|do|does|can|will|have|has)n't (it|we|they|i|you|he|she))"
        r"\s*\?\s*$",
    ),
    (  # "Which of those costs can we pay?": a choice among what the asker described, not a list nor a sum
        "explanation",
        r"^\W*which of (those|these|them|the two|both)\b",
    ),
    (  # "Which Caldicott principle is about complying with the law?": the answer names a provision
        "provision",
        r"^\W*(which|what) ((?!(does|do|did|is|are|must|should|can|will|would)\b)[\w-]+ ){0,2}(principles?|articles?"
        r"|standards?|sections?|clauses?|provisions?|chapters?|rules?|paragraphs?|conditions?|exceptions?|exemptions?"
        r"|legal bas[ie]s|lawful bas[ie]s)\b(?!\s*\d)"
        r".{0,80}\b(says?|is about|are about|covers?|deals? with|requires?|sets? out"
        r"|governs?|gives?|protects?|talks? about|mentions?|explains?|applies)\b",
    ),
    (  # "When do we have to carry out a DPIA?": in which circumstances a duty arises, not by when it is done
        "condition",
        r"(?<!by )(?<!until )\bwhen (do|does|did|must|should|is|are|will|would)\b"  # "by when" asks a deadline
        r"(?!.{0,80}\b(report|notify|tell|know|inform|respond|reply|decide|pay|paid|settle|settled|expire|claim|start"
        r"|begin|apply|applies|end|deadline|hours?|days?|weeks?|months?|years?|send|submit|file|lodge|return)\b)"
        r".{0,80}\b(have to|has to|need to|needs to|required|obliged|obligated|mandatory|compulsory|must)\b"
        r"|\b(in|under) (what|which) (circumstances|cases|situations|conditions)\b"
        # "When must we appoint a DPO?": in which cases the duty arises (not "When must we report?": by when)
        r"|(?<!by )(?<!until )\bwhen (must|should|shall) (we|i|you|they|a|an|the|our|my)\b"
        r"(?![^?]{0,60}\b(report|notify|tell|inform|respond|reply|decide|pay|settle|claim|submit|send|start|begin|apply"
        r"|end|expire)\b)",
    ),
    (
        "deadline",
        r"\b(how (long|quickly|soon|fast|often|far back|far ahead|far in advance|far before|far after)"
        r"|how much ((extra|more|additional|further) )?(notice|time)|by when"
        r"|until when|by what date|at what (point|stage|time|moment)"
        r"|(what|which) date|(longest|shortest|latest|earliest)\b|what (is the )?(deadline|time limit|period)"
        r"|\b(minimum|maximum|retention|storage) (period|time|duration)\b"
        r"|deadline|time limit"
        r"|within (how many|what)|how many (hours|days|weeks|months|years)"
        r"|when (must|do|does|should|will|can|could|to) .{0,60}\b(report|notify|tell|inform|respond|reply|decide|start"
        r"|apply|begin|pay|paid|settle|settled|expire|end|get|have|claim|use)\b|waiting( period)?|grace period"
        # "When will my blood pressure be covered?": how long until cover starts
        r"|when (will|would|do|does|is|am|are) .{0,60}\b(be )?covered\b)",
    ),
    (
        "list",
        r"\b(which|what|any) ((are|were) )?((the|all) )?(\w+[ -]){0,2}(conditions?|medications?|medicines?|drugs?"
        r"|allergies|allergy|encounters?|exclusions?|documents?|paperwork|papers|items?|information|categories|types|kinds"
        r"|rights|purposes|safeguards|obligations"
        r"|principles|patients|details|benefits|steps|tasks|illnesses|diseases|treatments|reasons|grounds|bases"
        r"|exceptions|exemptions|measures|requirements|duties|responsibilities|criteria|tablets|pills|risks|factors"
        # ... named as a kind of record, not as what the question asks for ("which Encounter class code ...?": one code)
        r"|considerations)\b(?! (class|code|codes|system|status|type|field|element|profile|resource|id|number|date)\b)"
        r"|\blist\b|\bwhat else\b"
        r"|\bwhat('s| is) [a-z]+( [a-z]+)? on\b"
        # a terse "EHDS priority categories" (not a question that asks in words and ends on one)
        r"|^(?!\s*(what|which|who|how|when|where|why|is|are|can|do|does)\b)[\w' -]{0,60}"
        r"\b(categories|conditions|exclusions|documents|rights|purposes|safeguards|obligations"
        r"|principles|tasks|illnesses|diseases|benefits)\?$"
        r"|\bwhat (\w+ )?(has|have|must|do|does|should|were|was|are|is) .{0,60}"
        r"\b(contain|include|tell|say(?! about)|go into|goes into|go in|put in|cover|set out|spell out|specify)\b"
        r"|\bwhat (has|have|needs?|must|should) (to )?(be|go) (in|into|included in|set out in)\b"
        # "what does it take into account?": the factors weighed
        r"|\bwhat (\w+ ){1,4}(take|takes|taken|taking) into (account|consideration)\b"
        r"|\bwhat (do|does|will|would|must|should|did) (\w+ ){1,3}(consider|weigh|look at)\b",
    ),
    (
        "amount",  # "how much of the patient's history should I include?" asks how much to share, not a sum
        r"\b(how much(?! (of (the|a|my|his|her|their|our) )?([\w-]+'?s? )?(information|data|details?|history|notes"
        r"|records?)\b)|how big|how high|how many|maximum|(?<!at a )(?<!as a )minimum|limit|cap|ceiling|fines?|fees?"
        r"|charge[ds]?"
        # "are those costs covered?" asks whether, not how much
        r"|costs?(?! (be |are |is |get |were )?(covered|paid|reimbursed|included|payable))"
        r"|price|percentage|per ?cent|%|amount|sum insured|co-?pay\w*|sub-?limits?|room rent)\b",
    ),
    (
        "definition",
        r"\b(what (is|are) (meant by|the meaning of)"
        r"|what does .{1,60} (mean|oblige|require|provide|say(?! about)|cover)\b"
        r"|meaning of|definition of|define|defined|(what|who) counts as"
        r"|what (is|are) (?!(they|we|you|i|he|she|it|there)\b)(an? |the )?[\w' -]{1,50}\?$"
        # "Who is a data controller?" asks what the term means; "Who is the controller for X?" asks who
        r"|^\W*who (is|are) an? [\w' -]{1,40}\?$)",
    ),
    (
        "who",
        r"^\s*(who|whom|whose)\b|\b(which|what) (body|bodies|authority|authorities|organisation|organization"
        r"|person|people|entity|role)\b|\bwho (is|are|must|has|should)\b|\btowards whom\b"
        # "Under the EHDS, whose job is it to pseudonymise ...?"
        r"|\bwhose (job|responsibility|task|duty|role|call|decision) (is|will be|would be)\b",
    ),
    (  # "Our processor found a breach. What do they have to do?": the duty, stated with its modal
        "obligation",
        r"\bwhat (\w+ ){1,5}(have to|has to|need to|needs to|got to|supposed to|required to|obliged to) do\b"
        r"|\bwhat (must|should|shall) (\w+ ){1,5}do\b",
    ),
    (
        "procedure",
        r"\bhow (do|can|should|would|could) (i|we|you|they|a|an|the|my|our)\b|\b(steps|process|procedure)\b"
        r"|\bwalk me through\b|\bwhat should (happen|it|we|they|the system)\b",
    ),
]
_TYPE_RULES = [(answer_type, re.compile(pattern, re.I)) for answer_type, pattern in _RULES]
_TYPE_RULES_BY_NAME = {answer_type: pattern for answer_type, pattern in reversed(_TYPE_RULES)}
_QUESTION_SENTENCE_RE = re.compile(r"[^.?!]*\?")

_LIST_OF_RE = re.compile(
    r"\b(conditions?|medications?|medicines?|drugs?|allergies|allergy|encounters?|exclusions?|documents?|paperwork"
    r"|papers|categories|purposes|safeguards|rights|items|information|illnesses|diseases|tasks)\b|\bon\b(?=\?)",
    re.I,
)
# what a list is of, in the texts' word: "on" (what is she on?) lists medications, paperwork lists documents
_LISTED_AS = {"on": "medications", "paperwork": "documents", "papers": "documents"}
# Words only insurance wordings use decide alone; words other texts use too ("claim", "cover") need a second cue.
_INSURANCE_RE = re.compile(
    r"\b(insur\w*|policy ?holders?|rider|premium|cashless|sum insured|co-?pay\w*|waiting period|pre[- ]?existing"
    r"|room rent|deductible|no claims? (bonus|discount)|cumulative bonus|ayush|tpa|mediclaim|careshield"
    r"|grace period|free[- ]look|(group|company'?s?|work|employer'?s?) (scheme|health plan|health cover)"
    r"|critical illness|survival period|claim (forms?|documents?|settlement)|settle\w* (a |my |the )?claims?"
    r"|(make|making|submit\w*|fil(e|ing)|lodg(e|ing)|put in) (a |my |the |an? \w+ )?claims?"
    r"|(need|have|want|how|able|going) to claim\b(?! (damages|compensation))"
    r"|group (policy|policies|cover|insurance)|cancel\w* (the |my |our |this )?(\w+ )?(policy|cover)"
    r"|domiciliary|network (hospitals?|providers?)|proposal forms?)\b",
    re.I,
)
_INSURANCE_WEAK_RE = re.compile(
    r"\b(claims?|cover(ed|age)?|policy|reimburse\w*|hospitali[sz]\w*|maternity|cataract|day care|ambulance"
    r"|surgery|operation|treatment|hospital bill|pay(s|out)?|exclude[sd]?|exclusions?|discharged?|admission"
    r"|admitted)\b",
    re.I,
)
# a patient's id; "NHS number" alone is not one ("What is an NHS number?" asks the standard, not a record)
_RECORDS_RE = re.compile(r"\bpat-\d{3,}\b", re.I)
_ACROSS_PATIENTS_RE = re.compile(
    r"\b(which|what|any|how many) (of )?((our|the|my|your|their|these) )?patients\b|\bpatients? (on|with|taking|who)\b",
    re.I,
)
# "which patients get a follow-up?" in a question about an algorithm, a law, a duty or a data standard ("a patient
# with no known allergies in UK Core") is not about the records
_GOVERNANCE_RE = re.compile(
    r"\b(gdpr|ehds|caldicott|laws?|legal|lawful|regulation|article|controller|processor|consent|algorithms?"
    r"|automated|automatically|decisions?|obliged|allowed|rights?|trust|organisation|data protection|privacy"
    r"|uk core|fhir|profiles?|resources?|extensions?|snomed|coded|coding|interoperab\w*|dpos?|dpias?|ico|siro|officers?"
    r"|guardians?|breach(es|ed)?|regulator|leak(ed|s)?|notif(y|ied|ication))\b",
    re.I,
)
# how personal data are handled, whoever handles them: "a computer decided my insurance claim" asks the law
_DATA_PROTECTION_RE = re.compile(
    r"\b(personal data|health data|special categor(y|ies) (of )?(personal )?data"
    r"|(my|our|their|his|her|patients?'?|customers?'?) (personal |health |medical )?data"
    r"|data protection|privacy|automated|automatically|profiling|human (intervention|review|look|check)"
    r"|consent to (share|sharing|disclos\w*|pass\w*|send\w*)|(share|sharing|disclos\w*|send\w*) (\w+ ){0,3}data)\b"
    r"|\b(computer|software|machine|algorithm)s?\b.{0,30}\b(decid|reject|refus|turn\w* down|approv)\w*"
    r"|\b(decid\w*|decisions?|reject\w*|refus\w*|assess\w*)\b.{0,40}\b(by|using|with) (an? |the )?"
    r"(computer|software|machine|algorithm|ai)s?\b"
    r"|\b(no|without (a |any )?)(human|person)s? (being )?(involved|involvement|in the loop)\b"
    # the law's roles and duties, and what an organisation holds about a person, asked about an insurer too
    r"|\b(data )?(controllers?|processors?)\b|\blawful basis\b|\bsubject access\b|\b(dpos?|dpias?)\b"
    r"|\b(information|data|details)( \w+){0,2} (about|on) (me|him|her|us|them)\b",
    re.I,
)
# "Is X covered?" with nothing else to place it asks what a policy pays for; "covered by the data sharing
# duties" or "covered by the law" does not
_COVERED_RE = re.compile(r"\b(covered|cover|covers|pays? for|reimburs\w*)\b", re.I)
_NOT_COVER_RE = re.compile(
    rf"{_GOVERNANCE_RE.pattern}|\b(data|duty|duties|rules?|standards?|principles?|exempt\w*|exceptions?|research)\b",
    re.I,
)
# "who has atrial fibrillation?" asks across the records; "who has been looking at my record?" does not
# "who has diabetes?", "who is on warfarin?"; not a duty or role ("who has to appoint a DPO?", "who is responsible?")
# asked ("Who has ...?", "Tell me who is on ..."), not a relative clause ("members who are seriously ill")
_WHO_HAS_RE = re.compile(
    r"(?:^\W*|\b(?:tell me|list|show me|find|know|see) )who (has|have|is|are|takes|take)\b"
    r"(?! been\b| had\b| got access\b| to\b| (?:the|a|an|responsible|required"
    r"|entitled|allowed|obliged|liable|able|accountable|in charge)\b)",
    re.I,
)
_PATIENT_ID_RE = re.compile(r"\bpat-\d{3,}\b", re.I)
# Asking what a policy pays for; questions about running the policy (cancel, renew, premium, claim
# settlement, complaints) are not, though they say "pay" or "get" too.
_COVER_RE = re.compile(
    r"\b(cover(ed|s)?|pay (for|out)|payout|claim (for|back)"
    r"|pays? (for )?(his|her|my|the|their|our|a|an) (hospital |medical )?"
    r"(bills?|costs?|expenses?|treatment|surgery|operation)|reimburs\w*|entitled|benefits?|bonus|lump sum"
    r"|(do|does|will|would|can) (i|we|he|she|they|the member|my \w+) get|give[sn]? (me|us|him|her|them)"
    r"|(does|will|would) (the |my |this |our )?(\w+ ){0,2}pay( out)?(?= if| for| when|\W*$)"
    r"|can (i|we|he|she|they) claim\b"
    r"|offers?|includes?|provides?)\b",
    re.I,
)
_RUNNING_THE_POLICY_RE = re.compile(
    r"\b(cancel\w*|renew\w*|premiums?|grace|free look|refund\w*|complain\w*|grievance|ombudsman|documents?"
    r"|migrat\w*|port\w*|disclos\w*|fraud|settle\w*|cashless|tpa|interest|how (long|quickly|soon)|when"
    # whom a claim is paid to: the settlement clause, not what is covered
    r"|(paid|payable) to (me|her|him|them|us|my|his|their|the \w+)|to whom"
    # who may be insured: eligibility, not what the wording pays for ("Can I add my father to my cover?")
    r"|add (my|our|his|her|their|a|an) ([\w-]+ ){1,3}to|eligib\w*|enrol\w*|entry age|too old|age limit)\b",
    re.I,
)
_VARIANT_RE = re.compile(r"\b(individual|group|family|floater)\b", re.I)
# how people name a variant without its name: cover through work is a group policy, one bought oneself individual
_PLAIN_VARIANTS = (
    (
        re.compile(
            r"\b(through|from|at|via) (my |our |the )?(work|job|employer|company|workplace)\b"
            r"|\b(my|our|the) (employer|company|firm|work|workplace)'?s? (\w+ ){0,2}(plan|policy|cover|scheme|insurance"
            r"|rider)\b"
            r"|\b(employer|workplace|company)[- ](paid|funded|provided|sponsored)\b",
            re.I,
        ),
        "group",
    ),
    (
        re.compile(
            r"\b(my|her|his|their|our) own (\w+ )?(plan|policy|cover|rider|insurance)\b"
            r"|\bbought (it )?(myself|for myself|privately)\b"
            r"|\bprivate(ly)? (bought|purchased)\b",
            re.I,
        ),
        "individual",
    ),
)


def variants_named(question: str) -> set[str]:
    """Every policy variant the question names ("between the group and individual riders": both), by its name or
    in plain words ("my cover through work": the group variant)."""
    named = {m.lower() for m in _VARIANT_RE.findall(question)}
    return named | {variant for pattern, variant in _PLAIN_VARIANTS if pattern.search(question)}


# Medical advice: a person asking what to take, stop or do for their own body. The treatment object is what
# makes it advice; a question about records, data, access or consent is about rights, not treatment.
_ADVICE_ACTION_RE = re.compile(
    r"\b(should|can|could|may|must|do) (i|he|she|my \w+|pat-\d+) (still |just |really |safely )?(take|stop taking"
    r"|stop|start|increase|reduce|double|skip|keep taking|come off|switch|combine|drink|exercise|have|go up|go down"
    r"|raise|lower|titrate|prescribe|restart|wait|rest|drive|start driving|fly|go back to work|return to work)\b"
    r"|\bwhat (dose|dosage|medicine|medication|treatment|tablets?|pills?|antibiotics?) (should|can|do|shall)\b"
    # ... not time one may take ("How much extra time can we take?")
    r"|\bhow (much|many) (?!(extra |more |additional |further )?(time|days|weeks|months|hours|notice|leave)\b)"
    r".{0,30}\b(should|can|do) (i|we|he|she) (take|have|use)\b"
    r"|\bis it (safe|ok|okay|alright|dangerous|fine) (for me |for my \w+ )?to\b"
    r"|\bwhat should i (do|take) (about|for|with) my\b|\bdiagnose me\b|\bbest (treatment|medicine|antibiotic|drug)\b"
    r"|\bwhich (antibiotic|medicine|drug|treatment) is (best|better)\b"
    # "Would taking St John's wort be a good idea?", "Will ginger help with my nausea?"
    r"|\b(would|will|could|does|is) (taking|trying|using|starting|stopping) [\w' -]{1,30}\b(be )?(a good idea|good"
    r"|safe|ok|okay|help|work|worth it)\b|\bwould it help (me |my \w+ )?(to|if)\b",
    re.I,
)
_TREATMENT_RE = re.compile(
    r"\b(dose|dosage|tablets?|pills?|medicines?|medications?|drugs?|antibiotics?|inhalers?|puffs?|injections?|insulin"
    r"|treatment|symptoms?|pain|ache|aches|hurts?|sore|headache|migraine|fever|rash|cough|infection|lump|swollen|swelling|bleeding|dizzy"
    r"|stop taking|keep taking|start taking|takes|taking|come off|surgery|operation|extraction|alcohol|exercise|diet"
    r"|vaccines?|vaccinations?|jabs?|immuni[sz]ations?|boosters?)\b",
    re.I,
)
_RECOVERY_RE = re.compile(
    r"\b(driv(e|es|ing)|fly(ing)?|back to work|return to work|lift\w*|swim\w*|recover\w*)\b", re.I
)
ADVICE_ACT_REACH = 12  # characters after "is it OK for me to" where the act it asks about is said
# taking something, or changing how much of it one takes ("should I double her apixaban?"), is treatment in itself
_TAKING_RE = re.compile(
    r"\b(take|taking|come off|dose|dosage|eat|eating|drink|drinking|double|halve|increase|reduce|skip|titrate"
    r"|\d+ ?(mg|mcg|micrograms?|ml|units))\b",
    re.I,
)
_RIGHTS_OBJECT_RE = re.compile(
    r"\b(records?|data|information|notes|access(ing|ed)?|consent|cop(y|ies)|share|sharing|shared|privacy|portal|app"
    r"|summary|prescriptions? (data|records?)|ehr|ehds|gdpr|opt[- ]?out|rights?|delete|erase|correct)\b",
    re.I,
)

_ON_RECORD_RE = re.compile(r"\b(on|in (the|their|our|his|her|its)) records?\b", re.I)


def question_sentence(question: str) -> str:
    """The sentence that asks (the last one ending with '?'); a preamble only sets the scene, and so does a clause
    before a dash ("Our GP practice is tiny - do we really need a DPO?")."""
    asked = _QUESTION_SENTENCE_RE.findall(question)
    sentence = asked[-1].strip(" -:") if asked else question.strip()
    after_dash = _DASH_RE.split(sentence)[-1]
    return after_dash if after_dash != sentence and _ASKS_RE.match(after_dash) else sentence


_DASH_RE = re.compile(r"\s+[-–—]\s+")
MIN_ASKING_TERMS = 2  # an asking sentence read alone says at least this many content words ("fix", "ask")


def asked_alone(question: str) -> str:
    """The sentence that asks, when a scene or a story comes before it and it says enough on its own ("... mixed up
    with someone else's notes. Do they have to fix it if I ask?"), or ''."""
    asking = question_sentence(question)
    return asking if asking != question.strip() and len(content_terms(asking)) >= MIN_ASKING_TERMS else ""


# A second question asked in the same sentence: "Is there a faster route, and how quickly must the access body
# decide?", "... in a form the new one can load, or even have it sent straight across?"
_SECOND_QUESTION_RE = re.compile(
    r",?\s+(?:and|or|but)\s+(?:also\s+|even\s+|then\s+)?(?=(?:how|what|when|where|who|which|why|is|are|can|could"
    r"|do|does|did|must|should|will|would|may|has|have)\b)",
    re.I,
)
# A follow-up asked after a comma: "how many days do we have to settle it, what if it needs investigating, and
# is there a penalty?" (not "which"/"who"/"where": after a comma they open a relative clause)
_COMMA_QUESTION_RE = re.compile(
    r",\s+(?=(?:how|what|when|is|are|can|could|do|does|did|must|should|will|would|may|has|have)\b)", re.I
)
_ASKS_RE = re.compile(
    r"^(?:how|what|when|where|who|whom|whose|which|why|is|are|am|was|were|can|could|do|does|did|must|should|will"
    r"|would|may|might|has|have|had|shall)\b",
    re.I,
)
PART_MIN_WORDS = 2  # "how fast?" asks something; "and?" does not


def _comma_parts(part: str) -> list[str]:
    """A part split at commas opening a follow-up question, when what precedes each comma asks too ("once we've
    got the last document, how many days ..." is one question after its scene)."""
    out: list[str] = []
    asking = False  # the last part holds a question, not only its scene
    for piece in _COMMA_QUESTION_RE.split(part):
        if asking or not out:
            out.append(piece)
        else:
            out[-1] = f"{out[-1]}, {piece}"
        asking = bool(_ASKS_RE.match(piece.strip()))
    return out


def question_parts(question: str) -> list[str]:
    """The questions asked in one, each after the scene the question sets ("We're a public health institute ...
    How quickly must the access body decide?"); [] when it asks one thing."""
    scene = _scene(question)
    return [f"{scene} {clause}".strip() for clause in part_clauses(question)]


def part_clauses(question: str) -> list[str]:
    """The questions asked in one, each on its own, without the scene ("How quickly must the access body
    decide?"); [] when it asks one thing."""
    asked = [s.strip(" -:") for s in _QUESTION_SENTENCE_RE.findall(question)]
    parts = [
        p.strip(" ,?")
        for sentence in asked
        for joined in _SECOND_QUESTION_RE.split(sentence)
        for p in _comma_parts(joined)
    ]
    parts = [p for p in parts if len(p.split()) >= PART_MIN_WORDS]
    return [f"{p[0].upper()}{p[1:]}?" for p in parts] if len(parts) >= 2 else []


def _scene(question: str) -> str:
    """What the question tells before it asks ("We're a public health institute.")."""
    asked = _QUESTION_SENTENCE_RE.search(question)
    return question[: asked.start()].strip() if asked else ""


_CONTRACTED_RE = re.compile(r"\b(what|who|where|when|how)'?s\b", re.I)


def _as_asked(text: str) -> str:
    """A terse question as if typed in full: "whats the free look period" -> "what is the free look period?"."""
    text = _CONTRACTED_RE.sub(lambda m: f"{m.group(1)} is", text.strip())
    return text if text.endswith("?") else f"{text}?"


_LEADING_CLAUSE_RE = re.compile(
    r"^\W*(?:when|if|once|before|after|while|whenever)\b[^,?]{5,200},\s*"
    r"(?=(?:what|which|who|whose|how|when|where|why|can|could|do|does|did|is|are|must|should|will|would|may)\b)",
    re.I,
)


def answer_type_of(question: str) -> tuple[AnswerType, str]:
    """The kind of answer a question wants and the words that say so: the asking sentence decides (the first of
    several, unless a later one compares), the whole question when that sentence says nothing."""
    asked = [_as_asked(s.strip(" -:")) for s in _QUESTION_SENTENCE_RE.findall(question)]
    # of several questions the first asks what the others follow up on ("When will it be covered? And is there any
    # catch?"), unless a later one compares ("... Would it be any different on the group rider?")
    later = [m for t in asked[1:] if (m := _TYPE_RULES_BY_NAME["comparison"].search(t))]
    if later:
        return "comparison", later[0].group(0).strip()
    first = asked[0] if asked else _as_asked(question_sentence(question))
    # "When the regulator decides whether to fine us and how much, what does it take into account?": the clause
    # before the main question sets its scene; its "how much" is not what is asked
    first = _LEADING_CLAUSE_RE.sub("", first)
    for text in (first, _as_asked(question)):
        for answer_type, pattern in _TYPE_RULES:
            if match := pattern.search(text):
                return answer_type, match.group(0).strip()
    return "explanation", ""


# "Is that profiling?", "Does this count as a data breach?", "Does that make it a processor?": whether a situation is
# what the law defines
_CLASSIFIED_AS_RE = re.compile(
    r"\b(?:is|are|does|do|would|will|could) (?:that|this|it|these|they|those|he|she) "
    r"(?:still |really |actually |even |also )?"
    r"(?P<how>count as |amount to |constitute |qualify as |be |be considered |be classed as |be treated as "
    # "Is he covered as a Member?": whether the case is what a wording defines
    r"|(?:be )?(?:covered|insured|accepted) as "
    r"|make (?:it|them|us|him|her|me) )?"
    r"(?:an? |the )?(?P<term>[\w-]+(?: [\w-]+){0,2}?)"
    # "Is that profiling in GDPR terms?", "... under the EHDS?": the law it is asked under is no part of the term
    r"(?: (?:in|under|for|by) (?:the )?(?:uk )?(?:gdpr|ehds|law|legal|data protection)(?: terms| purposes| law)?)?"
    r"\?\s*$",
    re.I,
)


# "Is pseudonymised data still personal data?", "Is the dataset still personal data for us?": whether a thing named
# stays of a kind (the adverb marks the kind asked, not a description of the thing)
_STILL_OF_A_KIND_RE = re.compile(
    r"\b(?:is|are|was|were) (?:[\w'-]+ ){1,4}?(?:still|really|actually|then|even|also) (?:an? |the )?"
    r"(?P<term>[\w-]+(?: [\w-]+){0,2}?)(?: (?:for|to|under|in|by) (?:the |us|me|them|him|her|[\w-]+)(?: [\w-]+)?)?"
    r"\?\s*$",
    re.I,
)


_PARTICIPLE_RE = re.compile(r"[\w-]+(?:ed|en)|paid|told|sent|kept|held|made|done|shared|sold|lost|seen", re.I)


def classified_as(question: str, said_how: bool = False) -> str:
    """The term a yes/no question asks whether its situation falls under, or ''; `said_how`: only when the question
    says how it falls under it ("covered as a Member", "count as a breach", "still personal data"), not "Will they
    pay?"."""
    match = _CLASSIFIED_AS_RE.search(question)
    # "Will it be paid?" asks what is done to it, not what it is
    done_to = bool(match and match["how"] == "be " and _PARTICIPLE_RE.fullmatch(match["term"]))
    if match and (match["how"] or not said_how) and not (said_how and done_to):
        return match.group("term")
    still = _STILL_OF_A_KIND_RE.search(question_sentence(question))
    return still.group("term") if still else ""


# choosing a product for someone: which plan is better value, which to buy ("Would they get better value from
# that plan or from a CareShield rider?"); a wording says what it covers, never which cover to buy
_PRODUCT_ADVICE_RE = re.compile(
    r"\b(better|best|good|worse) (value|deal|buy|option|choice)\b"
    r"|\bwhich (plan|policy|rider|insurer|cover|product) (should|would|do you recommend)\b"
    r"|\bshould (i|we|they|he|she) (buy|choose|pick|go for|switch to|take out|sign up)\b"
    r"|\bis (it|the \w+) worth (it|buying|getting|taking out|the money)\b|\b(recommend|suggest) (a|an|which)\b",
    re.I,
)


def is_product_advice(question: str) -> bool:
    """A person asking which insurance product or plan to choose: advice on a purchase, which no wording gives."""
    return bool(_PRODUCT_ADVICE_RE.search(question_sentence(question)))


def is_medical_advice(question: str) -> bool:
    """A person asking what to take, stop or do about their own symptoms or treatment: taking something is
    treatment in itself; other actions (stop, wait, exercise) need a treatment or symptom word. A question
    about records, data, access or consent is about rights, and one about a policy's cover is about the
    wording: neither is advice, unless the records are only the scene of a question about a treatment ("My record
    says I've got depression. Would taking St John's wort help?")."""
    action = _ADVICE_ACTION_RE.search(question)
    asking = question_sentence(question)
    # a policy named only in the scene does not make "how long should he wait before he starts driving?" about the
    # wording: its asking sentence is about a treatment or recovery, not about cover
    about_care = bool(_TREATMENT_RE.search(asking) or _RECOVERY_RE.search(asking)) and not asks_about_cover(asking)
    if action is None or (domain_of(question, False) == "insurance" and not about_care):
        return False
    if _RIGHTS_OBJECT_RE.search(asking) or (_RIGHTS_OBJECT_RE.search(question) and not _TREATMENT_RE.search(asking)):
        return False
    # "is it OK for me to take ...": the act follows the words that ask
    asked_act = question[action.start() : action.end() + ADVICE_ACT_REACH]
    return bool(_TAKING_RE.search(asked_act) or _TREATMENT_RE.search(question))


_EHDS_MATTERS_RE = re.compile(
    r"\b(ehds|european health data space|ehrs?|electronic health (records?|data)|secondary use|data permits?"
    r"|health data access bod(y|ies)|health data (users?|holders?)|myhealth@?eu|another (eu|member) (country|state)"
    r"|cross-border|abroad|patient summar(y|ies)|e-?prescriptions?|access services?|opt[- ]?out)\b",
    re.I,
)


# set in the United Kingdom, where the EHDS (an EU regulation of 2025) does not apply: the NHS's "national data
# opt-out" is not the EHDS opt-out, and UK organisations' transfer tools are not its data permits
_UK_SETTING_RE = re.compile(
    r"\b((?-i:UK)|united kingdom|britain|british|england|english|scotland|scottish|wales|welsh|northern ireland"
    r"|(?-i:NHS)|(?-i:ICO)|caldicott|national data opt[- ]?out)\b",
    re.I,
)


def ehds_asked_in_the_uk(question: str) -> bool:
    """The question names the EHDS and sets itself in the UK, where that EU regulation does not apply ("Do we need
    to get ready for EHDS opt-outs at our NHS trust?")."""
    return instrument_named(question) == "ehds" and bool(_UK_SETTING_RE.search(question))


def about_ehds(question: str) -> bool:
    """The question names the EHDS, or what only it governs (electronic health records and their access services,
    cross-border exchange, secondary use, data permits, opting out) outside a UK setting."""
    if instrument_named(question) == "ehds":
        return True
    return bool(_EHDS_MATTERS_RE.search(question)) and not _UK_SETTING_RE.search(question)


def domain_of(question: str, patient_named: bool) -> Domain | None:
    """Where a question belongs when it names no collection; None when nothing in it says."""
    if patient_named or _RECORDS_RE.search(question) or across_patients(question):
        return "records"
    # "the EHDS ... raising their insurance premium" asks the law, not a wording; so does "Which Article 9 condition
    # covers us ... so we can pay statutory sick pay?" (a wording has clauses, not articles)
    if instrument_named(question) or any(ref.kind == "ref" for ref in parse_references(question)):
        return "governance"
    if _DATA_PROTECTION_RE.search(question):
        return None
    if _INSURANCE_RE.search(question) or len(_INSURANCE_WEAK_RE.findall(question)) >= 2:
        return "insurance"
    if _COVERED_RE.search(question) and not _NOT_COVER_RE.search(question):  # "Are cosmetic procedures covered?"
        return "insurance"
    return None


_PAYING_RE = re.compile(r"\b(pay\w*|claims?|benefits?)\b", re.I)


def _of_a_policy(question: str, domain: Domain | None) -> bool:
    """A question about what something pays for is one of a policy when the question says so: "keep sending her
    offers" is no benefit a wording offers."""
    return domain == "insurance" or bool(POLICY_FRAME_RE.search(question) or _PAYING_RE.search(question))


def asks_about_cover(question: str) -> bool:
    """Whether a policy question asks what the wording pays for (a benefit, an exclusion, a limit), which
    only a clause on cover, exclusions, waiting periods or limits can answer."""
    text = question_sentence(question)
    return bool(_COVER_RE.search(text)) and not _RUNNING_THE_POLICY_RE.search(text)


# The thing a policy question asks for by name: "give a premium discount for non-smokers", "pay for a gym
# membership", "Is there a room rent cap", "What no-claim bonus have I built up?". Up to four words after an
# indefinite article, ended by a preposition, a conjunction or the end of the sentence.
_FEATURE_PHRASE = r"((?:[a-z][\w'-]*\s){0,3}?[a-z][\w'-]*)"
_FEATURE_END = (
    r"(?=\s+(?:for|to|with|on|in|under|if|when|from|of|after|before|that|which|as|at|by|and|or|each|every|this"
    r"|per)\b|\s*[?,.;:!]|\s*$)"
)
_FEATURE_RE = re.compile(
    r"\b(?:give[sn]?|offer(?:s|ed)?|provide[sd]?|include[sd]?|pays?(?: for)?|covers?|get|receive|earn|have|has|there)"
    r"\s+(?:(?:me|us|you|him|her|them|(?:my|his|her|their|the) (?:family|wife|husband|children|kids|estate))\s+)?"
    rf"(?:a|an|any|some)\s+{_FEATURE_PHRASE}{_FEATURE_END}"
    rf"|^\W*(?:what|which|how much)\s+{_FEATURE_PHRASE}\s+(?:have|has|do|does|did|will|would|can|is|are)\b"
    rf"|^\W*what(?:'s|\s+is|\s+was|\s+are|\s+were)\s+(?:the|my|our|their|its|(?:[a-z]+\s)?[a-z]+'s)\s+{_FEATURE_PHRASE}{_FEATURE_END}"
    # "Does the rider cover dental treatment?", "Is dental treatment covered?"
    r"|\b(?:rider|policy|plan|insurer|company|insurance|cover|it|they)\s+"
    r"(?:covers?|pays?(?: for| towards)?|reimburses?)\s+"
    rf"(?:(?:a|an|any|some|my|our|his|her|their|the)\s+)?{_FEATURE_PHRASE}{_FEATURE_END}"
    rf"|^\W*(?:is|are)\s+(?:(?:a|an|the|my|our)\s+)?{_FEATURE_PHRASE}\s+"
    r"(?:covered|excluded|included|payable|reimbursed|reimbursable)\b",
    re.I,
)
# Words that measure a thing rather than name it: in "a room rent cap" the thing asked for is the room rent.
_MEASURE_WORDS = frozenset(
    """limit limits cap caps ceiling maximum minimum max min amount amounts deadline deadlines time period periods
    timeframe timescale rate rates
    percentage number options option cover benefit benefits extent scope level list details terms conditions rules
    kind kinds type types sort""".split()
    # ... or say only that it is care to be paid for: in "dental treatment" the thing asked for is dental
    + "treatment treatments surgery surgeries operation operations procedure procedures care expenses expense costs"
    " cost bills bill charges transport transportation service services facility facilities support help"
    " assistance".split()
)
# ... and the bound it asks for, said before the thing
_BOUNDS = frozenset("max maximum min minimum highest lowest top".split())
# Particles of a phrasal verb, not part of the thing: "do I get any premium back?" asks for the premium
_PARTICLES = frozenset("back out up off over down away".split())
# ... and words that only qualify it: "any extra time" names no thing once the time is set aside
_QUALIFYING_WORDS = frozenset(
    "extra additional more further other longer shorter higher lower free special separate same such total".split()
)


# Words that frame a question rather than name a thing: "is there a way to keep it going?", "is there any chance
# ...", "is there a need to ..." ask about what the wording provides, not for a benefit called "way".
_FRAME_WORDS = frozenset(
    "way ways chance chances possibility means need reason reasons difference problem issue thing things catch".split()
)


def feature_asked(question: str) -> str | None:
    """The benefit or term a policy question names as the thing it asks for, without the words that only measure
    it; None when the question names none ("Do I get covered?")."""
    sentence = question_sentence(question)
    match = _FEATURE_RE.search(sentence)
    phrase = next(g for g in match.groups() if g).split() if match else []
    if not phrase or any(word.lower() in STOPWORDS or word.lower().endswith("ly") for word in phrase):
        return None  # "What do we have to ...", "What actually has to ...": no thing named
    while phrase and (phrase[-1].lower() in _MEASURE_WORDS or phrase[-1].lower() in _PARTICLES):
        phrase.pop()
    while phrase and phrase[0].lower() in _BOUNDS:  # "the max room rent": the room rent
        phrase.pop(0)
    # "is there a way to get a discount ...?", "is there any catch even after the wait?"
    if match and any(word.lower() in _FRAME_WORDS for word in phrase):
        return feature_asked(sentence[match.end() :])
    if all(word.lower() in _QUALIFYING_WORDS for word in phrase):
        return None
    return " ".join(phrase)


def across_patients(question: str) -> bool:
    """Asked of every patient's record ("which patients take warfarin?"), not of a person's rights over one
    or of a duty towards patients ("can patients insist a human decides which patients get a follow-up?")."""
    # "a peanut allergy on record" says where the allergy is written, not a right over the record
    if _GOVERNANCE_RE.search(question) or _RIGHTS_OBJECT_RE.search(_ON_RECORD_RE.sub(" ", question)):
        return False
    return bool(_ACROSS_PATIENTS_RE.search(question) or _WHO_HAS_RE.search(question_sentence(question)))


@lru_cache(maxsize=1024)  # retrieve, scope, grade, generate and the composer each read it (about 130 us each time)
def analyse(question: str) -> QuestionAnalysis:
    """What a question asks for and names; shared by every caller of the same question, so never changed."""
    answer_type, because = answer_type_of(question)
    patient_ids = sorted({m.lower() for m in _PATIENT_ID_RE.findall(question)})
    nhs_numbers = sorted({"".join(m) for m in NHS_NUMBER_RE.findall(question)})
    provisions = []
    for ref in parse_references(question):
        path = ref.path[0] + "".join(f"({p})" for p in ref.path[1:])
        provisions.append(path if ref.kind == "ref" else f"{ref.kind} {path}")
    variant = _VARIANT_RE.search(question)
    plain = {v for pattern, v in _PLAIN_VARIANTS if pattern.search(question)}
    list_of = _LIST_OF_RE.search(question) if answer_type == "list" else None
    domain = domain_of(question, bool(patient_ids or nhs_numbers))
    return QuestionAnalysis(
        answer_type=answer_type,
        because=because,
        instrument=instrument_named(question),
        provisions=provisions,
        patient_ids=patient_ids,
        nhs_numbers=nhs_numbers,
        variant=variant.group(1).lower() if variant else (plain.pop() if len(plain) == 1 else None),
        domain=domain,
        medical_advice=is_medical_advice(question),
        list_of=_LISTED_AS.get(list_of.group(0).lower(), list_of.group(0).lower()) if list_of else None,
        across_patients=across_patients(question) and not (patient_ids or nhs_numbers),
        about_cover=answer_type in ("yes_no", "amount")
        and asks_about_cover(question)
        and _of_a_policy(question, domain),
        feature=next(filter(None, map(feature_asked, _QUESTION_SENTENCE_RE.findall(question))), None)
        or feature_asked(question),  # "How much no-claim bonus do I get? Does the sum insured go up?": the bonus
    )
