"""The corrective RAG graph: wiring only (nodes in nodes/, edges in graph/edges.py).

START -> retrieve -> grade --CORRECT----> refine ---------------> generate
                          \\--AMBIGUOUS--> refine -> web_search -> generate
                          \\--INCORRECT------------> web_search -> generate
generate -> answerability --answered--------------------------------> END
                          \\--refused, first time--> requery --new evidence--> generate
                                                            \\--nothing new---> END
"""

from __future__ import annotations

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from core.state import GraphInput, GraphOutput, GraphState
from graph.edges import after_answerability, after_grade, after_refine, after_requery
from nodes.answerability import answerability
from nodes.context import RunContext
from nodes.generate import generate
from nodes.grade import grade
from nodes.refine import refine
from nodes.requery import requery
from nodes.retrieve import retrieve
from nodes.web_search import web_search


def build_graph(with_requery: bool = True) -> CompiledStateGraph:
    """The corrective RAG graph; without the requery loop for the "does correction pay?" comparison."""
    builder = StateGraph(GraphState, context_schema=RunContext, input_schema=GraphInput, output_schema=GraphOutput)
    builder.add_node("retrieve", retrieve)
    builder.add_node("grade", grade)
    builder.add_node("refine", refine)
    builder.add_node("web_search", web_search)
    builder.add_node("generate", generate)
    builder.add_node("answerability", answerability)

    builder.add_edge(START, "retrieve")
    builder.add_edge("retrieve", "grade")
    builder.add_conditional_edges("grade", after_grade, ["refine", "web_search"])
    builder.add_conditional_edges("refine", after_refine, ["generate", "web_search"])
    builder.add_edge("web_search", "generate")
    builder.add_edge("generate", "answerability")
    if with_requery:
        builder.add_node("requery", requery)
        builder.add_conditional_edges("answerability", after_answerability, ["requery", END])
        builder.add_conditional_edges("requery", after_requery, ["generate", END])
    else:
        builder.add_edge("answerability", END)
    return builder.compile(name="policyrag" if with_requery else "policyrag-no-requery")


graph = build_graph()
