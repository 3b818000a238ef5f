"""The store's log made durable by pcfserver.engine.wal: a commit is synced before it returns; a lone REST request's
commit leaves its sync owed while the answer is built, and every listener settles it before an answer leaves; a
failed sync stops every answer, for good."""

from __future__ import annotations

import errno
import os
from pathlib import Path
from typing import Any

import httpx
import pytest
import trio

from pcfserver import mq
from pcfserver.client import connect
from pcfserver.client.protocol import PcfConnectionClosed
from pcfserver.codec import Message, String, StringList
from pcfserver.engine import open_engine, wal
from pcfserver.server import core
from tests.log_support import server_log
from tests.test_rest_http import CSRF, HOST, TEXT, create, start_service

URL = "/ibmmq/rest/v2/messaging/qmgr/QM1/queue/{}/message"


def record_syncs(monkeypatch: pytest.MonkeyPatch, events: list[str]) -> None:
    """Each WAL sync appends "sync" to ``events`` ("settle" when it settles an owed commit); each commit "commit"."""
    datasync = wal._DATASYNC
    wrote = wal.WalSync.wrote
    settle = wal.WalSync.settle

    def synced(fd: int) -> None:
        datasync(fd)
        events.append("sync")

    def settled(self: wal.WalSync) -> None:
        owed = self.owing
        settle(self)
        if owed:
            events[-1] = "settle"

    def committed(self: wal.WalSync) -> None:
        wrote(self)
        events.append("commit")

    monkeypatch.setattr(wal, "_DATASYNC", synced)
    monkeypatch.setattr(wal.WalSync, "settle", settled)
    monkeypatch.setattr(wal.WalSync, "wrote", committed)


def test_a_commit_is_synced_before_it_returns_and_an_owing_one_once_settled(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
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


async def test_a_lone_clients_answers_leave_only_after_their_commits_are_synced(nursery: trio.Nursery, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    events: list[str] = []
    record_syncs(monkeypatch, events)
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
    async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=20) as http:
        for i in range(3):
            assert (await http.post(URL.format("LONE.Q"), content=f"m{i}".encode(), headers={**TEXT, "ibm-mq-md-persistence": "persistent"})).status_code == 201
            got = await http.delete(URL.format("LONE.Q"), headers=CSRF)
            assert (got.status_code, got.text) == (200, f"m{i}")
    # each put and each get: its commit, its answer built while the disk wrote, the sync settled, then the answer
    assert events == ["commit", "settle", "answer"] * 6
    service.shutdown()


async def test_a_pcf_answer_settles_a_commit_left_owed(nursery: trio.Nursery, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
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


async def test_a_failed_sync_sends_no_answer_and_nothing_is_acknowledged_after_it(nursery: trio.Nursery, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    service, _, pcf, port = await start_service(nursery, tmp_path, engine_in_thread=False)
    async with connect(*pcf) as client:
        await client.execute(create("APP.Q"))
    datasync = wal._DATASYNC

    def failing(fd: int) -> None:
        raise OSError(errno.EIO, "Input/output error")

    with server_log() as log:
        monkeypatch.setattr(wal, "_DATASYNC", failing)
        async with httpx.AsyncClient(base_url=f"http://{HOST}:{port}", timeout=20) as http:
            with pytest.raises(httpx.RemoteProtocolError):  # closed with no answer: the put may or may not be on disk
                await http.post(URL.format("APP.Q"), content=b"lost?", headers={**TEXT, "ibm-mq-md-persistence": "persistent"})
        monkeypatch.setattr(wal, "_DATASYNC", datasync)  # the disk answers again: the failure still stands
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
