"""Does an answer read as prose? The fragments it should not contain, found sentence by sentence.

Quoting sentences out of their clause leaves pieces that do not stand alone: a point without its
lead-in ("(e) the health data applicant ..."), a paragraph number left at the start ("7 links the
meaning ..."), a pronoun whose noun stayed behind ("This exclusion ..."), a heading quoted as a
sentence ("Limits."), the same sentence twice, a piece that stops mid-sentence. Each rule is a
plain pattern, so a flagged sentence can be explained; the rules are conservative, so ordinary
legal prose ("Where the processing is based on consent, ...") passes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from language.words import words


@dataclass(frozen=True)
class Fragment:
    """One sentence that does not read as prose, and the rule it breaks."""

    rule: str  # list_marker, clause_number, heading, orphan_pronoun, repeated, unterminated, dangling_lead_in
    sentence: str


# The generators' citation markers: "[Source 3]", "[Sources 1, 2]", several in a row.
_MARKERS_RE = re.compile(r"\s*(?:\[Sources?\s+\d+(?:\s*(?:,|;|&|and)\s*(?:Sources?\s+)?\d+)*\]\s*)+", re.I)
# What can start a sentence: a capital, a digit, an opening bracket or quote, a bullet, a list marker ("ii.", "a)").
_STARTS = re.compile(r"[A-Z0-9(\"'‘“•*\-–—]|(?:[a-z]|[ivxlc]{1,6})[.)]\s")
_STOP_RE = re.compile(r"[.!?][\"'’”)\]]*\s+")
# Abbreviations whose full stop does not end a sentence ("Art. 9", "Sch. 3 Part 2", "Rs. 40,000").
_ABBREVIATION_RE = re.compile(
    r"(?:^|[\s(])(?:Art|Arts|No|Nos|para|paras|e\.g|i\.e|cf|etc|Dr|Mr|Mrs|Ms|St|p|pp|vs|v|Rs|approx|incl|cl|Sch|"
    r"Reg|Regs|sec|s|ss|Ch|Co|Ltd|Inc)$",
    re.I,
)
_LIST_MARKER_RE = re.compile(
    r"^(?:[-–—•*▪●·]\s+"  # a bullet
    r"|\(\s*(?:[a-z]{1,3}|[ivxlc]{1,6}|[A-Z]|\d{1,3})\s*\)"  # (e), (ii), (A), (15)
    r"|(?:[a-z]|[ivxlc]{1,6})[.)]\s"  # e) ii. a)
    r"|[A-Z]\)\s)"  # A)
)
# "1. In the case ...", "2) ...": a paragraph number, whatever follows.
_PARAGRAPH_NUMBER_RE = re.compile(r"^\d{1,3}[.)](?=\s|$)")
# "3.1.2 Cataract ...", "7 links the meaning ...", "72 hours ...", "10 000 000 EUR ...": a number and the word after.
_LEADING_NUMBER_RE = re.compile(r"^(\d+(?:\.\d+)+\.?|\d[\d,]*(?:\s\d{3})*)(%?)(?:\s+(\S+)|$)")
# Words after a number that make it a quantity ("72 hours", "10 000 000 EUR"), not a paragraph number.
QUANTITY_WORDS = frozenset(
    """hour hours day days week weeks month months year years minute minutes second seconds working calendar
    business item items per percent % times time eur euro euros gbp usd inr rs pounds beds in-patient patients
    people persons categories dioptres deliveries consecutive continuous january february march april may june
    july august september october november december""".split()
)
# Words that make a short line a statement rather than a label.
VERBS = frozenset(
    """is are was were be been being has have had do does did must may might shall should can could will would
    need needs apply applies applied mean means cover covers covered include includes pay pays paid require
    requires allow allows""".split()
)
# A first sentence opening with one of these points back at something the answer never said.
_ORPHAN_RE = re.compile(
    r"^(?:It|Its|This|That|These|Those|They|Their|Them|Such|He|She|His|Her|The latter|The former"
    r"|In (?:such|this|that|these|those|either|any such) (?:a )?(?:cases?|events?|circumstances?|situations?)"
    r"|For (?:this|that|these|those|such) purposes?"
    # "Under that accelerated procedure, ...", not "Under this Regulation, ..." (which names its document)
    r"|(?:Under|By|Within|After|Before|Through|During|From|For|With|In) (?:that|this|these|those|such) (?![A-Z])"
    # "If that other processor fails to fulfil its obligations, ...": the condition names what the sentence before did
    r"|(?:If|Where|When|Once|Unless) (?:that|those|such) (?![A-Z]))\b"
)
# "At the request of the health data user, that duration may be extended": the pointer follows a fronted phrase
_FRONTED_POINTER_RE = re.compile(r"^([^,;:()]{3,80}),\s+(?:that|this|these|those|such(?! as\b))\s+([a-z][\w-]*)")
_CONDITION_FRONTED_RE = re.compile(r"^(?:where|if|when|once|in case|in the event)\b", re.I)
_NAMED_SUBJECT_RE = re.compile(r"^(?:This|These|That|Those|Its|Their)\s+[A-Z]")
# "It shall be as easy to withdraw as to give consent", "It is not necessary to ...": a dummy subject, no pointer
_DUMMY_IT_RE = re.compile(
    r"^It (?:is|shall be|must be|will be|may be|should be|would be) (?:not )?(?:as \w+ to|(?:possible|impossible"
    r"|necessary|unnecessary|important|lawful|unlawful|sufficient|enough|easy|reasonable|appropriate|mandatory"
    r"|compulsory|permitted|forbidden|prohibited|essential|advisable) (?:to|that|for))\b"
)
_TERMINATED_RE = re.compile(r"[.!?][\"'’”)\]]*$")
_DANGLING_LEAD_IN_RE = re.compile(r":\s*[.!?]?$")
# "Article 9(1) - Processing of ...", "Caldicott Principle 5 - Everyone ...": a short label, a spaced dash.
_HEADING_DASH_RE = re.compile(r"^\S+(?:\s+\S+){0,4}\s+[-–—]\s+\S")
_SMALL_WORDS = frozenset("a an and at by for from in of on or per the to under with".split())
NUMBER_WORDS = frozenset(
    "one two three four five six seven eight nine ten eleven twelve fifteen twenty thirty hundred thousand".split()
)
# Whether a piece holds a word at all: asked of every word of every statement the composer weighs, so compiled once
# rather than looked up in the re module's cache per word.
_WORD_CHAR_RE = re.compile(r"\w")
MAX_LABEL_WORDS = 2  # "Limits.", "The regulator."
MAX_LEAD_IN_WORDS = 4  # "Details:", "Limits and conditions:"
MAX_HEADING_WORDS = 12


def _marker_gap(match: re.Match[str]) -> str:
    """A marker before the next sentence ends a piece; one before punctuation or a lower-case word sits inside it."""
    following = match.string[match.end() : match.end() + 1]
    if not following:
        return ""
    if _STARTS.match(match.string, match.end()):
        return "\n"
    return "" if following in ".,;:!?)" else " "


def sentences(answer: str) -> list[str]:
    """The answer's sentences, citation markers removed (an extractive answer's quotes end at their markers)."""
    out: list[str] = []
    for line in _MARKERS_RE.sub(_marker_gap, answer).split("\n"):
        start = 0
        for stop in _STOP_RE.finditer(line):
            if not _STARTS.match(line, stop.end()) or _ABBREVIATION_RE.search(line[start : stop.start()]):
                continue
            out.append(line[start : stop.end()].strip())
            start = stop.end()
        out.append(line[start:].strip())
    return [s for s in out if _WORD_CHAR_RE.search(s)]


def _verb_in(words: list[str]) -> bool:
    return any(w.lower().strip(".,:;!?") in VERBS for w in words)


def _title_case(words: list[str]) -> bool:
    """Mostly capitalised content words and no lower-case verb: "Room Rent and ICU Charges"."""
    content = [w for w in words if w[:1].isalpha() and w.lower() not in _SMALL_WORDS]
    capitalised = [w for w in content if w[:1].isupper()]
    lower = [w for w in content if w[:1].islower()]
    return len(capitalised) >= 2 and len(capitalised) >= 0.75 * len(content) and not _verb_in(lower)


def _is_label(sentence: str, words: list[str]) -> bool:
    """A word or two ("Limits.", "The regulator."), or up to four before a colon ("Details:"), that states
    nothing: no verb, no number, no yes or no."""
    if not words:  # "—", "•": no word at all states nothing
        return True
    limit = MAX_LEAD_IN_WORDS if sentence.endswith(":") else MAX_LABEL_WORDS
    if len(words) > limit or sentence.endswith(("?", "!", ";")):
        return False
    plain = [w.lower().strip(".,:") for w in words]
    return not (
        _verb_in(words) or plain[0] in ("yes", "no", "not") or NUMBER_WORDS & set(plain) or re.search(r"\d", sentence)
    )


def reads_as_label(sentence: str) -> bool:
    """A sentence that only labels what follows ("Timeline.", "Primary use.", "Details:")."""
    return _is_label(sentence, [w for w in sentence.split() if _WORD_CHAR_RE.search(w)])


def _is_heading(sentence: str) -> bool:
    """A label, or a heading without a final stop: one that opens with a short label and a spaced dash
    ("Article 9(1) - Processing of ...", "Caldicott Principle 7 - The duty to share ..."), or a short Title
    Case line ("Room Rent and ICU Charges", "Road Ambulance Cover (Clause 3.6): Rs. 3,000 per hospitalisation")."""
    words = [w for w in sentence.split() if _WORD_CHAR_RE.search(w)]
    if _is_label(sentence, words):
        return True
    if _TERMINATED_RE.search(sentence) or sentence.endswith((";", ":")):
        return False
    return bool(_HEADING_DASH_RE.match(sentence)) or (len(words) <= MAX_HEADING_WORDS and _title_case(words))


def _starts_with_clause_number(sentence: str) -> bool:
    """A leading number that is not a quantity: a quantity is a percentage or a number before a unit."""
    if _PARAGRAPH_NUMBER_RE.match(sentence):
        return True
    number = _LEADING_NUMBER_RE.match(sentence)
    if not number:
        return False
    _, percent, following = number.groups()
    unit = (following or "").lower().strip(".,:;")
    return not percent and unit not in QUANTITY_WORDS and not unit.startswith("%")


def _normalised(sentence: str) -> str:
    return re.sub(r"\s+", " ", sentence).strip(" .;:!?").lower()


def points_back(sentence: str) -> bool:
    """The sentence opens by pointing back at something said before it ("In such cases, ...", "This
    exclusion ...", "At the request of the user, that duration ..."): quoted first, an answer's reader
    cannot tell what it means."""
    if _ORPHAN_RE.match(sentence):
        return not _DUMMY_IT_RE.match(sentence)
    fronted = _FRONTED_POINTER_RE.match(sentence)  # "Where the controller ..., that controller" points within
    # "Where processing has been restricted ..., such personal data ...": the condition says which data
    return (
        fronted is not None
        and fronted.group(2).lower() not in fronted.group(1).lower()
        and not _CONDITION_FRONTED_RE.match(fronted.group(1))
    )


# "... shall inform the controller of any such extension ...": "such" and a word the sentence has not said before
_SUCH_RE = re.compile(
    r"\bsuch (?:an? )?(?!an?\b)(?!(?:[\w-]+ ){0,4}as\b|(?:[\w-]+ )?that\b|way\b|extent\b)([a-z][\w-]*)", re.I
)


def refers_to_what_precedes(sentence: str) -> bool:
    """A "such X" inside the sentence whose X the sentence has not named before it: "... inform the controller of
    any such extension within one month" needs the sentence saying what extension ("Where processing is
    restricted, such processing ..." points within the sentence)."""
    for match in _SUCH_RE.finditer(sentence):
        said = set(words(sentence[: match.start()]))
        if match.start() > 0 and not set(words(match.group(1))) & said:
            return True
    return False


def needs_antecedent(sentence: str) -> bool:
    """Points back at something only the sentence before it says: "In such cases, ...", "This exclusion ...",
    not "This Regulation ..." or "This Rider ...", which name their document (an answer may quote them alone,
    though the checker still asks for the name)."""
    return points_back(sentence) and not _NAMED_SUBJECT_RE.match(sentence)


def _rule(sentence: str, position: int, last: bool, seen: set[str]) -> str | None:
    """The first rule the sentence breaks, in a fixed order (one fragment per sentence)."""
    if _LIST_MARKER_RE.match(sentence):
        return "list_marker"
    if _starts_with_clause_number(sentence):
        return "clause_number"
    if _is_heading(sentence):
        return "heading"
    if position == 0 and points_back(sentence):
        return "orphan_pronoun"
    if _normalised(sentence) in seen:
        return "repeated"
    if last and not _TERMINATED_RE.search(sentence):
        return "unterminated"
    if _DANGLING_LEAD_IN_RE.search(sentence):  # "... are set out as follows:" with nothing after it
        return "dangling_lead_in"
    return None


def fragments(answer: str) -> list[Fragment]:
    """The sentences of an answer that do not read as prose, each with the rule it breaks."""
    found: list[Fragment] = []
    seen: set[str] = set()
    pieces = sentences(answer)
    for position, sentence in enumerate(pieces):
        rule = _rule(sentence, position, position == len(pieces) - 1, seen)
        if rule:
            found.append(Fragment(rule, sentence))
        seen.add(_normalised(sentence))
    return found
