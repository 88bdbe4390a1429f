"""The HTTP service through httpx: every route, scope and error case; cache, limiter, keys, telemetry."""

from __future__ import annotations

import json
import sqlite3

import pytest
from fastapi.testclient import TestClient
from pydantic import SecretStr

from db.keys import KeyStore
from server.schemas import ErrorReply
from tests.conftest import ingest_into, make_settings

QUESTION = "How many hours does a controller have to notify a personal data breach to the supervisory authority?"
READ_ROUTES = [("POST", "/query"), ("POST", "/query/stream"), ("GET", "/rate-limit-status"), ("POST", "/graph/invoke")]
ADMIN_ROUTES = [("GET", "/analytics"), ("POST", "/auth/generate"), ("POST", "/auth/revoke")]


def keys_of(client: TestClient) -> KeyStore:
    return client.app.state.policyrag.keys


def make_key(client: TestClient, scopes: list[str], **kw) -> str:
    plain, _ = keys_of(client).create("test", scopes, **kw)
    return plain


def payload(method: str, path: str) -> dict:
    if path in ("/query", "/query/stream"):
        return {"question": QUESTION}
    if path == "/graph/invoke":
        return {"input": {"question": QUESTION}}
    if path == "/auth/generate":
        return {"name": "x", "scopes": ["read"]}
    if path == "/auth/revoke":
        return {"key_id": "nope"}
    return {}


def call(client: TestClient, method: str, path: str, key: str | None = None):
    headers = {"X-API-Key": key} if key else {}
    if method == "GET":
        return client.get(path, headers=headers)
    return client.post(path, json=payload(method, path), headers=headers)


def test_query_returns_the_documented_record(api):
    client = api()
    reply = client.post("/query", json={"question": QUESTION})
    assert reply.status_code == 200
    body = reply.json()
    for key in (
        "answer",
        "status",
        "route",
        "initial_route",
        "confidence",
        "trust_grade",
        "citations",
        "evidence",
        "latency_ms",
    ):
        assert key in body
    assert body["status"] == "answered" and "72 hours" in body["answer"] and not body["cache_hit"]
    assert body["evidence"][0]["publisher"] == "EUR-Lex" and "retrieve" in body["latency_ms"]


def test_stream_sends_progress_tokens_then_the_final_record(api):
    client = api()
    with client.stream("POST", "/query/stream", json={"question": QUESTION}) as reply:
        assert reply.status_code == 200
        events = []
        for block in reply.iter_text():
            events.append(block)
    text = "".join(events)
    order = [line.split(":", 1)[1].strip() for line in text.splitlines() if line.startswith("event:")]
    assert order[0] == "progress" and order[-1] == "final" and "token" in order
    nodes = [
        json.loads(line[5:])["node"]
        for line, prev in zip(text.splitlines()[1:], text.splitlines())
        if prev == "event: progress" and line.startswith("data:")
    ]
    assert nodes[:2] == ["retrieve", "grade"] and "generate" in nodes
    final = json.loads([line for line in text.splitlines() if line.startswith("data:")][-1][5:])
    assert final["status"] == "answered" and "72 hours" in final["answer"]


@pytest.mark.parametrize(
    ("body", "status", "message"),
    [
        ({"question": ""}, 422, "question"),
        ({"question": "   "}, 422, "must not be empty"),
        ({"question": "x" * 2500}, 422, "at most 2000 characters"),
        ({"question": "fine", "collection": "nope"}, 404, "unknown collection"),
        ({"question": "fine", "top_k": "lots"}, 422, "top_k"),
        ({"question": 42}, 422, "question"),
        ({"question": "fine", "surprise": 1}, 422, "surprise"),
        ({}, 422, "question"),
    ],
)
def test_bad_input_gets_a_clear_4xx_and_is_not_logged_as_an_answer(api, body, status, message):
    client = api()
    reply = client.post("/query", json=body)
    assert reply.status_code == status
    assert message in json.dumps(reply.json())
    assert "Traceback" not in reply.text
    assert (
        client.get("/analytics", headers={"X-API-Key": make_key(client, ["admin"])}).json()["answered_or_refused"] == 0
    )


def test_malformed_json_and_oversized_body(api):
    client = api(max_body_bytes=2048)
    reply = client.post("/query", content=b"{not json", headers={"Content-Type": "application/json"})
    assert reply.status_code == 422 and "JSON" in reply.text
    huge = client.post(
        "/query", content=json.dumps({"question": "x" * 5000}).encode(), headers={"Content-Type": "application/json"}
    )
    assert huge.status_code == 413 and "over 2048 bytes" in huge.text


@pytest.mark.parametrize(("method", "path"), READ_ROUTES + ADMIN_ROUTES)
def test_every_route_requires_a_key_when_anonymous_is_off(api, method, path):
    client = api(anonymous=False)
    assert call(client, method, path).status_code == 401
    assert call(client, method, path, "prag_bogus_key").status_code == 401


@pytest.mark.parametrize(("method", "path"), ADMIN_ROUTES)
def test_admin_routes_refuse_a_read_key(api, method, path):
    client = api(anonymous=False)
    assert call(client, method, path, make_key(client, ["read"])).status_code == 403
    assert call(client, method, path, make_key(client, ["admin"])).status_code in (
        200,
        404,
    )  # revoke of an unknown id is 404


@pytest.mark.parametrize(("method", "path"), READ_ROUTES)
def test_read_routes_accept_a_read_key(api, method, path):
    client = api(anonymous=False)
    assert call(client, method, path, make_key(client, ["read"])).status_code == 200


def test_revoked_and_expired_keys_are_refused(api):
    client = api(anonymous=False)
    admin = make_key(client, ["admin"])
    created = client.post(
        "/auth/generate", json={"name": "analyst", "scopes": ["read"]}, headers={"X-API-Key": admin}
    ).json()
    assert client.get("/rate-limit-status", headers={"X-API-Key": created["key"]}).status_code == 200
    assert (
        client.post("/auth/revoke", json={"key_id": created["key_id"]}, headers={"X-API-Key": admin}).status_code == 200
    )
    assert client.get("/rate-limit-status", headers={"X-API-Key": created["key"]}).status_code == 401
    expired = make_key(client, ["read"], expires_in_days=-1)
    assert client.get("/rate-limit-status", headers={"X-API-Key": expired}).status_code == 401


def test_keys_are_stored_only_as_salted_hashes(api):
    client = api(anonymous=False)
    plain = make_key(client, ["admin"])
    secret = plain.split("_", 2)[2]
    path = client.app.state.policyrag.settings.keys_path
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT * FROM api_keys").fetchall()
    dump = repr(rows)
    assert secret not in dump and plain not in dump
    assert all(isinstance(r[2], bytes) and len(r[2]) == 16 for r in rows)  # a salt per key


def test_health_names_no_secret(api):
    client = api(
        groq_api_key=SecretStr("gsk_health_secret_0123456789"),
        tavily_api_key=SecretStr("tvly-health-secret-012345"),
        web_providers=["tavily", "secondary"],
    )
    body = client.get("/health").text
    assert "gsk_health_secret" not in body and "tvly-health-secret" not in body
    health = json.loads(body)
    assert health["index"]["present"] and health["index"]["chunks_per_collection"]["health_governance"] > 0
    assert health["generator"].startswith("groq") and "tavily" in health["web_providers"]


def test_rate_limit_answers_429_with_retry_after(api):
    client = api(anonymous_credit_capacity=2.0, anonymous_credit_refill_per_s=0.01)
    assert client.post("/query", json={"question": QUESTION}).status_code == 200
    assert client.post("/query", json={"question": "What is a data protection officer?"}).status_code == 200
    limited = client.post("/query", json={"question": "What is pseudonymisation?"})
    assert limited.status_code == 429 and int(limited.headers["Retry-After"]) >= 1
    status = client.get("/rate-limit-status").json()
    assert status["credits"] < 1 and status["retry_after_s"] >= 1


def test_request_rate_cap(api):
    client = api(anonymous_rate_per_minute=2)
    for _ in range(2):
        assert client.get("/rate-limit-status").status_code == 200
        assert client.post("/query", json={"question": QUESTION}).status_code == 200
    capped = client.post("/query", json={"question": QUESTION})
    assert capped.status_code == 429 and "per minute" in capped.json()["detail"]


def test_semantic_cache_hits_near_duplicates_only_with_the_same_references(api):
    client = api()
    first = client.post("/query", json={"question": "What does GDPR Art. 33 require after a breach?"}).json()
    assert not first["cache_hit"]
    again = client.post("/query", json={"question": "What does GDPR Art. 33 require after a breach ?"}).json()
    assert again["cache_hit"] and again["answer"] == first["answer"]
    other_article = client.post("/query", json={"question": "What does GDPR Art. 34 require after a breach?"}).json()
    assert not other_article["cache_hit"]
    elsewhere = client.post(
        "/query", json={"question": "What does GDPR Art. 33 require after a breach?", "collection": "secondary"}
    ).json()
    assert not elsewhere["cache_hit"]


def test_refusals_are_never_cached(api):
    client = api()
    for _ in range(2):
        reply = client.post("/query", json={"question": "What is the capital of France?"}).json()
        assert reply["status"] == "refused" and not reply["cache_hit"]


def test_telemetry_and_analytics(api):
    client = api(telemetry_redaction="hash")
    admin = make_key(client, ["admin"])
    client.post("/query", json={"question": QUESTION})
    client.post("/query", json={"question": QUESTION})  # cache hit
    client.post("/query", json={"question": "What is the capital of France?"}, headers={"X-API-Key": admin})
    stats = client.get("/analytics", headers={"X-API-Key": admin}).json()
    assert stats["answered_or_refused"] == 3
    assert stats["cache_hit_rate"] == pytest.approx(1 / 3, abs=1e-3) and stats["refusal_rate"] == pytest.approx(
        1 / 3, abs=1e-3
    )
    assert stats["routes"].get("CORRECT") == 2 and stats["latency_ms"]["p50"] is not None
    path = client.app.state.policyrag.settings.telemetry_path
    with sqlite3.connect(path) as db:
        rows = db.execute("SELECT key_id, question FROM requests WHERE question IS NOT NULL").fetchall()
    assert {r[0] for r in rows} >= {"anonymous"} and all(r[1].startswith("sha256:") for r in rows)
    assert admin not in repr(rows)


def test_langserve_routes_and_openapi(api):
    client = api()
    invoked = client.post("/graph/invoke", json={"input": {"question": QUESTION}}).json()
    assert "72 hours" in invoked["output"]["answer"]
    batch = client.post(
        "/graph/batch", json={"inputs": [{"question": QUESTION}, {"question": "What is the capital of France?"}]}
    ).json()
    assert [o["status"] for o in batch["output"]] == ["answered", "refused"]
    assert "question" in json.dumps(client.get("/graph/input_schema").json())
    assert client.get("/graph/playground/").status_code == 200
    with client.stream("POST", "/graph/stream", json={"input": {"question": QUESTION}}) as reply:
        assert reply.status_code == 200 and "event: data" in "".join(reply.iter_text())
    paths = client.get("/openapi.json").json()["paths"]
    assert {
        "/query",
        "/query/stream",
        "/health",
        "/analytics",
        "/rate-limit-status",
        "/auth/generate",
        "/auth/revoke",
    } <= set(paths)


def test_security_headers_and_page(api):
    client = api()
    page = client.get("/")
    assert page.status_code == 200 and '<form id="ask-form">' in page.text
    assert "default-src 'self'" in page.headers["Content-Security-Policy"]
    assert page.headers["X-Content-Type-Options"] == "nosniff" and page.headers["X-Frame-Options"] == "DENY"
    assert "https://" not in client.get("/static/app.js").text  # no external CDN


def test_error_replies_are_the_ones_the_openapi_schema_documents(api):
    client = api(anonymous=False, max_body_bytes=2048)
    paths = client.get("/openapi.json").json()["paths"]
    read, admin = make_key(client, ["read"]), make_key(client, ["admin"])
    replies = [
        ("post", "/query", client.post("/query", json={"question": QUESTION})),  # 401: no key
        ("get", "/analytics", client.get("/analytics", headers={"X-API-Key": read})),  # 403
        (
            "post",
            "/query",
            client.post("/query", json={"question": "x", "collection": "nope"}, headers={"X-API-Key": read}),
        ),  # 404
        (
            "post",
            "/auth/revoke",
            client.post("/auth/revoke", json={"key_id": "nope"}, headers={"X-API-Key": admin}),
        ),  # 404
        (
            "post",
            "/search-policy",
            client.post("/search-policy", json={"query": " "}, headers={"X-API-Key": read}),
        ),  # 422
        (
            "post",
            "/query/stream",
            client.post(
                "/query/stream", content=b"x" * 4096, headers={"X-API-Key": read, "Content-Type": "application/json"}
            ),
        ),  # 413
    ]
    assert [r.status_code for _, _, r in replies] == [401, 403, 404, 404, 422, 413]
    for method, path, reply in replies:
        documented = paths[path][method]["responses"]
        assert str(reply.status_code) in documented, f"{path} answers {reply.status_code} without documenting it"
        assert documented[str(reply.status_code)]["content"]["application/json"]["schema"] == {
            "$ref": "#/components/schemas/ErrorReply"
        }
        assert ErrorReply.model_validate(reply.json()).detail


def test_the_top_k_setting_applies_over_http_and_langserve(api):
    def kept(steps: list[dict]) -> str:
        return next(step["detail"] for step in steps if step["node"] == "grade")

    client = api(top_k=2)
    record = client.post("/query", json={"question": "breach notification timeline", "allow_web": False}).json()
    assert "; kept 2 of " in kept(record["steps"])
    reply = client.post(
        "/graph/invoke", json={"input": {"question": "breach notification timeline", "allow_web": False}}
    )
    assert "; kept 2 of " in kept(reply.json()["output"]["steps"])
    chosen = client.post("/query", json={"question": "breach notification timeline", "top_k": 3, "allow_web": False})
    assert "; kept 3 of " in kept(chosen.json()["steps"])


def test_langserve_answers_on_the_apps_own_path_priced_and_recorded(api):
    client = api()
    state = client.app.state.policyrag
    reply = client.post("/graph/invoke", json={"input": {"question": "What is a DPIA?", "collection": "secondary"}})
    assert reply.status_code == 200, reply.text
    output = reply.json()["output"]
    assert output["status"] == "answered" and {e["collection"] for e in output["evidence"]} == {"secondary"}
    assert client.get("/rate-limit-status").json()["spent"] > 0  # the run was charged to the caller
    assert state.telemetry.analytics()["answered_or_refused"] == 1  # recorded like a /query answer
    unknown = client.post("/graph/invoke", json={"input": {"question": "What is a DPIA?", "colection": "x"}})
    assert unknown.status_code == 422  # the same validation as /query: unknown fields are refused


def test_telemetry_stores_no_key_and_no_control_character_from_a_question(api):
    client = api()
    admin = make_key(client, ["admin"])
    secrets = [admin, "gsk_" + "A1b2C3d4" * 4, "tvly-" + "z9Y8x7W6" * 3, "sk-" + "proj_0123456789abcdefXYZ"]
    hidden = secrets[0][:12] + "\x00" + secrets[0][12:]  # a NUL inside a key must not keep it from being seen
    question = (
        f"How long to notify a breach?\x00 my keys: {' '.join(secrets)} {hidden} \x1b[31mred\x1b[0m bell\x07 done"
    )
    assert client.post("/query", json={"question": question}).status_code == 200
    path = client.app.state.policyrag.settings.telemetry_path
    with sqlite3.connect(path) as db:
        (stored,) = db.execute("SELECT question FROM requests WHERE question IS NOT NULL").fetchone()
    assert stored.startswith("How long to notify a breach?") and "red" in stored and stored.endswith("done")
    assert not any(ord(c) < 32 or 127 <= ord(c) < 160 for c in stored), repr(stored)
    raw = b"".join(p.read_bytes() for p in (path, path.with_name(path.name + "-wal")) if p.exists())
    for secret in secrets:
        # nor its secret part (an admin key is prag_<id>_<token>, and the token itself may hold "_")
        tail = secret.split("_", 2)[-1] if secret.startswith("prag_") else secret.split("_")[-1]
        assert secret.encode() not in raw and tail.encode() not in raw
    assert b"\x1b[" not in raw and b"breach?\x00" not in raw


def test_liveness_and_readiness_are_documented(api):
    client = api(anonymous=False)  # no key needed: orchestrators probe without one
    assert client.get("/health/live").json() == {"status": "alive"}
    ready = client.get("/health/ready")
    assert ready.status_code == 200 and ready.json()["status"] == "ready"
    paths = client.get("/openapi.json").json()["paths"]
    assert "200" in paths["/health/live"]["get"]["responses"]
    assert {"200", "503"} <= set(paths["/health/ready"]["get"]["responses"])


@pytest.mark.parametrize("name", ["line\nbreak", "nul\x00", "esc\x1b[2J", "tab\tname", "del\x7f"])
def test_auth_generate_refuses_a_name_with_control_characters(api, name):
    client = api(anonymous=False)
    admin = make_key(client, ["admin"])
    reply = client.post("/auth/generate", json={"name": name}, headers={"X-API-Key": admin})
    assert reply.status_code == 422 and "control character" in reply.text
    assert len(keys_of(client).list()) == 1  # only the admin key


def test_no_server_path_reaches_a_reply_for_a_file_ingested_without_a_sidecar(tmp_path, models_dir, embedder):
    from retrieval.resources import Resources
    from retrieval.services import Services
    from server.app import create_app

    folder = tmp_path / "private" / "notes"
    folder.mkdir(parents=True)
    (folder / "retention_note.txt").write_text(
        "Retention note\n\nPatient records held by the clinic are kept for eight years after the last visit.\n",
        encoding="utf-8",
    )
    settings = make_settings(tmp_path / "data", models_dir, web_providers=[])
    resources = Resources(settings, embedder=embedder)
    report = ingest_into(resources, [folder], collection="notes")
    assert not report.failed
    with TestClient(create_app(settings, Services(settings, resources))) as client:
        reply = client.post(
            "/query",
            json={
                "question": "How long are patient records kept by the clinic?",
                "collection": "notes",
                "allow_web": False,
            },
        )
    resources.close()
    record = reply.json()
    assert reply.status_code == 200 and record["status"] == "answered" and "eight years" in record["answer"]
    assert "file:" not in reply.text and str(tmp_path) not in reply.text
    assert record["evidence"][0]["url"] == "" and record["citations"][0]["url"] == ""
    assert record["evidence"][0]["doc_id"] == "retention_note"  # the path relative to the ingested folder


def test_evidence_from_an_older_index_never_shows_a_file_url():
    from core.types import Evidence, Scores

    payload = {"chunk_id": "c", "text": "t", "citation": "C", "source_url": "file:///srv/policyrag/corpus/notes.txt"}
    assert Evidence.from_payload(payload, Scores()).url == ""
