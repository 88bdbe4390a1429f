"""Service benchmark: graph latency per node, throughput by concurrency, semantic cache through the
real HTTP server, cold start, and index scale per backend. Offline, on the shipped corpus.

    python -m evals.bench_service            # full run (about 15 minutes on 2 idle cores)
    python -m evals.bench_service --quick    # small counts, scale at 1k/10k only: a fast check

Writes evals/results/bench_service.json (rewritten after every section, "complete": true at the
end) and PNG plots under evals/results/plots/ (--out elsewhere). Sections:

1. nodes: ~40 fixed questions (answerable ones from evals/goldens/retrieval.jsonl, out-of-scope ones
   from evals/goldens/scope.jsonl) through the graph in this process; per-node p50/p95 from the
   output's latency_ms and end-to-end wall time (offline answerer, web providers ["secondary"]).
2. throughput: questions/s of Retriever.retrieve and of the whole graph with a thread pool at each
   concurrency level, a fixed number of requests per level.
3. cache: the real service (`python -m cli.main serve` on a free loopback port, its own process);
   every question asked twice, the second ask a semantic-cache hit when the reply says cache_hit.
4. cold start: process start to the first 200 from /health, and to the first answered /query.
5. scale: evals.bench_index's store benchmark (same store code, random unit vectors, real text
   payloads and sparse vectors) per backend and size, each in its own process.

The index is built once in a temporary data folder by the product's ingest, reusing vectors cached
in data/catalog.sqlite when that exists. Other processes' CPU use during each section is measured
from /proc/stat and reported, since a busy machine makes every figure here slower.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from pathlib import Path
from typing import Any

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # a model download attempt fails fast instead of hanging

from core.settings import REPO_ROOT, Settings  # noqa: E402
from evals.bench_index import store_in_subprocess  # noqa: E402
from evals.service_process import free_port, launch, stop  # noqa: E402

RESULTS_DIR = REPO_ROOT / "evals" / "results"
CORPUS = REPO_ROOT / "corpus"
GOLDENS = REPO_ROOT / "evals" / "goldens"
SEED_CATALOG = REPO_ROOT / "data" / "catalog.sqlite"
NODE_ORDER = ["retrieve", "grade", "refine", "web_search", "generate", "answerability", "requery"]
WARMUP_QUESTION = "What is pseudonymisation under the GDPR?"  # not in the question list
COLD_QUESTION = "How long does a controller have to notify a personal data breach to the supervisory authority?"
START_TIMEOUT_S = 180
NOISY_SHARE = 0.10  # other processes using more than this share of the machine make a section noisy

FULL = {
    "answerable": 24,
    "out_of_scope": 16,
    "levels": [1, 2, 4, 8, 16],
    "retrieval_total": 160,
    "graph_total": 80,
    "cold_runs": 3,
    "edge_sizes": [1000, 10000, 100000],
    "client_sizes": [1000, 10000],
    "scale_queries": 100,
}
QUICK = {
    "answerable": 8,
    "out_of_scope": 4,
    "levels": [1, 2, 4, 8, 16],
    "retrieval_total": 32,
    "graph_total": 16,
    "cold_runs": 1,
    "edge_sizes": [1000, 10000],
    "client_sizes": [1000, 10000],
    "scale_queries": 20,
}


# ---------------------------------------------------------------- helpers


@dataclass(frozen=True)
class Question:
    id: str
    text: str
    kind: str  # "answerable" or "out_of_scope"
    collection: str | None = None

    def query_body(self) -> dict[str, Any]:
        return {"question": self.text, **({"collection": self.collection} if self.collection else {})}


def spread(rows: list[dict], n: int) -> list[dict]:
    """n rows evenly spaced through the file (deterministic, covers every kind of question)."""
    n = min(n, len(rows))
    return [rows[i * len(rows) // n] for i in range(n)]


def load_questions(answerable: int, out_of_scope: int) -> list[Question]:
    """Answerable golden questions interleaved with out-of-scope ones."""
    read = lambda name: [json.loads(line) for line in (GOLDENS / name).open(encoding="utf-8") if line.strip()]  # noqa: E731
    good = [
        Question(r["id"], r["question"], "answerable", r.get("collection"))
        for r in spread(read("retrieval.jsonl"), answerable)
    ]
    bad = [
        Question(r["id"], r["question"], "out_of_scope")
        for r in spread([r for r in read("scope.jsonl") if not r["in_scope"]], out_of_scope)
    ]
    mixed: list[Question] = []
    for i in range(max(len(good), len(bad))):
        mixed += good[i : i + 1] + bad[i : i + 1]
    return mixed


def stats_ms(samples_ms: list[float]) -> dict[str, float]:
    """n, p50, p95 (nearest rank, as evals.bench_index), mean and max, in milliseconds."""
    if not samples_ms:
        return {"n": 0}
    ordered = sorted(samples_ms)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return {
        "n": len(ordered),
        "p50_ms": round(pick(0.5), 2),
        "p95_ms": round(pick(0.95), 2),
        "mean_ms": round(statistics.fmean(ordered), 2),
        "max_ms": round(ordered[-1], 2),
    }


def package_version(name: str) -> str | None:
    try:
        return version(name)
    except PackageNotFoundError:
        return None


def machine_info() -> dict[str, Any]:
    cpu = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor(),
    )
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO_ROOT, capture_output=True, text=True).stdout.strip()
    dirty = bool(
        subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"], cwd=REPO_ROOT, capture_output=True, text=True
        ).stdout.strip()
    )
    return {
        "cores": os.cpu_count(),
        "cpu": cpu,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "onnxruntime": package_version("onnxruntime"),
        "fastembed": package_version("fastembed"),
        "qdrant_edge": package_version("qdrant-edge-py"),
        "qdrant_client": package_version("qdrant-client"),
        "langgraph": package_version("langgraph"),
        "numpy": package_version("numpy"),
        "git_commit": commit,
        "git_tracked_changes": dirty,
        "load_average_at_start": [round(x, 2) for x in os.getloadavg()],
    }


class CpuMeter:
    """Wall time, this process tree's CPU and everyone else's (from /proc/stat) over a section."""

    TICK = os.sysconf("SC_CLK_TCK")

    @staticmethod
    def _busy_s() -> float:
        fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
        user, nice, system, _idle, _iowait, irq, softirq, steal = (fields + [0] * 8)[:8]
        return (user + nice + system + irq + softirq + steal) / CpuMeter.TICK

    @staticmethod
    def _own_s() -> float:
        me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime

    def __enter__(self) -> CpuMeter:
        self.wall, self.busy, self.own = time.perf_counter(), self._busy_s(), self._own_s()
        return self

    def __exit__(self, *exc: object) -> None:
        wall = time.perf_counter() - self.wall
        own = self._own_s() - self.own
        other = max(0.0, self._busy_s() - self.busy - own)
        share = other / (wall * (os.cpu_count() or 1))
        self.result = {
            "wall_s": round(wall, 1),
            "own_cpu_s": round(own, 1),
            "other_processes_cpu_s": round(other, 1),
            "other_processes_share": round(share, 3),
            "noisy": share > NOISY_SHARE,
            "load_average_after": [round(x, 2) for x in os.getloadavg()],
        }


def bench_settings(data_dir: Path, **overrides: Any) -> Settings:
    """The product's settings with offline choices pinned (init values win over the environment and .env)."""
    return Settings(
        data_dir=data_dir,
        models_dir=Settings().models_dir,
        web_providers=["secondary"],
        groq_api_key=None,
        tavily_api_key=None,
        chat_model=None,
        qdrant_url=None,
        **overrides,
    )


def seed_vector_cache(settings: Settings) -> int:
    """Borrow the vectors the set-up catalog already computed: saves time only."""
    from db.catalog import Catalog

    catalog = Catalog(settings.catalog_path)
    try:
        return catalog.import_vectors(SEED_CATALOG)
    finally:
        catalog.close()


def build_index(data_dir: Path, corpus: Path = CORPUS) -> dict[str, Any]:
    """The shipped corpus (or another corpus folder) through the product's ingest, once."""
    from ingest.pipeline import ingest
    from retrieval.resources import Resources

    settings = bench_settings(data_dir)
    seeded = seed_vector_cache(settings)
    resources = Resources(settings)
    try:
        _ = resources.embedder.dimension  # load the model before timing
        started = time.perf_counter()
        report = ingest(
            [corpus],
            settings=settings,
            embedder=resources.embedder,
            catalog=resources.catalog,
            backend=resources.backend,
        )
        seconds = time.perf_counter() - started
    finally:
        resources.close()
    if report.failed:
        raise SystemExit(f"ingest failed for {report.failed}")
    return {
        "documents": len(report.added) + len(report.updated) + len(report.unchanged),
        "chunks": report.chunks_written,
        "embeddings_computed": report.embeddings_computed,
        "vectors_reused_from_data_catalog": seeded,
        "ingest_s": round(seconds, 1),
        "generation": report.generation,
    }


# ---------------------------------------------------------------- 1. nodes


def run_graph(graph: Any, question: Question) -> tuple[float, Any]:
    """(wall ms, the answer record) of one question through the graph."""
    from core.schemas import RunContext
    from graph.run import answer

    started = time.perf_counter()
    record = answer(graph, question.text, RunContext(collection=question.collection, generator="offline"))
    return (time.perf_counter() - started) * 1000, record


def bench_nodes(graph: Any, questions: list[Question]) -> dict[str, Any]:
    run_graph(graph, Question("warmup", WARMUP_QUESTION, "answerable"))  # model, web chain and answerer loaded
    rows = []
    for q in questions:
        wall_ms, out = run_graph(graph, q)
        rows.append(
            {
                "id": q.id,
                "kind": q.kind,
                "status": out.status,
                "route": out.route,
                "initial_route": out.initial_route,
                "e2e_ms": round(wall_ms, 2),
                "latency_ms": {node: ms for node, ms in out.latency_ms.items() if node != "total"},
                "web": [a.status for a in out.web_attempts],
                "citations": [c.citation for c in out.citations],
            }
        )
    names = [n for n in NODE_ORDER if any(n in r["latency_ms"] for r in rows)]
    names += sorted({n for r in rows for n in r["latency_ms"]} - set(names))
    overhead = [r["e2e_ms"] - sum(r["latency_ms"].values()) for r in rows]
    return {
        "questions": len(rows),
        "nodes": {n: stats_ms([r["latency_ms"][n] for r in rows if n in r["latency_ms"]]) for n in names},
        "end_to_end": {
            "all": stats_ms([r["e2e_ms"] for r in rows]),
            "answerable": stats_ms([r["e2e_ms"] for r in rows if r["kind"] == "answerable"]),
            "out_of_scope": stats_ms([r["e2e_ms"] for r in rows if r["kind"] == "out_of_scope"]),
        },
        "graph_overhead": stats_ms(overhead),
        "status": {
            kind: dict(Counter(r["status"] for r in rows if r["kind"] == kind))
            for kind in ("answerable", "out_of_scope")
        },
        "route": dict(Counter(r["route"] for r in rows)),
        "per_question": rows,
    }


# ---------------------------------------------------------------- 2. throughput


def run_level(
    call: Callable[[Question], Any], questions: list[Question], concurrency: int, total: int
) -> tuple[dict[str, Any], list[Any]]:
    jobs = [questions[i % len(questions)] for i in range(total)]

    def timed(q: Question) -> tuple[float, Any, str | None]:
        started = time.perf_counter()
        try:
            result, error = call(q), None
        except Exception as exc:  # counted, not raised: one failure must not end the benchmark
            result, error = None, f"{type(exc).__name__}: {exc}"
        return (time.perf_counter() - started) * 1000, result, error

    with ThreadPoolExecutor(max_workers=concurrency) as pool:
        started = time.perf_counter()
        done = list(pool.map(timed, jobs))
        wall = time.perf_counter() - started
    errors = [e for _, _, e in done if e]
    row = {
        "concurrency": concurrency,
        "requests": total,
        "wall_s": round(wall, 2),
        "qps": round(total / wall, 2),
        "latency": stats_ms([ms for ms, _, e in done if not e]),
        "errors": len(errors),
    }
    if errors:
        row["first_error"] = errors[0]
    return row, [r for _, r, e in done if not e]


def bench_throughput(
    services: Any, graph: Any, questions: list[Question], levels: list[int], retrieval_total: int, graph_total: int
) -> dict[str, Any]:
    retriever, k = services.resources.retriever, services.settings.top_k

    def retrieve(q: Question) -> Any:
        return retriever.retrieve(q.text, {"collection": q.collection} if q.collection else None, k)

    def whole_graph(q: Question) -> Any:
        return run_graph(graph, q)[1]

    retrieval, graph_rows = [], []
    for c in levels:
        row, _ = run_level(retrieve, questions, c, retrieval_total)
        retrieval.append(row)
        print(f"  retrieval c={c}: {row['qps']} q/s, p50 {row['latency'].get('p50_ms')} ms", flush=True)
    for c in levels:
        row, outs = run_level(whole_graph, questions, c, graph_total)
        row["web_attempts"] = dict(Counter(a.status for out in outs for a in out.web_attempts))
        row["status"] = dict(Counter(out.status for out in outs))
        graph_rows.append(row)
        print(
            f"  graph c={c}: {row['qps']} q/s, p50 {row['latency'].get('p50_ms')} ms, web {row['web_attempts']}",
            flush=True,
        )
    return {"retrieval": retrieval, "graph": graph_rows}


# ---------------------------------------------------------------- HTTP service


def service_env(data_dir: Path, models_dir: Path) -> dict[str, str]:
    """Offline and unthrottled: no keys or servers from the caller's environment, generous anonymous limits."""
    drop = ("POLICYRAG_", "GROQ_", "TAVILY_", "QDRANT_")
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    env.update(
        {
            "POLICYRAG_DATA_DIR": str(data_dir),
            "POLICYRAG_MODELS_DIR": str(models_dir),
            "POLICYRAG_WEB_PROVIDERS": '["secondary"]',
            "POLICYRAG_ANONYMOUS_CREDIT_CAPACITY": "1000000",
            "POLICYRAG_ANONYMOUS_CREDIT_REFILL_PER_S": "1000",
            "POLICYRAG_ANONYMOUS_RATE_PER_MINUTE": "1000000",
            "HF_HUB_OFFLINE": "1",
            "PYTHONPATH": os.pathsep.join([str(REPO_ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]),
        }
    )
    return env


class Service:
    """`python -m cli.main serve` as its own process (own session), stopped by its PID."""

    def __init__(self, env: dict[str, str], workdir: Path):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        # cwd is a scratch folder so that no .env of the repository is read by the service
        command = [sys.executable, "-m", "cli.main", "serve", "--host", "127.0.0.1", "--port", str(self.port)]
        self.launched = launch(command, env, workdir)

    def wait_ready(self) -> None:
        if not self.launched.ready.wait(START_TIMEOUT_S) or self.launched.process.poll() is not None:
            self.stop()
            raise RuntimeError("the service did not start:\n" + "".join(self.launched.lines[-30:]))

    def stop(self) -> None:
        stop(self.launched.process)


def post_query(client: Any, q: Question) -> tuple[float, dict[str, Any]]:
    started = time.perf_counter()
    reply = client.post("/query", json=q.query_body())
    ms = (time.perf_counter() - started) * 1000
    reply.raise_for_status()
    return ms, reply.json()


# ---------------------------------------------------------------- 3. semantic cache


def bench_cache(env: dict[str, str], workdir: Path, questions: list[Question]) -> dict[str, Any]:
    import httpx

    service = Service(env, workdir)
    try:
        service.wait_ready()
        with httpx.Client(base_url=service.url, timeout=300) as client:
            health = client.get("/health").json()
            post_query(client, Question("warmup", WARMUP_QUESTION, "answerable"))
            rows = []
            for q in questions:
                first_ms, first = post_query(client, q)
                second_ms, second = post_query(client, q)
                rows.append(
                    {
                        "id": q.id,
                        "kind": q.kind,
                        "status": first["status"],
                        "first": {
                            "client_ms": round(first_ms, 2),
                            "server_ms": first["latency_ms"]["total"],
                            "cache_hit": first["cache_hit"],
                        },
                        "second": {
                            "client_ms": round(second_ms, 2),
                            "server_ms": second["latency_ms"]["total"],
                            "cache_hit": second["cache_hit"],
                        },
                    }
                )
    finally:
        service.stop()
    hits = [r["second"] for r in rows if r["second"]["cache_hit"]]
    misses = [r["first"] for r in rows if not r["first"]["cache_hit"]]
    paired = [
        r["first"] for r in rows if r["second"]["cache_hit"] and not r["first"]["cache_hit"]
    ]  # same questions as the hits
    not_cached = [r for r in rows if not r["second"]["cache_hit"]]
    hit_p50, miss_p50 = (
        stats_ms([h["client_ms"] for h in hits]).get("p50_ms"),
        stats_ms([m["client_ms"] for m in paired]).get("p50_ms"),
    )
    return {
        "service": {
            "generator": health.get("generator"),
            "web_providers": health.get("web_providers"),
            "backend": health["index"].get("backend"),
            "cache_threshold": health["semantic_cache"]["threshold"],
        },
        "questions": len(rows),
        "hit": {"client": stats_ms([h["client_ms"] for h in hits]), "server": stats_ms([h["server_ms"] for h in hits])},
        "miss": {
            "client": stats_ms([m["client_ms"] for m in misses]),
            "server": stats_ms([m["server_ms"] for m in misses]),
        },
        "miss_of_cached_questions": {
            "client": stats_ms([m["client_ms"] for m in paired]),
            "server": stats_ms([m["server_ms"] for m in paired]),
        },
        "speedup_p50": round(miss_p50 / hit_p50, 1) if hit_p50 and miss_p50 else None,
        "note": "hit = second ask with cache_hit true; miss = every first ask without a hit (answered and refused); "
        "miss_of_cached_questions = the first asks of the questions that then hit (the like-for-like pair, used for "
        "speedup_p50); refusals are never cached, so their second ask runs the graph again; client = HTTP round "
        "trip on loopback, server = the reply's latency_ms.total",
        "first_ask_hits": sum(1 for r in rows if r["first"]["cache_hit"]),
        "second_ask_not_cached": {
            "count": len(not_cached),
            "status": dict(Counter(r["status"] for r in not_cached)),
            "client": stats_ms([r["second"]["client_ms"] for r in not_cached]),
        },
        "per_question": rows,
    }


# ---------------------------------------------------------------- 4. cold start


def cold_start_once(env: dict[str, str], workdir: Path) -> dict[str, Any]:
    import httpx

    service = Service(env, workdir)
    try:
        health_s = None
        with httpx.Client(base_url=service.url, timeout=300) as client:
            started = service.launched.started
            deadline = started + START_TIMEOUT_S
            while time.perf_counter() < deadline and service.launched.process.poll() is None:
                try:
                    health = client.get("/health", timeout=5)
                    if health.status_code == 200:
                        health_s = time.perf_counter() - started
                        model_loaded = health.json()["models"]["loaded"]
                        break
                except httpx.TransportError:
                    pass
                time.sleep(0.02)
            if health_s is None:
                raise RuntimeError("no /health reply:\n" + "".join(service.launched.lines[-30:]))
            reply = client.post("/query", json={"question": COLD_QUESTION})
            query_s = time.perf_counter() - started
            body = reply.json()
    finally:
        service.stop()
    return {
        "to_health_s": round(health_s, 2),
        "to_first_answer_s": round(query_s, 2),
        "listening_logged_s": round(ready_s, 2) if (ready_s := service.launched.ready_s) else None,
        "model_loaded_at_first_health": model_loaded,
        "http_status": reply.status_code,
        "answer_status": body.get("status"),
    }


def bench_cold_start(env: dict[str, str], workdir: Path, runs: int) -> dict[str, Any]:
    rows = []
    for i in range(runs):
        rows.append(cold_start_once(env, workdir))
        print(f"  cold start {i + 1}: {rows[-1]}", flush=True)
    median = lambda key: round(statistics.median(r[key] for r in rows), 2)  # noqa: E731
    return {
        "runs": rows,
        "median_to_health_s": median("to_health_s"),
        "median_to_first_answer_s": median("to_first_answer_s"),
        "note": "process start (Popen) to the first 200 from /health, and to the reply of the first /query; "
        "OS file cache warm",
    }


# ---------------------------------------------------------------- 5. scale


def bench_scale(edge_sizes: list[int], client_sizes: list[int], queries: int) -> dict[str, Any]:
    rows = []
    for backend, sizes in (("edge", edge_sizes), ("qdrant-client", client_sizes)):
        for size in sizes:
            with CpuMeter() as meter:
                row = store_in_subprocess(backend, size, queries)
            row = {
                "backend": backend,
                "chunks": size,
                "queries": queries,
                "upsert_s": row["upsert_s"],
                "upsert_chunks_per_s": row["upsert_chunks_per_s"],
                "hybrid": row["hybrid"],
                "retrieval_round_trip": row["retrieval_round_trip"],
                "peak_rss_mb": row["peak_rss_mb"],
                "other_processes_share": meter.result["other_processes_share"],
            }
            rows.append(row)
            print(
                f"  {backend} {size}: upsert {row['upsert_s']} s, hybrid p50 {row['hybrid']['p50_ms']} ms, "
                f"RSS {row['peak_rss_mb']} MB",
                flush=True,
            )
    return {
        "rows": rows,
        "method": "evals.bench_index.store_in_subprocess: one process per (backend, size), the product's store code, "
        "random unit dense and sentence vectors, real text payloads and BM25 sparse vectors; upsert_s covers "
        "writing the generation in 1,000-point batches, finishing and publishing it; hybrid = dense + sparse "
        "prefetch fused with RRF in one query; retrieval_round_trip = what retrieve() sends (dense, sparse, "
        "fused and sentence-reranked lists at once); peak_rss_mb = ru_maxrss of that process",
        "qdrant_client_note": "qdrant-client runs in local mode (QdrantClient(path=...), pure Python, no server); "
        f"it is measured at {', '.join(map(str, client_sizes))} chunks only: at 100,000 chunks local mode "
        "takes too long (a hybrid query already costs about 0.25 s at 10,000), and a real deployment would use "
        "a Qdrant server instead",
    }


# ---------------------------------------------------------------- plots


def plot(result: dict[str, Any], folder: Path) -> list[str]:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    folder.mkdir(parents=True, exist_ok=True)
    written = []

    def save(fig: Any, name: str) -> None:
        fig.tight_layout()
        fig.savefig(folder / name, dpi=120)
        plt.close(fig)
        written.append(
            str((folder / name).relative_to(REPO_ROOT)) if folder.is_relative_to(REPO_ROOT) else str(folder / name)
        )

    if "nodes" in result:
        nodes = result["nodes"]
        labels = [*nodes["nodes"], "end to end"]
        values = [*nodes["nodes"].values(), nodes["end_to_end"]["all"]]
        x = range(len(labels))
        fig, ax = plt.subplots(figsize=(9, 4.5))
        ax.bar([i - 0.2 for i in x], [v["p50_ms"] for v in values], width=0.4, label="p50")
        ax.bar([i + 0.2 for i in x], [v["p95_ms"] for v in values], width=0.4, label="p95")
        ax.set_xticks(list(x), [f"{label}\n(n={v['n']})" for label, v in zip(labels, values)], fontsize=8)
        ax.set_ylabel("ms")
        ax.set_title(f"Graph latency per node ({nodes['questions']} questions, offline answerer)")
        ax.legend()
        save(fig, "service_node_latency.png")

    if "throughput" in result:
        fig, axes = plt.subplots(1, 2, figsize=(10, 4))
        for ax, key, title in ((axes[0], "retrieval", "Retriever.retrieve"), (axes[1], "graph", "whole graph")):
            rows = result["throughput"][key]
            ax.plot([r["concurrency"] for r in rows], [r["qps"] for r in rows], marker="o")
            ax.set_xscale("log", base=2)
            ax.set_xticks([r["concurrency"] for r in rows], [str(r["concurrency"]) for r in rows])
            ax.set_xlabel("concurrent requests (threads)")
            ax.set_ylabel("questions / s")
            ax.set_ylim(bottom=0)
            ax.set_title(f"Throughput: {title}")
            ax.grid(alpha=0.3)
        save(fig, "service_throughput.png")

    if "cache" in result:
        cache = result["cache"]
        fig, ax = plt.subplots(figsize=(6, 4))
        groups = [
            ("miss, all", cache["miss"]["client"]),
            ("miss, later hit", cache["miss_of_cached_questions"]["client"]),
            ("hit", cache["hit"]["client"]),
        ]
        groups = [(name, s) for name, s in groups if s.get("n")]
        x = range(len(groups))
        ax.bar([i - 0.2 for i in x], [s["p50_ms"] for _, s in groups], width=0.4, label="p50")
        ax.bar([i + 0.2 for i in x], [s["p95_ms"] for _, s in groups], width=0.4, label="p95")
        ax.set_xticks(list(x), [f"{name} (n={s['n']})" for name, s in groups])
        ax.set_yscale("log")
        ax.set_ylabel("ms, client round trip (log)")
        ax.set_title("Semantic cache through HTTP /query")
        ax.legend()
        save(fig, "service_cache.png")

    if "scale" in result:
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for backend in ("edge", "qdrant-client"):
            rows = [r for r in result["scale"]["rows"] if r["backend"] == backend]
            if rows:
                line = ax.plot(
                    [r["chunks"] for r in rows],
                    [r["hybrid"]["p50_ms"] for r in rows],
                    marker="o",
                    label=f"{backend} p50",
                )
                ax.plot(
                    [r["chunks"] for r in rows],
                    [r["hybrid"]["p95_ms"] for r in rows],
                    marker="x",
                    linestyle="--",
                    color=line[0].get_color(),
                    alpha=0.6,
                    label=f"{backend} p95",
                )
        ax.set_xscale("log")
        ax.set_yscale("log")
        ax.set_xlabel("chunks in the index (log)")
        ax.set_ylabel("hybrid query latency, ms (log)")
        ax.set_title("Hybrid (RRF) query latency vs index size")
        ax.grid(alpha=0.3, which="both")
        ax.legend()
        save(fig, "service_scale.png")
    return written


# ---------------------------------------------------------------- main


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="small counts and scale at 1k/10k only")
    parser.add_argument("--answerable", type=int, help="answerable questions (retrieval goldens)")
    parser.add_argument("--out-of-scope", type=int, help="out-of-scope questions (scope goldens with in_scope false)")
    parser.add_argument("--levels", type=int, nargs="+", help="concurrency levels")
    parser.add_argument("--retrieval-total", type=int, help="retrievals per concurrency level")
    parser.add_argument("--graph-total", type=int, help="graph runs per concurrency level")
    parser.add_argument("--cold-runs", type=int, help="cold starts of the service (median reported)")
    parser.add_argument("--edge-sizes", type=int, nargs="*", help="Qdrant Edge index sizes (chunks)")
    parser.add_argument("--client-sizes", type=int, nargs="*", help="qdrant-client local-mode index sizes (chunks)")
    parser.add_argument("--scale-queries", type=int, help="queries per (backend, size)")
    parser.add_argument(
        "--skip", nargs="*", default=[], choices=["nodes", "throughput", "cache", "cold_start", "scale"]
    )
    parser.add_argument(
        "--out", type=Path, default=RESULTS_DIR, help="folder for bench_service.json and plots/ (default evals/results)"
    )
    args = parser.parse_args(argv)
    config: dict[str, Any] = dict(QUICK if args.quick else FULL)
    for key in config:
        if getattr(args, key, None) is not None:
            config[key] = getattr(args, key)
    out_json, plots = args.out / "bench_service.json", args.out / "plots"
    args.out.mkdir(parents=True, exist_ok=True)

    result: dict[str, Any] = {
        "command": " ".join(["python -m evals.bench_service", *(sys.argv[1:] if argv is None else argv)]),
        "python_executable": sys.executable,
        "started_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "mode": "quick" if args.quick else "full",
        "complete": False,
        "machine": machine_info(),
        "config": config,
        "cpu": {},
    }

    def write() -> None:
        out_json.write_text(json.dumps(result, indent=2, default=str) + "\n", encoding="utf-8")

    questions = load_questions(config["answerable"], config["out_of_scope"])
    result["questions"] = [
        {"id": q.id, "kind": q.kind, "collection": q.collection, "question": q.text} for q in questions
    ]
    tmp = Path(tempfile.mkdtemp(prefix="bench-service-"))
    try:
        data_dir, workdir = tmp / "data", tmp / "work"
        workdir.mkdir()
        print(f"index of {CORPUS} in {data_dir} ...", flush=True)
        with CpuMeter() as meter:
            result["index"] = build_index(data_dir)
        result["cpu"]["index"] = meter.result
        print(f"  {result['index']}", flush=True)
        write()

        if {"nodes", "throughput"} - set(args.skip):
            from graph.crag import build_graph
            from retrieval.services import Services

            # the web cache is off in process so that every run does the fallback's real work (questions repeat below)
            settings = bench_settings(data_dir, web_cache_ttl_s=0)
            services = Services(settings)
            graph = build_graph(services)
            result["graph_settings"] = {
                "web_providers": settings.web_providers,
                "web_cache_ttl_s": settings.web_cache_ttl_s,
                "web_timeout_s": settings.web_timeout_s,
                "generator": "offline",
                "top_k": settings.top_k,
                "correct_threshold": settings.correct_threshold,
                "incorrect_threshold": settings.incorrect_threshold,
                "embedding_variant": settings.embedding_variant,
            }
            try:
                if "nodes" not in args.skip:
                    print(f"nodes: {len(questions)} questions ...", flush=True)
                    with CpuMeter() as meter:
                        result["nodes"] = bench_nodes(graph, questions)
                    result["cpu"]["nodes"] = meter.result
                    print(f"  end to end {result['nodes']['end_to_end']['all']}", flush=True)
                    write()
                if "throughput" not in args.skip:
                    print(f"throughput at {config['levels']} ...", flush=True)
                    if "nodes" in args.skip:
                        run_graph(graph, Question("warmup", WARMUP_QUESTION, "answerable"))
                    with CpuMeter() as meter:
                        result["throughput"] = bench_throughput(
                            services,
                            graph,
                            questions,
                            config["levels"],
                            config["retrieval_total"],
                            config["graph_total"],
                        )
                    result["cpu"]["throughput"] = meter.result
                    result["throughput"]["note"] = (
                        "thread pool in one process, the same requests at every level; "
                        "the embedder runs one ONNX session behind a lock, so embedding is serialised across threads"
                        + (
                            "; measured on a busy machine, where more threads also win a larger share of the CPU "
                            "from other processes, which flatters the higher levels"
                            if meter.result["noisy"]
                            else ""
                        )
                    )
                    write()
            finally:
                services.close()

        env = service_env(data_dir, Settings().models_dir)
        if "cache" not in args.skip:
            print("semantic cache through the HTTP service ...", flush=True)
            with CpuMeter() as meter:
                result["cache"] = bench_cache(env, workdir, questions)
            result["cpu"]["cache"] = meter.result
            print(f"  hit {result['cache']['hit']['client']}  miss {result['cache']['miss']['client']}", flush=True)
            write()
        if "cold_start" not in args.skip:
            print(f"cold start x{config['cold_runs']} ...", flush=True)
            with CpuMeter() as meter:
                result["cold_start"] = bench_cold_start(env, workdir, config["cold_runs"])
            result["cpu"]["cold_start"] = meter.result
            write()
    finally:
        shutil.rmtree(tmp, ignore_errors=True)

    if "scale" not in args.skip:
        print("scale ...", flush=True)
        with CpuMeter() as meter:
            result["scale"] = bench_scale(config["edge_sizes"], config["client_sizes"], config["scale_queries"])
        result["cpu"]["scale"] = meter.result
        write()

    noisy = [name for name, m in result["cpu"].items() if m["noisy"]]
    result["contention"] = (
        f"other processes used more than {NOISY_SHARE:.0%} of the machine during: {', '.join(noisy)}; "
        "those figures are slower and noisier than on an idle machine"
        if noisy
        else f"other processes used under {NOISY_SHARE:.0%} of the machine in every section"
    )
    result["plots"] = plot(result, plots)
    result["complete"] = True
    write()
    print(f"wrote {out_json} and {len(result['plots'])} plots; {result['contention']}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
