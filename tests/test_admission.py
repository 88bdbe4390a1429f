"""The request-admission layer in process: bodies bounded while they stream in, headers on every reply.

The app is called as ASGI directly with a `receive` that hands out a chunked body piece by piece
and counts what was pulled: the test client would read a whole body before the app sees any of it.
"""

from __future__ import annotations

import anyio
import pytest

LIMIT = 65536
PIECE = 4096
ENDLESS = 50 * 1024 * 1024  # what the client would send if nobody stopped it


def http_scope(method: str, path: str, headers: list[tuple[bytes, bytes]] | None = None) -> dict:
    return {
        "type": "http",
        "asgi": {"version": "3.0", "spec_version": "2.4"},
        "http_version": "1.1",
        "method": method,
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver"), *(headers or [])],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
        "state": {},
    }


def send_chunked(app, path: str, headers: list[tuple[bytes, bytes]] | None = None) -> tuple[int, int, bytes]:
    """(status, bytes pulled from the client, reply body) for an endless chunked POST without Content-Length."""
    pulled = 0
    replies: list[dict] = []

    async def receive() -> dict:
        nonlocal pulled
        if pulled >= ENDLESS:
            return {"type": "http.disconnect"}
        pulled += PIECE
        return {"type": "http.request", "body": b"x" * PIECE, "more_body": pulled < ENDLESS}

    async def send(message: dict) -> None:
        replies.append(message)

    scope = http_scope("POST", path, [(b"content-type", b"application/json"), *(headers or [])])
    anyio.run(app, scope, receive, send)
    body = b"".join(m.get("body", b"") for m in replies if m["type"] == "http.response.body")
    return replies[0]["status"], pulled, body


@pytest.mark.parametrize("path", ["/query", "/query/stream", "/graph/invoke", "/graph/batch", "/auth/generate"])
def test_a_chunked_body_is_refused_as_soon_as_the_limit_is_passed_before_any_key_check(api, path):
    client = api(anonymous=False, max_body_bytes=LIMIT)
    status, pulled, body = send_chunked(client.app, path)
    assert status == 413 and b"over 65536 bytes" in body  # not 401: the key is never looked at
    assert pulled <= LIMIT + PIECE  # reading stopped at the limit; the other 50 MB were never pulled


@pytest.mark.parametrize("padding", [(" ", ""), ("", " "), ("\t", "  "), (" \t", "\t ")])
def test_an_api_key_with_surrounding_whitespace_is_accepted(api, padding):
    client = api(anonymous=False)
    plain, _ = client.app.state.policyrag.keys.create("padded", ["read"])
    before, after = padding
    assert client.get("/rate-limit-status", headers={"X-API-Key": f"{before}{plain}{after}"}).status_code == 200
    assert client.get("/rate-limit-status", headers={"X-API-Key": f"{plain[:-1]} {plain[-1]}"}).status_code == 401


QUESTION = "How many hours does a controller have to notify a personal data breach to the supervisory authority?"
ANSWER_ROUTES = ["/query", "/query/stream", "/graph/invoke", "/graph/batch", "/graph/stream"]


def post_question(client, path: str, fields: dict, headers: dict | None = None):
    """One question (the /query body) to any answering route, wrapped as LangServe wants it."""
    question = {"question": QUESTION, **fields}
    body = (
        {"inputs": [question]}
        if path == "/graph/batch"
        else {"input": question}
        if path.startswith("/graph/")
        else question
    )
    return client.post(path, json=body, headers=headers or {})


@pytest.mark.parametrize("path", ANSWER_ROUTES)
@pytest.mark.parametrize(
    ("fields", "problem"),
    [
        ({"top_k": "5"}, "top_k"),
        ({"top_k": True}, "top_k"),
        ({"top_k": 5.0}, "top_k"),
        ({"allow_web": "no"}, "allow_web"),
        ({"allow_web": 0}, "allow_web"),
        ({"collection": 7}, "collection"),
        ({"filters": {"collection": "x" * 60_000}}, "filters"),
        ({"filters": {"jurisdiction": ["EU"] * 500}}, "filters"),
        ({"question": "x" * 19_990}, "at most 2000 characters"),
    ],
)
def test_every_answering_route_refuses_what_query_refuses_with_422(api, path, fields, problem):
    client = api()
    reply = post_question(client, path, fields)
    assert reply.status_code == 422, reply.text[:300]
    assert problem in reply.text and "Traceback" not in reply.text
    assert client.app.state.policyrag.telemetry.analytics()["answered_or_refused"] == 0


@pytest.mark.parametrize("path", ANSWER_ROUTES)
@pytest.mark.parametrize(
    "fields",
    [
        {"collection": "../../etc"},
        {"filters": {"collection": "../../etc"}},
        {"filters": {"collection": ["health_governance", "nope"]}},
        {"collection": "health_governance", "filters": {"collection": "secondary_nope"}},
    ],
)
def test_every_answering_route_checks_the_collection_and_the_collection_filter(api, path, fields):
    client = api()
    reply = post_question(client, path, fields)
    assert reply.status_code == 404 and "unknown collection" in reply.json()["detail"], reply.text[:300]
    assert client.app.state.policyrag.telemetry.analytics()["answered_or_refused"] == 0


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ({"collection": "x" * 60_000}, 422),
        ({"filters": {"collection": "x" * 60_000}}, 422),
        ({"filters": {"collection": "../../etc"}}, 404),
        ({"collection": "../../etc"}, 404),
        ({"k": "5"}, 422),
    ],
)
def test_evaluate_retrieval_applies_the_same_validation(api, body, status):
    client = api()
    reply = client.post("/evaluate-retrieval", json={"questions": [{"question": "breach notification"}], **body})
    assert reply.status_code == status, reply.text[:300]


def test_search_policy_refuses_a_top_k_given_as_text(api):
    reply = api().post("/search-policy", json={"query": "Is cataract covered?", "top_k": "5"})
    assert reply.status_code == 422 and "top_k" in reply.text


def test_a_known_collection_filter_still_answers(api):
    client = api()
    for path in ANSWER_ROUTES:
        reply = post_question(client, path, {"filters": {"collection": "health_governance"}, "allow_web": False})
        assert reply.status_code == 200, (path, reply.text[:300])


# --- every route passes the door ------------------------------------------------------------------------

# the page, the collections it offers (names, titles, counts) and the probes need no key
PUBLIC_ROUTES = {"/", "/collections", "/health", "/health/live", "/health/ready"}
FRAMEWORK_ROUTES = {"/openapi.json", "/docs", "/docs/oauth2-redirect", "/redoc", "/static"}


def all_routes(app):
    for route in app.routes:
        if hasattr(route, "original_router"):  # an included router
            yield from route.original_router.routes
        else:
            yield route


def dependency_calls(dependant) -> set:
    calls = {dependant.call}
    for sub in dependant.dependencies:
        calls |= dependency_calls(sub)
    return calls


def test_every_route_but_the_page_and_the_probes_checks_the_key(api):
    from fastapi.routing import APIRoute

    from server.deps import caller

    unchecked = set()
    for route in all_routes(api().app):
        if not isinstance(route, APIRoute):
            assert route.path in FRAMEWORK_ROUTES, route.path  # docs, schema and static files only
        elif caller not in dependency_calls(route.dependant):
            unchecked.add(route.path)
    assert unchecked == PUBLIC_ROUTES
