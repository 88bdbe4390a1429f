"""retrieve: hybrid search in Qdrant for the question (collection and filters from the run context)."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from core.schemas import RunContext
from core.state import GraphState
from core.steps import timed
from core.types import Evidence
from language.analysis import analyse, asked_alone, question_parts
from retrieval.grading import ACROSS_PATIENTS_K
from retrieval.policy_search import each_variant_named, is_policy_scope, named_variants, narrowed_search
from retrieval.scope import scope_for
from retrieval.services import Services

MAX_PARTS = 3  # the parts of a question searched on their own
# a story is twice as long as the sentence asking: it outweighs that sentence in every match of the whole question
# ("We're a small dental practice with three dentists." is the scene of "Do we have to appoint a DPO?", no story)
STORY_RATIO = 2


@timed("retrieve")
def retrieve(state: GraphState, runtime: Runtime[RunContext], services: Services) -> dict[str, Any]:
    """Fetch a deep pool of candidates, every score kept (policy questions narrowed by intent); grading
    chooses the evidence from it."""
    context = runtime.context or RunContext()
    settings = services.settings
    question = state["question"].strip()
    if not question:
        raise ValueError("the question is empty")
    pool = max(settings.candidate_pool, context.k(settings))
    if analyse(question).across_patients:
        pool = max(pool, 2 * ACROSS_PATIENTS_K)
    retriever = services.resources.retriever
    retriever.embedder.embed_ahead(question)  # scored against the sentences later, while the search runs now
    scope = scope_for(question, context.search_filters(), retriever.reader.store(), retriever.patients)
    options = services.retrieval_options(context.retrieval_mode)
    policy = is_policy_scope(scope.filters, settings.policy_collections)
    named = tuple(p.patient_id for p in scope.patients)  # a patient named by name counts as named by id
    correct, _ = context.thresholds(settings)  # a run's own threshold, as answer_side reads it

    def search(text: str, k: int, filters: dict[str, Any] = scope.filters) -> tuple[list[Evidence], str]:
        if policy:
            return narrowed_search(retriever, text, filters, k, options, correct)
        return retriever.retrieve(text, filters, k, options, named), f"mode {context.retrieval_mode}"

    candidates, note = search(question, pool)
    held = {e.chunk_id: i for i, e in enumerate(candidates)}
    # a part or the asking sentence searched alone keeps the wording the whole question names ("... my individual
    # rider ... Does the lump sum get paid straight away?" is not asked of the group rider)
    within = {**scope.filters, **named_variants(question, scope.filters, retriever.reader.store())} if policy else {}

    def add(found: list[Evidence], rescore: bool = False) -> None:
        """New candidates join the pool; with `rescore`, one already held keeps the closer of its two matches."""
        for e in found:
            if e.chunk_id not in held:
                held[e.chunk_id] = len(candidates)
                candidates.append(e)
            elif rescore and (e.scores.dense or 0.0) > (candidates[held[e.chunk_id]].scores.dense or 0.0):
                candidates[held[e.chunk_id]] = e

    # asked two things at once, each part is searched too: the provision answering the second part is often
    # not among what the whole question finds ("how long to report it, and when must the board hear of it?")
    parts = question_parts(question)[:MAX_PARTS]
    for part in parts:
        add(search(part, context.k(settings), within or scope.filters)[0])
    note += f"; {len(parts)} parts searched too" if parts else ""
    # a story before one question ("... mixed up with someone else's notes. Do they have to fix it if I ask?"): the
    # question alone is searched too, and a provision it finds is graded by how closely it answers that question
    asking = asked_alone(question)
    story = len(question.split()) - len(asking.split())
    if asking and not parts and story >= STORY_RATIO * len(asking.split()):
        add(search(asking, context.k(settings), within or scope.filters)[0], rescore=True)
        note += "; the asking sentence searched alone"
    # asked about two wordings ("his own rider ... his employer's group plan"), each is searched on its own
    variants = each_variant_named(question, scope.filters, retriever.reader.store()) if policy else []
    for filters in variants:
        add(search(question, context.k(settings), filters)[0])
    note += f"; {len(variants)} wordings searched apart" if variants else ""
    trace = f"retrieve: {len(candidates)} candidates (pool {pool}; {scope.note + '; ' if scope.note else ''}{note})"
    return {"query": question, "candidates": candidates, "ask_back": scope.ask_back, "trace": [trace]}
