"""Text that must never be kept or shown as it came: key patterns and control characters.

Shared by the answer guard (secrets in a model's reply) and telemetry (secrets and terminal escapes in a
question, before it is written to disk).
"""

from __future__ import annotations

import re

# API keys of this service and of the providers it talks to, and `name = value` secrets.
SECRET_PATTERNS = [
    re.compile(r"\bgsk_[A-Za-z0-9]{16,}"),
    re.compile(r"\btvly-[A-Za-z0-9_-]{8,}"),
    re.compile(r"\bsk-[A-Za-z0-9_-]{16,}"),
    re.compile(r"\bprag_[A-Za-z0-9_-]{16,}"),
    re.compile(r"\b(?:api[_-]?key|secret|password|token)\s*[:=]\s*\S{8,}", re.I),
    re.compile(r"\b[A-Z][A-Z0-9_]*(?:KEY|TOKEN|SECRET)\s*=\s*\S+"),
]
REDACTED = "[redacted]"
# ANSI escape sequences (colours, cursor moves), then any other C0/C1 control character.
_ESCAPE_RE = re.compile(r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b[@-_]")
_CONTROL_RE = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def redact_secrets(text: str) -> str:
    for pattern in SECRET_PATTERNS:
        text = pattern.sub(REDACTED, text)
    return text


def printable(text: str) -> str:
    """Without terminal escapes and control characters (tabs and line breaks become spaces)."""
    text = _ESCAPE_RE.sub("", text)
    return _CONTROL_RE.sub(lambda m: " " if m.group() in "\t\n\r" else "", text)
