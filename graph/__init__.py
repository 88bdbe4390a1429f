"""`from graph import build_graph, graph`: the corrective RAG graph, built and ready."""

from graph.crag import build_graph, graph

__all__ = ["build_graph", "graph"]
