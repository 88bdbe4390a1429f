"""What a question asks about: its content words, the numbers and names it uses.

Shared by grading (coverage), knowledge strips and the answerers (which sentence answers), and the
semantic cache (which questions may share an answer).
"""

from __future__ import annotations

import re

from language.expansion import expansion_terms
from language.references import instrument_named
from language.words import words

QUESTION_WORDS = frozenset(
    words(
        "what when where which who whom whose why how does do did can could may might must shall should would will "
        "is are was were be have has had need needs explain tell say says said allow allows mean means apply applies "
        "please under according regarding article articles art paragraph point section gdpr ehds rule rules "
        "us we our i my me you your they them their there any about give make list able allowed actually really just "
        "happen happens happened "  # "What happens if ...?" frames the question
        "obliged obligated supposed "  # "What are they obliged to do?" asks for a duty, as "must" does
    )
)
# the kind of answer asked for ("how long", "how much", "what limit"), not what it is about
ANSWER_TYPE_WORDS = frozenset(
    words(
        "waiting period periods limit limits sub-limit amount much long time deadline maximum minimum cover covered "
        "coverage rule rules policy rider wording clause"
    )
)
# insurance words every policy question shares: they say nothing about which clause answers; asked of a law ("Can my
# insurer see my EHDS record?") they are what the question is about
# (as the words themselves, not their stems: a "planned" operation is not the insurance plan)
POLICY_FRAME_RE = re.compile(
    r"\b(cover|covers|covered|covering|coverage|insurance|insured|insurers?|policy|policies|riders?|plans?)\b", re.I
)
_NAME_RE = re.compile(r"\b[A-Z][A-Za-z0-9&-]*[A-Z0-9][A-Za-z0-9&-]*\b|(?<=[a-z,;] )[A-Z][a-z]{2,}\b")
_NUMBER_RE = re.compile(r"\b\d+(?:[.,]\d+)?\b")
# "the regulation" names the instrument asked about, not what it is asked about; by the word, not its stem, which
# "regulator" shares
_REGULATION_RE = re.compile(r"\bregulations?\b", re.I)
_REFERENCE_SPAN_RE = re.compile(r"\b(?:art(?:icle)?s?\.?)\s*\d+(?:\s?\([^)]*\))*|\b\d+(?:\([^)]*\))+", re.I)


def content_terms(question: str) -> set[str]:
    """The question's content words, stemmed, without question words and reference numbers."""
    text = _REGULATION_RE.sub(" ", _REFERENCE_SPAN_RE.sub(" ", question))
    if not instrument_named(question):
        text = POLICY_FRAME_RE.sub(" ", text)
    return {w for w in words(text) if w not in QUESTION_WORDS and not w.isdigit()}


# a person's age is the asker's situation, measured against an age range the text states in other numbers ("my 6
# month old son", "my dad is 63", "aged 70")
_AGE_RE = re.compile(
    r"\b\d+[- ](?:years?|months?|weeks?|days?)[- ]olds?\b|\baged? \d+\b"
    r"|\b(?:i'm|i am|he's|she's|(?:he|she|son|daughter|dad|father|mum|mom|mother|wife|husband|child|partner|i)"
    r" (?:is|am|was|turns|turned|will be)) \d+\b(?! ?(?:%|per|days?|weeks?|months?|years?|hours?|rs|eur)\b)",
    re.I,
)


def named_numbers(question: str) -> set[str]:
    """Numbers the question names that are not part of an article reference nor a person's age (amounts, days)."""
    return set(_NUMBER_RE.findall(_AGE_RE.sub(" ", _REFERENCE_SPAN_RE.sub(" ", question))))


def states_number(number: str, text: str) -> bool:
    """The text states the number itself, not as part of a longer one or of a clause number ("6" is not in
    "16" nor in "6.1")."""
    return bool(re.search(rf"(?<![\d.]){re.escape(number)}(?!\d|\.\d)", text))


# Two or more capitalised words, "of"/"and"/"for" between them allowed: one name ("Mental Health Act",
# "Freedom of Information"); a text mentions it only by the whole name, its initials or its instrument.
_TITLED_RE = re.compile(r"(?<=[a-z,;] )[A-Z][a-z]+(?: (?:of |and |for |the )?[A-Z][a-z]+)+\b")


_PERSONAL_TITLE = r"(?:Mr|Mrs|Ms|Miss|Mx|Dr|Master)\.?\s+"
_PERSONAL_TITLE_RE = re.compile(rf"^{_PERSONAL_TITLE}")


def salient_names(question: str) -> list[str]:
    """Acronyms and proper names in the question (HIPAA, California, the Mental Health Act), which a relevant
    chunk should mention."""
    text = _REFERENCE_SPAN_RE.sub(" ", question)
    names = [_PERSONAL_TITLE_RE.sub("", m.group(0)) for m in _TITLED_RE.finditer(text)]  # "Mrs Okafor": "Okafor"
    text = _TITLED_RE.sub(" ", text)
    for match in _NAME_RE.findall(text):
        if match.lower() in ("i", "a", "ok") or match.isdigit() or _PERSONAL_TITLE_RE.fullmatch(f"{match} "):
            continue
        if match not in names:
            names.append(match)
    return names


def names_in_order(name: str, haystack: str) -> bool:
    """A name of several words the text gives with a bracketed part inside it: "the Clinical Establishments Act"
    in "the Clinical Establishments (Registration and Regulation) Act, 2010"."""
    parts = [re.escape(w) for w in name.lower().split()]
    if len(parts) < 2:
        return False
    return bool(re.search(r"\b" + r"(?:\s*\([^()]{1,80}\))?\s+".join(parts) + r"\b", haystack))


def mentions(name: str, haystack: str, haystack_terms: set[str]) -> bool:
    """Whether a text names this acronym or name, directly or in the terms the jargon table maps it to. Two full
    names joined by "and" ("Freya Morgan and Niamh Williams") are two names: a text naming either mentions them
    ("Health and Social Care" stays one name)."""
    parts = name.split(" and ")
    if len(parts) > 1 and all(len(part.split()) > 1 for part in parts):
        return any(mentions(part, haystack, haystack_terms) for part in parts)
    if re.search(rf"\b{re.escape(name.lower())}s?\b", haystack):  # a word, not part of one ("US" is not in "status")
        return True
    if " " in name:  # a titled name: in full with words inside it, by its initials ("EHDS") or as the instrument
        if names_in_order(name, haystack):  # the text belongs to
            return True
        initials = "".join(w[0] for w in name.split() if w[0].isupper()).lower()
        named = instrument_named(name)
        return initials in haystack_terms or bool(named and named == instrument_named(haystack))
    for phrase in expansion_terms(name):  # ICO -> "supervisory authority Information Commissioner"
        if set(words(phrase)) & haystack_terms:
            return True
    return False


# A one-word name the question puts in the place of a law or a rule-maker ("under PIPL", "does NICE guidance say",
# "does HIPAA apply") names a regime, and after "which" it is what is asked for ("which LOINC codes"); elsewhere
# it is part of the scene ("a lab DNA test", "registered in Dublin").
_BEFORE_REGIME = (
    r"\b(?:(?:under|according to|as required by|in line with|compliant with|comply with)\s+(?:the\s+)?"
    r"|(?:which|what)\s+)"  # "which LOINC codes": what the question asks for
)
_AFTER_REGIME = (
    r"(?:'s)?\s+(?:says?|requires?|apply|applies|allows?|permits?|guidance|rules?|regulations?|law|act|code|"
    r"scheme|framework|standards?|regime)\b"
)


def names_a_regime(question: str, name: str) -> bool:
    """Whether a one-word name stands where a law, a regulator or its guidance would, or is what is asked for."""
    escaped = re.escape(name)
    return bool(re.search(rf"{_BEFORE_REGIME}{escaped}\b|\b{escaped}{_AFTER_REGIME}", question, re.I))


def sets_the_scene(question: str, name: str) -> bool:
    """A name that only sets the scene: one word, neither a regime's nor a person's ("Mrs Okafor")."""
    person = re.search(rf"\b{_PERSONAL_TITLE}{re.escape(name)}\b", question)
    return " " not in name and not person and not names_a_regime(question, name)


# "the EU AI Act", "the Access to Health Records Act 1990", "the Data (Use and Access) Act 2025": an enactment
_ENACTMENT_RE = re.compile(
    r"(?:(?:[A-Z][\w-]*|\([A-Z][\w ]*\)|of|to|and|for|the|on)\s+){1,7}(?:Act|Directive|Ordinance|Bill|Statute)\b"
)
_NOT_IN_A_NAME = frozenset("under does do did what is are was the of to and for on according how can which who".split())


def enactments_named(question: str) -> list[str]:
    """The Acts and Directives the question names, as it writes them (from the first word of the name)."""
    found = []
    for match in _ENACTMENT_RE.finditer(question):
        tokens = match.group(0).split()
        while tokens and tokens[0].lower() in _NOT_IN_A_NAME:
            tokens.pop(0)
        name = " ".join(tokens)
        if len(tokens) > 1 and not instrument_named(name):
            found.append(name)
    return found


# "What is the difference between a controller and a processor?", "anonymisation vs pseudonymisation"
_COMPARED_RE = re.compile(
    r"\bdifference(?:s)? between (?:an? |the )?(?P<a>[\w' -]{2,40}?) and (?:an? |the )?(?P<b>[\w' -]{2,40}?)"
    r"\s*(?:[?.,]|$)"
    r"|^\W*(?:an? |the )?(?P<c>[\w' -]{2,40}?) (?:vs\.?|versus) (?:an? |the )?(?P<d>[\w' -]{2,40}?)\s*(?:[?.,]|$)",
    re.I,
)


def compared_terms(question: str) -> tuple[str, str] | None:
    """The two things a question asks to tell apart, when it names them as a pair."""
    match = _COMPARED_RE.search(question.strip())
    if not match:
        return None
    first, second = (match.group("a"), match.group("b")) if match.group("a") else (match.group("c"), match.group("d"))
    return first.strip(), second.strip()


# a statement that opens by defining a term: "'genetic data' means ...", "Hospital means ...", "X is defined as"
_DEFINED_TERM_RE = re.compile(
    r"^\W*(?P<term>[^.;:,]{2,60}?)[’'\"”]?\s+(means|is defined as|refers to)\b"
    r"|^(?-i:A|An) (?P<generic>[^.;:,]{2,60}?) is (?:a|an) ",  # "A Caldicott Guardian is a senior person ..."
    re.I,
)


def defined_term(text: str) -> str:
    """The term a statement opens by defining, or "" when it defines none."""
    match = _DEFINED_TERM_RE.match(text)
    return (match.group("term") or match.group("generic")) if match else ""


# Kinds the texts set against each other: a statement about one answers nothing of the other ("the EHDS primary
# use opt-out" is EHDS Art. 10, not Art. 71's opt-out from secondary use).
_CONTRARY_KINDS = (
    ("primary", "secondary"),
    ("controller", "processor"),
    ("in-patient", "out-patient"),
    ("planned", "emergency"),
    ("cashless", "reimbursement"),
)
_KIND_RES = {
    kind: re.compile(rf"\b{kind.replace('-', '[- ]?')}s?\b", re.I) for pair in _CONTRARY_KINDS for kind in pair
}


def kinds_set_against(question: str) -> list[tuple[re.Pattern[str], re.Pattern[str]]]:
    """(named, contrary) for each kind the question names without naming its contrary."""
    return [
        (_KIND_RES[named], _KIND_RES[contrary])
        for pair in _CONTRARY_KINDS
        for named, contrary in (pair, pair[::-1])
        if _KIND_RES[named].search(question) and not _KIND_RES[contrary].search(question)
    ]


def says_the_contrary_kind(kinds: list[tuple[re.Pattern[str], re.Pattern[str]]], text: str) -> bool:
    """The text speaks of the contrary of a kind the question names (`kinds_set_against`) and never of the kind."""
    return any(contrary.search(text) and not named.search(text) for named, contrary in kinds)
