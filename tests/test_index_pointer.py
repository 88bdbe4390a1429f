"""EdgeBackend.current: the pointer file is read again only when a publish replaced it."""

from __future__ import annotations

import pathlib

from db.index import EdgeBackend


def test_the_published_name_is_read_once_until_the_next_publish(tmp_path, monkeypatch):
    backend = EdgeBackend(tmp_path / "index")
    for name in ("gen-000001", "gen-000002"):
        (tmp_path / "index" / name).mkdir(parents=True)
    assert backend.current() is None  # nothing published yet
    reads: list[pathlib.Path] = []
    read_text = pathlib.Path.read_text
    monkeypatch.setattr(pathlib.Path, "read_text", lambda self, *a, **k: reads.append(self) or read_text(self, *a, **k))

    backend.publish("gen-000001")
    assert [backend.current() for _ in range(5)] == ["gen-000001"] * 5
    assert len(reads) == 1
    backend.publish("gen-000002")
    assert backend.current() == "gen-000002" and len(reads) == 2


def test_a_pointer_to_a_missing_generation_is_not_kept(tmp_path):
    backend = EdgeBackend(tmp_path / "index")
    (tmp_path / "index").mkdir()
    backend.publish("gen-000003")
    assert backend.current() is None
    (tmp_path / "index" / "gen-000003").mkdir()
    assert backend.current() == "gen-000003"
