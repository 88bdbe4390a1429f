"""One answer contract for every path that answers from evidence blocks (the main graph's generate node and
each side of a comparison): policy questions about cover are answered only from clauses on cover, weak
policy evidence is refused with the reason, and a policy answer ends with the coverage of the clause it
cites first."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from core.types import Evidence
from generation.answer import GeneratedAnswer, Generator, generate_answer
from generation.blocks import (
    absent_from_wording,
    adaptive_policy_blocks,
    counterpart_clauses,
    cover_clauses,
    coverage_line,
    leading,
    series_members,
    unnamed_feature,
)
from generation.compose import asked_about
from generation.guard import Sanitiser
from generation.series import MIN_LISTED
from language.analysis import QuestionAnalysis


@dataclass
class GroundedAnswer:
    result: GeneratedAnswer
    blocks: list[Evidence]  # the blocks the answer was written from (its [Source N] numbers index these)
    coverage: str | None  # the cited clause's coverage type, for a policy answer that states one

    def cited_clauses(self) -> list[Evidence]:
        """The clauses the answer cites, in the order it cites them (the answering clause first): a compare
        table is built from these alone, so it never shows a clause the answer did not rely on, nor says a point
        is missing that the answer covers."""
        if self.result.status != "answered":
            return []
        return [self.blocks[n - 1] for n in dict.fromkeys(c.source for c in self.result.citations)]


def grounded_answer(
    question: str,
    analysis: QuestionAnalysis,
    blocks: list[Evidence],
    generator_for: Callable[[], Generator],
    sanitiser: Sanitiser,
    policy_floor: float,
    policy_max_clauses: int,
    mentioned: Callable[[str, list[str]], bool],
    emit: Callable[[str], None] | None = None,
) -> GroundedAnswer:
    """The cited answer from the blocks; the generator is only built (and called) when some block is kept.
    `mentioned(word, doc_ids)`: whether those documents hold the word anywhere (a search of the index)."""
    clauses = [b for b in blocks if b.document_type == "policy_wording"]
    if feature := unnamed_feature(question, analysis, blocks, mentioned):  # nothing found names the thing asked for
        blocks, absent = [], absent_from_wording(clauses, f"never mention {feature}")
    else:
        blocks, absent = cover_clauses(question, analysis, blocks)
        clauses = [b for b in blocks if b.document_type == "policy_wording"]
    series = series_members(question, blocks)  # "What are the exclusions?": every one, and no coverage line
    # ... and, asked about two variants, the other's clause beside each leading one, past the cap alike
    counterparts = counterpart_clauses(question, leading(clauses), clauses)
    blocks, weak = adaptive_policy_blocks(
        blocks, policy_floor, policy_max_clauses, asked_about(question, analysis), [*series, *counterparts]
    )
    if weak and analysis.about_cover:  # a benefit only weakly matched is, as far as the wording shows, not in it
        weak = absent_from_wording(clauses, f"match it only weakly ({weak})")
    weak = absent or weak
    result = generate_answer(question, blocks, generator_for() if blocks else None, sanitiser, emit)
    if weak:
        result.detail = weak
    elif result.status == "refused" and analysis.about_cover and blocks:
        result.detail = absent_from_wording(blocks, "do not name what was asked")
    coverage = None
    # a list of clauses has no one polarity, nor has an answer stating two wordings' sides of one clause
    cited = [blocks[c.source - 1] for c in result.citations if 0 < c.source <= len(blocks)]
    sides = {(b.metadata.get("clause_id"), b.metadata.get("variant")) for b in cited if b.metadata.get("clause_id")}
    compared = len(sides) > len({clause for clause, _ in sides})
    if result.status == "answered" and len(series) < MIN_LISTED and not compared:
        result.answer, coverage = coverage_line(result.answer, result.citations, blocks)
    return GroundedAnswer(result, blocks, coverage)
