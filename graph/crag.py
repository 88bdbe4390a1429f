"""The corrective RAG graph: wiring only (nodes in nodes/, edges in graph/edges.py).

START -> retrieve -> grade --CORRECT----> refine ---------------> generate
                          \\--AMBIGUOUS--> refine -> web_search -> generate
                          \\--INCORRECT------------> web_search -> generate
generate -> answerability --answered--------------------------------> END
                          \\--refused, first time--> requery --new evidence--> generate
                                                            \\--nothing new---> END

The process's services are bound to the nodes that need them when the graph is built.
"""

from __future__ import annotations

from functools import partial

from langgraph.graph import END, START, StateGraph
from langgraph.graph.state import CompiledStateGraph

from core.schemas import AnswerRecord, Question, RunContext
from core.state import GraphState
from graph.edges import after_answerability, after_grade, after_refine, after_requery
from nodes.answerability import answerability
from nodes.generate import generate
from nodes.grade import grade
from nodes.refine import refine
from nodes.requery import requery
from nodes.retrieve import retrieve
from nodes.web_search import web_search
from retrieval.services import Services


def build_graph(
    services: Services, with_requery: bool = True
) -> CompiledStateGraph[GraphState, RunContext, Question, AnswerRecord]:
    """The corrective RAG graph over these services;
    without the requery loop for the "does correction pay?" comparison.
    """
    builder = StateGraph(GraphState, context_schema=RunContext, input_schema=Question, output_schema=AnswerRecord)
    builder.add_node("retrieve", partial(retrieve, services=services))
    builder.add_node("grade", partial(grade, services=services))
    builder.add_node("refine", partial(refine, services=services))
    builder.add_node("web_search", partial(web_search, services=services))
    builder.add_node("generate", partial(generate, services=services))
    builder.add_node("answerability", answerability)

    builder.add_edge(START, "retrieve")
    builder.add_edge("retrieve", "grade")
    builder.add_conditional_edges("grade", after_grade, ["refine", "web_search"])
    builder.add_conditional_edges("refine", after_refine, ["generate", "web_search"])
    builder.add_edge("web_search", "generate")
    builder.add_edge("generate", "answerability")
    if with_requery:
        builder.add_node("requery", partial(requery, services=services))
        builder.add_conditional_edges("answerability", after_answerability, ["requery", END])
        builder.add_conditional_edges("requery", after_requery, ["generate", END])
    else:
        builder.add_edge("answerability", END)
    return builder.compile(name="policyrag" if with_requery else "policyrag-no-requery")
