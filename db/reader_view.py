"""A reader's private view of a published Qdrant Edge generation, so that reading writes nothing into it.

Qdrant Edge 0.9 has no read-only open. A read session on a fresh generation rewrites
`edge_config.json` (defaults filled in), re-sizes every `flags_a.dat` and `deleted.dat`, deletes the
`tracker_journal.dat` files the writer left, rewrites `segment.json` on close (in hash-map order, so
the bytes can differ from one close to the next) and flushes `status.dat` and `tracker.dat` files.
Readers therefore load a view: a folder of their own under `index/views/` with copies of the
generation's files, except for the large files named in SHARED_FILES, which are hard links (same
inode, no copy).

A read session maps `chunk_N.mmap` and `page_N.dat` shared and writable but never writes them (their
bytes and mtime stay unchanged through load, queries and close; tests/test_reader_isolation.py checks
every file's hash); the other shared files belong to optimised segments, which the engine opens
read-only. Anything else, including files of segment kinds not seen yet, is copied.

Each view is locked by the process that made it; a view whose lock is free belongs to a process that
died without closing its reader, and the next view made in that folder removes it.
"""

from __future__ import annotations

import fcntl
import os
import re
import shutil
import tempfile
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from db.folder_lock import lock_folder

SHARED_FILES = re.compile(
    r"^(chunk_\d+\.mmap|page_\d+\.dat"  # appendable segments: mapped writable, never written by readers
    # opened read-only:
    r"|matrix\.dat|links_compressed\.bin|point_to_values\.bin|values_to_points\.bin|inverted_index\.dat)$"
)


def copy_sparse(source: Path, target: Path) -> None:
    """Copy only the data extents: the engine's files are mostly holes (250 MB apparent, 7 MB on disk)."""
    with open(source, "rb") as src, open(target, "wb") as dst:
        size = os.fstat(src.fileno()).st_size
        position = 0
        while position < size:
            try:
                start = os.lseek(src.fileno(), position, os.SEEK_DATA)
            except OSError:  # ENXIO: only a hole is left
                break
            end = os.lseek(src.fileno(), start, os.SEEK_HOLE)
            offset = start
            while offset < end:
                copied = os.copy_file_range(src.fileno(), dst.fileno(), end - offset, offset, offset)
                if not copied:  # the source ended early
                    break
                offset += copied
            position = end
        os.ftruncate(dst.fileno(), size)


def _fill(generation: Path, view: Path) -> None:
    for folder, _, files in os.walk(generation):
        relative = Path(folder).relative_to(generation)
        (view / relative).mkdir(exist_ok=True)
        for name in files:
            source, target = Path(folder) / name, view / relative / name
            if SHARED_FILES.match(name):
                os.link(source, target)
            else:
                copy_sparse(source, target)


@contextmanager
def _views_locked(views_dir: Path) -> Iterator[None]:
    """Serialises making a view with removing stale ones, so a view is never removed before it is locked."""
    fd = lock_folder(views_dir, fcntl.LOCK_EX)
    try:
        yield
    finally:
        os.close(fd)


def _remove_stale(views_dir: Path) -> None:
    for view in views_dir.iterdir():
        try:
            fd = lock_folder(view, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except (BlockingIOError, NotADirectoryError, FileNotFoundError):
            continue  # in use, or not a view
        try:
            shutil.rmtree(view, ignore_errors=True)
        finally:
            os.close(fd)


class ReaderView:
    """One process's private view of a published generation, removed when its reader closes."""

    def __init__(self, path: Path, lock: int):
        self.path = path
        self._lock: int | None = lock

    @classmethod
    def create(cls, generation: Path, views_dir: Path) -> ReaderView:
        """A new view of `generation` under `views_dir` (same file system: hard links), after removing stale views."""
        views_dir.mkdir(parents=True, exist_ok=True)
        with _views_locked(views_dir):
            _remove_stale(views_dir)
            path = Path(tempfile.mkdtemp(prefix=f"{generation.name}-pid{os.getpid()}-", dir=views_dir))
            view = cls(path, lock_folder(path, fcntl.LOCK_EX))
        try:
            _fill(generation, path)
        except BaseException:
            view.remove()
            raise
        return view

    def remove(self) -> None:
        if self._lock is None:
            return
        shutil.rmtree(self.path, ignore_errors=True)
        os.close(self._lock)
        self._lock = None
