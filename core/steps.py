"""Every node records how long it took and what it decided: latency under its own name, and a Step."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any

from core.schemas import Step

Node = Callable[..., dict[str, Any]]


def timed(name: str) -> Callable[[Node], Node]:
    """Wrap a node so its update carries its latency and a structured Step (node, route, status, ms)."""

    def wrap(node: Node) -> Node:
        @functools.wraps(node)
        def run(state: Any, runtime: Any = None, **dependencies: Any) -> dict[str, Any]:
            started = time.perf_counter()
            update = node(state, runtime, **dependencies)
            ms = round((time.perf_counter() - started) * 1000, 3)
            trace = update.get("trace") or []
            step = Step(
                node=name,
                ms=ms,
                route=update.get("route"),
                status=update.get("status"),
                detail=trace[-1] if trace else "",
            )
            update["latency_ms"] = {name: ms}
            update["steps"] = [step]
            return update

        return run

    return wrap
