"""Index generations: a writer builds a new one beside the published one and switches atomically.

- Embedded (Qdrant Edge): each generation is a folder `index/gen-NNNNNN`; the file `CURRENT`
  names the published one and is replaced with an atomic rename. Readers hold a shared lock on
  the folder they use, so old generations are removed only when nobody reads them, and load it
  through a private view under `index/views/`, so they write nothing into it.
- Server (qdrant-client): each generation is a collection `NAME__genNNNNNN`; the alias `NAME`
  is moved in one request.
One writer at a time: the ingest lock names the process that holds it.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import sys
import threading
from abc import ABC, abstractmethod
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Literal

from core.settings import Settings
from db.edge_store import EdgeStore
from db.folder_lock import lock_folder
from db.store import StoreError, VectorStore

_GEN_RE = re.compile(r"^gen-(\d{6})$")
KEEP_GENERATIONS = 2
VIEWS = "views"
# References to a replaced store when only IndexReader._previous holds it (its tuple, getrefcount's argument).
# Callers take the store anew for each call, so once the calls begun before the switch return it is closed
# (an open Edge reader keeps its payload indexes in memory and its files mapped: tens of MB), not kept until
# the next switch.
IDLE_REFERENCES = 2


class IndexBusyError(StoreError):
    """Another process is writing the index."""


class NoIndexError(StoreError):
    """Nothing has been published yet."""


@contextmanager
def writer_lock(index_dir: Path, command: str) -> Iterator[None]:
    """Hold the single-writer lock; a second writer stops at once, told which process holds it."""
    index_dir.mkdir(parents=True, exist_ok=True)
    path = index_dir / "ingest.lock"
    handle = open(path, "a+", encoding="utf-8")
    try:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            holder = handle.read().strip() or "unknown process"
            raise IndexBusyError(
                f"the index at {index_dir} is being written by {holder}; wait for it to finish"
            ) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"PID {os.getpid()} ({command})")
        handle.flush()
        yield
    finally:
        handle.close()


class Backend(ABC):
    """Where generations live and how the published one is found."""

    @abstractmethod
    def create_generation(self, dimension: int) -> tuple[str, VectorStore]: ...

    @abstractmethod
    def publish(self, name: str) -> None: ...

    @abstractmethod
    def current(self) -> str | None: ...

    @abstractmethod
    def open(self, name: str) -> VectorStore:
        """A reader for a published generation."""

    @abstractmethod
    def collect_garbage(self) -> list[str]:
        """Remove unpublished and old generations nobody reads; returns what was removed."""

    @abstractmethod
    def discard_unpublished(self) -> list[str]:
        """Remove the generations newer than the published one (only the writer, under its lock, may call
        this: such a generation was being built by a writer that no longer runs). Returns what was removed."""

    def discard(self, name: str) -> None:  # noqa: B027  (a backend with nothing to remove keeps this default)
        """Remove a generation that failed to build."""

    def close(self) -> None:  # noqa: B027  (a backend with nothing to release keeps this default)
        """Release the backend's own resources."""


class EdgeBackend(Backend):
    """Generations as Qdrant Edge shard folders under the data folder."""

    def __init__(self, index_dir: Path, vector_memory: Literal["cold", "cached"] = "cold", memo_chunks: int = 0):
        self.index_dir = index_dir
        self.vector_memory = vector_memory
        self.memo_chunks = memo_chunks  # per opened generation: see db/read_memo.py
        self._reader_locks: dict[str, int] = {}
        self._pointer = str(index_dir / "CURRENT")
        self._last_read: tuple[tuple[int, int, int], str] | None = None  # (the pointer's stat, the name it held)

    def _generations(self) -> list[str]:
        if not self.index_dir.exists():
            return []
        return sorted(p.name for p in self.index_dir.iterdir() if p.is_dir() and _GEN_RE.match(p.name))

    def create_generation(self, dimension: int) -> tuple[str, VectorStore]:
        self.index_dir.mkdir(parents=True, exist_ok=True)
        existing = self._generations()
        number = int(existing[-1].removeprefix("gen-")) + 1 if existing else 1
        name = f"gen-{number:06d}"
        return name, EdgeStore.create(self.index_dir / name, dimension, self.vector_memory)

    def publish(self, name: str) -> None:
        pointer = self.index_dir / "CURRENT"
        tmp = self.index_dir / "CURRENT.tmp"
        with open(tmp, "w", encoding="utf-8") as handle:
            handle.write(name)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, pointer)
        fd = os.open(self.index_dir, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)

    def current(self) -> str | None:
        """The published generation. Every search asks (several times a question), so the pointer is read again
        only when its file changed: `publish` replaces it with a new file, so its inode and mtime change."""
        try:
            stat = os.stat(self._pointer)
        except FileNotFoundError:
            return None
        key = (stat.st_ino, stat.st_mtime_ns, stat.st_size)
        last = self._last_read
        if last is not None and last[0] == key:
            return last[1]
        try:
            name = Path(self._pointer).read_text(encoding="utf-8").strip()
        except FileNotFoundError:
            return None
        if not (_GEN_RE.match(name) and (self.index_dir / name).is_dir()):
            return None
        self._last_read = (key, name)
        return name

    def open(self, name: str) -> VectorStore:
        path = self.index_dir / name
        if not path.is_dir():
            raise NoIndexError(
                f"index generation {name} is missing from {self.index_dir}; run `policyrag ingest` again"
            )
        lock = lock_folder(path, fcntl.LOCK_SH)
        try:
            store = EdgeStore.open(path, self.index_dir / VIEWS, self.memo_chunks)
        except StoreError:
            os.close(lock)
            raise
        previous = self._reader_locks.pop(name, None)
        if previous is not None:
            os.close(previous)
        self._reader_locks[name] = lock
        return store

    def release(self, name: str) -> None:
        """Drop this process's read lock on a generation it no longer uses."""
        lock = self._reader_locks.pop(name, None)
        if lock is not None:
            os.close(lock)

    def collect_garbage(self) -> list[str]:
        generations = self._generations()
        current = self.current()
        keep = set(generations[-KEEP_GENERATIONS:]) if current is None else set()
        if current:
            published = [g for g in generations if g <= current]
            keep = set(published[-KEEP_GENERATIONS:]) | {g for g in generations if g > current}
        removed = []
        for name in generations:
            if name in keep or name in self._reader_locks:
                continue
            if self._try_remove(self.index_dir / name):
                removed.append(name)
        return removed

    def discard_unpublished(self) -> list[str]:
        current = self.current()
        removed = [name for name in self._generations() if current is None or name > current]
        for name in removed:
            shutil.rmtree(self.index_dir / name, ignore_errors=True)  # never published, so never read
        return removed

    def discard(self, name: str) -> None:
        self._try_remove(self.index_dir / name)

    @staticmethod
    def _try_remove(path: Path) -> bool:
        try:
            lock = lock_folder(path, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            return False
        try:
            shutil.rmtree(path, ignore_errors=True)
        finally:
            os.close(lock)
        return True

    def close(self) -> None:
        for lock in self._reader_locks.values():
            os.close(lock)
        self._reader_locks.clear()


def make_backend(settings: Settings) -> Backend:
    """The embedded Edge backend by default; a Qdrant server when QDRANT_URL is set (qdrant-client is
    imported only then: it takes most of a second)."""
    if settings.qdrant_url:
        from qdrant_client import QdrantClient

        from db.server_backend import ServerBackend

        api_key = settings.qdrant_api_key.get_secret_value() if settings.qdrant_api_key else None
        return ServerBackend(QdrantClient(url=settings.qdrant_url, api_key=api_key), settings.qdrant_collection)
    return EdgeBackend(settings.index_dir, settings.index_vector_memory, settings.index_memo_chunks)


class IndexReader:
    """The published generation for queries; follows a newly published one on the next call."""

    def __init__(self, backend: Backend):
        self.backend = backend
        self._lock = threading.Lock()
        self._name: str | None = None
        self._store: VectorStore | None = None
        self._previous: tuple[str, VectorStore] | None = None

    def store(self) -> VectorStore:
        name = self.backend.current()
        with self._lock:
            if name != self._name or self._store is None:
                name = self.backend.current()  # again, under the lock: one read before another call switched is stale
                if name is None:
                    raise NoIndexError("no index has been built yet: run `make setup` or `policyrag ingest corpus`")
                if name != self._name or self._store is None:
                    store = self.backend.open(name)
                    self._retire_previous()
                    if self._store is not None and self._name is not None:
                        self._previous = (self._name, self._store)  # in-flight queries may still use it
                    self._name, self._store = name, store
            elif self._previous and sys.getrefcount(self._previous[1]) <= IDLE_REFERENCES:
                self._retire_previous()  # no call holds it any more, and none can take it again
            return self._store

    @property
    def generation(self) -> str | None:
        return self._name

    def _retire_previous(self) -> None:
        if self._previous:
            name, store = self._previous
            store.close()
            if isinstance(self.backend, EdgeBackend):
                self.backend.release(name)
            self._previous = None

    def close(self) -> None:
        with self._lock:
            self._retire_previous()
            if self._store is not None:
                self._store.close()
            self._store = None
            self._name = None
