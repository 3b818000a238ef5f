"""One committer for every listener: group commit of PCF commands and message operations alike.

A listener (the PCF port, the HTTP port) turns what a client asked for into a :class:`Job` and
hands it to :meth:`Committer.submit`, which applies it to the engine in memory at once (the event
loop serialises every change).  The committer task then commits everything applied since its
last commit as one transaction and releases each job: only then does a client see an answer, so
no answer ever reflects a change that is not on disk.  While one group commits, the next one
gathers (group commit pipelined over time).

Gets that wait for a message park in :class:`Arrivals` until a change names their queue.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Protocol, TypeVar, cast

import trio

from pcfserver import mq
from pcfserver.codec import Message
from pcfserver.engine.authority import Identity
from pcfserver.engine.engine import Batch
from pcfserver.engine.responses import error_responses
from pcfserver.engine.wal import usable_cpus
from pcfserver.server.logs import LOGGER_NAME

if TYPE_CHECKING:
    import outcome  # (trio's own dependency: what a worker thread hands back)

log = logging.getLogger(LOGGER_NAME)
_A = TypeVar("_A")
_R = TypeVar("_R")


class Engine(Protocol):
    """What the server needs of the engine (see ``pcfserver.engine``)."""

    def execute_batch(self, commands: Sequence[Message]) -> list[list[Message]]: ...


class PipelinedEngine(Engine, Protocol):
    """An engine that applies in memory and commits separately (``pcfserver.engine.Engine``)."""

    def apply_batch(
        self, commands: Sequence[Message], identity: Identity | None = None, origin: tuple[str, str] | None = None
    ) -> tuple[list[list[Message]], Batch]: ...

    def commit(self, batch: Batch) -> None: ...

    def commit_owing(self, batch: Batch) -> int | None: ...

    def settle(self) -> None: ...

    def sync_events(self) -> bool: ...

    def body_bytes(self, batch: Batch) -> int: ...

    def abort(self, batch: Batch, exc: BaseException) -> list[list[Message]]: ...


# Under --commit-in auto, a group whose message bodies come to this many bytes or fewer is written into the store on
# the event loop, its sync handed to the store's io_uring and awaited among the sockets; a larger group is written and
# synced in the worker thread, where SQLite copies the bodies without holding the event loop (formats/
# messaging-rules.tsv, "where a group commit runs").
LOOP_COMMIT_BYTES = 16 * 1024


def commit_in_thread(choice: bool | None) -> bool:
    """Whether commits may run in a worker thread (``choice``; by default yes, see :func:`lone_commits_on_loop`).

    A worker thread lets the event loop serve connections while a commit waits for the disk.
    """
    return True if choice is None else choice


def lone_commits_on_loop(choice: bool | None) -> bool:
    """Whether a group of one job commits on the event loop although commits may run in a thread:
    by default (``choice`` None) with two CPUs or fewer.

    Each hand-over to the thread and back needs a free CPU: with two CPUs or fewer, shared with
    clients, the thread often waits for one (0.6-0.8 ms per hand-over measured on two CPUs with
    the benchmark's clients), which a lone client pays on every request, and nobody else is
    waiting for the loop then.  A group of several jobs means other connections are busy: the
    loop blocked in fsync stalls all of them (measured on the same two CPUs with sixteen clients
    while other processes loaded the disk: 220 pairs/s on the loop, 330-390 in the thread).
    """
    if choice is not None:
        return False
    return usable_cpus() <= 2


class Job:
    """Something a client asked for: applied in memory by :meth:`apply`, answered by :meth:`release`.

    ``commands`` are the PCF commands the job carries (empty for a message operation); the
    committer hands each job the answers to its own commands.
    """

    __slots__ = ("batch",)
    commands: Sequence[Message] = ()
    # Whether a group holding this job may commit in the worker thread on a machine of two CPUs or fewer (see
    # lone_commits_on_loop).  PCF commands say no: their connections only read and decode while a commit runs, and
    # bench_server measured PCF request-response at 8 and 64 connections at half the rate with groups committed in
    # the thread on two CPUs (the hand-overs waited for a CPU); REST requests gain from it (HTTP work overlaps fsync).
    thread_on_small_machines = True

    def __init__(self) -> None:
        self.batch: Batch | None = None

    def apply(self, engine: PipelinedEngine) -> None:
        raise NotImplementedError

    def release(self, answers: list[list[Message]], failure: BaseException | None) -> None:
        """The job's changes are durable (or, with ``failure``, undone because the commit failed)."""
        raise NotImplementedError

    def lost(self) -> None:
        """The server stopped before the job's changes could be made durable."""
        raise NotImplementedError


class Arrivals:
    """Gets waiting for a message on a queue, woken when the message layer notes an arrival there.

    Every arrival gets a sequence number, so that a get that found nothing can tell whether
    something arrived between its attempt and its wait (and try again at once).
    """

    def __init__(self, arrivals: set[str] | None) -> None:
        self._arrivals = arrivals
        self._waiting: dict[str, set[trio.Event]] = {}
        self._last: dict[str, int] = {}
        self.seq = 0

    def notify(self) -> None:
        arrivals = self._arrivals
        if not arrivals:
            return
        self.seq += 1
        for name in arrivals:
            self._last[name] = self.seq
            events = self._waiting.pop(name, None)
            if events:
                for event in events:
                    event.set()
        arrivals.clear()

    def last(self, queue: str) -> int:
        """The sequence number of the last arrival on ``queue`` (0 if none yet)."""
        return self._last.get(queue, 0)

    async def wait(self, queue: str, deadline: float, event: trio.Event | None = None) -> None:
        """Until something arrives on ``queue`` (a local queue's name), ``event`` is set or the deadline passes."""
        if event is None:
            event = trio.Event()
        self._waiting.setdefault(queue, set()).add(event)
        try:
            with trio.move_on_at(deadline):
                await event.wait()
        finally:
            events = self._waiting.get(queue)
            if events is not None:
                events.discard(event)
                if not events:
                    del self._waiting[queue]


class Committer:
    """Makes jobs durable in groups, in the order they were applied; one per engine.

    ``run`` is the committer task.  ``close`` asks it to end once everything submitted is
    released; jobs it can no longer commit are :meth:`Job.lost`.  ``after_group`` hooks run once
    per released group (a listener writes its command log there).
    """

    def __init__(self, engine: Engine, *, in_thread: bool | None = None) -> None:
        self.engine = engine
        self.choice = in_thread
        self.in_thread = commit_in_thread(in_thread)
        self.lone_on_loop = lone_commits_on_loop(in_thread)
        self.pipelined: PipelinedEngine | None = cast(PipelinedEngine, engine) if hasattr(engine, "apply_batch") else None
        messaging = getattr(engine, "messaging", None)
        self.arrivals = Arrivals(getattr(messaging, "arrivals", None))
        self.after_group: list[Callable[[], None]] = []
        self.groups = 0
        self._pending: list[Job] = []
        self._in_flight: list[Job] = []
        self._task: trio.lowlevel.Task | None = None
        self._closing = False
        self._group_syncing = False  # a group's sync is in flight on the store's ring (see settle)
        self.gone = False

    def submit(self, job: Job) -> bool:
        """Applies the job (in memory, at once, when the engine can) for the committer to make
        durable and release; False when the committer can no longer do that."""
        if self.gone:
            return False
        if self.pipelined is not None:
            job.apply(self.pipelined)
            self.arrivals.notify()
        self._pending.append(job)
        self._wake()
        return True

    def run_now(self, job: Job) -> bool:
        """Applies and commits ``job`` in the caller's task when it would be a group of one committed on the event
        loop anyway: the committer idle with nothing submitted, the commit due on the loop, and no other task ready
        to run.  True: done and released.  False: ``submit`` it instead.  The caller says it has no other request
        in progress (a lone client); with several, their jobs must gather into groups (one fsync for many).

        It spares the hand-over's task switches (the committer woken, then the caller): 2.6% of the instructions of
        a REST put+get pair over one connection.  The job is released with its commit's sync still owed
        (``commit_owing``): the caller builds its answer while the disk writes, and :meth:`settle` before any byte
        of it goes out."""
        engine = self.pipelined
        if (
            engine is None
            or self._pending
            or self._in_flight
            or self._task is None  # the committer task is not parked waiting for work (or has ended)
            or self._closing
            or (self.in_thread and not self.lone_on_loop)
            or trio.lowlevel.current_statistics().tasks_runnable
        ):
            return False
        job.apply(engine)
        self.arrivals.notify()
        batch = cast(Batch, job.batch)
        try:
            engine.commit_owing(batch)
        except Exception as exc:
            self._release([job], engine.abort(batch, exc), exc)
            return True
        self._release([job], batch.answers, None)
        return True

    def settle(self) -> None:
        """Returns once every change the engine has written is durable: each listener calls it before an answer
        leaves, so none reflects a change a lone request's commit left owed (``run_now``).  Raises OSError if the
        disk failed to make one durable: that answer must not go out.

        While a group's sync is in flight on the ring (:meth:`_commit_on_ring`) it returns at once: what was written
        before the group is durable already (the group's sync was started only once the one before it had ended), and
        no answer that reflects the group's own changes goes out before the group is released (a job applied after
        it is released with the group behind it)."""
        if self.pipelined is not None and not self._group_syncing:
            self.pipelined.settle()

    def unsettled(self) -> OSError | None:
        """:meth:`settle` for a listener about to answer: None when the answer may go out; else the disk's failure,
        logged here at CRITICAL (event store_failed), and the answer must not go out: the listener closes the
        connection instead."""
        try:
            self.settle()
        except OSError as exc:
            log.critical("%s: the answer is not sent and the connection closed", exc, extra={"event": "store_failed"})
            return exc
        return None

    def close(self) -> None:
        self._closing = True
        self._wake()

    def _wake(self) -> None:
        task, self._task = self._task, None
        if task is not None:
            trio.lowlevel.reschedule(task)

    def _abort_wait(self, _: object) -> trio.lowlevel.Abort:
        self._task = None
        return trio.lowlevel.Abort.SUCCEEDED

    async def run(self) -> None:
        """Takes every job submitted since its last round and makes it durable as one group.

        With a pipelined engine the jobs are applied already: their batches, joined, are
        committed in one transaction (in a worker thread, or on the event loop: see
        ``commit_in_thread``) while listeners apply the next group.  If a commit fails, the
        group applied behind it (which may have seen the failed group's changes) is undone
        first, then the failed group; the failed group is released with the failure, and the
        group behind is applied again on the state without it and committed in the next round.
        Other engines run each group's commands with ``execute_batch``.
        """
        try:
            while True:
                if not self._pending:
                    if self._closing:
                        return
                    self._task = trio.lowlevel.current_task()
                    await trio.lowlevel.wait_task_rescheduled(self._abort_wait)
                    continue
                jobs, self._pending = self._pending, []
                self._in_flight = jobs
                if self.pipelined is not None:
                    await self._commit_group(self.pipelined, jobs)
                else:
                    self._release(jobs, await self._run_batch([c for job in jobs for c in job.commands]), None)
                self._in_flight = []
        finally:
            self.gone = True
            self._task = None
            lost, self._in_flight, self._pending = [*self._in_flight, *self._pending], [], []
            for job in lost:
                job.lost()

    async def _commit_group(self, engine: PipelinedEngine, jobs: list[Job]) -> None:
        group = Batch.joined([cast(Batch, job.batch) for job in jobs])
        try:
            on_loop = len(jobs) == 1 or not any(job.thread_on_small_machines for job in jobs)
            if len(jobs) > 1 and self._on_ring(engine, group, on_loop):
                await self._commit_on_ring(engine, group)
            else:
                await self.where_commits_run(engine.commit, group, lone=on_loop)
        except Exception as exc:
            waiting = self._pending
            if waiting:
                engine.abort(Batch.joined([cast(Batch, job.batch) for job in waiting]), exc)
            self._release(jobs, engine.abort(group, exc), exc)
            for job in waiting:
                job.apply(engine)
            self.arrivals.notify()
            return
        self._release(jobs, group.answers, None)

    def _on_ring(self, engine: PipelinedEngine, group: Batch, on_loop: bool) -> bool:
        """Whether a group of several jobs is written on the event loop and its sync awaited on the store's io_uring:
        never with ``--commit-in thread`` or without a ring; always with ``loop``; by default when the group is due on
        the loop anyway or writes at most ``LOOP_COMMIT_BYTES`` of message bodies.  (A lone job's group is committed
        as before, with fdatasync: nothing overlaps its sync, and the hop to the kernel's worker made one PCF
        connection's commands 6% slower; a lone REST request's commit, whose answer is built meanwhile, is run_now's.)"""
        if self.choice is True or not engine.sync_events():
            return False
        return self.choice is False or on_loop or engine.body_bytes(group) <= LOOP_COMMIT_BYTES

    async def _commit_on_ring(self, engine: PipelinedEngine, group: Batch) -> None:
        """The group written into the store here, its sync handed to the kernel, and the event loop free for every
        other connection until the sync's eventfd says it has ended (without a ring after all, synced here)."""
        event = engine.commit_owing(group)
        if event is not None:
            self._group_syncing = True
            try:
                with trio.CancelScope(shield=True):  # (a commit runs whole, as in the worker thread)
                    await trio.lowlevel.wait_readable(event)
            finally:
                self._group_syncing = False
        engine.settle()

    def _release(self, jobs: list[Job], answers: list[list[Message]], failure: BaseException | None) -> None:
        """Each job gets the answers to its commands, in order (their changes are durable)."""
        self.groups += 1
        i = 0
        for job in jobs:
            n = len(job.commands)
            job.release(answers[i : i + n], failure)
            i += n
        for hook in self.after_group:
            hook()

    async def _run_batch(self, commands: list[Message]) -> list[list[Message]]:
        try:
            answers = await self.where_commits_run(self.engine.execute_batch, commands)
            if len(answers) == len(commands):
                return answers
            log.error("engine answered %d commands of %d", len(answers), len(commands), extra={"event": "engine_error"})
        except Exception:
            log.exception("engine failed on a batch of %d commands", len(commands), extra={"event": "engine_error"})
        if len(commands) == 1:
            return [error_responses(commands[0], mq.MQRC_UNEXPECTED_ERROR)]
        # Run them one at a time so that one command that upsets the engine fails alone.
        out: list[list[Message]] = []
        for command in commands:
            out.extend(await self._run_batch([command]))
        return out

    async def where_commits_run(self, call: Callable[[_A], _R], arg: _A, *, lone: bool = False) -> _R:
        """``call(arg)`` in the worker thread or on the event loop, as ``--commit-in`` chose (``lone``: for one job)."""
        if self.in_thread and not (lone and self.lone_on_loop):
            return await in_worker_thread(call, arg)
        return call(arg)


async def in_worker_thread(call: Callable[[_A], _R], arg: _A) -> _R:
    """``call(arg)`` in one of trio's cached worker threads; the caller waits, not cancellable (a commit runs whole).

    What ``trio.to_thread.run_sync`` does for a commit without its extras (a capacity limiter, cancellation, a
    context copy, calls back into trio, and naming the thread: two prctl calls per commit): with sixteen REST
    clients a commit is made every seven requests or so, and each of those extras cost the event loop's thread."""
    task = trio.lowlevel.current_task()
    token = trio.lowlevel.current_trio_token()

    def deliver(result: outcome.Outcome[_R]) -> None:
        try:
            token.run_sync_soon(trio.lowlevel.reschedule, task, result)
        except trio.RunFinishedError:  # pragma: no cover - the waiting task cannot be cancelled, so the run waits for it
            pass

    trio.lowlevel.start_thread_soon(lambda: call(arg), deliver)
    result: _R = await trio.lowlevel.wait_task_rescheduled(_no_abort)
    return result


def _no_abort(_: object) -> trio.lowlevel.Abort:
    return trio.lowlevel.Abort.FAILED

