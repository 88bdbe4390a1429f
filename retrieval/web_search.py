"""Web search for the corrective path: Tavily, then DuckDuckGo, then the offline commentary collection.

A provider that fails or is slower than the timeout is skipped (and rested for a while), with the
reason recorded. Remote results are cached by tenant and normalised query for a TTL (a tenant never
sees that another searched the same); the offline collection reads the published index and is never
cached. Queries are expanded from the jargon table first. Web evidence always carries its origin,
URL, retrieval time and rank 4.
"""

from __future__ import annotations

import concurrent.futures
import hashlib
import re
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Protocol

import numpy as np
from cachetools import TTLCache

from core.settings import Settings
from core.types import Evidence, Scores
from language.expansion import expand
from language.support import Embed
from retrieval.grading import grade_evidence

MAX_RESULTS = 5


class WebProvider(Protocol):
    name: str
    cacheable: bool  # False for a provider whose results must follow the published index

    def search(self, query: str, max_results: int, timeout: float) -> list[Evidence]: ...


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="seconds")


def web_evidence(title: str, url: str, content: str, provider: str, score: float | None = None) -> Evidence:
    identity = hashlib.sha256(f"{url}\x00{content}".encode()).hexdigest()[:32]
    return Evidence(
        chunk_id=f"web-{identity}",
        text=content.strip(),
        citation=title.strip() or url,
        document=title.strip() or url,
        url=url,
        publisher=provider,
        document_type="commentary",
        hierarchy_rank=4,
        origin="web",
        authority="web",
        retrieved_at=_now(),
        scores=Scores(dense=None, fused=score),
        metadata={"provider": provider},
    )


class TavilyProvider:
    name = "tavily"
    cacheable = True

    def __init__(self, api_key: str, base_url: str | None = None):
        from tavily import TavilyClient

        self.client = (
            TavilyClient(api_key=api_key, api_base_url=base_url) if base_url else TavilyClient(api_key=api_key)
        )

    def search(self, query: str, max_results: int, timeout: float) -> list[Evidence]:
        reply = self.client.search(query, max_results=max_results, timeout=timeout)
        return [
            web_evidence(r.get("title", ""), r.get("url", ""), r.get("content", ""), self.name, r.get("score"))
            for r in reply.get("results", [])
            if r.get("content")
        ]


class DuckDuckGoProvider:
    name = "duckduckgo"
    cacheable = True

    def __init__(self, client_factory: Callable[[float], Any] | None = None):
        self.client_factory = client_factory or self._default_client

    @staticmethod
    def _default_client(timeout: float) -> Any:
        from ddgs import DDGS

        return DDGS(timeout=max(1, int(timeout)))

    def search(self, query: str, max_results: int, timeout: float) -> list[Evidence]:
        rows = self.client_factory(timeout).text(query, max_results=max_results)
        return [
            web_evidence(r.get("title", ""), r.get("href", ""), r.get("body", ""), self.name)
            for r in rows or []
            if r.get("body")
        ]


class SecondaryProvider:
    """Offline fallback: the shipped commentary collection, searched like the web."""

    name = "secondary"
    cacheable = False  # a local search of the published index: cheap, and never older than the index

    def __init__(self, search: Callable[[str, int], list[Evidence]]):
        self._search = search

    def search(self, query: str, max_results: int, timeout: float) -> list[Evidence]:
        found = self._search(query, max_results)
        return [
            e.model_copy(
                update={"origin": "secondary", "retrieved_at": _now(), "hierarchy_rank": 4, "authority": "commentary"}
            )
            for e in found
        ]


@dataclass
class WebResult:
    evidence: list[Evidence]
    provider: str | None
    attempts: list[dict[str, str]] = field(default_factory=list)
    query: str = ""


def normalise_query(query: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"[^\w\s()]", " ", query.lower())).strip()


class WebSearch:
    """The provider chain with timeouts, a failure cool-down and a TTL cache."""

    def __init__(
        self,
        providers: list[WebProvider],
        timeout_s: float,
        cache_ttl_s: float,
        cooldown_s: float,
        clock: Callable[[], float] = time.monotonic,
        cache_max_entries: int = 1000,
    ):
        self.providers = providers
        self.timeout_s = timeout_s
        self.cache_ttl_s = cache_ttl_s
        self.cooldown_s = cooldown_s
        self.clock = clock
        # bounded: the least recently used query goes first, and every entry expires after the TTL
        self._cache: TTLCache[tuple[str, str], WebResult] = TTLCache(
            maxsize=max(1, cache_max_entries), ttl=cache_ttl_s, timer=clock
        )
        self._resting: dict[str, float] = {}
        self._lock = threading.Lock()
        self._pool = concurrent.futures.ThreadPoolExecutor(max_workers=4, thread_name_prefix="web")

    def search(self, question: str, max_results: int = MAX_RESULTS, tenant: str = "default") -> WebResult:
        query = expand(question)
        key = (tenant, normalise_query(query))
        now = self.clock()
        with self._lock:
            result = self._cache.get(key)
            if result is not None:
                return WebResult(
                    result.evidence,
                    result.provider,
                    [
                        {
                            "provider": result.provider or "none",
                            "status": "cached",
                            "detail": "served from the web-search cache",
                        }
                    ],
                    query,
                )
        attempts: list[dict[str, str]] = []
        for provider in self.providers:
            rest_until = self._resting.get(provider.name, 0.0)
            if now < rest_until:
                attempts.append(
                    {
                        "provider": provider.name,
                        "status": "skipped",
                        "detail": f"resting after a failure for {rest_until - now:.0f}s more",
                    }
                )
                continue
            future = self._pool.submit(provider.search, query, max_results, self.timeout_s)
            try:
                found = future.result(timeout=self.timeout_s)
            except concurrent.futures.TimeoutError:
                future.cancel()
                attempts.append(
                    {"provider": provider.name, "status": "timeout", "detail": f"no reply within {self.timeout_s:g}s"}
                )
                self._rest(provider.name)
                continue
            except Exception as error:  # a provider's failure is recorded, never raised to the user
                if _is_timeout(error):  # the client's own timeout (same limit) can fire before ours
                    attempts.append(
                        {
                            "provider": provider.name,
                            "status": "timeout",
                            "detail": f"no reply within {self.timeout_s:g}s",
                        }
                    )
                else:
                    attempts.append({"provider": provider.name, "status": "failed", "detail": _reason(error)})
                self._rest(provider.name)
                continue
            if not found:
                attempts.append({"provider": provider.name, "status": "empty", "detail": "no results"})
                continue
            attempts.append({"provider": provider.name, "status": "ok", "detail": f"{len(found)} results"})
            result = WebResult(found, provider.name, attempts, query)
            if provider.cacheable:
                with self._lock:
                    self._cache[key] = result
            return result
        return WebResult([], None, attempts, query)

    def _rest(self, name: str) -> None:
        self._resting[name] = self.clock() + self.cooldown_s

    def close(self) -> None:
        self._pool.shutdown(wait=False, cancel_futures=True)


def _is_timeout(error: Exception) -> bool:
    """Timeouts raised by the clients themselves:
    tavily TimeoutError, requests/httpx *Timeout, ddgs TimeoutException.
    """
    return isinstance(error, TimeoutError) or "timeout" in type(error).__name__.lower()


def _reason(error: Exception) -> str:
    status = getattr(getattr(error, "response", None), "status_code", None)
    text = f"{type(error).__name__}" + (f" (HTTP {status})" if status else "")
    return text


def make_web_search(settings: Settings, secondary: Callable[[str, int], list[Evidence]]) -> WebSearch:
    """Providers in the configured order; Tavily only with a key."""
    providers: list[WebProvider] = []
    for name in settings.web_providers:
        if name == "tavily" and settings.tavily_api_key:
            providers.append(TavilyProvider(settings.tavily_api_key.get_secret_value(), settings.tavily_base_url))
        elif name == "duckduckgo":
            providers.append(DuckDuckGoProvider())
        elif name == "secondary":
            providers.append(SecondaryProvider(secondary))
    return WebSearch(
        providers,
        settings.web_timeout_s,
        settings.web_cache_ttl_s,
        settings.web_failure_cooldown_s,
        cache_max_entries=settings.web_cache_max_entries,
    )


def graded_web_evidence(
    question: str, web: WebSearch, embed: Embed, floor: float, tenant: str = "default"
) -> tuple[list[Evidence], str | None, list[dict[str, str]]]:
    """Search the web chain, give each result a dense score, grade it like local evidence, keep the relevant ones.
    Results that come with a dense score (the secondary collection's) are not embedded again."""
    result = web.search(question, tenant=tenant)
    evidence = result.evidence
    unscored = [e for e in evidence if e.scores.dense is None]
    if unscored:
        vectors = embed([question] + [f"{e.document}\n{e.text}" for e in unscored])
        similarities = iter(np.asarray(vectors[1:] @ vectors[0]).tolist())  # in the order of `unscored`
        evidence = [
            e
            if e.scores.dense is not None
            else e.model_copy(update={"scores": e.scores.model_copy(update={"dense": next(similarities)})})
            for e in evidence
        ]
    graded = grade_evidence(question, evidence)
    return [e for e in graded if (e.confidence or 0.0) >= floor], result.provider, result.attempts
