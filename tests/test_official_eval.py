"""The official-texts section of `policyrag eval`: matching and metrics by hand, the runner's merge and skip,
and the section end to end on a slice of the official GDPR XML ingested as a user would."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

from core.types import Evidence
from evals import official_eval, report, runner
from evals.official_eval import OfficialCase, first_hit, is_recital, matches, points, public_row, summary
from evals.retrieval_eval import ABLATIONS
from tests.conftest import ingest_into, shared_path


def evidence(citation: str, kind: str = "article_paragraph") -> Evidence:
    return Evidence(chunk_id=citation, text=citation, citation=citation, document="d", metadata={"kind": kind})


def test_citations_match_when_nested_at_a_bracket():
    assert matches("GDPR Art. 33(1)", "GDPR Art. 33") and matches("GDPR Art. 33", "GDPR Art. 33(1)")
    assert matches("GDPR Art. 33(1)", "GDPR Art. 33(1)")
    assert matches("GDPR Art. 2(2)", "GDPR Art. 2(2)(c)")  # a whole paragraph answers for its point
    assert not matches("GDPR Art. 3", "GDPR Art. 33") and not matches("GDPR Art. 33", "GDPR Art. 3")
    assert not matches("GDPR Art. 33(2)", "GDPR Art. 33(1)")
    assert not matches("GDPR Art. 4(1)", "GDPR Art. 4(15)")  # a number is not a prefix of a longer one
    assert not matches("EHDS Art. 3(1)", "GDPR Art. 3") and not matches("GDPR Art. 3", "EHDS Art. 3(1)")
    assert not matches("GDPR Recital 33", "GDPR Art. 33")


def test_a_piece_cut_from_a_list_of_points_answers_for_each_point_it_holds():
    assert points("GDPR Art. 9(2)(h)-(j)") == ["GDPR Art. 9(2)(h)", "GDPR Art. 9(2)(i)", "GDPR Art. 9(2)(j)"]
    assert points("GDPR Art. 9(2)(h)") == ["GDPR Art. 9(2)(h)"]
    assert matches("GDPR Art. 9(2)(h)-(j)", "GDPR Art. 9(2)(j)")
    assert matches("GDPR Art. 9(2)(h)-(j)", "GDPR Art. 9(2)")
    assert not matches("GDPR Art. 9(2)(h)-(j)", "GDPR Art. 9(2)(g)")
    assert not matches("EHDS Art. 2(2)(j)-(q)", "GDPR Art. 2(2)(k)")


def test_authority_of_a_chunk():
    assert is_recital(evidence("GDPR Recital 43", "recital"))
    assert is_recital(evidence("GDPR Recital 43", ""))  # the citation alone says so
    assert is_recital(evidence("x", "recital"))  # and so does the kind alone
    assert not is_recital(evidence("GDPR Art. 7(4)"))
    assert not is_recital(evidence("EHDS Annex I", "annex"))


def case(id_: str, gold: str, split: str = "dev", binding: bool = True) -> OfficialCase:
    return OfficialCase(id_, gold.split()[0], split, "q", (gold,), binding)


def test_metrics_on_a_hand_made_ranking():
    rankings = {
        "a": [evidence("GDPR Art. 33(1)"), evidence("GDPR Recital 85", "recital")],  # hit at 1, binding first
        "b": [evidence("GDPR Recital 43", "recital"), evidence("GDPR Art. 3"), evidence("GDPR Art. 7(4)")],  # at 3
        "c": [evidence("GDPR Recital 18", "recital"), evidence("GDPR Art. 4(11)")],  # missed
        "d": [],  # nothing retrieved: no hit, nothing binding first
    }
    cases = [case("a", "GDPR Art. 33"), case("b", "GDPR Art. 7(4)"), case("c", "GDPR Art. 2(2)(c)")]
    cases.append(case("d", "GDPR Art. 5", "heldout"))
    rows = [official_eval.question_row(c, rankings[c.id]) for c in cases]
    assert [r["first_hit"] for r in rows] == [1, 3, None, None]
    assert first_hit(rankings["b"], ("GDPR Art. 3",)) == 2
    figures = summary(rows)
    assert figures["questions"] == 4
    assert figures["hit@1"] == 0.25 and figures["hit@5"] == 0.5
    assert figures["mrr@10"] == round((1 + 1 / 3) / 4, 3)
    assert figures["rank1_binding"] == 0.25 and figures["rank1_recital"] == 0.5
    assert summary([{**rows[0], "gold_binding": False}])["rank1_binding"] is None  # only binding golds count
    assert public_row(rows[1]) == {"id": "b", "split": "dev", "first_hit": 3, "rank1_citation": "GDPR Recital 43"}
    assert public_row(rows[3]) == {"id": "d", "first_hit": None}  # held-out: ids and ranks only


def test_the_recital_set_ranks_only_binding_chunks_and_splits_odd_and_even_recitals():
    shared_path("corpora", "gdpr", "qa", "gdpr_recital_to_article_retrieval.jsonl")
    recitals = official_eval.recital_cases()
    assert recitals and all(c.articles_only and c.instrument == official_eval.RECITAL_SET for c in recitals)
    assert {c.split for c in recitals} == {"dev", "heldout"}
    assert all(g.startswith("GDPR Art. ") for c in recitals for g in c.gold)
    ranked = [evidence("GDPR Recital 85", "recital"), evidence("GDPR Art. 33(1)")]
    asked = OfficialCase("r", official_eval.RECITAL_SET, "dev", "q", ("GDPR Art. 33",), True, articles_only=True)
    assert official_eval.answers(asked, ranked) == ranked[1:]
    assert official_eval.question_row(asked, official_eval.answers(asked, ranked))["first_hit"] == 1
    assert official_eval.answers(case("a", "GDPR Art. 33"), ranked) == ranked  # plain questions rank every chunk


def test_a_run_of_one_section_merges_into_the_earlier_results():
    previous = {
        "command": "policyrag eval",
        "machine": "m",
        "retrieval": {"our goldens": {"questions": 1}},
        "official": {"old": True},
        "skipped": ["peer benchmark (absent)", "official texts (absent)"],
    }
    partial = {"command": "policyrag eval --only official", "machine": "m", "skipped": [], "official": {"new": True}}
    merged = runner.merge(previous, partial, ["official"])
    assert merged["retrieval"] == previous["retrieval"] and merged["official"] == {"new": True}
    assert merged["skipped"] == ["peer benchmark (absent)"]
    assert merged["command"] == "policyrag eval; then policyrag eval --only official"
    skipped_now = {**partial, "skipped": ["official texts (absent)"]}
    skipped_now.pop("official")
    assert "official" not in runner.merge(previous, skipped_now, ["official"])  # stale figures do not stay
    assert runner.merge(None, partial, ["official"]) == partial
    assert runner.sections_argument("official") == ["official"]
    with pytest.raises(Exception, match="sections are"):
        runner.sections_argument("official,nonesuch")


def test_the_section_is_skipped_cleanly_without_the_shared_texts(settings, tmp_path, monkeypatch):
    monkeypatch.setattr(official_eval, "SOURCES", {"GDPR": tmp_path / "absent.xml"})
    results: dict = {"skipped": []}
    runner.official_retrieval(settings, results)
    assert "official" not in results and results["skipped"][0].startswith("official ")
    assert not (settings.data_dir / "eval").exists()


KEEP_ARTICLES = {2, 17, 33}
KEEP_RECITALS = {18, 65, 85}


def gdpr_slice(target: Path) -> Path:
    """The official GDPR XML with only a few articles and recitals, in the same Formex shape."""
    tree = ET.parse(shared_path("corpora", "gdpr", "gdpr-consolidated-with-corrected-preamble-en.xml"))
    for parent in list(tree.getroot().iter()):
        for child in list(parent):
            if child.tag == "CONSID" and int((child.findtext(".//NO.P") or "0").strip("() ")) not in KEEP_RECITALS:
                parent.remove(child)
            elif child.tag == "ARTICLE" and int(child.get("IDENTIFIER", "0")) not in KEEP_ARTICLES:
                parent.remove(child)
    target.mkdir(parents=True)
    path = target / "gdpr-slice.xml"
    tree.write(path, encoding="utf-8", xml_declaration=True)
    return path


def test_the_section_end_to_end_on_a_slice_of_the_official_gdpr(settings, embedder, tmp_path):
    from retrieval.resources import Resources

    path = gdpr_slice(tmp_path / "src")
    resources = Resources(settings, embedder=embedder)
    ingested = ingest_into(resources, [path], collection=official_eval.COLLECTION)
    assert not ingested.failed, ingested.failed
    cases = [
        OfficialCase(
            "t-breach",
            "GDPR",
            "dev",
            "We were hacked last night. How many hours do we have to tell the supervisory authority?",
            ("GDPR Art. 33(1)",),
            True,
        ),
        OfficialCase(
            "t-erase",
            "GDPR",
            "dev",
            "Can I make a company delete everything it holds about me?",
            ("GDPR Art. 17",),
            True,
        ),
        OfficialCase(
            "t-household",
            "GDPR",
            "heldout",
            "Do the rules apply to my own address book of friends, kept for purely personal reasons?",
            ("GDPR Art. 2(2)(c)",),
            True,
        ),
    ]
    figures = official_eval.run(resources.retriever, cases)
    resources.close()
    assert list(figures) == ["GDPR"] and figures["GDPR"]["dev"]["questions"] == 2
    dev = {row["ablation"]: row for row in figures["GDPR"]["dev"]["ablations"]}
    heldout = {row["ablation"]: row for row in figures["GDPR"]["heldout"]["ablations"]}
    assert list(dev) == [a.name for a in ABLATIONS]
    default = dev["hybrid + boost"]
    assert default["hit@1"] == 1.0 and default["mrr@10"] == 1.0 and default["rank1_binding"] == 1.0
    assert [r["id"] for r in default["per_question"]] == ["t-breach", "t-erase"]
    assert default["per_question"][0]["rank1_citation"] == "GDPR Art. 33(1)"
    household = heldout["hybrid + boost"]
    assert household["hit@5"] == 1.0 and set(household["per_question"][0]) == {"id", "first_hit"}
    for row in [*dev.values(), *heldout.values()]:  # a recital first is exactly a binding article missed first
        assert row["rank1_binding"] == round(1 - row["rank1_recital"], 3)
    markdown = report.official_markdown({"note": "n", "instruments": figures})
    assert "### GDPR: dev 2 questions, held-out 1 questions (never used to tune)" in markdown
    assert "| hybrid + boost | 1.0 | 1.0 | 1.0 | 1.0 |" in markdown
