"""A local stand-in for remote APIs, speaking their protocols on 127.0.0.1 (no network in tests).

- OpenAI-compatible chat completions (what Groq speaks): any path ending in /chat/completions,
  streamed (server-sent events) or not;
- Tavily search: POST /search.
Replies are scripted: a JSON file holds {"chat": [reply, ...], "search": [reply, ...]}, consumed in
order (the last one repeats, or with "cycle": true the list starts over; a rewritten file starts
again). A reply is one of
    {"text": "..."}                 a normal answer
    {"status": 429, "body": {...}}  an HTTP error
    {"hang": true}                  never answers (until the server is stopped)
    {"garbage": true}               a body that is not JSON
    {"results": [...]}              (search) Tavily results
Every request is appended to a JSON-lines log so tests can assert what was sent and how often.

Run: python -m tests.standins.server SCRIPT LOG  -> prints "PORT <n>" once listening.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path


class Script:
    """The scripted replies; a rewritten script starts again from its first reply."""

    def __init__(self, path: Path):
        self.path = path
        self.counts = {"chat": 0, "search": 0}
        self.seen = ""
        self.lock = threading.Lock()

    def next(self, kind: str) -> dict:
        with self.lock:
            raw = self.path.read_text(encoding="utf-8")
            if raw != self.seen:
                self.seen, self.counts = raw, {"chat": 0, "search": 0}
            script = json.loads(raw)
            replies = script.get(kind) or [{"text": ""}]
            count = self.counts[kind]
            index = count % len(replies) if script.get("cycle") else min(count, len(replies) - 1)
            self.counts[kind] += 1
        return replies[index]


def make_handler(script: Script, log: Path, stop: threading.Event):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args) -> None:  # quiet
            pass

        def _send(self, status: int, body: bytes, content_type: str = "application/json") -> None:
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_POST(self) -> None:
            length = int(self.headers.get("Content-Length") or 0)
            raw = self.rfile.read(length)
            try:
                request = json.loads(raw or b"{}")
            except json.JSONDecodeError:
                request = {"raw": raw.decode("utf-8", "replace")}
            kind = (
                "chat"
                if self.path.endswith("/chat/completions")
                else "search"
                if self.path.endswith("/search")
                else None
            )
            with log.open("a", encoding="utf-8") as handle:
                handle.write(
                    json.dumps(
                        {
                            "path": self.path,
                            "kind": kind,
                            "request": request,
                            "authorization": bool(self.headers.get("Authorization")),
                        }
                    )
                    + "\n"
                )
            if kind is None:
                self._send(404, b'{"error": "unknown path"}')
                return
            reply = script.next(kind)
            if reply.get("hang"):
                stop.wait()
                return
            if reply.get("garbage"):
                self._send(200, b"<html>this is not json")
                return
            if "status" in reply:
                body = json.dumps(
                    reply.get("body") or {"error": {"message": "scripted failure", "type": "error"}}
                ).encode()
                self.send_response(reply["status"])
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(body)))
                if reply["status"] == 429:
                    self.send_header("Retry-After", "1")
                self.end_headers()
                self.wfile.write(body)
                return
            if kind == "search":
                self._send(
                    200,
                    json.dumps(
                        {"query": request.get("query"), "results": reply.get("results", []), "response_time": 0.01}
                    ).encode(),
                )
                return
            self._chat(request, reply.get("text", ""))

        def _chat(self, request: dict, text: str) -> None:
            model = request.get("model", "stand-in")
            created = int(time.time())
            if not request.get("stream"):
                body = {
                    "id": "chatcmpl-standin",
                    "object": "chat.completion",
                    "created": created,
                    "model": model,
                    "choices": [
                        {"index": 0, "message": {"role": "assistant", "content": text}, "finish_reason": "stop"}
                    ],
                    "usage": {"prompt_tokens": 10, "completion_tokens": 10, "total_tokens": 20},
                }
                self._send(200, json.dumps(body).encode())
                return
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.end_headers()
            words = text.split(" ")
            for index, word in enumerate(words):
                piece = word if index == 0 else f" {word}"
                chunk = {
                    "id": "chatcmpl-standin",
                    "object": "chat.completion.chunk",
                    "created": created,
                    "model": model,
                    "choices": [{"index": 0, "delta": {"role": "assistant", "content": piece}, "finish_reason": None}],
                }
                self.wfile.write(f"data: {json.dumps(chunk)}\n\n".encode())
                self.wfile.flush()
            done = {
                "id": "chatcmpl-standin",
                "object": "chat.completion.chunk",
                "created": created,
                "model": model,
                "choices": [{"index": 0, "delta": {}, "finish_reason": "stop"}],
            }
            self.wfile.write(f"data: {json.dumps(done)}\n\ndata: [DONE]\n\n".encode())
            self.wfile.flush()

    return Handler


def main() -> None:
    script_path, log_path = Path(sys.argv[1]), Path(sys.argv[2])
    stop = threading.Event()
    server = ThreadingHTTPServer(("127.0.0.1", 0), make_handler(Script(script_path), log_path, stop))
    server.daemon_threads = True
    print(f"PORT {server.server_address[1]}", flush=True)
    try:
        server.serve_forever()
    finally:
        stop.set()


if __name__ == "__main__":
    main()
