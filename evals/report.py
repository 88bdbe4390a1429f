"""Write evaluation results as JSON, a Markdown report and PNG plots."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import matplotlib

matplotlib.use("Agg")  # files only, no screen
import matplotlib.pyplot as plt  # noqa: E402

RETRIEVAL_COLUMNS = ["hit@1", "hit@3", "hit@5", "hit@10", "mrr@10", "ndcg@10", "ms_per_query"]
ANSWER_COLUMNS = [
    "key_fact_recall",
    "cited_block_has_fact",
    "refusal_precision",
    "refusal_recall",
    "over_refusal",
    "route_accuracy",
    "loop_rate",
    "recovered_by_loop",
    "latency_ms_mean",
    "leaks",
]
JUDGE_COLUMNS = ["faithfulness", "answer_relevancy", "judged", "failed"]
OFFICIAL_COLUMNS = ["hit@1", "hit@5", "mrr@10", "rank1_binding"]
ABLATION_COLUMNS = [*OFFICIAL_COLUMNS, "ms_p50"]
PLAIN_COLUMNS = [
    "cases",
    "answerable",
    "answered",
    "correct",
    "lead",
    "fact_recall",
    "citation_precision",
    "binding_first",
    "fragments_per_answer",
    "no_fragments",
    "words_median",
    "words_p90",
    "must_not_state_violations",
    "cross_patient",
    "over_refusal",
    "refusal_recall",
    "auroc",
    "answer_auroc",
]
COMPARE_COLUMNS = [
    "cases",
    "points",
    "point_verdict_accuracy",
    "points_unmatched",
    "table_rows",
    "agreement",
    "cases_fully_agreeing",
    "both_answered",
    "value_recall",
    "errors",
]
PLAIN_NOTE = (
    "Offline answerer. correct: every must_state fact stated; lead: the key fact in the first sentence (both over "
    "answerable questions, a refusal counts as a miss); citation_precision and binding_first (the first citation is "
    "a must_cite provision, binding cases): over answered answerable questions; fragments and words: over answered "
    "questions; must_not_state_violations and cross_patient (another patient's id, NHS number or name): answers "
    "with any; auroc: the confidence (the best passage's grade) against correct, answered answerable questions; "
    "answer_auroc: the answer confidence (how far the best passage stands out, and whether the answer leads from it) "
    "against the same. Per-case rows (held-out: ids "
    "and booleans only) are in eval.json.\n"
)


def table(rows: list[dict[str, Any]], columns: list[str], first: str) -> str:
    head = f"| {first} | " + " | ".join(columns) + " |"
    rule = "|" + "---|" * (len(columns) + 1)
    body = [
        f"| {r[first]} | " + " | ".join("" if r.get(c) is None else str(r.get(c)) for c in columns) + " |" for r in rows
    ]
    return "\n".join([head, rule, *body])


def official_markdown(block: dict[str, Any]) -> str:
    """The official-texts section: one table per instrument."""
    title = "Official texts (plain-language questions)"
    return split_tables(title, block["note"], block["instruments"], OFFICIAL_COLUMNS)


def ablations_markdown(block: dict[str, Any]) -> str:
    """The pipeline ablations: one table per set of golds."""
    title = "Retrieval ablations (graph retrieve and grade nodes)"
    return split_tables(title, block["note"], block["groups"], ABLATION_COLUMNS)


def split_tables(title: str, note: str, groups: dict[str, Any], measures: list[str]) -> str:
    """One table per group: ablations down, dev then held-out figures across."""
    parts = [f"## {title}\n", note + "\n"]
    columns = [f"{split} {c}" for split in ("dev", "held-out") for c in measures]
    for group, splits in groups.items():
        dev, heldout = splits["dev"], splits["heldout"]
        parts.append(
            f"### {group}: dev {dev['questions']} questions, "
            f"held-out {heldout['questions']} questions (never used to tune)\n"
        )
        rows = []
        for dev_row, heldout_row in zip(dev["ablations"], heldout["ablations"]):
            row = {"ablation": dev_row["ablation"]}
            for split, figures in (("dev", dev_row), ("held-out", heldout_row)):
                row.update({f"{split} {c}": figures[c] for c in measures})
            rows.append(row)
        parts.append(table(rows, columns, "ablation") + "\n")
    return "\n".join(parts)


def markdown(results: dict[str, Any]) -> str:
    parts = [f"# PolicyRAG evaluation\n\nCommand: `{results['command']}`; machine: {results['machine']}.\n"]
    for name, block in results.get("retrieval", {}).items():
        parts.append(f"## Retrieval: {name} ({block['questions']} questions)\n")
        if block.get("note"):
            parts.append(block["note"] + "\n")
        parts.append(table(block["ablations"], RETRIEVAL_COLUMNS, "ablation") + "\n")
        if block.get("published"):
            parts.append(table(block["published"], RETRIEVAL_COLUMNS[:5], "system") + "\n")
    if official := results.get("official"):
        parts.append(official_markdown(official))
    if ablations := results.get("ablations"):
        parts.append(ablations_markdown(ablations))
    for name, block in results.get("answers", {}).items():
        parts.append(f"## Does correction pay? {name}\n")
        rows = [{"variant": k, **v} for k, v in block.items() if k != "loop_cost"]
        parts.append(table(rows, ANSWER_COLUMNS, "variant") + "\n")
        parts.append(f"Loop cost: {json.dumps(block['loop_cost'])}\n")
        judged = [
            {"variant": k, **v["llm_judge"]} for k, v in block.items() if isinstance(v, dict) and v.get("llm_judge")
        ]
        if judged:
            parts.append(f"LLM-as-judge (ragas, judge model `{judged[0]['model']}`; answered questions only):\n")
            parts.append(table(judged, JUDGE_COLUMNS, "variant") + "\n")
    if plain := results.get("plain"):
        parts.append(plain_markdown(plain))
    if compare := results.get("compare"):
        parts.append(compare_markdown(compare))
    if cal := results.get("calibration"):
        parts.append("## Calibrated routing\n")
        parts.append(
            f"{cal['cases']} labelled questions ({cal['answerable']} answerable, {cal['unanswerable']} not), "
            f"train {cal['train']} / test {cal['test']}. "
            f"Chosen thresholds {cal['chosen']} vs baseline {cal['baseline']}.\n\n"
            f"| | chosen | baseline 0.60/0.45 |\n|---|---|---|\n"
            f"| test accuracy (refuse below the lower threshold) "
            f"| {cal['test_accuracy_chosen']} | {cal['test_accuracy_baseline']} |\n"
            f"| test precision above the CORRECT threshold "
            f"| {cal['test_correct_precision_chosen']} | {cal['test_correct_precision_baseline']} |\n"
            f"| test AUROC of the confidence | {cal['test_auroc']} | (same score) |\n"
        )
    if safety := results.get("safety"):
        parts.append("## Injection, leakage and toxicity\n")
        parts.append("```\n" + json.dumps(safety, indent=2) + "\n```\n")
    return "\n".join(parts)


def plain_markdown(plain: dict[str, Any]) -> str:
    """Dev and held-out tables for both variants, then dev per collection and per answer type."""
    variants = plain["variants"]
    parts = ["## Plain-language answers\n", PLAIN_NOTE]
    for split, label in (("dev", "dev"), ("heldout", "held-out")):
        parts.append(f"### {label} ({plain['questions'][split]} questions)\n")
        rows = [{"variant": name, **block[split]} for name, block in variants.items()]
        parts.append(table(rows, PLAIN_COLUMNS, "variant") + "\n")
    for key, label in (("by_collection", "collection"), ("by_answer_type", "answer type")):
        parts.append(f"### dev by {label}\n")
        groups = sorted({group for block in variants.values() for group in block[key]["dev"]})
        rows = [
            {label: f"{group}: {name}", **block[key]["dev"][group]}
            for group in groups
            for name, block in variants.items()
            if group in block[key]["dev"]
        ]
        parts.append(table(rows, PLAIN_COLUMNS, label) + "\n")
    return "\n".join(parts)


def compare_markdown(block: dict[str, Any]) -> str:
    """One table: each group of cases (all, shipped riders, real PDFs), dev then held-out."""
    rows = [
        {"set": f"{group}: {label}", **splits[split]}
        for group, splits in block["groups"].items()
        for split, label in (("dev", "dev"), ("heldout", "held-out (never used to tune)"))
    ]
    return "\n".join(["## Compare mode\n", block["note"] + "\n", table(rows, COMPARE_COLUMNS, "set") + "\n"])


def plot_retrieval(results: dict[str, Any], folder: Path) -> list[Path]:
    paths = []
    for name, block in results.get("retrieval", {}).items():
        rows = block["ablations"]
        figure, axis = plt.subplots(figsize=(9, 4))
        labels = [r["ablation"] for r in rows]
        width = 0.25
        for offset, metric in enumerate(("hit@1", "mrr@10", "ndcg@10")):
            axis.bar(
                [i + (offset - 1) * width for i in range(len(rows))], [r[metric] for r in rows], width, label=metric
            )
        axis.set_xticks(range(len(rows)), labels, rotation=30, ha="right", fontsize=8)
        axis.set_ylim(0, 1)
        axis.set_title(f"Retrieval ablations: {name}")
        axis.legend(fontsize=8)
        figure.tight_layout()
        path = folder / f"retrieval_{name.replace(' ', '_').replace('/', '_')}.png"
        figure.savefig(path, dpi=110)
        plt.close(figure)
        paths.append(path)
    return paths


def plot_calibration(results: dict[str, Any], folder: Path) -> Path | None:
    cal = results.get("calibration")
    if not cal:
        return None
    figure, axis = plt.subplots(figsize=(7, 3.5))
    for answerable, colour in ((True, "tab:green"), (False, "tab:red")):
        values = [s["confidence"] for s in cal["scores"] if s["answerable"] == answerable]
        axis.hist(
            values, bins=20, range=(0, 1), alpha=0.6, color=colour, label="answerable" if answerable else "unanswerable"
        )
    for key, style in (("incorrect_threshold", "--"), ("correct_threshold", ":")):
        axis.axvline(cal["chosen"][key], color="black", linestyle=style, label=f"chosen {key}")
        axis.axvline(cal["baseline"][key], color="grey", linestyle=style, label=f"baseline {key}")
    axis.set_xlabel("best-chunk confidence")
    axis.legend(fontsize=7)
    axis.set_title("Router confidence by label")
    figure.tight_layout()
    path = folder / "calibration.png"
    figure.savefig(path, dpi=110)
    plt.close(figure)
    return path


def write(results: dict[str, Any], folder: Path) -> None:
    (folder / "plots").mkdir(parents=True, exist_ok=True)
    (folder / "eval.json").write_text(json.dumps(results, indent=2, default=str) + "\n", encoding="utf-8")
    if "calibration" in results:
        (folder / "calibration.json").write_text(json.dumps(results["calibration"], indent=2) + "\n", encoding="utf-8")
    (folder / "eval.md").write_text(markdown(results), encoding="utf-8")
    plot_retrieval(results, folder / "plots")
    plot_calibration(results, folder / "plots")
