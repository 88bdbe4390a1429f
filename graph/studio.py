"""The ready graphs for LangGraph Studio and `from graph import graph`: one set of services from the settings."""

from __future__ import annotations

from core.settings import get_settings
from graph.compare import build_compare_graph
from graph.crag import build_graph
from retrieval.services import Services

services = Services(get_settings())
graph = build_graph(services)
compare_graph = build_compare_graph(services)
