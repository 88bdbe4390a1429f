"""Plain text and Markdown documents."""

from __future__ import annotations

from pathlib import Path

from ingest.structure import Line, text_lines
from ingest.units import LoaderError


def read_text(path: Path) -> str:
    try:
        text = path.read_bytes().decode("utf-8")
    except UnicodeDecodeError as exc:
        raise LoaderError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    if not text.strip():
        raise LoaderError(f"{path}: empty text")
    return text


def load_text(path: Path) -> list[Line]:
    return text_lines(read_text(path))
