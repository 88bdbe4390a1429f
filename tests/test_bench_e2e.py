"""evals.bench_e2e measures what it says: an index of the corpus plus filler up to the size asked, in one
generation whose filler chunks carry the sentence and statement vectors the graph reads, and the graph answering
from it. Real model for the corpus, the product's ingest, Qdrant Edge and graph."""

from __future__ import annotations

import shutil
from pathlib import Path

from evals.bench_e2e import build, serve
from evals.bench_service import COLD_QUESTION, CORPUS, Question, bench_settings
from language.passages import scored_texts
from language.sentences import sentences_for_index
from retrieval.resources import Resources


def test_filler_fills_the_index_to_the_size_and_the_graph_still_answers(tmp_path: Path):
    corpus = tmp_path / "corpus" / "health_governance"
    corpus.mkdir(parents=True)
    for name in ("gdpr_art_33.txt", "gdpr_art_33.json"):
        shutil.copy(CORPUS / "health_governance" / name, corpus / name)
    data_dir = tmp_path / "data"

    built = build(data_dir, 300, corpus.parent)

    assert built["chunks"] == 300
    assert built["filler"]["chunks"] == 300 - built["corpus"]["chunks"] > 250
    resources = Resources(bench_settings(data_dir))
    try:
        store = resources.reader.store()
        payload = store.payloads({"doc_id": "filler_00000"}, limit=1)[0]
        stored = store.stored_sentences([payload["chunk_id"]])[payload["chunk_id"]]
    finally:
        resources.close()
    assert len(stored.vectors) == len(sentences_for_index(stored.text)) > 0
    assert len(stored.statements) == len(scored_texts(stored.text)) > 0

    served = serve(data_dir, [Question("breach", COLD_QUESTION, "answerable")])

    answered = served["per_question"][0]
    assert answered["status"] == "answered"
    assert answered["citations"] and all(c.startswith("GDPR Art. 33") for c in answered["citations"])
    assert {"retrieve", "grade", "generate"} <= set(served["nodes"])
