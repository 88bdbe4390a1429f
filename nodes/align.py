"""align: pair the two wordings' clauses by section and benefit and give each point a verdict."""

from __future__ import annotations

from typing import Any

from langgraph.runtime import Runtime

from core.state import CompareState
from nodes.context import RunContext
from nodes.timing import timed
from retrieval.alignment import align as align_clauses


@timed("align")
def align(state: CompareState, runtime: Runtime[RunContext]) -> dict[str, Any]:
    """Per point: the same, different (both clauses and the differing values), or present in one wording only."""
    sides = {s["side"]: s for s in state.get("sides") or []}
    a, b = sides.get("a", {}), sides.get("b", {})
    points = [p.as_dict() for p in align_clauses(a.get("clauses") or [], b.get("clauses") or [])]
    counts = {v: sum(1 for p in points if p["verdict"] == v) for v in ("same", "different", "only_a", "only_b")}
    summary = (
        f"{counts['different']} point(s) differ, {counts['same']} are the same, "
        f"{counts['only_a']} only in {a.get('label', 'A')}, {counts['only_b']} only in {b.get('label', 'B')}."
    )
    return {"points": points, "summary": summary}
