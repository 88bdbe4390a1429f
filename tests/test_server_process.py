"""The real service process (uvicorn via `policyrag serve`) on a free loopback port, and the keys command."""

from __future__ import annotations

import subprocess
import sys

import httpx
import pytest

from evals.service_process import free_port, start, stop
from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.subprocess

START_TIMEOUT_S = 120


def test_real_server_answers_on_loopback(service_env):
    port = free_port()
    process, lines = start(["serve", "--host", "127.0.0.1", "--port", str(port)], service_env, START_TIMEOUT_S)
    try:
        assert process.poll() is None, "".join(lines)
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120) as client:
            assert client.get("/health").json()["index"]["present"]
            reply = client.post(
                "/query", json={"question": "How long to notify a personal data breach to the supervisory authority?"}
            )
            assert reply.status_code == 200 and "72 hours" in reply.json()["answer"]
    finally:
        stop(process)


def test_anonymous_reads_are_refused_on_a_public_address(service_env):
    done = subprocess.run(
        [sys.executable, "-m", "cli.main", "serve", "--host", "0.0.0.0", "--port", str(free_port())],
        cwd=REPO_ROOT,
        env=service_env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2 and "refusing to serve anonymous reads" in done.stderr


def test_first_admin_key_is_printed_once_and_never_logged(service_env):
    created = subprocess.run(
        [sys.executable, "-m", "cli.main", "keys", "create", "--admin", "--name", "first"],
        cwd=REPO_ROOT,
        env=service_env,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert created.returncode == 0
    key = created.stdout.strip()
    assert key.startswith("prag_") and key not in created.stderr
    port = free_port()
    process, lines = start(
        ["serve", "--host", "127.0.0.1", "--port", str(port), "--no-anonymous"], service_env, START_TIMEOUT_S
    )
    try:
        with httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=120) as client:
            assert client.get("/rate-limit-status").status_code == 401
            assert client.get("/analytics", headers={"X-API-Key": key}).status_code == 200
            made = client.post("/auth/generate", json={"name": "reader"}, headers={"X-API-Key": key}).json()
            assert client.get("/analytics", headers={"X-API-Key": made["key"]}).status_code == 403
    finally:
        stop(process)
    log = "".join(lines)
    assert key not in log and made["key"] not in log
    listed = subprocess.run(
        [sys.executable, "-m", "cli.main", "keys", "list"],
        cwd=REPO_ROOT,
        env=service_env,
        capture_output=True,
        text=True,
        timeout=60,
    )
    assert "first" in listed.stdout and key not in listed.stdout
