"""Crash-safe re-indexing: an ingest killed at any step leaves the previous index serving,
and the next ingest completes.
"""

from __future__ import annotations

import os
import shutil
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from db.index import EdgeBackend, IndexReader
from tests.conftest import CORPUS, REPO_ROOT, seed_vector_cache
from tests.test_loaders import write_doc

pytestmark = pytest.mark.subprocess

CRASH_POINTS = ["embedded", "catalog_written", "generation_partly_written", "generation_written", "published"]


@pytest.fixture
def corpus(tmp_path) -> Path:
    folder = tmp_path / "corpus" / "health_governance"
    folder.mkdir(parents=True)
    for name in ("gdpr_art_33", "gdpr_art_34", "caldicott_principle_7"):
        for suffix in (".txt", ".json"):
            shutil.copy(CORPUS / "health_governance" / f"{name}{suffix}", folder)
    return folder


def ingest_process(folder: Path, data: Path, models: Path, crash_at: str | None = None) -> subprocess.CompletedProcess:
    env = {**os.environ, "POLICYRAG_DATA_DIR": str(data), "POLICYRAG_MODELS_DIR": str(models), "HF_HUB_OFFLINE": "1"}
    env.pop("POLICYRAG_CRASH_AT", None)
    if crash_at:
        env["POLICYRAG_CRASH_AT"] = crash_at
    return subprocess.run(
        [sys.executable, "-m", "cli.main", "ingest", str(folder), "--quiet"],
        cwd=REPO_ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
    )


def served(data: Path) -> tuple[str, set[str]]:
    """The published generation and the documents it holds, read as a separate reader would."""
    reader = IndexReader(EdgeBackend(data / "index"))
    try:
        store = reader.store()
        return reader.generation, {p["doc_id"] for p in store.payloads()}
    finally:
        reader.close()


@pytest.mark.parametrize("crash_at", CRASH_POINTS)
def test_a_killed_ingest_never_breaks_the_served_index(tmp_path, corpus, models_dir, settings, crash_at):
    data = tmp_path / "data"
    seed_vector_cache(settings.model_copy(update={"data_dir": data}))
    first = ingest_process(corpus, data, models_dir)
    assert first.returncode == 0, first.stderr
    generation, documents = served(data)
    assert generation == "gen-000001" and documents == {"gdpr_art_33", "gdpr_art_34", "caldicott_principle_7"}

    write_doc(corpus, "extra1", "Article 1 - Retention\n1. Records are kept for eight years after the last treatment.")
    (corpus / "gdpr_art_34.txt").unlink()
    (corpus / "gdpr_art_34.json").unlink()
    crashed = ingest_process(corpus, data, models_dir, crash_at)
    assert crashed.returncode == -9  # killed at the crash point, no clean-up

    generation, documents = served(data)
    if crash_at == "published":  # the switch happened before the crash: the new index is whole
        assert documents == {"gdpr_art_33", "caldicott_principle_7", "extra1"}
    else:  # the previous generation still serves, whole
        assert generation == "gen-000001"
        assert documents == {"gdpr_art_33", "gdpr_art_34", "caldicott_principle_7"}

    recovered = ingest_process(corpus, data, models_dir)
    assert recovered.returncode == 0, recovered.stderr
    generation, documents = served(data)
    assert documents == {"gdpr_art_33", "caldicott_principle_7", "extra1"}
    leftovers = sorted(p.name for p in (data / "index").iterdir() if p.is_dir() and p.name.startswith("gen-"))
    assert generation in leftovers and len(leftovers) <= 3  # half-built generations are collected


def test_a_crash_point_is_armed_through_the_settings():
    script = (
        "from core.failpoints import checkpoint; from core.settings import Settings; "
        "checkpoint('elsewhere', Settings().crash_at); print('passed elsewhere', flush=True); "
        "checkpoint('here', Settings().crash_at); print('alive')"
    )
    env = {**os.environ, "POLICYRAG_CRASH_AT": "here"}
    done = subprocess.run(
        [sys.executable, "-c", script], cwd=REPO_ROOT, env=env, capture_output=True, text=True, timeout=60
    )
    assert done.returncode == -signal.SIGKILL
    assert done.stdout.strip() == "passed elsewhere"
