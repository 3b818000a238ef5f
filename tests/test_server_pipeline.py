"""Group commit pipelined over time: a batch waits, applied, while the one before it commits.

When a commit fails, the batch behind it may have seen the failed batch's changes; it must be
undone and run again, so that no answer ever reflects a change that is not on disk.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Sequence
from typing import Any

import pytest
import trio

from pcfserver import Integer, Message, String, mq
from pcfserver.client import connect
from pcfserver.engine import open_engine
from pcfserver.engine.engine import Batch, Engine
from pcfserver.server.committer import Committer, Job, PipelinedEngine
from pcfserver.server.core import PcfServer, ServerConfig


class GatedEngine:
    """A real engine whose first commit waits for a gate and then fails (a full disk, say)."""

    def __init__(self, inner: Engine) -> None:
        self.inner = inner
        self.gate = threading.Event()
        self.committing = threading.Event()
        self.commits = 0

    def execute_batch(self, commands: Sequence[Message], *context: Any) -> list[list[Message]]:
        return self.inner.execute_batch(commands, *context)

    def apply_batch(self, commands: Sequence[Message], *context: Any) -> tuple[list[list[Message]], Batch]:
        return self.inner.apply_batch(commands, *context)  # context: the identity and the origin (the history's)

    def commit(self, batch: Batch) -> None:
        self.commits += 1
        if self.commits == 1:
            self.committing.set()
            self.gate.wait(10)
            raise OSError("disk full")
        self.inner.commit(batch)

    def commit_owing(self, batch: Batch) -> int | None:
        self.commit(batch)
        return None

    def settle(self) -> None:
        self.inner.settle()

    def sync_events(self) -> bool:
        return self.inner.sync_events()

    def body_bytes(self, batch: Batch) -> int:
        return self.inner.body_bytes(batch)

    def abort(self, batch: Batch, exc: BaseException) -> list[list[Message]]:
        return self.inner.abort(batch, exc)


def _create(name: str) -> Message:
    return Message(mq.MQCMD_CREATE_Q, (String(mq.MQCA_Q_NAME, name), Integer(mq.MQIA_Q_TYPE, mq.MQQT_LOCAL)))


def _inquire(name: str) -> Message:
    return Message(mq.MQCMD_INQUIRE_Q_NAMES, (String(mq.MQCA_Q_NAME, name),))


async def test_a_failed_commit_undoes_the_batch_behind_it_and_runs_it_again() -> None:
    engine = GatedEngine(open_engine(None))
    # Commits in a worker thread, so that the next batch is applied while one commits.
    server = PcfServer(engine, ServerConfig(host="127.0.0.1", port=0, engine_in_thread=True))
    results: dict[str, list[Message]] = {}
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            await nursery.start(server.serve)
            assert server.address is not None
            host, port = server.address

            async def run(key: str, message: Message) -> None:
                async with connect(host, port) as client:
                    results[key] = await client.execute(message, check_failure=False)

            async with trio.open_nursery() as clients:
                clients.start_soon(run, "first", _create("LOST.Q"))
                await trio.to_thread.run_sync(engine.committing.wait, 10)
                # While LOST.Q's commit hangs, a second batch is applied: it sees LOST.Q.
                clients.start_soon(run, "second", _inquire("LOST.*"))
                clients.start_soon(run, "third", _create("KEPT.Q"))
                await trio.sleep(0.2)
                engine.gate.set()
            async with connect(host, port) as client:
                after = await client.execute(_inquire("*"), check_failure=False)
            server.shutdown()
    first = results["first"]
    assert (first[0].comp_code, first[0].reason) == (mq.MQCC_FAILED, mq.MQRC_UNEXPECTED_ERROR)
    # The inquiry was run again after the failure: LOST.Q is not there, and never was on disk.
    (names_answer,) = results["second"]
    listed = names_answer.get(mq.MQCACF_Q_NAMES)
    assert listed is not None and [v.strip() for v in getattr(listed, "values", ())] == []
    assert [(m.comp_code, m.reason) for m in results["third"]] == [(mq.MQCC_OK, mq.MQRC_NONE)]
    listed_after = after[0].get(mq.MQCACF_Q_NAMES)
    on_disk_and_in_memory = [v.strip() for v in getattr(listed_after, "values", ())]
    assert "KEPT.Q" in on_disk_and_in_memory
    assert "LOST.Q" not in on_disk_and_in_memory


class _Recorded(Job):
    """A job that changes nothing; it counts as released when the committer says so."""

    __slots__ = ("released",)

    def __init__(self) -> None:
        super().__init__()
        self.released = trio.Event()

    def apply(self, engine: PipelinedEngine) -> None:
        self.batch = Batch((), [], [], [], [])

    def release(self, answers: list[list[Message]], failure: BaseException | None) -> None:
        self.released.set()

    def lost(self) -> None:
        self.released.set()


class _ThreadRecorder(GatedEngine):
    def __init__(self) -> None:
        super().__init__(open_engine(None))
        self.threads: list[int] = []

    def commit(self, batch: Batch) -> None:
        self.threads.append(threading.get_ident())


async def test_by_default_on_two_cpus_a_lone_job_commits_on_the_loop_and_a_group_in_the_thread(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda _: {0, 1})
    engine = _ThreadRecorder()
    committer = Committer(engine)
    loop_thread = threading.get_ident()
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(committer.run)
            lone = _Recorded()
            committer.submit(lone)
            await lone.released.wait()
            group = [_Recorded() for _ in range(3)]
            for job in group:
                committer.submit(job)  # submitted together: one group of three
            for job in group:
                await job.released.wait()
            committer.close()
    assert len(engine.threads) == 2
    assert engine.threads[0] == loop_thread
    assert engine.threads[1] != loop_thread
    # Told where, the committer does not choose: every group in the thread, or every one on the loop.
    assert not Committer(engine, in_thread=True).lone_on_loop
    assert not Committer(engine, in_thread=False).in_thread
    monkeypatch.setattr(os, "sched_getaffinity", lambda _: set(range(8)))
    assert not Committer(engine).lone_on_loop


class _FailingEngine(GatedEngine):
    """A real engine whose next commit fails at once (``fail`` set), recording the thread of every commit."""

    def __init__(self) -> None:
        super().__init__(open_engine(None))
        self.fail = False
        self.threads: list[int] = []

    def commit(self, batch: Batch) -> None:
        self.threads.append(threading.get_ident())
        if self.fail:
            self.fail = False
            raise OSError("disk full")
        self.inner.commit(batch)


async def test_a_lone_job_commits_in_the_callers_task_and_a_busy_committer_takes_it_in_a_group(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda _: {0, 1})
    engine = _FailingEngine()
    committer = Committer(engine)
    with trio.fail_after(10):
        async with trio.open_nursery() as nursery:
            nursery.start_soon(committer.run)
            await trio.sleep(0.01)  # the committer parks, waiting for work
            lone = _Recorded()
            assert committer.run_now(lone)  # applied, committed and released before it returns
            assert lone.released.is_set() and committer.groups == 1
            assert engine.threads == [threading.get_ident()]
            waiting = _Recorded()
            committer.submit(waiting)  # not yet committed: a job now would join its group, not overtake it
            behind = _Recorded()
            assert not committer.run_now(behind)
            committer.submit(behind)
            await waiting.released.wait()
            await behind.released.wait()
            assert committer.groups == 2  # the two together
            committer.close()


async def test_a_lone_rest_put_whose_commit_fails_is_refused_and_leaves_nothing(tmp_path: Any) -> None:
    """Over one HTTP connection (the lone-request path): the put whose commit fails answers an error, the
    message is not on the queue, and the next put commits normally."""
    import httpx

    from pcfserver.server.service import Service

    inner = open_engine(None)
    inner.execute(_create("LONE.Q"))
    engine = _FailingEngine()
    engine.inner = inner
    engine.messaging = inner.messaging  # type: ignore[attr-defined]
    engine.apply_operation = inner.apply_operation  # type: ignore[attr-defined]
    service = Service(inner, ServerConfig(host="127.0.0.1", port=0, http_port=0, engine_in_thread=False))
    service.committer.pipelined = engine  # type: ignore[assignment]
    taken: list[bool] = []
    run_now = service.committer.run_now
    service.committer.run_now = lambda job: taken.append(run_now(job)) or taken[-1]  # type: ignore[method-assign]
    path = "/ibmmq/rest/v2/messaging/qmgr/QM1/queue/LONE.Q/message"
    headers = {"ibm-mq-rest-csrf-token": "x", "Content-Type": "text/plain;charset=utf-8"}
    with trio.fail_after(20):
        async with trio.open_nursery() as nursery:
            addresses = await nursery.start(service.serve)
            async with httpx.AsyncClient(base_url=f"http://127.0.0.1:{addresses.http[1]}", timeout=10) as client:
                engine.fail = True
                refused = await client.post(path, content=b"lost", headers=headers)
                assert refused.status_code >= 500, refused.text
                assert inner.messaging.queues["LONE.Q"].depth == 0
                kept = await client.post(path, content=b"kept", headers=headers)
                assert kept.status_code == 201
                got = await client.delete(path, headers=headers)
                assert (got.status_code, got.content) == (200, b"kept")
            service.shutdown()
    assert taken == [True, True, True]  # each committed in its request's task
    assert len(engine.threads) == 3 and set(engine.threads) == {threading.get_ident()}
