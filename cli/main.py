"""The `policyrag` command."""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

from core.settings import Settings, get_settings
from db.store import StoreError
from ingest.pipeline import ingest
from ingest.sidecar import SidecarError
from ingest.units import LoaderError
from retrieval.resources import Resources
from retrieval.search import RetrievalOptions

console = Console(stderr=True, soft_wrap=True)


def _progress() -> tuple[Progress, Callable[[str, int, int], None]]:
    bar = Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
    )
    tasks: dict[str, Any] = {}

    def update(stage: str, done: int, total: int) -> None:
        if stage not in tasks:
            tasks[stage] = bar.add_task(
                {"load": "Reading documents", "embed": "Embedding"}.get(stage, stage), total=total
            )
        bar.update(tasks[stage], completed=done, total=total)

    return bar, update


def _parse_meta(pairs: list[str]) -> dict[str, Any]:
    meta: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise LoaderError(f"--meta expects key=value, got {pair!r}")
        meta[key.strip()] = int(value) if key.strip() == "hierarchy_rank" and value.isdigit() else value
    return meta


def cmd_ingest(args: argparse.Namespace, resources: Resources) -> int:
    bar, update = _progress()
    with bar:
        report = ingest(
            [Path(p) for p in args.paths],
            settings=resources.settings,
            embedder=resources.embedder,
            catalog=resources.catalog,
            backend=resources.backend,
            collection=args.collection,
            defaults=_parse_meta(args.meta),
            rebuild=args.rebuild,
            progress=None if args.quiet else update,
        )
    for path, reason in report.failed:
        console.print(f"[red]skipped[/red] {reason}")
    console.print(f"{report.summary()} in {report.seconds:.1f}s")
    return 1 if report.failed and args.strict else 0


def cmd_setup(args: argparse.Namespace, resources: Resources) -> int:
    """Models, sanity check and the index of everything in corpus/: idempotent, quick the second time."""
    from retrieval.model_files import ensure_embedding_model, sanity_check

    folder = ensure_embedding_model(resources.settings)
    similar, unrelated = sanity_check(resources.embedder.embed_documents)
    console.print(f"model ready at {folder} (similar pair {similar:.2f}, unrelated pair {unrelated:.2f})")
    args.paths, args.collection, args.meta, args.rebuild, args.strict = (
        [str(resources.settings.corpus_dir)],
        None,
        [],
        False,
        True,
    )
    return cmd_ingest(args, resources)


def cmd_search(args: argparse.Namespace, resources: Resources) -> int:
    filters = {"collection": args.collection} if args.collection else {}
    results = resources.retriever.retrieve(args.question, filters, args.k, RetrievalOptions(mode=args.mode))
    if args.json:
        rows = [
            {
                "citation": e.citation,
                "document": e.document,
                "collection": e.collection,
                "text": e.text,
                "page": e.page,
                "source_url": e.source_url,
                "publisher": e.publisher,
                "jurisdiction": e.jurisdiction,
                "version": e.version,
                "effective_from": e.effective_from,
                "hierarchy_rank": e.hierarchy_rank,
                "scores": e.scores.model_dump(),
            }
            for e in results
        ]
        print(json.dumps(rows, indent=2, ensure_ascii=False))
        return 0
    out = Console()
    if not results:
        out.print("No evidence found.")
    for rank, e in enumerate(results, start=1):
        s = e.scores
        scores = " ".join(
            f"{name} {value:.3f}"
            for name, value in (("dense", s.dense), ("sparse", s.sparse), ("fused", s.fused), ("rerank", s.rerank))
            if value is not None
        )
        out.print(f"[bold]{rank}. {e.citation}[/bold] [dim]({e.collection}{f', p. {e.page}' if e.page else ''})[/dim]")
        out.print(
            f"   {e.document} | {e.publisher}, {e.jurisdiction}, {e.version}, from {e.effective_from} | rank {e.hierarchy_rank}"
        )
        out.print(f"   {scores}{'  [exact reference]' if s.reference_match else ''}", style="dim")
        out.print(f"   {e.text[:300].replace(chr(10), ' ')}{'...' if len(e.text) > 300 else ''}")
        out.print(f"   {e.source_url}", style="dim")
    return 0


def _run_context(args: argparse.Namespace, services: Any) -> Any:
    from nodes.context import RunContext

    return RunContext(
        collection=args.collection, allow_web=not args.no_web, generator=args.generator, services=services
    )


def cmd_ask(args: argparse.Namespace, resources: Resources) -> int:
    """Run the corrective RAG graph once and print the answer (or the JSON record)."""
    import time

    from core.record import output_record
    from graph import graph
    from nodes.context import Services

    services = Services(resources.settings, resources)
    context = _run_context(args, services)
    started = time.perf_counter()
    try:
        if args.stream:
            final: dict[str, Any] = {}
            for mode, chunk in graph.stream(
                {"question": args.question}, context=context, stream_mode=["updates", "custom", "values"]
            ):
                if mode == "updates":
                    for node in chunk:
                        console.print(f"[dim]{node} done[/dim]")
                elif mode == "custom" and "token" in chunk and not args.json:
                    print(chunk["token"], end="", flush=True)
                elif mode == "values":
                    final = chunk
            if not args.json:
                print()
            output = final
        else:
            output = graph.invoke({"question": args.question}, context=context)
    finally:
        services.web.close() if "web" in services.__dict__ else None
    record = output_record(output, (time.perf_counter() - started) * 1000)
    if args.json:
        print(json.dumps(record, indent=2, ensure_ascii=False, default=str))
        return 0
    out = Console(soft_wrap=True)
    if not args.stream:
        out.print(record["answer"], markup=False)
    trust = record["trust_grade"]
    out.print(
        f"{record['status']} | route {record['initial_route']} -> {record['route']} | confidence {record['confidence']:.2f}"
        f" | trust {trust['grade']}: {trust['rationale']}",
        style="dim",
        markup=False,
    )
    for c in record["citations"]:
        page = f", p. {c['page']}" if c["page"] else ""
        out.print(f"[Source {c['source']}] {c['citation']} - {c['document']}{page} {c['url']}", markup=False)
    if record["status"] != "answered":
        out.print(record["status_detail"], style="dim", markup=False)
    return 0


LOOPBACK = {"127.0.0.1", "localhost", "::1"}


def cmd_serve(args: argparse.Namespace, resources: Resources) -> int:
    """Run the HTTP service (FastAPI + LangServe) with uvicorn."""
    import uvicorn

    from nodes.context import Services
    from server.app import create_app

    settings = resources.settings
    anonymous = settings.anonymous_read and not args.no_anonymous
    if anonymous and args.host not in LOOPBACK and not args.force_anonymous:
        console.print(
            f"[red]error:[/red] refusing to serve anonymous reads on {args.host}: create a key with "
            "`policyrag keys create --admin`, start with --no-anonymous, or pass --force-anonymous"
        )
        return 2
    resources.reader.store()  # fail early, with the clear message, if there is no index
    app = create_app(settings, Services(settings, resources), anonymous_read=anonymous)
    console.print(f"PolicyRAG on http://{args.host}:{args.port}  (docs: /docs, page: /)")
    uvicorn.run(app, host=args.host, port=args.port, log_level=args.log_level, access_log=False)
    return 0


def cmd_keys(args: argparse.Namespace, resources: Resources) -> int:
    """Create, list and revoke API keys; a new key is printed once, to this terminal only."""
    from db.keys import KeyStore

    store = KeyStore(resources.settings.keys_path)
    try:
        if args.action == "create":
            scopes = ["admin", "read"] if args.admin else ["read"]
            plain, key = store.create(args.name, scopes, args.expires_days, args.rate_per_minute, args.budget)
            print(plain)
            console.print(f"key id {key.key_id}, scopes {', '.join(key.scopes)}; store it now: it is not shown again")
        elif args.action == "list":
            for key in store.list():
                state = "revoked" if key.revoked_at else f"expires {key.expires_at}" if key.expires_at else "active"
                print(f"{key.key_id}  {key.name}  {','.join(key.scopes)}  {state}")
        elif args.action == "revoke":
            if not args.key_id or not store.revoke(args.key_id):
                console.print(f"[red]error:[/red] no active key with id {args.key_id!r}")
                return 2
            console.print(f"revoked {args.key_id}")
        return 0
    finally:
        store.close()


def _side_filters(spec: str) -> dict[str, Any]:
    """`careshield_rider_group` (a document id) or `product=careshield,variant=group`."""
    if "=" not in spec:
        return {"doc_id": spec}
    pairs = [part.split("=", 1) for part in spec.split(",")]
    if any(len(p) != 2 or not p[0].strip() for p in pairs):
        raise LoaderError(f"cannot read the wording {spec!r}: use a document id or key=value pairs")
    return {k.strip(): v.strip() for k, v in pairs}


def cmd_compare(args: argparse.Namespace, resources: Resources) -> int:
    """The same question against two wordings, side by side, then point by point."""
    from graph import compare_graph
    from nodes.context import RunContext, Services

    services = Services(resources.settings, resources)
    out = compare_graph.invoke(
        {
            "question": args.question,
            "a": _side_filters(args.a),
            "b": _side_filters(args.b),
            "collection": args.collection,
        },
        context=RunContext(services=services, generator=args.generator),
    )
    sides = [{k: v for k, v in s.items() if k != "clauses"} for s in sorted(out["sides"], key=lambda s: s["side"])]
    missing = [f"--{s['side']} {getattr(args, s['side'])}" for s in sides if not s["evidence"]]
    if missing:  # never compare with a wording that is not there ("only in" the other would be false)
        console.print(
            f"[red]error:[/red] no wording in the index matches {' and '.join(missing)}; see the document ids with GET /policies"
        )
        return 2
    if args.json:
        print(
            json.dumps(
                {"question": args.question, "sides": sides, "points": out["points"], "summary": out["summary"]},
                indent=2,
                default=str,
            )
        )
        return 0
    printer = Console(soft_wrap=True)
    for side in sides:
        printer.print(f"{side['side'].upper()}: {side['label']}", style="bold", markup=False)
        printer.print(side["answer"], markup=False)
    printer.print(out["summary"], style="bold", markup=False)
    for point in out["points"]:
        a = f"{point['a']['citation']}: {point['a']['value']}" if point["a"] else "-"
        b = f"{point['b']['citation']}: {point['b']['value']}" if point["b"] else "-"
        printer.print(f"[{point['verdict']}] {point['point']}\n   A {a}\n   B {b}", markup=False)
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="policyrag", description="Answers about governing documents, with the clause behind every answer."
    )
    sub = parser.add_subparsers(dest="command", required=True)

    p = sub.add_parser("setup", help="prepare models and index everything in corpus/ (idempotent)")
    p.add_argument("--quiet", action="store_true")
    p.set_defaults(func=cmd_setup)

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
    p.set_defaults(func=cmd_ingest)

    p = sub.add_parser("search", help="ranked evidence for a question, with citations and scores")
    p.add_argument("question")
    p.add_argument("--collection")
    p.add_argument("-k", type=int, default=5)
    p.add_argument("--mode", choices=["dense", "sparse", "hybrid", "rerank"], default="hybrid")
    p.add_argument("--json", action="store_true")
    p.set_defaults(func=cmd_search)

    p = sub.add_parser("ask", help="answer a question with citations (the corrective RAG graph)")
    p.add_argument("question")
    p.add_argument("--collection")
    p.add_argument("--json", action="store_true", help="print the full output record")
    p.add_argument("--stream", action="store_true", help="show node progress and answer tokens as they come")
    p.add_argument("--no-web", action="store_true", help="never use web search (or its offline fallback)")
    p.add_argument(
        "--generator",
        default="auto",
        help="auto (configured chat model, else offline), offline, groq, or provider:model",
    )
    p.set_defaults(func=cmd_ask)

    p = sub.add_parser("compare", help="compare two policy wordings on one question")
    p.add_argument("question")
    p.add_argument("--a", required=True, help="a document id (e.g. careshield_rider_individual) or key=value filters")
    p.add_argument("--b", required=True, help="the other wording, same forms")
    p.add_argument("--collection")
    p.add_argument("--json", action="store_true")
    p.add_argument("--generator", default="auto")
    p.set_defaults(func=cmd_compare)

    sub.add_parser(
        "eval", help="offline evaluation: ablations, correction, calibration, safety (see policyrag eval --help)"
    )

    p = sub.add_parser("serve", help="run the HTTP service and web page")
    p.add_argument("--host", default="127.0.0.1")
    p.add_argument("--port", type=int, default=8000)
    p.add_argument("--no-anonymous", action="store_true", help="require an API key for every request")
    p.add_argument("--force-anonymous", action="store_true", help="allow anonymous reads on a non-loopback address")
    p.add_argument("--log-level", default="info")
    p.set_defaults(func=cmd_serve)

    p = sub.add_parser("keys", help="manage API keys")
    p.add_argument("action", choices=["create", "list", "revoke"])
    p.add_argument("key_id", nargs="?", help="the key id to revoke")
    p.add_argument("--admin", action="store_true", help="admin scope (can create and revoke keys, read analytics)")
    p.add_argument("--name", default="cli")
    p.add_argument("--expires-days", type=float)
    p.add_argument("--rate-per-minute", type=int)
    p.add_argument("--budget", type=float, help="token-bucket capacity in credits")
    p.set_defaults(func=cmd_keys)
    return parser


def main(argv: list[str] | None = None, settings: Settings | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if argv[:1] == ["eval"]:  # the evaluation runner has its own options
        from evals.runner import main as run_eval

        return run_eval(argv[1:])
    args = build_parser().parse_args(argv)
    resources = Resources(settings or get_settings())
    try:
        return args.func(args, resources)
    except (LoaderError, SidecarError, StoreError) as exc:
        console.print(f"[red]error:[/red] {exc}")
        return 2
    finally:
        resources.close()


if __name__ == "__main__":
    sys.exit(main())
