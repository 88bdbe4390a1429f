"""Benchmark of the local all-MiniLM-L6-v2 variants ("int8", "optimized"); picks the default.

    python -m evals.bench_embedder [--chunks 1000] [--queries 200] [--retrieval-queries 50]

For each variant: cold build time (into a temporary models folder), time of the intact re-check,
embedding throughput (batch 64, chunks of ~300 words), single-query latency (p50/p95), agreement
with the plain-numpy fp32 reference (mean/min cosine on the chunks and on the short queries),
the sanity pair, and retrieval agreement (top-5 overlap with the reference's top 5 over the chunks).
Text: GDPR and EHDS paragraphs from /work/shared/corpora, else the repository's corpus/ folder.
Writes evals/results/bench_embedder.json and prints a table.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import tempfile
import time
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")  # a mistake must fail fast, not wait for a hub

import numpy as np

from core.settings import REPO_ROOT, Settings
from modelprep.model_files import (
    MAX_SEQ_LENGTH,
    MODEL_NAME,
    VARIANTS,
    ModelSources,
    build_model_folder,
    reference_embeddings,
    sanity_check,
)

SHARED = Path("/work/shared/corpora")
SHARED_FILES = [SHARED / "gdpr/gdpr_2016_679_paragraphs.jsonl", SHARED / "ehds/ehds_2025_327_paragraphs.jsonl"]
RESULTS = REPO_ROOT / "evals/results/bench_embedder.json"
CHUNK_WORDS, BATCH, MIN_AGREEMENT, TOP_K = 300, 64, 0.98, 5

QUESTIONS = [
    "How long does a controller have to notify a personal data breach?",
    "When must a data protection officer be designated?",
    "What is the right to erasure?",
    "Can a patient restrict access to their electronic health data?",
    "Which conditions make consent valid?",
    "What does a data protection impact assessment contain?",
    "Transfers of personal data to third countries",
    "Who may access electronic health data for secondary use?",
    "What are the fines for infringements of the regulation?",
    "Processing of data concerning health for scientific research",
    "What information must be given to the data subject?",
    "Obligations of processors towards controllers",
    "What is a health data access body?",
    "Right to data portability",
    "European electronic health record exchange format",
    "Records of processing activities",
    "Children's consent for information society services",
    "Security of processing and encryption",
    "What is pseudonymisation?",
    "Cross-border exchange of patient summaries and ePrescriptions",
    "Supervisory authority powers and tasks",
    "Data minimisation and purpose limitation principles",
    "Fees charged for making health data available",
    "Secure processing environments for health data",
    "Automated decision-making and profiling",
]


def load_paragraphs() -> tuple[list[str], str]:
    if all(f.exists() for f in SHARED_FILES):
        rows = [json.loads(line) for f in SHARED_FILES for line in f.open(encoding="utf-8")]
        return [r["text"] for r in rows if r.get("text")], "GDPR + EHDS paragraphs (/work/shared/corpora)"
    texts = []
    for path in sorted((REPO_ROOT / "corpus").rglob("*")):
        if path.suffix in {".txt", ".md"} and path.is_file():
            texts += [p for p in re.split(r"\n\s*\n", path.read_text(encoding="utf-8")) if len(p.split()) > 5]
    if not texts:
        raise SystemExit("no text found: neither /work/shared/corpora nor corpus/ holds any")
    return texts, "synthetic: paragraphs of the repository's corpus/ folder"


def make_chunks(paragraphs: list[str], n: int, seed: int = 7) -> list[str]:
    """~300-word chunks of consecutive paragraphs; later passes reshuffle the paragraphs."""
    rng, order = random.Random(seed), list(paragraphs)
    chunks: list[str] = []
    words: list[str] = []
    while len(chunks) < n:
        for text in order:
            words += text.split()
            if len(words) >= CHUNK_WORDS:
                chunks.append(" ".join(words[:CHUNK_WORDS]))
                words = []
                if len(chunks) == n:
                    break
        rng.shuffle(order)
    return chunks


def make_queries(paragraphs: list[str], n: int, seed: int = 11) -> list[str]:
    """Hand-written questions, then 6-12 word fragments of the paragraphs."""
    rng, queries = random.Random(seed), list(QUESTIONS[:n])
    while len(queries) < n:
        words = rng.choice(paragraphs).split()
        size = rng.randint(6, 12)
        if len(words) > size:
            start = rng.randrange(len(words) - size)
            queries.append(" ".join(words[start : start + size]))
    return queries


def cosines(a: np.ndarray, b: np.ndarray) -> np.ndarray:
    return np.sum(a * b, axis=1) / (np.linalg.norm(a, axis=1) * np.linalg.norm(b, axis=1))


def top_k(queries: np.ndarray, chunks: np.ndarray, k: int = TOP_K) -> np.ndarray:
    return np.argsort(-(queries @ chunks.T), axis=1, kind="stable")[:, :k]


def bench_variant(
    variant: str,
    models_dir: Path,
    sources: ModelSources,
    chunks: list[str],
    queries: list[str],
    retrieval_queries: list[str],
    ref: dict[str, np.ndarray],
) -> dict:
    from fastembed import TextEmbedding

    t0 = time.perf_counter()
    folder = build_model_folder(models_dir, variant, sources)
    build_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    build_model_folder(models_dir, variant, sources)
    recheck_s = time.perf_counter() - t0

    t0 = time.perf_counter()
    model = TextEmbedding(MODEL_NAME, specific_model_path=str(folder))
    load_s = time.perf_counter() - t0

    def embed(texts: list[str]) -> np.ndarray:
        return np.asarray(list(model.embed(texts, batch_size=BATCH)), dtype=np.float32)

    embed(chunks[:BATCH])  # warm-up
    t0, c0 = time.perf_counter(), time.process_time()
    chunk_vecs = embed(chunks)
    embed_s, embed_cpu_s = time.perf_counter() - t0, time.process_time() - c0

    for q in queries[:10]:  # warm-up
        list(model.query_embed(q))
    latencies = []
    for q in queries:
        t1 = time.perf_counter()
        list(model.query_embed(q))
        latencies.append((time.perf_counter() - t1) * 1000)

    query_vecs = embed(queries)
    chunk_cos, query_cos = cosines(chunk_vecs, ref["chunks"]), cosines(query_vecs, ref["queries"])
    rq = embed(retrieval_queries)
    mine, theirs = top_k(rq, chunk_vecs), top_k(ref["retrieval_queries"], ref["chunks"])
    overlap = [len(set(a) & set(b)) / TOP_K for a, b in zip(mine, theirs)]
    # Does a disagreement matter? The reference similarity given up by taking this variant's top 5
    # instead of the reference's own (0 when equal; tiny when only near-ties swap places).
    ref_scores = ref["retrieval_queries"] @ ref["chunks"].T
    loss = [(ref_scores[i, theirs[i]].sum() - ref_scores[i, mine[i]].sum()) / TOP_K for i in range(len(mine))]
    similar, unrelated = sanity_check(embed)
    return {
        "folder_files": sorted(p.name for p in folder.iterdir()),
        "model_onnx_bytes": (folder / "model.onnx").stat().st_size,
        "build_seconds": round(build_s, 2),
        "recheck_seconds": round(recheck_s, 3),
        "load_seconds": round(load_s, 2),
        "embed_seconds": round(embed_s, 2),
        "embed_cpu_seconds": round(embed_cpu_s, 2),
        "chunks_per_second": round(len(chunks) / embed_s, 2),
        "query_latency_ms": {
            "p50": round(float(np.percentile(latencies, 50)), 2),
            "p95": round(float(np.percentile(latencies, 95)), 2),
        },
        "agreement_chunks": {"mean": round(float(chunk_cos.mean()), 5), "min": round(float(chunk_cos.min()), 5)},
        "agreement_queries": {"mean": round(float(query_cos.mean()), 5), "min": round(float(query_cos.min()), 5)},
        "retrieval_top5_overlap": round(float(np.mean(overlap)), 4),
        "retrieval_top1_same": round(float(np.mean(mine[:, 0] == theirs[:, 0])), 4),
        "retrieval_top5_reference_score_loss": {
            "mean": round(float(np.mean(loss)), 5),
            "max": round(float(np.max(loss)), 5),
        },
        "sanity_pair": {"similar": round(similar, 4), "unrelated": round(unrelated, 4)},
    }


def choose(results: dict[str, dict]) -> tuple[str, str]:
    def agreement(r):
        return min(r["agreement_chunks"]["mean"], r["agreement_queries"]["mean"])

    eligible = [v for v, r in results.items() if agreement(r) >= MIN_AGREEMENT]
    if not eligible:
        best = max(results, key=lambda v: agreement(results[v]))
        return best, f"no variant reaches mean agreement {MIN_AGREEMENT}; {best} agrees best"
    best = max(eligible, key=lambda v: results[v]["chunks_per_second"])
    others = ", ".join(
        f"{v} {results[v]['chunks_per_second']} chunks/s, agreement {agreement(results[v]):.4f}"
        for v in results
        if v != best
    )
    r = results[best]
    return best, (
        f"fastest variant with mean agreement >= {MIN_AGREEMENT}: {best} {r['chunks_per_second']} chunks/s, "
        f"p50 {r['query_latency_ms']['p50']} ms, agreement {agreement(r):.4f} (vs {others})"
    )


def machine_info() -> dict:
    import fastembed
    import onnxruntime

    cpu = (
        next(
            (
                line.split(":", 1)[1].strip()
                for line in Path("/proc/cpuinfo").read_text().splitlines()
                if line.startswith("model name")
            ),
            platform.processor(),
        )
        if Path("/proc/cpuinfo").exists()
        else platform.processor()
    )
    return {
        "cores": os.cpu_count(),
        "cpu": cpu,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "onnxruntime": onnxruntime.__version__,
        "fastembed": fastembed.__version__,
        "numpy": np.__version__,
        "onnxruntime_threads": "default (one per core)",
    }


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--chunks", type=int, default=1000)
    parser.add_argument("--queries", type=int, default=200, help="short queries for latency and agreement")
    parser.add_argument("--retrieval-queries", type=int, default=50)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)

    paragraphs, text_source = load_paragraphs()
    chunks = make_chunks(paragraphs, args.chunks)
    queries = make_queries(paragraphs, args.queries)
    retrieval_queries = make_queries(paragraphs, args.retrieval_queries, seed=23)
    sources = ModelSources.installed()

    from tokenizers import Tokenizer  # token counts before truncation, to report how much is cut

    tokenizer = Tokenizer.from_file(str(sources.original_dir / "tokenizer.json"))
    tokenizer.no_truncation()
    lengths = [len(e.ids) for e in tokenizer.encode_batch(chunks)]

    print(
        f"{len(chunks)} chunks of {CHUNK_WORDS} words ({text_source}); reference forward pass in numpy...", flush=True
    )
    t0 = time.perf_counter()
    ref = {
        "chunks": reference_embeddings(chunks, sources.original_dir),
        "queries": reference_embeddings(queries, sources.original_dir),
        "retrieval_queries": reference_embeddings(retrieval_queries, sources.original_dir),
    }
    ref_s = time.perf_counter() - t0
    ref_similar, ref_unrelated = sanity_check(lambda t: reference_embeddings(t, sources.original_dir))

    results = {}
    with tempfile.TemporaryDirectory(prefix="bench-embedder-") as tmp:
        for variant in VARIANTS:
            print(f"benchmarking {variant}...", flush=True)
            results[variant] = bench_variant(variant, Path(tmp), sources, chunks, queries, retrieval_queries, ref)
    chosen, reason = choose(results)

    report = {
        "model": MODEL_NAME,
        "machine": machine_info(),
        "settings_default": Settings.model_fields["embedding_variant"].default,
        "workload": {
            "chunks": len(chunks),
            "chunk_words": CHUNK_WORDS,
            "text": text_source,
            "batch_size": BATCH,
            "latency_queries": len(queries),
            "retrieval_queries": len(retrieval_queries),
            "top_k": TOP_K,
            "chunk_tokens_mean": round(float(np.mean(lengths)), 1),
            "chunks_truncated_at_256_tokens": round(float(np.mean(np.array(lengths) > MAX_SEQ_LENGTH)), 3),
        },
        "reference": {
            "what": "numpy fp32 forward pass of model.safetensors, mean pooling, L2 norm",
            "seconds": round(ref_s, 1),
            "sanity_pair": {"similar": round(ref_similar, 4), "unrelated": round(ref_unrelated, 4)},
        },
        "variants": results,
        "chosen": chosen,
        "reason": reason,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n")

    head = (
        f"{'variant':<10} {'build s':>7} {'chunks/s':>8} {'p50 ms':>6} {'p95 ms':>6} {'agree mean/min (chunks)':>24} "
        f"{'agree mean/min (queries)':>25} {'top5':>5} {'loss':>6} {'sanity':>10}"
    )
    print(head)
    for v, r in results.items():
        print(
            f"{v:<10} {r['build_seconds']:>7} {r['chunks_per_second']:>8} {r['query_latency_ms']['p50']:>6} "
            f"{r['query_latency_ms']['p95']:>6} "
            f"{r['agreement_chunks']['mean']:>12.4f}/{r['agreement_chunks']['min']:.4f} "
            f"{r['agreement_queries']['mean']:>13.4f}/{r['agreement_queries']['min']:.4f} "
            f"{r['retrieval_top5_overlap']:>5.2f} {r['retrieval_top5_reference_score_loss']['mean']:>6.4f} "
            f"{r['sanity_pair']['similar']:>5.2f}/{r['sanity_pair']['unrelated']:.2f}"
        )
    print("top5 = mean overlap with the reference's top 5 over the chunks; loss = mean reference cosine given up by it")
    print(f"chosen: {chosen} - {reason}")
    print(
        f"machine: {report['machine']['cores']} cores, {report['machine']['cpu']}, "
        f"onnxruntime {report['machine']['onnxruntime']}"
    )
    print(f"written to {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
