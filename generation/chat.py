"""Chat-model generators: Groq by default when a key is set, any provider through init_chat_model."""

from __future__ import annotations

from collections.abc import Iterator

from langchain_core.language_models import BaseChatModel
from langchain_core.messages import HumanMessage, SystemMessage

from core.settings import Settings
from core.types import Evidence
from generation.guard import neutralise
from generation.prompts import SYSTEM_PROMPT, USER_TEMPLATE


class GenerationUnavailable(RuntimeError):
    """The model could not give an answer (rate limit, timeout, server error, unusable reply)."""


def format_blocks(blocks: list[Evidence]) -> str:
    """Numbered evidence blocks with their provenance; untrusted text neutralised."""
    parts = []
    for number, block in enumerate(blocks, start=1):
        where = ", ".join(
            p
            for p in (
                block.publisher,
                block.jurisdiction,
                block.version,
                f"from {block.effective_from}" if block.effective_from else "",
                f"page {block.page}" if block.page else "",
                block.url,
            )
            if p
        )
        parts.append(
            f"[Source {number} | {neutralise(block.document)} | {neutralise(block.citation)}]\n"
            f"({where})\n{neutralise(block.strips)}"
        )
    return "\n\n".join(parts)


def make_chat_model(settings: Settings, spec: str | None = None) -> BaseChatModel | None:
    """The configured chat model, or None when only the offline answerer is available.

    spec: 'groq' / 'groq:MODEL' / any 'provider:model' for init_chat_model; None means the settings' choice.
    """
    spec = spec or settings.chat_model or ("groq" if settings.groq_api_key else None)
    if spec is None or spec == "offline":
        return None
    provider, _, model = spec.partition(":")
    if provider == "groq":
        from langchain_groq import ChatGroq

        if settings.groq_api_key is None:
            raise GenerationUnavailable("the Groq generator needs GROQ_API_KEY")
        return ChatGroq(  # type: ignore[call-arg]  # `model` is the documented alias of model_name
            model=model or settings.groq_model,
            api_key=settings.groq_api_key,
            base_url=settings.groq_base_url,
            timeout=settings.llm_timeout_s,
            max_retries=0,
            temperature=0,
        )
    from langchain.chat_models import init_chat_model

    return init_chat_model(spec, timeout=settings.llm_timeout_s, max_retries=0, temperature=0)


def describe_failure(error: Exception) -> str:
    """A short, secret-free reason for the status line."""
    name = type(error).__name__
    status = getattr(error, "status_code", None) or getattr(getattr(error, "response", None), "status_code", None)
    if status == 429 or "RateLimit" in name:
        return "rate limited by the model provider (429)"
    if "Timeout" in name or isinstance(error, TimeoutError):
        return "the model provider timed out"
    if isinstance(status, int) and status >= 500:
        return f"the model provider failed ({status})"
    if "Connection" in name:
        return "the model provider could not be reached"
    return f"the model call failed ({name})"


class ChatAnswerer:
    """Generator protocol around a LangChain chat model: streams tokens of the grounded answer."""

    def __init__(self, model: BaseChatModel, name: str):
        self.model = model
        self.name = name

    def stream(self, question: str, blocks: list[Evidence]) -> Iterator[str]:
        messages = [
            SystemMessage(f"<system_instructions>\n{SYSTEM_PROMPT}\n</system_instructions>"),
            HumanMessage(USER_TEMPLATE.format(context=format_blocks(blocks), question=neutralise(question))),
        ]
        produced = False
        try:
            for chunk in self.model.stream(messages):
                text = chunk.content if isinstance(chunk.content, str) else ""
                if text:
                    produced = True
                    yield text
        except GenerationUnavailable:
            raise
        except Exception as error:  # the provider's own exception types vary; the reason is kept
            raise GenerationUnavailable(describe_failure(error)) from error
        if not produced:
            raise GenerationUnavailable("the model returned an empty reply")
