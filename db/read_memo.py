"""What a reader of one published generation has read, kept by chunk id.

A published generation is never written again, so a chunk's payload and vectors read once are what every later
read returns. Reading them from the engine and turning them into Python objects was half of a search's time
(`python -m evals.profile`); a reader keeps the most recently used ones instead. The memo belongs to one
opened generation: a newly published generation is read through a new store, with an empty memo.
"""

from __future__ import annotations

import threading
from collections.abc import Callable, Iterable
from typing import Generic, TypeVar

from cachetools import LRUCache

Value = TypeVar("Value")


class ReadMemo(Generic[Value]):
    """Chunk id -> what was read for it, the least recently used dropped first; `max_chunks` 0 keeps nothing
    (a generation still being written)."""

    def __init__(self, max_chunks: int):
        self._values: LRUCache[str, Value] | None = LRUCache(maxsize=max_chunks) if max_chunks > 0 else None
        self._lock = threading.Lock()

    def read(self, ids: Iterable[str], fetch: Callable[[list[str]], dict[str, Value]]) -> dict[str, Value]:
        """The values of these ids, fetching in one call only those not kept (ids with nothing stored are left out)."""
        wanted = list(dict.fromkeys(ids))
        if self._values is None:
            return fetch(wanted) if wanted else {}
        with self._lock:
            found = {i: value for i in wanted if (value := self._values.get(i)) is not None}
        missing = [i for i in wanted if i not in found]
        if missing:
            fetched = fetch(missing)
            with self._lock:
                self._values.update(fetched)
            found.update(fetched)
        return found
