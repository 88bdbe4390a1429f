"""The semantic cache answers only from the generation published now, and only within the caller's tenant."""

from __future__ import annotations

import sqlite3

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr

from db.keys import KeyStore
from tests.conftest import ingest_into, make_settings, policyrag
from tests.test_loaders import write_doc

QUESTION = "What colour is the fence at the north depot painted?"
REWORDED = "What colour is the fence at the north depot painted ?"  # close enough to share a cache entry


def depot_notice(folder, colour: str) -> None:
    write_doc(
        folder,
        "depot_notice",
        f"Depot Notice - Fences and gates\n\nThe fence at the north depot is painted {colour}.\n"
        "The gate at the north depot is locked every night at ten.\n",
        title="Depot Notice - Fences and gates",
        citation="Depot Notice 1",
        document_type="regulator_guidance",
        hierarchy_rank=2,
    )


def test_a_re_ingested_document_is_answered_anew_not_from_the_cache(tmp_path, models_dir, embedder):
    from retrieval.resources import Resources
    from retrieval.services import Services
    from server.app import create_app

    folder = tmp_path / "corpus" / "depot"
    folder.mkdir(parents=True)
    settings = make_settings(tmp_path / "data", models_dir, web_providers=[])
    resources = Resources(settings, embedder=embedder)

    def reingest() -> str:
        report = ingest_into(resources, [folder], collection="depot")
        assert not report.failed and report.generation
        return report.generation

    def ask(client: TestClient, question: str) -> dict:
        reply = client.post("/query", json={"question": question, "collection": "depot", "allow_web": False})
        assert reply.status_code == 200, reply.text
        return reply.json()

    depot_notice(folder, "blue")
    first_generation = reingest()
    with TestClient(create_app(settings, Services(settings, resources))) as client:  # one server process throughout
        first = ask(client, QUESTION)
        assert first["status"] == "answered" and "blue" in first["answer"] and not first["cache_hit"]
        again = ask(client, REWORDED)
        assert again["cache_hit"] and "blue" in again["answer"]  # the reworded question shares the entry

        depot_notice(folder, "green")
        assert reingest() != first_generation
        reworded = ask(client, REWORDED)
        assert not reworded["cache_hit"] and "green" in reworded["answer"] and "blue" not in reworded["answer"]
        original = ask(client, QUESTION)
        assert "green" in original["answer"] and "blue" not in original["answer"]
    resources.close()


def test_the_cache_is_per_tenant_and_tells_no_tenant_what_another_asked(api):
    client = api(anonymous=False)
    keys = client.app.state.policyrag.keys
    acme, _ = keys.create("acme-1", ["read"], tenant="acme")
    acme_too, _ = keys.create("acme-2", ["read"], tenant="acme")
    globex, _ = keys.create("globex", ["read"], tenant="globex")
    default, _ = keys.create("default", ["read"])
    question = {"question": "How many hours does a controller have to notify a personal data breach?"}

    def ask(key: str) -> dict:
        reply = client.post("/query", json=question, headers={"X-API-Key": key})
        assert reply.status_code == 200, reply.text
        return reply.json()

    assert not ask(acme)["cache_hit"]
    for other in (globex, default):  # another tenant learns nothing: no hit, no similarity
        record = ask(other)
        assert not record["cache_hit"] and record["cache_similarity"] is None
    shared = ask(acme_too)  # a tenant's keys share its cache
    assert shared["cache_hit"] and shared["cache_similarity"] == 1.0


def test_keys_carry_a_tenant_default_unless_set(api):
    client = api(anonymous=False)
    admin, _ = client.app.state.policyrag.keys.create("root", ["admin"])
    made = client.post(
        "/auth/generate", json={"name": "acme reader", "tenant": "acme"}, headers={"X-API-Key": admin}
    ).json()
    assert made["tenant"] == "acme"
    plain = client.post("/auth/generate", json={"name": "plain reader"}, headers={"X-API-Key": admin}).json()
    assert plain["tenant"] == "default"
    refused = client.post("/auth/generate", json={"name": "x", "tenant": "acme corp/../"}, headers={"X-API-Key": admin})
    assert refused.status_code == 422 and "tenant" in refused.text


def test_an_older_key_store_gains_the_tenant_column(tmp_path):
    path = tmp_path / "keys.sqlite"
    with sqlite3.connect(path) as db:  # the table as it was before tenants
        db.execute(
            "CREATE TABLE api_keys (key_id TEXT PRIMARY KEY, name TEXT NOT NULL, salt BLOB NOT NULL, secret_hash BLOB"
            " NOT NULL, scopes TEXT NOT NULL, created_at TEXT NOT NULL, expires_at TEXT, revoked_at TEXT,"
            " rate_per_minute INTEGER, budget REAL)"
        )
        db.execute(
            "INSERT INTO api_keys VALUES ('abc', 'old', x'00', x'00', 'read', '2024-01-01', NULL, NULL, NULL, NULL)"
        )
    store = KeyStore(path)
    try:
        assert store.get("abc").tenant == "default"
    finally:
        store.close()


@pytest.mark.subprocess
def test_keys_create_takes_a_tenant_and_list_shows_it(tmp_path, models_dir):
    env = {"POLICYRAG_DATA_DIR": str(tmp_path / "data"), "POLICYRAG_MODELS_DIR": str(models_dir), "PATH": ""}

    assert policyrag("keys", "create", "--name", "acme-reader", "--tenant", "acme", env=env).returncode == 0
    assert policyrag("keys", "create", "--name", "plain", env=env).returncode == 0
    listed = policyrag("keys", "list", env=env).stdout
    assert "acme-reader" in listed and "tenant acme" in listed and "tenant default" in listed
    bad = policyrag("keys", "create", "--name", "x", "--tenant", "two words", env=env)
    assert bad.returncode == 2 and "tenant" in bad.stderr


def test_the_web_search_cache_tells_no_tenant_what_another_asked(api, standin):
    standin.set_script(
        search=[
            {
                "results": [
                    {
                        "title": "Capitals",
                        "url": "https://example.org/capitals",
                        "content": "Paris is the capital of France.",
                        "score": 0.9,
                    }
                ]
            }
        ]
    )
    client = api(
        anonymous=False,
        web_providers=["tavily"],
        tavily_api_key=SecretStr("tvly-standin-0123456789"),
        tavily_base_url=standin.url,
    )
    keys = client.app.state.policyrag.keys
    acme, _ = keys.create("acme", ["read"], tenant="acme")
    globex, _ = keys.create("globex", ["read"], tenant="globex")
    question = {"question": "What is the capital of France?"}
    for key in (acme, globex):
        record = client.post("/query", json=question, headers={"X-API-Key": key}).json()
        assert [(a["provider"], a["status"]) for a in record["web_attempts"]] == [("tavily", "ok")]
    assert len(standin.requests("search")) == 2
