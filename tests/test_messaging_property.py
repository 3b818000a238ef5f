"""Hypothesis: random puts, gets, browses, commits, backouts and session ends against a plain model of
the queues (priority order, units of work, MaxUncommittedMsgs, MaxQDepth, backout counts)."""

from __future__ import annotations

from dataclasses import dataclass, field

from engine_support import command, create
from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from pcfserver import MQIError, QueueManager, Session, mq, open_queue_manager
from pcfserver.codec import Integer

QUEUES = ("Q1", "Q2")
MAX_DEPTH = 4
MAX_UNCOMMITTED = 3


@dataclass
class ModelMessage:
    body: bytes
    priority: int
    put_by: int | None
    got_by: int | None = None
    backout: int = 0


@dataclass
class ModelSession:
    count: int = 0
    cursor: dict[str, int] = field(default_factory=dict)  # queue -> index in delivery order of the last browsed body


class Messaging(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.qm: QueueManager = open_queue_manager()
        self.qm.execute(command(mq.MQCMD_CHANGE_Q_MGR, Integer(mq.MQIA_MAX_UNCOMMITTED_MSGS, MAX_UNCOMMITTED)))
        for name in QUEUES:
            self.qm.execute(create(name, mq.MQQT_LOCAL, Integer(mq.MQIA_MAX_Q_DEPTH, MAX_DEPTH)))
        self.contexts = [self.qm.session() for _ in range(3)]
        self.sessions: list[Session] = [c.__enter__() for c in self.contexts]
        self.model_sessions = [ModelSession() for _ in range(3)]
        self.queues: dict[str, list[ModelMessage]] = {name: [] for name in QUEUES}
        self.counter = 0

    def teardown(self) -> None:
        self.qm.close()

    # ------------------------------------------------------------------ model

    def _order(self, queue: str) -> list[ModelMessage]:
        """Messages in delivery order: priority descending, arrival within a priority."""
        indexed = list(enumerate(self.queues[queue]))
        return [m for _, m in sorted(indexed, key=lambda p: (-p[1].priority, p[0]))]

    def _expect(self, call: object, expected_reason: int) -> object:
        try:
            result = call()  # type: ignore[operator]
        except MQIError as error:
            assert error.reason == expected_reason, (error.reason, expected_reason)
            return None
        assert expected_reason == 0, f"expected {expected_reason}, the call succeeded"
        return result

    # ------------------------------------------------------------------ rules

    @rule(who=st.integers(0, 2), queue=st.sampled_from(QUEUES), priority=st.integers(0, 9), syncpoint=st.booleans())
    def put(self, who: int, queue: str, priority: int, syncpoint: bool) -> None:
        self.counter += 1
        body = f"m{self.counter}".encode()
        model = self.model_sessions[who]
        depth = sum(1 for m in self.queues[queue] if m.got_by is None)
        if depth >= MAX_DEPTH:
            expected = mq.MQRC_Q_FULL
        elif syncpoint and model.count + 1 > MAX_UNCOMMITTED:
            expected = mq.MQRC_SYNCPOINT_LIMIT_REACHED
        else:
            expected = 0
        self._expect(lambda: self.sessions[who].put(queue, body, priority=priority, syncpoint=syncpoint), expected)
        if expected == 0:
            self.queues[queue].append(ModelMessage(body, priority, who if syncpoint else None))
            if syncpoint:
                model.count += 1

    @rule(who=st.integers(0, 2), queue=st.sampled_from(QUEUES), syncpoint=st.booleans())
    def get(self, who: int, queue: str, syncpoint: bool) -> None:
        model = self.model_sessions[who]
        candidates = [m for m in self._order(queue) if m.put_by is None and m.got_by is None]
        if not candidates:
            expected = mq.MQRC_NO_MSG_AVAILABLE
        elif syncpoint and model.count + 1 > MAX_UNCOMMITTED:
            expected = mq.MQRC_SYNCPOINT_LIMIT_REACHED
        else:
            expected = 0
        result = self._expect(lambda: self.sessions[who].get(queue, syncpoint=syncpoint), expected)
        if expected:
            return
        chosen = candidates[0]
        assert isinstance(result, tuple)
        md, body = result
        assert body == chosen.body and md.backout_count == chosen.backout and md.priority == chosen.priority
        if syncpoint:
            chosen.got_by = who
            model.count += 1
        else:
            self.queues[queue].remove(chosen)

    @rule(who=st.integers(0, 2), queue=st.sampled_from(QUEUES))
    def browse(self, who: int, queue: str) -> None:
        visible = [m for m in self._order(queue) if m.put_by is None and m.got_by is None]
        try:
            _md, body = self.sessions[who].get(queue, browse=True)
        except MQIError as error:
            assert error.reason == mq.MQRC_NO_MSG_AVAILABLE
            return
        assert body in [m.body for m in visible]

    @rule(who=st.integers(0, 2))
    def commit(self, who: int) -> None:
        self.sessions[who].commit()
        for queue in QUEUES:
            kept = []
            for m in self.queues[queue]:
                if m.got_by == who:
                    continue
                if m.put_by == who:
                    m.put_by = None
                kept.append(m)
            self.queues[queue] = kept
        self.model_sessions[who].count = 0

    @rule(who=st.integers(0, 2))
    def backout(self, who: int) -> None:
        self.sessions[who].backout()
        self._backed_out(who)

    def _backed_out(self, who: int) -> None:
        for queue in QUEUES:
            kept = []
            for m in self.queues[queue]:
                if m.put_by == who:
                    continue
                if m.got_by == who:
                    m.got_by = None
                    m.backout += 1
                kept.append(m)
            self.queues[queue] = kept
        self.model_sessions[who].count = 0

    @precondition(lambda self: True)
    @rule(who=st.integers(0, 2))
    def reconnect(self, who: int) -> None:
        """The session ends without commit (backed out) and a new one takes its place."""
        self.contexts[who].__exit__(None, None, None)
        self._backed_out(who)
        self.contexts[who] = self.qm.session()
        self.sessions[who] = self.contexts[who].__enter__()
        self.model_sessions[who] = ModelSession()

    # ------------------------------------------------------------------ invariants

    @invariant()
    def depths_match(self) -> None:
        layer = self.qm.engine.messaging
        for queue in QUEUES:
            depth, _, _ = layer.status(queue)
            assert depth == sum(1 for m in self.queues[queue] if m.got_by is None)
            assert layer.uncommitted(queue) == sum(1 for m in self.queues[queue] if m.put_by is not None or m.got_by is not None)


Messaging.TestCase.settings = settings(max_examples=150, stateful_step_count=40, deadline=None)
TestMessagingModel = Messaging.TestCase
