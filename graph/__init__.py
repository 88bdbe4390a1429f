"""`from graph import build_graph, graph`: the corrective RAG graph (and the compare graph), built and ready."""

from graph.compare import build_compare_graph, compare_graph
from graph.crag import build_graph, graph

__all__ = ["build_graph", "graph", "build_compare_graph", "compare_graph"]
