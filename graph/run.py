"""Running the graphs for a caller: one question through the graph's stream, consumed once.

The CLI (`ask`, streamed or not), the HTTP service (`/query`, `/query/stream`, LangServe) and the
evaluation all answer through `answer`, and compare two wordings through `compare`.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from typing import Any, cast

from langgraph.graph.state import CompiledStateGraph
from langgraph.types import StreamMode

from core.schemas import AnswerRecord, CompareRecord, RunContext

# ("step", Step) when a node finishes, ("token", str) as the answer's text comes.
EventSink = Callable[[str, Any], None]
Graph = CompiledStateGraph[Any, Any, Any, Any]
MODES: list[StreamMode] = ["updates", "custom", "values"]


class Cancelled(Exception):
    """Raised by an `on_event` callback to stop a run where it is: nothing after that node runs."""


def answer(graph: Graph, question: str, context: RunContext, on_event: EventSink | None = None) -> AnswerRecord:
    """The answer record for one question; steps and tokens go to `on_event` as they happen.

    `on_event` may raise Cancelled (its caller went away): the run stops at that node boundary or token
    and the exception reaches the caller, with no record."""
    started = time.perf_counter()
    final: dict[str, Any] = {}
    events = cast(Iterator[tuple[str, Any]], graph.stream({"question": question}, context=context, stream_mode=MODES))
    for mode, chunk in events:
        if mode == "values":
            final = chunk
        elif on_event is None:
            continue
        elif mode == "updates":
            for update in chunk.values():
                for step in (update or {}).get("steps", []):
                    on_event("step", step)
        elif mode == "custom" and "token" in chunk:
            on_event("token", chunk["token"])
    record = AnswerRecord.model_validate(final)
    record.latency_ms["total"] = round((time.perf_counter() - started) * 1000, 3)
    return record


class WordingNotFound(LookupError):
    """A compared wording has no clause in the index: comparing with it would call everything "only in" the other."""


def compare(graph: Graph, question: str, a: dict[str, Any], b: dict[str, Any], context: RunContext) -> CompareRecord:
    """Both wordings' answers and the per-point table; raises WordingNotFound when a wording is not indexed."""
    started = time.perf_counter()
    record = CompareRecord.model_validate(graph.invoke({"question": question, "a": a, "b": b}, context=context))
    record.question = question
    record.sides.sort(key=lambda s: s.side)
    record.latency_ms["total"] = round((time.perf_counter() - started) * 1000, 3)
    missing = [s for s in record.sides if not s.evidence]
    if len(missing) == 2:
        raise WordingNotFound(
            "neither wording was found in the index; check the document ids or product names (GET /policies)"
        )
    if missing:
        side = missing[0]
        wanted = ", ".join(f"{k} {v}" for k, v in side.filters.items() if k != "collection")
        raise WordingNotFound(
            f"wording {side.side} ({wanted}) was not found in the index; "
            "check the document id or product name (GET /policies)"
        )
    return record
