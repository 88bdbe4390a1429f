"""LangGraph Studio's local server (`langgraph dev`) serves the graph: started on loopback, queried, stopped by PID."""

from __future__ import annotations

import os
import re
import sys
from pathlib import Path

import httpx
import pytest

from evals.service_process import free_port, launch, stop, wait_until_accepting

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
    command = [str(langgraph), "dev", "--host", "127.0.0.1", "--port", str(free_port()), "--no-browser", "--no-reload"]
    launched = launch(command, env, ready_line="Application started up")
    try:
        assert launched.ready.wait(START_TIMEOUT_S), "langgraph dev did not start"
        # the server may move to another port: the real one is in its log, before the start-up line
        urls = [match.group(1) for line in launched.lines if (match := API_LINE.search(line))]
        assert urls, "langgraph dev did not report its API address:\n" + "".join(launched.lines[-30:])
        # "Application started up" is logged before uvicorn binds its socket: wait for the bind itself
        assert wait_until_accepting(int(urls[-1].rsplit(":", 1)[1]), START_TIMEOUT_S), "langgraph dev never listened"
        yield urls[-1]
    finally:
        stop(launched.process)


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
