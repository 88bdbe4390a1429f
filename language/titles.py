"""Provision titles named by a question's plain words, through the jargon table's legal terms.

A long provision (a list of what a notice must say) matches a plain question poorly, while its title ("Information
to be provided where personal data are collected from the data subject") is what the law calls the thing asked
about: both grading and the composer use a title the question names."""

from __future__ import annotations

from collections.abc import Set as AbstractSet
from functools import lru_cache

from language.expansion import bridges
from language.words import words


def titled(question: str, section: str) -> bool:
    """The law's terms for the question's plain words name this chunk's provision by its title: the jargon
    table maps "what were they supposed to tell me when they took my details" to "information to be provided
    where personal data are collected from the data subject", the title of GDPR Art. 13, whose text (a long
    list) matches the question poorly."""
    title = frozenset(words(title_of(section)))
    return any(names(terms, title) for terms in _legal_terms(question))


@lru_cache(maxsize=1024)  # asked once per candidate chunk of the question
def _legal_terms(question: str) -> tuple[frozenset[str], ...]:
    return tuple(frozenset(words(terms)) for _, terms in bridges(question))


def title_of(section: str) -> str:
    """A provision's own title from its heading path: "CHAPTER III / Article 13 - Information to be provided
    ..." -> "Information to be provided ..."; '' when the heading has no title."""
    _, dash, title = section.rsplit(" / ", 1)[-1].partition(" - ")
    return title.strip() if dash else ""


def passage_title(section: str, text: str) -> str:
    """The title a passage is read under: its provision's, or its own heading line's ("NDG Data Security Standard
    6 - Responding to incidents", for texts whose loader records no heading path)."""
    return title_of(section) or (title_of(text.partition("\n")[0]) if "\n" in text else "")


def names(terms: AbstractSet[str], title: frozenset[str]) -> bool:
    """The terms name the title: they hold all its words ("right to object"), or the title holds all of theirs
    and they are more than one word ("administrative fines" in "General conditions for imposing
    administrative fines")."""
    return bool(title) and (title <= terms or (len(terms) > 1 and terms <= title))
