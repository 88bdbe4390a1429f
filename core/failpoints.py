"""Named crash points, so the crash-safety tests can kill an ingest at an exact step.

With the setting `crash_at` (POLICYRAG_CRASH_AT) naming a point, the process kills itself there
(SIGKILL, no clean-up, as a power cut would). Unset, a checkpoint does nothing.
"""

from __future__ import annotations

import os
import signal


def checkpoint(name: str, crash_at: str) -> None:
    if crash_at == name:
        os.kill(os.getpid(), signal.SIGKILL)
