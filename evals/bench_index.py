"""Index benchmark: ingest throughput, query latency by mode and scale, embedding latency, peak RSS.

    python -m evals.bench_index [--sizes 1000 10000 50000] [--queries 100]

Writes evals/results/bench_index.json. Two parts:
- real model: ingest throughput (chunks/s, sentence vectors included) and per-query embedding
  latency on real legal text (../shared corpora if present, else the shipped corpus);
- store scale: each (backend, size) runs in its own process (so peak RSS is its own) with the same
  store code the product uses, real text payloads and sparse vectors, and random unit vectors in
  place of model embeddings (embedding 50,000 chunks would take over an hour on 2 cores and says
  nothing about the store). `retrieval_pool` times the product's Retriever.retrieve for the graph's
  candidate pool (Settings.candidate_pool) with citation following: every fourth chunk is a commentary
  naming other chunks' references, so following runs a second search whenever one is among the best.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, cast

import numpy as np

from core.settings import REPO_ROOT, Settings

RESULTS = REPO_ROOT / "evals" / "results" / "bench_index.json"
SHARED = REPO_ROOT.parent / "shared" / "corpora"
QUERIES = [
    "How long does a controller have to notify a personal data breach?",
    "explicit consent special categories",
    "data protection impact assessment required",
    "right to erasure exceptions public health",
    "health data access body tasks",
    "cataract limit per eye",
    "room rent limit per day",
    "pre-existing disease waiting period",
    "What does Article 9(2)(h) allow?",
    "secondary use prohibited purposes insurance",
]


def real_texts(limit: int) -> list[str]:
    """Paragraph-sized real texts: the official GDPR and EHDS paragraphs, else the shipped corpus."""
    texts: list[str] = []
    for name in ("gdpr/gdpr_2016_679_paragraphs.jsonl", "ehds/ehds_2025_327_paragraphs.jsonl"):
        path = SHARED / name
        if path.exists():
            texts += [json.loads(line)["text"] for line in path.open(encoding="utf-8")]
    if not texts:
        texts = [p.read_text(encoding="utf-8") for p in sorted((REPO_ROOT / "corpus").rglob("*.txt"))]
    return (texts * (limit // max(len(texts), 1) + 1))[:limit]


def percentiles(samples: list[float]) -> dict[str, float]:
    ordered = sorted(samples)
    pick = lambda q: ordered[min(len(ordered) - 1, int(q * len(ordered)))]  # noqa: E731
    return {"p50_ms": round(pick(0.5) * 1000, 3), "p95_ms": round(pick(0.95) * 1000, 3)}


class RandomQueryEmbedder:
    """Stands in for the model when the stored vectors are random: a random unit query vector (the model's
    own query latency is measured by bench_model and adds to retrieval_pool)."""

    def __init__(self, rng: np.random.Generator, dimension: int):
        self.rng, self.dimension = rng, dimension

    def embed_query(self, text: str) -> np.ndarray:
        vector = self.rng.normal(size=self.dimension).astype(np.float32)
        return vector / np.linalg.norm(vector)


def bench_id(i: int) -> str:
    return f"00000000-0000-0000-0000-{i:012d}"


def bench_payload(i: int, size: int, text: str, collection: str) -> dict[str, Any]:
    """A binding provision with its own reference, or (every fourth) a commentary naming two others."""
    commentary = i % 4 == 3
    return {
        "chunk_id": bench_id(i),
        "text": text,
        "collection": collection,
        "citation": f"Bench {i}",
        "refs": [f"bench_ref_{i}"],
        "authority": "commentary" if commentary else "binding",
        "explains": [f"bench_ref_{(i * 7 + 1) % size}", f"bench_ref_{(i * 13 + 2) % size}"] if commentary else [],
    }


def bench_store(backend_name: str, size: int, queries: int) -> dict:
    """One backend at one size, in this process."""
    from qdrant_client import QdrantClient

    from db.index import EdgeBackend, IndexReader
    from db.server_backend import ServerBackend
    from db.store import SearchQuery, StoredPoint
    from retrieval.embedder import Embedder
    from retrieval.search import RetrievalOptions, Retriever
    from retrieval.sparse import document_terms, encode_document, encode_query

    rng = np.random.default_rng(7)
    texts = real_texts(size)
    collections = ["health_governance", "insurance", "patients", "secondary"]
    with tempfile.TemporaryDirectory() as tmp:
        backend = (
            EdgeBackend(Path(tmp) / "index")
            if backend_name == "edge"
            else ServerBackend(QdrantClient(path=f"{tmp}/q"), "bench")
        )

        def unit(n: int) -> np.ndarray:
            v = rng.normal(size=(n, 384)).astype(np.float32)
            return v / np.linalg.norm(v, axis=1, keepdims=True)

        terms = [document_terms(t) for t in texts]
        avg = float(np.mean([len(t) for t in terms]))
        started = time.perf_counter()
        name, store = backend.create_generation(384)
        for start in range(0, size, 1000):  # batches, as the product's indexer writes them
            stop = min(size, start + 1000)
            dense, sentences = unit(stop - start), unit(2 * (stop - start))
            store.upsert(
                [
                    StoredPoint(
                        id=bench_id(i),
                        dense=dense[i - start].tolist(),
                        sparse=encode_document(terms[i], avg),
                        sentences=[sentences[2 * (i - start)].tolist(), sentences[2 * (i - start) + 1].tolist()],
                        payload=bench_payload(i, size, texts[i], collections[i % 4]),
                    )
                    for i in range(start, stop)
                ]
            )
        store.finish()
        store.close()
        backend.publish(name)
        upsert_s = time.perf_counter() - started
        retriever = Retriever(IndexReader(backend), cast(Embedder, RandomQueryEmbedder(rng, 384)))
        reader = retriever.reader.store()
        pool = Settings().candidate_pool
        modes = ("dense", "sparse", "hybrid", "hybrid_filter")
        timings: dict[str, list[float]] = {m: [] for m in (*modes, "retrieval_round_trip", "retrieval_pool")}
        followed = 0
        retriever.retrieve(QUERIES[0], None, pool)  # untimed: loads the expansion and reference tables
        for i in range(queries):
            text = QUERIES[i % len(QUERIES)]
            request = SearchQuery(dense=unit(1)[0].tolist(), sparse=encode_query(text), limit=20)
            for mode in modes:
                timings[mode].append(single_query_latency(reader, request, mode))
            t = time.perf_counter()
            reader.search(request)  # what retrieve() sends: dense, sparse, fused and reranked lists at once
            timings["retrieval_round_trip"].append(time.perf_counter() - t)
            t = time.perf_counter()
            found = retriever.retrieve(text, None, pool, RetrievalOptions())  # the graph's pool, following
            timings["retrieval_pool"].append(time.perf_counter() - t)
            followed += len(found) > pool
        retriever.reader.close()
        backend.close()
    return {
        "backend": backend_name,
        "chunks": size,
        "upsert_s": round(upsert_s, 2),
        "upsert_chunks_per_s": round(size / upsert_s, 1),
        **{mode: percentiles(samples) for mode, samples in timings.items()},
        "pool": pool,
        "queries_with_followed_citations": followed,
        "peak_rss_mb": peak_rss_mb(),
    }


def peak_rss_mb() -> float:
    """This process's peak RSS: VmHWM, since Linux carries ru_maxrss over from the parent across fork and exec
    (a subprocess of a 1 GB parent would report 1 GB)."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return round(int(line.split()[1]) / 1024, 1)
    except OSError:
        pass
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def store_in_subprocess(backend: str, size: int, queries: int) -> dict:
    """bench_store in a fresh interpreter, so its peak RSS is its own (also used by evals.bench_service)."""
    out = subprocess.run(
        [sys.executable, "-m", "evals.bench_index", "--one", backend, str(size), "--queries", str(queries)],
        capture_output=True,
        text=True,
        check=True,
        cwd=REPO_ROOT,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def single_query_latency(reader, request, mode: str) -> float:
    """One dense, sparse or RRF-fused query (optionally filtered) through the engine's own API."""
    from db.client_store import ClientStore, client_filter
    from db.edge_store import EdgeStore, edge_filter
    from db.store import RRF_K

    filters: dict[str, Any] = {"collection": "insurance"} if mode == "hybrid_filter" else {}
    if isinstance(reader, EdgeStore):
        import qdrant_edge as qe

        edge_flt = edge_filter(filters)
        dense = qe.Query.Nearest(request.dense, using="dense")
        sparse = qe.Query.Nearest(qe.SparseVector(request.sparse.indices, request.sparse.values), using="sparse")
        if mode in ("dense", "sparse"):
            q = qe.QueryRequest(limit=20, query=dense if mode == "dense" else sparse, with_payload=True)
        else:
            prefetches = [
                qe.Prefetch(limit=50, query=dense, filter=edge_flt),
                qe.Prefetch(limit=50, query=sparse, filter=edge_flt),
            ]
            rrf: Any = qe.Fusion.Rrf(k=RRF_K)  # accepted by the engine, missing from its type stubs
            q = qe.QueryRequest(limit=20, prefetches=prefetches, query=rrf, with_payload=True)
        t = time.perf_counter()
        reader._shard.query(q)
        return time.perf_counter() - t
    assert isinstance(reader, ClientStore)
    from qdrant_client import models

    flt = client_filter(filters)
    sparse_vector = models.SparseVector(indices=request.sparse.indices, values=request.sparse.values)
    t = time.perf_counter()
    if mode in ("dense", "sparse"):
        reader._client.query_points(
            reader.name,
            query=request.dense if mode == "dense" else sparse_vector,
            using=mode,
            limit=20,
            with_payload=True,
        )
    else:
        prefetch = [
            models.Prefetch(query=request.dense, using="dense", limit=50, filter=flt),
            models.Prefetch(query=sparse_vector, using="sparse", limit=50, filter=flt),
        ]
        reader._client.query_points(
            reader.name, prefetch=prefetch, query=models.RrfQuery(rrf=models.Rrf(k=RRF_K)), limit=20, with_payload=True
        )
    return time.perf_counter() - t


def bench_model(chunks: int) -> dict:
    """Real-model figures: ingest throughput through the product's pipeline, query embedding latency."""
    from ingest.pipeline import ingest
    from retrieval.resources import Resources

    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp) / "corpus" / "bench"
        folder.mkdir(parents=True)
        for i, text in enumerate(real_texts(chunks)):
            (folder / f"doc_{i:05d}.txt").write_text(text, encoding="utf-8")
        settings = Settings(data_dir=Path(tmp) / "data", models_dir=Settings().models_dir)
        resources = Resources(settings)
        _ = resources.embedder.dimension  # load the model before timing
        started = time.perf_counter()
        report = ingest(
            [folder],
            settings=settings,
            embedder=resources.embedder,
            catalog=resources.catalog,
            backend=resources.backend,
        )
        ingest_s = time.perf_counter() - started
        samples = []
        for i in range(100):
            t = time.perf_counter()
            resources.embedder.embed_query(f"{QUERIES[i % len(QUERIES)]} {i}")
            samples.append(time.perf_counter() - t)
        written = report.chunks_written
        resources.close()
    return {
        "documents": chunks,
        "chunks": written,
        "embeddings_computed": report.embeddings_computed,
        "ingest_s": round(ingest_s, 1),
        "ingest_chunks_per_s": round(written / ingest_s, 2),
        "query_embedding": percentiles(samples),
        "embedding_variant": settings.embedding_variant,
    }


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 10000, 50000])
    parser.add_argument("--queries", type=int, default=100)
    parser.add_argument("--model-docs", type=int, default=300, help="real documents ingested with the real model")
    parser.add_argument("--one", nargs=2, metavar=("BACKEND", "SIZE"), help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.one:
        print(json.dumps(bench_store(args.one[0], int(args.one[1]), args.queries)))
        return 0
    stores = []
    for backend in ("edge", "qdrant-client"):
        for size in args.sizes:
            queries = args.queries if backend == "edge" or size <= 10000 else max(10, args.queries // 5)
            row = store_in_subprocess(backend, size, queries)
            print(json.dumps(row), flush=True)
            stores.append(row)
    model = bench_model(args.model_docs)
    print(json.dumps(model), flush=True)
    result = {
        "machine": {"cores": os.cpu_count(), "python": platform.python_version(), "platform": platform.platform()},
        "command": "python -m evals.bench_index " + " ".join(sys.argv[1:]),
        "model": model,
        "stores": stores,
        "notes": "store rows use random unit vectors and real text payloads; "
        "hybrid = dense + sparse prefetch fused with RRF in Qdrant; "
        "retrieval_round_trip = what retrieve() sends (dense, sparse, fused and sentence-reranked lists in one batch); "
        "retrieval_pool = Retriever.retrieve for the graph's candidate pool with citation following (query embedding "
        "excluded: add model.query_embedding)",
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
