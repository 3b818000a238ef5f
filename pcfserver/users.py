"""The users who may sign in to the REST API (and whom a PCF client certificate's CN names): their
roles, groups and password hashes, in ``<data>/users.sqlite3`` beside the registry.

Passwords are kept only as scrypt hashes (N=2**14, r=8, p=1, a 16-byte random salt), compared in
constant time.  The file is written with SQLite's FULL synchronous mode, so an acknowledged
``pcfserver user add`` survives a crash as the registry does.  It is its own file because the
registry is held exclusively by the running server, while ``pcfserver user add`` must work
beside it and before its first start: the server notices a change at the next request and reads
the users again, with no restart.  Noticing costs a look at memory per request: SQLite rewrites the
WAL-index header, in the ``-shm`` file every connection maps, at every write transaction (that is
how its own connections tell that another one wrote, https://www.sqlite.org/walformat.html), so
the server maps it too and asks SQLite (``PRAGMA data_version``) only when the header changed, or
a second after it last asked.  The PRAGMA on every request cost 27 us in a served request (a read
transaction's locks, two system calls), a tenth of what the engine adds to a REST put.

Roles are mqweb's: MQWebAdmin, MQWebAdminRO and MQWebUser (see ``formats/rest-roles.tsv``).
The login tokens of ``POST /ibmmq/rest/v1/login`` are kept here too, as SHA-256 digests.
"""

from __future__ import annotations

import hashlib
import hmac
import mmap
import os
import re
import sqlite3
import time
from dataclasses import dataclass
from functools import cache
from pathlib import Path

FILE_NAME = "users.sqlite3"
ROLES = ("MQWebAdmin", "MQWebAdminRO", "MQWebUser")
_SCRYPT = {"n": 2**14, "r": 8, "p": 1}
_NAME = re.compile(r"[A-Za-z0-9._@%-]{1,64}\Z")
_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS users (name TEXT PRIMARY KEY, roles TEXT NOT NULL, groups TEXT NOT NULL, hash TEXT NOT NULL)",
    # login tokens: SHA-256 of the token (the file never holds one that works), its user, its end (Unix time)
    "CREATE TABLE IF NOT EXISTS tokens (digest TEXT PRIMARY KEY, user TEXT NOT NULL, expires REAL NOT NULL)",
)


_WAL_INDEX_HEADER = 96  # the WAL-index header's two copies, 48 bytes each, at the start of the -shm file
RECHECK_SECONDS = 1.0  # PRAGMA data_version at least this often, whatever the header says


def _map_wal_index(path: Path) -> mmap.mmap | None:
    """The start of the database's WAL-index (``<path>-shm``), mapped for reading; None where it cannot be."""
    try:
        fd = os.open(f"{path}-shm", os.O_RDONLY)
    except OSError:
        return None
    try:
        return mmap.mmap(fd, _WAL_INDEX_HEADER, mmap.MAP_SHARED, mmap.PROT_READ)
    except (OSError, ValueError, AttributeError):  # too short, or no POSIX mmap
        return None
    finally:
        os.close(fd)


class UserError(ValueError):
    """A name, role or password the store refuses."""


@dataclass(frozen=True, slots=True)
class User:
    name: str
    roles: frozenset[str]
    groups: tuple[str, ...] = ()


def hash_password(password: str, salt: bytes | None = None) -> str:
    salt = salt if salt is not None else os.urandom(16)
    digest = hashlib.scrypt(password.encode("utf-8"), salt=salt, maxmem=64 * 1024 * 1024, dklen=32, **_SCRYPT)
    return f"scrypt${_SCRYPT['n']}${_SCRYPT['r']}${_SCRYPT['p']}${salt.hex()}${digest.hex()}"


def check_password(password: str, stored: str) -> bool:
    try:
        kind, n, r, p, salt, digest = stored.split("$")
        if kind != "scrypt":
            return False
        got = hashlib.scrypt(password.encode("utf-8"), salt=bytes.fromhex(salt), n=int(n), r=int(r), p=int(p), maxmem=64 * 1024 * 1024, dklen=32)
    except (ValueError, MemoryError):
        return False
    return hmac.compare_digest(got.hex(), digest)


class UserStore:
    """The users of one data directory."""

    def __init__(self, data_dir: Path) -> None:
        data_dir.mkdir(parents=True, exist_ok=True)
        self.path = data_dir / FILE_NAME
        self._db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False, timeout=5.0)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute("PRAGMA synchronous=FULL")
        for statement in _SCHEMA:
            self._db.execute(statement)
        self._version = -1
        self._users: dict[str, tuple[User, str]] = {}
        self._wal_index = _map_wal_index(self.path)
        self._seen = b""  # the WAL-index header when data_version was last read
        self._recheck_at = 0.0

    def close(self) -> None:
        if self._wal_index is not None:
            self._wal_index.close()
            self._wal_index = None
        self._db.close()

    # -- changes (the CLI) -----------------------------------------------------------------

    def add(self, name: str, roles: list[str], password: str, groups: list[str] | None = None) -> User:
        if not _NAME.match(name):
            raise UserError(f"user name {name!r}: 1 to 64 of A-Z a-z 0-9 . _ @ % -")
        unknown = [r for r in roles if r not in ROLES]
        if unknown or not roles:
            raise UserError(f"roles must be among {', '.join(ROLES)} (got {', '.join(roles) or 'none'})")
        for group in groups or []:
            if not _NAME.match(group):
                raise UserError(f"group name {group!r}: 1 to 64 of A-Z a-z 0-9 . _ @ % -")
        if len(password) < 1:
            raise UserError("the password is empty")
        user = User(name, frozenset(roles), tuple(groups or ()))
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute(
                "INSERT OR REPLACE INTO users (name, roles, groups, hash) VALUES (?, ?, ?, ?)",
                (name, " ".join(sorted(roles)), " ".join(user.groups), hash_password(password)),
            )
        return user

    def remove(self, name: str) -> bool:
        """Removes a user and ends their login tokens (a user added again later starts afresh)."""
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("DELETE FROM tokens WHERE user = ?", (name,))
            return self._db.execute("DELETE FROM users WHERE name = ?", (name,)).rowcount > 0

    # -- login tokens (the server) ---------------------------------------------------------
    # Kept here so that, as with mqweb's LTPA keys, a token outlives a restart until it expires,
    # and a logout outlives it too.  Each change is durable before the answer that reports it.

    def add_token(self, token: str, user: str, expires: float, now: float) -> None:
        """Keeps a new token (and forgets the tokens that have ended by ``now``)."""
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("DELETE FROM tokens WHERE expires <= ?", (now,))
            self._db.execute("INSERT OR REPLACE INTO tokens (digest, user, expires) VALUES (?, ?, ?)", (_digest(token), user, expires))

    def token(self, token: str) -> tuple[str, float] | None:
        """The user and the end (Unix time) of a login token, or None when there is none."""
        row = self._db.execute("SELECT user, expires FROM tokens WHERE digest = ?", (_digest(token),)).fetchone()
        return (str(row[0]), float(row[1])) if row else None

    def remove_token(self, token: str) -> None:
        with self._db:
            self._db.execute("BEGIN IMMEDIATE")
            self._db.execute("DELETE FROM tokens WHERE digest = ?", (_digest(token),))

    # -- reading (the server) --------------------------------------------------------------

    def refresh(self) -> None:
        """Reads the users again if another process changed them (a look at the WAL-index header when not)."""
        wal_index = self._wal_index
        if wal_index is not None:
            seen = wal_index[:_WAL_INDEX_HEADER]  # (read before the PRAGMA: a write between the two shows next time)
            now = time.monotonic()
            if seen == self._seen and now < self._recheck_at:
                return
            self._seen, self._recheck_at = seen, now + RECHECK_SECONDS
        version = self._db.execute("PRAGMA data_version").fetchone()[0]
        if version == self._version:
            return
        rows = self._db.execute("SELECT name, roles, groups, hash FROM users").fetchall()
        self._users = {
            name: (User(name, frozenset(roles.split()), tuple(groups.split())), digest) for name, roles, groups, digest in rows
        }
        self._version = version

    @property
    def generation(self) -> int:
        """Changes whenever the users change (a cache of checked passwords keys on it); as of the last refresh."""
        return self._version

    @property
    def empty(self) -> bool:
        """Whether there are no users (as of the last refresh)."""
        return not self._users

    def users(self) -> list[User]:
        self.refresh()
        return sorted((u for u, _ in self._users.values()), key=lambda u: u.name)

    def get(self, name: str, *, refresh: bool = True) -> User | None:
        if refresh:
            self.refresh()
        found = self._users.get(name)
        return found[0] if found else None

    def verify(self, name: str, password: str) -> User | None:
        """The user, if the password is theirs (scrypt: tens of milliseconds by design)."""
        self.refresh()
        found = self._users.get(name)
        if found is None:
            check_password(password, _dummy())  # the same work for an unknown name: no timing hint
            return None
        user, digest = found
        return user if check_password(password, digest) else None


def _digest(token: str) -> str:
    return hashlib.sha256(token.encode("utf-8")).hexdigest()


@cache
def _dummy() -> str:
    return hash_password("", b"\0" * 16)
