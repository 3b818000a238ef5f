"""Where the registry lives between runs: SQLite in the data directory, or nothing (in memory).

The engine keeps the whole registry in memory and hands the store a list of row operations per
transaction; :meth:`SqliteStore.commit` writes them in one SQLite transaction and returns only
once they are durable.

Durability: the database runs in WAL mode with ``synchronous=FULL``.  In WAL mode SQLite appends
each transaction to the write-ahead log and, with FULL, fsyncs the log before COMMIT returns, so
a transaction whose commit returned survives a process crash *and* a power loss; a crash before
that point leaves the previous state (the partial WAL frames fail their checksums and are
ignored on recovery).  ``synchronous=NORMAL`` would only survive process crashes, which is not
enough for "an acknowledged command is on disk".

Schema versions: ``meta.schema_version`` records the layout; ``MIGRATIONS[v]`` moves a database
from version v to v+1 inside the opening transaction, so an upgrade also applies whole or not at
all.  A database newer than this code is refused.
"""

from __future__ import annotations

import os
import sqlite3
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

AttrValue = int | str

DB_NAME = "registry.sqlite3"
SCHEMA_VERSION = 1

# MIGRATIONS[v] takes the schema from version v to v + 1.  Version 0 is an empty file.
MIGRATIONS: dict[int, tuple[str, ...]] = {
    0: (
        "CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL) WITHOUT ROWID",
        "CREATE TABLE queues (name TEXT PRIMARY KEY, qtype INTEGER NOT NULL) WITHOUT ROWID",
        "CREATE TABLE queue_attrs (name TEXT NOT NULL, param INTEGER NOT NULL, value NOT NULL,"
        " PRIMARY KEY (name, param)) WITHOUT ROWID",
        "CREATE TABLE qmgr_attrs (param INTEGER PRIMARY KEY, value NOT NULL)",
    ),
}


# Row operations, produced by the engine and applied in order within one transaction.
@dataclass(frozen=True, slots=True)
class PutQueue:
    """A queue defined or redefined: all its attributes replace whatever was stored."""

    name: str
    qtype: int
    attrs: dict[int, AttrValue]


@dataclass(frozen=True, slots=True)
class SetAttrs:
    """Some attributes of an existing queue changed (only those rows are written)."""

    name: str
    items: tuple[tuple[int, AttrValue], ...]


@dataclass(frozen=True, slots=True)
class DeleteQueue:
    name: str


@dataclass(frozen=True, slots=True)
class SetQmgr:
    items: tuple[tuple[int, AttrValue], ...]


@dataclass(frozen=True, slots=True)
class SetMeta:
    items: tuple[tuple[str, str], ...]


Op = PutQueue | SetAttrs | DeleteQueue | SetQmgr | SetMeta


@dataclass(slots=True)
class Snapshot:
    """What a store holds: metadata, queues (name -> (type, attributes)) and qmgr attributes."""

    meta: dict[str, str] = field(default_factory=dict)
    queues: dict[str, tuple[int, dict[int, AttrValue]]] = field(default_factory=dict)
    qmgr: dict[int, AttrValue] = field(default_factory=dict)


class Store(Protocol):
    def load(self) -> Snapshot: ...

    def commit(self, ops: Sequence[Op]) -> None: ...

    def close(self) -> None: ...


class MemoryStore:
    """No persistence: the registry lives and dies with the engine (tests, throwaway servers)."""

    def load(self) -> Snapshot:
        return Snapshot()

    def commit(self, ops: Sequence[Op]) -> None:
        return None

    def close(self) -> None:
        return None


class StoreError(RuntimeError):
    """The data directory cannot be used (locked by another process, newer schema, ...)."""


def _fsync_directory(path: Path) -> None:
    """Makes the directory entries in ``path`` durable (a new database file after a power loss)."""
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:  # pragma: no cover - platforms without directory descriptors
        return
    try:
        os.fsync(fd)
    except OSError:  # pragma: no cover - file systems that refuse fsync on directories
        pass
    finally:
        os.close(fd)


class SqliteStore:
    """The registry in ``<data_dir>/registry.sqlite3`` (stdlib sqlite3, WAL, synchronous=FULL)."""

    def __init__(self, data_dir: Path) -> None:
        data_dir.mkdir(parents=True, exist_ok=True)
        self.path = data_dir / DB_NAME
        # isolation_level=None: no implicit transactions; BEGIN/COMMIT are issued explicitly.
        # check_same_thread=False: the server may call from a worker thread; it serialises calls.
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=0.5)
        try:
            mode = self._db.execute("PRAGMA journal_mode=WAL").fetchone()[0]
            if str(mode).lower() != "wal":
                raise StoreError(f"{self.path}: cannot switch to WAL mode (got {mode})")
            self._db.execute("PRAGMA synchronous=FULL")
            # One owner per registry: the engine caches the whole registry, so a second process
            # writing behind its back would be lost.  EXCLUSIVE keeps the lock once taken.
            self._db.execute("PRAGMA locking_mode=EXCLUSIVE")
            self._migrate()
            _fsync_directory(data_dir)  # the database and WAL file names themselves are durable
        except sqlite3.OperationalError as exc:
            self._db.close()
            raise StoreError(f"{self.path}: {exc}") from exc
        except BaseException:
            self._db.close()
            raise

    def _version(self) -> int:
        has_meta = self._db.execute("SELECT 1 FROM sqlite_master WHERE type='table' AND name='meta'").fetchone()
        if not has_meta:
            return 0
        row = self._db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        return int(row[0]) if row else 0

    def _migrate(self) -> None:
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            version = self._version()
            if version > SCHEMA_VERSION:
                raise StoreError(f"{self.path}: schema version {version} is newer than this program ({SCHEMA_VERSION})")
            while version < SCHEMA_VERSION:
                for statement in MIGRATIONS[version]:
                    db.execute(statement)
                version += 1
                db.execute("INSERT OR REPLACE INTO meta (key, value) VALUES ('schema_version', ?)", (str(version),))
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise

    @property
    def schema_version(self) -> int:
        return self._version()

    def load(self) -> Snapshot:
        db = self._db
        snap = Snapshot()
        snap.meta = {k: v for k, v in db.execute("SELECT key, value FROM meta")}
        queues = snap.queues
        for name, qtype in db.execute("SELECT name, qtype FROM queues"):
            queues[name] = (qtype, {})
        for name, param, value in db.execute("SELECT name, param, value FROM queue_attrs"):
            entry = queues.get(name)
            if entry is not None:
                entry[1][param] = value
        snap.qmgr = {param: value for param, value in db.execute("SELECT param, value FROM qmgr_attrs")}
        return snap

    def commit(self, ops: Sequence[Op]) -> None:
        """Applies ``ops`` in one transaction; returns once it is durable, raises having rolled back."""
        if not ops:
            return
        db = self._db
        db.execute("BEGIN IMMEDIATE")
        try:
            rows: list[tuple[str, int, AttrValue]] = []  # consecutive SetAttrs go in one executemany
            for op in ops:
                if type(op) is SetAttrs:
                    name = op.name
                    rows.extend([(name, p, v) for p, v in op.items])
                    continue
                if rows:
                    db.executemany("INSERT OR REPLACE INTO queue_attrs (name, param, value) VALUES (?, ?, ?)", rows)
                    rows = []
                if type(op) is PutQueue:
                    db.execute("INSERT OR REPLACE INTO queues (name, qtype) VALUES (?, ?)", (op.name, op.qtype))
                    db.execute("DELETE FROM queue_attrs WHERE name = ?", (op.name,))
                    db.executemany(
                        "INSERT INTO queue_attrs (name, param, value) VALUES (?, ?, ?)",
                        [(op.name, p, v) for p, v in op.attrs.items()],
                    )
                elif type(op) is DeleteQueue:
                    db.execute("DELETE FROM queues WHERE name = ?", (op.name,))
                    db.execute("DELETE FROM queue_attrs WHERE name = ?", (op.name,))
                elif type(op) is SetQmgr:
                    db.executemany("INSERT OR REPLACE INTO qmgr_attrs (param, value) VALUES (?, ?)", op.items)
                elif type(op) is SetMeta:
                    db.executemany("INSERT OR REPLACE INTO meta (key, value) VALUES (?, ?)", op.items)
                else:  # pragma: no cover - the engine makes only the operations above
                    raise TypeError(f"unknown store operation {op!r}")
            if rows:
                db.executemany("INSERT OR REPLACE INTO queue_attrs (name, param, value) VALUES (?, ?, ?)", rows)
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    def close(self) -> None:
        self._db.close()
