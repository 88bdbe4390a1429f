"""What each `policyrag` command does. Heavy parts (graph, server, ingest) are imported by the command
that needs them, so `policyrag --help` and `policyrag ask` start quickly."""

from __future__ import annotations

import argparse
import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

from rich.console import Console

from retrieval.resources import Resources

console = Console(stderr=True, soft_wrap=True)
LOOPBACK = {"127.0.0.1", "localhost", "::1"}


class UsageError(ValueError):
    """A command-line value the command cannot use; the message says which and why."""


def _progress() -> tuple[Any, Callable[[str, int, int], None]]:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    bar = Progress(*columns, console=console, transient=True)
    tasks: dict[str, Any] = {}

    def update(stage: str, done: int, total: int) -> None:
        if stage not in tasks:
            label = {"load": "Reading documents", "embed": "Embedding"}.get(stage, stage)
            tasks[stage] = bar.add_task(label, total=total)
        bar.update(tasks[stage], completed=done, total=total)

    return bar, update


def _parse_meta(pairs: list[str]) -> dict[str, Any]:
    meta: dict[str, Any] = {}
    for pair in pairs:
        key, sep, value = pair.partition("=")
        if not sep or not key.strip():
            raise UsageError(f"--meta expects key=value, got {pair!r}")
        meta[key.strip()] = int(value) if key.strip() == "hierarchy_rank" and value.isdigit() else value
    return meta


def ingest(args: argparse.Namespace, resources: Resources) -> int:
    from ingest.pipeline import ingest as run_ingest

    bar, update = _progress()
    with bar:
        report = run_ingest(
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
    for _, reason in report.failed:
        console.print(f"[red]skipped[/red] {reason}")
    console.print(f"{report.summary()} in {report.seconds:.1f}s")
    return 1 if report.failed and args.strict else 0


def setup(args: argparse.Namespace, resources: Resources) -> int:
    """Models, sanity check and the index of everything in corpus/: idempotent, quick the second time."""
    from modelprep.model_files import ensure_embedding_model, sanity_check

    folder = ensure_embedding_model(resources.settings)
    similar, unrelated = sanity_check(resources.embedder.embed_documents)
    console.print(f"model ready at {folder} (similar pair {similar:.2f}, unrelated pair {unrelated:.2f})")
    corpus = argparse.Namespace(
        paths=[str(resources.settings.corpus_dir)],
        collection=None,
        meta=[],
        rebuild=False,
        strict=True,
        quiet=args.quiet,
    )
    return ingest(corpus, resources)


def search(args: argparse.Namespace, resources: Resources) -> int:
    """Ranked evidence only: the retrieval step, every score shown."""
    from retrieval.search import RetrievalOptions

    filters = {"collection": args.collection} if args.collection else {}
    k = args.k or resources.settings.top_k
    results = resources.retriever.retrieve(args.question, filters, k, RetrievalOptions(mode=args.mode))
    if args.json:
        print(json.dumps([e.model_dump(mode="json") for e in results], indent=2, ensure_ascii=False))
        return 0
    out = Console()
    if not results:
        out.print("No evidence found.")
    for rank, e in enumerate(results, start=1):
        s = e.scores
        named = (("dense", s.dense), ("sparse", s.sparse), ("fused", s.fused), ("rerank", s.rerank))
        scores = " ".join(f"{name} {value:.3f}" for name, value in named if value is not None)
        page = f", p. {e.page}" if e.page else ""
        out.print(f"[bold]{rank}. {e.citation}[/bold] [dim]({e.collection}{page})[/dim]")
        where = f"{e.publisher}, {e.jurisdiction}, {e.version}, from {e.effective_from}"
        out.print(f"   {e.document} | {where} | rank {e.hierarchy_rank}")
        out.print(f"   {scores}{'  [exact reference]' if s.reference_match else ''}", style="dim")
        out.print(f"   {e.text[:300].replace(chr(10), ' ')}{'...' if len(e.text) > 300 else ''}")
        out.print(f"   {e.url}", style="dim")
    return 0


def ask(args: argparse.Namespace, resources: Resources) -> int:
    """Run the corrective RAG graph once and print the answer (or the JSON record)."""
    from core.schemas import Question, RunContext
    from graph.crag import build_graph
    from graph.run import answer
    from retrieval.services import Services

    question = Question(question=args.question).question
    services = Services(resources.settings, resources)
    context = RunContext(collection=args.collection, allow_web=not args.no_web, generator=args.generator)

    def show(kind: str, data: Any) -> None:
        if kind == "step":
            console.print(f"[dim]{data.node} done[/dim]")
        elif kind == "token" and not args.json:
            print(data, end="", flush=True)

    try:
        record = answer(build_graph(services), question, context, show if args.stream else None)
    finally:
        services.close()
    if args.stream and not args.json:
        print()
    if args.json:
        print(record.model_dump_json(indent=2))
        return 0
    out = Console(soft_wrap=True)
    if not args.stream:
        out.print(record.answer, markup=False)
    trust = record.trust_grade
    confidence = f"{record.confidence:.2f}" if record.confidence is not None else "-"
    answered = f" | answer {record.answer_confidence:.2f}" if record.answer_confidence is not None else ""
    trust_text = f"{trust.grade}: {trust.rationale}" if trust else "-"
    out.print(
        f"{record.status} | route {record.initial_route} -> {record.route} | confidence {confidence}{answered} "
        f"| trust {trust_text}",
        style="dim",
        markup=False,
    )
    for c in record.citations:
        page = f", p. {c.page}" if c.page else ""
        out.print(f"[Source {c.source}] {c.citation} - {c.document}{page} {c.url}", markup=False)
    if record.status != "answered":
        out.print(record.status_detail, style="dim", markup=False)
    return 0


def serve(args: argparse.Namespace, resources: Resources) -> int:
    """Run the HTTP service (FastAPI + LangServe) with uvicorn."""
    import uvicorn

    from retrieval.services import Services
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


def keys(args: argparse.Namespace, resources: Resources) -> int:
    """Create, list and revoke API keys; a new key is printed once, to this terminal only."""
    from db.keys import KeyStore, shown

    store = KeyStore(resources.settings.keys_path)
    try:
        if args.action == "create":
            scopes = ["admin", "read"] if args.admin else ["read"]
            try:
                plain, key = store.create(
                    args.name, scopes, args.expires_days, args.rate_per_minute, args.budget, args.tenant
                )
            except ValueError as error:
                raise UsageError(str(error)) from None
            print(plain)
            console.print(
                f"key id {key.key_id}, scopes {', '.join(key.scopes)}, tenant {key.tenant}; "
                "store it now: it is not shown again"
            )
        elif args.action == "list":
            for key in store.list():
                state = "revoked" if key.revoked_at else f"expires {key.expires_at}" if key.expires_at else "active"
                print(f"{key.key_id}  {shown(key.name)}  {','.join(key.scopes)}  tenant {key.tenant}  {state}")
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
        raise UsageError(f"cannot read the wording {spec!r}: use a document id or key=value pairs")
    return {k.strip(): v.strip() for k, v in pairs}


def compare(args: argparse.Namespace, resources: Resources) -> int:
    """The same question against two wordings, side by side, then point by point."""
    from core.schemas import RunContext
    from graph.compare import build_compare_graph
    from graph.run import compare as run_compare
    from retrieval.services import Services

    services = Services(resources.settings, resources)
    context = RunContext(collection=args.collection, generator=args.generator)
    try:
        record = run_compare(
            build_compare_graph(services), args.question, _side_filters(args.a), _side_filters(args.b), context
        )
    finally:
        services.close()
    if args.json:
        print(record.model_dump_json(indent=2))
        return 0
    printer = Console(soft_wrap=True)
    for side in record.sides:
        printer.print(f"{side.side.upper()}: {side.label}", style="bold", markup=False)
        printer.print(side.answer, markup=False)
    printer.print(record.summary, style="bold", markup=False)
    for point in record.points:
        a = f"{point.a.citation}: {point.a.value}" if point.a else "-"
        b = f"{point.b.citation}: {point.b.value}" if point.b else "-"
        printer.print(f"[{point.verdict}] {point.point}\n   A {a}\n   B {b}", markup=False)
    return 0
