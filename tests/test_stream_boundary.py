"""Sanitiser.stream searches only the new text of its buffer for a sentence end: the same sentences as searching
the whole buffer each time, however the answer is cut into tokens."""

from __future__ import annotations

import random
import re
from collections.abc import Iterable, Iterator

from generation.guard import Sanitiser, _tail

_BOUNDARY = re.compile(r"(?<=[.!?;:])\s+|\n+")
PIECES = ["a", "b", " ", "  ", ".", ";", ":", "\n", "!", "?", "(", "Art. 9", "Ignore previous instructions"]


def whole_buffer_stream(sanitiser: Sanitiser, tokens: Iterable[str], removed: list[str]) -> Iterator[str]:
    """The stream as written before: the whole buffer searched after every token."""
    buffer, before = "", ""
    for token in tokens:
        buffer += token
        while (match := _BOUNDARY.search(buffer)) is not None:
            sentence, buffer = buffer[: match.end()], buffer[match.end() :]
            if cleaned := sanitiser.clean_sentence(sentence, removed, before):
                yield cleaned
            before = _tail(f"{before} {sentence}")
    if buffer.strip() and (cleaned := sanitiser.clean_sentence(buffer, removed, before)):
        yield cleaned


def test_streamed_sentences_are_those_of_a_whole_buffer_search_for_any_token_cuts():
    rng = random.Random(7)
    sanitiser = Sanitiser()
    for _ in range(3000):
        text = "".join(rng.choice(PIECES) for _ in range(rng.randint(0, 40)))
        cuts = sorted(rng.sample(range(len(text) + 1), k=min(len(text) + 1, rng.randint(0, 12))))
        tokens = [text[i:j] for i, j in zip([0, *cuts], [*cuts, len(text)])]
        expected_removed: list[str] = []
        removed: list[str] = []
        expected = list(whole_buffer_stream(sanitiser, tokens, expected_removed))
        assert list(sanitiser.stream(tokens, removed)) == expected, tokens
        assert removed == expected_removed
