"""Property: random create/copy/change/delete sequences agree with a simple model of the registry.

The model is a dict name -> (type, tracked attributes) with the documented rules: Create takes
unspecified attributes from the type's default object (which the sequence may change or delete),
Copy from the source, Change only touches what it is given, and the reasons 4001/4002/4003/2085.
"""

from __future__ import annotations

import tempfile
from pathlib import Path
from typing import Any

from engine_support import IBM_QUEUES, change, command, copy, create, delete, qname, reason, reason_text, run
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pcfserver import mq
from pcfserver.codec import (
    ByteString,
    Integer,
    Integer64,
    IntegerFilter,
    IntegerList,
    Message,
    Parameter,
    String,
    StringFilter,
    StringList,
)
from pcfserver.engine import Engine, open_engine
from pcfserver.engine.spec import spec

L, M, A, R = mq.MQQT_LOCAL, mq.MQQT_MODEL, mq.MQQT_ALIAS, mq.MQQT_REMOTE
DEFAULT_OBJECTS = {
    "SYSTEM.DEFAULT.LOCAL.QUEUE": L,
    "SYSTEM.DEFAULT.MODEL.QUEUE": M,
    "SYSTEM.DEFAULT.ALIAS.QUEUE": A,
    "SYSTEM.DEFAULT.REMOTE.QUEUE": R,
}
NAMES = ["APP.A", "APP.B", "APP.C", "SYSTEM.DEFAULT.LOCAL.QUEUE", "SYSTEM.DEFAULT.ALIAS.QUEUE"]
TYPES = [L, M, A, R]
# Tracked attributes: id -> strategy of valid values.
TRACKED: dict[int, st.SearchStrategy[Any]] = {
    mq.MQIA_MAX_Q_DEPTH: st.integers(0, 999999999),
    mq.MQIA_DEF_PRIORITY: st.integers(0, 9),
    mq.MQIA_INHIBIT_PUT: st.sampled_from([0, 1]),
    mq.MQCA_Q_DESC: st.text(alphabet="abc XYZ.", max_size=64).map(str.rstrip),
    mq.MQCA_TRIGGER_DATA: st.text(alphabet="tuv", max_size=64),
    mq.MQCA_BASE_OBJECT_NAME: st.sampled_from(["", "APP.A", "T.B"]),
}
APPLIES = {pid: spec().queue_attributes[pid].applies for pid in TRACKED}


def attribute_sets(kind: int) -> st.SearchStrategy[dict[int, Any]]:
    usable = {pid: strat for pid, strat in TRACKED.items() if kind in APPLIES[pid]}
    return st.fixed_dictionaries({}, optional=usable)


@st.composite
def operations(draw: st.DrawFn) -> tuple[Any, ...]:
    op = draw(st.sampled_from(["create", "copy", "change", "delete"]))
    kind = draw(st.sampled_from(TYPES))
    attrs = draw(attribute_sets(kind))
    if op == "create":
        return ("create", draw(st.sampled_from(NAMES)), kind, attrs, draw(st.booleans()))
    if op == "copy":
        return ("copy", draw(st.sampled_from(NAMES)), draw(st.sampled_from(NAMES)), kind, attrs, draw(st.booleans()))
    if op == "change":
        return ("change", draw(st.sampled_from(NAMES)), kind, attrs)
    return ("delete", draw(st.sampled_from(NAMES)))


def params(attrs: dict[int, Any]) -> list[Parameter]:
    return [String(pid, v) if isinstance(v, str) else Integer(pid, v) for pid, v in attrs.items()]


class Model:
    def __init__(self, engine: Engine) -> None:
        self.queues: dict[str, tuple[int, dict[int, Any]]] = {}
        self.table: dict[int, dict[int, Any]] = {}
        for name, kind in DEFAULT_OBJECTS.items():
            tracked = read(engine, name)
            assert tracked is not None
            self.queues[name] = (kind, tracked[1])
            self.table[kind] = dict(tracked[1])
        for name, kind in IBM_QUEUES.items():  # made at first start too; the sequences name only the defaults
            if name not in DEFAULT_OBJECTS:
                tracked = read(engine, name)
                assert tracked is not None
                self.queues[name] = (kind, tracked[1])

    def defaults(self, kind: int) -> dict[int, Any]:
        for name, k in DEFAULT_OBJECTS.items():
            if k == kind and name in self.queues and self.queues[name][0] == kind:
                return dict(self.queues[name][1])
        return dict(self.table[kind])

    def apply(self, op: tuple[Any, ...]) -> int:
        queues = self.queues
        if op[0] == "create":
            _, name, kind, attrs, replace = op
            if name in queues:
                if queues[name][0] != kind:
                    return mq.MQRCCF_OBJECT_WRONG_TYPE
                if not replace:
                    return mq.MQRCCF_OBJECT_ALREADY_EXISTS
            queues[name] = (kind, {**self.defaults(kind), **attrs})
        elif op[0] == "copy":
            _, source, name, kind, attrs, replace = op
            if source not in queues:
                return mq.MQRC_UNKNOWN_OBJECT_NAME
            if queues[source][0] != kind:
                return mq.MQRCCF_LIKE_OBJECT_WRONG_TYPE
            if name in queues:
                if queues[name][0] != kind:
                    return mq.MQRCCF_OBJECT_WRONG_TYPE
                if not replace:
                    return mq.MQRCCF_OBJECT_ALREADY_EXISTS
            queues[name] = (kind, {**queues[source][1], **attrs})
        elif op[0] == "change":
            _, name, kind, attrs = op
            if name not in queues:
                return mq.MQRC_UNKNOWN_OBJECT_NAME
            if queues[name][0] != kind:
                return mq.MQRCCF_OBJECT_WRONG_TYPE
            queues[name][1].update(attrs)
        else:
            _, name = op
            if name not in queues:
                return mq.MQRC_UNKNOWN_OBJECT_NAME
            del queues[name]
        return mq.MQRC_NONE


def message_for(op: tuple[Any, ...]) -> Any:
    if op[0] == "create":
        _, name, kind, attrs, replace = op
        extra = [Integer(mq.MQIACF_REPLACE, mq.MQRP_YES)] if replace else []
        return create(name, kind, *extra, *params(attrs))
    if op[0] == "copy":
        _, source, name, kind, attrs, replace = op
        extra = [Integer(mq.MQIACF_REPLACE, mq.MQRP_YES)] if replace else []
        return copy(source, name, kind, *params(attrs), *extra)
    if op[0] == "change":
        _, name, kind, attrs = op
        return change(name, kind, *params(attrs))
    return delete(op[1])


def read(engine: Engine, name: str) -> tuple[int, dict[int, Any]] | None:
    answer = engine.execute(command(mq.MQCMD_INQUIRE_Q, qname(name), IntegerList(mq.MQIACF_Q_ATTRS, tuple(TRACKED))))
    if answer[0].reason == mq.MQRC_UNKNOWN_OBJECT_NAME:
        return None
    kind = 0
    attrs: dict[int, Any] = {}
    for p in answer[0].parameters:
        if p.parameter == mq.MQIA_Q_TYPE:
            assert isinstance(p, Integer)
            kind = p.value
        elif isinstance(p, String) and p.parameter != mq.MQCA_Q_NAME:
            attrs[p.parameter] = p.value.rstrip(" ")
        elif isinstance(p, Integer):
            attrs[p.parameter] = p.value
    return kind, attrs


def registry(engine: Engine) -> dict[str, tuple[int, dict[int, Any]]]:
    answer = engine.execute(command(mq.MQCMD_INQUIRE_Q_NAMES, qname("*")))
    names = answer[0].parameters[0]
    assert isinstance(names, StringList)
    out = {}
    for padded in names.values:
        entry = read(engine, padded.rstrip())
        assert entry is not None
        out[padded.rstrip()] = entry
    return out


def check(engine: Engine, ops: list[tuple[Any, ...]], order: str) -> Model:
    model = Model(engine)
    for op in ops:
        expected = model.apply(op)
        answer = run(engine, message_for(op), order)
        assert reason(answer) == expected, (op, reason_text(answer))
    assert registry(engine) == model.queues
    return model


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=st.lists(operations(), max_size=25), order=st.sampled_from(["big", "little"]))
def test_random_sequences_match_the_model(ops: list[tuple[Any, ...]], order: str) -> None:
    check(open_engine(), ops, order)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(ops=st.lists(operations(), min_size=5, max_size=20))
def test_random_sequences_survive_a_restart(ops: list[tuple[Any, ...]]) -> None:
    with tempfile.TemporaryDirectory() as tmp:
        engine = open_engine(Path(tmp))
        model = check(engine, ops, "big")
        engine.close()
        engine = open_engine(Path(tmp))
        assert registry(engine) == model.queues
        engine.close()


# Any parameter id the engine knows of, plus some it does not.
IDS = st.one_of(
    st.sampled_from(sorted({p for c in spec().commands.values() for p in c.params} | set(spec().queue_attributes))),
    st.integers(-5, 5000),
)
VALUES = st.integers(-(2**31), 2**31 - 1)
TEXTS = st.text(max_size=70)
ANY_PARAMETER = st.one_of(
    st.builds(Integer, IDS, VALUES),
    st.builds(Integer64, IDS, st.integers(-(2**63), 2**63 - 1)),
    st.builds(String, IDS, TEXTS),
    st.builds(IntegerList, IDS, st.lists(VALUES, max_size=5).map(tuple)),
    st.builds(StringList, IDS, st.lists(TEXTS, max_size=3).map(tuple)),
    st.builds(ByteString, IDS, st.binary(max_size=8)),
    st.builds(IntegerFilter, IDS, st.integers(0, 30), VALUES),
    st.builds(StringFilter, IDS, st.integers(0, 30), TEXTS),
)
PREFIXES = [
    [],
    [qname("APP.A")],
    [qname("APP.A"), Integer(mq.MQIA_Q_TYPE, L)],
    [String(mq.MQCACF_FROM_Q_NAME, "SYSTEM.DEFAULT.LOCAL.QUEUE"), String(mq.MQCACF_TO_Q_NAME, "APP.B"), Integer(mq.MQIA_Q_TYPE, L)],
]


@settings(max_examples=300, deadline=None)
@given(
    code=st.one_of(st.sampled_from(sorted(spec().commands)), st.integers(-3, 300)),
    prefix=st.sampled_from(PREFIXES),
    rest=st.lists(ANY_PARAMETER, max_size=6),
    kind=st.sampled_from([mq.MQCFT_COMMAND, mq.MQCFT_COMMAND_XR, mq.MQCFT_COMMAND_XR, mq.MQCFT_RESPONSE]),
    version=st.sampled_from([1, 2, 3, 3, 0, 4]),
)
def test_any_command_gets_a_well_formed_answer_and_failures_change_nothing(
    code: int, prefix: list[Parameter], rest: list[Parameter], kind: int, version: int
) -> None:
    engine = open_engine()
    before = registry(engine)
    message = Message(code, (*prefix, *rest), type=kind, version=version)
    answer = engine.execute(message)
    assert answer and answer[-1].control == mq.MQCFC_LAST
    assert [m.msg_seq_number for m in answer] == list(range(1, len(answer) + 1))
    if answer[0].comp_code:
        assert answer[-1].reason == mq.MQRCCF_COMMAND_FAILED
        assert answer[0].reason != mq.MQRC_UNEXPECTED_ERROR, answer[0]
        assert registry(engine) == before


# Commands built from a small pool of parameter objects, reused as the server's decoder reuses
# them, so that the engine meets the same parameter lists again (its checks are remembered).
POOL = st.lists(
    st.one_of(
        *(st.builds(Integer, st.just(pid), strat) for pid, strat in TRACKED.items() if pid > 0 and pid < 2000),
        *(st.builds(String, st.just(pid), strat) for pid, strat in TRACKED.items() if pid >= 2000),
        ANY_PARAMETER,
    ),
    min_size=1,
    max_size=8,
)
CODES = [mq.MQCMD_CREATE_Q, mq.MQCMD_CHANGE_Q, mq.MQCMD_COPY_Q, mq.MQCMD_DELETE_Q, mq.MQCMD_INQUIRE_Q, mq.MQCMD_INQUIRE_Q_NAMES]


@settings(max_examples=150, deadline=None)
@given(
    pool=POOL,
    picks=st.lists(
        st.tuples(st.sampled_from(CODES), st.integers(0, len(PREFIXES) - 1), st.lists(st.integers(0, 7), max_size=4), st.sampled_from([1, 3])),
        min_size=1,
        max_size=30,
    ),
)
def test_remembered_checks_answer_as_fresh_ones(pool: list[Parameter], picks: list[tuple[int, int, list[int], int]]) -> None:
    remembering = open_engine()
    fresh = open_engine()
    fresh._parse = fresh._check  # type: ignore[method-assign]
    for code, prefix, chosen, version in picks:
        message = Message(code, (*PREFIXES[prefix], *(pool[i % len(pool)] for i in chosen)), version=version)
        assert remembering.execute(message) == fresh.execute(message), message
    assert registry(remembering) == registry(fresh)


def test_a_repeated_parameter_list_is_checked_once(monkeypatch: Any) -> None:
    engine = open_engine()
    checked: list[int] = []
    real = engine._check

    def counting(cmd: Any, message: Message) -> Any:
        checked.append(message.command)
        return real(cmd, message)

    monkeypatch.setattr(engine, "_check", counting)
    params = (qname("APP.A"), Integer(mq.MQIA_Q_TYPE, L), Integer(mq.MQIA_MAX_Q_DEPTH, 7))
    assert reason(engine.execute(Message(mq.MQCMD_CREATE_Q, params))) == 0
    for _ in range(3):
        assert reason(engine.execute(Message(mq.MQCMD_CHANGE_Q, params))) == 0
    # The same objects in another command, or another version, are checked for that command.
    assert reason(engine.execute(Message(mq.MQCMD_CREATE_Q, params))) == mq.MQRCCF_OBJECT_ALREADY_EXISTS
    assert reason(engine.execute(Message(mq.MQCMD_CHANGE_Q, params, version=2))) == 0
    assert checked == [mq.MQCMD_CREATE_Q, mq.MQCMD_CHANGE_Q, mq.MQCMD_CHANGE_Q]


def test_remembering_rests_while_every_command_is_new_and_comes_back() -> None:
    from pcfserver.engine import engine as engine_module

    engine = open_engine()
    window, rest = engine_module._PARSE_WINDOW, engine_module._PARSE_REST
    for i in range(window):  # a bulk definition: every parameter list is new
        assert reason(engine.execute(create(f"BULK.{i}"))) == 0
    engine.execute(create("ONE.MORE"))
    assert not engine._parsed  # gave up remembering, and let go of what it held
    params = (qname("BULK.1"), Integer(mq.MQIA_Q_TYPE, L), Integer(mq.MQIA_MAX_Q_DEPTH, 7))
    for _ in range(window * (rest + 2)):  # the same change over and over
        assert reason(engine.execute(Message(mq.MQCMD_CHANGE_Q, params))) == 0
    assert len(engine._parsed) == 1
