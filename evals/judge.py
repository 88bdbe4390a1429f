"""Optional LLM-as-judge for `policyrag eval`: ragas faithfulness and answer relevancy of the answers.

Runs only when a judge chat model is configured (POLICYRAG_JUDGE_MODEL); the offline evaluation never
needs it. The judge is any LangChain chat model (Groq by default), wrapped for ragas, and answer
relevancy uses the product's own embedding model, so nothing else is downloaded.
"""

from __future__ import annotations

import asyncio
import math
import os
import re
import warnings
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from langchain_core.embeddings import Embeddings
from langchain_core.language_models import BaseChatModel

from core.schemas import AnswerRecord
from core.settings import Settings
from core.types import Evidence
from evals.metrics import mean
from generation.chat import describe_failure, make_chat_model

# ragas reports usage to its own server unless told not to; an evaluation must not phone home.
os.environ.setdefault("RAGAS_DO_NOT_TRACK", "true")

# The LangChain-wrapper metrics take any LangChain chat model (the product's own model settings);
# ragas 0.4 marks them deprecated in favour of OpenAI-client metrics, hence the pinned version.
with warnings.catch_warnings():
    warnings.simplefilter("ignore", DeprecationWarning)
    from ragas import SingleTurnSample  # noqa: E402  (after the opt-out above)
    from ragas.embeddings import LangchainEmbeddingsWrapper  # noqa: E402
    from ragas.llms import LangchainLLMWrapper  # noqa: E402
    from ragas.metrics import Faithfulness, ResponseRelevancy  # noqa: E402
    from ragas.run_config import RunConfig  # noqa: E402

_SOURCE_MARK = re.compile(r"\s*\[Source \d+\]")


class EmbedderEmbeddings(Embeddings):
    """The product's embedding model behind LangChain's Embeddings interface (what ragas accepts)."""

    def __init__(self, embed: Callable[[list[str]], Any]):
        self.embed = embed

    def embed_documents(self, texts: list[str]) -> list[list[float]]:
        return [list(map(float, row)) for row in self.embed(texts)]

    def embed_query(self, text: str) -> list[float]:
        return self.embed_documents([text])[0]


@dataclass
class JudgeScores:
    """Per-answer scores; a judge call that failed is counted, with its reason, and not scored."""

    faithfulness: list[float] = field(default_factory=list)
    answer_relevancy: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)

    def summary(self, model: str) -> dict[str, Any]:
        return {
            "model": model,
            "judged": len(self.faithfulness),
            "failed": len(self.failures),
            "failure_reasons": sorted(set(self.failures)),
            "faithfulness": round(mean(self.faithfulness), 3) if self.faithfulness else None,
            "answer_relevancy": round(mean(self.answer_relevancy), 3) if self.answer_relevancy else None,
        }


class Judge:
    """Scores one answer against the context blocks it was generated from."""

    def __init__(self, chat_model: BaseChatModel, embed: Callable[[list[str]], Any], name: str, timeout_s: float):
        # one attempt per call: a rate-limited judge is reported, not waited out with ragas' minute-long backoff
        run_config = RunConfig(timeout=max(1, int(timeout_s)), max_retries=1, max_wait=0)
        with warnings.catch_warnings():  # ragas marks its LangChain wrappers deprecated but keeps them
            warnings.simplefilter("ignore", DeprecationWarning)
            # bypass_n: several questions as separate calls, since Groq accepts only n=1
            llm = LangchainLLMWrapper(chat_model, run_config=run_config, bypass_n=True)
            embeddings = LangchainEmbeddingsWrapper(EmbedderEmbeddings(embed), run_config=run_config)
        self.name = name
        self.faithfulness = Faithfulness(llm=llm)
        self.relevancy = ResponseRelevancy(llm=llm, embeddings=embeddings)

    def score(self, question: str, answer: str, context: list[Evidence]) -> tuple[float, float]:
        """(faithfulness, answer relevancy) of one answer; citation marks are removed first."""
        sample = SingleTurnSample(
            user_input=question,
            response=_SOURCE_MARK.sub("", answer).strip(),
            retrieved_contexts=[block.strips for block in context],
        )

        async def both() -> tuple[float, float]:
            # one after the other: the judge's provider limits are per-request, and order keeps runs repeatable
            return (await self.faithfulness.single_turn_ascore(sample), await self.relevancy.single_turn_ascore(sample))

        return asyncio.run(both())

    def score_all(self, records: list[AnswerRecord]) -> JudgeScores:
        """Scores every answered record; refusals are not judged."""
        scores = JudgeScores()
        for record in records:
            if record.status != "answered":
                continue
            try:
                faithful, relevant = self.score(record.question, record.answer, record.evidence)
            except Exception as error:  # provider errors and unparsable judge replies vary by library
                scores.failures.append(describe_failure(error))
                continue
            if math.isnan(faithful) or math.isnan(relevant):  # ragas' "no statements found" is NaN, not a score
                scores.failures.append("the judge returned no score")
                continue
            scores.faithfulness.append(float(faithful))
            scores.answer_relevancy.append(float(relevant))
        return scores


def make_judge(settings: Settings, embed: Callable[[list[str]], Any]) -> Judge | None:
    """The configured judge, or None when no judge model is set."""
    if not settings.judge_model:
        return None
    model = make_chat_model(settings, settings.judge_model)
    if model is None:
        return None
    return Judge(model, embed, settings.judge_model, settings.llm_timeout_s)
