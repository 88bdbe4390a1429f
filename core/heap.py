"""The objects a process loads before its first answer, kept out of the garbage collector's full passes.

Libraries, the embedding model and the index reader are loaded on first use and live as long as the process
(about 150,000 objects). Python's full collection walks every tracked object: in a fresh process it ran about
once every 40 questions, 140-270 ms at a time on these 2 cores, and landed on one question's latency
(measured with `gc.callbacks` over `evals.bench_service`'s 40 questions). Frozen, they are skipped; what is
made later is collected as before.
"""

from __future__ import annotations

import gc


def settle() -> None:
    """Collect what is garbage now, then freeze everything still alive (call once the long-lived parts are
    loaded: objects frozen are never collected, so cycles made before this point are cleared first)."""
    gc.collect()
    gc.freeze()
