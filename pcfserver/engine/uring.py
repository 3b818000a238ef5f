"""An fdatasync that a thread can start and then wait for without its CPU going idle: Linux io_uring, through ctypes.

A lone REST request's commit (server/committer.py ``run_now``) is written into SQLite's WAL on the event loop, and its
answer may leave only once the WAL is synced.  ``fdatasync`` blocks the thread: its CPU goes idle for the 80-400 us
the disk takes, and on a virtual machine an idle CPU is halted and must be woken by the disk's interrupt, which costs
tens of microseconds more and leaves the caches cold (formats/messaging-rules.tsv, ``when a change is durable``).  Here the sync is handed to the kernel
(``IORING_OP_FSYNC`` with ``IORING_FSYNC_DATASYNC``: the same fdatasync, run by one of the kernel's own workers) and
the thread builds the answer meanwhile; when the answer is ready it watches the completion ring, which the kernel
writes in memory shared with this process, for a moment before it sleeps in ``io_uring_enter``.  No second Python
thread is involved, so nothing waits for the GIL.  A group commit's sync goes the same way, and the event loop, rather
than watching, waits for the ring's eventfd among its sockets (server/committer.py).

Only on Linux x86-64 (whose ordering of memory makes plain reads of the shared ring safe) and where the kernel lets
a process make a ring (containers often forbid it): elsewhere :func:`open_ring` answers None and the caller syncs
with fdatasync as before.  One ring serves one thread and one operation at a time.
"""

from __future__ import annotations

import ctypes
import errno
import mmap
import os
import platform
import struct
import sys
import time
from collections.abc import Callable

_SETUP, _ENTER, _REGISTER = 425, 426, 427  # io_uring_setup, io_uring_enter, io_uring_register
_REGISTER_EVENTFD = 4
_OP_FSYNC = 3
_FSYNC_DATASYNC = 1
_ENTER_GETEVENTS = 1
_FEAT_SINGLE_MMAP = 1
_OFF_SQ_RING, _OFF_CQ_RING, _OFF_SQES = 0, 0x8000000, 0x10000000
_SQE_SIZE, _CQE_SIZE = 64, 16
_SQE = struct.Struct("<BBHiQQIIQ")  # opcode, flags, ioprio, fd, off, addr, len, fsync_flags, user_data (the rest stays 0)
_CQE = struct.Struct("<Qi")  # user_data, res (a negative errno on failure)
_U32 = struct.Struct("<I")
# An operation whose result says only that this kernel cannot do it (not that the disk failed): the caller syncs
# with fdatasync instead, and stops using the ring.
UNSUPPORTED = frozenset({errno.EINVAL, errno.EOPNOTSUPP, errno.ENOSYS})


def _offsets(name: str, *fields: str) -> type[ctypes.Structure]:
    """struct io_sqring_offsets or io_cqring_offsets: eight 32-bit offsets (the last two reserved) and a 64-bit one."""
    layout = [(field, ctypes.c_uint32) for field in fields] + [("user_addr", ctypes.c_uint64)]
    return type(name, (ctypes.Structure,), {"_fields_": layout})


_SqOffsets = _offsets("_SqOffsets", "head", "tail", "ring_mask", "ring_entries", "flags", "dropped", "array", "resv1")
_CqOffsets = _offsets("_CqOffsets", "head", "tail", "ring_mask", "ring_entries", "overflow", "cqes", "flags", "resv1")


class _Params(ctypes.Structure):
    _fields_ = [
        ("sq_entries", ctypes.c_uint32),
        ("cq_entries", ctypes.c_uint32),
        ("flags", ctypes.c_uint32),
        ("sq_thread_cpu", ctypes.c_uint32),
        ("sq_thread_idle", ctypes.c_uint32),
        ("features", ctypes.c_uint32),
        ("wq_fd", ctypes.c_uint32),
        ("resv", ctypes.c_uint32 * 3),
        ("sq_off", _SqOffsets),
        ("cq_off", _CqOffsets),
    ]


class SyncRing:
    """A ring of a few entries through which one thread starts fdatasyncs (:meth:`submit`) and waits for them
    (:meth:`wait`), one at a time."""

    def __init__(self, syscall: Callable[..., int], fd: int, params: _Params) -> None:
        self._syscall = syscall
        self.fd = fd
        sq_off, cq_off = params.sq_off, params.cq_off
        sq_size = sq_off.array + params.sq_entries * 4
        cq_size = cq_off.cqes + params.cq_entries * _CQE_SIZE
        protection, flags = mmap.PROT_READ | mmap.PROT_WRITE, mmap.MAP_SHARED | getattr(mmap, "MAP_POPULATE", 0)
        self._maps: list[mmap.mmap] = []
        self._eventfd: int | None = None
        try:
            if params.features & _FEAT_SINGLE_MMAP:
                sq = cq = self._map(max(sq_size, cq_size), flags, protection, _OFF_SQ_RING)
            else:
                sq = self._map(sq_size, flags, protection, _OFF_SQ_RING)
                cq = self._map(cq_size, flags, protection, _OFF_CQ_RING)
            self._sqes = self._map(params.sq_entries * _SQE_SIZE, flags, protection, _OFF_SQES)
        except BaseException:
            self.close()
            raise
        self._sq, self._cq = sq, cq
        self._sq_mask, self._cq_mask = params.sq_entries - 1, params.cq_entries - 1
        self._sq_tail, self._sq_array = sq_off.tail, sq_off.array
        self._cq_head, self._cq_tail, self._cqes = cq_off.head, cq_off.tail, cq_off.cqes
        self._next = 0  # the user_data of the next operation
        self.pending: int | None = None  # the operation submitted and not yet waited for

    def _map(self, size: int, flags: int, protection: int, offset: int) -> mmap.mmap:
        mapped = mmap.mmap(self.fd, size, flags, protection, offset=offset)
        self._maps.append(mapped)
        return mapped

    def submit(self, fd: int) -> None:
        """Starts an fdatasync of ``fd``; :meth:`wait` must follow before another is submitted."""
        if self.pending is not None:
            raise RuntimeError("an fdatasync is already in flight on this ring")
        sq = self._sq
        tail = _U32.unpack_from(sq, self._sq_tail)[0]
        index = tail & self._sq_mask
        self._next += 1
        _SQE.pack_into(self._sqes, index * _SQE_SIZE, _OP_FSYNC, 0, 0, fd, 0, 0, 0, _FSYNC_DATASYNC, self._next)
        _U32.pack_into(sq, self._sq_array + index * 4, index)
        _U32.pack_into(sq, self._sq_tail, (tail + 1) & 0xFFFFFFFF)
        # (the kernel reads the new tail inside this call, on this thread: no barrier is needed before it)
        if self._enter(1, 0, 0) != 1:
            _U32.pack_into(sq, self._sq_tail, tail)  # not taken: the entry is withdrawn
            raise OSError(errno.EAGAIN, "io_uring did not take the fdatasync")
        self.pending = self._next

    def ready(self) -> bool:
        """Whether the operation in flight has finished (or none is in flight)."""
        return self.pending is None or _U32.unpack_from(self._cq, self._cq_tail)[0] != _U32.unpack_from(self._cq, self._cq_head)[0]

    def wait(self, spin: float) -> None:
        """Until the fdatasync in flight has finished: watching the completion ring for up to ``spin`` seconds, then
        asleep in the kernel.  Raises OSError with the fdatasync's own error if it failed."""
        if self.pending is None:
            return
        cq, unpack, tail_at = self._cq, _U32.unpack_from, self._cq_tail
        head = unpack(cq, self._cq_head)[0]
        if unpack(cq, tail_at)[0] == head and spin > 0:
            clock = time.perf_counter
            end = clock() + spin
            while unpack(cq, tail_at)[0] == head and clock() < end:
                pass
        while unpack(cq, tail_at)[0] == head:
            self._enter(0, 1, _ENTER_GETEVENTS)
        user_data, result = _CQE.unpack_from(cq, self._cqes + (head & self._cq_mask) * _CQE_SIZE)
        _U32.pack_into(cq, self._cq_head, (head + 1) & 0xFFFFFFFF)
        if user_data != self.pending:  # pragma: no cover - only ever one operation in flight
            raise OSError(errno.EIO, f"io_uring answered operation {user_data}, not {self.pending}")
        self.pending = None
        if result < 0:
            raise OSError(-result, os.strerror(-result))

    def _enter(self, submit: int, wait: int, flags: int) -> int:
        while True:
            done = int(self._syscall(_ENTER, self.fd, submit, wait, flags, None, 0))
            if done >= 0:
                return done
            code = ctypes.get_errno()
            if code != errno.EINTR:
                raise OSError(code, f"io_uring_enter: {os.strerror(code)}")

    def eventfd(self) -> int:
        """An eventfd that the kernel signals each time an operation ends, for an event loop to wait on (made and
        registered with the ring at the first call).  Read it empty (:func:`drain`) before the operation it is to
        signal is submitted."""
        if self._eventfd is None:
            efd = os.eventfd(0, os.EFD_NONBLOCK | os.EFD_CLOEXEC)
            registered = ctypes.c_int(efd)
            if int(self._syscall(_REGISTER, self.fd, _REGISTER_EVENTFD, ctypes.byref(registered), 1)) < 0:
                code = ctypes.get_errno()
                os.close(efd)
                raise OSError(code, f"io_uring_register: {os.strerror(code)}")
            self._eventfd = efd
        return self._eventfd

    def close(self) -> None:
        for mapped in self._maps:
            mapped.close()
        self._maps.clear()
        if self._eventfd is not None:
            os.close(self._eventfd)
            self._eventfd = None
        if self.fd >= 0:
            os.close(self.fd)
            self.fd = -1


def drain(eventfd: int) -> None:
    """Reads an eventfd empty (nothing to read is no error)."""
    try:
        os.eventfd_read(eventfd)
    except BlockingIOError:
        pass


def available() -> bool:
    """Whether this platform can have a ring at all (Linux on x86-64)."""
    return sys.platform.startswith("linux") and platform.machine() in ("x86_64", "AMD64")


def open_ring(entries: int = 4) -> SyncRing | None:
    """A ring of ``entries``, or None where there can be none (another platform, an old kernel, io_uring turned off
    by ``kernel.io_uring_disabled`` or by a container's seccomp profile)."""
    if not available() or ctypes.sizeof(_Params) != 120:  # (struct io_uring_params as the kernel has it)
        return None
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        syscall = libc.syscall
    except (OSError, AttributeError):  # pragma: no cover - a libc without syscall()
        return None
    syscall.restype = ctypes.c_long
    params = _Params()
    fd = int(syscall(_SETUP, entries, ctypes.byref(params)))
    if fd < 0:
        return None
    try:
        return SyncRing(syscall, fd, params)
    except (OSError, ValueError):  # (the ring closed itself)
        return None


def allowed() -> bool:
    """Whether this process may have a ring (one is made and closed again to find out)."""
    ring = open_ring()
    if ring is None:
        return False
    ring.close()
    return True
