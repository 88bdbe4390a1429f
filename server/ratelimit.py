"""Per-key rate limiting: a token bucket priced by the route actually taken, plus a request-rate cap.

A request needs one credit to start. When it finishes, the cost of what it really did is charged
(a cache hit is nearly free; web search and LLM generation cost more than a local extractive
answer), so the bucket may go below zero and the next request waits. Separately, no key may send
more than `rate_per_minute` requests in any 60 seconds.
"""

from __future__ import annotations

import math
import threading
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

COSTS = {"cache_hit": 0.2, "local_answer": 1.0, "web_search": 2.0, "llm_generation": 3.0, "refusal": 0.5}
START_CREDIT = 1.0


def route_cost(cache_hit: bool, web_ran: bool, generator: str | None, status: str | None) -> float:
    """What a finished request cost."""
    if cache_hit:
        return COSTS["cache_hit"]
    cost = COSTS["refusal"] if status == "refused" and not web_ran else COSTS["local_answer"]
    if web_ran:
        cost += COSTS["web_search"]
    if generator and generator not in ("offline-extractive", "none"):
        cost += COSTS["llm_generation"]
    return cost


@dataclass
class Limits:
    capacity: float = 60.0  # credits
    refill_per_s: float = 1.0  # credits per second
    rate_per_minute: int = 120  # requests


@dataclass
class _Bucket:
    tokens: float
    updated: float
    recent: deque = field(default_factory=deque)
    spent: float = 0.0


@dataclass(frozen=True)
class Decision:
    allowed: bool
    retry_after_s: int = 0
    reason: str = ""


class RateLimiter:
    def __init__(self, clock: Callable[[], float] = time.monotonic):
        self.clock = clock
        self._buckets: dict[str, _Bucket] = {}
        self._lock = threading.Lock()

    def _bucket(self, key: str, limits: Limits, now: float) -> _Bucket:
        bucket = self._buckets.get(key)
        if bucket is None:
            bucket = self._buckets[key] = _Bucket(limits.capacity, now)
        bucket.tokens = min(limits.capacity, bucket.tokens + (now - bucket.updated) * limits.refill_per_s)
        bucket.updated = now
        while bucket.recent and now - bucket.recent[0] >= 60:
            bucket.recent.popleft()
        return bucket

    def admit(self, key: str, limits: Limits, requests: int = 1) -> Decision:
        """Let `requests` questions start (a batch counts each of its questions), or say how long to wait."""
        with self._lock:
            now = self.clock()
            bucket = self._bucket(key, limits, now)
            if len(bucket.recent) + requests > limits.rate_per_minute:
                wait = 60 - (now - bucket.recent[0]) if bucket.recent else 60
                return Decision(
                    False, max(1, math.ceil(wait)), f"more than {limits.rate_per_minute} requests per minute"
                )
            needed = START_CREDIT * requests
            if bucket.tokens < needed:
                wait = (needed - bucket.tokens) / limits.refill_per_s
                return Decision(False, max(1, math.ceil(wait)), "credit spent; it refills over time")
            bucket.recent.extend([now] * requests)
            return Decision(True)

    def charge(self, key: str, limits: Limits, cost: float) -> None:
        with self._lock:
            bucket = self._bucket(key, limits, self.clock())
            bucket.tokens -= cost
            bucket.spent += cost

    def status(self, key: str, limits: Limits) -> dict[str, Any]:
        with self._lock:
            now = self.clock()
            bucket = self._bucket(key, limits, now)
            return {
                "credits": round(bucket.tokens, 3),
                "capacity": limits.capacity,
                "refill_per_second": limits.refill_per_s,
                "requests_last_minute": len(bucket.recent),
                "rate_per_minute": limits.rate_per_minute,
                "spent": round(bucket.spent, 3),
                "costs": COSTS,
                "retry_after_s": 0
                if bucket.tokens >= START_CREDIT
                else math.ceil((START_CREDIT - bucket.tokens) / limits.refill_per_s),
            }
