"""API fuzzing with schemathesis against the service's own OpenAPI schema.

Every operation in /openapi.json (the service's routes and the LangServe graph routes) gets up to
25 generated cases, schema-valid and schema-violating (schemathesis' positive and negative
modes), derandomized so a run is repeatable (an operation without parameters has only the two
caller kinds to try). Whatever arrives, the reply is never a 5xx nor an unhandled exception (the
test client re-raises one), and every 4xx is JSON with a "detail" and no stack trace. On the
service's own routes every status code, content type and body must also be the ones its OpenAPI
schema documents (LangServe's generated /graph routes document only their success replies). Bodies the
generator never sends (malformed JSON, values past Qdrant's limits) are in HOSTILE below.

The app runs in process over the session's shipped index, with anonymous read on (half of the
cases go without a key) and an admin key (the other half) so the admin routes are exercised too.
No web provider and no chat model are configured, so nothing leaves the machine; the rate limits
are raised so that a 429 never hides what a route would have done.

Nothing is excluded: the LangServe routes that are mounted (invoke, batch, stream, the schemas)
are all in the schema and fuzzed; `stream_log` and `stream_events` are not mounted at all, and
the playground and the web page are outside the schema (`include_in_schema=False`).
"""

from __future__ import annotations

import json

import hypothesis.strategies as st
import pytest
import schemathesis
from fastapi.testclient import TestClient
from hypothesis import HealthCheck, settings
from schemathesis.checks import not_a_server_error
from schemathesis.specs.openapi.checks import (
    content_type_conformance,
    response_schema_conformance,
    status_code_conformance,
)

from retrieval.services import Services
from server.app import create_app

EXAMPLES_PER_OPERATION = 25
UNLIMITED = {
    "anonymous_credit_capacity": 1e9,
    "anonymous_credit_refill_per_s": 1e6,
    "anonymous_rate_per_minute": 10**9,
    "key_credit_capacity": 1e9,
    "key_credit_refill_per_s": 1e6,
    "key_rate_per_minute": 10**9,
}
OFFLINE = {"web_providers": [], "groq_api_key": None, "tavily_api_key": None, "chat_model": None}


def without_lifespan(app):
    """The app for schemathesis' client, which opens (and so closes) the app's lifespan on every call.

    The fixture owns the real lifespan (opened once, closed at the end); the per-call clients get
    startup/shutdown acknowledged here and every other request goes to the app unchanged.
    """

    async def asgi(scope, receive, send):
        if scope["type"] != "lifespan":
            await app(scope, receive, send)
            return
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                await send({"type": "lifespan.shutdown.complete"})
                return

    return asgi


@pytest.fixture
def fuzz_service(shipped, tmp_path):
    """(app, admin key): a fresh data folder for keys and telemetry, the shipped index, no network."""
    overrides = {
        "data_dir": tmp_path / "svc",
        "models_dir_override": shipped.settings.models_dir,
        **OFFLINE,
        **UNLIMITED,
    }
    settings_ = shipped.settings.model_copy(update=overrides)
    app = create_app(settings_, Services(settings_, shipped), anonymous_read=True)
    with TestClient(app, raise_server_exceptions=True) as client:  # lifespan: keys and telemetry closed at the end
        admin, _ = client.app.state.policyrag.keys.create("fuzz-admin", ["admin"])
        yield app, admin


@pytest.fixture
def fuzz_schema(fuzz_service):
    app, _ = fuzz_service
    return schemathesis.openapi.from_asgi("/openapi.json", without_lifespan(app))


schema = schemathesis.pytest.from_fixture("fuzz_schema")


def assert_clear_reply(response, label: str) -> None:
    status = response.status_code
    assert status < 500, f"{label}: {status} {response.text[:500]}"
    assert "Traceback" not in response.text, f"{label}: a stack trace in the reply"
    if 400 <= status < 500:
        try:
            body = json.loads(response.text)
        except ValueError:
            raise AssertionError(f"{label}: {status} reply is not JSON: {response.text[:300]!r}") from None
        assert isinstance(body, dict) and body.get("detail"), f"{label}: {status} reply has no 'detail': {body!r}"


@schema.parametrize()
@schema.given(as_admin=st.booleans())
@settings(
    max_examples=EXAMPLES_PER_OPERATION,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.function_scoped_fixture,
        HealthCheck.data_too_large,
    ],
)
@pytest.mark.slow
def test_no_route_answers_with_a_server_error(case, as_admin, fuzz_service):
    _, admin = fuzz_service
    headers = {"X-API-Key": admin} if as_admin else {}
    response = case.call(headers=headers)  # an unhandled exception in the app is raised here by the test client
    checks = [not_a_server_error]
    if not case.operation.path.startswith("/graph/"):  # our own routes document every status and body they answer with
        checks += [status_code_conformance, content_type_conformance, response_schema_conformance]
    case.validate_response(response, checks=checks, headers=headers)
    assert_clear_reply(response, f"{case.operation.label} ({'admin' if as_admin else 'anonymous'})")


# Hostile bodies the schema-driven generator does not produce (it always sends well-formed JSON):
# each was a 500 before the fixes in server/schemas.py and server/app.py.
HOSTILE = [
    ("/graph/invoke", b"{not json"),  # LangServe raises RequestValidationError with plain strings
    ("/graph/batch", b"{not json"),
    ("/graph/stream", b"{not json"),
    (
        "/graph/batch",
        {"inputs": [{"question": "x"}, {"question": ""}]},
    ),  # LangServe validates batch inputs untranslated
    ("/graph/batch", {"inputs": "x"}),
    ("/graph/invoke", {"input": {"question": "breach", "filters": {"a": None}}}),
    ("/graph/invoke", {"input": {"question": "breach", "top_k": 10**24}}),
    ("/graph/invoke", {"input": {"question": ""}}),
    ("/query", {"question": "breach", "filters": {"": "x"}}),  # not a valid Qdrant key path
    ("/query", {"question": "breach", "filters": {"a b": "x"}}),
    ("/query", {"question": "breach", "filters": {"!": "x"}}),
    ("/query", {"question": "breach", "filters": {"a": 10**24}}),  # beyond Qdrant's 64-bit integers
    ("/query/stream", {"question": "breach", "filters": {"a[": "x"}}),
    ("/evaluate-retrieval", {"questions": [{"question": "0"}], "filters": {"": False}}),
]


@pytest.mark.parametrize(("path", "body"), HOSTILE, ids=[f"{p} {str(b)[:40]}" for p, b in HOSTILE])
def test_hostile_bodies_get_a_clear_422(fuzz_service, path, body):
    app, admin = fuzz_service
    with TestClient(without_lifespan(app), raise_server_exceptions=True) as client:
        if isinstance(body, bytes):
            reply = client.post(path, content=body, headers={"Content-Type": "application/json", "X-API-Key": admin})
        else:
            reply = client.post(path, json=body, headers={"X-API-Key": admin})
    assert reply.status_code == 422, reply.text[:300]
    assert_clear_reply(reply, path)


def test_valid_filters_still_work(fuzz_service):
    app, _ = fuzz_service
    with TestClient(without_lifespan(app), raise_server_exceptions=True) as client:
        filters = {
            "jurisdiction": "EU",
            "!collection": "secondary",
            "hierarchy_rank": 1,
            "document_type": ["primary_law"],
        }
        assert (
            client.post(
                "/query", json={"question": "How long to report a personal data breach?", "filters": filters}
            ).status_code
            == 200
        )
        assert (
            client.post(
                "/graph/invoke",
                json={"input": {"question": "How long to report a personal data breach?", "filters": filters}},
            ).status_code
            == 200
        )
        batch = client.post("/graph/batch", json={"inputs": [{"question": "What is pseudonymisation?", "top_k": 3}]})
        assert batch.status_code == 200 and len(batch.json()["output"]) == 1
