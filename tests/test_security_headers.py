"""CORS: only the configured origins get an Access-Control-Allow-Origin; with none configured, no CORS header at all."""

from __future__ import annotations

from fastapi.testclient import TestClient

ALLOWED = "https://intranet.example"
OTHER = "https://elsewhere.example"


def preflight(client: TestClient, origin: str, path: str = "/query"):
    return client.options(
        path,
        headers={
            "Origin": origin,
            "Access-Control-Request-Method": "POST",
            "Access-Control-Request-Headers": "X-API-Key, Content-Type",
        },
    )


def cors_headers(reply) -> dict[str, str]:
    return {k.lower(): v for k, v in reply.headers.items() if k.lower().startswith("access-control-")}


def test_a_configured_origin_gets_cors_headers(api):
    client = api(cors_origins=[ALLOWED])
    reply = preflight(client, ALLOWED)
    assert reply.status_code == 200
    assert reply.headers["Access-Control-Allow-Origin"] == ALLOWED
    assert "POST" in reply.headers["Access-Control-Allow-Methods"]
    assert "x-api-key" in reply.headers["Access-Control-Allow-Headers"].lower()
    get = client.get("/rate-limit-status", headers={"Origin": ALLOWED})
    assert get.status_code == 200 and get.headers["Access-Control-Allow-Origin"] == ALLOWED
    assert "origin" in get.headers.get("Vary", "").lower()  # caches must not reuse it for another origin


def test_another_origin_gets_no_allow_origin(api):
    client = api(cors_origins=[ALLOWED])
    reply = preflight(client, OTHER)
    assert reply.status_code == 400  # Starlette refuses the preflight outright
    assert "access-control-allow-origin" not in cors_headers(reply)
    get = client.get("/rate-limit-status", headers={"Origin": OTHER})
    assert get.status_code == 200  # served (CORS is enforced by the browser), but without permission to read it
    assert "access-control-allow-origin" not in cors_headers(get)
    assert ALLOWED not in str(get.headers)


def test_no_cors_header_without_configured_origins(api):
    client = api()
    for reply in (
        preflight(client, ALLOWED),
        client.get("/rate-limit-status", headers={"Origin": ALLOWED}),
        client.post("/query", json={"question": "What is pseudonymisation?"}, headers={"Origin": ALLOWED}),
    ):
        assert cors_headers(reply) == {}, (reply.request.method, reply.request.url, reply.headers)
    assert preflight(client, ALLOWED).status_code == 405  # no CORS middleware: OPTIONS is just an unknown method
