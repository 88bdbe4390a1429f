"""Semantic cache: a near-duplicate question (same collection and filters) reuses an answer.

Two questions match when their embeddings' cosine is at or above the threshold AND they name
exactly the same references, identifiers and numbers: "Art. 33" never answers "Art. 34", nor
"40,000" "50,000", nor one patient another, however similar the wording. Refusals and errors are
never stored. Bounded (LRU) with a time to live.
"""

from __future__ import annotations

import json
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

from retrieval.grading import named_numbers
from retrieval.references import question_tokens


def exact_signature(question: str) -> tuple[str, ...]:
    """What must be identical for two questions to share an answer."""
    return tuple(sorted(set(question_tokens(question)) | {f"n:{n}" for n in named_numbers(question)}))


def scope_key(collection: str | None, filters: dict[str, Any] | None, extra: str = "") -> str:
    return json.dumps({"collection": collection, "filters": filters or {}, "extra": extra}, sort_keys=True)


@dataclass
class _Entry:
    vector: np.ndarray
    signature: tuple[str, ...]
    scope: str
    result: dict[str, Any]
    stored: float


class SemanticCache:
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
        self.max_entries = max_entries
        self.ttl_s = ttl_s
        self.clock = clock
        self._entries: OrderedDict[int, _Entry] = OrderedDict()
        self._next = 0
        self._lock = threading.Lock()
        self.hits = 0
        self.misses = 0

    def lookup(self, question: str, scope: str) -> tuple[dict[str, Any] | None, np.ndarray]:
        """(cached result or None, the question's vector for a later store)."""
        vector = self.embed(question)
        signature = exact_signature(question)
        now = self.clock()
        with self._lock:
            best_id, best_score = None, -1.0
            for entry_id, entry in list(self._entries.items()):
                if now - entry.stored > self.ttl_s:
                    del self._entries[entry_id]
                    continue
                if entry.scope != scope or entry.signature != signature:
                    continue
                score = float(entry.vector @ vector)
                if score >= self.threshold and score > best_score:
                    best_id, best_score = entry_id, score
            if best_id is None:
                self.misses += 1
                return None, vector
            self._entries.move_to_end(best_id)
            self.hits += 1
            return {**self._entries[best_id].result, "cache_similarity": round(best_score, 4)}, vector

    def store(self, question: str, scope: str, vector: np.ndarray, result: dict[str, Any]) -> bool:
        """Keep an answered result; refusals, evidence-only results and errors are never cached."""
        if result.get("status") != "answered" or not result.get("cacheable"):
            return False
        with self._lock:
            self._entries[self._next] = _Entry(vector, exact_signature(question), scope, result, self.clock())
            self._next += 1
            while len(self._entries) > self.max_entries:
                self._entries.popitem(last=False)
        return True

    def __len__(self) -> int:
        return len(self._entries)
