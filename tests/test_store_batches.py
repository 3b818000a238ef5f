"""Messages committed many at a time are stored many to a row (pcfserver/engine/store_batches.py): what a user sees
after a restart or a crash is exactly what was committed, whether the messages went to a batch row or a row each,
whichever of a batch's messages were got, backed out, cleared or moved since."""

from __future__ import annotations

import pickle
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from engine_support import acknowledged_until_killed, command, create, qname
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pcfserver import MQIError, mq, open_queue_manager
from pcfserver.codec import Integer
from pcfserver.engine import StoreError
from pcfserver.engine.store import SCHEMA_VERSION
from pcfserver.engine.store_batches import BATCH_MIN, load_plain


def _bodies(data: Path, queue: str) -> list[bytes]:
    with open_queue_manager(data) as qm, qm.session() as s:
        out = []
        while True:
            try:
                out.append(s.get(queue, browse=True)[1])
            except MQIError:
                return out


def _rows(data: Path, sql: str) -> int:
    db = sqlite3.connect(data / "registry.sqlite3")
    try:
        return int(db.execute(sql).fetchone()[0])
    finally:
        db.close()


def _setup(data: Path, *queues: str) -> None:
    with open_queue_manager(data) as qm:
        for name in queues:
            qm.execute(create(name, mq.MQQT_LOCAL, Integer(mq.MQIA_MAX_Q_DEPTH, 999_999)))


def _unit(data: Path, queue: str, bodies: list[bytes]) -> None:
    """One session puts ``bodies`` persistently in one unit of work and commits it."""
    with open_queue_manager(data) as qm, qm.session() as s:
        for body in bodies:
            s.put(queue, body, persistent=True, syncpoint=True)
        s.commit()


def test_a_unit_of_many_puts_is_one_row_and_its_gets_delete_it(tmp_path: Path) -> None:
    _setup(tmp_path, "Q")
    bodies = [f"m{k}".encode() for k in range(3 * BATCH_MIN)]
    _unit(tmp_path, "Q", bodies)
    assert _rows(tmp_path, "SELECT count(*) FROM batches") == 1
    assert _rows(tmp_path, "SELECT count(*) FROM messages") == 0
    assert _bodies(tmp_path, "Q") == bodies  # in order, after a reopen
    with open_queue_manager(tmp_path) as qm, qm.session() as s:
        got = [s.get("Q", syncpoint=True)[1] for _ in bodies]
        s.commit()
    assert got == bodies
    assert _rows(tmp_path, "SELECT count(*) FROM batches") == 0
    assert _rows(tmp_path, "SELECT count(*) FROM batch_marks") == 0
    assert _bodies(tmp_path, "Q") == []


def test_a_unit_of_few_puts_keeps_a_row_per_message(tmp_path: Path) -> None:
    _setup(tmp_path, "Q")
    _unit(tmp_path, "Q", [b"%d" % k for k in range(BATCH_MIN - 1)])
    assert _rows(tmp_path, "SELECT count(*) FROM batches") == 0
    assert _rows(tmp_path, "SELECT count(*) FROM messages") == BATCH_MIN - 1


def test_messages_got_from_a_batch_one_by_one_stay_gone_across_restarts(tmp_path: Path) -> None:
    _setup(tmp_path, "Q", "OTHER.Q")
    with open_queue_manager(tmp_path) as qm, qm.session() as s:
        ids = [s.put("Q" if k % 3 else "OTHER.Q", b"m%d" % k, persistent=True, syncpoint=True).msg_id for k in range(2 * BATCH_MIN)]
        s.commit()
        s.get("Q", msg_id=ids[4])  # outside a unit of work: a single delete of a batched message
        s.get("Q", msg_id=ids[7], syncpoint=True)
        s.commit()
        s.get("Q", msg_id=ids[8], syncpoint=True)
        s.backout()  # got and backed out: stays, with BackoutCount 1
    expected = [b"m%d" % k for k in range(2 * BATCH_MIN) if k % 3 and k not in (4, 7)]
    assert _bodies(tmp_path, "Q") == expected
    assert _bodies(tmp_path, "OTHER.Q") == [b"m%d" % k for k in range(2 * BATCH_MIN) if k % 3 == 0]
    with open_queue_manager(tmp_path) as qm, qm.session() as s:
        md, body = s.get("Q", msg_id=ids[8])
        assert body == b"m8" and md.backout_count == 1
        qm.execute(command(mq.MQCMD_CLEAR_Q, qname("Q")))
    assert _bodies(tmp_path, "Q") == []
    assert _rows(tmp_path, "SELECT count(*) FROM batches") == 1  # OTHER.Q's messages still hold it
    with open_queue_manager(tmp_path) as qm, qm.session() as s:
        for _ in range(len([k for k in range(2 * BATCH_MIN) if k % 3 == 0])):
            s.get("OTHER.Q")
    assert _rows(tmp_path, "SELECT count(*) FROM batches") == 0
    assert _rows(tmp_path, "SELECT count(*) FROM batch_marks") == 0


def test_a_backed_out_get_keeps_its_backout_count_in_a_batch(tmp_path: Path) -> None:
    _setup(tmp_path, "Q")
    _unit(tmp_path, "Q", [b"m%d" % k for k in range(BATCH_MIN)])
    with open_queue_manager(tmp_path) as qm, qm.session() as s:
        for _ in range(2):
            s.get("Q", syncpoint=True)
            s.backout()
    with open_queue_manager(tmp_path) as qm, qm.session() as s:
        md, body = s.get("Q")
    assert body == b"m0" and md.backout_count == 2


def test_a_batch_that_cannot_be_read_is_reported_on_open(tmp_path: Path) -> None:
    _setup(tmp_path, "Q")
    _unit(tmp_path, "Q", [b"m%d" % k for k in range(BATCH_MIN)])
    db = sqlite3.connect(tmp_path / "registry.sqlite3")
    db.execute("UPDATE batches SET data = ?", (b"\x80\x05not a pickle",))
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="batch of messages cannot be read"):
        open_queue_manager(tmp_path)


def _batch_head(data: Path) -> tuple[bytes, object]:
    """The one batch row's data and its head, as stored."""
    db = sqlite3.connect(data / "registry.sqlite3")
    try:
        (row,) = db.execute("SELECT data FROM batches").fetchall()
    finally:
        db.close()
    size = int.from_bytes(row[0][:4], "big")
    return row[0], load_plain(row[0][4 : 4 + size])


def _rewrite_batch(data: Path, head: object, bodies: bytes, *, schema: int | None = None) -> None:
    encoded = pickle.dumps(head, 5)
    db = sqlite3.connect(data / "registry.sqlite3")
    db.execute("UPDATE batches SET data = ?", (len(encoded).to_bytes(4, "big") + encoded + bodies,))
    if schema is not None:
        db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(schema),))
    db.commit()
    db.close()


def test_a_batch_head_is_written_by_column_once_for_what_every_message_shares(tmp_path: Path) -> None:
    _setup(tmp_path, "Q")
    with open_queue_manager(tmp_path) as qm, qm.session() as s:
        for k in range(BATCH_MIN):
            s.put("Q", b"m%d" % k, persistent=True, priority=k % 3, syncpoint=True)
        s.commit()
    _, head = _batch_head(tmp_path)
    assert isinstance(head, list)
    seqs, queues, levels, lengths, fields = head
    assert levels == [k % 3 for k in range(BATCH_MIN)]  # a priority queue: each message at its priority
    assert len(seqs) == BATCH_MIN and queues == ("Q",) and lengths == [len(b"m%d" % k) for k in range(BATCH_MIN)]
    assert fields[2] == [k % 3 for k in range(BATCH_MIN)]  # the priorities differ
    assert fields[5] == ("MQSTR   ",)  # the format is the same for all: written once
    with open_queue_manager(tmp_path) as qm, qm.session() as s:
        assert [s.get("Q")[0].priority for _ in range(BATCH_MIN)] == sorted((k % 3 for k in range(BATCH_MIN)), reverse=True)


def test_a_batch_row_schema_9_wrote_a_head_per_message_is_still_read(tmp_path: Path) -> None:
    """A database of schema 9 whose batch heads hold a tuple per message opens, upgrades and reads them."""
    _setup(tmp_path, "Q")
    with open_queue_manager(tmp_path) as qm, qm.session() as s:
        put = [s.put("Q", b"m%d" % k, persistent=True, priority=k % 3, syncpoint=True) for k in range(BATCH_MIN)]
        s.commit()
    data, head = _batch_head(tmp_path)
    assert isinstance(head, list)
    n = len(head[0])
    seqs, queues, levels, lengths, *fields = [column * n if type(column) is tuple else column for column in (*head[:4], *head[4])]
    per_message = tuple(zip(seqs, queues, levels, zip(*fields, strict=True), lengths, strict=True))
    _rewrite_batch(tmp_path, per_message, data[4 + int.from_bytes(data[:4], "big") :], schema=9)
    with open_queue_manager(tmp_path) as qm, qm.session() as s:
        got = {s.get("Q")[0].msg_id: None for _ in range(BATCH_MIN)}
    assert list(got) == [md.msg_id for md in sorted(put, key=lambda md: -md.priority)]
    assert _rows(tmp_path, "SELECT value FROM meta WHERE key = 'schema_version'") == SCHEMA_VERSION


@pytest.mark.parametrize(
    "change",
    [
        lambda head: [head[0][:-1], *head[1:]],  # a message's seq missing
        lambda head: [*head[:4], [*head[4][:2], [1, 2], *head[4][3:]]],  # a descriptor column of two values
        lambda head: [head[0], ("A", "B"), *head[2:]],  # a shared value that is not one value
        lambda head: head[:4],  # no descriptor columns
    ],
    ids=["seqs", "descriptor column", "shared column", "no descriptors"],
)
def test_a_batch_head_whose_columns_do_not_line_up_is_reported_on_open(tmp_path: Path, change: Callable[[list[Any]], object]) -> None:
    _setup(tmp_path, "Q")
    _unit(tmp_path, "Q", [b"m%d" % k for k in range(BATCH_MIN)])
    data, head = _batch_head(tmp_path)
    assert isinstance(head, list)
    _rewrite_batch(tmp_path, change(head), data[4 + int.from_bytes(data[:4], "big") :])
    with pytest.raises(StoreError, match="batch of messages cannot be read"):
        open_queue_manager(tmp_path)


def test_a_mark_naming_no_batch_changes_nothing(tmp_path: Path) -> None:
    _setup(tmp_path, "Q")
    _unit(tmp_path, "Q", [b"m%d" % k for k in range(BATCH_MIN)])
    db = sqlite3.connect(tmp_path / "registry.sqlite3")
    db.execute("INSERT INTO batch_marks (batch, seq, md) VALUES (987654, 987654, NULL)")
    db.commit()
    db.close()
    assert _bodies(tmp_path, "Q") == [b"m%d" % k for k in range(BATCH_MIN)]


# A model of what is committed: bodies per queue, in order; each step is done to the queue manager and the model.
_STEPS = st.lists(
    st.one_of(
        st.tuples(st.just("put"), st.sampled_from("AB"), st.integers(0, 3 * BATCH_MIN), st.booleans()),  # a unit of puts, committed?
        st.tuples(st.just("get"), st.sampled_from("AB"), st.integers(0, 2 * BATCH_MIN), st.booleans()),  # a unit of gets, committed?
        st.tuples(st.just("leave"), st.sampled_from("AB"), st.integers(0, 2), st.booleans()),  # gets all but n, committed?
        st.tuples(st.just("pick"), st.sampled_from("AB"), st.integers(0, 1000), st.booleans()),  # one message by MsgId
        st.tuples(st.just("clear"), st.sampled_from("AB"), st.just(0), st.just(True)),
        st.tuples(st.just("reopen"), st.just("A"), st.just(0), st.just(True)),
    ),
    max_size=14,
)


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(steps=_STEPS)
def test_what_a_reopen_finds_is_what_was_committed(tmp_path_factory: pytest.TempPathFactory, steps: list[tuple[str, str, int, bool]]) -> None:
    data = tmp_path_factory.mktemp("qm")
    _setup(data, "A", "B")
    model: dict[str, list[tuple[bytes, bytes]]] = {"A": [], "B": []}  # (msg_id, body)
    serial = 0
    qm = open_queue_manager(data)
    try:
        for kind, queue, n, commit in steps:
            if kind == "reopen":
                qm.close()
                qm = open_queue_manager(data)
                continue
            with qm.session() as s:
                if kind == "put":
                    put = []
                    for _ in range(n):
                        serial += 1
                        body = b"%s-%d" % (queue.encode(), serial)
                        put.append((s.put(queue, body, persistent=True, syncpoint=True).msg_id, body))
                    if commit:
                        s.commit()
                        model[queue] += put
                elif kind in ("get", "leave"):
                    count = min(n, len(model[queue])) if kind == "get" else max(0, len(model[queue]) - n)
                    for _ in range(count):
                        s.get(queue, syncpoint=True)
                    if commit:
                        s.commit()
                        del model[queue][:count]
                elif kind == "pick" and model[queue]:
                    msg_id, body = model[queue][n % len(model[queue])]
                    assert s.get(queue, msg_id=msg_id, syncpoint=not commit)[1] == body
                    if commit:
                        model[queue].remove((msg_id, body))
                elif kind == "clear":
                    qm.execute(command(mq.MQCMD_CLEAR_Q, qname(queue)))
                    model[queue] = []
    finally:
        qm.close()
    for queue in "AB":
        assert _bodies(data, queue) == [body for _, body in model[queue]]
    if not model["A"] and not model["B"]:
        assert _rows(data, "SELECT count(*) FROM batches") == 0
        assert _rows(data, "SELECT count(*) FROM batch_marks") == 0


CHILD = r"""
import sys
from pathlib import Path
from pcfserver import open_queue_manager

qm = open_queue_manager(Path(sys.argv[1]))
i = int(sys.argv[2])
print("READY", flush=True)
with qm.session() as s:
    while True:
        for k in range(40):
            s.put("Q", f"{i} {k}".encode(), persistent=True, syncpoint=True)
        s.commit()
        print(f"ACK PUT {i}", flush=True)
        bodies = [s.get("Q", syncpoint=True)[1].decode() for _ in range(30)]
        s.commit()
        print("ACK GOT " + " ".join(b.replace(" ", ":") for b in bodies), flush=True)
        i += 1
"""


def test_committed_batches_survive_kill_9_and_committed_gets_never_come_back(tmp_path: Path) -> None:
    _setup(tmp_path, "Q")
    put: set[str] = set()
    got: set[str] = set()
    for round_number in range(2):
        for words in acknowledged_until_killed(CHILD, tmp_path, 100_000 * round_number, 0.8):
            if words[1] == "PUT":
                put.update(f"{words[2]} {k}" for k in range(40))
            else:
                got.update(w.replace(":", " ") for w in words[2:])
        assert put, "the child acknowledged nothing"
        bodies = [b.decode() for b in _bodies(tmp_path, "Q")]
        assert len(bodies) == len(set(bodies)), "a message is there twice"
        assert not got & set(bodies), "a message got in a committed unit came back"
        # A unit of gets the kill interrupted may have committed unacknowledged: at most one per round, and gets
        # take the oldest messages, so whatever is unaccounted for comes before every message still there.
        unaccounted = sorted(put - got - set(bodies), key=_order)
        assert len(unaccounted) <= 30 * (round_number + 1), "an acknowledged message was lost"
        assert not unaccounted or not bodies or _order(unaccounted[-1]) < min(map(_order, bodies)), "an acknowledged message was lost"
        units: dict[str, int] = {}
        for body in bodies:
            units[body.split()[0]] = units.get(body.split()[0], 0) + 1
        acknowledged = {p.split()[0] for p in put}
        # a unit whose commit the kill cut before its acknowledgement is there whole or not at all
        assert all(n == 40 for u, n in units.items() if u not in acknowledged), units


def _order(body: str) -> tuple[int, int]:
    unit, k = body.split()
    return int(unit), int(k)
