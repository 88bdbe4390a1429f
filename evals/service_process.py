"""`policyrag serve` (or another `cli.main` command) as its own process: started in its own process group,
waited for until it listens, stopped by its PID. Used by the tests that need a real server, the service
benchmark and the screenshot script."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import sys
import threading
from pathlib import Path

from core.settings import REPO_ROOT

# uvicorn logs this once its socket is bound ("Application startup complete" comes earlier, before
# the bind, so waiting for that can race the first request)
LISTENING = "Uvicorn running on"


def free_port() -> int:
    """A free TCP port on loopback for a server to bind."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def start(
    args: list[str], env: dict[str, str], timeout_s: float, cwd: Path = REPO_ROOT
) -> tuple[subprocess.Popen, list[str]]:
    """Start `python -m cli.main ARGS` and wait until it listens (or ends); returns it with its output lines."""
    process = subprocess.Popen(
        [sys.executable, "-m", "cli.main", *args],
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        start_new_session=True,
    )
    lines: list[str] = []
    ready = threading.Event()

    def watch() -> None:
        for line in process.stdout or []:
            lines.append(line)
            if LISTENING in line:
                ready.set()
        ready.set()  # the process ended: stop waiting

    threading.Thread(target=watch, daemon=True).start()
    if not ready.wait(timeout_s):
        stop(process)
        raise RuntimeError("the service did not start in time:\n" + "".join(lines[-40:]))
    return process, lines


def stop(process: subprocess.Popen) -> None:
    """SIGTERM to the service's own process group, SIGKILL if it does not end."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
