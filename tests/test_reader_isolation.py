"""Readers write nothing into a published generation, however many read it while new ones are published.

Qdrant Edge writes into every shard it loads (config on load, segment metadata and flags on close), so
readers load a private view (db/reader_view.py); these tests check the published files byte for byte.
"""

from __future__ import annotations

import json
import queue
import shutil
import subprocess
import sys
import threading
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

import pytest

from db.index import VIEWS, EdgeBackend, IndexReader
from retrieval.resources import Resources
from tests.conftest import CORPUS, REPO_ROOT, ingest_into, seed_vector_cache
from tests.reader_isolation_process import generation_hashes, results

SAMPLE = ["gdpr_art_33", "gdpr_art_09_2_a", "gdpr_art_09_2_h", "caldicott_principle_7"]
READERS = 4
PUBLISHES = 4
READS_PER_GENERATION = 2  # full open-query-close rounds each reader makes on each generation
WAIT_S = 300


@pytest.fixture
def corpus(tmp_path) -> Path:
    folder = tmp_path / "corpus" / "health_governance"
    folder.mkdir(parents=True)
    for name in SAMPLE:
        for suffix in (".txt", ".json"):
            shutil.copy(CORPUS / "health_governance" / f"{name}{suffix}", folder)
    return tmp_path / "corpus"


@pytest.fixture
def published(settings, embedder, corpus) -> Path:
    """A small real index with one published generation; returns the index folder."""
    seed_vector_cache(settings)
    resources = Resources(settings, embedder=embedder)
    try:
        report = ingest_into(resources, [corpus])
    finally:
        resources.close()
    assert report.generation == "gen-000001" and not report.failed
    return settings.index_dir


def views(index_dir: Path) -> list[str]:
    return sorted(p.name for p in (index_dir / VIEWS).iterdir())


class Lines:
    """JSON lines from several processes, as they come; waits are bounded by a deadline, never slept."""

    def __init__(self) -> None:
        self._queue: queue.Queue[tuple[str, str | None]] = queue.Queue()
        self.seen: dict[str, list[dict]] = defaultdict(list)

    def follow(self, name: str, process: subprocess.Popen) -> None:
        def pump() -> None:
            for line in process.stdout:
                self._queue.put((name, line))
            self._queue.put((name, None))

        threading.Thread(target=pump, daemon=True).start()

    def wait_for(self, done: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + WAIT_S
        while not done():
            try:
                name, line = self._queue.get(timeout=max(0.0, deadline - time.monotonic()))
            except queue.Empty:
                last = {name: records[-3:] for name, records in self.seen.items()}
                raise AssertionError(f"gave up waiting for {what}; last lines: {last}") from None
            if line is None:
                self.seen[name].append({"ended": True})
            elif line.startswith("{"):
                self.seen[name].append(json.loads(line))


def test_open_query_close_leaves_every_file_of_the_generation_unchanged(published, embedder):
    generation = published / "gen-000001"
    before = generation_hashes(generation)
    backend = EdgeBackend(published)
    reader = IndexReader(backend)
    first = results(reader.store(), embedder.dimension)
    assert first["count"] > 0 and first["personal data breach notification within 72 hours"]["referenced"]
    assert len(views(published)) == 1
    reader.close()
    backend.close()
    assert generation_hashes(generation) == before
    assert views(published) == []  # the private view went with the reader


@pytest.mark.subprocess
def test_a_view_left_by_a_killed_reader_is_removed_by_the_next_open(published):
    script = (
        "import json, sys; from pathlib import Path; from db.index import EdgeBackend, IndexReader; "
        f"reader = IndexReader(EdgeBackend(Path({str(published)!r}))); reader.store().count(); "
        "print(json.dumps({'open': True}), flush=True); sys.stdin.readline()"
    )
    killed = subprocess.Popen(
        [sys.executable, "-c", script], cwd=REPO_ROOT, stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
    )
    lines = Lines()
    lines.follow("killed", killed)
    try:
        lines.wait_for(lambda: lines.seen["killed"], "the reader to open the index")
    finally:
        killed.kill()
        killed.wait(WAIT_S)
    stale = views(published)
    assert len(stale) == 1

    backend = EdgeBackend(published)
    reader = IndexReader(backend)
    reader.store()
    assert len(views(published)) == 1 and views(published) != stale
    reader.close()
    backend.close()
    assert views(published) == []


@pytest.mark.slow
@pytest.mark.subprocess
def test_four_readers_and_a_publisher_leave_every_generation_as_published(
    settings, models_dir, corpus, embedder, tmp_path
):
    seed_vector_cache(settings)
    stop_file = tmp_path / "stop"
    lines = Lines()
    publisher = subprocess.Popen(
        [
            sys.executable,
            "-m",
            "tests.reader_isolation_process",
            "publish",
            str(settings.data_dir),
            str(models_dir),
            str(corpus),
            str(PUBLISHES),
        ],
        cwd=REPO_ROOT,
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    )
    lines.follow("publisher", publisher)
    readers: dict[str, subprocess.Popen] = {}

    def published_count() -> int:
        return sum(1 for record in lines.seen["publisher"] if "hashes" in record)

    def read_enough(generation: str) -> bool:
        return all(
            sum(r.get("generation") == generation for r in lines.seen[name]) >= READS_PER_GENERATION for name in readers
        )

    try:
        for number in range(1, PUBLISHES + 1):
            lines.wait_for(
                lambda number=number: published_count() == number or any("ended" in r for r in lines.seen["publisher"]),
                f"publish {number}",
            )
            assert published_count() == number, lines.seen["publisher"]
            if not readers:
                for n in range(READERS):
                    name = f"reader{n}"
                    readers[name] = subprocess.Popen(
                        [
                            sys.executable,
                            "-m",
                            "tests.reader_isolation_process",
                            "read",
                            str(settings.index_dir),
                            str(embedder.dimension),
                            str(stop_file),
                        ],
                        cwd=REPO_ROOT,
                        stdout=subprocess.PIPE,
                        text=True,
                    )
                    lines.follow(name, readers[name])
            generation = f"gen-{number:06d}"
            lines.wait_for(lambda generation=generation: read_enough(generation), f"every reader to read {generation}")
            publisher.stdin.write("next\n")
            publisher.stdin.flush()
        assert publisher.wait(WAIT_S) == 0
        stop_file.touch()
        for process in readers.values():
            process.wait(WAIT_S)
        lines.wait_for(
            lambda: all(any("ended" in r for r in lines.seen[name]) for name in readers), "the readers' last lines"
        )
    finally:
        for process in [publisher, *readers.values()]:
            if process.poll() is None:
                process.kill()
                process.wait(WAIT_S)

    errors = {name: [r["error"] for r in lines.seen[name] if "error" in r] for name in readers}
    assert errors == {name: [] for name in readers}
    assert all(process.returncode == 0 for process in readers.values())

    digests: dict[str, set[str]] = defaultdict(set)
    for name in readers:
        for record in lines.seen[name]:
            if "digest" in record:
                digests[record["generation"]].add(record["digest"])
    assert sorted(digests) == [f"gen-{n:06d}" for n in range(1, PUBLISHES + 1)]
    assert all(len(seen) == 1 for seen in digests.values()), digests
    assert len(set().union(*digests.values())) == PUBLISHES  # each generation holds the document as changed

    for record in lines.seen["publisher"]:
        if "hashes" in record:
            assert generation_hashes(settings.index_dir / record["generation"]) == record["hashes"], record[
                "generation"
            ]
    assert views(settings.index_dir) == []
