"""The catalog: what has been ingested (documents, chunks) and every vector computed so far.

SQLite in WAL mode under the data folder. It is the source an index generation is built from,
so a generation can always be rebuilt, and a document whose text has not changed is never
embedded again (vectors are cached by model and text).
"""

from __future__ import annotations

import hashlib
import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np

from core.types import Chunk

SCHEMA = """
CREATE TABLE IF NOT EXISTS documents (
    collection TEXT NOT NULL,
    doc_id TEXT NOT NULL,
    source TEXT NOT NULL,
    fingerprint TEXT NOT NULL,
    metadata TEXT NOT NULL,
    chunk_count INTEGER NOT NULL,
    ingested_at TEXT NOT NULL DEFAULT (strftime('%Y-%m-%dT%H:%M:%SZ', 'now')),
    PRIMARY KEY (collection, doc_id)
);
CREATE TABLE IF NOT EXISTS chunks (
    chunk_id TEXT PRIMARY KEY,
    collection TEXT NOT NULL,
    doc_id TEXT NOT NULL,
    position INTEGER NOT NULL,
    payload TEXT NOT NULL,
    embed_text TEXT NOT NULL,
    sentences TEXT NOT NULL
);
CREATE INDEX IF NOT EXISTS chunks_by_document ON chunks (collection, doc_id);
CREATE TABLE IF NOT EXISTS vectors (
    model TEXT NOT NULL,
    text_key TEXT NOT NULL,
    vector BLOB NOT NULL,
    PRIMARY KEY (model, text_key)
);
CREATE TABLE IF NOT EXISTS state (key TEXT PRIMARY KEY, value TEXT NOT NULL);
"""


def text_key(text: str) -> str:
    """Cache key of a text's vector."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


@dataclass(frozen=True)
class CatalogDocument:
    collection: str
    doc_id: str
    source: str
    fingerprint: str
    chunk_count: int


@dataclass(frozen=True)
class DocumentRecord:
    """A changed document ready to be written: its chunks and each chunk's sentences."""

    collection: str
    doc_id: str
    source: str
    fingerprint: str
    metadata: dict[str, Any]
    chunks: list[Chunk]
    sentences: list[list[str]]


@dataclass(frozen=True)
class CatalogChunk:
    chunk_id: str
    payload: dict[str, Any]
    embed_text: str
    sentences: list[str]


class Catalog:
    """Documents, chunks and cached vectors of one data folder."""

    def __init__(self, path: Path):
        path.parent.mkdir(parents=True, exist_ok=True)
        self.path = path
        self._db = sqlite3.connect(path, timeout=30, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.executescript(SCHEMA)

    def close(self) -> None:
        self._db.close()

    @contextmanager
    def transaction(self) -> Iterator[sqlite3.Connection]:
        """All or nothing: a failed ingest leaves the catalog as it was."""
        self._db.execute("BEGIN IMMEDIATE")
        try:
            yield self._db
        except BaseException:
            self._db.execute("ROLLBACK")
            raise
        self._db.execute("COMMIT")

    # documents and chunks

    def documents(self, collection: str | None = None) -> dict[tuple[str, str], CatalogDocument]:
        sql = "SELECT collection, doc_id, source, fingerprint, chunk_count FROM documents"
        rows = self._db.execute(
            sql + (" WHERE collection = ?" if collection else ""), (collection,) if collection else ()
        )
        return {(r[0], r[1]): CatalogDocument(*r) for r in rows}

    def replace(self, documents: list[DocumentRecord], removed: list[tuple[str, str]]) -> int:
        """Write changed documents and delete removed ones in one transaction; returns the new version."""
        with self.transaction() as db:
            for collection, doc_id in removed:
                db.execute("DELETE FROM chunks WHERE collection = ? AND doc_id = ?", (collection, doc_id))
                db.execute("DELETE FROM documents WHERE collection = ? AND doc_id = ?", (collection, doc_id))
            for doc in documents:
                db.execute("DELETE FROM chunks WHERE collection = ? AND doc_id = ?", (doc.collection, doc.doc_id))
                db.execute(
                    "INSERT OR REPLACE INTO documents (collection, doc_id, source, fingerprint, metadata, chunk_count)"
                    " VALUES (?, ?, ?, ?, ?, ?)",
                    (
                        doc.collection,
                        doc.doc_id,
                        doc.source,
                        doc.fingerprint,
                        json.dumps(doc.metadata, default=str),
                        len(doc.chunks),
                    ),
                )
                db.executemany(
                    "INSERT OR REPLACE INTO chunks"
                    " (chunk_id, collection, doc_id, position, payload, embed_text, sentences)"
                    " VALUES (?, ?, ?, ?, ?, ?, ?)",
                    (  # one row at a time: a document's rows all at once are several times its text
                        (
                            c.chunk_id,
                            doc.collection,
                            doc.doc_id,
                            c.position,
                            json.dumps(c.payload(), default=str),
                            c.embed_text,
                            json.dumps(s),
                        )
                        for c, s in zip(doc.chunks, doc.sentences)
                    ),
                )
            version = self._bump_version(db)
        return version

    def chunks(self) -> Iterator[CatalogChunk]:
        """Every chunk, in a stable order."""
        rows = self._db.execute(
            "SELECT chunk_id, payload, embed_text, sentences FROM chunks ORDER BY collection, doc_id, position"
        )
        for chunk_id, payload, embed_text, sentences in rows:
            yield CatalogChunk(chunk_id, json.loads(payload), embed_text, json.loads(sentences))

    def chunk_count(self) -> int:
        return int(self._db.execute("SELECT COUNT(*) FROM chunks").fetchone()[0])

    # vectors

    def vectors(self, model: str, keys: list[str]) -> dict[str, np.ndarray]:
        out: dict[str, np.ndarray] = {}
        for start in range(0, len(keys), 500):
            part = keys[start : start + 500]
            marks = ",".join("?" * len(part))
            rows = self._db.execute(
                f"SELECT text_key, vector FROM vectors WHERE model = ? AND text_key IN ({marks})", (model, *part)
            )
            out.update((key, np.frombuffer(blob, dtype=np.float32)) for key, blob in rows)
        return out

    def put_vectors(self, model: str, items: dict[str, np.ndarray]) -> None:
        with self.transaction() as db:
            db.executemany(
                "INSERT OR REPLACE INTO vectors (model, text_key, vector) VALUES (?, ?, ?)",
                [(model, key, np.asarray(v, dtype=np.float32).tobytes()) for key, v in items.items()],
            )

    def import_vectors(self, source: Path) -> int:
        """Borrow the vectors another catalog has already computed (keyed by model and text, so only
        embedding time is saved); returns how many vectors this catalog holds afterwards."""
        if source.exists() and source.resolve() != self.path.resolve():
            self._db.execute("ATTACH DATABASE ? AS source", (f"file:{source}?mode=ro",))
            try:
                with self.transaction() as db:
                    db.execute("INSERT OR IGNORE INTO vectors SELECT * FROM source.vectors")
            finally:
                self._db.execute("DETACH DATABASE source")
        return int(self._db.execute("SELECT COUNT(*) FROM vectors").fetchone()[0])

    # state

    def get_state(self, key: str) -> str | None:
        row = self._db.execute("SELECT value FROM state WHERE key = ?", (key,)).fetchone()
        return row[0] if row else None

    def set_state(self, key: str, value: str) -> None:
        self._db.execute("INSERT OR REPLACE INTO state (key, value) VALUES (?, ?)", (key, value))

    def version(self) -> int:
        return int(self.get_state("version") or 0)

    @staticmethod
    def _bump_version(db: sqlite3.Connection) -> int:
        row = db.execute("SELECT value FROM state WHERE key = 'version'").fetchone()
        version = int(row[0]) + 1 if row else 1
        db.execute("INSERT OR REPLACE INTO state (key, value) VALUES ('version', ?)", (str(version),))
        return version
