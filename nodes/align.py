"""align: pair the two wordings' clauses by section and benefit and give each point a verdict."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from core.schemas import RunContext
from core.state import CompareState
from core.steps import timed
from retrieval.alignment import align as align_clauses


@timed("align")
def align(state: CompareState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Per point: the same, different (both clauses and the differing values), or present in one wording only."""
    sides = {s.side: s for s in state.get("sides") or []}
    labels = {side: s.label for side, s in sides.items()}
    stated = tuple(s.coverage_type if (s := sides.get(side)) else None for side in ("a", "b"))
    clauses = state.get("clauses") or {}
    points = align_clauses(clauses.get("a") or [], clauses.get("b") or [], (stated[0], stated[1]))
    counts = {v: sum(1 for p in points if p.verdict == v) for v in ("same", "different", "only_a", "only_b")}
    summary = (
        f"{counts['different']} point(s) differ, {counts['same']} are the same, "
        f"{counts['only_a']} only in {labels.get('a', 'A')}, {counts['only_b']} only in {labels.get('b', 'B')}."
    )
    return {"points": points, "summary": summary}
