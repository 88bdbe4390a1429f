"""Run a generator over evidence blocks: stream sanitised text, check citations, settle the status."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from typing import Protocol

from core.types import Citation, Evidence
from generation.chat import GenerationUnavailable
from generation.guard import Sanitiser, before_injection, check_citations, is_injection
from generation.prompts import GENERATION_UNAVAILABLE, REFUSAL
from language.sentences import split_sentences


class Generator(Protocol):
    name: str

    def stream(self, question: str, blocks: list[Evidence]) -> Iterator[str]: ...


@dataclass
class GeneratedAnswer:
    answer: str
    status: str  # answered / refused / evidence_only
    detail: str
    generator: str
    citations: list[Citation] = field(default_factory=list)
    removed_citations: list[str] = field(default_factory=list)
    sanitised: list[str] = field(default_factory=list)


def is_refusal(text: str) -> bool:
    return text.strip().rstrip(".").lower() == REFUSAL.rstrip(".").lower()


def _clean_sentences(text: str) -> list[str]:
    return [clean for s in split_sentences(text) if (clean := before_injection(s))]


def _clean_text(text: str) -> str:
    """The text with each sentence cut before its instruction; lines without one are kept as they are (line
    breaks mark points and paragraphs for the offline composer, which reads the whole text)."""
    return "\n".join(" ".join(_clean_sentences(line)) if is_injection(line) else line for line in text.splitlines())


def without_injections(block: Evidence) -> Evidence:
    """Evidence with its instructions to the model removed (they are data, never instructions), from the
    supporting sentences a chat model reads and the text the offline composer reads; a sentence keeps the clean
    clause before its instruction, so an injected tail cannot take the clause's fact with it."""
    sentences = block.highlights or split_sentences(block.text)
    kept = [clean for s in sentences if (clean := before_injection(s))]
    if kept == sentences and not is_injection(block.text):
        return block
    return block.model_copy(
        update={"highlights": kept or ["(text withheld: it contained instructions)"], "text": _clean_text(block.text)}
    )


def resolve(cited: list[int], blocks: list[Evidence]) -> list[Citation]:
    out = []
    for number in cited:
        block = blocks[number - 1]
        out.append(
            Citation(
                source=number,
                citation=block.citation,
                document=block.document,
                url=block.url,
                page=block.page,
                chunk_id=block.chunk_id,
                origin=block.origin,
            )
        )
    return out


def generate_answer(
    question: str,
    blocks: list[Evidence],
    generator: Generator | None,
    sanitiser: Sanitiser,
    emit: Callable[[str], None] | None = None,
) -> GeneratedAnswer:
    """The grounded answer; with no blocks the generator is never called and the answer is the refusal."""
    if not blocks or generator is None:
        return GeneratedAnswer(REFUSAL, "refused", "no evidence strong enough to answer", "none")
    safe_blocks = [without_injections(b) for b in blocks]
    removed: list[str] = []
    pieces: list[str] = []
    try:
        sources = " ".join(f"{b.document} {b.citation} {b.strips}" for b in safe_blocks)
        for piece in sanitiser.stream(generator.stream(question, safe_blocks), removed, grounded_in=sources):
            pieces.append(piece)
            if emit:
                emit(piece)
    except GenerationUnavailable as error:
        return GeneratedAnswer(
            GENERATION_UNAVAILABLE,
            "evidence_only",
            f"answer generation unavailable: {error}",
            generator.name,
            sanitised=removed,
        )
    text = re.sub(r"\s+", " ", "".join(pieces)).strip()
    text, cited, removed_citations = check_citations(text, len(safe_blocks))
    if not text or is_refusal(text) or not re.search(r"[A-Za-z]", text):
        return GeneratedAnswer(
            REFUSAL,
            "refused",
            "the sources do not answer the question",
            generator.name,
            removed_citations=removed_citations,
            sanitised=removed,
        )
    if not cited:
        # An answer that cites nothing cannot be checked: users are told instead of trusting it.
        return GeneratedAnswer(
            REFUSAL,
            "refused",
            "the answer cited no source, so it was withheld",
            generator.name,
            removed_citations=removed_citations,
            sanitised=removed,
        )
    return GeneratedAnswer(
        text, "answered", "", generator.name, resolve(cited, safe_blocks), removed_citations, removed
    )
