"""grade: an explainable confidence per chunk; the best chunk decides the route."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from core.schemas import RunContext
from core.state import GraphState
from core.steps import timed
from generation.blocks import (
    naming_every_asked_word,
    with_best_graded,
    with_block_stating,
    with_counterpart_clauses,
    with_definitions,
    with_explained_provision,
    with_pointed_clauses,
    with_series,
)
from generation.compose import asked_about, states_kind_asked
from language.analysis import analyse, question_parts
from retrieval.grading import (
    ACROSS_PATIENTS_K,
    apply_grades,
    grade_all,
    llm_relevance,
    route_for,
    with_exceptions,
    with_part_answers,
)
from retrieval.services import Services
from retrieval.trust import provenance, trust_grade


@timed("grade")
def grade(state: GraphState, runtime: Runtime[RunContext], services: Services) -> dict[str, Any]:
    """Score each chunk, pick the route from the best one, and say how far to trust it."""
    context = runtime.context or RunContext()
    candidates = state.get("candidates") or []
    grades = grade_all(state["question"], candidates)
    trace = []
    if context.llm_grader and candidates:
        try:
            votes = llm_relevance(state["question"], candidates, services.settings)
            if votes is None:
                trace.append("grade: no chat model configured for the LLM relevance grader; deterministic scores kept")
        except Exception as error:  # the deterministic grade stands when the model cannot vote
            votes = None
            trace.append(f"grade: LLM relevance grader unavailable ({type(error).__name__}); deterministic scores kept")
        for g, vote in zip(grades, votes or [], strict=False):
            g.confidence = round((g.confidence + vote) / 2, 4)
            g.explanation += f"; LLM relevance {'yes' if vote else 'no'}"
    k = context.k(services.settings)
    analysis = analyse(state["question"])
    if analysis.across_patients:  # one piece of evidence per patient who may have it
        k = max(k, ACROSS_PATIENTS_K)
    # the evidence is chosen after grading the whole pool; asked about cover, a clause naming what is asked that
    # no better one names is among it; the provision the best explanation explains is among it
    pool = apply_grades(candidates, grades, services.settings.authority_order)
    graded = with_explained_provision(naming_every_asked_word(pool, k, asked_about(state["question"], analysis)), pool)
    graded = with_best_graded(graded, pool)  # authority orders the evidence; it shuts out no better match
    graded = with_pointed_clauses(graded, pool)  # "after the waiting period in Clause 4.5": clause 4.5 too
    graded = with_counterpart_clauses(graded, pool, state["question"])  # "his own rider and the group one": both
    if analysis.answer_type in ("deadline", "amount"):  # a date, period or amount asked: a block stating one
        graded = with_block_stating(graded, pool, lambda text: states_kind_asked(state["question"], analysis, text))
    graded = with_series(graded, pool, state["question"])  # "What are the Caldicott principles?": all of them
    graded = with_definitions(graded, pool, state["question"])  # "the difference between a controller and ..."
    graded = with_part_answers(graded, pool, question_parts(state["question"]))  # "..., and who must we tell?"
    graded = with_exceptions(graded, pool)  # "That right does not apply to ..." after the right it limits
    # the k best, and what joined them: a provision they explain, the best block for a part of the question
    kept = min(len(graded), k)
    added = f" and {len(graded) - kept} they explain or a part asks for" if len(graded) > kept else ""
    best = graded[0] if graded else None
    confidence = (best.confidence or 0.0) if best else 0.0
    correct, incorrect = context.thresholds(services.settings)
    route = route_for(confidence, correct, incorrect)
    explanation = best.grade_explanation if best else "none"
    update: dict[str, Any] = {
        "candidates": graded,
        "route": route,
        "confidence": confidence,
        "trust_grade": trust_grade(route, best),
        "provenance": provenance(best),
        "trace": [*trace, f"grade: {route}; kept {kept} of {len(candidates)}{added} (best {explanation})"],
    }
    if "initial_route" not in state:
        update["initial_route"] = route
    return update
