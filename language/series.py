"""A numbered series asked for whole ("What are the Caldicott principles?"): each member is its own document
("Caldicott Principle 1" ... "Caldicott Principle 8"), so no one chunk's list answers, and the answer is only
right with every member."""

from __future__ import annotations

import re
from dataclasses import dataclass

from language.words import words

# "What are the Caldicott principles?", "List the NDG data security standards": the series' name ends in its
# members' plural noun; "What are the conditions for consent?" asks for one provision's list, not a series
_ASKED_RE = re.compile(
    r"\b(?:what (?:are|were)|list|name|summari[sz]e|tell me|give me|which are)(?: all)?(?: of)? the "
    r"(?P<name>(?:[\w'-]+ ){0,4}?(?P<noun>[a-z]+s))\b(?!'| (?:of|for|to|in|on|about|that|which|who|under)\b)",
    re.I,
)
_MEMBER_RE = re.compile(r"^(?P<prefix>.*[^\d\s]) (?P<number>\d{1,3})$")
MAX_MEMBERS = 30  # a series is looked for up to this number
MIN_MEMBERS = 2  # members already found that show the series is the one asked about


@dataclass(frozen=True)
class Member:
    """One member of a series: "Caldicott Principle 8" is member 8 of "Caldicott Principle"."""

    prefix: str
    number: int


def member_of(citation: str) -> Member | None:
    match = _MEMBER_RE.match(citation.strip())
    return Member(match.group("prefix"), int(match.group("number"))) if match else None


def _singular(noun: str) -> str:
    return noun[:-3] + "y" if noun.endswith("ies") else noun[:-1]


def asked_series(question: str, citations: list[str]) -> str | None:
    """The prefix of the series the question asks for whole, when the citations hold members of it: its last
    word is the noun asked for, and every other word of the name asked is in it ("NDG" in "NDG Data Security
    Standard")."""
    match = _ASKED_RE.search(question)
    if not match:
        return None
    noun = _singular(match.group("noun").lower())
    named = set(words(match.group("name"))) - set(words(match.group("noun")))
    found: dict[str, int] = {}
    for citation in citations:
        member = member_of(citation)
        if member and member.prefix.lower().split()[-1] == noun and named <= set(words(member.prefix)):
            found[member.prefix] = found.get(member.prefix, 0) + 1
    best = max(found, key=lambda prefix: found[prefix], default=None)
    return best if best and found[best] >= MIN_MEMBERS else None


def member_citations(prefix: str) -> list[str]:
    """Every citation a member of the series could have, in order."""
    return [f"{prefix} {number}" for number in range(1, MAX_MEMBERS + 1)]
