"""Provisions by their titles: the law's own names for what users describe in plain words.

The jargon table (language/expansion.py) maps users' words to the terms the texts use: "what were they
supposed to tell me when they took my details" to "information to be provided where personal data are
collected from the data subject". Those terms are often a provision's title (GDPR Art. 13), while the
provision's text, a long list, is a poor match for the question. A provision whose title the mapped terms
name is brought into the candidates, to be graded on its merits like one a recital names.
"""

from __future__ import annotations

import threading
from dataclasses import dataclass

from db.store import VectorStore
from language.references import Reference, parse_references
from language.words import words

MAX_TITLED = 4  # provisions one question brings in by title, at most (the closest titles first)


@dataclass(frozen=True)
class Titled:
    words: frozenset[str]  # the title's content words, stemmed
    token: str  # the provision's reference token (gdpr_ref_13), which every chunk of it carries


def title_of(payload: dict[str, object]) -> str:
    """A provision's own title from its heading path: "CHAPTER III / Article 13 - Information to be provided
    ..." -> "Information to be provided ..."; '' when the heading has no title."""
    heading = str(payload.get("section") or "").rsplit(" / ", 1)[-1]
    _, dash, title = heading.partition(" - ")
    return title.strip() if dash else ""


def provision_token(citation: str) -> str:
    """The token of the whole provision a chunk belongs to: "GDPR Art. 13(1)" -> "gdpr_ref_13"."""
    references = parse_references(citation)
    if not references:
        return ""
    ref = references[0]
    return Reference(ref.kind, ref.path[:1], ref.instrument).tokens(ancestors=False)[-1]


def names(phrase: set[str], title: frozenset[str]) -> bool:
    """The mapped terms name the title: they hold all its words ("right to object"), or the title holds all
    of theirs and they are more than one word ("administrative fines" in "General conditions for imposing
    administrative fines")."""
    return bool(title) and (title <= phrase or (len(phrase) > 1 and phrase <= title))


class TitleDirectory:
    """The titled binding provisions of the published index (built once per generation from the payloads)."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._built_for: int | None = None
        self._titled: list[Titled] = []

    def titled(self, store: VectorStore) -> list[Titled]:
        with self._lock:
            if self._built_for != id(store):
                found: dict[str, Titled] = {}
                for payload in store.payloads({"authority": "binding"}, limit=1_000_000):
                    title, token = title_of(payload), provision_token(str(payload.get("citation") or ""))
                    if title and token and token not in found:
                        found[token] = Titled(frozenset(words(title)), token)
                self._titled, self._built_for = list(found.values()), id(store)
            return self._titled

    def tokens_for(self, phrases: list[str], store: VectorStore) -> list[str]:
        """The provisions whose titles the mapped terms name, closest titles first."""
        matched: dict[str, float] = {}
        for phrase in phrases:
            terms = set(words(phrase))
            for titled in self.titled(store):
                if names(terms, titled.words):
                    closeness = len(terms & titled.words) / len(terms | titled.words)
                    matched[titled.token] = max(closeness, matched.get(titled.token, 0.0))
        return sorted(matched, key=lambda token: -matched[token])[:MAX_TITLED]
