"""Vectors for scoring sentences against a question, without embedding again what ingest embedded.

Ingest stores a vector for each sentence of each chunk (`sentences_for_index` of the chunk's text, the
`sentences` multivector of the index) and for each statement the offline answerer scores (`scored_texts`:
a lead-in with its points, a statement without its paragraph number; the `statements` multivector).
Refine and the offline answerer score sentences and statements of the chunks they are given: those ingest
stored are read back from the index by chunk id; anything else (web results) is embedded.
Every vector is kept by its text (bounded, per process), so the question is embedded once however many
nodes score against it. Stored and computed vectors agree because the embedder runs each text alone
(retrieval/embedder.py): a vector does not depend on what it was embedded with.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from functools import lru_cache

import numpy as np

from core.types import Evidence
from db.index import IndexReader
from language.passages import scored_texts
from language.sentences import sentences_for_index
from language.support import Embed
from retrieval.embedder import Embedder

MAX_TEXTS = 8192  # about 12 MB of 384-dimension vectors: a few hundred questions' sentences
STORED_ORIGINS = ("local", "secondary")  # chunks of the index; web results have no stored sentences
SPLIT_TEXTS = 2048  # chunk texts whose split is kept: the shipped corpus has about 900 chunks


@lru_cache(maxsize=SPLIT_TEXTS)  # refine and the offline answerer read the same chunks in one question
def stored_order(text: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """A chunk's sentences and statements in the order ingest stored their vectors (a pure function of the text)."""
    return tuple(sentences_for_index(text)), tuple(scored_texts(text))


class SentenceVectors:
    """Text -> unit vector, from the index's stored sentence vectors where they exist, else embedded."""

    def __init__(self, embedder: Embedder, reader: IndexReader, max_texts: int = MAX_TEXTS):
        self.embedder = embedder
        self.reader = reader
        self.max_texts = max_texts
        self._vectors: OrderedDict[str, np.ndarray] = OrderedDict()
        self._lock = threading.Lock()

    def for_chunks(self, chunks: list[Evidence]) -> Embed:
        """The embed function for scoring these chunks' sentences: their stored vectors are read first."""
        ids = [e.chunk_id for e in chunks if e.origin in STORED_ORIGINS]
        found: dict[str, np.ndarray] = {}
        for stored in self.reader.store().stored_sentences(ids).values():
            sentences, statements = stored_order(stored.text)
            for texts, vectors in ((sentences, stored.vectors), (statements, stored.statements)):
                if len(texts) == len(vectors):  # else the index was built by other splitting
                    found.update(zip(texts, vectors))
        self._keep(found)
        return self.embed

    def embed(self, texts: list[str]) -> np.ndarray:
        """Unit vectors of the texts, in order; only texts with no vector yet go through the model."""
        with self._lock:
            known = {t: self._vectors[t] for t in texts if t in self._vectors}
            for text in known:
                self._vectors.move_to_end(text)  # recently used texts stay
        for text in texts:
            if text not in known and (vector := self.embedder.recent_query(text)) is not None:
                known[text] = vector  # the question, when retrieval searched it without expansion
        missing = list(dict.fromkeys(t for t in texts if t not in known))
        if missing:
            computed = dict(zip(missing, self.embedder.embed_documents(missing)))
            self._keep(computed)
            known.update(computed)
        if not texts:
            return np.zeros((0, self.embedder.dimension), dtype=np.float32)
        return np.stack([known[t] for t in texts])

    def _keep(self, vectors: dict[str, np.ndarray]) -> None:
        with self._lock:
            for text, vector in vectors.items():
                self._vectors[text] = vector
                self._vectors.move_to_end(text)
            while len(self._vectors) > self.max_texts:
                self._vectors.popitem(last=False)
