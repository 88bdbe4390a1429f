"""Search inside insurance policy wordings: variants named in the question become filters, and the
question's intent narrows the search to the clause sections that can answer it."""

from __future__ import annotations

import re
from typing import Any

from core.types import Evidence
from db.store import VectorStore
from language.analysis import analyse, variants_named
from retrieval.grading import grade_all
from retrieval.intent import classify
from retrieval.search import RetrievalOptions, Retriever

POLICY_FILTER_KEYS = ("category", "provider", "product", "variant")


def is_policy_scope(filters: dict[str, Any], policy_collections: list[str]) -> bool:
    """A search over insurance policy wordings (by collection or by insurance metadata)."""
    return (
        any(key in filters for key in POLICY_FILTER_KEYS)
        or filters.get("collection") in policy_collections
        or filters.get("document_type") == "policy_wording"
    )


def _best(question: str, evidence: list[Evidence]) -> float:
    return max((g.confidence for g in grade_all(question, evidence)), default=0.0)


def _values_named(question: str, key: str, store: VectorStore) -> list[str]:
    """The index's values of a wording field (variant, product, provider) the question names, by name or in plain
    words ("my cover through work": the group variant)."""
    words = set(re.findall(r"[a-z0-9]+", question.lower())) | variants_named(question)
    return [v for v in store.counts_by(key) if v and v.lower() in words]


def named_variants(question: str, filters: dict[str, Any], store: VectorStore) -> dict[str, Any]:
    """A product or variant the question names ("the group variant", "my cover through work") becomes a filter, if
    the index has it."""
    found: dict[str, Any] = {}
    for key in ("variant", "product", "provider"):
        if key in filters:
            continue
        values = _values_named(question, key, store)
        if len(values) == 1:
            found[key] = values[0]
    return found


def each_variant_named(question: str, filters: dict[str, Any], store: VectorStore) -> list[dict[str, Any]]:
    """The filter for each of several variants the question names ("my own rider ... and my employer's group
    plan"): each wording is searched on its own, so one does not crowd the other out of the candidates."""
    values = [] if "variant" in filters else _values_named(question, "variant", store)
    return [{**filters, "variant": v} for v in values] if len(values) > 1 else []


# asked how much, by when or what is listed, the sections the intent points to hold the answer
_INTENT_DECIDES = frozenset({"amount", "deadline", "list"})


def narrowed_search(
    retriever: Retriever, question: str, filters: dict[str, Any], k: int, options: RetrievalOptions, good: float
) -> tuple[list[Evidence], str]:
    """Policy questions: search only the sections the intent points to; fall back to the unnarrowed
    search when the narrowed candidates score poorly (below `good` and below the unnarrowed ones)."""
    named = named_variants(question, filters, retriever.reader.store())
    filters = {**filters, **named}
    note = f"filters from the question {named}; " if named else ""
    intent = classify(question)
    if intent is None:
        return retriever.retrieve(question, filters, k, options), f"{note}no intent recognised; unfiltered"
    narrowed = retriever.retrieve(question, {**filters, "section_key": intent.sections}, k, options)
    best = _best(question, narrowed)
    sections = ", ".join(intent.sections)
    if best >= good and analyse(question).answer_type in _INTENT_DECIDES:
        return narrowed, f"{note}intent {intent.name}: narrowed to {sections} (best {best:.2f})"
    everything = retriever.retrieve(question, filters, k, options)
    if best >= good:  # a yes/no or an explanation may be answered from any section: the rest follow
        seen = {e.chunk_id for e in narrowed}
        found = [*narrowed, *(e for e in everything if e.chunk_id not in seen)]
        return found, f"{note}intent {intent.name}: narrowed to {sections} (best {best:.2f}), then the rest"
    if _best(question, everything) > best:
        return everything, f"{note}intent {intent.name}: narrowed candidates scored {best:.2f}; fell back to unfiltered"
    return narrowed, f"{note}intent {intent.name}: narrowed to {sections} (best {best:.2f}; unfiltered was no better)"
