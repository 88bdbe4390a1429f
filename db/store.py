"""The one store interface PolicyRAG needs, whatever Qdrant runs behind it.

A store holds one index generation. Writers fill a fresh generation and publish it; readers
query the published one. Searches return every list the retriever needs in one round trip:
dense, sparse, Qdrant-fused (RRF) and sentence-reranked (multivector MaxSim) candidates, plus
the chunks carrying a reference the question names.
"""

from __future__ import annotations

import uuid
from abc import ABC, abstractmethod
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

from core.types import SparseVector

DENSE = "dense"
SPARSE = "sparse"
SENTENCES = "sentences"
STATEMENTS = "statements"  # stored for the offline answerer only; never searched
RRF_K = 60
# Qdrant's fusions of the dense and sparse lists: reciprocal rank fusion, or distribution-based score fusion
# (each list's scores normalised by their mean and spread, then summed: a chunk far ahead in one list is
# not lost for being absent from the other).
Fusion = Literal["rrf", "dbsf"]
INDEXED_FIELDS = (
    "collection",
    "jurisdiction",
    "document_type",
    "provider",
    "product",
    "category",
    "variant",
    "doc_id",
    "refs",
    "section_key",
    "coverage_type",
    "kind",
    "authority",
    "patient_id",  # a question naming a patient searches only that patient's records
)

LISTS = ("dense", "sparse", "fused", "reranked", "referenced")  # what one search returns, in this order
WITH_DENSE_VECTOR = ("sparse", "fused", "referenced")  # their chunks' cosine is computed from the stored vector
FilterValue = str | int | bool | list[str] | list[int]
Filters = dict[str, FilterValue]
"""Payload filters: {"collection": "health_governance", "jurisdiction": ["EU", "UK"]};
a key starting with "!" excludes: {"!kind": "recital"}."""


@dataclass(frozen=True)
class StoredPoint:
    """One chunk as written to the index."""

    id: str
    dense: list[float]
    sparse: SparseVector
    sentences: list[list[float]]
    payload: dict[str, Any]
    statements: list[list[float]] = field(default_factory=list)  # language.passages.scored_texts of its text


@dataclass(frozen=True)
class SearchQuery:
    """What to look for; each list is cut at `limit`."""

    dense: list[float]
    sparse: SparseVector
    filters: Filters = field(default_factory=dict)
    limit: int = 50
    reference_tokens: list[str] = field(default_factory=list)
    fusion: Fusion = "dbsf"
    payloads: tuple[str, ...] = LISTS  # the lists whose hits carry their payload (the rest: ids and scores)
    lists: tuple[str, ...] = LISTS  # the lists to compute (the referenced one only with reference tokens)

    def key(self) -> tuple[Any, ...]:
        """Everything the lists depend on, hashable: equal keys find equal lists in one generation."""
        filters = tuple((name, repr(value)) for name, value in self.filters.items())
        sparse = (tuple(self.sparse.indices), tuple(self.sparse.values))
        shape = (self.limit, tuple(self.reference_tokens), self.fusion, self.payloads, self.lists)
        return (tuple(self.dense), sparse, filters, *shape)

    def returned(self, name: str) -> dict[str, Any]:
        """What one list's hits carry (as qdrant-client request fields; the embedded store fills them from its
        memo): the payload where evidence is made from them, and then the dense vector too for the lists a chunk
        may come from without being in the dense one."""
        carried = name in self.payloads
        return {"with_payload": carried, "with_vector": [DENSE] if carried and name in WITH_DENSE_VECTOR else False}


@dataclass(frozen=True)
class Hit:
    id: str
    score: float
    payload: dict[str, Any] | None = None
    dense_vector: np.ndarray | None = None  # float32


@dataclass(frozen=True)
class StoredChunk:
    """A chunk's payload and dense vector (float32) as stored."""

    payload: dict[str, Any]
    dense: np.ndarray | None


@dataclass
class SearchLists:
    """The candidate lists of one search, best first."""

    dense: list[Hit]
    sparse: list[Hit]
    fused: list[Hit]
    reranked: list[Hit]
    referenced: list[Hit]

    @classmethod
    def named(cls, lists: dict[str, list[Hit]]) -> SearchLists:
        """The lists a search computed, by name (see LISTS); the others empty."""
        return cls(*(lists.get(name, []) for name in LISTS))


@dataclass(frozen=True)
class StoredSentences:
    """What ingest stored for one chunk's sentences: the chunk's text, one vector per sentence of it
    (language.sentences.sentences_for_index of that text, in order) and one per statement the offline
    answerer scores (language.passages.scored_texts, in order)."""

    text: str
    vectors: np.ndarray  # float32, one row per sentence
    statements: np.ndarray = field(default_factory=lambda: np.zeros((0,), dtype=np.float32))  # one row per statement


def float32_rows(vectors: list[Any]) -> np.ndarray:
    """Stored vectors as one float32 array (what every consumer computes with), read-only since it may be shared."""
    array = np.asarray(vectors, dtype=np.float32)
    array.setflags(write=False)
    return array


def point_ids(ids: Sequence[str]) -> list[str]:
    """The ids that can name a Qdrant point (a UUID or an unsigned integer); others name nothing stored."""
    valid = []
    for id_ in ids:
        try:
            uuid.UUID(id_)
        except ValueError:
            if not id_.isdigit():
                continue
        valid.append(id_)
    return valid


UPSERT_BATCH = 256
SCROLL_PAGE = 256


def batches(points: Sequence[StoredPoint]) -> Iterator[Sequence[StoredPoint]]:
    """Upserts go in bounded batches (request size on a server, memory on Edge)."""
    for start in range(0, len(points), UPSERT_BATCH):
        yield points[start : start + UPSERT_BATCH]


def split_filters(filters: Filters | None) -> tuple[list[tuple[str, FilterValue]], list[tuple[str, FilterValue]]]:
    """(conditions to match, conditions to exclude): a key starting with "!" excludes."""
    items = (filters or {}).items()
    return [(k, v) for k, v in items if not k.startswith("!")], [(k[1:], v) for k, v in items if k.startswith("!")]


class StoreError(RuntimeError):
    """The index cannot be opened or used; the message says why and what to do."""


class VectorStore(ABC):
    """One index generation in Qdrant (embedded Edge shard or a server collection)."""

    @abstractmethod
    def upsert(self, points: Sequence[StoredPoint]) -> None: ...

    @abstractmethod
    def search(self, query: SearchQuery) -> SearchLists: ...

    @abstractmethod
    def stored_chunks(self, ids: Sequence[str]) -> dict[str, StoredChunk]:
        """The payload and dense vector of these chunks, by chunk id (ids not in the index are left out)."""

    @abstractmethod
    def stored_sentences(self, ids: Sequence[str]) -> dict[str, StoredSentences]:
        """The stored sentence vectors of these chunks, by chunk id (ids not in the index are left out)."""

    @abstractmethod
    def counts_by(self, key: str) -> dict[str, int]:
        """Number of chunks per value of a payload field (e.g. per collection)."""

    @abstractmethod
    def count(self, filters: Filters | None = None) -> int: ...

    def payloads(self, filters: Filters | None = None, limit: int = 10_000) -> list[dict[str, Any]]:
        """Payloads of the chunks that match (no vectors), page by page."""
        out: list[dict[str, Any]] = []
        offset = None
        while len(out) < limit:
            page, offset = self._scroll(filters, offset, min(SCROLL_PAGE, limit - len(out)))
            out.extend(page)
            if offset is None:
                break
        return out

    @abstractmethod
    def _scroll(self, filters: Filters | None, offset: Any, limit: int) -> tuple[list[dict[str, Any]], Any]:
        """One page of payloads and the offset of the next page (None at the end)."""

    @abstractmethod
    def finish(self) -> None:
        """Make everything written durable and compact (before publishing)."""

    @abstractmethod
    def close(self) -> None: ...
