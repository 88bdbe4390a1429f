"""A numbered series asked for whole ("What are the Caldicott principles?", "What are the exclusions?"): each
member is its own document ("Caldicott Principle 1" ... "Caldicott Principle 8") or its own sub-clause of a
wording's section ("5. Exclusions": cl. 5.1 ... cl. 5.16), so no one chunk's list answers, and the answer is only
right with every member."""

from __future__ import annotations

import re
from dataclasses import dataclass

from language.references import instrument_named
from language.titles import title_of
from language.words import words

# "What are the Caldicott principles?", "List the NDG data security standards": the series' name ends in its
# members' plural noun; "What are the conditions for consent?" asks for one provision's list, not a series
_ASKED_RE = re.compile(
    r"\b(?:what (?:are|were)|list|name|summari[sz]e|tell me|give me|which are)(?: all)?(?: of)? the "
    r"(?P<name>(?:[\w'-]+ ){0,4}?(?P<noun>[a-z]+s))\b(?!'| (?:for|to|on|about|that|which|who)\b)"
    r"(?: (?:under|in|of) (?P<scope>[^?.]+))?",  # "... under the group rider": the words of the scope must name it too
    re.I,
)
# "What benefits does the group rider offer?", "Which exclusions does my policy have?"; "Which Caldicott principles
# are there?", "How many NDG standards are there?"
_ASKED_OF_RE = re.compile(
    r"\b(?:what|which) (?P<name>(?:[\w'-]+ ){0,3}?(?P<noun>[a-z]+s)) (?:does|do) (?P<scope>[^?.]+?) "
    r"(?:offer|have|include|contain|provide|list|set out)\b"
    r"|\b(?:what|which|how many) (?P<name2>(?:[\w'-]+ ){0,4}?(?P<noun2>[a-z]+s)) (?:are there|exist)\b",
    re.I,
)
# "What does the individual rider not pay for?", "What isn't covered by the group rider?", "What does my policy
# exclude?": a wording's exclusions asked for whole in the policyholder's words; the question ends with the
# wording ("... not cover for dental treatment?" asks about one item)
_NOT_COVERED_RE = re.compile(
    r"\bwhat (?:(?:does|do|will|would) (?P<scope>[^?.]+?) (?:not|never) (?:pay(?: out)? for|cover|include)"
    r"|(?:won't|doesn't|don't|wouldn't) (?P<scope5>[^?.]+?) (?:pay(?: out)? for|cover|include)"
    r"|(?:does|do|will|would) (?P<scope2>[^?.]+?) exclude"
    r"|(?:isn't|aren't|is not|are not|is never|are never) (?:covered|paid for|included)"
    r" (?:by|under|in|on) (?P<scope3>[^?.]+?)"
    r"|(?:is|are) excluded (?:by|under|in|from) (?P<scope4>[^?.]+?))\s*\??\s*$",
    re.I,
)
# words a scope uses for any wording or law, naming none in particular
_ANY_DOCUMENT = frozenset(words("the a my our this their policy policies rider wording plan cover insurance document"))
_MEMBER_RE = re.compile(r"^(?P<prefix>.*[^\d\s]) (?P<number>\d{1,3})$")
_SUB_CLAUSE_RE = re.compile(r"^(?P<prefix>.* cl\. \d+(?:\.\d+)*)\.(?P<number>\d{1,3})$")  # "... cl. 5.8"
_SECTION_HEAD_RE = re.compile(r"^.* cl\. \d+$")  # a wording's section ("... cl. 5"), whose sub-clauses are its members
_SECTION_NUMBER_RE = re.compile(r"^\s*\d+(?:\.\d+)*\.?\s+")
_CODE_RE = re.compile(r"\s*\(Code\s*-\s*[^)]*\)", re.I)
MAX_MEMBERS = 30  # a series is looked for up to this number
MIN_MEMBERS = 2  # members already found that show the series is the one asked about


@dataclass(frozen=True)
class Member:
    """One member of a series: "Caldicott Principle 8" is member 8 of "Caldicott Principle"; "CareShield Rider
    (Individual) cl. 5.8" is member 8 of "CareShield Rider (Individual) cl. 5"."""

    prefix: str
    number: int

    @property
    def sub_clause(self) -> bool:
        return self.prefix[-1:].isdigit()

    def citation_of(self, number: int) -> str:
        return f"{self.prefix}.{number}" if self.sub_clause else f"{self.prefix} {number}"


def member_of(citation: str) -> Member | None:
    match = _SUB_CLAUSE_RE.match(citation.strip()) or _MEMBER_RE.match(citation.strip())
    return Member(match.group("prefix"), int(match.group("number"))) if match else None


def series_name(member: Member, section: str) -> str:
    """What the series is called: a numbered document's prefix ("Caldicott Principle"), or the heading of the
    section a sub-clause belongs to ("5. Exclusions / 5.8 Excluded Providers" -> "Exclusions")."""
    if not member.sub_clause:
        return member.prefix
    return _SECTION_NUMBER_RE.sub("", section.split(" / ")[0]).strip()


def member_title(section: str) -> str:
    """A sub-clause's own heading, without its number or code: "Excluded Providers"."""
    return _CODE_RE.sub("", _SECTION_NUMBER_RE.sub("", section.split(" / ")[-1])).strip()


@dataclass(frozen=True)
class Series:
    """The series a chunk belongs to ("Caldicott Principle", "Exclusions" of "... cl. 5"), or heads: a wording's
    section lead-in ("5. Exclusions", cited "... cl. 5") whose sub-clauses are the members."""

    prefix: str
    name: str
    head: bool

    @property
    def of_sub_clauses(self) -> bool:
        """A wording's section ("... cl. 5"), not a numbered document series ("Caldicott Principle")."""
        return self.prefix[-1:].isdigit()


def series_of(citation: str, section: str) -> Series | None:
    """The series of a chunk, from its citation and section; None when it is in none."""
    if _SECTION_HEAD_RE.match(citation) and " / " not in section:
        return Series(citation, _SECTION_NUMBER_RE.sub("", section).strip(), True)
    if member := member_of(citation):
        return Series(member.prefix, series_name(member, section), False)
    return None


def asked_series(question: str, found: list[tuple[str, str]]) -> str | None:
    """The prefix of the series the question asks for whole, when the evidence (citation, section) holds members
    of it or the section they belong to: the series' name ends in the noun asked for, and every other word of the
    name asked is in it or in the prefix ("NDG" in "NDG Data Security Standard", "individual" in "CareShield Rider
    (Individual) cl. 5")."""
    if match := _ASKED_RE.search(question) or _ASKED_OF_RE.search(question):
        groups = match.groupdict()
        noun = words(groups.get("noun") or groups["noun2"])  # stemmed: "principles" and "Principle" are one word
        named = set(words(groups.get("name") or groups["name2"])) - set(noun)
        named |= set(words(groups.get("scope") or "")) - _ANY_DOCUMENT
    elif match := _NOT_COVERED_RE.search(re.sub(r"\bwhat['’]s\b", "what is", question, flags=re.I)):
        noun = words("exclusions")
        named = set(words(next(scope for scope in match.groups() if scope))) - _ANY_DOCUMENT
    else:
        return None
    counted: dict[str, int] = {}
    for citation, section in found:
        if not (series := series_of(citation, section)):
            continue
        prefix, name = series.prefix, words(series.name)
        if name and name[-1:] == noun and named <= set(words(prefix)) | set(name):
            counted[prefix] = counted.get(prefix, 0) + (MIN_MEMBERS if series.head else 1)
    best = max(counted, key=lambda prefix: counted[prefix], default=None)  # the first of equals: the best graded
    return best if best and counted[best] >= MIN_MEMBERS else None


def member_citations(prefix: str) -> list[str]:
    """Every citation a member of the series could have, in order."""
    series = Member(prefix, 0)
    return [series.citation_of(number) for number in range(1, MAX_MEMBERS + 1)]


# "What rights do patients have under the EHDS?", "What are the data subject rights?": the articles that grant a
# right, each its own document; not one right's content ("What rights do I have to see my records?")
_RIGHTS_RE = re.compile(r"\b(?:what|which|list|summari[sz]e)\b[^?.]{0,40}?\brights\b(?![^?.]{0,30}\bto\b)", re.I)
_RIGHT_TITLE_RE = re.compile(r"^rights?\b", re.I)


def rights_asked(question: str) -> str | None:
    """The instrument whose rights the question asks for as a whole (as its payloads name it: "EHDS"), the
    GDPR for a data subject's rights; None when it asks for no such list or names no instrument."""
    if not _RIGHTS_RE.search(question):
        return None
    named = instrument_named(question) or ("gdpr" if re.search(r"\bdata subjects?\b", question, re.I) else None)
    return named.upper() if named in ("gdpr", "ehds") else None


def right_granted(section: str) -> str:
    """The title of an article granting a right ("Right to erasure ('right to be forgotten')"), else ''."""
    title = title_of(section)
    return title if _RIGHT_TITLE_RE.match(title) else ""
