"""Generic HTML pages: visible text, headings kept as Markdown headings so sections survive."""

from __future__ import annotations

from html.parser import HTMLParser
from pathlib import Path

from ingest.structure import Line
from ingest.units import LoaderError

_BLOCKS = {"p", "div", "li", "tr", "br", "section", "article", "table", "ul", "ol", "blockquote", "pre"}
_HEADINGS = {"h1": "#", "h2": "##", "h3": "###", "h4": "####", "h5": "#####", "h6": "######"}
_HIDDEN = {"script", "style", "noscript", "head", "nav", "footer", "template"}


class _TextParser(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self._buffer: list[str] = []
        self._hidden = 0
        self._heading: str | None = None

    def _flush(self) -> None:
        text = " ".join("".join(self._buffer).split())
        if text:
            self.lines.append(f"{self._heading} {text}" if self._heading else text)
        self._buffer = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _HIDDEN:
            self._hidden += 1
        elif tag in _HEADINGS:
            self._flush()
            self._heading = _HEADINGS[tag]
        elif tag in _BLOCKS:
            self._flush()

    def handle_endtag(self, tag: str) -> None:
        if tag in _HIDDEN:
            self._hidden = max(0, self._hidden - 1)
        elif tag in _HEADINGS:
            self._flush()
            self._heading = None
        elif tag in _BLOCKS:
            self._flush()

    def handle_data(self, data: str) -> None:
        if not self._hidden:
            self._buffer.append(data)


def html_lines(html: str, path: Path) -> list[Line]:
    parser = _TextParser()
    parser.feed(html)
    parser.close()
    parser._flush()
    if not parser.lines:
        raise LoaderError(f"{path}: the HTML page has no visible text")
    return [(line, None) for line in parser.lines]
