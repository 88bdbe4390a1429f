"""The answer to a question asking for a numbered series whole ("What are the Caldicott principles?"): every
member by its number and title, each cited, and how many there are when the sources hold them all."""

from __future__ import annotations

from core.types import Evidence
from generation.blocks import series_members
from language.series import member_of

MIN_LISTED = 3  # fewer members than this are no series to list: the usual composition answers
_COUNTS = "two three four five six seven eight nine ten eleven twelve thirteen fourteen fifteen".split()


def _title(block: Evidence) -> str:
    """The member's own title ("Caldicott Principle 8 - Inform patients ..."), else its first sentence."""
    prefix, _, title = block.document.partition(" - ")
    text = title if title and prefix.strip() == block.citation else block.text.split(". ")[0]
    return text.strip().rstrip(".")


def compose_series(question: str, blocks: list[Evidence]) -> str | None:
    """The members the evidence holds, by number; the count is stated only when they run from 1 without a gap
    (the sources then hold the whole series as far as the index knows it)."""
    members = series_members(question, blocks)
    if len(members) < MIN_LISTED:
        return None
    index = {id(b): i for i, b in enumerate(blocks)}
    numbers = [member.number for b in members if (member := member_of(b.citation))]
    prefix = members[0].citation.rsplit(" ", 1)[0]
    whole = numbers == list(range(1, len(numbers) + 1)) and len(numbers) - 2 < len(_COUNTS)
    plural = f"{prefix[:-1]}ies" if prefix.endswith("y") else f"{prefix}s"
    opening = f"There are {_COUNTS[len(numbers) - 2]} {plural}:" if whole else f"The sources hold these {plural}:"
    items = [f"({n}) {_title(b)} [Source {index[id(b)] + 1}]" for n, b in zip(numbers, members, strict=True)]
    return f"{opening} {'; '.join(items)}."
