"""Generations as collections on a Qdrant server (or qdrant-client's local mode), published through an alias."""

from __future__ import annotations

from qdrant_client import QdrantClient, models

from db.client_store import ClientStore
from db.index import KEEP_GENERATIONS, Backend
from db.store import VectorStore


class ServerBackend(Backend):
    """Generations as collections on a Qdrant server, published through an alias."""

    def __init__(self, client: QdrantClient, alias: str):
        self.client = client
        self.alias = alias

    def _generations(self) -> list[str]:
        prefix = f"{self.alias}__gen"
        names = [c.name for c in self.client.get_collections().collections]
        return sorted(n for n in names if n.startswith(prefix) and n[len(prefix) :].isdigit())

    def create_generation(self, dimension: int) -> tuple[str, VectorStore]:
        existing = self._generations()
        number = int(existing[-1].rsplit("__gen", 1)[1]) + 1 if existing else 1
        name = f"{self.alias}__gen{number:06d}"
        return name, ClientStore.create(self.client, name, dimension)

    def publish(self, name: str) -> None:
        operations: list[models.AliasOperations] = []
        if self.current():
            operations.append(models.DeleteAliasOperation(delete_alias=models.DeleteAlias(alias_name=self.alias)))
        operations.append(
            models.CreateAliasOperation(create_alias=models.CreateAlias(collection_name=name, alias_name=self.alias))
        )
        self.client.update_collection_aliases(operations)

    def current(self) -> str | None:
        for alias in self.client.get_aliases().aliases:
            if alias.alias_name == self.alias:
                return alias.collection_name
        return None

    def open(self, name: str) -> VectorStore:
        return ClientStore(self.client, self.alias)

    def collect_garbage(self) -> list[str]:
        current = self.current()
        generations = self._generations()
        published = [g for g in generations if current is None or g <= current]
        keep = set(published[-KEEP_GENERATIONS:]) | {g for g in generations if current and g > current}
        removed = [g for g in generations if g not in keep]
        for name in removed:
            self.client.delete_collection(name)
        return removed

    def discard_unpublished(self) -> list[str]:
        current = self.current()
        removed = [name for name in self._generations() if current is None or name > current]
        for name in removed:
            self.client.delete_collection(name)
        return removed

    def discard(self, name: str) -> None:
        self.client.delete_collection(name)

    def close(self) -> None:
        self.client.close()
