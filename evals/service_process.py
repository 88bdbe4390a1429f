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
import time
from dataclasses import dataclass, field
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


@dataclass
class Launched:
    """A process started by `launch`: its output lines so far, and when it said it was ready."""

    process: subprocess.Popen
    lines: list[str] = field(default_factory=list)
    ready: threading.Event = field(default_factory=threading.Event)  # also set when the process ends
    started: float = field(default_factory=time.perf_counter)
    ready_s: float | None = None  # seconds from launch to the ready line; None if it never came


def launch(command: list[str], env: dict[str, str], cwd: Path = REPO_ROOT, ready_line: str = LISTENING) -> Launched:
    """Start COMMAND in its own process group and watch its output for READY_LINE, without waiting."""
    process = subprocess.Popen(
        command, cwd=cwd, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, start_new_session=True
    )
    launched = Launched(process)

    def watch() -> None:
        for line in process.stdout or []:
            launched.lines.append(line)
            if ready_line in line and not launched.ready.is_set():
                launched.ready_s = time.perf_counter() - launched.started
                launched.ready.set()
        launched.ready.set()  # the process ended: stop waiting

    threading.Thread(target=watch, daemon=True).start()
    return launched


def start(
    args: list[str], env: dict[str, str], timeout_s: float, cwd: Path = REPO_ROOT
) -> tuple[subprocess.Popen, list[str]]:
    """Start `python -m cli.main ARGS` and wait until it listens (or ends); returns it with its output lines."""
    launched = launch([sys.executable, "-m", "cli.main", *args], env, cwd)
    if not launched.ready.wait(timeout_s):
        stop(launched.process)
        raise RuntimeError("the service did not start in time:\n" + "".join(launched.lines[-40:]))
    return launched.process, launched.lines


def wait_until_accepting(port: int, timeout_s: float, host: str = "127.0.0.1") -> bool:
    """True once HOST:PORT accepts a TCP connection, False after TIMEOUT_S: for servers whose start-up
    line comes before their socket is bound (`langgraph dev` logs no line after the bind)."""
    deadline = time.monotonic() + timeout_s
    while time.monotonic() < deadline:
        try:
            with socket.create_connection((host, port), timeout=1):
                return True
        except OSError:
            time.sleep(0.05)
    return False


def stop(process: subprocess.Popen) -> None:
    """SIGTERM to the service's own process group, SIGKILL if it does not end."""
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait(timeout=10)
