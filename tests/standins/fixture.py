"""Start the stand-in server as its own process and stop it by PID."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

from core.settings import REPO_ROOT


@dataclass
class StandIn:
    process: subprocess.Popen
    port: int
    script: Path
    log: Path

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def set_script(self, chat: list[dict] | None = None, search: list[dict] | None = None, cycle: bool = False) -> None:
        self.script.write_text(
            json.dumps({"chat": chat or [], "search": search or [], "cycle": cycle}), encoding="utf-8"
        )

    def requests(self, kind: str | None = None) -> list[dict]:
        if not self.log.exists():
            return []
        rows = [json.loads(line) for line in self.log.read_text(encoding="utf-8").splitlines() if line.strip()]
        return [r for r in rows if kind is None or r["kind"] == kind]

    def stop(self) -> None:
        if self.process.poll() is None:
            os.kill(self.process.pid, signal.SIGTERM)
            self.process.wait(timeout=10)


def start_standin(folder: Path) -> StandIn:
    script, log = folder / "script.json", folder / "requests.jsonl"
    script.write_text("{}", encoding="utf-8")
    process = subprocess.Popen(
        [sys.executable, "-m", "tests.standins.server", str(script), str(log)],
        cwd=REPO_ROOT,
        stdout=subprocess.PIPE,
        text=True,
    )
    line = process.stdout.readline()  # blocks until the server is listening (or exits)
    if not line.startswith("PORT "):
        process.kill()
        raise RuntimeError(f"stand-in server did not start: {line!r}")
    return StandIn(process, int(line.split()[1]), script, log)
