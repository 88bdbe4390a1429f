"""Faults around the service: the index gone or corrupted, SQLite locked, telemetry out of space.

Each gives evidence or a clear error with the right status code, and nothing acknowledged is lost.
(LLM and web-provider faults are in test_generation_llm.py and test_web_search.py.)
"""

from __future__ import annotations

import shutil
import sqlite3

import pytest
from fastapi.testclient import TestClient

from db.index import VIEWS
from retrieval.resources import Resources
from retrieval.services import Services
from server.app import create_app

QUESTION = "How many hours does a controller have to notify a personal data breach to the supervisory authority?"


@pytest.fixture
def own_index(shipped, tmp_path):
    """A private copy of the shipped index (so it can be broken) and a client factory over it; the
    session's readers' private views are left behind (the copy's only folder is its generation)."""
    data = tmp_path / "data"
    data.mkdir()
    shutil.copytree(shipped.settings.index_dir, data / "index", ignore=shutil.ignore_patterns("*.lock", VIEWS))
    shutil.copy(shipped.settings.catalog_path, data / "catalog.sqlite")
    settings = shipped.settings.model_copy(
        update={"data_dir": data, "models_dir_override": shipped.settings.models_dir, "web_providers": []}
    )
    clients = []

    def client() -> TestClient:
        resources = Resources(settings, embedder=shipped.embedder)
        made = TestClient(create_app(settings, Services(settings, resources)), raise_server_exceptions=False)
        made.__enter__()
        clients.append((made, resources))
        return made

    yield settings, client
    for made, resources in clients:
        made.__exit__(None, None, None)
        resources.close()


def test_index_folder_removed_while_serving_gives_503(own_index):
    settings, client = own_index
    api = client()
    assert api.post("/query", json={"question": QUESTION}).status_code == 200
    shutil.rmtree(settings.index_dir)
    for question in (QUESTION, "What is a data protection officer?"):  # nothing is published: no cached answer either
        reply = api.post("/query", json={"question": question})
        assert reply.status_code == 503 and "index" in reply.json()["detail"] and "Traceback" not in reply.text
    health = api.get("/health").json()
    assert health["status"] == "degraded" and not health["index"]["present"]


def test_corrupted_index_gives_503_with_the_reason(own_index):
    settings, client = own_index
    generation = next(p for p in settings.index_dir.iterdir() if p.is_dir())
    (generation / "edge_config.json").write_text("{corrupt", encoding="utf-8")
    api = client()
    reply = api.post("/query", json={"question": QUESTION})
    assert reply.status_code == 503 and "cannot open the index" in reply.json()["detail"]
    health, ready = api.get("/health"), api.get("/health/ready")
    assert health.json()["status"] == "degraded" and ready.status_code == 503
    for text in (reply.text, health.text, ready.text):  # the reason, but no server path
        assert str(settings.data_dir) not in text and str(settings.data_dir.resolve()) not in text, text


def test_telemetry_out_of_space_keeps_answering_and_loses_no_row(own_index):
    settings, client = own_index
    api = client()
    telemetry = api.app.state.policyrag.telemetry
    # SQLite reports a full disk as SQLITE_FULL; capping the file's pages produces the same error. (The
    # write-ahead log is switched off for this one connection: with it the cap would only bite at checkpoints.)
    telemetry._db.execute("PRAGMA journal_mode = DELETE")
    pages = telemetry._db.execute("PRAGMA page_count").fetchone()[0]
    telemetry._db.execute(f"PRAGMA max_page_count = {pages}")
    padding = " Please answer with the article and paragraph." * 30  # long rows need new pages
    questions = [
        QUESTION + padding,
        "What is a data protection officer?" + padding,
        "What does Art. 9(2)(h) allow?" + padding,
    ]
    for question in questions:
        assert api.post("/query", json={"question": question}).status_code == 200
    assert telemetry.write_errors >= 1 and telemetry.pending >= 1
    telemetry._db.execute("PRAGMA max_page_count = 1073741823")  # space again
    assert api.post("/query", json={"question": "What is pseudonymisation?"}).status_code == 200
    assert telemetry.pending == 0
    rows = (
        sqlite3.connect(settings.telemetry_path)
        .execute("SELECT COUNT(*) FROM requests WHERE endpoint = '/query'")
        .fetchone()[0]
    )
    assert rows == 4  # every answered request is in the log


def test_locked_telemetry_database_does_not_block_answers(own_index):
    settings, client = own_index
    api = client()
    assert api.post("/query", json={"question": QUESTION}).status_code == 200
    blocker = sqlite3.connect(settings.telemetry_path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")  # another process holds the write lock
    try:
        assert api.post("/query", json={"question": "What is a data protection officer?"}).status_code == 200
        assert api.app.state.policyrag.telemetry.pending == 1
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert api.post("/query", json={"question": "What is pseudonymisation?"}).status_code == 200
    rows = (
        sqlite3.connect(settings.telemetry_path)
        .execute("SELECT COUNT(*) FROM requests WHERE endpoint = '/query'")
        .fetchone()[0]
    )
    assert rows == 3


def test_locked_key_store_gives_503_and_changes_nothing(own_index):
    settings, client = own_index
    api = client()
    admin, _ = api.app.state.policyrag.keys.create("admin", ["admin"])
    blocker = sqlite3.connect(settings.keys_path, isolation_level=None)
    blocker.execute("BEGIN IMMEDIATE")
    try:
        reply = api.post("/auth/generate", json={"name": "late"}, headers={"X-API-Key": admin})
        assert reply.status_code == 503 and reply.headers["Retry-After"] and "retry" in reply.json()["detail"]
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert [k.name for k in api.app.state.policyrag.keys.list()] == ["admin"]
    assert api.post("/auth/generate", json={"name": "late"}, headers={"X-API-Key": admin}).status_code == 200


def test_liveness_stays_200_while_readiness_follows_the_index(own_index):
    settings, client = own_index
    api = client()
    assert api.get("/health/live").status_code == 200 and api.get("/health/ready").status_code == 200
    moved = settings.index_dir.with_name("index-moved")
    settings.index_dir.rename(moved)  # the index folder moved away
    assert api.get("/health/live").status_code == 200  # the process runs: do not restart it
    ready = api.get("/health/ready")
    assert ready.status_code == 503 and "index" in ready.json()["detail"]
    health = api.get("/health").json()
    assert health["status"] == "degraded" and not health["index"]["present"]  # the detail is still there
    moved.rename(settings.index_dir)
    assert api.get("/health/ready").status_code == 200
