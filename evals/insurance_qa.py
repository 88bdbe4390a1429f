"""The ten labelled HackRx questions against the real National Parivar Mediclaim Plus wording.

    python -m evals.insurance_qa            # needs ../shared/corpora/insurance

Ingests the PDF into a temporary index, asks each question through the corrective RAG graph
(offline answerer, no web), and reports the fraction of questions whose reference facts appear in
the evidence the answer cites (and in the answer itself). The reference facts are the checkable
facts of each reference answer (periods, amounts, named conditions), written down once here.
Writes evals/results/insurance_qa.json.
"""

from __future__ import annotations

import json
import re
import sys
import tempfile
import time
from pathlib import Path

from core.settings import REPO_ROOT, Settings
from retrieval.alignment import digits

SHARED = REPO_ROOT.parent / "shared" / "corpora" / "insurance"
PDF = SHARED / "pdf" / "National_Parivar_Mediclaim_Plus_policy.pdf"
QA = SHARED / "qa" / "hackrx6_sample_qa_national_parivar_mediclaim_plus.jsonl"
RESULTS = REPO_ROOT / "evals" / "results" / "insurance_qa.json"
META = {
    "document_type": "policy_wording",
    "citation": "National Parivar Mediclaim Plus",
    "category": "health",
    "provider": "national",
    "product": "parivar",
    "publisher": "National Insurance Co. Ltd.",
    "jurisdiction": "IN",
    "hierarchy_rank": 2,
    "uin": "NICHLIP25039V032425",
}

# The facts each reference answer states, in checkable form (any spelling variant may match).
REFERENCE_FACTS = {
    "hackrx6-sample-01": [["30 days"]],
    "hackrx6-sample-02": [["36 months"]],
    "hackrx6-sample-03": [["24 months"], ["two deliveries", "2 deliveries"]],
    "hackrx6-sample-04": [["2 years"]],
    "hackrx6-sample-05": [["donor"], ["Transplantation of Human Organs Act"]],
    "hackrx6-sample-06": [["5%"]],
    "hackrx6-sample-07": [["2 continuous policy years", "two continuous policy years"]],
    "hackrx6-sample-08": [["10 inpatient beds", "10 in-patient beds"], ["15"]],
    "hackrx6-sample-09": [["AYUSH Hospital"], ["Sum Insured"]],
    "hackrx6-sample-10": [["1%"], ["2%"]],
}


def normalise(text: str) -> str:
    return re.sub(r"\s+", " ", digits(text)).lower()


def facts_found(facts: list[list[str]], haystack: str) -> list[bool]:
    text = normalise(haystack)
    return [any(normalise(variant) in text for variant in variants) for variants in facts]


def main() -> int:
    if not PDF.exists() or not QA.exists():
        print(f"needs {PDF} and {QA}", file=sys.stderr)
        return 2
    from core.schemas import RunContext
    from graph.crag import build_graph
    from graph.run import answer
    from ingest.pipeline import ingest
    from retrieval.resources import Resources
    from retrieval.services import Services

    questions = [json.loads(line) for line in QA.open(encoding="utf-8")]
    with tempfile.TemporaryDirectory() as tmp:
        settings = Settings(data_dir=Path(tmp) / "data", models_dir=Settings().models_dir, web_providers=[])
        resources = Resources(settings)
        report = ingest(
            [PDF],
            settings=settings,
            embedder=resources.embedder,
            catalog=resources.catalog,
            backend=resources.backend,
            collection="national_parivar",
            defaults=META,
        )
        graph = build_graph(Services(settings, resources))
        context = RunContext(collection="national_parivar", allow_web=False, generator="offline")
        rows = []
        for item in questions:
            started = time.perf_counter()
            out = answer(graph, item["question"], context)
            cited = [
                b for b in out.evidence if out.evidence_used and any(c.chunk_id == b.chunk_id for c in out.citations)
            ]
            facts = REFERENCE_FACTS[item["id"]]
            in_evidence = facts_found(facts, " ".join(b.text for b in cited))
            in_answer = facts_found(facts, out.answer) if out.status == "answered" else [False] * len(facts)
            rows.append(
                {
                    "id": item["id"],
                    "question": item["question"],
                    "status": out.status,
                    "route": out.route,
                    "answer": out.answer,
                    "citations": [c.citation for c in out.citations],
                    "pages": sorted({b.page for b in cited if b.page}),
                    "facts": facts,
                    "facts_in_cited_evidence": in_evidence,
                    "facts_in_answer": in_answer,
                    "all_facts_in_cited_evidence": all(in_evidence),
                    "all_facts_in_answer": all(in_answer),
                    "latency_ms": round((time.perf_counter() - started) * 1000, 1),
                }
            )
        resources.close()
    result = {
        "command": "python -m evals.insurance_qa",
        "document": PDF.name,
        "chunks": report.chunks_written,
        "questions": len(rows),
        "fraction_all_facts_in_cited_evidence": round(
            sum(r["all_facts_in_cited_evidence"] for r in rows) / len(rows), 3
        ),
        "fraction_all_facts_in_answer": round(sum(r["all_facts_in_answer"] for r in rows) / len(rows), 3),
        "answered": sum(r["status"] == "answered" for r in rows),
        "rows": rows,
    }
    RESULTS.parent.mkdir(parents=True, exist_ok=True)
    RESULTS.write_text(json.dumps(result, indent=2, ensure_ascii=False) + "\n", encoding="utf-8")
    for r in rows:
        mark = "ok " if r["all_facts_in_cited_evidence"] else "MISS"
        print(f"{mark} {r['id']} {r['status']:9} {', '.join(r['citations'])[:70]}")
    print(
        f"facts in cited evidence: {result['fraction_all_facts_in_cited_evidence']:.0%}; "
        f"in the answer: {result['fraction_all_facts_in_answer']:.0%}"
    )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
