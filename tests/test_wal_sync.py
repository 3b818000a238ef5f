"""The store's log made durable by pcfserver.engine.wal: a commit is synced before it returns; a lone REST request's
commit leaves its sync owed while the answer is built, and every listener settles it before an answer leaves; a
failed sync stops every answer, for good.  Each test runs twice where it can: with the sync handed to the kernel on an
io_uring (``ring``), and with fdatasync alone, as on a kernel or in a container without io_uring (``fdatasync``)."""

from __future__ import annotations

import errno
import os
import re
import signal
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import httpx
import pytest
import trio

from pcfserver import mq
from pcfserver.client import connect, connect_sync
from pcfserver.client.protocol import PcfConnectionClosed
from pcfserver.codec import Message, String, StringList
from pcfserver.engine import open_engine, uring, wal
from pcfserver.server import core
from tests.log_support import server_log
from tests.test_rest_http import CSRF, HOST, TEXT, create, start_service

URL = "/ibmmq/rest/v2/messaging/qmgr/QM1/queue/{}/message"


def needs_ring() -> None:
    """Skips where the kernel gives the process no io_uring (on the project's machines and CI it does)."""
    ring = uring.open_ring()
    if ring is None:  # pragma: no cover - a kernel or container without io_uring
        pytest.skip("this kernel gives the process no io_uring")
    ring.close()


@pytest.fixture(params=["ring", "fdatasync"])
def sync_path(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> str:
    """How the WAL is synced in the test: on an io_uring, or by fdatasync only (as where the kernel has no ring)."""
    if request.param == "ring":
        needs_ring()
    else:
        monkeypatch.setattr(uring, "available", lambda: False)
    return str(request.param)


def record_syncs(monkeypatch: pytest.MonkeyPatch, events: list[str], paths: list[str] | None = None) -> None:
    """Each WAL sync appends "sync" to ``events`` ("settle" when it settles an owed commit); each commit "commit".
    ``paths`` gets "ring" or "fdatasync" for each sync, as it was made."""
    paths = [] if paths is None else paths
    datasync = wal._DATASYNC
    wrote = wal.WalSync.wrote
    settle = wal.WalSync.settle
    ring_wait = uring.SyncRing.wait

    def synced(fd: int) -> None:
        datasync(fd)
        events.append("sync")
        paths.append("fdatasync")

    def ring_synced(self: uring.SyncRing, spin: float) -> None:
        had = self.pending is not None
        ring_wait(self, spin)
        if had:
            events.append("sync")
            paths.append("ring")

    def settled(self: wal.WalSync) -> None:
        owed = self.owing
        settle(self)
        if owed:
            events[-1] = "settle"

    def committed(self: wal.WalSync) -> None:
        wrote(self)
        events.append("commit")

    monkeypatch.setattr(wal, "_DATASYNC", synced)
    monkeypatch.setattr(uring.SyncRing, "wait", ring_synced)
    monkeypatch.setattr(wal.WalSync, "settle", settled)
    monkeypatch.setattr(wal.WalSync, "wrote", committed)


def test_a_commit_is_synced_before_it_returns_and_an_owing_one_once_settled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sync_path: str) -> None:
    events: list[str] = []
    engine = open_engine(tmp_path)
    try:
        record_syncs(monkeypatch, events)
        engine.commit(engine.apply_batch([create("NOW.Q")])[1])
        assert events == ["commit", "sync"]
        events.clear()
        engine.commit_owing(engine.apply_batch([create("OWED.Q")])[1])
        assert events == ["commit"]  # written, its writeback started, its sync left for the answer
        engine.settle()
        engine.settle()  # (nothing owed now: no second sync)
        assert events == ["commit", "settle"]
        events.clear()
        engine.commit_owing(engine.apply_batch([create("LATER.Q")])[1])
        engine.commit(engine.apply_batch([create("COVERS.Q")])[1])  # a synced commit covers the one owed before it
        engine.settle()
        assert events == ["commit", "commit", "sync"]
    finally:
        engine.close()
    reopened = open_engine(tmp_path)
    try:
        [answer] = reopened.execute(Message(mq.MQCMD_INQUIRE_Q_NAMES, (String(mq.MQCA_Q_NAME, "*"),)))
        names = next(p.values for p in answer.parameters if isinstance(p, StringList) and p.parameter == mq.MQCACF_Q_NAMES)
        assert {"NOW.Q", "OWED.Q", "LATER.Q", "COVERS.Q"} <= {name.rstrip() for name in names}
    finally:
        reopened.close()


def test_the_sync_opens_the_wal_once_sqlite_has_made_it(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    synced: list[int] = []
    monkeypatch.setattr(wal, "_DATASYNC", lambda fd: synced.append(os.fstat(fd).st_ino))
    log = wal.WalSync(tmp_path / "db")
    log.wrote()
    log.sync()  # no WAL file yet: nothing in one to sync, and no error
    assert synced == [] and not log.owing
    (tmp_path / "db-wal").write_bytes(b"frames")
    log.wrote()
    assert log.owing
    log.settle()
    assert synced == [(tmp_path / "db-wal").stat().st_ino] and not log.owing
    log.close()


async def test_a_lone_clients_answers_leave_only_after_their_commits_are_synced(
    nursery: trio.Nursery, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sync_path: str
) -> None:
    events: list[str] = []
    paths: list[str] = []
    record_syncs(monkeypatch, events, paths)
    send_all = trio.SocketStream.send_all

    async def answered(self: trio.SocketStream, data: Any) -> None:
        if bytes(data[:9]) == b"HTTP/1.1 ":
            events.append("answer")
        await send_all(self, data)

    monkeypatch.setattr(trio.SocketStream, "send_all", answered)
    # (commits on the event loop whatever the CPUs: a lone request is then committed in its own task)
    service, _, pcf, port = await start_service(nursery, tmp_path, engine_in_thread=False)
    async with connect(*pcf) as client:
        await client.execute(create("LONE.Q"))
    events.clear()
    paths.clear()
    async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=20) as http:
        for i in range(3):
            assert (await http.post(URL.format("LONE.Q"), content=f"m{i}".encode(), headers={**TEXT, "ibm-mq-md-persistence": "persistent"})).status_code == 201
            got = await http.delete(URL.format("LONE.Q"), headers=CSRF)
            assert (got.status_code, got.text) == (200, f"m{i}")
    # each put and each get: its commit, its answer built while the disk wrote, the sync settled, then the answer
    assert events == ["commit", "settle", "answer"] * 6
    assert paths == [sync_path] * 6  # (on the ring where the kernel gives one, and only there)
    service.shutdown()


async def test_a_pcf_answer_settles_a_commit_left_owed(nursery: trio.Nursery, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sync_path: str) -> None:
    service, engine, pcf, _ = await start_service(nursery, tmp_path, engine_in_thread=False)
    events: list[str] = []
    record_syncs(monkeypatch, events)
    send_now = core._send_now

    def answered(sock: Any, data: Any) -> int:
        events.append("answer")
        return send_now(sock, data)

    monkeypatch.setattr(core, "_send_now", answered)
    engine.commit_owing(engine.apply_batch([create("OWED.Q")])[1])  # as a lone REST request's commit leaves it
    async with connect(*pcf) as client:
        answer = await client.execute(Message(mq.MQCMD_INQUIRE_Q_NAMES, (String(mq.MQCA_Q_NAME, "OWED.Q"),)))
    assert [[n.rstrip() for n in p.values] for p in answer[0].parameters if isinstance(p, StringList)] == [["OWED.Q"]]
    assert events[:3] == ["commit", "settle", "answer"]
    service.shutdown()


async def test_a_failed_sync_sends_no_answer_and_nothing_is_acknowledged_after_it(
    nursery: trio.Nursery, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sync_path: str
) -> None:
    service, _, pcf, port = await start_service(nursery, tmp_path, engine_in_thread=False)
    async with connect(*pcf) as client:
        await client.execute(create("APP.Q"))
    datasync = wal._DATASYNC
    ring_wait = uring.SyncRing.wait

    def failing(fd: int) -> None:
        raise OSError(errno.EIO, "Input/output error")

    def ring_failing(self: uring.SyncRing, spin: float) -> None:
        ring_wait(self, spin)
        raise OSError(errno.EIO, "Input/output error")

    with server_log() as log:
        monkeypatch.setattr(wal, "_DATASYNC", failing)
        monkeypatch.setattr(uring.SyncRing, "wait", ring_failing)
        async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=20) as http:
            with pytest.raises(httpx.RemoteProtocolError):  # closed with no answer: the put may or may not be on disk
                await http.post(URL.format("APP.Q"), content=b"lost?", headers={**TEXT, "ibm-mq-md-persistence": "persistent"})
        monkeypatch.setattr(wal, "_DATASYNC", datasync)  # the disk answers again: the failure still stands
        monkeypatch.setattr(uring.SyncRing, "wait", ring_wait)
        async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=20) as http:
            with pytest.raises(httpx.RemoteProtocolError):
                await http.delete(URL.format("APP.Q"), headers=CSRF)
            with pytest.raises(httpx.RemoteProtocolError):
                await http.get("/ibmmq/rest/v2/admin/qmgr", headers=CSRF)
        with pytest.raises(PcfConnectionClosed):
            async with connect(*pcf) as client:
                await client.execute(Message(mq.MQCMD_INQUIRE_Q_NAMES, (String(mq.MQCA_Q_NAME, "*"),)))
        await trio.sleep(0.5)  # (the access log writes its lines 0.1 s after the first)
    assert log.events("http") == []  # no answer went out, so the access log has no line claiming one
    failures = log.events("store_failed")
    assert failures[0]["level"] == "critical" and "Input/output error" in failures[0]["msg"] and "not sent" in failures[0]["msg"]
    service.shutdown()


def test_a_ring_syncs_a_file_and_hands_back_the_kernels_own_error(tmp_path: Path) -> None:
    needs_ring()
    ring = uring.open_ring()
    assert ring is not None
    fd = os.open(tmp_path / "f", os.O_RDWR | os.O_CREAT, 0o600)
    try:
        os.pwrite(fd, b"frame" * 100, 0)
        ring.submit(fd)
        with pytest.raises(RuntimeError):  # one at a time
            ring.submit(fd)
        ring.wait(0.001)
        assert ring.pending is None and ring.ready()
        for _ in range(3):  # the ring goes round: each sync answered by its own completion
            ring.submit(fd)
            ring.wait(0.0)  # (no watching: asleep in the kernel at once)
        spare = os.dup(fd)
        os.close(spare)
        ring.submit(spare)  # a descriptor closed since: the kernel's answer is EBADF, raised as the sync's error
        with pytest.raises(OSError) as failed:
            ring.wait(0.001)
        assert failed.value.errno == errno.EBADF and ring.pending is None
    finally:
        os.close(fd)
        ring.close()


def test_a_kernel_that_cannot_sync_on_a_ring_is_left_for_fdatasync(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    needs_ring()
    datasyncs: list[int] = []
    datasync = wal._DATASYNC
    monkeypatch.setattr(wal, "_DATASYNC", lambda fd: (datasync(fd), datasyncs.append(fd)))
    ring_wait = uring.SyncRing.wait

    def unsupported(self: uring.SyncRing, spin: float) -> None:
        ring_wait(self, spin)
        raise OSError(errno.EINVAL, "Invalid argument")

    monkeypatch.setattr(uring.SyncRing, "wait", unsupported)
    (tmp_path / "db-wal").write_bytes(b"frames")
    log = wal.WalSync(tmp_path / "db")
    log.wrote()
    log.start()  # handed to the ring
    assert datasyncs == [] and log.owing
    log.sync()  # the ring answers that it cannot: not a failure, the commit is synced by fdatasync instead
    assert len(datasyncs) == 1 and not log.owing and log.failure is None
    log.wrote()
    log.start()  # no ring any more: the writeback is started, and the sync is fdatasync's
    log.settle()
    assert len(datasyncs) == 2 and not log.owing
    log.close()


def test_a_sync_on_another_thread_leaves_the_ring_to_its_own_thread(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The committer's worker thread syncs group commits while a lone commit's sync may be in flight on the event loop's
    ring: the worker syncs by fdatasync (covering the lone commit too) and never touches the ring."""
    needs_ring()
    events: list[str] = []
    paths: list[str] = []
    record_syncs(monkeypatch, events, paths)
    (tmp_path / "db-wal").write_bytes(b"frames")
    log = wal.WalSync(tmp_path / "db")
    log.wrote()
    log.start()  # in flight on this thread's ring

    def group_commit() -> None:
        log.wrote()
        log.sync()

    worker = threading.Thread(target=group_commit)
    worker.start()
    worker.join()
    assert paths == ["fdatasync"] and not log.owing  # both commits durable, the ring left alone
    log.settle()  # nothing owed: nothing waited for
    assert paths == ["fdatasync"]
    ring = log._ring
    assert ring is not None and ring.pending is not None  # (the first sync, still on the ring: nobody waited for it)
    deadline = time.monotonic() + 10
    while not ring.ready() and time.monotonic() < deadline:
        time.sleep(0.001)
    log.wrote()
    log.start()  # the earlier sync is reaped, the next one handed to the ring
    log.settle()
    assert paths == ["fdatasync", "ring", "ring"] and not log.owing
    log.close()


@pytest.mark.parametrize("clients", [1, 4])
def test_acknowledged_puts_and_gets_survive_kill_9(tmp_path: Path, clients: int) -> None:
    """REST clients put and get persistent messages, each on its own queue, until the server is killed: one client's
    commits are made in its request's own task, several clients' in groups (synced on the ring where there is one, in
    both cases).  After a restart every acknowledged put not acknowledged as got is there, and no acknowledged get's
    message is."""
    data = tmp_path / "data"
    persistent = {**TEXT, "ibm-mq-md-persistence": "persistent"}

    def start() -> tuple[subprocess.Popen[str], int, int]:
        process = subprocess.Popen(
            [sys.executable, "-m", "pcfserver", "serve", "--port", "0", "--http-port", "0", "--data", str(data)],
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            text=True,
        )
        assert process.stdout is not None
        match = re.search(r"listening on \S+:(\d+) http \S+:(\d+)", process.stdout.readline())
        assert match, "the server did not start"
        return process, int(match[1]), int(match[2])

    queues = [f"KEEP.Q{k}" for k in range(clients)]
    put: dict[str, list[str]] = {q: [] for q in queues}
    got: dict[str, list[str]] = {q: [] for q in queues}
    process, pcf, port = start()
    try:
        with connect_sync(HOST, pcf) as admin:
            for queue in queues:
                admin.execute(create(queue))
        stop = threading.Event()

        def client(queue: str) -> None:
            with httpx.Client(base_url=f"http://{HOST}:{port}", timeout=10) as http:
                for i in range(100_000):
                    body = f"m{i:05d}"
                    try:
                        if http.post(URL.format(queue), content=body, headers=persistent).status_code != 201:
                            return
                        put[queue].append(body)
                        if i % 3 == 2:  # (two of every three stay on the queue)
                            answer = http.delete(URL.format(queue), headers=CSRF)
                            if answer.status_code != 200:
                                return
                            got[queue].append(answer.text)
                    except httpx.HTTPError:
                        return
                    if stop.is_set():
                        return

        threads = [threading.Thread(target=client, args=(queue,)) for queue in queues]
        for thread in threads:
            thread.start()
        time.sleep(1.0)
        process.send_signal(signal.SIGKILL)
        process.wait(30)
        stop.set()
        for thread in threads:
            thread.join(30)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert all(len(put[q]) > 20 for q in queues), "too few puts acknowledged before the kill"
    process, pcf, port = start()
    left: dict[str, list[str]] = {q: [] for q in queues}
    try:
        with httpx.Client(base_url=f"http://{HOST}:{port}", timeout=10) as http:
            for queue in queues:
                while (answer := http.delete(URL.format(queue), headers=CSRF)).status_code == 200:
                    left[queue].append(answer.text)
    finally:
        process.send_signal(signal.SIGINT)
        process.wait(30)
    for queue in queues:
        taken = set(got[queue])
        kept = [body for body in put[queue] if body not in taken]
        # Gets take the oldest first, so what is left is every put not got, in order; the kill may have come after
        # the commit of a request in flight and before its answer: a put's message is then there too (last), a get's not.
        unanswered = f"m{len(put[queue]):05d}"
        assert left[queue] in (kept, kept[1:], [*kept, unanswered], [*kept[1:], unanswered]), (queue, left[queue][-3:], kept[-3:])
        assert not taken & set(left[queue])


def test_the_ring_is_watched_only_where_another_cpu_can_run_the_sync(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """With one CPU, watching the ring would keep the kernel's worker that does the sync off the only CPU: the waiting
    thread sleeps at once there, and watches for up to RING_SPIN where there are two or more."""
    monkeypatch.setattr(wal.os, "sched_getaffinity", lambda _: {0})
    assert wal.WalSync(tmp_path / "one").spin == 0
    monkeypatch.setattr(wal.os, "sched_getaffinity", lambda _: {0, 1})
    assert wal.WalSync(tmp_path / "two").spin == wal.RING_SPIN > 0
