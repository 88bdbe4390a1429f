"""Where an offline answer's time goes: a fixed question set through the graph in this process, under cProfile.

    python -m evals.profile                 # the 40 questions of evals.bench_service, top 25 functions
    python -m evals.profile --answerable 8 --out-of-scope 4 --top 40

Uses the published index of the process settings (`make setup` builds it), the offline answerer and the
`secondary` collection as the web fallback, with the web cache off so every run does the fallback's work
(the settings evals.bench_service pins). One warm-up question loads the models first. Prints the top
functions by cumulative and by own time (summed over every thread, so waiting threads show large
cumulative times too), and the share of the wall time spent in ONNX Runtime, Snowball stemming and the
store's searches; writes the same figures to evals/results/profile.json. cProfile slows Python code (not
ONNX Runtime or the engine), so the shares lean towards Python.
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import sys
import threading
import time
from pathlib import Path
from typing import Any

from core.settings import REPO_ROOT, Settings
from evals.bench_service import FULL, WARMUP_QUESTION, Question, bench_settings, load_questions, run_graph

OUT = REPO_ROOT / "evals" / "results" / "profile.json"
# (label, part of the file path, function name): where the known costs are, summed by cumulative time
HOTSPOTS = (
    ("onnx_inference", "onnxruntime", "run"),
    # our one call into the stemmer: PyStemmer's compiled stemWord is invisible to cProfile, its time is here
    ("snowball_stemming", "language/words.py", "_stem"),
    ("store_search", "db/", "search"),
)
FuncKey = tuple[str, int, str]


def hotspot_seconds(stats: pstats.Stats) -> dict[str, float]:
    """Cumulative seconds per hotspot (outermost calls only, so recursion is not counted twice)."""
    raw: dict[FuncKey, Any] = stats.stats  # type: ignore[attr-defined]
    out = {}
    for label, path_part, name in HOTSPOTS:
        keys = {k for k in raw if path_part in k[0] and k[2] == name}
        # a call whose caller is itself a hotspot function is inside that call's time already
        out[label] = sum(ct for k in keys for caller, (_, _, _, ct) in raw[k][4].items() if caller not in keys)
    return out


def top_rows(stats: pstats.Stats, sort: str, n: int) -> list[dict[str, Any]]:
    raw: dict[FuncKey, Any] = stats.stats  # type: ignore[attr-defined]
    index = {"cumulative": 3, "tottime": 2}[sort]
    ranked = sorted(raw.items(), key=lambda item: -item[1][index])[:n]
    return [
        {
            "function": f"{Path(file).name}:{line}({name})" if line else name,
            "calls": calls,
            "own_s": round(tt, 3),
            "cumulative_s": round(ct, 3),
        }
        for (file, line, name), (_, calls, tt, ct, _) in ranked
    ]


class ThreadProfiles:
    """A profiler in every thread: LangGraph runs nodes on worker threads and web search on its own pool,
    which cProfile alone (the calling thread only) would not see."""

    def __init__(self) -> None:
        self.profiles: list[cProfile.Profile] = []
        self._lock = threading.Lock()

    def _start(self, *_: Any) -> None:
        profile = cProfile.Profile()
        with self._lock:
            self.profiles.append(profile)
        profile.enable()

    def __enter__(self) -> ThreadProfiles:
        threading.setprofile(self._start)  # every thread started from now on profiles itself
        self._start()
        return self

    def __exit__(self, *exc: object) -> None:
        threading.setprofile(None)
        self.profiles[0].disable()

    def clear(self) -> None:
        """Forget what was recorded so far (the warm-up), in every thread."""
        for profile in self.profiles:
            profile.clear()

    def stats(self) -> pstats.Stats:
        """All threads' statistics merged (threads that recorded nothing after the warm-up left out)."""
        for profile in self.profiles:
            profile.create_stats()
        recorded = [p for p in self.profiles if p.stats]
        return pstats.Stats(*recorded, stream=io.StringIO())


def profile(questions: list[Question], settings: Settings) -> tuple[pstats.Stats, float]:
    """(statistics, wall seconds) of the questions through a graph built over `settings`."""
    from graph.crag import build_graph
    from retrieval.services import Services

    services = Services(settings)
    try:
        graph = build_graph(services)
        with ThreadProfiles() as profiles:  # on before the warm-up starts the web-search threads
            run_graph(graph, Question("warmup", WARMUP_QUESTION, "answerable"))
            profiles.clear()
            started = time.perf_counter()
            for question in questions:
                run_graph(graph, question)
            wall = time.perf_counter() - started
    finally:
        services.close()
    return profiles.stats(), wall


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--answerable", type=int, default=FULL["answerable"])
    parser.add_argument("--out-of-scope", type=int, default=FULL["out_of_scope"])
    parser.add_argument("--top", type=int, default=25, help="functions listed per ordering")
    parser.add_argument("--out", type=Path, default=OUT)
    args = parser.parse_args(argv)
    questions = load_questions(args.answerable, args.out_of_scope)
    settings = bench_settings(Settings().data_dir, web_cache_ttl_s=0)
    stats, wall = profile(questions, settings)
    # the questions run one after another, so each hotspot's share of the wall time is where the time went
    shares = {label: round(s / wall, 3) for label, s in hotspot_seconds(stats).items()}
    result: dict[str, Any] = {
        "command": " ".join(["python -m evals.profile", *(sys.argv[1:] if argv is None else argv)]),
        "questions": len(questions),
        "wall_s": round(wall, 2),
        "per_question_ms": round(1000 * wall / max(len(questions), 1), 1),
        "share_of_wall_time": shares,
        "top_cumulative": top_rows(stats, "cumulative", args.top),
        "top_own": top_rows(stats, "tottime", args.top),
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    print(f"{len(questions)} questions in {wall:.2f} s ({result['per_question_ms']} ms each, under cProfile)")
    print("share of the wall time: " + ", ".join(f"{k} {v:.1%}" for k, v in shares.items()))
    for title, key in (("cumulative", "top_cumulative"), ("own time", "top_own")):
        print(f"\ntop {args.top} by {title}:\n{'cumulative s':>12} {'own s':>8} {'calls':>9}  function")
        for row in result[key]:
            print(f"{row['cumulative_s']:>12.3f} {row['own_s']:>8.3f} {row['calls']:>9}  {row['function']}")
    print(f"\nwritten to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
