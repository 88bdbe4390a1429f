"""A bounded load test against the real service process on loopback, with an ingest in the middle.

`policyrag serve --no-anonymous` runs over a copy of the session's shipped index. Two API keys are
made beforehand with `policyrag keys create`: a generous one and a limited one (small budget and
request rate). N requests (default 2000; POLICYRAG_LOAD_REQUESTS for local runs) go to /query at
concurrency 32: half repeat a few warmed-up questions (served by the semantic cache), half are
questions from evals/goldens/*.jsonl never asked before in their scope (the graph runs). While
they run, `python -m cli.main ingest ... --collection extra` adds two documents to the same data
folder.

Checked: no 5xx and no transport error; 429 only for the limited key and always with
Retry-After; the generous key gets only 200s; every 200 is a valid record; no query fails during
the ingest and the new collection shows in /health without a restart. Latency percentiles,
throughput and counts are written (with the machine's core count, the command and how busy the
machine was) to the file POLICYRAG_LOAD_RESULTS names, e.g. evals/results/load.json, or else into
the test's own temporary folder, so `make test` leaves the tree clean; no assertion depends on a
latency value.
The whole test fails if it has not finished in 15 minutes.
"""

from __future__ import annotations

import json
import os
import platform
import random
import resource
import shutil
import sqlite3
import subprocess
import sys
import threading
import time
from collections import Counter
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic import ValidationError

from core.schemas import AnswerRecord
from core.settings import Settings
from evals.service_process import free_port, start, stop
from tests.conftest import REPO_ROOT, policyrag
from tests.test_loaders import write_doc

REQUESTS = int(os.environ.get("POLICYRAG_LOAD_REQUESTS", "2000"))
CONCURRENCY = 32
TIME_LIMIT_S = 15 * 60

START_TIMEOUT_S = 120
REQUEST_TIMEOUT_S = 300
# the run has its own deadline (TIME_LIMIT_S, reported as a failure with its figures); the suite-wide
# per-test timeout (600 s) would cut it off first on a busy machine, with nothing reported
pytestmark = [pytest.mark.slow, pytest.mark.timeout(TIME_LIMIT_S + START_TIMEOUT_S + 120)]
CACHED_SHARE = 0.5  # requests repeating a warmed-up question
LIMITED_SHARE = 0.25  # requests sent with the limited key
HOT_QUESTIONS = 8
INGEST_AFTER = 0.1  # start the ingest once this share of the requests has finished
KEYS = {"generous": {"budget": 1_000_000, "rate_per_minute": 100_000}, "limited": {"budget": 5, "rate_per_minute": 30}}
RECORD_STATUSES = {"answered", "refused", "evidence_only"}
UNCACHED_TOP_K = [
    4,
    6,
    3,
    7,
    8,
    2,
    9,
    10,
    11,
    12,
]  # never 5, the hot questions' scope: a (question, top_k) pair is asked once
NOISY_SHARE = 0.25
EXTRA_QUESTION = "How long are zephyrine audit logs retained?"
VISIBLE_WITHIN_S = 60  # after the ingest has published, /health must show the new collection within this


@dataclass
class Planned:
    number: int
    key: str
    kind: str  # cached | uncached
    body: dict[str, Any]


@dataclass
class Outcome:
    planned: Planned
    started_s: float = 0.0
    finished_s: float = 0.0
    latency_ms: float = 0.0
    http_status: int | None = None
    error: str | None = None  # transport error, or "deadline" when not sent in time
    record_status: str | None = None
    cache_hit: bool | None = None
    retry_after: str | None = None
    problems: list[str] = field(default_factory=list)


# --- set-up -----------------------------------------------------------------------------------


def golden_questions() -> list[str]:
    seen: dict[str, None] = {}
    for path in sorted((REPO_ROOT / "evals" / "goldens").glob("*.jsonl")):
        for line in path.read_text(encoding="utf-8").splitlines():
            if line.strip():
                question = json.loads(line).get("question")
                if isinstance(question, str) and question.strip():
                    seen.setdefault(question.strip(), None)
    return list(seen)


def copy_index(source: Path, target: Path) -> None:
    """The published generation and a consistent copy of the catalog:
    the ingest here must not touch the session's index.
    """
    (target / "index").mkdir(parents=True)
    src, dst = sqlite3.connect(source / "catalog.sqlite"), sqlite3.connect(target / "catalog.sqlite")
    try:
        src.backup(dst)
    finally:
        src.close()
        dst.close()
    current = (source / "index" / "CURRENT").read_text(encoding="utf-8").strip()
    shutil.copytree(source / "index" / current, target / "index" / current, ignore=shutil.ignore_patterns("*.lock"))
    (target / "index" / "CURRENT").write_text(current, encoding="utf-8")


@pytest.fixture
def load_env(shipped, tmp_path) -> dict[str, str]:
    data = tmp_path / "data"
    copy_index(shipped.settings.data_dir, data)
    outside = (
        "POLICYRAG_",
        "GROQ_",
        "TAVILY_",
        "QDRANT_",
    )  # nothing from the developer's shell, nothing leaves the machine
    env = {k: v for k, v in os.environ.items() if not k.startswith(outside)}
    env.update(
        {
            "POLICYRAG_DATA_DIR": str(data),
            "POLICYRAG_MODELS_DIR": str(shipped.settings.models_dir),
            "POLICYRAG_WEB_PROVIDERS": '["secondary"]',
            "HF_HUB_OFFLINE": "1",
        }
    )
    return env


def create_key(env: dict[str, str], name: str, budget: float, rate_per_minute: int) -> str:
    done = policyrag(
        "keys", "create", "--name", name, "--budget", str(budget), "--rate-per-minute", str(rate_per_minute), env=env
    )
    assert done.returncode == 0, done.stderr
    return done.stdout.strip()


def extra_documents(folder: Path) -> Path:
    folder.mkdir()
    write_doc(
        folder,
        "zephyr1",
        "Article 1 - Retention\n1. Zephyrine audit logs are retained for nineteen days and then erased.\n"
        "2. A zephyrine audit log may be kept longer only under a documented legal hold.",
        citation="ZEPHYR Art. 1",
    )
    write_doc(
        folder,
        "zephyr2",
        "Article 2 - Access\n1. Only the zephyrine custodian may read the audit logs.\n"
        "2. Every access to a zephyrine audit log is itself logged.",
        citation="ZEPHYR Art. 2",
    )
    return folder


# --- measuring ----------------------------------------------------------------------------------


def percentiles(samples: list[float]) -> dict[str, float | int]:
    """n, nearest-rank p50/p95/p99, mean and max (milliseconds)."""
    if not samples:
        return {"n": 0}
    ordered = sorted(samples)
    pick = lambda q: round(ordered[min(len(ordered) - 1, int(q * len(ordered)))], 1)  # noqa: E731
    return {
        "n": len(ordered),
        "p50_ms": pick(0.5),
        "p95_ms": pick(0.95),
        "p99_ms": pick(0.99),
        "mean_ms": round(sum(ordered) / len(ordered), 1),
        "max_ms": round(ordered[-1], 1),
    }


class CpuMeter:
    """Wall time, the server's and this test's CPU, and everyone else's (from /proc/stat) over the load."""

    TICK = os.sysconf("SC_CLK_TCK")

    def __init__(self, server_pid: int):
        self.server_pid = server_pid

    @classmethod
    def _busy_s(cls) -> float:
        fields = [int(x) for x in Path("/proc/stat").read_text().splitlines()[0].split()[1:]]
        user, nice, system, _idle, _iowait, irq, softirq, steal = (fields + [0] * 8)[:8]
        return (user + nice + system + irq + softirq + steal) / cls.TICK

    def _server_s(self) -> float:
        fields = Path(f"/proc/{self.server_pid}/stat").read_text().rsplit(")", 1)[1].split()
        return (int(fields[11]) + int(fields[12])) / self.TICK  # utime, stime (all threads)

    @staticmethod
    def _test_s() -> float:
        me, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
        return me.ru_utime + me.ru_stime + kids.ru_utime + kids.ru_stime  # the client threads and the finished ingest

    def __enter__(self) -> CpuMeter:
        self.wall, self.busy, self.server, self.test = (
            time.perf_counter(),
            self._busy_s(),
            self._server_s(),
            self._test_s(),
        )
        self.load_before = [round(x, 2) for x in os.getloadavg()]
        return self

    def _server_peak_rss_mb(self) -> int:
        """The server's resident-memory high-water mark (VmHWM) so far."""
        for line in Path(f"/proc/{self.server_pid}/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) // 1024
        return 0

    def __exit__(self, *exc: object) -> None:
        wall = time.perf_counter() - self.wall
        server, test = self._server_s() - self.server, self._test_s() - self.test
        other = max(0.0, self._busy_s() - self.busy - server - test)
        share = other / (wall * (os.cpu_count() or 1))
        self.result = {
            "server_peak_rss_mb": self._server_peak_rss_mb(),
            "wall_s": round(wall, 1),
            "server_cpu_s": round(server, 1),
            "client_and_ingest_cpu_s": round(test, 1),
            "other_processes_cpu_s": round(other, 1),
            "other_processes_share": round(share, 3),
            "noisy": share > NOISY_SHARE,
            "load_average_before": self.load_before,
            "load_average_after": [round(x, 2) for x in os.getloadavg()],
        }


def busiest_other_processes(exclude: set[int]) -> list[str]:
    """What else was using the CPU (program and module only, never full command lines)."""
    try:
        out = subprocess.run(
            ["ps", "-eo", "pid,pcpu,args", "--sort=-pcpu"], capture_output=True, text=True, timeout=10
        ).stdout
    except (OSError, subprocess.SubprocessError):
        return []
    rows = []
    for line in out.splitlines()[1:]:
        parts = line.split()
        if len(parts) < 3 or int(parts[0]) in exclude or float(parts[1]) < 5:
            continue
        program = " ".join(Path(parts[2]).name if i == 0 else p for i, p in enumerate(parts[2:5]))
        rows.append(f"{parts[1]}% {program}")
    return rows[:5]


# --- the run ------------------------------------------------------------------------------------


def plan_requests(hot: list[str], pool: list[str]) -> list[Planned]:
    rng = random.Random(2026)
    pool = [q for q in pool if q not in hot]
    rng.shuffle(pool)
    plan, fresh = [], 0
    for number in range(REQUESTS):
        key = "limited" if rng.random() < LIMITED_SHARE else "generous"
        if rng.random() < CACHED_SHARE:
            plan.append(Planned(number, key, "cached", {"question": rng.choice(hot)}))
        else:
            question, top_k = pool[fresh % len(pool)], UNCACHED_TOP_K[(fresh // len(pool)) % len(UNCACHED_TOP_K)]
            plan.append(Planned(number, key, "uncached", {"question": question, "top_k": top_k}))
            fresh += 1
    return plan


def examine(outcome: Outcome, reply: httpx.Response) -> None:
    outcome.http_status = reply.status_code
    outcome.retry_after = reply.headers.get("Retry-After")
    if "Traceback" in reply.text:
        outcome.problems.append("stack trace in the reply")
    try:
        body = reply.json()
    except ValueError:
        outcome.problems.append(f"{reply.status_code} reply is not JSON")
        return
    if not isinstance(body, dict):
        outcome.problems.append(f"{reply.status_code} reply is not a JSON object")
        return
    if reply.status_code == 200:
        try:
            AnswerRecord.model_validate(body)
        except ValidationError as error:
            outcome.problems.append(f"invalid record: {error.errors()[:2]}")
        outcome.record_status = body.get("status")
        outcome.cache_hit = body.get("cache_hit")
        if outcome.record_status not in RECORD_STATUSES:
            outcome.problems.append(f"record status {outcome.record_status!r}")
    elif 400 <= reply.status_code < 500 and not body.get("detail"):
        outcome.problems.append(f"{reply.status_code} reply without detail")


def run_load(
    client: httpx.Client, keys: dict[str, str], plan: list[Planned], deadline: float, on_done
) -> tuple[list[Outcome], float]:
    origin = time.perf_counter()

    def send(item: Planned) -> Outcome:
        outcome = Outcome(item)
        remaining = deadline - time.monotonic()
        if remaining <= 1:
            outcome.error = "deadline"
            return outcome
        outcome.started_s = time.perf_counter() - origin
        try:
            reply = client.post(
                "/query",
                json=item.body,
                headers={"X-API-Key": keys[item.key]},
                timeout=min(REQUEST_TIMEOUT_S, remaining),
            )
            outcome.finished_s = time.perf_counter() - origin
            examine(outcome, reply)
        except httpx.HTTPError as error:
            outcome.finished_s = time.perf_counter() - origin
            outcome.error = type(error).__name__
        outcome.latency_ms = (outcome.finished_s - outcome.started_s) * 1000
        on_done()
        return outcome

    with ThreadPoolExecutor(CONCURRENCY, thread_name_prefix="load") as pool:
        outcomes = list(pool.map(send, plan))
    return outcomes, time.perf_counter() - origin


class IngestDuringLoad(threading.Thread):
    """Once a share of the load is done: ingest a new collection, then watch /health until it shows."""

    def __init__(
        self, env: dict[str, str], folder: Path, base_url: str, start_after: int, deadline: float, origin: float
    ):
        super().__init__(daemon=True, name="ingest-during-load")
        self.env, self.folder, self.base_url, self.deadline, self.origin = env, folder, base_url, deadline, origin
        self.start_after = start_after
        self.done_count = 0
        self._lock = threading.Lock()
        self._go = threading.Event()
        self.result: dict[str, Any] = {}

    def request_done(self) -> None:
        with self._lock:
            self.done_count += 1
            if self.done_count >= self.start_after:
                self._go.set()

    def run(self) -> None:
        try:
            self._go.wait(max(1.0, self.deadline - time.monotonic()))
            began = time.perf_counter()
            done = policyrag(
                "ingest",
                str(self.folder),
                "--collection",
                "extra",
                "--quiet",
                env=self.env,
                timeout=max(1.0, self.deadline - time.monotonic()),
            )
            ended = time.perf_counter()
            self.result.update(
                {
                    "returncode": done.returncode,
                    "output": done.stderr.strip()[-500:],
                    "started_s": round(began - self.origin, 2),
                    "finished_s": round(ended - self.origin, 2),
                    "seconds": round(ended - began, 2),
                }
            )
            if done.returncode != 0:
                return
            give_up = min(self.deadline, time.monotonic() + VISIBLE_WITHIN_S)
            with httpx.Client(base_url=self.base_url, timeout=60) as client:
                while time.monotonic() < give_up:
                    counts = client.get("/health").json()["index"].get("chunks_per_collection", {})
                    if counts.get("extra"):
                        self.result.update(
                            {"visible_s": round(time.perf_counter() - self.origin, 2), "extra_chunks": counts["extra"]}
                        )
                        break
                    time.sleep(0.5)
        except Exception as error:  # reported in the result and asserted by the test
            self.result["error"] = f"{type(error).__name__}: {error}"


def warm_up(client: httpx.Client, key: str, candidates: list[str]) -> tuple[list[str], list[int]]:
    """Hot questions: answered once, then served from the cache (refusals are never cached)."""
    hot, statuses = [], []
    for question in candidates:
        first = client.post("/query", json={"question": question}, headers={"X-API-Key": key})
        again = client.post("/query", json={"question": question}, headers={"X-API-Key": key})
        statuses += [first.status_code, again.status_code]
        if again.status_code == 200 and again.json().get("cache_hit"):
            hot.append(question)
        if len(hot) == HOT_QUESTIONS:
            break
    return hot, statuses


def summarise(outcomes: list[Outcome], wall_s: float) -> dict[str, Any]:
    sent = [o for o in outcomes if o.error != "deadline"]

    def block(items: list[Outcome]) -> dict[str, Any]:
        ok = [o for o in items if o.http_status == 200]
        return {
            "requests": len(items),
            "http_status": dict(sorted(Counter(str(o.http_status or o.error) for o in items).items())),
            "record_status": dict(sorted(Counter(o.record_status for o in ok).items())),
            "cache_hits": sum(1 for o in ok if o.cache_hit),
            "latency_all": percentiles([o.latency_ms for o in items if o.http_status]),
            "latency_200": percentiles([o.latency_ms for o in ok]),
            "latency_200_cache_hit": percentiles([o.latency_ms for o in ok if o.cache_hit]),
            "latency_200_graph_run": percentiles([o.latency_ms for o in ok if not o.cache_hit]),
            "throughput_per_s": round(len(items) / wall_s, 2) if wall_s else None,
        }

    return {
        "overall": block(sent),
        "by_key": {name: block([o for o in sent if o.planned.key == name]) for name in KEYS},
        "by_kind": {kind: block([o for o in sent if o.planned.kind == kind]) for kind in ("cached", "uncached")},
        "ok_throughput_per_s": round(sum(1 for o in sent if o.http_status == 200) / wall_s, 2) if wall_s else None,
    }


def machine(cpu: dict[str, Any], others: list[str]) -> dict[str, Any]:
    model = next(
        (
            line.split(":", 1)[1].strip()
            for line in Path("/proc/cpuinfo").read_text().splitlines()
            if line.startswith("model name")
        ),
        platform.processor(),
    )
    commit = subprocess.run(["git", "rev-parse", "HEAD"], cwd=REPO_ROOT, capture_output=True, text=True).stdout.strip()
    dirty = bool(
        subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"], cwd=REPO_ROOT, capture_output=True, text=True
        ).stdout.strip()
    )
    return {
        "cores": os.cpu_count(),
        "cpu": model,
        "python": platform.python_version(),
        "platform": platform.platform(),
        "git_commit": commit,
        "git_tracked_changes": dirty,
        "contention": {**cpu, "busiest_other_processes_at_start": others},
    }


def command() -> str:
    prefix = (
        f"POLICYRAG_LOAD_REQUESTS={os.environ['POLICYRAG_LOAD_REQUESTS']} "
        if "POLICYRAG_LOAD_REQUESTS" in os.environ
        else ""
    )
    args = [a for a in sys.argv[1:] if a]
    return f"{prefix}.venv/bin/python -m pytest {' '.join(args) or 'tests/test_load.py'}"


def test_load_with_two_keys_and_an_ingest_in_the_middle(load_env, tmp_path):
    deadline = time.monotonic() + TIME_LIMIT_S
    keys = {name: create_key(load_env, f"load-{name}", **limits) for name, limits in KEYS.items()}
    folder = extra_documents(tmp_path / "extra_docs")
    questions = golden_questions()
    port = free_port()
    base_url = f"http://127.0.0.1:{port}"
    process, lines = start(
        ["serve", "--host", "127.0.0.1", "--port", str(port), "--no-anonymous"], load_env, START_TIMEOUT_S
    )
    try:
        assert process.poll() is None, "".join(lines)
        limits = httpx.Limits(max_connections=CONCURRENCY + 4, max_keepalive_connections=CONCURRENCY + 4)
        with httpx.Client(base_url=base_url, timeout=REQUEST_TIMEOUT_S, limits=limits) as client:
            assert client.get("/rate-limit-status").status_code == 401  # anonymous is off
            health = client.get("/health").json()
            health_before = health["index"]["chunks_per_collection"]
            assert "extra" not in health_before
            hot, warm_statuses = warm_up(client, keys["generous"], questions[:40])
            assert set(warm_statuses) == {200} and len(hot) >= 3, (warm_statuses, hot)
            plan = plan_requests(hot, questions)
            others = busiest_other_processes({os.getpid(), process.pid})
            origin = time.perf_counter()
            ingest = IngestDuringLoad(
                load_env, folder, base_url, max(1, int(REQUESTS * INGEST_AFTER)), deadline, origin
            )
            ingest.start()
            with CpuMeter(process.pid) as meter:
                outcomes, wall_s = run_load(client, keys, plan, deadline, ingest.request_done)
                ingest.join(max(1.0, deadline - time.monotonic()))
            health_after = client.get("/health").json()["index"]["chunks_per_collection"]
            extra_reply = client.post(
                "/query",
                json={"question": EXTRA_QUESTION, "collection": "extra"},
                headers={"X-API-Key": keys["generous"]},
            )
    finally:
        stop(process)

    window = (ingest.result.get("started_s", float("inf")), ingest.result.get("finished_s", float("-inf")))
    during = [
        o for o in outcomes if o.http_status is not None and o.finished_s >= window[0] and o.started_s <= window[1]
    ]
    unsent = sum(1 for o in outcomes if o.error == "deadline")
    server_log = "".join(lines)
    result = {
        "command": command(),
        "machine": machine(meter.result, others),
        "config": {
            "requests": REQUESTS,
            "concurrency": CONCURRENCY,
            "endpoint": "POST /query",
            "cached_share": CACHED_SHARE,
            "limited_share": LIMITED_SHARE,
            "hot_questions": len(hot),
            "golden_questions": len(questions),
            "keys": KEYS,
            "key_credit_refill_per_s": Settings.model_fields["key_credit_refill_per_s"].default,
            "anonymous": health["anonymous_read"],
            "web_providers": health["web_providers"],
            "generator": health["generator"],
            "time_limit_s": TIME_LIMIT_S,
        },
        "wall_s": round(wall_s, 1),
        "not_sent_before_time_limit": unsent,
        **summarise(outcomes, wall_s),
        "ingest_during_load": {
            **ingest.result,
            "requests_during_ingest": len(during),
            "http_status_during_ingest": dict(Counter(str(o.http_status) for o in during)),
            "chunks_per_collection_before": health_before,
            "chunks_per_collection_after": health_after,
            "query_on_extra": {
                "http_status": extra_reply.status_code,
                "collections": sorted({e.get("collection") for e in extra_reply.json().get("evidence", [])})
                if extra_reply.status_code == 200
                else None,
            },
        },
        "problems": [f"#{o.planned.number} {o.planned.key}: {p}" for o in outcomes for p in o.problems][:50],
    }
    results = Path(os.environ.get("POLICYRAG_LOAD_RESULTS") or tmp_path / "load.json")
    results.parent.mkdir(parents=True, exist_ok=True)
    results.write_text(json.dumps(result, indent=2) + "\n", encoding="utf-8")

    assert unsent == 0, f"{unsent} requests not sent within {TIME_LIMIT_S} s"
    errors = Counter(o.error for o in outcomes if o.error)
    assert not errors, f"transport errors: {dict(errors)}"
    assert not [o for o in outcomes if o.http_status >= 500], Counter(o.http_status for o in outcomes)
    assert not result["problems"], result["problems"][:10]
    by_key = {name: Counter(o.http_status for o in outcomes if o.planned.key == name) for name in KEYS}
    assert set(by_key["generous"]) == {200}, by_key["generous"]
    assert set(by_key["limited"]) <= {200, 429}, by_key["limited"]
    assert by_key["limited"][429] > 0 or REQUESTS < 200, "the limited key was never limited"
    limited = [o for o in outcomes if o.http_status == 429]
    assert all(o.retry_after and o.retry_after.isdigit() and int(o.retry_after) >= 1 for o in limited)
    assert any(o.cache_hit for o in outcomes), "no request was served from the cache"
    assert "unhandled error" not in server_log and "Traceback" not in server_log, server_log[-3000:]
    # the ingest: finished, never failed a query, and its collection showed without a restart
    assert "error" not in ingest.result and ingest.result.get("returncode") == 0, ingest.result
    assert during or REQUESTS < 200, "the ingest did not overlap the load"
    assert all(o.http_status in (200, 429) for o in during)
    assert ingest.result.get("extra_chunks", 0) > 0 and health_after.get("extra", 0) > 0
    assert {k: v for k, v in health_after.items() if k != "extra"} == health_before
    assert extra_reply.status_code == 200 and result["ingest_during_load"]["query_on_extra"]["collections"] in (
        ["extra"],
        [],
    )
