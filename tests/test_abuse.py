"""Abuse of the real service on loopback (`policyrag serve`, uvicorn): an endless chunked body.

The server's memory is read from /proc/PID/status: its peak (VmHWM) is reset through
/proc/PID/clear_refs before the abuse, so the peak afterwards is the peak during it.
"""

from __future__ import annotations

import select
import socket
from pathlib import Path

import httpx
import pytest

from tests.conftest import free_port
from tests.service_process import start, stop

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
