"""Messages across restarts and crashes: committed persistent messages survive kill -9, uncommitted
work never does, nothing is duplicated; non-persistent messages survive only a clean close of an
NPMCLASS(HIGH) queue; backout counts are kept."""

from __future__ import annotations

import dataclasses
import signal
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from engine_support import change, command, create, qname

from pcfserver import MQIError, mq, open_queue_manager
from pcfserver.codec import Integer
from pcfserver.engine.store import DB_NAME

CHILD = r"""
import sys
from pathlib import Path
from pcfserver import open_queue_manager

qm = open_queue_manager(Path(sys.argv[1]))
start = int(sys.argv[2])
print("READY", flush=True)
with qm.session() as s, qm.session() as consumer:
    i = start
    while True:
        # a unit of work of three persistent puts, then one outside any unit of work
        for k in range(3):
            s.put("DUR.Q", f"uow {i} {k}".encode(), persistent=True, syncpoint=True)
        s.put("DUR.Q", f"lost {i}".encode(), persistent=True, syncpoint=True)
        s.backout()
        for k in range(3):
            s.put("DUR.Q", f"uow {i} {k}".encode(), persistent=True, syncpoint=True)
        s.commit()
        print(f"ACK uow {i}", flush=True)
        s.put("DUR.Q", f"single {i}".encode(), persistent=True)
        print(f"ACK single {i}", flush=True)
        s.put("DUR.Q", f"pending {i}".encode(), persistent=True, syncpoint=True)  # never committed
        s.backout()
        s.put("NP.Q", f"np {i}".encode(), persistent=False)
        if i % 5 == 4:
            # consume one committed message destructively: once its commit returned it must never
            # come back; killed between the get and the acknowledgement, it may be gone or there
            md, body = consumer.get("DUR.Q", syncpoint=True)
            print(f"TAKING {body.decode()}", flush=True)
            consumer.commit()
            print(f"GOT {body.decode()}", flush=True)
        i += 1
"""


def _run_and_kill(data: Path, start: int, seconds: float) -> list[str]:
    child = subprocess.Popen(
        [sys.executable, "-c", CHILD, str(data), str(start)], stdout=subprocess.PIPE, text=True, cwd=Path(__file__).parent.parent
    )
    assert child.stdout is not None
    assert child.stdout.readline().strip() == "READY"
    time.sleep(seconds)
    child.send_signal(signal.SIGKILL)
    out, _ = child.communicate(timeout=30)
    return out.splitlines()


def _bodies(data: Path, queue: str) -> list[str]:
    with open_queue_manager(data) as qm, qm.session() as s:
        out = []
        while True:
            try:
                out.append(s.get(queue, browse=True)[1].decode())
            except MQIError:
                return out


def test_committed_persistent_messages_survive_kill_9_and_nothing_else_does(tmp_path: Path) -> None:
    with open_queue_manager(tmp_path) as qm:
        qm.execute(create("DUR.Q", mq.MQQT_LOCAL, Integer(mq.MQIA_MAX_Q_DEPTH, 999999999)))
        qm.execute(create("NP.Q", mq.MQQT_LOCAL, Integer(mq.MQIA_MAX_Q_DEPTH, 999999999)))
    acked: list[str] = []
    got: set[str] = set()
    taking: set[str] = set()
    start = 0
    for round_number in range(3):
        lines = _run_and_kill(tmp_path, start, 0.6 + 0.3 * round_number)
        for line in lines:
            if line.startswith("ACK uow "):
                acked += [f"uow {line.split()[2]} {k}" for k in range(3)]
            elif line.startswith("ACK single "):
                acked.append(f"single {line.split()[2]}")
            elif line.startswith("GOT "):
                got.add(line[4:])
            elif line.startswith("TAKING "):
                taking.add(line[7:])
        assert acked, "the child acknowledged nothing"
        bodies = _bodies(tmp_path, "DUR.Q")
        assert len(bodies) == len(set(bodies)), "a message is there twice"
        assert not [b for b in bodies if b.startswith(("lost", "pending"))], "uncommitted work survived"
        missing = set(acked) - got - taking - set(bodies)
        assert not missing, f"acknowledged messages lost: {sorted(missing)[:5]}"
        assert not got & set(bodies), "a message got destructively came back"
        # units of work are whole: all three messages of a unit or none
        units: dict[str, int] = {}
        for b in bodies:
            if b.startswith("uow "):
                units[b.split()[1]] = units.get(b.split()[1], 0) + 1
        assert all(n == 3 or any(f"uow {u} {k}" in got | taking for k in range(3)) for u, n in units.items()), units
        assert _bodies(tmp_path, "NP.Q") == []  # non-persistent messages do not survive a crash
        start = 100_000 * (round_number + 1)


def test_npmclass_high_keeps_non_persistent_messages_across_a_clean_close_only(tmp_path: Path) -> None:
    with open_queue_manager(tmp_path) as qm:
        qm.execute(create("HIGH.Q", mq.MQQT_LOCAL, Integer(mq.MQIA_NPM_CLASS, mq.MQNPM_CLASS_HIGH)))
        qm.execute(create("NORMAL.Q", mq.MQQT_LOCAL))
        with qm.session() as s:
            for q in ("HIGH.Q", "NORMAL.Q"):
                s.put(q, b"np", persistent=False)
                s.put(q, b"p", persistent=True)
            s.put("HIGH.Q", b"uncommitted", persistent=False, syncpoint=True)
    assert _bodies(tmp_path, "HIGH.Q") == ["np", "p"]
    assert _bodies(tmp_path, "NORMAL.Q") == ["p"]
    # _bodies closed cleanly again, so HIGH.Q kept its message once more; a crash now must lose it
    qm = open_queue_manager(tmp_path)
    qm.engine._store._db.close()  # type: ignore[attr-defined]  # the process "dies": no clean close
    assert _bodies(tmp_path, "HIGH.Q") == ["p"]


def test_backout_count_and_queue_status_after_restart(tmp_path: Path) -> None:
    with open_queue_manager(tmp_path) as qm:
        qm.execute(create("Q", mq.MQQT_LOCAL))
        with qm.session() as s:
            s.put("Q", b"poison", persistent=True)
            for _ in range(2):
                s.get("Q", syncpoint=True)
                s.backout()
    with open_queue_manager(tmp_path) as qm:
        [answer] = qm.execute(command(mq.MQCMD_INQUIRE_Q_STATUS, qname("Q")))
        status = {p.parameter: getattr(p, "value", None) for p in answer.parameters}
        assert status[mq.MQIA_CURRENT_Q_DEPTH] == 1
        with qm.session() as s:
            md, body = s.get("Q")
        assert body == b"poison" and md.backout_count == 2
        # a queue cleared or deleted with purge takes its stored messages with it
        with qm.session() as s:
            s.put("Q", b"again", persistent=True)
        qm.execute(change("Q", mq.MQQT_LOCAL, Integer(mq.MQIA_MAX_Q_DEPTH, 10)))
        qm.execute(command(mq.MQCMD_CLEAR_Q, qname("Q")))
    assert _bodies(tmp_path, "Q") == []


def test_clear_and_purge_delete_their_queues_rows_only_and_a_version_7_database_loses_the_queue_index(tmp_path: Path) -> None:
    """The messages table has no index by queue (schema 8 drops it): Clear Queue and Delete Queue with
    Purge delete their queue's rows by number, in the same commit as messages put just before, and
    leave every other queue's rows."""
    with open_queue_manager(tmp_path) as qm:
        for name in ("A.Q", "B.Q", "C.Q"):
            qm.execute(create(name, mq.MQQT_LOCAL))
        with qm.session() as s:
            for k in range(6):
                for name in ("A.Q", "B.Q", "C.Q"):
                    s.put(name, f"{name[0]}{k}".encode(), persistent=True)
            s.put("A.Q", b"in the unit", persistent=True, syncpoint=True)
            s.commit()
            s.get("A.Q")  # a hole in A.Q's rows
    db = sqlite3.connect(tmp_path / "registry.sqlite3")
    db.execute("CREATE INDEX messages_queue ON messages (queue)")  # as a version 7 database has it
    db.execute("UPDATE meta SET value='7' WHERE key='schema_version'")
    db.commit()
    db.close()
    with open_queue_manager(tmp_path) as qm:
        qm.execute(command(mq.MQCMD_CLEAR_Q, qname("A.Q")))
        qm.execute(command(mq.MQCMD_DELETE_Q, qname("C.Q"), Integer(mq.MQIACF_PURGE, mq.MQPO_YES)))
    db = sqlite3.connect(tmp_path / "registry.sqlite3")
    assert db.execute("SELECT name FROM sqlite_master WHERE type='index' AND name='messages_queue'").fetchall() == []
    assert db.execute("SELECT queue, count(*) FROM messages GROUP BY queue").fetchall() == [("B.Q", 6)]
    db.close()
    assert _bodies(tmp_path, "B.Q") == [f"B{k}" for k in range(6)]


def test_a_commit_deletes_exactly_the_messages_its_unit_got(tmp_path: Path) -> None:
    """Gets committed together are deleted by runs of consecutive rows and by list: after a reopen
    every message the unit got is gone and every other one is there, even those between the runs."""
    with open_queue_manager(tmp_path) as qm:
        qm.execute(create("Q", mq.MQQT_LOCAL))
        qm.execute(create("OTHER.Q", mq.MQQT_LOCAL))
        with qm.session() as s:
            ids = []
            for k in range(40):
                ids.append(s.put("Q", f"m{k}".encode(), persistent=True).msg_id)
                if k % 10 == 9:
                    s.put("OTHER.Q", f"o{k}".encode(), persistent=True)  # rows between the runs
            taken = [*range(0, 12), *range(14, 15), *range(17, 19), *range(25, 33), 36, 39]
            for k in taken:
                assert s.get("Q", msg_id=ids[k], syncpoint=True)[1] == f"m{k}".encode()
            s.commit()
            s.get("Q", msg_id=ids[13], syncpoint=True)  # got but backed out: stays
            s.backout()
    assert _bodies(tmp_path, "Q") == [f"m{k}" for k in range(40) if k not in taken]
    assert _bodies(tmp_path, "OTHER.Q") == ["o9", "o19", "o29", "o39"]


def test_a_call_whose_commit_fails_is_refused_and_leaves_nothing_behind(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """An MQI call is answered only once durable: when the store cannot commit, the call fails
    with MQRC_RESOURCE_PROBLEM and neither memory nor disk keeps what it did."""
    import sqlite3

    with open_queue_manager(tmp_path) as qm:
        qm.execute(create("Q", mq.MQQT_LOCAL))
        store = qm.engine._store  # type: ignore[attr-defined]
        real_commit = store.commit
        with qm.session() as s:
            s.put("Q", b"kept", persistent=True)
            s.put("Q", b"in a unit", persistent=True, syncpoint=True)

            def failing(ops: object) -> None:
                raise sqlite3.OperationalError("disk I/O error")

            monkeypatch.setattr(store, "commit", failing)
            with pytest.raises(MQIError) as put_failed:
                s.put("Q", b"refused", persistent=True)
            assert put_failed.value.reason == mq.MQRC_RESOURCE_PROBLEM
            with pytest.raises(MQIError) as commit_failed:
                s.commit()
            assert commit_failed.value.reason == mq.MQRC_RESOURCE_PROBLEM
            monkeypatch.setattr(store, "commit", real_commit)
            assert qm.engine.messaging.status("Q")[0] == 2  # "kept" and the unit's put, still uncommitted
            s.commit()  # the unit is whole again and commits now
    assert _bodies(tmp_path, "Q") == ["kept", "in a unit"]


def test_a_restart_within_the_same_second_never_repeats_a_msgid(tmp_path: Path) -> None:
    """MsgIds stay unique across opens of one data directory, however quickly they follow each other (the seconds of
    the open were part of them, and a quick restart repeated the MsgIds of messages still on the queue)."""
    seen: set[bytes] = set()
    for _ in range(3):
        with open_queue_manager(tmp_path) as qm, qm.session() as s:
            for _ in range(3):
                md = s.put("SYSTEM.DEFAULT.LOCAL.QUEUE", b"x", persistent=True)
                assert md.msg_id not in seen
                seen.add(md.msg_id)
    with open_queue_manager(tmp_path) as qm, qm.session() as s:
        kept = {s.get("SYSTEM.DEFAULT.LOCAL.QUEUE")[0].msg_id for _ in range(9)}
    assert kept == seen


@pytest.mark.parametrize("count", [1, 20], ids=["a row each", "a batch row"])
def test_every_descriptor_field_a_put_set_comes_back_after_a_restart(tmp_path: Path, count: int) -> None:
    """What the store keeps of a descriptor is its fields in order: each one set to something of its own (a unit of
    one message keeps a row of its own, one of twenty a batch row) reads back as it was put."""
    data = tmp_path / "data"
    with open_queue_manager(data) as qm:
        qm.execute(create("FIELDS.Q"))
        with qm.session(appl_name="fields test", user="alice") as s:
            put = [
                s.put(
                    "FIELDS.Q", f"body {i}", persistent=True, priority=7, expiry=600_000, correl_id=f"c{i}", msg_id=f"m{i}",
                    reply_to="REPLY.Q@OTHER.QM", format="MQHRF2  ", syncpoint=True,
                )
                for i in range(count)
            ]
            s.commit()
    with open_queue_manager(data) as qm, qm.session() as s:
        for i, sent in enumerate(put):
            md, body = s.get("FIELDS.Q", msg_id=f"m{i}")
            assert body == f"body {i}".encode()
            assert (md.msg_id, md.correl_id) == (f"m{i}".encode().ljust(24, b"\0"), f"c{i}".encode().ljust(24, b"\0"))
            assert (md.priority, md.persistence, md.format) == (7, mq.MQPER_PERSISTENT, "MQHRF2  ")
            assert (md.reply_to_q, md.reply_to_qmgr, md.put_appl_name, md.user_identifier) == ("REPLY.Q", "OTHER.QM", "fields test", "alice")
            assert 0 < md.expiry <= 600_000  # the time left
            assert md == dataclasses.replace(sent, expiry=md.expiry)  # and every other field, the dates included


def test_getting_a_long_message_does_not_rewrite_the_pages_its_body_used(tmp_path: Path) -> None:
    """The store frees a got message's pages without writing zeros over them (formats/messaging-rules.tsv): the get of
    a 64 KB body commits a few WAL frames, not one per 4 KB page of the body (SQLite's secure_delete, on in Debian's
    build, wrote sixteen more)."""
    data = tmp_path / "data"
    wal = data / (DB_NAME + "-wal")
    frame = 24 + 4096
    with open_queue_manager(data) as qm:
        qm.execute(create("LONG.Q"))
        with qm.session() as s:
            s.put("LONG.Q", b"x" * 65536, persistent=True)
            after_put = wal.stat().st_size
            assert s.get("LONG.Q")[1] == b"x" * 65536
            after_get = wal.stat().st_size
    assert after_put > 16 * frame  # the put wrote the body's pages (no checkpoint yet has started the WAL again)
    assert (after_get - after_put) // frame <= 4


def test_the_wal_is_full_length_from_the_start_and_commits_write_over_it(tmp_path: Path) -> None:
    """The store makes its WAL as long as SQLite lets it grow before a checkpoint starts it again (formats/
    messaging-rules.tsv): the commits after a start write over that length instead of lengthening the file, and
    what they committed is there after a crash (the zeros past the last frame read as the WAL's end)."""
    data = tmp_path / "data"
    wal = data / (DB_NAME + "-wal")
    full = 32 + 1000 * (24 + 4096)
    child = subprocess.Popen(
        [sys.executable, "-c", WAL_CHILD, str(data)], stdout=subprocess.PIPE, text=True, cwd=Path(__file__).parent.parent
    )
    assert child.stdout is not None
    sizes = [int(child.stdout.readline()) for _ in range(3)]
    child.send_signal(signal.SIGKILL)
    child.communicate(timeout=30)
    assert sizes == [full, full, full]  # at open, after 450 commits of one message, after a unit of 300
    assert wal.stat().st_size == full  # the crash left it as it was
    assert _bodies(data, "WAL.Q") == [f"single {i}" for i in range(150)] + [f"unit {i}" for i in range(300)]


WAL_CHILD = r"""
import sys
from pathlib import Path
from pcfserver import Integer, Message, String, mq, open_queue_manager

data = Path(sys.argv[1])
wal = data / "registry.sqlite3-wal"
qm = open_queue_manager(data)
qm.execute(Message(mq.MQCMD_CREATE_Q, (String(mq.MQCA_Q_NAME, "WAL.Q"), Integer(mq.MQIA_Q_TYPE, mq.MQQT_LOCAL))))
print(wal.stat().st_size, flush=True)
with qm.session() as s:
    for i in range(150):  # 450 commits of one message each
        s.put("WAL.Q", f"single {i}", persistent=True)
        s.get("WAL.Q", msg_id=s.put("WAL.Q", "taken back", persistent=True).msg_id)
    print(wal.stat().st_size, flush=True)
    for i in range(300):
        s.put("WAL.Q", f"unit {i}", persistent=True, syncpoint=True)
    s.commit()
    print(wal.stat().st_size, flush=True)
    input()  # until killed
"""
