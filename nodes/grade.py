"""grade: an explainable confidence per chunk; the best chunk decides the route."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from core.state import GraphState, TrustGrade
from core.types import Evidence
from generation.guard import neutralise
from generation.prompts import RELEVANCE_PROMPT
from nodes.context import RunContext, Services, context_of, services_of
from nodes.timing import timed
from retrieval.grading import ChunkGrade, grade_all, route_for


def thresholds(context: RunContext, services: Services) -> tuple[float, float]:
    settings = services.settings
    return (
        context.correct_threshold if context.correct_threshold is not None else settings.correct_threshold,
        context.incorrect_threshold if context.incorrect_threshold is not None else settings.incorrect_threshold,
    )


AUTHORITY_TIE_BREAK = 0.02  # per hierarchy step: near-equal evidence from primary law outranks commentary


def apply_grades(evidence: list[Evidence], grades: list[ChunkGrade]) -> list[Evidence]:
    """Evidence carrying its confidence and explanation, best first (authority breaks near-ties)."""
    graded = [
        e.model_copy(update={"confidence": g.confidence, "grade_explanation": g.explanation})
        for e, g in zip(evidence, grades)
    ]
    return sorted(graded, key=lambda e: -((e.confidence or 0.0) - AUTHORITY_TIE_BREAK * (e.hierarchy_rank - 1)))


def grade_evidence(question: str, evidence: list[Evidence]) -> list[Evidence]:
    """The deterministic grade applied: what every node that finds new evidence does with it."""
    return apply_grades(evidence, grade_all(question, evidence))


def llm_relevance(question: str, evidence: list[Evidence], services: Services) -> list[float] | None:
    """The CRAG paper's evaluator role, played by the configured chat model: 1.0 relevant, 0.0 not.
    None when no chat model is configured (whichever generator writes the answer)."""
    from generation.chat import make_chat_model

    model = make_chat_model(services.settings)
    if model is None:
        return None
    votes = []
    for e in evidence:
        reply = model.invoke(RELEVANCE_PROMPT.format(passage=neutralise(e.text), question=neutralise(question)))
        votes.append(1.0 if str(reply.content).strip().lower().startswith("yes") else 0.0)
    return votes


def trust_grade(route: str, best: Evidence | None) -> TrustGrade:
    if best is None:
        return {"grade": "low", "rationale": "No evidence was found."}
    source = f"{best.citation} ({best.publisher or 'unknown publisher'}, hierarchy rank {best.hierarchy_rank})"
    if route == "CORRECT" and best.hierarchy_rank <= 2:
        return {
            "grade": "high",
            "rationale": f"Strong match in an authoritative source: {source}, confidence {best.confidence:.2f}.",
        }
    if route == "CORRECT":
        return {"grade": "medium", "rationale": f"Strong match, but in a lower-authority source: {source}."}
    if route == "AMBIGUOUS":
        return {
            "grade": "medium",
            "rationale": f"Partial match ({source}, confidence {best.confidence:.2f}); web or commentary evidence added.",
        }
    return {
        "grade": "low",
        "rationale": f"No local source answers well (best {source}, confidence {best.confidence:.2f}).",
    }


def provenance(best: Evidence | None) -> dict[str, Any]:
    if best is None:
        return {}
    return {
        "citation": best.citation,
        "document": best.document,
        "publisher": best.publisher,
        "jurisdiction": best.jurisdiction,
        "version": best.version,
        "effective_from": best.effective_from,
        "hierarchy_rank": best.hierarchy_rank,
        "source_url": best.source_url,
        "page": best.page,
    }


@timed("grade")
def grade(state: GraphState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Score each chunk, pick the route from the best one, and say how far to trust it."""
    context = context_of(runtime)
    services = services_of(context)
    evidence = state.get("evidence") or []
    grades = grade_all(state["question"], evidence)
    trace = []
    if context.llm_grader and evidence:
        try:
            votes = llm_relevance(state["question"], evidence, services)
            if votes is None:
                trace.append("grade: no chat model configured for the LLM relevance grader; deterministic scores kept")
        except Exception as error:  # the deterministic grade stands when the model cannot vote
            votes = None
            trace.append(f"grade: LLM relevance grader unavailable ({type(error).__name__}); deterministic scores kept")
        for g, vote in zip(grades, votes or []):
            g.confidence = round((g.confidence + vote) / 2, 4)
            g.explanation += f"; LLM relevance {'yes' if vote else 'no'}"
    graded = apply_grades(evidence, grades)
    best = graded[0] if graded else None
    confidence = best.confidence if best else 0.0
    correct, incorrect = thresholds(context, services)
    route = route_for(confidence, correct, incorrect)
    update: dict[str, Any] = {
        "evidence": graded,
        "route": route,
        "confidence": confidence,
        "trust_grade": trust_grade(route, best),
        "provenance": provenance(best),
        "trace": trace
        + [f"grade: {route} (best {best.grade_explanation if best else 'none'}; thresholds {correct}/{incorrect})"],
    }
    if "initial_route" not in state:
        update["initial_route"] = route
    return update
