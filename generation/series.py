"""The answer to a question asking for a numbered series whole ("What are the Caldicott principles?", "What are
the exclusions?"): every member by its number and title, each cited, and how many there are when the sources
hold them all."""

from __future__ import annotations

import re

from core.types import Evidence
from generation.blocks import series_members
from language.series import Member, member_of, member_title, right_granted, rights_asked, series_name, series_of

_ARTICLE_RE = re.compile(r"^Article\b")
MIN_LISTED = 3  # fewer members than this are no series to list: the usual composition answers
_COUNTS = "two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen".split()


def _title(block: Evidence, member: Member) -> str:
    """The member's own title: a sub-clause's heading ("Excluded Providers"), a document's title after its name
    ("Caldicott Principle 8 - Inform patients ..."), else its first sentence."""
    if member.sub_clause:
        return member_title(block.section)
    prefix, _, title = block.document.partition(" - ")
    text = title if title and prefix.strip() == block.citation else block.text.split(". ")[0]
    return text.strip().rstrip(".")


def _opening(first: Member, block: Evidence, count: int, whole: bool) -> str:
    """ "There are eight Caldicott Principles:", "There are 16 exclusions under CareShield Rider (Individual) cl. 5:";
    without the count when the members do not run from 1 without a gap."""
    if first.sub_clause:
        plural = f"{series_name(first, block.section).lower()} under {first.prefix}"
    else:
        plural = f"{first.prefix[:-1]}ies" if first.prefix.endswith("y") else f"{first.prefix}s"
    if not whole:
        return f"The sources hold these {plural}:"
    return f"There are {_COUNTS[count - 2] if count - 2 < len(_COUNTS) else count} {plural}:"


def _article(block: Evidence) -> str:
    """ "Art. 15" from the block's heading "Article 15 - Right of access by the data subject"."""
    return _ARTICLE_RE.sub("Art.", block.section.split(" - ", 1)[0])


def compose_series(question: str, blocks: list[Evidence]) -> str | None:
    """The members the evidence holds, by number; the count is stated only when they run from 1 without a gap
    (the sources then hold the whole series as far as the index knows it)."""
    members = series_members(question, blocks)
    if len(members) < MIN_LISTED:
        return None
    index = {id(b): i for i, b in enumerate(blocks)}
    if instrument := rights_asked(question):  # each article granting a right, by its number and title
        items = [f"({_article(b)}) {right_granted(b.section)} [Source {index[id(b)] + 1}]" for b in members]
        return f"The sources hold these {instrument} articles granting rights: {'; '.join(items)}."
    listed = [(member, b) for b in members if (member := member_of(b.citation))]
    numbers = [member.number for member, _ in listed]
    whole = numbers == list(range(1, len(numbers) + 1))
    first = listed[0][0]
    items = [
        f"({member.citation_of(member.number).rsplit(' ', 1)[-1]}) {_title(b, member)} [Source {index[id(b)] + 1}]"
        for member, b in listed
    ]
    answer = f"{_opening(first, listed[0][1], len(listed), whole)} {'; '.join(items)}."
    return answer + _another_wording(first, listed[0][1], blocks, index)


def _another_wording(first: Member, block: Evidence, blocks: list[Evidence], index: dict[int, int]) -> str:
    """A section of the same name in another wording of the evidence ("What are the exclusions?" naming no rider):
    said, so the list is not taken for every wording's."""
    if not first.sub_clause:
        return ""
    name = series_name(first, block.section)
    for other in blocks:
        series = series_of(other.citation, other.section)
        if series and series.of_sub_clauses and series.prefix != first.prefix and series.name == name:
            return f" {series.prefix} has {name.lower()} of its own [Source {index[id(other)] + 1}]."
    return ""
