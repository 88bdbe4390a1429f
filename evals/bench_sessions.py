"""One ONNX session with more intra-op threads, or more sessions? (issue 16, item 3)

    python -m evals.bench_sessions [--texts 400] [--workers 4] [--repeats 3]

The service embeds each text alone (retrieval/embedder.py) behind one lock, so concurrent questions queue
for the model. This measures, for the same texts (sentences of the shipped corpus, embedded one at a time as
the product does) sent from `--workers` threads at once, the texts per second of: one session with 1, 2 or
(cores) intra-op threads behind one lock, and one single-thread session per core, each behind its own lock.
Median of `--repeats` runs. Writes evals/results/bench_sessions.json and prints a table.
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

os.environ.setdefault("HF_HUB_OFFLINE", "1")

from core.settings import REPO_ROOT, get_settings
from evals.bench_embedder import machine_info
from language.sentences import sentences_for_index
from modelprep.model_files import ensure_embedding_model

RESULTS = REPO_ROOT / "evals" / "results" / "bench_sessions.json"


def corpus_sentences(n: int) -> list[str]:
    """The first n sentences of the shipped corpus's text files, in a fixed order."""
    files = sorted((REPO_ROOT / "corpus").rglob("*.txt"))
    found = (s for f in files for s in sentences_for_index(f.read_text(encoding="utf-8")))
    return list(itertools.islice(found, n))


class Sessions:
    """`count` fastembed sessions of `threads` intra-op threads each, handed out round-robin, one lock each."""

    def __init__(self, model_dir: Path, count: int, threads: int):
        from fastembed import TextEmbedding

        name = get_settings().embedding_model
        self.models = [TextEmbedding(name, specific_model_path=str(model_dir), threads=threads) for _ in range(count)]
        self.locks = [threading.Lock() for _ in self.models]
        self._next = itertools.count()

    def embed(self, text: str) -> None:
        index = next(self._next) % len(self.models)
        with self.locks[index]:
            list(self.models[index].embed([text], batch_size=1))


def texts_per_second(sessions: Sessions, texts: list[str], workers: int) -> float:
    started = time.perf_counter()
    with ThreadPoolExecutor(workers) as pool:
        list(pool.map(sessions.embed, texts))
    return len(texts) / (time.perf_counter() - started)


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--texts", type=int, default=400)
    parser.add_argument("--workers", type=int, default=4, help="threads sending texts at once")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--out", type=Path, default=RESULTS)
    args = parser.parse_args(argv)

    model_dir = ensure_embedding_model(get_settings())
    if model_dir is None:
        raise SystemExit("no local model folder: run `make setup` first")
    texts = corpus_sentences(args.texts)
    cores = os.cpu_count() or 1
    layouts = [(1, 1), (1, 2), (1, cores), (cores, 1)] if cores > 2 else [(1, 1), (1, 2), (cores, 1)]
    rows = []
    for count, threads in dict.fromkeys(layouts):
        sessions = Sessions(model_dir, count, threads)
        sessions.embed("warm-up")
        runs = [texts_per_second(sessions, texts, args.workers) for _ in range(args.repeats)]
        rows.append(
            {
                "sessions": count,
                "intra_op_threads": threads,
                "texts_per_s": round(statistics.median(runs), 1),
                "runs": [round(r, 1) for r in runs],
            }
        )
        print(f"{count} session(s) x {threads} thread(s): {rows[-1]['texts_per_s']} texts/s {rows[-1]['runs']}")
    report = {
        "machine": machine_info(),
        "texts": len(texts),
        "workers": args.workers,
        "note": "each text embedded alone (batch 1), as retrieval/embedder.py does; median of the runs",
        "rows": rows,
    }
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text(json.dumps(report, indent=2) + "\n", encoding="utf-8")
    print(f"wrote {args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
