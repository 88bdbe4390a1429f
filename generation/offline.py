"""The offline answerer: a short extractive answer from the supporting sentences, cited like the LLM's.

It picks the sentences that cover the question best (content words, the legal terms they map to,
and similarity to the question), keeps their wording exactly (so numbers and periods are the
source's), and cites each one. When no sentence is good enough it returns the refusal sentence.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from core.types import Evidence
from generation.prompts import REFUSAL
from language.question import mentions, salient_names
from language.sentences import split_sentences
from language.support import Embed, score_sentences
from language.words import words

MAX_SENTENCES = 3
MIN_SCORE = 0.35
FOLLOW_RATIO = 0.7
_LEADING_NUMBER_RE = re.compile(r"^\s*\d{1,2}\.\s+")
# A sentence that opens a list ("as under:", "provided that: i.") and the points after it. In text
# from PDFs a point's marker often ends the sentence before it ("... round the clock; ii."), so a
# point is a sentence that starts with a marker or follows one that ends with one.
_LIST_MARK = r"\(?(?:[ivx]{1,5}|[a-z]|\d{1,2})[.)]"
_LEAD_IN_RE = re.compile(rf":\s*$|:\s+{_LIST_MARK}(?:\s|$)")
_STARTS_WITH_MARK_RE = re.compile(rf"^{_LIST_MARK}\s")
_ENDS_WITH_MARK_RE = re.compile(rf"(?:^|\s){_LIST_MARK}$")
MAX_POINTS = 6
MAX_POINT_WORDS = 120


def list_points(text: str, sentence: str) -> list[str]:
    """The points a lead-in sentence introduces ("... complies with all minimum criteria as under:"),
    quoted after it from the same clause: the conditions are the answer, not the lead-in alone."""
    if not _LEAD_IN_RE.search(sentence):
        return []
    sentences = split_sentences(text)
    if sentence not in sentences:
        return []
    points: list[str] = []
    previous = sentence
    for following in sentences[sentences.index(sentence) + 1 :]:
        is_point = _STARTS_WITH_MARK_RE.match(following) or _ENDS_WITH_MARK_RE.search(previous)
        if not is_point or len(points) == MAX_POINTS:
            break
        if sum(len(p.split()) for p in [*points, following]) > MAX_POINT_WORDS:
            break
        points.append(following)
        previous = following
    return points


def compose(question: str, blocks: list[Evidence], embed: Embed | None) -> str:
    """The extractive answer text (or the refusal sentence)."""
    passages = [block.highlights or split_sentences(block.text) for block in blocks]
    referenced = {i for i, block in enumerate(blocks) if block.scores.reference_match}
    scored = sorted(score_sentences(question, passages, embed, referenced), key=lambda s: -s.score)
    if not scored or scored[0].score < MIN_SCORE:
        return REFUSAL
    chosen = [scored[0]]
    covered = set(scored[0].terms)
    for candidate in scored[1:]:
        if len(chosen) == MAX_SENTENCES:
            break
        adds = candidate.terms - covered
        if candidate.score >= FOLLOW_RATIO * scored[0].score and (adds or candidate.block != chosen[0].block):
            if candidate.text not in {c.text for c in chosen}:
                chosen.append(candidate)
                covered |= candidate.terms
    lines, quoted = [], set()
    for c in chosen:
        if c.text in quoted:
            continue
        points = list_points(blocks[c.block].text, c.text)
        quoted |= {c.text, *points}
        lines.append(f"{_LEADING_NUMBER_RE.sub('', ' '.join([c.text, *points])).strip()} [Source {c.block + 1}]")
    context = " ".join(f"{b.document} {b.citation} {b.text}" for b in blocks).lower()
    # only plain names are echoed back (never codes or strings a question may have planted)
    context_terms = set(words(context))
    missing = [
        n for n in salient_names(question) if not mentions(n, context, context_terms) and n.isalpha() and len(n) <= 20
    ]
    if missing:
        lines.append(f"The sources do not mention {', '.join(missing)}.")
    return " ".join(lines)


class OfflineAnswerer:
    """Generator protocol: stream the answer word by word."""

    name = "offline-extractive"

    def __init__(self, embed: Embed | None = None):
        self.embed = embed

    def stream(self, question: str, blocks: list[Evidence]) -> Iterator[str]:
        text = compose(question, blocks, self.embed)
        for index, word in enumerate(text.split(" ")):
            yield word if index == 0 else f" {word}"
