"""LangGraph Studio's local server (`langgraph dev`) serves the graph: started on loopback, queried, stopped by PID."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import threading
from pathlib import Path

import httpx
import pytest

from evals.service_process import free_port
from tests.conftest import REPO_ROOT

pytestmark = pytest.mark.subprocess

API_LINE = re.compile(r"API:\s*(?:\x1b\[[0-9;]*m)*(http://127\.0\.0\.1:\d+)")
START_TIMEOUT_S = 120


@pytest.fixture
def studio_server(shipped):
    env = {
        **os.environ,
        "POLICYRAG_DATA_DIR": str(shipped.settings.data_dir),
        "POLICYRAG_MODELS_DIR": str(shipped.settings.models_dir),
        "POLICYRAG_WEB_PROVIDERS": '["secondary"]',
        "HF_HUB_OFFLINE": "1",
    }
    langgraph = Path(sys.executable).parent / "langgraph"
    process = subprocess.Popen(
        [str(langgraph), "dev", "--host", "127.0.0.1", "--port", str(free_port()), "--no-browser", "--no-reload"],
        cwd=REPO_ROOT,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    found: dict[str, str] = {}
    ready = threading.Event()

    def watch() -> None:  # the server may move to another port: the real one is in its log
        for line in process.stdout:
            if match := API_LINE.search(line):
                found["url"] = match.group(1)
            if "Application started up" in line and "url" in found:
                ready.set()
        ready.set()  # the process ended: stop waiting

    threading.Thread(target=watch, daemon=True).start()
    try:
        assert ready.wait(START_TIMEOUT_S) and "url" in found, "langgraph dev did not report its API address"
        yield found["url"]
    finally:
        os.killpg(process.pid, signal.SIGTERM)
        process.wait(timeout=30)


def test_studio_server_runs_the_graph(studio_server):
    with httpx.Client(base_url=studio_server, timeout=120) as client:
        reply = client.post(
            "/runs/wait",
            json={"assistant_id": "policyrag", "input": {"question": "How long to notify a personal data breach?"}},
        )
        assert reply.status_code == 200, reply.text
        output = reply.json()
        assert output["status"] == "answered" and "72 hours" in output["answer"]
        assert output["route"] == "CORRECT" and output["citations"]

        scoped = client.post(
            "/runs/wait",
            json={
                "assistant_id": "policyrag",
                "input": {"question": "breach notification"},
                "context": {"collection": "secondary", "allow_web": False},
            },
        ).json()
        assert {e["collection"] for e in scoped["evidence"]} == {"secondary"}
