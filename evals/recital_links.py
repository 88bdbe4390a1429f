"""How the recital -> article links made at ingest (ingest/links.py) fare, on the dev half only.

    python -m evals.recital_links     # after `policyrag eval --only official` built data/eval/official

The full GDPR is chunked as `policyrag ingest` does and linked with the vectors the official index cached,
for each (neighbour weight, links kept, similarity floor); a recital naming no article counts as right when a
link is one of its articles in gdpr-info's map. Only odd (dev) recitals are scored: the even ones are the
held-out half of the recital -> article evaluation (evals/official_eval.py) and are never read here.
"""

from __future__ import annotations

import itertools
import re
import sys

from core.settings import get_settings
from db.catalog import Catalog, text_key
from evals.datasets import read_jsonl
from evals.official_eval import RECITALS, SOURCES
from ingest import links
from ingest.chunking import chunk_document
from ingest.loaders import load_document
from retrieval.embedder import Embedder

WEIGHTS, MAX_LINKS, FLOORS = (0.0, 0.5, 1.0), (1, 2), (0.0, 0.64, 0.7)


def main() -> int:
    settings = get_settings()
    catalog_path = settings.data_dir / "eval" / "official" / "catalog.sqlite"
    if not (catalog_path.exists() and RECITALS.exists()):
        print(f"needs {catalog_path} (policyrag eval --only official) and {RECITALS}", file=sys.stderr)
        return 1
    source = SOURCES["GDPR"]
    chunks = chunk_document(
        load_document(source, source.parent), "official", settings.chunk_words, settings.chunk_overlap_words
    )
    catalog = Catalog(catalog_path)
    keys = {c.embed_text: text_key(c.embed_text) for c in chunks}
    cached = catalog.vectors(Embedder(settings).model_id, list(set(keys.values())))
    vectors = {text: cached[key] for text, key in keys.items()}
    gold = {
        r["recital"]: {f"gdpr_ref_{a.split('(')[0]}" for a in r["relevant_articles"]}
        for r in read_jsonl(RECITALS)
        if r["recital"] % 2
    }
    unnamed = {
        int(m.group(1)): i
        for i, c in enumerate(chunks)
        if c.metadata.get("kind") == "recital"
        and not c.metadata.get("explains")
        and (m := re.search(r"Recital (\d+)", c.citation))
    }
    scored = {number: i for number, i in unnamed.items() if gold.get(number)}
    print(f"{len(scored)} dev recitals that name no article")
    for weight, kept, floor in itertools.product(WEIGHTS, MAX_LINKS, FLOORS):
        links.NEIGHBOUR_WEIGHT, links.MAX_LINKS, links.LINK_FLOOR = weight, kept, floor
        linked = links.link_recitals(chunks, vectors)
        made = {n: set(linked[i].metadata.get("explains") or []) for n, i in scored.items()}
        right = sum(1 for n, found in made.items() if found & gold[n])
        precision = sum(len(found & gold[n]) for n, found in made.items()) / max(1, sum(map(len, made.values())))
        print(
            f"weight {weight} links {kept} floor {floor}: a right link {right / len(scored):.3f}, "
            f"link precision {precision:.3f}, linked {sum(1 for f in made.values() if f)}"
        )
    return 0


if __name__ == "__main__":
    sys.exit(main())
