"""Advisory locks taken on a folder itself, so locking writes no lock file into the folder."""

from __future__ import annotations

import fcntl
import os
from pathlib import Path


def lock_folder(path: Path, mode: int) -> int:
    """A descriptor of `path` holding an flock in `mode` (fcntl.LOCK_SH, LOCK_EX, optionally | LOCK_NB).

    The lock lasts until the descriptor is closed or the process dies. Raises BlockingIOError when a
    non-blocking lock is held elsewhere.
    """
    fd = os.open(path, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, mode)
    except BaseException:
        os.close(fd)
        raise
    return fd
