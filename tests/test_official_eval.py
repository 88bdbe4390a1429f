"""The official-texts section of `policyrag eval`: matching and metrics by hand."""

from __future__ import annotations

from core.types import Evidence
from evals import official_eval
from evals.official_eval import OfficialCase, first_hit, is_recital, matches, points, public_row, summary


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
