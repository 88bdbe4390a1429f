"""`policyrag ingest`: find documents, load and chunk what changed, embed what is new, publish.

Incremental by content: an unchanged document (same bytes, sidecar and options) is skipped
without parsing; a changed one is replaced; one gone from a folder that was ingested is removed.
A file that fails is reported by name and skipped, and its previous version (if any) stays. The
catalog is written in one transaction and the new index generation is published atomically, so
readers see either the old index or the new one, never half a document.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from itertools import chain
from pathlib import Path
from typing import Any

from core.failpoints import checkpoint
from core.settings import Settings
from db.catalog import Catalog, DocumentRecord, text_key
from db.index import Backend, writer_lock
from ingest.chunking import chunk_document
from ingest.indexer import build_generation, embed_missing, published_version
from ingest.links import link_recitals
from ingest.loaders import fingerprint, is_document, load_document
from ingest.sidecar import SidecarError
from ingest.units import LoaderError
from language.passages import scored_texts
from language.sentences import sentences_for_index
from retrieval.embedder import Embedder

Progress = Callable[[str, int, int], None]  # (stage, done, total)


@dataclass
class IngestReport:
    added: list[str] = field(default_factory=list)
    updated: list[str] = field(default_factory=list)
    unchanged: list[str] = field(default_factory=list)
    removed: list[str] = field(default_factory=list)
    failed: list[tuple[str, str]] = field(default_factory=list)
    detected: list[tuple[str, float]] = field(default_factory=list)  # (document, confidence) read as policy wordings
    chunks_written: int = 0
    embeddings_computed: int = 0
    generation: str | None = None
    seconds: float = 0.0

    def summary(self) -> str:
        return (
            f"{len(self.added)} added, {len(self.updated)} updated, {len(self.unchanged)} unchanged, "
            f"{len(self.removed)} removed, {len(self.failed)} failed; {self.chunks_written} chunks written, "
            f"{self.embeddings_computed} embeddings computed; generation {self.generation or '(unchanged)'}"
            + "".join(
                f"\n  {name}: detected as a policy wording ({confidence:.2f})" for name, confidence in self.detected
            )
        )


@dataclass(frozen=True)
class _Job:
    collection: str
    root: Path
    path: Path

    @property
    def doc_id(self) -> str:
        return self.path.relative_to(self.root).with_suffix("").as_posix()


def discover(paths: list[Path], collection: str | None) -> tuple[list[_Job], list[tuple[str, Path]]]:
    """Documents to consider, and the (collection, folder) scopes in which missing documents are removed.

    Without --collection, a folder that holds sub-folders is a corpus: each sub-folder is a collection.
    """
    jobs: list[_Job] = []
    scopes: list[tuple[str, Path]] = []
    for raw in paths:
        path = raw.resolve()
        if not path.exists():
            raise LoaderError(f"{raw}: no such file or folder")
        if path.is_file():
            jobs.append(_Job(collection or path.parent.name, path.parent, path))
            continue
        subfolders = sorted(p for p in path.iterdir() if p.is_dir() and not p.name.startswith("."))
        if collection is None and subfolders:
            groups = [(p.name, p) for p in subfolders]
        else:
            groups = [(collection or path.name, path)]
        for name, folder in groups:
            scopes.append((name, folder))
            jobs += [_Job(name, folder, f) for f in sorted(folder.rglob("*")) if is_document(f)]
    return jobs, scopes


def _validate_collection(name: str) -> str:
    if not name or not all(c.isalnum() or c in "_-" for c in name):
        raise LoaderError(f"invalid collection name {name!r}: use letters, digits, '_' and '-'")
    return name


def ingest(
    paths: list[Path],
    *,
    settings: Settings,
    embedder: Embedder,
    catalog: Catalog,
    backend: Backend,
    collection: str | None = None,
    defaults: dict[str, Any] | None = None,
    rebuild: bool = False,
    progress: Progress | None = None,
) -> IngestReport:
    """Bring the index in line with the given files and folders; see the module docstring."""
    started = time.perf_counter()
    report = IngestReport()
    if collection is not None:
        _validate_collection(collection)
    jobs, scopes = discover(paths, collection)
    for job in jobs:
        _validate_collection(job.collection)
    command = "policyrag ingest " + " ".join(str(p) for p in paths)
    with writer_lock(settings.index_dir, command):
        backend.discard_unpublished()  # what a writer killed before publishing left behind
        _update_catalog(jobs, scopes, report, settings, embedder, catalog, defaults, rebuild, progress)
        stale = published_version(catalog) != catalog.version() or backend.current() is None
        if stale or rebuild:
            report.generation = build_generation(catalog, backend, embedder, crash_at=settings.crash_at)
    report.seconds = time.perf_counter() - started
    return report


def _update_catalog(
    jobs: list[_Job],
    scopes: list[tuple[str, Path]],
    report: IngestReport,
    settings: Settings,
    embedder: Embedder,
    catalog: Catalog,
    defaults: dict[str, Any] | None,
    rebuild: bool,
    progress: Progress | None,
) -> None:
    """Load and chunk what changed, embed it and write it to the catalog. The changed documents are held only
    here, so the generation is built from the catalog without them in memory."""
    known = catalog.documents()
    records: list[DocumentRecord] = []
    seen: set[tuple[str, str]] = set()
    for number, job in enumerate(jobs, start=1):
        key = (job.collection, job.doc_id)
        seen.add(key)
        label = f"{job.collection}/{job.doc_id}"
        if progress:
            progress("load", number, len(jobs))
        try:
            _check_size(job.path, settings.max_file_bytes)
            print_ = fingerprint(job.path, defaults)
            if key in known and known[key].fingerprint == print_ and not rebuild:
                report.unchanged.append(label)
                continue
            document = load_document(job.path, job.root, defaults)
        except (LoaderError, SidecarError, OSError) as exc:
            report.failed.append((str(job.path), str(exc)))
            continue
        if document.metadata.get("detected_type"):
            report.detected.append((label, float(document.metadata["detection_confidence"])))
        chunks = chunk_document(
            document, job.collection, settings.chunk_words, settings.chunk_overlap_words, settings.chunk_context
        )
        sentences = [sentences_for_index(c.text) for c in chunks]
        records.append(
            DocumentRecord(job.collection, job.doc_id, str(job.path), print_, document.metadata, chunks, sentences)
        )
        (report.updated if key in known else report.added).append(label)
    removed = [
        key
        for key, doc in known.items()
        if key not in seen
        and any(doc.collection == name and _is_within(Path(doc.source), folder) for name, folder in scopes)
    ]
    report.removed = [f"{c}/{d}" for c, d in removed]
    report.embeddings_computed = _embed(records, catalog, embedder, progress)
    records = [_linked(record, catalog, embedder.model_id) for record in records]
    checkpoint("embedded", settings.crash_at)
    if records or removed:
        catalog.replace(records, removed)
    checkpoint("catalog_written", settings.crash_at)
    report.chunks_written = sum(len(r.chunks) for r in records)


def _embed(records: list[DocumentRecord], catalog: Catalog, embedder: Embedder, progress: Progress | None) -> int:
    """Embed every text of the records that has no cached vector; returns how many were computed. Each text is
    held once: a long document repeats many."""
    texts = dict.fromkeys(
        chain(
            (c.embed_text for r in records for c in r.chunks),
            (s for r in records for ss in r.sentences for s in ss),
            (s for r in records for c in r.chunks for s in scored_texts(c.text)),  # what the answerer scores
        )
    )
    total = len(texts)
    done = 0

    def tick(n: int) -> None:
        nonlocal done
        done += n
        if progress:
            progress("embed", done, total)

    return embed_missing(catalog, embedder, texts, tick)


def _check_size(path: Path, limit: int) -> None:
    """A file over the per-file limit is refused before it is read (its size bounds what ingest holds)."""
    size = path.stat().st_size
    if size > limit:
        raise LoaderError(f"{path}: {_size(size)}, over the {_size(limit)} file-size limit (POLICYRAG_MAX_FILE_BYTES)")


def _size(n: int) -> str:
    return f"{n / 1024 / 1024:.1f} MB" if n >= 1024 * 1024 else f"{n / 1024:.1f} KB"


def _linked(record: DocumentRecord, catalog: Catalog, model_id: str) -> DocumentRecord:
    """The record with its recitals linked to the articles they explain (from the vectors just computed)."""
    if not any(c.metadata.get("kind") == "recital" for c in record.chunks):
        return record
    keys = {c.embed_text: text_key(c.embed_text) for c in record.chunks}
    cached = catalog.vectors(model_id, list(keys.values()))
    return replace(record, chunks=link_recitals(record.chunks, {text: cached[key] for text, key in keys.items()}))


def _is_within(path: Path, folder: Path) -> bool:
    try:
        return path.resolve().is_relative_to(folder.resolve())
    except OSError:
        return False
