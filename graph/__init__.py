"""The graphs: `build_graph(services)` and `build_compare_graph(services)`; `from graph import graph` (and
`compare_graph`) gives ready ones over the process settings, built on first use."""

from __future__ import annotations

from typing import Any

from graph.compare import build_compare_graph
from graph.crag import build_graph

__all__ = ["build_graph", "build_compare_graph", "graph", "compare_graph"]


def __getattr__(name: str) -> Any:
    if name in ("graph", "compare_graph"):
        from graph import studio

        return getattr(studio, name)
    raise AttributeError(name)
