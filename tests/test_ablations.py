"""The pipeline ablations (evals/ablations.py): each variant changes real settings, the summary is right by
hand, and a run goes through the graph's retrieve and grade nodes with held-out rows kept to ids and ranks."""

from __future__ import annotations

import pytest

from core.settings import Settings
from evals import ablations
from evals.ablations import PLAIN, VARIANTS, Gold

BREACH = "We lost a laptop with patient letters. How long do we have to tell the regulator?"


@pytest.mark.parametrize("variant", VARIANTS[1:], ids=lambda v: v.name)
def test_every_ablation_changes_a_setting_away_from_the_product_default(variant):
    assert variant.settings
    for key, value in variant.settings.items():
        assert key in Settings.model_fields, key  # a misspelt key would silently change nothing
        assert Settings.model_fields[key].default != value
    assert variant.match_context is (variant.settings.get("chunk_context", True))


def row(first_hit: int | None, authority: str, binding: bool = True, split: str = "dev") -> dict:
    return {"first_hit": first_hit, "rank1_authority": authority, "gold_binding": binding, "split": split, "ms": 4.0}


def test_summary_by_hand():
    rows = [row(1, "binding"), row(3, "recital"), row(None, "commentary", binding=False), row(7, "binding")]
    figures = ablations.summary(rows)
    assert figures["hit@1"] == 0.25 and figures["hit@5"] == 0.5
    assert figures["mrr@10"] == round((1 + 1 / 3 + 1 / 7) / 4, 3)
    assert figures["rank1_binding"] == round(2 / 3, 3)  # of the three binding golds, two have a binding rank 1
    assert figures["rank1_authority"] == {"binding": 0.5, "commentary": 0.25, "recital": 0.25}


def test_a_citation_answers_for_its_gold_at_a_boundary_only():
    assert ablations.answers_for("GDPR Art. 33(1)", "GDPR Art. 33")
    assert ablations.answers_for("GDPR Art. 9(2)(h)-(j)", "GDPR Art. 9(2)(i)")
    assert not ablations.answers_for("GDPR Art. 3", "GDPR Art. 33")


def test_a_run_through_the_graph_nodes_keeps_held_out_rows_to_ids_and_ranks(shipped):
    golds = [
        Gold("t-dev", PLAIN, "dev", BREACH, None, ("GDPR Art. 33(1)",), True),
        Gold("t-held", PLAIN, "heldout", BREACH, "health_governance", ("GDPR Art. 33(1)",), True),
    ]
    out = ablations.run(golds, {True: shipped, False: shipped})
    dev, heldout = out[PLAIN]["dev"], out[PLAIN]["heldout"]
    assert [a["ablation"] for a in dev["ablations"]] == [v.name for v in VARIANTS]
    full = dev["ablations"][0]
    assert full["per_question"][0]["first_hit"] <= 5 and full["per_question"][0]["rank1_authority"] == "binding"
    assert all(set(a["per_question"][0]) == {"id", "first_hit"} for a in heldout["ablations"])
