"""Ranking metrics (Hit@k, MRR, nDCG), shared by `policyrag eval` and the service's /evaluate-retrieval."""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence


def first_relevant_rank(ranked: Sequence[str], relevant: Iterable[str]) -> int | None:
    """1-based rank of the first relevant item, or None."""
    wanted = set(relevant)
    for position, item in enumerate(ranked, start=1):
        if item in wanted:
            return position
    return None


def hit_at_k(ranked: Sequence[str], relevant: Iterable[str], k: int) -> float:
    rank = first_relevant_rank(ranked[:k], relevant)
    return 1.0 if rank is not None else 0.0


def reciprocal_rank(ranked: Sequence[str], relevant: Iterable[str], k: int = 10) -> float:
    rank = first_relevant_rank(ranked[:k], relevant)
    return 1.0 / rank if rank else 0.0


def ndcg_at_k(ranked: Sequence[str], relevant: Iterable[str], k: int = 10) -> float:
    """Binary-relevance nDCG; each relevant item counts once (duplicates in the ranking do not)."""
    wanted = set(relevant)
    seen: set[str] = set()
    dcg = 0.0
    for position, item in enumerate(ranked[:k], start=1):
        if item in wanted and item not in seen:
            dcg += 1.0 / math.log2(position + 1)
            seen.add(item)
    ideal = sum(1.0 / math.log2(p + 1) for p in range(1, min(len(wanted), k) + 1))
    return dcg / ideal if ideal else 0.0
