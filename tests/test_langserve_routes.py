"""LangServe's /graph routes pass the same door as /query: the same limits, pricing and telemetry,
and a batch is bounded and priced per question."""

from __future__ import annotations

import sqlite3

import pytest

QUESTIONS = ["What is pseudonymisation?", "What is a data protection officer?", "What is a DPIA?"]
GRAPH_CALLS = {
    "/graph/invoke": {"input": {"question": QUESTIONS[0]}},
    "/graph/batch": {"inputs": [{"question": QUESTIONS[0]}]},
    "/graph/stream": {"input": {"question": QUESTIONS[0]}},
}


def rows(client, endpoint: str) -> list[tuple]:
    with sqlite3.connect(client.app.state.policyrag.settings.telemetry_path) as db:
        return db.execute("SELECT key_id, http_status, status FROM requests WHERE endpoint = ?", (endpoint,)).fetchall()


@pytest.mark.parametrize("path", list(GRAPH_CALLS))
def test_a_key_limited_on_query_is_limited_on_the_graph_routes(api, path):
    client = api(anonymous=False, key_credit_refill_per_s=0.001)
    plain, _ = client.app.state.policyrag.keys.create("small", ["read"], budget=1.5)
    headers = {"X-API-Key": plain}
    assert client.post("/query", json={"question": QUESTIONS[1]}, headers=headers).status_code == 200
    assert client.post("/query", json={"question": QUESTIONS[2]}, headers=headers).status_code == 429
    reply = client.post(path, json=GRAPH_CALLS[path], headers=headers)
    assert reply.status_code == 429 and reply.headers["Retry-After"], reply.text[:200]
    assert rows(client, "/graph") == []  # nothing ran


def test_a_batch_over_the_cap_is_refused_before_any_run(api):
    client = api(graph_batch_max_inputs=4)
    reply = client.post("/graph/batch", json={"inputs": [{"question": f"{QUESTIONS[0]} {n}"} for n in range(5)]})
    assert reply.status_code == 422 and "at most 4 inputs" in reply.json()["detail"]
    assert client.get("/rate-limit-status").json()["requests_last_minute"] == 0
    assert rows(client, "/graph") == []


def test_a_batch_needs_a_credit_per_question_and_is_charged_and_recorded_per_question(api):
    client = api(anonymous=False, key_credit_refill_per_s=0.001)
    keys = client.app.state.policyrag.keys
    poor, _ = keys.create("poor", ["read"], budget=2.0)
    batch = {"inputs": [{"question": q, "allow_web": False} for q in QUESTIONS]}
    refused = client.post("/graph/batch", json=batch, headers={"X-API-Key": poor})
    assert refused.status_code == 429 and "credit" in refused.json()["detail"]
    rich, key = keys.create("rich", ["read"], budget=100.0)
    answered = client.post("/graph/batch", json=batch, headers={"X-API-Key": rich})
    assert answered.status_code == 200 and len(answered.json()["output"]) == 3
    status = client.get("/rate-limit-status", headers={"X-API-Key": rich}).json()
    assert status["spent"] >= 3 * 0.5 and status["requests_last_minute"] == 3  # one request per question
    assert [r[:2] for r in rows(client, "/graph")] == [(key.key_id, 200)] * 3


def test_graph_stream_is_charged_and_recorded_like_query(api):
    client = api()
    with client.stream("POST", "/graph/stream", json={"input": {"question": QUESTIONS[0]}}) as reply:
        assert reply.status_code == 200 and "event: end" in "".join(reply.iter_text())
    assert client.get("/rate-limit-status").json()["spent"] > 0
    assert [r[:2] for r in rows(client, "/graph")] == [("anonymous", 200)]


def test_every_priced_route_leaves_a_telemetry_row(api):
    client = api()
    reply = client.post("/evaluate-retrieval", json={"questions": [{"question": "breach notification"}]})
    assert reply.status_code == 200
    assert [r[:2] for r in rows(client, "/evaluate-retrieval")] == [("anonymous", 200)]
