"""Request telemetry in SQLite (WAL): one row per answered request; analytics are SQL over it.

Writing telemetry never fails a request: an error (disk full, locked database) is counted, the row
is kept in memory (bounded) and written with the next row that can be, and the answer still goes out.
The key id is stored, never the key; question text can be kept, hashed or dropped, and what is kept
has key patterns redacted and control characters (NUL, terminal escapes) removed before it is written.
"""

from __future__ import annotations

import hashlib
import json
import logging
import sqlite3
import threading
from collections import deque
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Literal

from core.redaction import printable, redact_secrets

log = logging.getLogger("policyrag.telemetry")
MAX_PENDING = 10_000
Redaction = Literal["none", "hash", "drop"]

SCHEMA = """
CREATE TABLE IF NOT EXISTS requests (
    id INTEGER PRIMARY KEY AUTOINCREMENT,
    at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%fZ', 'now')),
    endpoint TEXT NOT NULL,
    key_id TEXT,
    question TEXT,
    collection TEXT,
    route TEXT,
    initial_route TEXT,
    confidence REAL,
    status TEXT,
    http_status INTEGER NOT NULL,
    cache_hit INTEGER NOT NULL DEFAULT 0,
    generator TEXT,
    web_provider TEXT,
    latency_ms REAL,
    node_latency TEXT
);
CREATE INDEX IF NOT EXISTS requests_by_time ON requests (at);
"""


@dataclass
class RequestRecord:
    endpoint: str
    http_status: int
    key_id: str | None = None
    question: str | None = None
    collection: str | None = None
    route: str | None = None
    initial_route: str | None = None
    confidence: float | None = None
    status: str | None = None
    cache_hit: bool = False
    generator: str | None = None
    web_provider: str | None = None
    latency_ms: float | None = None
    node_latency: dict[str, float] | None = None


def _clean(text: str) -> str:
    """What a caller sent, safe to keep: no key pattern, no control character."""
    return redact_secrets(printable(text))  # in this order: a NUL inside a key cannot hide it


class Telemetry:
    def __init__(self, path: Path, redaction: Redaction = "none", busy_timeout_s: float = 0.5):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self.redaction = redaction
        self.write_errors = 0
        self._pending: deque[RequestRecord] = deque(maxlen=MAX_PENDING)
        self._lock = threading.Lock()
        # a short wait: a locked telemetry file must not hold up the answer (the row is kept and retried)
        self._db = sqlite3.connect(path, timeout=busy_timeout_s, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(SCHEMA)

    def _question(self, text: str | None) -> str | None:
        if text is None or self.redaction == "drop":
            return None
        text = _clean(text)
        if self.redaction == "hash":
            return "sha256:" + hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]
        return text

    def _row(self, r: RequestRecord) -> tuple:
        return (
            _clean(r.endpoint),
            r.key_id,
            self._question(r.question),
            _clean(r.collection) if r.collection is not None else None,
            r.route,
            r.initial_route,
            r.confidence,
            r.status,
            r.http_status,
            int(r.cache_hit),
            r.generator,
            r.web_provider,
            r.latency_ms,
            json.dumps(r.node_latency or {}),
        )

    def record(self, r: RequestRecord) -> bool:
        """Store one request (and any kept back earlier) in one transaction; False if storage failed."""
        with self._lock:
            batch = [*self._pending, r]
            try:
                self._db.execute("BEGIN IMMEDIATE")
                self._db.executemany(
                    "INSERT INTO requests (endpoint, key_id, question, collection, route, initial_route, confidence,"
                    " status, http_status, cache_hit, generator, web_provider, latency_ms, node_latency)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                    [self._row(x) for x in batch],
                )
                self._db.execute("COMMIT")
            except sqlite3.Error as error:
                if self._db.in_transaction:
                    self._db.execute("ROLLBACK")
                self._pending.append(r)
                self.write_errors += 1
                log.warning(
                    "telemetry write failed (%s); kept in memory, the request was still answered", type(error).__name__
                )
                return False
            self._pending.clear()
            return True

    @property
    def pending(self) -> int:
        return len(self._pending)

    def _percentile(self, fraction: float, where: str) -> float | None:
        count = self._db.execute(f"SELECT COUNT(*) FROM requests WHERE latency_ms IS NOT NULL {where}").fetchone()[0]
        if not count:
            return None
        offset = min(count - 1, int(fraction * count))
        row = self._db.execute(
            f"SELECT latency_ms FROM requests WHERE latency_ms IS NOT NULL {where}"
            " ORDER BY latency_ms LIMIT 1 OFFSET ?",
            (offset,),
        ).fetchone()
        return round(row[0], 3)

    def analytics(self) -> dict[str, Any]:
        """Totals, latency percentiles, route breakdown, cache hit rate and refusal rate, all computed in SQL."""
        answered_where = "AND endpoint IN ('/query', '/query/stream', '/search-policy', '/graph')"
        total, errors, hits, refused, answered = self._db.execute(
            "SELECT COUNT(*), SUM(http_status >= 400), SUM(cache_hit), SUM(status = 'refused'), SUM(status IS NOT NULL)"
            f" FROM requests WHERE 1=1 {answered_where}"
        ).fetchone()
        routes = dict(
            self._db.execute(
                f"SELECT route, COUNT(*) FROM requests WHERE route IS NOT NULL {answered_where} GROUP BY route"
            ).fetchall()
        )
        statuses = dict(
            self._db.execute(
                f"SELECT status, COUNT(*) FROM requests WHERE status IS NOT NULL {answered_where} GROUP BY status"
            ).fetchall()
        )
        corrected = self._db.execute(
            f"SELECT COUNT(*) FROM requests WHERE route IS NOT NULL AND route != initial_route {answered_where}"
        ).fetchone()[0]
        answered = answered or 0
        return {
            "requests": total or 0,
            "errors": errors or 0,
            "answered_or_refused": answered,
            "latency_ms": {f"p{int(q * 100)}": self._percentile(q, answered_where) for q in (0.5, 0.95, 0.99)},
            "routes": routes,
            "statuses": statuses,
            "route_changed_by_requery": corrected,
            "cache_hit_rate": round((hits or 0) / answered, 4) if answered else 0.0,
            "refusal_rate": round((refused or 0) / answered, 4) if answered else 0.0,
            "telemetry_write_errors": self.write_errors,
            "telemetry_rows_pending": self.pending,
        }

    def close(self) -> None:
        self._db.close()
