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

Where Linux lets the process have an io_uring (:mod:`pcfserver.engine.uring`), :meth:`WalSync.start` also hands the
fdatasync to the kernel, and :meth:`WalSync.sync` watches for its end for up to half a millisecond before it sleeps:
the thread's CPU stays awake through the disk's wait, which on a virtual machine costs less than halting it and being
woken by the interrupt (one REST client's put+get pairs rose 6-10% against the same run's bare server).

A failed sync is final: the pages the kernel could not write may be dropped from its cache, so nothing written since
can be trusted to reach the disk.  Every later :meth:`sync` raises, and the store refuses every commit.
"""

from __future__ import annotations

import ctypes
import os
import sqlite3
import sys
import threading
from collections.abc import Callable
from pathlib import Path

from pcfserver.engine import uring

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


def usable_cpus() -> int:
    """The CPUs this process may run on (its affinity where the platform has one)."""
    try:
        return len(os.sched_getaffinity(0))
    except (AttributeError, OSError):  # pragma: no cover - platforms without affinity
        return os.cpu_count() or 1


def _spin_seconds() -> float:
    """How long a thread waiting for a sync on the ring watches it before it sleeps: ``RING_SPIN`` where another CPU
    can run the kernel's worker meanwhile, else 0 (watching would only keep the worker from the one CPU)."""
    return RING_SPIN if usable_cpus() >= 2 else 0.0


# A sync on the ring is watched for this long at most (formats/messaging-rules.tsv, "when a change is durable"): the
# longest a sync took on the project's VM is about 0.4 ms; a slower disk costs this much CPU per lone commit, no more.
RING_SPIN = 0.0005


class WalSync:
    """Durability of what SQLite wrote into one database's WAL file.

    ``written`` counts the commits written into the WAL; ``synced`` how many of them a finished sync covers.  Both
    only grow, so a sync in a worker thread and one on the event loop cannot undo each other's account.

    :meth:`start` hands the sync to the kernel through an io_uring (``pcfserver.engine.uring``) where there can be
    one, else starts the writeback; the thread that started it waits for it in :meth:`sync`.  The ring syncs through
    a descriptor of its own: a write-back error is reported once to each open file, so a sync in another thread
    through the other descriptor still sees an error the ring's sync also met."""

    def __init__(self, database: Path) -> None:
        self.path = wal_path(database)
        self.written = 0
        self.synced = 0
        self.failure: OSError | None = None
        self._fd: int | None = None
        self._use_ring = uring.available()
        self._ring: uring.SyncRing | None = None
        self._ring_fd: int | None = None
        self._ring_thread = 0  # the thread that uses the ring (the first to call start)
        self._ring_covers = 0  # how many commits the sync in flight on the ring covers
        self.spin = _spin_seconds()

    @property
    def owing(self) -> bool:
        """Whether a commit is in the WAL that no finished sync covers yet."""
        return self.synced < self.written

    def wrote(self) -> None:
        """A commit's frames are in the WAL (not yet durable)."""
        self.written += 1

    def start(self) -> int | None:
        """Starts making the commits written so far durable: the sync handed to the kernel on the ring, or, without
        one, the WAL's writeback started; :meth:`sync` must still follow, on the same thread.  With the ring, the
        answer is an eventfd that becomes readable when the sync has ended (an event loop may wait for it rather than
        in :meth:`sync`); else None."""
        if self.failure is not None:
            return None
        fd = self._descriptor()
        if fd is None:
            return None
        if _START_WRITEBACK is not None:
            # With a ring too: the frames start for the disk from here while the kernel's worker that will sync them
            # wakes (one client's put+get pairs 3-5% faster than leaving the writeback to the worker).
            _START_WRITEBACK(fd)
        ring = self._ring_here(starting=True)
        if ring is None:
            return None
        if ring.pending is not None and ring.ready():
            try:
                self._reap(ring, 0.0)
            except WalSyncError:
                return None  # (the next sync raises it)
        if ring.pending is not None or self._ring is None or self._ring_fd is None:
            return None  # (the earlier sync still runs, or the ring was dropped: the sync is fdatasync's)
        try:
            event = ring.eventfd()
            uring.drain(event)  # (what earlier syncs signalled: readable again only once this one ends)
            ring.submit(self._ring_fd)
        except OSError:
            self._drop_ring()
            return None
        self._ring_covers = self.written
        return event

    def ring_possible(self) -> bool:
        """Whether :meth:`start` may hand a sync to a ring (it has one, or has not tried to make one yet)."""
        return self._use_ring or self._ring is not None

    def sync(self) -> None:
        """Returns once every commit written so far is durable; raises :class:`WalSyncError` if the disk failed."""
        if self.failure is not None:
            raise WalSyncError(f"{self.path}: an earlier sync failed ({self.failure}); nothing more is acknowledged")
        target = self.written
        ring = self._ring_here()
        if ring is not None and ring.pending is not None and self._ring_covers >= target:
            self._reap(ring, self.spin)
            if self.synced >= target:
                return
        # (a sync on the ring that covers less is left to finish: the fdatasync below covers all it does)
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

    def _ring_here(self, starting: bool = False) -> uring.SyncRing | None:
        """The ring, for the thread that uses it (made at the first :meth:`start`); None for any other thread, or
        where there is none."""
        ring = self._ring
        if ring is not None:
            return ring if threading.get_ident() == self._ring_thread else None
        if not (starting and self._use_ring):
            return None
        self._use_ring = False  # (one attempt: where the kernel refuses a ring it refuses every time)
        ring = uring.open_ring()
        if ring is None:
            return None
        try:
            self._ring_fd = os.open(self.path, os.O_RDONLY | getattr(os, "O_CLOEXEC", 0))
        except OSError:
            ring.close()
            return None
        self._ring, self._ring_thread = ring, threading.get_ident()
        return ring

    def _reap(self, ring: uring.SyncRing, spin: float) -> None:
        """Waits for the sync in flight on the ring and counts what it covered; a kernel that cannot sync on a ring
        is left alone from then on (the commits stay owed, for fdatasync), a failed sync fails the log for good."""
        covered, self._ring_covers = self._ring_covers, 0
        try:
            ring.wait(spin)
        except OSError as exc:
            if exc.errno in uring.UNSUPPORTED:
                self._drop_ring()
                return
            self.failure = exc
            raise WalSyncError(f"{self.path}: the disk did not make the log durable: {exc}") from exc
        if covered > self.synced:
            self.synced = covered

    def _drop_ring(self) -> None:
        ring, self._ring = self._ring, None
        fd, self._ring_fd = self._ring_fd, None
        if ring is not None:
            if ring.pending is not None:
                try:
                    ring.wait(0.0)
                except OSError:
                    pass  # (what it covered is owed still: a later fdatasync syncs it, and sees any error too)
            ring.close()
        if fd is not None:
            os.close(fd)

    def close(self) -> None:
        self._drop_ring()
        fd, self._fd = self._fd, None
        if fd is not None:
            os.close(fd)
