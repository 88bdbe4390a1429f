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
# LangGraph runs a node on a worker thread, and a waiter beside it, whenever the run streams "custom" events
# (the tokens): a caller that wants no tokens is spared those hand-overs (measured: about 9 ms of a 50 ms
# offline answer on 2 busy cores). The answer is the same either way.
WITH_TOKENS: list[StreamMode] = ["updates", "custom", "values"]
WITH_STEPS: list[StreamMode] = ["updates", "values"]
RECORD_ONLY: list[StreamMode] = ["values"]


class Cancelled(Exception):
    """Raised by an `on_event` callback to stop a run where it is: nothing after that node runs."""


def answer(
    graph: Graph, question: str, context: RunContext, on_event: EventSink | None = None, tokens: bool = True
) -> AnswerRecord:
    """The answer record for one question; steps (and tokens, unless `tokens` is False) go to `on_event` as
    they happen.

    `on_event` may raise Cancelled (its caller went away): the run stops at that node boundary or token
    and the exception reaches the caller, with no record."""
    started = time.perf_counter()
    final: dict[str, Any] = {}
    modes = RECORD_ONLY if on_event is None else WITH_TOKENS if tokens else WITH_STEPS
    events = cast(Iterator[tuple[str, Any]], graph.stream({"question": question}, context=context, stream_mode=modes))
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
