"""Group commits whose sync goes on the store's io_uring: a group of several jobs is written on the event loop and the
loop serves other connections until the sync's eventfd says it has ended; a group that writes large bodies is
written and synced in the worker thread; ``--commit-in thread`` and a store without a ring keep the thread."""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
import trio

from pcfserver import Integer, Message, String, mq, open_queue_manager
from pcfserver.engine import open_engine, uring, wal
from pcfserver.engine.engine import Engine
from pcfserver.engine.messages import MQIError
from pcfserver.server.committer import LOOP_COMMIT_BYTES, Committer, Job, PipelinedEngine
from tests.test_wal_sync import needs_ring

QUEUE = "RING.Q"


@pytest.fixture
def ring_here() -> None:
    needs_ring()


class _Put(Job):
    """A persistent put of ``body`` to QUEUE, released once its group is durable."""

    __slots__ = ("body", "engine", "released")

    def __init__(self, engine: Engine, body: bytes) -> None:
        super().__init__()
        self.engine = engine
        self.body = body
        self.released = trio.Event()

    def apply(self, engine: PipelinedEngine) -> None:
        layer = self.engine.messaging
        _, self.batch = self.engine.apply_operation(lambda: layer.put(None, QUEUE, self.body, mq.MQPER_PERSISTENT))

    def release(self, answers: list[list[Message]], failure: BaseException | None) -> None:
        assert failure is None
        self.released.set()

    def lost(self) -> None:  # pragma: no cover - the committer never stops early here
        self.released.set()


def _engine(path: Path) -> Engine:
    engine = open_engine(path)
    engine.execute(Message(mq.MQCMD_CREATE_Q, (String(mq.MQCA_Q_NAME, QUEUE), Integer(mq.MQIA_Q_TYPE, mq.MQQT_LOCAL))))
    return engine


async def _commit_groups(committer: Committer, engine: Engine, bodies: list[list[bytes]]) -> None:
    """Each list of bodies submitted together (one group), its jobs awaited before the next group."""
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(committer.run)
            for group in bodies:
                jobs = [_Put(engine, body) for body in group]
                for job in jobs:
                    assert committer.submit(job)
                for job in jobs:
                    await job.released.wait()
            committer.close()


def _bodies(path: Path) -> list[bytes]:
    """What a restart finds on QUEUE, in order."""
    bodies = []
    with open_queue_manager(path) as qm, qm.session() as session:
        while True:
            try:
                bodies.append(session.get(QUEUE)[1])
            except MQIError:
                return bodies


def _record(monkeypatch: pytest.MonkeyPatch, events: list[tuple[str, int]]) -> None:
    """("commit", thread) for each transaction written, ("ring", thread) / ("fdatasync", thread) for each sync."""
    wrote, datasync, ring_wait = wal.WalSync.wrote, wal._DATASYNC, uring.SyncRing.wait

    def committed(self: wal.WalSync) -> None:
        wrote(self)
        events.append(("commit", threading.get_ident()))

    def synced(fd: int) -> None:
        datasync(fd)
        events.append(("fdatasync", threading.get_ident()))

    def ring_synced(self: uring.SyncRing, spin: float) -> None:
        had = self.pending is not None
        ring_wait(self, spin)
        if had:
            events.append(("ring", threading.get_ident()))

    monkeypatch.setattr(wal.WalSync, "wrote", committed)
    monkeypatch.setattr(wal, "_DATASYNC", synced)
    monkeypatch.setattr(uring.SyncRing, "wait", ring_synced)


async def test_a_group_of_small_messages_commits_on_the_loop_and_its_sync_on_the_ring(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ring_here: None
) -> None:
    engine = _engine(tmp_path)
    events: list[tuple[str, int]] = []
    _record(monkeypatch, events)
    loop = threading.get_ident()
    big = b"b" * (LOOP_COMMIT_BYTES // 2 + 1)
    events.clear()
    await _commit_groups(Committer(engine), engine, [[b"s1", b"s2", b"s3"], [big, big]])
    # three small puts: written here, synced on the ring; two bodies over the limit together: both in the worker
    assert events[:2] == [("commit", loop), ("ring", loop)]
    assert [what for what, _ in events[2:]] == ["commit", "fdatasync"] and events[2][1] != loop
    engine.close()
    assert _bodies(tmp_path) == [b"s1", b"s2", b"s3", big, big]


async def test_commit_in_thread_or_a_store_without_a_ring_keeps_groups_in_the_thread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    events: list[tuple[str, int]] = []
    _record(monkeypatch, events)
    loop = threading.get_ident()
    engine = _engine(tmp_path / "told")
    events.clear()
    await _commit_groups(Committer(engine, in_thread=True), engine, [[b"t1", b"t2"]])
    engine.close()
    told = events[:2]
    monkeypatch.setattr(uring, "available", lambda: False)
    engine = _engine(tmp_path / "ringless")
    events.clear()
    await _commit_groups(Committer(engine), engine, [[b"r1", b"r2"]])
    engine.close()
    for phase in (told, events[:2]):
        assert [what for what, _ in phase] == ["commit", "fdatasync"]
        assert all(thread != loop for _, thread in phase)


async def test_the_loop_serves_others_while_a_groups_sync_is_on_the_ring(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, ring_here: None) -> None:
    """While the kernel syncs a group, other tasks run, and a listener's settle (before an answer) does not wait for
    that sync: what it answers was durable before the group began, and the group's own jobs are not released yet."""
    engine = _engine(tmp_path)
    committer = Committer(engine)
    settles: list[str] = []
    settle = wal.WalSync.settle

    def settled(self: wal.WalSync) -> None:
        settles.append("settle")
        settle(self)

    monkeypatch.setattr(wal.WalSync, "settle", settled)
    wait_readable = trio.lowlevel.wait_readable
    during: list[int] = []

    async def slow_sync(fd: int) -> None:
        await trio.sleep(0.2)  # (as if the disk took its time)
        committer.settle()  # a listener answering meanwhile
        during.append(len(settles))
        await wait_readable(fd)

    monkeypatch.setattr(trio.lowlevel, "wait_readable", slow_sync)
    ticks = 0

    async def other_connection() -> None:
        nonlocal ticks
        while not during:
            ticks += 1
            await trio.sleep(0.01)

    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(other_connection)
            await _commit_groups(committer, engine, [[b"g1", b"g2"]])
    assert during == [0]  # the listener's settle returned without touching the store
    assert settles == ["settle"]  # the committer's own, once the eventfd said the sync had ended
    assert ticks >= 10  # the other task ran all through the group's sync
    engine.close()
    assert _bodies(tmp_path) == [b"g1", b"g2"]
