"""Semantic cache: a near-duplicate question (same collection and filters) reuses an answer.

Two questions match when their embeddings' cosine is at or above the threshold AND they name
exactly the same references, identifiers and numbers: "Art. 33" never answers "Art. 34", nor
"40,000" "50,000", nor one patient another, however similar the wording. Refusals and errors are
never stored.

Entries are kept per tenant and per index generation (CacheScope): one tenant's questions never
show in another's hits, similarities or evictions, and an answer is only ever served from the
generation it was read from; answers of any other generation are dropped as soon as a newer one
is asked about. Each tenant's part is bounded (least recently used first) with a time to live.
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np
from cachetools import TTLCache

from core.schemas import AnswerRecord
from language.question import named_numbers
from language.references import question_tokens


def exact_signature(question: str) -> tuple[str, ...]:
    """What must be identical for two questions to share an answer."""
    return tuple(sorted(set(question_tokens(question)) | {f"n:{n}" for n in named_numbers(question)}))


def scope_key(collection: str | None, filters: dict[str, Any] | None, extra: str = "") -> str:
    return json.dumps({"collection": collection, "filters": filters or {}, "extra": extra}, sort_keys=True)


@dataclass(frozen=True)
class CacheScope:
    """Where a cached answer may be served: the caller's tenant, the published generation, the run's options."""

    tenant: str
    generation: str
    options: str


@dataclass(frozen=True)
class _Entry:
    vector: np.ndarray
    signature: tuple[str, ...]
    options: str
    record: AnswerRecord


class SemanticCache:
    """Answered records by question vector, bounded (least recently used goes first) with a time to live."""

    def __init__(
        self,
        embed: Callable[[str], np.ndarray],
        threshold: float = 0.95,
        max_entries: int = 1000,
        ttl_s: float = 3600.0,
        clock: Callable[[], float] = time.monotonic,
    ):
        self.embed = embed
        self.threshold = threshold
        self._max_entries = max(1, max_entries)
        self._ttl_s = ttl_s
        self._clock = clock
        self._parts: dict[tuple[str, str], TTLCache[int, _Entry]] = {}
        self._enabled = max_entries > 0
        self._next = 0
        self._lock = threading.Lock()

    def _part(self, scope: CacheScope) -> TTLCache[int, _Entry]:
        """The tenant's entries for this generation; every other generation's are dropped (never servable)."""
        for key in [key for key in self._parts if key[1] != scope.generation]:
            del self._parts[key]
        key = (scope.tenant, scope.generation)
        if key not in self._parts:
            self._parts[key] = TTLCache(maxsize=self._max_entries, ttl=self._ttl_s, timer=self._clock)
        return self._parts[key]

    def lookup(self, question: str, scope: CacheScope) -> tuple[AnswerRecord | None, np.ndarray]:
        """(cached record or None, the question's vector for a later store)."""
        vector = self.embed(question)
        signature = exact_signature(question)
        with self._lock:
            entries = self._part(scope)
            entries.expire()
            best_id, best_score = None, -1.0
            for entry_id, entry in entries.items():
                if entry.options != scope.options or entry.signature != signature:
                    continue
                score = float(entry.vector @ vector)
                if score >= self.threshold and score > best_score:
                    best_id, best_score = entry_id, score
            if best_id is None:
                return None, vector
            entry = entries[best_id]  # marks it recently used
        return entry.record.model_copy(update={"cache_similarity": round(best_score, 4)}), vector

    def store(self, question: str, scope: CacheScope, vector: np.ndarray, record: AnswerRecord) -> bool:
        """Keep an answered record; refusals, evidence-only records and errors are never cached."""
        if not self._enabled or record.status != "answered" or not record.cacheable:
            return False
        with self._lock:
            self._part(scope)[self._next] = _Entry(vector, exact_signature(question), scope.options, record)
            self._next += 1
        return True

    def __len__(self) -> int:
        with self._lock:
            for entries in self._parts.values():
                entries.expire()
            return sum(len(entries) for entries in self._parts.values())
