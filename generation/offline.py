"""The offline answerer: an answer composed from the evidence's own words (generation/compose.py), cited
like a chat model's and streamed word by word."""

from __future__ import annotations

from collections.abc import Iterator

from core.types import Evidence
from generation.compose import compose
from language.support import EmbedFor


class OfflineAnswerer:
    """Generator protocol: stream the composed answer word by word."""

    name = "offline-extractive"

    def __init__(self, embed_for: EmbedFor | None = None):
        self.embed_for = embed_for

    def stream(self, question: str, blocks: list[Evidence]) -> Iterator[str]:
        text = compose(question, blocks, self.embed_for(blocks) if self.embed_for else None)
        for index, word in enumerate(text.split(" ")):
            yield word if index == 0 else f" {word}"
