"""Reader and publisher processes for tests/test_reader_isolation.py; each reports one JSON line per step.

python -m tests.reader_isolation_process read INDEX_DIR DIMENSION STOP_FILE
    opens the published generation, queries it and closes it, again and again until STOP_FILE exists;
    exits 1 if any round failed.
python -m tests.reader_isolation_process publish DATA_DIR MODELS_DIR CORPUS ROUNDS
    re-ingests a changed document ROUNDS times; reports each generation's file hashes as it publishes
    it, then waits for a line on stdin (the test's "every reader has read it").
"""

from __future__ import annotations

import hashlib
import json
import os
import sys
import traceback
from pathlib import Path
from typing import Any

import numpy as np

from core.settings import Settings
from db.index import EdgeBackend, IndexReader
from db.store import SearchQuery, VectorStore
from ingest.pipeline import ingest
from retrieval.resources import Resources
from retrieval.sparse import encode_query
from tests.test_loaders import write_doc

QUERIES = [
    ("personal data breach notification within 72 hours", 1, ["ref_33"]),
    ("explicit consent for processing health data", 2, []),
    ("duty to share information for individual care", 3, []),
]
LIMIT = 50  # more than the test index holds, so no list is cut inside a group of tied scores


def generation_hashes(path: Path) -> dict[str, str]:
    """Every file's sha256 and every folder, by relative path: what a reader must leave as it was."""
    out: dict[str, str] = {}
    for folder, folders, files in os.walk(path):
        for name in folders:
            out[str((Path(folder) / name).relative_to(path)) + "/"] = "folder"
        for name in files:
            file = Path(folder) / name
            out[str(file.relative_to(path))] = hashlib.sha256(file.read_bytes()).hexdigest()
    return out


def unit(seed: int, dimension: int) -> list[float]:
    vector = np.random.default_rng(seed).normal(size=dimension)
    return (vector / np.linalg.norm(vector)).tolist()


def results(store: VectorStore, dimension: int) -> dict[str, Any]:
    """What a reader sees. Qdrant orders hits with equal scores arbitrarily, so ties are put in id order."""
    seen: dict[str, Any] = {"count": store.count(), "texts": sorted(p["text"] for p in store.payloads())}
    for text, seed, refs in QUERIES:
        lists = store.search(
            SearchQuery(dense=unit(seed, dimension), sparse=encode_query(text), limit=LIMIT, reference_tokens=refs)
        )
        seen[text] = {
            name: sorted(([h.id, h.score] for h in getattr(lists, name)), key=lambda pair: (-pair[1], pair[0]))
            for name in ("dense", "sparse", "fused", "reranked", "referenced")
        }
    return seen


def say(record: dict[str, Any]) -> None:
    print(json.dumps(record), flush=True)


def read(index_dir: Path, dimension: int, stop_file: Path) -> int:
    failed = False
    while not stop_file.exists():
        backend = EdgeBackend(index_dir)
        reader = IndexReader(backend)
        try:
            seen = results(reader.store(), dimension)
            digest = hashlib.sha256(json.dumps(seen, sort_keys=True).encode()).hexdigest()
            say({"generation": reader.generation, "digest": digest})
        except Exception:
            failed = True
            say({"error": traceback.format_exc()})
        finally:
            reader.close()
            backend.close()
    return 1 if failed else 0


class RecordingBackend(EdgeBackend):
    """Reports a generation's hashes as it publishes it, before any reader can open it, and keeps every
    generation so the test can compare each one at the end."""

    def publish(self, name: str) -> None:
        say({"generation": name, "hashes": generation_hashes(self.index_dir / name)})
        super().publish(name)

    def collect_garbage(self) -> list[str]:
        return []


def publish(data_dir: Path, models_dir: Path, corpus: Path, rounds: int) -> int:
    settings = Settings(data_dir=data_dir, models_dir=models_dir)
    resources = Resources(settings, backend=RecordingBackend(settings.index_dir))
    try:
        for number in range(rounds):
            text = f"Article 1 - Retention\n1. Records are kept for {number + 2} years after the last treatment."
            write_doc(corpus / "health_governance", "retention1", text)
            report = ingest(
                [corpus],
                settings=settings,
                embedder=resources.embedder,
                catalog=resources.catalog,
                backend=resources.backend,
            )
            if report.failed or report.generation is None:
                say({"error": f"round {number} published nothing: {report.failed}"})
                return 1
            sys.stdin.readline()
    finally:
        resources.close()
    return 0


if __name__ == "__main__":
    command, *args = sys.argv[1:]
    if command == "read":
        sys.exit(read(Path(args[0]), int(args[1]), Path(args[2])))
    sys.exit(publish(Path(args[0]), Path(args[1]), Path(args[2]), int(args[3])))
