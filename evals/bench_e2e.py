"""End-to-end latency at scale (issue 16: p50 <= 60 ms at 50,000 chunks): the whole graph, offline answerer, over
the shipped corpus plus filler chunks up to N, on the questions of bench_service's nodes section.

    python -m evals.bench_e2e [--sizes 0 10000 50000] [--serve-runs 3]

Writes evals/results/bench_e2e.json. Each size runs two processes, so each peak RSS is its own:
- build: the shipped corpus through the product's ingest with the real model (bench_service.build_index), then
  filler documents through the same ingest, which rebuilds one generation holding both. Filler is real GDPR and
  EHDS paragraphs (bench_index.real_texts, those that make one chunk each, repeated as often as it takes) in
  JSONL documents of FILLER_ROWS paragraphs, spread over the collections in the shipped corpus's own proportions,
  every fourth document a commentary (its citations followed, as a commentary's are). So a filler chunk has
  what a real one has: a payload, a BM25 sparse vector, a vector per sentence and per statement.
- serve: the graph over that index, as bench_service's nodes section (per node and end to end, p50 / p95); run
  again, up to --serve-runs times, while other processes take over 10% of the machine, the quietest run kept.

What filler lacks: model vectors. Its dense, sentence and statement vectors are random unit vectors (embedding
50,000 chunks with the model would take hours on 2 cores), near no question: filler is found by its words
(sparse), never by its meaning, and grades low. Its texts also repeat (about 1,050 paragraphs for 49,000
chunks; each copy has its own title, so its own dense vector). Size 0, or any size under the corpus's own, is
the shipped corpus alone: the reference measured in the same run.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, cast

import numpy as np

from core.settings import REPO_ROOT
from evals.bench_index import RandomQueryEmbedder, peak_rss_mb, real_texts
from evals.bench_service import (
    CORPUS,
    FULL,
    NOISY_SHARE,
    CpuMeter,
    Question,
    bench_nodes,
    bench_settings,
    build_index,
    load_questions,
    machine_info,
)

RESULTS = REPO_ROOT / "evals" / "results" / "bench_e2e.json"
FILLER_ROWS = 50  # paragraphs per filler document
FILLER_NOTE = (
    "filler chunks: real GDPR and EHDS paragraphs (repeated to reach the size) ingested by the product's own "
    "pipeline with payloads, BM25 sparse vectors and per-sentence and per-statement multivectors, but random unit "
    "vectors in place of model embeddings (dense, sentences, statements): found by their words only, never by "
    "their meaning; the shipped corpus's chunks have real model vectors"
)


class RandomDocumentEmbedder(RandomQueryEmbedder):
    """Random unit vectors for the filler's ingest, under the real model's id: the corpus's cached model vectors are
    the ones its chunks keep, and the generation is published as the real model's."""

    def __init__(self, rng: np.random.Generator, dimension: int, model_id: str):
        super().__init__(rng, dimension)
        self.model_id = model_id

    def embed_documents(self, texts: list[str]) -> np.ndarray:
        vectors = self.rng.normal(size=(len(texts), self.dimension)).astype(np.float32)
        return vectors / np.linalg.norm(vectors, axis=1, keepdims=True)


def filler_texts(count: int, max_words: int, overlap_words: int) -> list[str]:
    """count real paragraphs that the product's splitter keeps whole, so each filler row is exactly one chunk."""
    from ingest.chunking import split_text

    whole = [t for t in dict.fromkeys(real_texts(count)) if len(split_text(t, max_words, overlap_words)) == 1]
    return [whole[i % len(whole)] for i in range(count)]


def shares(count: int, by_collection: dict[str, int]) -> dict[str, int]:
    """count split over the collections in proportion to their chunks (largest remainder, so it adds up)."""
    total = sum(by_collection.values())
    exact = {name: count * n / total for name, n in by_collection.items()}
    split = {name: int(x) for name, x in exact.items()}
    for name in sorted(exact, key=lambda n: split[n] - exact[n])[: count - sum(split.values())]:
        split[name] += 1
    return split


def write_filler_document(folder: Path, number: int, rows: list[str]) -> None:
    """One JSONL document of paragraphs and its sidecar: a commentary every fourth document, else a provision."""
    from ingest.sidecar import sha256_bytes

    name = f"filler_{number:05d}"
    data = "".join(
        json.dumps({"text": t, "citation": f"Filler {number} para {i + 1}"}) + "\n" for i, t in enumerate(rows)
    )
    (folder / f"{name}.jsonl").write_text(data, encoding="utf-8")
    commentary = number % 4 == 3
    sidecar = {
        "title": f"Filler document {number}",
        "publisher": "bench_e2e",
        "jurisdiction": "EU",
        "document_type": "commentary" if commentary else "primary_law",
        "version": "1",
        "effective_from": "2020-01-01",
        "citation": f"Filler {number}",
        "content_hash": sha256_bytes(data.encode("utf-8")),
        "hierarchy_rank": 4 if commentary else 1,
    }
    (folder / f"{name}.meta.json").write_text(json.dumps(sidecar), encoding="utf-8")


def write_filler(root: Path, texts: list[str], per_collection: dict[str, int]) -> None:
    """The filler texts as documents under root/COLLECTION/, as ingest reads a corpus folder."""
    number, start = 0, 0
    for collection, count in per_collection.items():
        folder = root / collection
        folder.mkdir(parents=True, exist_ok=True)
        for offset in range(0, count, FILLER_ROWS):
            write_filler_document(folder, number, texts[start + offset : start + min(count, offset + FILLER_ROWS)])
            number += 1
        start += count


def chunk_counts(data_dir: Path) -> dict[str, int]:
    """Chunks per collection in the published generation, as a reader sees it."""
    from retrieval.resources import Resources

    resources = Resources(bench_settings(data_dir))
    try:
        return resources.reader.store().counts_by("collection")
    finally:
        resources.close()


def ingest_filler(data_dir: Path, count: int) -> dict[str, Any]:
    """count filler chunks through the product's ingest beside what data_dir already holds, in one generation."""
    from ingest.pipeline import ingest
    from retrieval.embedder import Embedder
    from retrieval.resources import Resources

    settings = bench_settings(data_dir)
    per_collection = shares(count, chunk_counts(data_dir))
    root = data_dir.parent / "filler"
    started = time.perf_counter()
    write_filler(root, filler_texts(count, settings.chunk_words, settings.chunk_overlap_words), per_collection)
    written_s = time.perf_counter() - started
    resources = Resources(settings)
    try:
        model = resources.embedder
        stand_in = RandomDocumentEmbedder(np.random.default_rng(7), model.dimension, model.model_id)
        report = ingest(
            [root],
            settings=settings,
            embedder=cast(Embedder, stand_in),
            catalog=resources.catalog,
            backend=resources.backend,
        )
    finally:
        resources.close()
    if report.failed:
        raise SystemExit(f"filler ingest failed for {report.failed[:3]}")
    return {
        "chunks": report.chunks_written,
        "documents": len(report.added),
        "collections": per_collection,
        "random_vectors": report.embeddings_computed,
        "write_files_s": round(written_s, 1),
        "ingest_s": round(report.seconds, 1),
    }


def build(data_dir: Path, size: int, corpus: Path = CORPUS) -> dict[str, Any]:
    """The corpus (real model vectors), then filler up to size chunks; what each step took."""
    started = time.perf_counter()
    row: dict[str, Any] = {"corpus": build_index(data_dir, corpus)}
    filler = size - row["corpus"]["chunks"]
    if filler > 0:
        row["filler"] = ingest_filler(data_dir, filler)
    row["build_s"] = round(time.perf_counter() - started, 1)
    row["chunks_by_collection"] = chunk_counts(data_dir)
    row["chunks"] = sum(row["chunks_by_collection"].values())
    row["peak_rss_mb"] = peak_rss_mb()
    return row


def nodes_questions() -> list[Question]:
    """The questions of a full bench_service run's nodes section."""
    return load_questions(cast(int, FULL["answerable"]), cast(int, FULL["out_of_scope"]))


def serve(data_dir: Path, questions: list[Question]) -> dict[str, Any]:
    """The graph over the built index, question by question (bench_service's nodes section)."""
    from graph.crag import build_graph
    from retrieval.services import Services

    services = Services(bench_settings(data_dir, web_cache_ttl_s=0))  # as bench_service: every fallback does its work
    try:
        nodes = bench_nodes(build_graph(services), questions)
    finally:
        services.close()
    return {**nodes, "peak_rss_mb": peak_rss_mb()}


def in_child(*args: str) -> dict[str, Any]:
    """One step in a fresh interpreter (its own peak RSS); its last line of output is the result."""
    out = subprocess.run(
        [sys.executable, "-m", "evals.bench_e2e", *args], capture_output=True, text=True, check=True, cwd=REPO_ROOT
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def quietest_serve(data_dir: Path, runs: int) -> tuple[dict[str, Any], dict[str, Any], list[dict[str, Any]]]:
    """Serve the same index up to `runs` times, stopping at the first run on a quiet machine, and keep the run that
    had the smallest share of other processes' CPU: on this shared machine the short serve step (seconds, after a
    build of minutes) is the one another engineer's benchmark spoils. Every run's p50 and share is reported."""
    attempts = []
    for _ in range(runs):
        with CpuMeter() as meter:
            served = in_child("--serve", str(data_dir))
        attempts.append((served, meter.result))
        if not meter.result["noisy"]:
            break
    served, cpu = min(attempts, key=lambda a: cast(float, a[1]["other_processes_share"]))
    summary = [
        {"p50_ms": s["end_to_end"]["all"]["p50_ms"], "other_processes_share": m["other_processes_share"]}
        for s, m in attempts
    ]
    return served, cpu, summary


def measure(size: int, serve_runs: int) -> dict[str, Any]:
    """Build and serve one size in a temporary data folder, each step with other processes' CPU share."""
    tmp = Path(tempfile.mkdtemp(prefix="bench-e2e-"))
    try:
        data_dir = tmp / "data"
        with CpuMeter() as build_cpu:
            built = in_child("--build", str(data_dir), str(size))
        served, serve_cpu, attempts = quietest_serve(data_dir, serve_runs)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return {
        "size": size,
        "chunks": built["chunks"],
        "build": built,
        "end_to_end": served["end_to_end"],
        "nodes": served["nodes"],
        "graph_overhead": served["graph_overhead"],
        "status": served["status"],
        "route": served["route"],
        "serve_peak_rss_mb": served["peak_rss_mb"],
        "cpu": {"build": build_cpu.result, "serve": serve_cpu},
        "serve_attempts": attempts,
        "per_question": served["per_question"],
    }


def outcome(question: dict[str, Any]) -> tuple[Any, ...]:
    """What a question's run came to: its status, route and the citations of its answer."""
    return question["status"], question["route"], question["citations"]


def changed_from(reference: dict[str, Any], row: dict[str, Any]) -> list[str]:
    """Questions whose outcome differs from the first row's (the corpus alone): filler changed their work."""
    before = {q["id"]: outcome(q) for q in reference["per_question"]}
    return [q["id"] for q in row["per_question"] if before.get(q["id"]) != outcome(q)]


def citing_filler(row: dict[str, Any]) -> list[str]:
    """Questions answered from a filler chunk (which has no meaningful vectors, so this should be rare)."""
    return [q["id"] for q in row["per_question"] if any(c.startswith("Filler ") for c in q["citations"])]


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[0, 10000, 50000], help="chunks in the index")
    parser.add_argument("--serve-runs", type=int, default=3, help="serve attempts per size on a busy machine")
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--build", nargs=2, metavar=("DATA_DIR", "SIZE"), help=argparse.SUPPRESS)
    parser.add_argument("--serve", metavar="DATA_DIR", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.build:
        print(json.dumps(build(Path(args.build[0]), int(args.build[1]))))
        return 0
    if args.serve:
        print(json.dumps(serve(Path(args.serve), nodes_questions()), default=str))
        return 0
    result: dict[str, Any] = {
        "command": " ".join(["python -m evals.bench_e2e", *sys.argv[1:]]),
        "started_at": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
        "machine": machine_info(),
        "questions": len(nodes_questions()),
        "filler": FILLER_NOTE,
        "rows": [],
    }
    for size in args.sizes:
        print(f"size {size} ...", flush=True)
        row = measure(size, args.serve_runs)
        row["citing_filler"] = citing_filler(row)
        if result["rows"]:
            row["changed_from_first_row"] = changed_from(result["rows"][0], row)
        result["rows"].append(row)
        print(
            f"  {row['chunks']} chunks: end to end {row['end_to_end']['all']}, build {row['build']['build_s']} s, "
            f"serve RSS {row['serve_peak_rss_mb']} MB, other processes {row['cpu']['serve']['other_processes_share']}",
            flush=True,
        )
        args.out.write_text(json.dumps(result, indent=2, default=str) + "\n", encoding="utf-8")
    noisy = [str(r["size"]) for r in result["rows"] if any(m["noisy"] for m in r["cpu"].values())]
    result["contention"] = (
        f"other processes used more than {NOISY_SHARE:.0%} of the machine at sizes {', '.join(noisy)}"
        if noisy
        else f"other processes used under {NOISY_SHARE:.0%} of the machine throughout"
    )
    args.out.write_text(json.dumps(result, indent=2, default=str) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
