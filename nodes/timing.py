"""Every node records how long it took, under its own name, in the state's latency map."""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any


def timed(name: str) -> Callable[[Callable[..., dict[str, Any]]], Callable[..., dict[str, Any]]]:
    def wrap(node: Callable[..., dict[str, Any]]) -> Callable[..., dict[str, Any]]:
        @functools.wraps(node)
        def run(state: Any, runtime: Any = None) -> dict[str, Any]:
            started = time.perf_counter()
            update = node(state, runtime)
            update["latency_ms"] = {name: round((time.perf_counter() - started) * 1000, 3)}
            return update

        return run

    return wrap
