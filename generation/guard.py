"""Defences around the model: untrusted text is neutralised going in and the answer is checked coming out.

- Forged boundary tags (`<system_instructions>` and friends) in evidence or in a question are
  defused, so untrusted text cannot close the data section and open an instruction section.
- Sentences in evidence that read as instructions to the model are dropped before generation.
- The answer is sanitised: forged tags, secrets (key patterns and the configured key values),
  any 8-word run of the system prompt, and echoed injection sentences are removed.
- Every [Source N] must name a block that was given; unknown numbers are removed and reported.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import lru_cache

from core.redaction import REDACTED, SECRET_PATTERNS
from generation.prompts import BOUNDARY_TAGS, REFUSAL, SYSTEM_PROMPT

_TAG_RE = re.compile(r"<\s*/?\s*(" + "|".join(BOUNDARY_TAGS) + r"|system|instructions?|im_start|im_end)\b[^>]*>", re.I)
INJECTION_RE = re.compile(
    r"\b(ignore|disregard|forget|override)\b.{0,40}\b(instructions?|rules|prompt|guidelines)\b"
    r"|\byou are now\b|\bfrom now on,? you\b|\bact as (if you|an? (ai|assistant|chatbot|unfiltered|different|new))\b"
    r"|\bnew (instructions?|persona|system prompt)\b|\bchange (your )?persona\b"
    r"|\b(reveal|print|show|output|repeat|leak|disclose)\b.{0,40}\b(system prompt|system instructions|"
    r"(your|its|hidden|the) instructions|api keys?|secrets?|environment variables?|canary|passwords?)\b"
    r"|\b(do not|don't|never) (cite|include citations|mention sources)\b|\bwithout (any )?citations?\b"
    r"|\bdeveloper mode\b|\bjailbreak\b"
    # text that addresses the model and tells it what to write
    r"|\b(assistant|chatbot|language model|llm|any ai|the ai|an ai|ai model)\b.{0,60}\b(reply|respond|answer|"
    r"add|append|end|include|disclose|reveal|say|print|output|write|mention)\b"
    r"|\b(end|finish|close|begin|start) (your|the|each|every) (reply|answer|response|output)s? with\b"
    r"|\bverification (code|string|token)\b",
    re.I,
)
_CITATION_RE = re.compile(r"\[Sources?\s+(\d+(?:\s*(?:,|;|&|and)\s*(?:Sources?\s+)?\d+)*)\]", re.I)
_WORD_RE = re.compile(r"[a-z0-9']+")
LEAK_RUN = 8
# Codes and identifiers (CANARY-7Q9Z, NICHLIP25039V032425, pat-0007): an answer may only quote those its sources hold.
CODE_RE = re.compile(r"\b[A-Z]{2,}-[A-Z0-9]{4,}(?:-[A-Z0-9]+)*\b|\b[A-Z]{3,}\d[A-Z0-9]{4,}\b|\b[a-z]{2,5}-\d{3,}\b")


def neutralise(text: str) -> str:
    """Defuse boundary tags inside untrusted text: `<system_instructions>` becomes `(system_instructions)`."""
    return _TAG_RE.sub(lambda m: f"({m.group(1)})", text)


@lru_cache(maxsize=4096)  # the same evidence sentences are checked for every question they answer
def is_injection(sentence: str) -> bool:
    """Reads as an instruction aimed at the model rather than as content."""
    return bool(INJECTION_RE.search(sentence))


# Where a clause ends inside a sentence: a full stop or semicolon (also before a lower-case word, which the
# sentence splitter does not cut at), an opening bracket, a dash, or "and" / "but" / "so" joining a new clause.
# A comma or colon alone is not enough: what comes before one is often a dependent clause or a label.
_CLAUSE_BREAK_RE = re.compile(r"[.;(]|\s[-–—]\s|,?\s+(?:and|but|so)\s", re.I)
MIN_CLEAN_WORDS = 4


@lru_cache(maxsize=4096)
def before_injection(sentence: str) -> str:
    """The sentence up to the clause that carries an instruction aimed at the model ('' when no whole clause
    comes before it), so that dropping an injected tail never drops the clean fact it was attached to."""
    match = INJECTION_RE.search(sentence)
    if match is None:
        return sentence
    breaks = list(_CLAUSE_BREAK_RE.finditer(sentence, 0, match.start()))
    head = sentence[: breaks[-1].start()].rstrip(" ,;:") if breaks else ""
    if len(head.split()) < MIN_CLEAN_WORDS:
        return ""
    return head if head.endswith(("!", "?", ".")) else f"{head}."


def _shingles(text: str, size: int) -> set[tuple[str, ...]]:
    tokens = _WORD_RE.findall(text.lower())
    return {tuple(tokens[i : i + size]) for i in range(len(tokens) - size + 1)}


# The refusal sentence is quoted in the prompt because answers must use it: saying it is not a leak.
_PROMPT_RUNS = _shingles(SYSTEM_PROMPT, LEAK_RUN) - _shingles(REFUSAL, LEAK_RUN)


def leaks_system_prompt(text: str) -> bool:
    return bool(_shingles(text, LEAK_RUN) & _PROMPT_RUNS)


def _tail(text: str) -> str:
    """The last LEAK_RUN - 1 words: enough to see a run that goes on into the next sentence, never a run alone."""
    return " ".join(_WORD_RE.findall(text.lower())[-(LEAK_RUN - 1) :])


def _pieces_in_prompt_runs(pieces: list[str]) -> set[int]:
    """Indexes of the pieces that take part in an 8-word run of the system prompt (runs may cross pieces)."""
    tokens = [(i, w) for i, piece in enumerate(pieces) for w in _WORD_RE.findall(piece.lower())]
    hit: set[int] = set()
    for k in range(len(tokens) - LEAK_RUN + 1):
        window = tokens[k : k + LEAK_RUN]
        if tuple(w for _, w in window) in _PROMPT_RUNS:
            hit.update(i for i, _ in window)
    return hit


@dataclass
class SanitisedAnswer:
    text: str
    removed: list[str] = field(default_factory=list)


class Sanitiser:
    """Cleans answers (whole or streamed); knows the configured secret values to redact."""

    def __init__(self, secrets: Iterable[str] = ()):
        self.secrets = [s for s in secrets if s and len(s) >= 6]

    def _redact(self, text: str, removed: list[str]) -> str:
        for secret in self.secrets:
            if secret in text:
                text = text.replace(secret, REDACTED)
                removed.append("configured secret")
        for pattern in SECRET_PATTERNS:
            if pattern.search(text):
                text = pattern.sub(REDACTED, text)
                removed.append("key pattern")
        if _TAG_RE.search(text):
            text = _TAG_RE.sub("", text)
            removed.append("boundary tag")
        return text

    def clean_sentence(
        self, sentence: str, removed: list[str], before: str = "", grounded_in: str | None = None
    ) -> str:
        """One sentence (or line) of an answer, or '' if it must go; `before` is the tail of the text before it.

        With `grounded_in` (the evidence the model was given), a sentence quoting a code or identifier
        the evidence never contains (a planted canary, an invented UIN) goes too."""
        if leaks_system_prompt(f"{before} {sentence}"):
            removed.append("system prompt text")
            return ""
        if is_injection(sentence):
            removed.append("injected instruction")
            return ""
        if grounded_in is not None and any(code not in grounded_in for code in CODE_RE.findall(sentence)):
            removed.append("code not in the sources")
            return ""
        return self._redact(sentence, removed)

    def clean(self, text: str) -> SanitisedAnswer:
        removed: list[str] = []
        sentences = split_for_stream(text)
        leaking = _pieces_in_prompt_runs(sentences)  # every sentence a run touches, also across boundaries
        if leaking:
            removed.append("system prompt text")
        pieces = [self.clean_sentence(s, removed) for i, s in enumerate(sentences) if i not in leaking]
        cleaned = " ".join(p.strip() for p in pieces if p.strip()).strip()
        return SanitisedAnswer(cleaned or REFUSAL, removed)

    def stream(self, tokens: Iterable[str], removed: list[str], grounded_in: str | None = None) -> Iterator[str]:
        """Sanitise a token stream sentence by sentence; a sentence is released once it is complete and clean."""
        buffer, before = "", ""
        for token in tokens:
            start = len(buffer)  # the buffer before this token holds no boundary: only the new text is searched
            buffer += token
            while (cut := _stream_boundary(buffer, start)) is not None:
                sentence, buffer, start = buffer[:cut], buffer[cut:], 0
                if cleaned := self.clean_sentence(sentence, removed, before, grounded_in):
                    yield cleaned
                before = _tail(f"{before} {sentence}")  # a run crossing into the next sentence drops that one too
        if buffer.strip() and (cleaned := self.clean_sentence(buffer, removed, before, grounded_in)):
            yield cleaned


_BOUNDARY_RE = re.compile(r"(?<=[.!?;:])\s+|\n+")


def _stream_boundary(buffer: str, start: int = 0) -> int | None:
    """Where the first complete sentence of the buffer ends, looking from `start` (the look-behind still sees
    the character before it): a stream appends a word at a time, and the whole buffer was searched before."""
    match = _BOUNDARY_RE.search(buffer, start)
    return match.end() if match else None


def split_for_stream(text: str) -> list[str]:
    """Sentences with their trailing whitespace, so joining them gives the text back."""
    out, start = [], 0
    for match in _BOUNDARY_RE.finditer(text):
        out.append(text[start : match.end()])
        start = match.end()
    if start < len(text):
        out.append(text[start:])
    return out


def check_citations(answer: str, block_count: int) -> tuple[str, list[int], list[str]]:
    """Keep [Source N] that name a given block; remove the rest. Returns (answer, cited, removed)."""
    cited: list[int] = []
    removed: list[str] = []

    def fix(match: re.Match[str]) -> str:
        numbers = [int(n) for n in re.findall(r"\d+", match.group(1))]
        valid = [n for n in numbers if 1 <= n <= block_count]
        removed.extend(f"[Source {n}]" for n in numbers if n not in valid)
        for n in valid:
            if n not in cited:
                cited.append(n)
        return "".join(f"[Source {n}]" for n in valid)

    fixed = _CITATION_RE.sub(fix, answer)
    return re.sub(r"\s+([.,;])", r"\1", re.sub(r"[ \t]{2,}", " ", fixed)).strip(), cited, removed
