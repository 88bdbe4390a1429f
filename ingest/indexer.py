"""Build an index generation from the catalog: vectors from the cache, sparse terms, one upsert."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable, Iterator

import numpy as np

from core.failpoints import checkpoint
from db.catalog import Catalog, CatalogChunk, text_key
from db.index import Backend
from db.store import StoredPoint
from language.passages import scored_texts
from retrieval.embedder import Embedder
from retrieval.sparse import document_terms, encode_document

BUILD_BATCH = 512
# Chunks per upsert while building: their vectors are Python lists there (12 KB each, and a chunk has one
# per sentence and statement besides its own), so a smaller batch bounds what a build holds.
GENERATION_BATCH = 64
Progress = Callable[[int], None]


def embed_missing(catalog: Catalog, embedder: Embedder, texts: Iterable[str], progress: Progress | None = None) -> int:
    """Embed every text that has no cached vector yet; returns how many were computed."""
    unique = {text_key(t): t for t in texts}
    cached = catalog.vectors(embedder.model_id, list(unique))
    missing = [(k, t) for k, t in unique.items() if k not in cached]
    for start in range(0, len(missing), BUILD_BATCH):
        part = missing[start : start + BUILD_BATCH]
        vectors = embedder.embed_documents([t for _, t in part])
        catalog.put_vectors(embedder.model_id, {k: v for (k, _), v in zip(part, vectors)})
        if progress:
            progress(len(part))
    return len(missing)


def _batches(chunks: Iterator[CatalogChunk], size: int) -> Iterator[list[CatalogChunk]]:
    batch: list[CatalogChunk] = []
    for chunk in chunks:
        batch.append(chunk)
        if len(batch) == size:
            yield batch
            batch = []
    if batch:
        yield batch


def _terms(chunk: CatalogChunk) -> list[str]:
    return document_terms(chunk.embed_text, chunk.payload.get("refs") or [])


def build_generation(
    catalog: Catalog, backend: Backend, embedder: Embedder, progress: Progress | None = None, crash_at: str = ""
) -> str:
    """Write every catalogued chunk into a new generation and publish it; nothing is published on failure."""
    lengths = [len(_terms(c)) for c in catalog.chunks()]
    avg_length = float(np.mean(lengths)) if lengths else 1.0
    version = catalog.version()
    name, store = backend.create_generation(embedder.dimension)
    try:
        for batch in _batches(catalog.chunks(), GENERATION_BATCH):
            statements = {c.chunk_id: scored_texts(str(c.payload.get("text", ""))) for c in batch}
            texts = [c.embed_text for c in batch] + [s for c in batch for s in [*c.sentences, *statements[c.chunk_id]]]
            embed_missing(catalog, embedder, texts)
            vectors = catalog.vectors(embedder.model_id, [text_key(t) for t in texts])
            points = [
                StoredPoint(
                    id=chunk.chunk_id,
                    dense=vectors[text_key(chunk.embed_text)].tolist(),
                    sparse=encode_document(_terms(chunk), avg_length),
                    sentences=[vectors[text_key(s)].tolist() for s in chunk.sentences],
                    payload=chunk.payload,
                    statements=[vectors[text_key(s)].tolist() for s in statements[chunk.chunk_id]],
                )
                for chunk in batch
            ]
            store.upsert(points)
            checkpoint("generation_partly_written", crash_at)
            if progress:
                progress(len(batch))
        store.finish()
        store.close()
        checkpoint("generation_written", crash_at)
    except BaseException:
        store.close()
        backend.discard(name)
        raise
    backend.publish(name)
    checkpoint("published", crash_at)
    catalog.set_state("published", json.dumps({"generation": name, "version": version, "model": embedder.model_id}))
    backend.collect_garbage()
    return name


def published_version(catalog: Catalog) -> int | None:
    """The catalog version the published generation was built from, if any."""
    raw = catalog.get_state("published")
    return int(json.loads(raw)["version"]) if raw else None
