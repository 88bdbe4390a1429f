"""Sentence support for a question: which sentences of the evidence answer it
(knowledge strips and the offline answerer).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np

from core.types import Evidence
from language.analysis import asked_alone
from language.expansion import INSTRUMENT_NAMES, bridged_words, expansion_terms
from language.question import ANSWER_TYPE_WORDS, content_terms, named_numbers, states_number
from language.sentences import is_heading
from language.words import words

Embed = Callable[[list[str]], np.ndarray]
EmbedFor = Callable[[list[Evidence]], Embed]  # the Embed for scoring these chunks' sentences (stored ones reused)
SIMILARITY_RANGE = (0.15, 0.65)


@dataclass
class ScoredSentence:
    block: int  # index of the evidence block the sentence comes from
    text: str
    score: float
    terms: set[str]
    alone: float = 0.0  # its support for the asking sentence read alone, after a story (0 when there is none)


REFERENCE_BONUS = 0.3
TITLE_WEIGHT = 0.5  # a word only the passage's title holds, against one the sentence says
NEUTRAL_SUPPORT = 0.5  # a question that only names its provision: every sentence of it supports alike


def score_sentences(
    question: str,
    passages: list[list[str]],
    embed: Embed | None,
    referenced: set[int] | None = None,
    skip_headings: bool = True,
    naming: set[str] | None = None,
    titles: list[str] | None = None,
) -> list[ScoredSentence]:
    """Each sentence's support for the question in [0, 1]: content-word coverage (legal terms the
    question's words map to included, and the plain words a sentence says in those terms), similarity to the
    question, any number the question names, and a bonus for sentences of a passage that carries the
    reference the question names.
    Headings are labels, not statements, and are never candidates. Words that only name the provision asked
    about (`naming`: "Caldicott", "Principle") pick the passage, not the sentence within it: they do not count.
    A sentence is read under its passage's title (`titles`): "a report is made to senior management" under
    "Responding to incidents" covers "incidents". After a story, the sentence that asks is read alone too (`alone`)."""
    # (a sentence answering the question a story leads up to supports it, whatever it says of the story, though it
    # is ranked by the whole question)
    queries = [question, *filter(None, [asked_alone(question)])]
    wanted_of = [_wanted(q, naming) for q in queries]
    numbers = named_numbers(question)
    referenced = referenced or set()
    candidates = [
        (i, s) for i, sentences in enumerate(passages) for s in sentences if not (skip_headings and is_heading(s))
    ]
    if not candidates:
        return []
    titled = [set(words(title)) for title in titles] if titles else [set()] * len(passages)
    similarity = np.zeros((len(queries), len(candidates)))
    if embed is not None:
        vectors = embed([*queries, *(s for _, s in candidates)])
        low, high = SIMILARITY_RANGE
        similarity = np.clip((vectors[len(queries) :] @ vectors[: len(queries)].T - low) / (high - low), 0, 1).T
    scored = []
    for position, (index, sentence) in enumerate(candidates):
        said = set(words(sentence))
        supports_each, terms = [], set[str]()
        for n, (query, (wanted, only_named), sims) in enumerate(zip(queries, wanted_of, similarity, strict=True)):
            # "update my address" said as "rectification" (not "how long" said as "without undue delay": any period)
            own = (said | (bridged_words(query, said) - ANSWER_TYPE_WORDS)) & wanted
            covering = own | (titled[index] & wanted)
            covered = len(own) + TITLE_WEIGHT * len(covering - own)  # the title is every sentence's: it counts less
            coverage = min(1.0, 1.5 * covered / len(wanted)) if wanted else None
            if only_named:
                supports = NEUTRAL_SUPPORT
            elif embed is None:
                supports = coverage or 0.0
            else:
                sim = float(sims[position])
                supports = sim if coverage is None else 0.5 * coverage + 0.5 * sim
            supports_each.append(supports)
            terms = covering if n == 0 else terms  # the words of the whole question's reading
        score, *alone = supports_each
        if index in referenced:
            score = min(1.0, score + REFERENCE_BONUS)
        if numbers and any(states_number(n, sentence) for n in numbers):
            score = min(1.0, score + 0.2)
        scored.append(ScoredSentence(index, sentence, round(score, 4), terms, round(max(alone, default=0.0), 4)))
    return scored


def _wanted(question: str, naming: set[str] | None) -> tuple[set[str], bool]:
    """The words a sentence answering the question says, its own and those its plain words stand for, but for the
    words naming the provision asked about; and whether the question only names its provision."""
    # the law's own name an acronym spells out ("EHDS": "European Health Data Space") picks passages, not sentences:
    # a sentence spelling the name out says nothing asked (unless the question asks little else: "What does Article
    # 46(2)(c) GDPR provide?")
    own = content_terms(question)
    expanded = expansion_terms(question)
    if len(own - (naming or set())) > 1:
        expanded = [terms for terms in expanded if terms not in INSTRUMENT_NAMES]
    asked = own | set(words(" ".join(expanded)))
    wanted = asked - (naming or set())
    return wanted, bool(asked) and not wanted  # "What does Caldicott Principle 2 say?": the passage's main rule
