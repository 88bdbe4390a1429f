"""Recitals that name no article are linked, at ingest, to the articles they explain, by measured similarity.

A recital that names its article ("Article 33(1)") already carries it in `explains` (ingest/chunking.py),
and retrieval follows it (Retriever.followed). Most recitals name none, so each is linked to the (at most
MAX_LINKS) articles of its own instrument, in its own document, whose chunk vectors are most similar to
its own, when the similarity reaches LINK_FLOOR. Recitals run in the order of the articles they explain,
so a recital's neighbours vote too (NEIGHBOUR_WEIGHT): recitals 50 to 52 explaining Article 9 make Article
9 likelier for each. Only vectors computed for indexing are used. LINK_FLOOR and NEIGHBOUR_WEIGHT were
chosen on the dev half of the GDPR recital -> article set (odd recitals); see evals/official_eval.py.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Mapping

import numpy as np

from core.types import Chunk
from language.references import Reference, parse_references

MAX_LINKS = 2
LINK_FLOOR = 0.64  # the lowest similarity of a right link on dev (all-MiniLM-L6-v2); wrong links overlap
NEIGHBOUR_WEIGHT = 0.5
TOP_CHUNKS = 2  # an article's similarity: the mean of its best chunks' (one long paragraph does not decide)


def article_token(chunk: Chunk) -> str | None:
    """`GDPR Art. 9(2)(h)` -> `gdpr_ref_9`, the token every chunk of Article 9 carries; None for other units."""
    if chunk.metadata.get("authority") != "binding" or chunk.metadata.get("kind") == "annex":
        return None
    references = [r for r in parse_references(chunk.citation) if r.kind == "ref"]
    if not references:
        return None
    instrument = str(chunk.metadata.get("instrument") or "").lower() or references[0].instrument
    return Reference("ref", references[0].path[:1], instrument).tokens(ancestors=False)[-1]


def _unit(vector: np.ndarray) -> np.ndarray:
    return vector / max(float(np.linalg.norm(vector)), 1e-12)


def _article_similarities(
    recitals: np.ndarray, articles: np.ndarray, owners: list[str]
) -> tuple[np.ndarray, list[str]]:
    """(recital x article similarity, article tokens): each article scored by the mean of its TOP_CHUNKS best chunks."""
    tokens = list(dict.fromkeys(owners))
    chunk_scores = recitals @ articles.T
    scores = np.empty((len(recitals), len(tokens)), dtype=np.float32)
    for column, token in enumerate(tokens):
        own = chunk_scores[:, [i for i, owner in enumerate(owners) if owner == token]]
        best = np.sort(own, axis=1)[:, -TOP_CHUNKS:]
        scores[:, column] = best.mean(axis=1)
    return scores, tokens


def _with_neighbours(scores: np.ndarray) -> np.ndarray:
    """Each recital's scores blended with the mean of the recitals just before and after it."""
    if len(scores) < 2:
        return scores
    neighbours = np.empty_like(scores)
    neighbours[0], neighbours[-1] = scores[1], scores[-2]
    neighbours[1:-1] = (scores[:-2] + scores[2:]) / 2
    return (scores + NEIGHBOUR_WEIGHT * neighbours) / (1 + NEIGHBOUR_WEIGHT)


def link_recitals(chunks: list[Chunk], vectors: Mapping[str, np.ndarray]) -> list[Chunk]:
    """The document's chunks, each recital that explains nothing yet linked to its most similar articles.

    `vectors` maps a chunk's embed_text to its dense vector (the ones computed for the index)."""
    by_instrument: dict[str, list[int]] = defaultdict(list)
    for i, chunk in enumerate(chunks):
        by_instrument[str(chunk.metadata.get("instrument") or "")].append(i)
    linked = list(chunks)
    for members in by_instrument.values():
        recitals = [i for i in members if chunks[i].metadata.get("kind") == "recital"]
        articles = [(i, token) for i in members if (token := article_token(chunks[i]))]
        if not recitals or not articles:
            continue
        scores, tokens = _article_similarities(
            np.stack([_unit(vectors[chunks[i].embed_text]) for i in recitals]),
            np.stack([_unit(vectors[chunks[i].embed_text]) for i, _ in articles]),
            [token for _, token in articles],
        )
        scores = _with_neighbours(scores)
        for row, i in enumerate(recitals):
            if chunks[i].metadata.get("explains"):
                continue  # it names its article: that reference is the link
            best = [int(c) for c in np.argsort(-scores[row])[:MAX_LINKS] if scores[row, c] >= LINK_FLOOR]
            if best:
                metadata = {
                    **chunks[i].metadata,
                    "explains": [tokens[c] for c in best],
                    "explains_similarity": [round(float(scores[row, c]), 3) for c in best],
                }
                linked[i] = chunks[i].model_copy(update={"metadata": metadata})
    return linked
