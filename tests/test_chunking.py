"""Structure-aware chunking on real structure: shipped provisions, the GDPR, the EHDS, an insurance PDF."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from ingest.chunking import chunk_document, chunk_unit, split_text, with_page
from ingest.loaders import load_document
from ingest.loaders.eurlex import load_convex, load_formex
from ingest.structure import split_units, text_lines
from tests.conftest import CORPUS, shared_path


def chunks_of(path: Path, root: Path, words: int = 400, overlap: int = 50):
    return chunk_document(load_document(path, root), root.name, words, overlap)


def test_shipped_article_is_chunked_per_numbered_paragraph():
    root = CORPUS / "health_governance"
    chunks = chunks_of(root / "gdpr_art_33.txt", root)
    assert [c.citation for c in chunks] == [f"GDPR Art. 33({n})" for n in range(1, 6)]
    assert "72 hours" in chunks[0].text
    assert all(c.metadata["publisher"] == "EUR-Lex" and c.metadata["hierarchy_rank"] == 1 for c in chunks)
    assert chunks[0].refs[:2] == ["ref_33", "gdpr_ref_33"] and "ref_33_1" in chunks[0].refs


def test_single_point_document_keeps_its_own_citation():
    root = CORPUS / "health_governance"
    chunks = chunks_of(root / "gdpr_art_09_2_h.txt", root)
    assert {c.citation for c in chunks} == {"GDPR Art. 9(2)(h)"}
    assert "ref_9_2_h" in chunks[0].refs and "ref_9_2_a" not in chunks[0].refs


def test_every_shipped_chunk_is_bounded_and_cited():
    for collection in ("health_governance", "secondary", "patients"):
        root = CORPUS / collection
        for path in sorted(root.iterdir()):
            if (
                path.suffix not in (".txt", ".json")
                or path.name.endswith(".meta.json")
                or (path.suffix == ".json" and path.with_suffix(".txt").exists())
            ):
                continue
            for chunk in chunks_of(path, root):
                assert chunk.text.strip() and chunk.citation
                assert len(chunk.text.split()) <= 400 + 60, (chunk.citation, len(chunk.text.split()))


def test_long_provision_splits_at_points_with_point_citations():
    rows = [json.loads(line) for line in shared_path("corpora", "gdpr", "gdpr_2016_679_paragraphs.jsonl").open()]
    paragraph = next(r for r in rows if r["citation"] == "GDPR Art. 9(2)")
    from ingest.structure import split_units, text_lines

    units = split_units(
        text_lines("Article 9 - Processing\n2. " + paragraph["text"].replace("; (", ";\n(")),
        "GDPR Art. 9",
        "primary_law",
    )
    pieces = chunk_unit(units[0], 120, 20)
    citations = [piece.citation for piece in pieces]
    assert citations[0] == "GDPR Art. 9(2)"
    assert "GDPR Art. 9(2)(h)" in citations
    h_piece = next(piece.refs for piece in pieces if piece.citation == "GDPR Art. 9(2)(h)")
    assert "ref_9_2_h" in h_piece and "ref_9_2_a" not in h_piece


def test_gdpr_paragraphs_file_keeps_each_rows_citation(tmp_path):
    source = shared_path("corpora", "gdpr", "gdpr_2016_679_paragraphs.jsonl")
    document = load_document(source, source.parent)
    chunks = chunk_document(document, "gdpr", 400, 50)
    citations = {c.citation for c in chunks}
    assert {"GDPR Art. 9(2)", "GDPR Art. 33(1)", "GDPR Recital 51", "GDPR Art. 83(5)"} <= citations
    assert len({c.metadata.get("kind") for c in chunks}) == 2
    art_33_1 = next(c for c in chunks if c.citation == "GDPR Art. 33(1)")
    assert "72 hours" in art_33_1.text


def test_official_gdpr_xml_becomes_article_paragraph_citations():
    metadata, units = load_formex(shared_path("corpora", "gdpr", "gdpr-consolidated-with-corrected-preamble-en.xml"))
    assert metadata["instrument"] == "GDPR" and metadata["version"] == "2016/679"
    by_citation = {u.citation: u for u in units}
    assert sum(1 for u in units if u.extra["kind"] == "recital") == 173
    assert "72 hours" in by_citation["GDPR Art. 33(1)"].text
    assert by_citation["GDPR Art. 9(2)"].text.count("\n(") == 10  # points (a) to (j), one per line
    assert by_citation["GDPR Art. 4(15)"].text.startswith("(15) ‘data concerning health’")
    assert "Section 2 - Security of personal data" in by_citation["GDPR Art. 33(1)"].section
    assert by_citation["GDPR Art. 33(1)"].section.startswith("CHAPTER IV")


def test_official_ehds_xhtml_becomes_article_paragraph_citations():
    metadata, units = load_convex(shared_path("corpora", "ehds", "32025R0327_EHDS_oj_en.html"))
    assert metadata["instrument"] == "EHDS"
    by_citation = {u.citation: u for u in units}
    assert sum(1 for u in units if u.extra["kind"] == "recital") == 115
    assert "opt out at any time" in by_citation["EHDS Art. 71(1)"].text
    assert "(a) information on the healthcare provider" in by_citation["EHDS Art. 9(2)"].text
    assert "Annex I" in " ".join(by_citation) or any(c.startswith("EHDS Annex") for c in by_citation)


def test_insurance_pdf_keeps_pages_and_clause_headings():
    pdf = shared_path("corpora", "insurance", "pdf", "Arogya_Sanjeevani_Policy_-_CIN_-_U10200WB1906GOI001713_1.pdf")
    document = load_document(pdf, pdf.parent, {"document_type": "policy_wording", "citation": "Arogya Sanjeevani"})
    chunks = chunk_document(document, "insurance_real", 400, 50)
    pages = {c.page for c in chunks}
    assert min(pages) == 1 and max(pages) >= 10
    assert any("cl." in c.citation for c in chunks)
    exclusions = [c for c in chunks if "exclu" in c.section.lower()]
    assert exclusions, "the Exclusions section was not detected as a heading"


def test_split_text_respects_the_size_and_overlaps():
    sentences = [f"Sentence number {i} talks about data protection rules." for i in range(60)]
    pieces = split_text(" ".join(sentences), 80, 20)
    assert len(pieces) > 3
    assert all(len(p.split()) <= 80 for p in pieces)
    first_tail = pieces[0].split(". ")[-1]
    assert first_tail.rstrip(".") in pieces[1]


def test_no_chunk_is_longer_than_the_ceiling_even_without_spaces(tmp_path):
    from core.types import CHUNK_MAX_CHARS

    for name, text in (
        ("nospace", "x" * 300_000),
        ("longwords", " ".join(["y" * 9_000] * 5)),
        ("bigwords", " ".join(["antidisestablishmentarianism"] * 399) + "."),  # 400 words, 11,600 characters
        ("mixed", "Short opening sentence. " + "z" * 20_000 + " closing words here."),
    ):
        path = tmp_path / f"{name}.txt"
        path.write_text(text, encoding="utf-8")
        chunks = chunks_of(path, tmp_path)
        assert all(len(c.text) <= CHUNK_MAX_CHARS for c in chunks), (name, max(len(c.text) for c in chunks))
        kept = "".join(c.text for c in chunks).replace(" ", "")
        assert kept.count("x") + kept.count("y") + kept.count("z") >= text.count("x") + text.count("y") + text.count(
            "z"
        )  # nothing is lost (an overlap may repeat some)


def test_split_text_never_returns_a_piece_over_the_ceiling():
    from core.types import CHUNK_MAX_CHARS

    for text in ("a" * 50_000, "word " * 20_000, ("sentence with words. " * 400) + "b" * 12_000):
        assert max(len(p) for p in split_text(text, 400, 50)) <= CHUNK_MAX_CHARS


def test_evidence_text_is_bounded_whatever_an_older_index_or_the_web_holds():
    from core.types import CHUNK_MAX_CHARS, Evidence, Scores
    from retrieval.web_search import web_evidence

    stored = Evidence.from_payload({"chunk_id": "c", "text": "x" * 20_000_000, "citation": "Old 1"}, Scores())
    assert len(stored.text) == CHUNK_MAX_CHARS
    assert len(web_evidence("A page", "https://example.org", "y" * 1_000_000, "tavily").text) <= CHUNK_MAX_CHARS


def test_a_chunk_over_the_ceiling_cannot_be_made():
    from pydantic import ValidationError

    from core.types import CHUNK_MAX_CHARS, Chunk

    with pytest.raises(ValidationError):
        Chunk(chunk_id="c", collection="x", doc_id="d", position=0, text="x" * (CHUNK_MAX_CHARS + 1), citation="D")


def test_a_clause_crossing_a_page_cites_the_page_each_piece_starts_on():
    """A long clause printed over pages 4 and 5: its first piece is cited on p. 4, a piece cut on p. 5 on p. 5."""
    sentences = [f"Sentence {n} of the cataract clause sets a limit of {n} percent." for n in range(1, 41)]
    lines = [("4.3 Cataract Treatment", 4), *[(s, 4 if n < 20 else 5) for n, s in enumerate(sentences)]]
    (unit,) = split_units(lines, "Sunrise Health Shield Policy", "policy_wording")
    assert unit.page == 4 and unit.page_at(len(unit.text) - 1) == 5
    pieces = chunk_unit(unit, 120, 20)
    assert len(pieces) >= 3
    assert [with_page(p.citation, p.page) for p in pieces][0] == "Sunrise Health Shield Policy cl. 4.3, p. 4"
    for piece in pieces:
        first = next(n for n, s in enumerate(sentences) if piece.text.startswith(s[:30]) or s in piece.text)
        assert piece.page == (4 if first < 20 else 5), (piece.text[:60], piece.page)
    assert pieces[-1].page == 5 and with_page("x", None) == "x"


def test_a_clause_heading_the_chunker_misses_does_not_swallow_the_clauses_after_it():
    """`3. Disclosure to information norm:` is not title-cased, so it is not a heading; 4 after 2 still is, and
    a document's first clause is numbered 1 (a list item "2. Photo ID And Age Proof" is not a first heading)."""
    lines = text_lines(
        "1. Accident\nA sudden event.\n2. Dental Treatment\nTreatment of teeth.\n"
        "3. Disclosure to information norm:\nThe Policy shall be void.\n"
        "4. Domiciliary Hospitalization\nTreatment at home.\n6. Grace Period\nThirty days.\n"
        "7. Hospital\nAn institution."
    )
    units = split_units(lines, "Activ", "policy_wording")
    assert [u.citation for u in units] == ["Activ cl. 1", "Activ cl. 2", "Activ cl. 4", "Activ cl. 6", "Activ cl. 7"]
    assert "The Policy shall be void." in units[1].text and units[3].extra["benefit_name"] == "Grace Period"
    first = split_units(text_lines("Preamble.\n2. Photo ID And Age Proof\nA copy."), "Activ", "policy_wording")
    assert [u.citation for u in first] == ["Activ"]


def test_a_real_wording_whose_definition_heading_is_missed_keeps_its_later_clauses_apart():
    pdf = shared_path("corpora", "insurance", "pdf", "policy-aditya_birla-plan-activ_fit_plus.pdf")
    document = load_document(pdf, pdf.parent)
    by_name = {u.extra.get("benefit_name"): u for u in document.units}
    assert {"Grace Period", "Hospital", "Room Rent", "Pre-Existing Disease (PED)"} <= set(by_name)
    grace = next(u for u in document.units if u.citation.endswith(" cl. 16"))
    assert grace.extra["benefit_name"] == "Grace Period" and len(grace.text) < 2_000  # not the 147,000 after it


def test_an_exclusion_s_code_is_not_part_of_its_name_whatever_dash_or_line_break():
    from ingest.policy import benefit_name

    assert benefit_name("7.15. Maternity Expenses (Code – Excl 18)") == "Maternity Expenses"  # an en dash
    assert benefit_name("7.1. Investigation & Evaluation (Code – Excl") == "Investigation & Evaluation"  # wrapped
    assert benefit_name("7.6. Hazardous or Adventure sports: (Code –") == "Hazardous or Adventure sports"
    assert benefit_name("5.12 Refractive Error (Code - Excl15)") == "Refractive Error"
    assert benefit_name("5.16 War and Nuclear Perils (Code - ASTEXC01)") == "War and Nuclear Perils (Code - ASTEXC01)"


def test_a_wording_s_definition_points_to_the_clause_headed_by_the_term_it_defines():
    """ "2.10 Free Look Period" (what it means) points to "8.2 Free Look Period" (not applicable to a group policy),
    as a list pointer does, and to no clause of another wording."""
    root = CORPUS / "insurance"
    chunks = chunks_of(root / "careshield_rider_group.txt", root)
    by_citation = {c.citation: c for c in chunks}
    definition, ruling = (
        by_citation["CareShield Rider (Group) cl. 2.10"],
        by_citation["CareShield Rider (Group) cl. 8.2"],
    )
    own = [t for t in ruling.refs if t.startswith(ruling.doc_id.lower())]
    assert own and set(own) <= set(definition.metadata["explains"])
    assert not ruling.metadata["explains"]  # the ruling clause points nowhere back


def test_a_definition_s_clause_joins_the_evidence_and_answers(make_services):
    from tests.conftest import run_graph

    out = run_graph(
        "My employer enrolled me in the group CareShield rider last week. Can I return it within the 30 days and get "
        "my money back, as you can with a policy you buy yourself?",
        make_services(),
        collection="insurance",
    )
    assert out.citations[0].citation == "CareShield Rider (Group) cl. 8.2", out.answer
    assert "not applicable to this Group Policy" in out.answer.split("[Source")[0], out.answer
