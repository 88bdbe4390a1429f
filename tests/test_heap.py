"""core/heap.py: garbage is collected before the long-lived heap is frozen, and objects made later are collected."""

from __future__ import annotations

import gc
import weakref

from core.heap import settle


class Node:
    def __init__(self) -> None:
        self.other: Node | None = None


def cycle() -> weakref.ref[Node]:
    a, b = Node(), Node()
    a.other, b.other = b, a
    return weakref.ref(a)


def test_settle_clears_garbage_then_freezes_what_lives_and_later_cycles_are_still_collected():
    garbage = cycle()  # unreachable already: must not be frozen for the life of the process
    try:
        settle()
        assert garbage() is None
        assert gc.get_freeze_count() > 0
        later = cycle()
        gc.collect()
        assert later() is None
    finally:
        gc.unfreeze()


def test_loading_the_model_settles_the_heap_once(models_dir, tmp_path, monkeypatch):
    from retrieval.embedder import Embedder
    from tests.conftest import make_settings

    calls: list[int] = []
    monkeypatch.setattr("retrieval.embedder.settle", lambda: calls.append(1))
    embedder = Embedder(make_settings(tmp_path / "data", models_dir, embedding_sessions=1))
    embedder.embed_query("What is a personal data breach?")
    embedder.embed_query("How fast must a breach be reported?")
    assert calls == [1]
