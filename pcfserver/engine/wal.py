"""The store's write-ahead log file: presized at open, and made durable here rather than inside SQLite.

SQLite runs the registry with ``synchronous=NORMAL``: a commit writes its frames into the WAL file and returns
without waiting for the disk (SQLite still syncs the WAL before each checkpoint and the database after it).
:class:`WalSync` then makes the commit durable with ``fdatasync`` on a descriptor of its own for the same file,
which is what ``synchronous=FULL`` does inside COMMIT: the same writes, the same one sync of the WAL per commit.

Doing it here lets a commit's durability be split in two (:meth:`WalSync.start`, then :meth:`WalSync.sync`): the
kernel starts writing the frames back as soon as the commit returns, the caller builds its answer meanwhile, and the
sync that must come before the answer leaves only waits for the rest (the disk's cache flush).  On this project's
two-CPU VM a lone REST client's put or get waited 130 us in SQLite's sync; split, 28 us to start the writeback plus
67 us at the answer (formats/messaging-rules.tsv, ``durability``).  Nothing is answered before :meth:`sync`
returns: the server's listeners call it before any byte of an answer goes out.

A failed sync is final: the pages the kernel could not write may be dropped from its cache, so nothing written since
can be trusted to reach the disk.  Every later :meth:`sync` raises, and the store refuses every commit.
"""

from __future__ import annotations

import ctypes
import os
import sqlite3
import sys
from collections.abc import Callable
from pathlib import Path

_WAL_HEADER = 32  # SQLite's WAL file: a 32-byte header, then frames of a 24-byte header and one page
_WAL_FRAME_HEADER = 24


def presize_wal(db: sqlite3.Connection, path: Path) -> None:
    """Makes the WAL file of the database at ``path`` (open in ``db``, in WAL mode and locked for itself) as long as
    it grows before SQLite's automatic checkpoint starts it again from the beginning, written with zeros and synced:
    every commit then writes over blocks the file has instead of lengthening it (formats/messaging-rules.tsv).

    SQLite reads a WAL's frames from its start up to the first one whose checksum fails, so the zeros past the last
    frame are read as its end, before and after a crash; only the bytes past the file's end are written.  Errors
    leave the file as it was (the zeros are a saving, not a need)."""
    page_size = int(db.execute("PRAGMA page_size").fetchone()[0])
    frames = int(db.execute("PRAGMA wal_autocheckpoint").fetchone()[0])
    size = _WAL_HEADER + max(frames, 0) * (_WAL_FRAME_HEADER + page_size)
    try:
        fd = os.open(wal_path(path), os.O_WRONLY)  # (SQLite made it: never created here)
    except OSError:
        return
    try:
        end = os.fstat(fd).st_size
        if end >= size:
            return
        zeros = memoryview(bytes(min(size - end, 1 << 20)))
        while end < size:
            end += os.pwrite(fd, zeros[: size - end], end)
        os.fsync(fd)
    except OSError:
        return
    finally:
        os.close(fd)


def wal_path(database: Path) -> Path:
    """SQLite's name for the WAL file of ``database``."""
    return database.with_name(database.name + "-wal")


def _writeback_starter() -> Callable[[int], None] | None:
    """``sync_file_range(fd, 0, 0, SYNC_FILE_RANGE_WRITE)`` (Linux): starts writing a file's dirty pages back and
    returns without waiting for them.  None where there is no such call (the sync then does all of it)."""
    if not sys.platform.startswith("linux"):
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)  # (the process's own symbols: the C library's among them)
        call = libc.sync_file_range
    except (OSError, AttributeError):  # pragma: no cover - a libc without it
        return None
    call.argtypes = (ctypes.c_int, ctypes.c_longlong, ctypes.c_longlong, ctypes.c_uint)
    call.restype = ctypes.c_int
    write = 2  # SYNC_FILE_RANGE_WRITE

    def start(fd: int) -> None:
        call(fd, 0, 0, write)  # (a failure only means no head start: the sync reports real errors)

    return start


_START_WRITEBACK = _writeback_starter()
_DATASYNC: Callable[[int], None] = getattr(os, "fdatasync", os.fsync)


class WalSyncError(OSError):
    """The disk failed to make the WAL durable (now or earlier): nothing more may be acknowledged."""


class WalSync:
    """Durability of what SQLite wrote into one database's WAL file.

    ``written`` counts the commits written into the WAL; ``synced`` how many of them a finished sync covers.  Both
    only grow, so a sync in a worker thread and one on the event loop cannot undo each other's account."""

    def __init__(self, database: Path) -> None:
        self.path = wal_path(database)
        self.written = 0
        self.synced = 0
        self.failure: OSError | None = None
        self._fd: int | None = None

    @property
    def owing(self) -> bool:
        """Whether a commit is in the WAL that no finished sync covers yet."""
        return self.synced < self.written

    def wrote(self) -> None:
        """A commit's frames are in the WAL (not yet durable)."""
        self.written += 1

    def start(self) -> None:
        """Starts writing the WAL's new frames back to the disk; :meth:`sync` must still follow."""
        if _START_WRITEBACK is not None and self.failure is None:
            fd = self._descriptor()
            if fd is not None:
                _START_WRITEBACK(fd)

    def sync(self) -> None:
        """Returns once every commit written so far is durable; raises :class:`WalSyncError` if the disk failed."""
        if self.failure is not None:
            raise WalSyncError(f"{self.path}: an earlier sync failed ({self.failure}); nothing more is acknowledged")
        target = self.written
        try:
            fd = self._descriptor()
            if fd is not None:
                _DATASYNC(fd)
        except OSError as exc:
            self.failure = exc
            raise WalSyncError(f"{self.path}: the disk did not make the log durable: {exc}") from exc
        if target > self.synced:
            self.synced = target

    def settle(self) -> None:
        """:meth:`sync` if a commit is owed (the listeners call it before any answer leaves)."""
        if self.owing or self.failure is not None:
            self.sync()

    def _descriptor(self) -> int | None:
        """A descriptor of the WAL file, opened at the first need; None while there is none (nothing is in a WAL
        then).  The store holds SQLite's exclusive lock in WAL mode for as long as it is open, and SQLite removes a
        WAL file only when its last connection closes or the journal mode changes, so the file opened here stays
        the one SQLite writes until the store closes.  (Checking that at every sync costs more than the sync saves:
        an fstat took 40 us on this project's VM.)"""
        fd = self._fd
        if fd is None:
            try:
                fd = self._fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
            except FileNotFoundError:
                return None
        return fd

    def close(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)
