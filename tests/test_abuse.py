"""Abuse of the real service on loopback (`policyrag serve`, uvicorn): an endless chunked body.

The server's memory is read from /proc/PID/status: its peak (VmHWM) is reset through
/proc/PID/clear_refs before the abuse, so the peak afterwards is the peak during it.
"""

from __future__ import annotations

import json
import select
import socket
import sqlite3
import time
from pathlib import Path

import httpx
import pytest

from evals.service_process import free_port, start, stop

START_TIMEOUT_S = 120
MB = 1024 * 1024


def memory_kb(pid: int) -> dict[str, int]:
    """VmRSS and VmHWM of a process, in kB."""
    fields = {}
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        name, _, value = line.partition(":")
        if name in ("VmRSS", "VmHWM"):
            fields[name] = int(value.split()[0])
    return fields


def reset_peak(pid: int) -> None:
    Path(f"/proc/{pid}/clear_refs").write_text("5")  # VmHWM starts again from the current RSS


def post_chunked(port: int, path: str, total: int, piece: int = 64 * 1024, timeout_s: float = 120) -> tuple[bytes, int]:
    """POST `total` bytes as a chunked body (no Content-Length) unless the server answers first.

    Returns (the reply's bytes, how many body bytes were sent). Sending and reading are interleaved
    (select), so a reply that comes early is read even while the body is still going out."""
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        "Transfer-Encoding: chunked\r\n\r\n"
    ).encode()
    chunk = f"{piece:x}\r\n".encode() + b"x" * piece + b"\r\n"
    with socket.create_connection(("127.0.0.1", port), timeout=timeout_s) as sock:
        sock.sendall(head)
        sock.setblocking(False)
        reply, sent, pending = b"", 0, b""
        while True:
            wants_write = sent < total or pending
            readable, writable, _ = select.select([sock], [sock] if wants_write else [], [], timeout_s)
            if not readable and not writable:
                raise AssertionError(f"nothing happened for {timeout_s} s after {sent} bytes")
            if readable:
                try:
                    data = sock.recv(65536)
                except ConnectionResetError:
                    return reply, sent
                if not data:
                    return reply, sent
                reply += data
                continue
            if not pending:
                pending = chunk if sent < total else b"0\r\n\r\n"
                sent += piece if sent < total else 0
            try:
                pending = pending[sock.send(pending) :]
            except (BrokenPipeError, ConnectionResetError):
                return reply, sent  # the server closed: whatever it answered is read above


@pytest.mark.slow
@pytest.mark.subprocess
def test_a_200_mb_chunked_body_is_refused_with_413_and_the_server_memory_stays_flat(service_env):
    port = free_port()
    process, lines = start(["serve", "--host", "127.0.0.1", "--port", str(port)], service_env, START_TIMEOUT_S)
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120) as client:
            assert client.post("/query", json={"question": "What is pseudonymisation?"}).status_code == 200  # warm
        before = memory_kb(process.pid)
        reset_peak(process.pid)
        reply, sent = post_chunked(port, "/query", 200 * MB)
        after = memory_kb(process.pid)
        status_line = reply.split(b"\r\n", 1)[0]
        assert status_line.startswith(b"HTTP/1.1 413"), reply[:300]
        growth_mb = (after["VmHWM"] - before["VmRSS"]) / 1024
        print(
            f"sent {sent / MB:.1f} MB before the reply; server RSS {before['VmRSS'] / 1024:.0f} MB, peak growth "
            f"{growth_mb:.1f} MB"
        )
        assert growth_mb < 50, f"the server grew by {growth_mb:.0f} MB"
        assert process.poll() is None, "".join(lines[-20:])
    finally:
        stop(process)


# --- clients that hang up ------------------------------------------------------------------------

OUT_OF_SCOPE = "What is the capital of France?"  # INCORRECT: the graph goes to web_search, where Tavily hangs
WEB_TIMEOUT_S = 8  # how long web_search waits for the hanging stand-in: the window in which the client leaves
DISCONNECTED = 499  # the status recorded for a request whose client went away


def wait_for(condition, timeout_s: float, what: str):
    """Poll `condition` until it returns something truthy; fail after timeout_s."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        if value := condition():
            return value
        time.sleep(0.05)
    raise AssertionError(f"timed out after {timeout_s} s waiting for {what}")


def telemetry_rows(data: Path) -> list[dict]:
    path = data / "telemetry.sqlite"
    if not path.exists():
        return []
    with sqlite3.connect(f"file:{path}?mode=ro", uri=True) as db:
        db.row_factory = sqlite3.Row
        return [dict(r) for r in db.execute("SELECT * FROM requests ORDER BY id")]


@pytest.fixture
def hanging_web(service_env, standin):
    """A served index whose only web provider (Tavily, the stand-in) never answers; (port, data folder)."""
    standin.set_script(search=[{"hang": True}])
    env = {
        **service_env,
        "TAVILY_API_KEY": "tvly-standin-0123456789",
        "POLICYRAG_TAVILY_BASE_URL": standin.url,
        "POLICYRAG_WEB_PROVIDERS": '["tavily"]',
        "POLICYRAG_WEB_TIMEOUT_S": str(WEB_TIMEOUT_S),
        "POLICYRAG_WEB_FAILURE_COOLDOWN_S": "0",
    }
    port = free_port()
    process, lines = start(["serve", "--host", "127.0.0.1", "--port", str(port)], env, START_TIMEOUT_S)
    try:
        yield port, Path(env["POLICYRAG_DATA_DIR"])
    finally:
        stop(process)


def raw_request(port: int, path: str, body: dict) -> socket.socket:
    payload = json.dumps(body).encode()
    head = (
        f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nContent-Type: application/json\r\n"
        f"Content-Length: {len(payload)}\r\n\r\n"
    ).encode()
    sock = socket.create_connection(("127.0.0.1", port), timeout=30)
    sock.sendall(head + payload)
    return sock


HANG_UPS = {
    "/query": lambda q: {"question": q},
    "/query/stream": lambda q: {"question": q},
    "/graph/invoke": lambda q: {"input": {"question": q}},
    "/graph/stream": lambda q: {"input": {"question": q}},
    "/graph/batch": lambda q: {"inputs": [{"question": q}, {"question": f"{q} Please."}]},
}


@pytest.mark.subprocess
@pytest.mark.parametrize("path", list(HANG_UPS))
def test_the_graph_stops_at_its_next_node_when_the_client_hangs_up(hanging_web, standin, path):
    port, data = hanging_web
    body = HANG_UPS[path](OUT_OF_SCOPE)
    runs = len(body.get("inputs", [None]))
    client = raw_request(port, path, body)
    wait_for(lambda: len(standin.requests("search")) >= runs, 60, "the graph to reach web_search")
    client.close()  # the client goes while web_search waits for Tavily

    def abandoned() -> list[dict]:
        rows = [r for r in telemetry_rows(data) if r["http_status"] == DISCONNECTED]
        return rows if len(rows) == runs else []

    rows = wait_for(abandoned, WEB_TIMEOUT_S + 60, "every abandoned run to be recorded")
    for row in rows:
        nodes = set(json.loads(row["node_latency"]))
        assert "web_search" in nodes and "generate" not in nodes, nodes  # stopped at the next node
        assert row["status"] is None and not row["cache_hit"]
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=60) as http:
        assert http.get("/rate-limit-status").json()["spent"] == 0  # nothing charged
        assert http.get("/health").json()["semantic_cache"]["entries"] == 0  # nothing cached


@pytest.mark.subprocess
def test_a_client_that_stays_gets_the_whole_run(hanging_web):
    port, data = hanging_web
    with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=WEB_TIMEOUT_S + 120) as http:
        reply = http.post("/query", json={"question": OUT_OF_SCOPE})
    assert reply.status_code == 200 and "generate" in reply.json()["latency_ms"]
    assert [r["http_status"] for r in telemetry_rows(data)] == [200]
