"""IndexReader follows the published generation: never back to an older one, and a replaced one is closed once
no call holds it (an open Edge reader keeps tens of MB of payload indexes and mapped files)."""

from __future__ import annotations

import threading
from collections.abc import Callable

from db.index import Backend, IndexReader


class FakeStore:
    def __init__(self, name: str, closed: list[str]):
        self.name = name
        self._closed = closed

    def close(self) -> None:
        self._closed.append(self.name)


class FakeBackend(Backend):
    """Publishes names by hand and records opens and closes (by name: it keeps no store alive)."""

    def __init__(self, published: str):
        self.published = published
        self.opened: list[str] = []
        self.closed: list[str] = []
        self.on_read: Callable[[], None] | None = None  # runs once, inside the next current()

    def current(self) -> str | None:
        name = self.published
        if self.on_read is not None:
            hook, self.on_read = self.on_read, None
            hook()
        return name

    def open(self, name: str):
        self.opened.append(name)
        return FakeStore(name, self.closed)

    def create_generation(self, dimension: int):
        raise NotImplementedError

    def publish(self, name: str) -> None:
        self.published = name

    def collect_garbage(self) -> list[str]:
        return []

    def discard_unpublished(self) -> list[str]:
        return []


def test_a_replaced_generation_is_closed_once_no_call_holds_it():
    backend = FakeBackend("gen-000001")
    reader = IndexReader(backend)
    held = reader.store()  # a call still running on the first generation
    backend.publish("gen-000002")
    assert reader.store().name == "gen-000002"
    reader.store()
    assert backend.closed == []  # still in use
    del held
    reader.store()
    assert backend.closed == ["gen-000001"]
    reader.close()
    assert backend.closed == ["gen-000001", "gen-000002"]


def test_a_call_that_read_the_old_name_before_a_switch_does_not_reopen_the_old_generation():
    backend = FakeBackend("gen-000001")
    reader = IndexReader(backend)
    reader.store()
    other = threading.Thread(target=reader.store)

    def publish_and_switch_meanwhile() -> None:
        backend.publish("gen-000002")
        other.start()
        if not reader._lock.locked():  # this call reads outside the lock: let the other one switch first
            other.join()

    backend.on_read = publish_and_switch_meanwhile
    reader.store()
    other.join()
    assert backend.opened == ["gen-000001", "gen-000002"]
    assert reader.generation == "gen-000002"
    reader.close()
