"""The `policyrag` command: the parser and the dispatch (commands in cli/commands.py, imported after parsing)."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from core.settings import Settings


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="policyrag", description="Answers about governing documents, with the clause behind every answer."
    )
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("setup", help="prepare models and index everything in corpus/ (idempotent)")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(command_name="setup")

    p = sub.add_parser("ingest", help="index files and folders (incremental)")
    p.add_argument("paths", nargs="+", help="files or folders; a folder of folders is one collection per sub-folder")
    p.add_argument("--collection", help="put everything into this collection")
    p.add_argument(
        "--meta",
        action="append",
        default=[],
        metavar="KEY=VALUE",
        help="metadata for files without a sidecar (repeatable)",
    )
    p.add_argument("--rebuild", action="store_true", help="re-read every document and rebuild the index")
    p.add_argument("--strict", action="store_true", help="exit with status 1 if any file was skipped")
    p.add_argument("--quiet", action="store_true", help="no progress bar")
    p.set_defaults(command_name="ingest")

    p = sub.add_parser("search", help="ranked evidence for a question, with citations and scores")
    p.add_argument("question", help="the question, in plain words")
    p.add_argument("--collection", help="search only this collection")
    p.add_argument("-k", type=int, help="how many chunks to show (default: POLICYRAG_TOP_K)")
    p.add_argument(
        "--mode",
        choices=["dense", "sparse", "hybrid", "rerank"],
        default="hybrid",
        help="candidate order: dense, sparse, hybrid (Qdrant distribution-based score fusion) or sentence rerank",
    )
    p.add_argument("--json", action="store_true", help="print the evidence records as JSON")
    p.set_defaults(command_name="search")

    p = sub.add_parser("ask", help="answer a question with citations (the corrective RAG graph)")
    p.add_argument("question", help="the question, in plain words")
    p.add_argument("--collection", help="search only this collection")
    p.add_argument("--json", action="store_true", help="print the full answer record")
    p.add_argument("--stream", action="store_true", help="show node progress and answer tokens as they come")
    p.add_argument("--no-web", action="store_true", help="never use web search (or its offline fallback)")
    p.add_argument(
        "--generator",
        default="auto",
        help="auto (configured chat model, else offline), offline, groq, or provider:model",
    )
    p.set_defaults(command_name="ask")

    p = sub.add_parser("compare", help="compare two policy wordings on one question")
    p.add_argument("question", help="the question, in plain words")
    p.add_argument("--a", required=True, help="a document id (e.g. careshield_rider_individual) or key=value filters")
    p.add_argument("--b", required=True, help="the other wording, same forms")
    p.add_argument("--collection", help="the collection holding both wordings")
    p.add_argument("--json", action="store_true", help="print the compare record as JSON")
    p.add_argument("--generator", default="auto", help="auto, offline, groq, or provider:model")
    p.set_defaults(command_name="compare")

    sub.add_parser(
        "eval", help="offline evaluation: ablations, correction, calibration, safety (see policyrag eval --help)"
    )

    p = sub.add_parser("serve", help="run the HTTP service and web page")
    p.add_argument("--host", default="127.0.0.1", help="address to listen on (default: loopback)")
    p.add_argument("--port", type=int, default=8000, help="port to listen on")
    p.add_argument("--no-anonymous", action="store_true", help="require an API key for every request")
    p.add_argument("--force-anonymous", action="store_true", help="allow anonymous reads on a non-loopback address")
    p.add_argument("--log-level", default="info", help="uvicorn's log level (debug, info, warning, error)")
    p.set_defaults(command_name="serve")

    p = sub.add_parser("keys", help="manage API keys")
    p.add_argument("action", choices=["create", "list", "revoke"], help="create a key, list keys, or revoke one")
    p.add_argument("key_id", nargs="?", help="the key id to revoke")
    p.add_argument("--admin", action="store_true", help="admin scope (can create and revoke keys, read analytics)")
    p.add_argument("--name", default="cli", help="a name to recognise the key by")
    p.add_argument("--expires-days", type=float, help="the key expires after this many days")
    p.add_argument("--rate-per-minute", type=int, help="requests per minute (default: POLICYRAG_KEY_RATE_PER_MINUTE)")
    p.add_argument("--budget", type=float, help="token-bucket capacity in credits")
    p.set_defaults(command_name="keys")
    return parser


def main(argv: list[str] | None = None, settings: Settings | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["eval"]:  # the evaluation runner has its own options
        from evals.runner import main as run_eval

        return run_eval(argv[1:])
    args = build_parser().parse_args(argv)
    from pydantic import ValidationError

    from cli import commands
    from core.settings import get_settings
    from db.store import StoreError
    from graph.run import WordingNotFound
    from ingest.sidecar import SidecarError
    from ingest.units import LoaderError
    from retrieval.resources import Resources

    resources = Resources(settings or get_settings())
    try:
        return getattr(commands, args.command_name)(args, resources)
    except (LoaderError, SidecarError, StoreError, WordingNotFound, commands.UsageError) as error:
        commands.console.print(f"[red]error:[/red] {error}")
        return 2
    except ValidationError as error:
        problems = "; ".join(f"{'.'.join(map(str, e['loc']))}: {e['msg']}" for e in error.errors())
        commands.console.print(f"[red]error:[/red] {problems}")
        return 2
    finally:
        resources.close()


if __name__ == "__main__":
    sys.exit(main())
