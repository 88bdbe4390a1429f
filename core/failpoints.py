"""Named crash points, so the crash-safety tests can kill an ingest at an exact step.

Setting POLICYRAG_CRASH_AT=<name> makes the process kill itself (SIGKILL, no clean-up, as a power cut
would) when it reaches that point. Unset, a checkpoint does nothing.
"""

from __future__ import annotations

import os
import signal

CRASH_AT = os.environ.get("POLICYRAG_CRASH_AT", "")


def checkpoint(name: str) -> None:
    if CRASH_AT == name:
        os.kill(os.getpid(), signal.SIGKILL)
