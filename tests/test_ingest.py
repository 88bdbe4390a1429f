"""Ingestion end to end with the real model and Qdrant Edge: incremental, atomic, locked."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from db.index import IndexBusyError, writer_lock
from retrieval.resources import Resources
from tests.conftest import CORPUS, REPO_ROOT, ingest_into
from tests.test_loaders import write_doc

SAMPLE = ["gdpr_art_33", "gdpr_art_09_2_a", "gdpr_art_09_2_h", "caldicott_principle_7"]


@pytest.fixture
def corpus(tmp_path) -> Path:
    """A small copy of the shipped corpus: one collection folder with four provisions."""
    folder = tmp_path / "corpus" / "health_governance"
    folder.mkdir(parents=True)
    for name in SAMPLE:
        for suffix in (".txt", ".json"):
            shutil.copy(CORPUS / "health_governance" / f"{name}{suffix}", folder / f"{name}{suffix}")
    return tmp_path / "corpus"


@pytest.fixture
def resources(settings, embedder):
    made = Resources(settings, embedder=embedder)
    yield made
    made.close()


def indexed(resources: Resources) -> dict[str, list[str]]:
    """doc_id -> chunk citations in the published index."""
    out: dict[str, list[str]] = {}
    for payload in sorted(resources.reader.store().payloads(), key=lambda p: (p["doc_id"], p["position"])):
        out.setdefault(payload["doc_id"], []).append(payload["citation"])
    return out


def test_first_ingest_indexes_every_document(resources, corpus):
    report = ingest_into(resources, [corpus])
    assert sorted(report.added) == sorted(f"health_governance/{n}" for n in SAMPLE)
    assert report.generation == "gen-000001" and not report.failed
    assert indexed(resources)["gdpr_art_33"] == [f"GDPR Art. 33({n})" for n in range(1, 6)]
    assert resources.reader.store().counts_by("collection") == {"health_governance": report.chunks_written}


def test_incremental_unchanged_changed_removed(resources, corpus):
    ingest_into(resources, [corpus])
    calls = resources.embedder.calls

    again = ingest_into(resources, [corpus])
    assert sorted(again.unchanged) == sorted(f"health_governance/{n}" for n in SAMPLE)
    assert again.embeddings_computed == 0 and resources.embedder.calls == calls
    assert again.generation is None  # nothing changed: the published index stays

    folder = corpus / "health_governance"
    (folder / "caldicott_principle_7.txt").write_text(
        "Principle 7 - The duty to share\nThe duty to share information for individual care is as important "
        "as the duty to protect confidentiality.\n",
        encoding="utf-8",
    )
    subprocess.run(
        [sys.executable, str(REPO_ROOT / "scripts" / "refresh_hashes.py"), str(folder)], check=True, capture_output=True
    )
    (folder / "gdpr_art_09_2_a.txt").unlink()
    (folder / "gdpr_art_09_2_a.json").unlink()
    changed = ingest_into(resources, [corpus])
    assert changed.updated == ["health_governance/caldicott_principle_7"]
    assert changed.removed == ["health_governance/gdpr_art_09_2_a"]
    assert 0 < changed.embeddings_computed <= 4  # only the new text and its sentences
    docs = indexed(resources)
    assert "gdpr_art_09_2_a" not in docs
    caldicott = resources.reader.store().payloads({"doc_id": "caldicott_principle_7"})
    assert len(caldicott) == 1 and "as important as the duty to protect confidentiality" in caldicott[0]["text"]


def test_ingesting_one_file_does_not_remove_the_rest(resources, corpus):
    ingest_into(resources, [corpus])
    report = ingest_into(resources, [corpus / "health_governance" / "gdpr_art_33.txt"], collection="health_governance")
    assert report.unchanged == ["health_governance/gdpr_art_33"] and not report.removed
    assert set(indexed(resources)) == set(SAMPLE)


def test_bad_files_are_skipped_and_change_nothing(resources, corpus):
    ingest_into(resources, [corpus])
    before = indexed(resources)
    generation = resources.backend.current()
    folder = corpus / "health_governance"
    (folder / "broken.pdf").write_bytes(b"%PDF-1.4 not a pdf")
    (folder / "empty.txt").write_text("  ", encoding="utf-8")
    bad_sidecar = write_doc(folder, "doc9", "Some provision text.")
    bad_sidecar.with_suffix(".json").write_text("{oops", encoding="utf-8")
    report = ingest_into(resources, [corpus])
    assert sorted(Path(p).name for p, _ in report.failed) == ["broken.pdf", "doc9.txt", "empty.txt"]
    assert all(reason for _, reason in report.failed)
    assert report.generation is None and resources.backend.current() == generation
    assert indexed(resources) == before


def test_a_changed_file_that_breaks_keeps_its_previous_version(resources, corpus):
    ingest_into(resources, [corpus])
    target = corpus / "health_governance" / "gdpr_art_33.json"
    target.write_text("{not json", encoding="utf-8")
    report = ingest_into(resources, [corpus])
    assert [Path(p).name for p, _ in report.failed] == ["gdpr_art_33.txt"]
    assert indexed(resources)["gdpr_art_33"] == [f"GDPR Art. 33({n})" for n in range(1, 6)]


def test_invalid_collection_name_is_refused(resources, corpus):
    from ingest.units import LoaderError

    with pytest.raises(LoaderError, match="invalid collection name"):
        ingest_into(resources, [corpus], collection="../etc")
    assert resources.backend.current() is None


def test_a_second_writer_is_told_who_holds_the_index(settings):
    with writer_lock(settings.index_dir, "policyrag ingest corpus"):
        with pytest.raises(IndexBusyError) as error:
            with writer_lock(settings.index_dir, "another"):
                pass
    assert f"PID {os.getpid()}" in str(error.value) and "policyrag ingest corpus" in str(error.value)


@pytest.mark.subprocess
def test_another_process_can_read_while_this_one_reads_and_a_new_generation_is_published(
    resources, corpus, settings, tmp_path
):
    """Published generations have no write-ahead log: a second process opens the same one."""
    ingest_into(resources, [corpus])
    reader_store = resources.reader.store()
    script = tmp_path / "read.py"
    script.write_text(
        textwrap.dedent(
            f"""
            import json, sys
            sys.path.insert(0, {str(REPO_ROOT)!r})
            from pathlib import Path
            from core.settings import Settings
            from db.index import EdgeBackend, IndexReader
            reader = IndexReader(EdgeBackend(Path({str(settings.index_dir)!r})))
            print(json.dumps({{"generation": reader.backend.current(), "count": reader.store().count()}}))
            reader.close()
            """
        ),
        encoding="utf-8",
    )
    other = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=120)
    assert other.returncode == 0, other.stderr
    seen = json.loads(other.stdout.strip().splitlines()[-1])
    assert seen == {"generation": "gen-000001", "count": reader_store.count()}

    write_doc(corpus / "health_governance", "extra1", "Article 1 - Extra\n1. An extra provision about retention.")
    report = ingest_into(resources, [corpus])
    assert report.generation == "gen-000002"
    assert resources.reader.store().count() == reader_store.count() + 1  # the reader follows the new generation


def test_retrieval_after_ingest_names_its_provenance(resources, corpus):
    ingest_into(resources, [corpus])
    evidence = resources.retriever.retrieve(
        "How many hours does a controller have to notify a breach to the supervisory authority?",
        {"collection": "health_governance"},
        3,
    )
    top = evidence[0]
    assert top.citation == "GDPR Art. 33(1)" and "72 hours" in top.text
    assert top.publisher == "EUR-Lex" and top.jurisdiction == "EU" and top.hierarchy_rank == 1
    assert top.url.startswith("https://eur-lex.europa.eu/")
    assert top.scores.dense is not None and top.scores.sparse is not None and top.scores.fused is not None


def test_a_new_data_folder_can_borrow_computed_vectors_and_embed_nothing(resources, corpus, embedder, tmp_path):
    first = ingest_into(resources, [corpus])
    assert first.embeddings_computed > 0
    other = Resources(resources.settings.model_copy(update={"data_dir": tmp_path / "other"}), embedder=embedder)
    try:
        held = other.catalog.import_vectors(resources.settings.catalog_path)
        assert held == first.embeddings_computed
        assert other.catalog.import_vectors(other.settings.catalog_path) == held  # itself: nothing to add
        assert other.catalog.import_vectors(tmp_path / "absent.sqlite") == held
        second = ingest_into(other, [corpus])
        assert second.embeddings_computed == 0 and sorted(second.added) == sorted(first.added)
    finally:
        other.close()


def test_a_file_over_the_size_limit_is_skipped_with_a_message_naming_it(settings, embedder, corpus):
    limited = Resources(settings.model_copy(update={"max_file_bytes": 4096}), embedder=embedder)
    try:
        big = corpus / "health_governance" / "big_notice.txt"
        big.write_text("Records are kept. " * 1000, encoding="utf-8")  # 18 KB
        report = ingest_into(limited, [corpus])
        assert [path for path, _ in report.failed] == [str(big)]
        reason = report.failed[0][1]
        assert "big_notice.txt" in reason and "17.6 KB" in reason and "4.0 KB" in reason and "MAX_FILE_BYTES" in reason
        assert len(report.added) == len(SAMPLE)  # the others are ingested
    finally:
        limited.close()


def test_the_next_ingest_removes_a_generation_a_killed_ingest_left_unpublished(resources, corpus):
    first = ingest_into(resources, [corpus])
    backend = resources.backend
    name, store = backend.create_generation(resources.embedder.dimension)  # what a killed writer leaves behind
    store.close()
    assert (resources.settings.index_dir / name).is_dir() and backend.current() == first.generation
    again = ingest_into(resources, [corpus])  # nothing changed: no new generation is built
    assert again.generation is None and not (resources.settings.index_dir / name).exists()
    assert backend.current() == first.generation

    name, store = backend.create_generation(resources.embedder.dimension)
    store.close()
    (resources.settings.index_dir / name / "left-by-a-killed-ingest").touch()
    write_doc(corpus / "health_governance", "extra1", "Article 1 - Retention\n1. Records are kept for eight years.")
    changed = ingest_into(resources, [corpus])  # a new generation is built and published
    assert changed.generation and backend.current() == changed.generation
    assert not list(resources.settings.index_dir.glob("gen-*/left-by-a-killed-ingest"))
