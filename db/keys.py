"""API keys at rest: only salted hashes are stored, lookups compare in constant time.

A key reads `prag_<id>_<secret>`: the id finds the row, the secret is checked against its salted
SHA-256 with hmac.compare_digest. The plain key exists only in the reply to whoever created it.
Every key belongs to a tenant ("default" unless named): tenants share nothing that one caller's
questions leave behind (the semantic cache).
"""

from __future__ import annotations

import hashlib
import hmac
import re
import secrets
import sqlite3
import threading
import unicodedata
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

SCOPES = ("read", "admin")
DEFAULT_TENANT = "default"
TENANT_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"
SCHEMA = """
CREATE TABLE IF NOT EXISTS api_keys (
    key_id TEXT PRIMARY KEY,
    name TEXT NOT NULL,
    salt BLOB NOT NULL,
    secret_hash BLOB NOT NULL,
    scopes TEXT NOT NULL,
    created_at TEXT NOT NULL,
    expires_at TEXT,
    revoked_at TEXT,
    rate_per_minute INTEGER,
    budget REAL,
    tenant TEXT NOT NULL DEFAULT 'default'
);
"""
COLUMNS = "key_id, name, scopes, created_at, expires_at, revoked_at, rate_per_minute, budget, tenant"


@dataclass(frozen=True)
class ApiKey:
    key_id: str
    name: str
    scopes: tuple[str, ...]
    created_at: str
    expires_at: str | None
    revoked_at: str | None
    rate_per_minute: int | None
    budget: float | None
    tenant: str = DEFAULT_TENANT

    def allows(self, scope: str) -> bool:
        return scope in self.scopes or "admin" in self.scopes


def key_name(name: str) -> str:
    """A key's name as given, refused if it holds a control character (a newline would forge a line of
    `policyrag keys list`, an escape sequence would rewrite the terminal showing it)."""
    bad = sorted({f"U+{ord(c):04X}" for c in name if _is_control(c)})
    if bad:
        raise ValueError(f"a key name may not contain control characters (found {', '.join(bad)})")
    return name


def shown(name: str) -> str:
    """A stored name as one line of text: any control character (from a store older than key_name) escaped."""
    return "".join(f"\\u{ord(c):04x}" if _is_control(c) else c for c in name)


def _is_control(character: str) -> bool:
    """Control, format (bidirectional overrides, zero-width) and unassigned characters."""
    return unicodedata.category(character).startswith("C")


def _hash(salt: bytes, secret: str) -> bytes:
    return hashlib.sha256(salt + secret.encode("utf-8")).digest()


def _now() -> datetime:
    return datetime.now(UTC)


class KeyStore:
    """SQLite table of API keys under the data folder."""

    def __init__(self, path: Path, busy_timeout_s: float = 2.0):
        path.parent.mkdir(parents=True, exist_ok=True)
        self._db = sqlite3.connect(path, timeout=busy_timeout_s, isolation_level=None, check_same_thread=False)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.executescript(SCHEMA)
        columns = {row[1] for row in self._db.execute("PRAGMA table_info(api_keys)")}
        if "tenant" not in columns:  # a store made before tenants: its keys belong to the default one
            self._db.execute(f"ALTER TABLE api_keys ADD COLUMN tenant TEXT NOT NULL DEFAULT '{DEFAULT_TENANT}'")
        self._lock = threading.Lock()

    def create(
        self,
        name: str,
        scopes: list[str],
        expires_in_days: float | None = None,
        rate_per_minute: int | None = None,
        budget: float | None = None,
        tenant: str = DEFAULT_TENANT,
    ) -> tuple[str, ApiKey]:
        """A new key; the plain text is returned once and never stored."""
        unknown = set(scopes) - set(SCOPES)
        if not scopes or unknown:
            raise ValueError(f"scopes must be among {SCOPES}, got {scopes}")
        key_name(name)
        if not re.match(TENANT_PATTERN, tenant):
            raise ValueError(f"invalid tenant {tenant!r}: 1 to 64 letters, digits, '_', '.' or '-'")
        key_id = secrets.token_hex(6)
        secret = secrets.token_urlsafe(32)
        salt = secrets.token_bytes(16)
        created = _now()
        expires = (created + timedelta(days=expires_in_days)).isoformat() if expires_in_days is not None else None
        with self._lock:
            self._db.execute(
                "INSERT INTO api_keys (key_id, name, salt, secret_hash, scopes, created_at, expires_at,"
                " rate_per_minute, budget, tenant) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                (
                    key_id,
                    name,
                    salt,
                    _hash(salt, secret),
                    ",".join(sorted(set(scopes))),
                    created.isoformat(),
                    expires,
                    rate_per_minute,
                    budget,
                    tenant,
                ),
            )
        key = self.get(key_id)
        assert key is not None  # written in the same connection just above
        return f"prag_{key_id}_{secret}", key

    def get(self, key_id: str) -> ApiKey | None:
        row = self._db.execute(f"SELECT {COLUMNS} FROM api_keys WHERE key_id = ?", (key_id,)).fetchone()
        if row is None:
            return None
        return ApiKey(row[0], row[1], tuple(row[2].split(",")), *row[3:])

    def verify(self, presented: str) -> ApiKey | None:
        """The key's record if the presented key is valid, unexpired and not revoked; else None."""
        parts = presented.split("_", 2) if presented else []
        if len(parts) != 3 or parts[0] != "prag":
            hmac.compare_digest(b"x" * 32, b"y" * 32)  # same work for malformed keys
            return None
        key_id, secret = parts[1], parts[2]
        row = self._db.execute("SELECT salt, secret_hash FROM api_keys WHERE key_id = ?", (key_id,)).fetchone()
        salt, stored = (row[0], row[1]) if row else (b"\0" * 16, b"\0" * 32)
        valid = hmac.compare_digest(_hash(salt, secret), stored) and row is not None
        if not valid:
            return None
        key = self.get(key_id)
        if key is None or key.revoked_at is not None:
            return None
        if key.expires_at is not None and datetime.fromisoformat(key.expires_at) <= _now():
            return None
        return key

    def revoke(self, key_id: str) -> bool:
        with self._lock:
            cursor = self._db.execute(
                "UPDATE api_keys SET revoked_at = ? WHERE key_id = ? AND revoked_at IS NULL",
                (_now().isoformat(), key_id),
            )
        return cursor.rowcount == 1

    def list(self) -> list[ApiKey]:
        keys = (self.get(r[0]) for r in self._db.execute("SELECT key_id FROM api_keys ORDER BY created_at"))
        return [key for key in keys if key is not None]

    def close(self) -> None:
        self._db.close()
