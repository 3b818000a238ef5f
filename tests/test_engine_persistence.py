"""The SQLite store: restart persistence, identity, schema version, locking, failed commits."""

from __future__ import annotations

import pickle
import sqlite3
from pathlib import Path

import pytest
from engine_support import IBM_QUEUES, attributes, change, command, create, delete, inquire, ok, qname, reason

from pcfserver import mq
from pcfserver.codec import Integer, Message, String
from pcfserver.engine import Engine, StoreError, open_engine
from pcfserver.engine import engine as engine_module
from pcfserver.engine import store as store_module
from pcfserver.engine.store import DB_NAME, SCHEMA_VERSION


def everything(engine: Engine) -> list[dict[int, object]]:
    return [attributes(m) for m in ok(engine, command(mq.MQCMD_INQUIRE_Q, qname("*")))]


def test_changes_survive_a_restart(tmp_path: Path) -> None:
    engine = open_engine(tmp_path)
    ok(engine, create("KEEP.A", mq.MQQT_LOCAL, Integer(mq.MQIA_MAX_Q_DEPTH, 42), String(mq.MQCA_Q_DESC, "kept")))
    ok(engine, create("KEEP.B", mq.MQQT_ALIAS, String(mq.MQCA_BASE_OBJECT_NAME, "KEEP.A")))
    ok(engine, create("GONE", mq.MQQT_REMOTE))
    ok(engine, change("KEEP.A", mq.MQQT_LOCAL, Integer(mq.MQIA_DEF_PRIORITY, 6)))
    ok(engine, delete("GONE"))
    ok(engine, change("SYSTEM.DEFAULT.LOCAL.QUEUE", mq.MQQT_LOCAL, Integer(mq.MQIA_MAX_Q_DEPTH, 777)))
    ok(engine, command(mq.MQCMD_CHANGE_Q_MGR, Integer(mq.MQIA_MAX_UNCOMMITTED_MSGS, 321)))
    batch = engine.execute_batch([create(f"BATCH.{i}") for i in range(20)])
    assert all(reason(a) == 0 for a in batch)
    state = everything(engine)
    qmgr = attributes(ok(engine, command(mq.MQCMD_INQUIRE_Q_MGR))[0])
    engine.close()

    engine = open_engine(tmp_path)
    assert everything(engine) == state
    assert attributes(ok(engine, command(mq.MQCMD_INQUIRE_Q_MGR))[0]) == qmgr
    assert inquire(engine, "KEEP.A", mq.MQIA_DEF_PRIORITY, mq.MQIA_MAX_Q_DEPTH) == {
        mq.MQCA_Q_NAME: "KEEP.A", mq.MQIA_Q_TYPE: mq.MQQT_LOCAL, mq.MQIA_DEF_PRIORITY: 6, mq.MQIA_MAX_Q_DEPTH: 42,
    }
    assert reason(engine.execute(command(mq.MQCMD_INQUIRE_Q, qname("GONE")))) == mq.MQRC_UNKNOWN_OBJECT_NAME
    ok(engine, create("AFTER"))  # the changed default object still supplies defaults
    assert inquire(engine, "AFTER", mq.MQIA_MAX_Q_DEPTH)[mq.MQIA_MAX_Q_DEPTH] == 777
    engine.close()


def test_identity_is_kept_by_the_data_directory(tmp_path: Path) -> None:
    engine = open_engine(tmp_path, qmgr="QM.PAYMENTS", ccsid=1208)
    assert (engine.qmgr_name, engine.ccsid) == ("QM.PAYMENTS", 1208)
    engine.close()
    engine = open_engine(tmp_path)
    assert (engine.qmgr_name, engine.ccsid) == ("QM.PAYMENTS", 1208)
    engine.close()
    with pytest.raises(StoreError):
        open_engine(tmp_path, qmgr="QM1")
    with pytest.raises(StoreError):
        open_engine(tmp_path, ccsid=819)
    engine = open_engine(tmp_path, qmgr="QM.PAYMENTS", ccsid=1208)
    engine.close()


def test_defaults_for_a_new_registry() -> None:
    engine = open_engine()
    assert (engine.qmgr_name, engine.ccsid) == ("QM1", 819)
    with pytest.raises(ValueError):
        open_engine(qmgr="bad name")
    with pytest.raises(ValueError):
        open_engine(ccsid=4242)


def test_one_process_owns_a_data_directory(tmp_path: Path) -> None:
    engine = open_engine(tmp_path)
    with pytest.raises(StoreError):
        open_engine(tmp_path)
    engine.close()
    open_engine(tmp_path).close()


def test_schema_version_and_a_newer_database(tmp_path: Path) -> None:
    open_engine(tmp_path).close()
    db = sqlite3.connect(tmp_path / DB_NAME)
    assert db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() == (str(SCHEMA_VERSION),)
    assert db.execute("PRAGMA journal_mode").fetchone() == ("wal",)
    db.execute("UPDATE meta SET value=? WHERE key='schema_version'", (str(SCHEMA_VERSION + 1),))
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="newer"):
        open_engine(tmp_path)


def test_an_attribute_missing_from_the_store_takes_its_table_default(tmp_path: Path) -> None:
    """What happens after a table row is added: stored queues get the new attribute's default."""
    engine = open_engine(tmp_path)
    ok(engine, create("OLD", mq.MQQT_LOCAL, Integer(mq.MQIA_MAX_Q_FILE_SIZE, 100)))
    engine.close()
    db = sqlite3.connect(tmp_path / DB_NAME)
    db.execute("DELETE FROM queue_attrs WHERE name='OLD' AND param=?", (mq.MQIA_MAX_Q_FILE_SIZE,))
    db.execute("DELETE FROM qmgr_attrs WHERE param=?", (mq.MQIA_MAX_UNCOMMITTED_MSGS,))
    db.commit()
    db.close()
    engine = open_engine(tmp_path)
    assert inquire(engine, "OLD", mq.MQIA_MAX_Q_FILE_SIZE)[mq.MQIA_MAX_Q_FILE_SIZE] == mq.MQQFS_DEFAULT
    qmgr = attributes(ok(engine, command(mq.MQCMD_INQUIRE_Q_MGR))[0])
    assert qmgr[mq.MQIA_MAX_UNCOMMITTED_MSGS] == 10000
    engine.close()


def test_a_failed_commit_leaves_nothing_on_disk(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    engine = open_engine(tmp_path)
    ok(engine, create("BEFORE"))
    store = engine._store
    real_execute = sqlite3.Connection.execute

    class Failing:
        """Wraps the connection: the 3rd statement of the next transaction fails mid-way."""

        def __init__(self, db: sqlite3.Connection) -> None:
            self.db = db
            self.calls = 0

        def execute(self, sql: str, *args: object) -> sqlite3.Cursor:
            self.calls += 1
            if self.calls == 3:
                raise sqlite3.OperationalError("disk I/O error")
            return real_execute(self.db, sql, *args)  # type: ignore[arg-type]

        def __getattr__(self, name: str) -> object:
            return getattr(self.db, name)

    failing = Failing(store._db)  # type: ignore[attr-defined]
    monkeypatch.setattr(store, "_db", failing)
    commands: list[Message] = [create("NEW.1"), create("NEW.2"), change("BEFORE", mq.MQQT_LOCAL, Integer(mq.MQIA_MAX_Q_DEPTH, 1))]
    answers = engine.execute_batch(commands)
    assert [reason(a) for a in answers] == [mq.MQRC_UNEXPECTED_ERROR] * 3
    monkeypatch.undo()
    engine.close()
    engine = open_engine(tmp_path)
    assert engine.queue_names() == sorted(["BEFORE", *IBM_QUEUES])
    assert inquire(engine, "BEFORE", mq.MQIA_MAX_Q_DEPTH)[mq.MQIA_MAX_Q_DEPTH] == 5000
    engine.close()


# -- the journal ------------------------------------------------------------------------------


def _abandon(engine: Engine) -> None:
    """Drops the engine as a crash would: no fold, no tidy close (SQLite's own state is what a kill leaves)."""
    engine._store._db.close()  # type: ignore[attr-defined]


def _journal_rows(where: Engine | Path) -> int:
    """Rows in the journal, through the engine's own connection (it holds the lock) or the closed file."""
    if isinstance(where, Engine):
        return int(where._store._db.execute("SELECT count(*) FROM journal").fetchone()[0])  # type: ignore[attr-defined]
    db = sqlite3.connect(where / DB_NAME)
    try:
        return int(db.execute("SELECT count(*) FROM journal").fetchone()[0])
    finally:
        db.close()


@pytest.mark.parametrize("fold_values", [8, 60, 4096])
def test_journal_folds_and_replays_to_the_same_registry(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fold_values: int) -> None:
    """Commands over several crashes, folding often or never: the registry equals one that never stopped."""
    monkeypatch.setattr(store_module, "FOLD_VALUES", fold_values)
    # Both engines stamp alteration times: one frozen clock, so a second ticking between the
    # two executions of a step cannot make them differ.
    monkeypatch.setattr(engine_module.time, "time", lambda: 1_790_000_000.0)
    reference = open_engine(None)
    engine = open_engine(tmp_path)
    steps: list[Message] = []
    for i in range(60):
        name = f"J.{i % 7}"
        steps += [
            create(name, mq.MQQT_LOCAL, Integer(mq.MQIA_MAX_Q_DEPTH, i + 1), String(mq.MQCA_Q_DESC, f"round {i}")),
            change(name, mq.MQQT_LOCAL, Integer(mq.MQIA_DEF_PRIORITY, i % 10)),
            command(mq.MQCMD_CHANGE_Q_MGR, Integer(mq.MQIA_MAX_UNCOMMITTED_MSGS, 1000 + i)),
        ]
        if i % 3 == 2:
            steps.append(delete(f"J.{(i + 3) % 7}"))
    for n, step in enumerate(steps):
        assert reason(engine.execute(step)) == reason(reference.execute(step))
        if n % 37 == 36:
            _abandon(engine)
            engine = open_engine(tmp_path)
            assert _journal_rows(engine) == 0  # folded at open
            assert everything(engine) == everything(reference)
    if fold_values == 4096:
        assert _journal_rows(engine) > 0  # nothing folded since the last open
    else:
        assert _journal_rows(engine) < len(steps) % 37 + 1  # folded along the way
    assert everything(engine) == everything(reference)
    qmgr = attributes(ok(engine, command(mq.MQCMD_INQUIRE_Q_MGR))[0])
    engine.close()
    assert _journal_rows(tmp_path) == 0  # folded at close: the tables alone hold the registry
    engine = open_engine(tmp_path)
    assert everything(engine) == everything(reference)
    assert attributes(ok(engine, command(mq.MQCMD_INQUIRE_Q_MGR))[0])[mq.MQIA_MAX_UNCOMMITTED_MSGS] == qmgr[mq.MQIA_MAX_UNCOMMITTED_MSGS]
    engine.close()


def test_a_version_1_database_is_migrated_with_its_data(tmp_path: Path) -> None:
    engine = open_engine(tmp_path)
    ok(engine, create("FROM.V1", mq.MQQT_LOCAL, Integer(mq.MQIA_MAX_Q_DEPTH, 55)))
    engine.close()
    # Version 2 added the journal, version 3 the messages, version 4 the authority records and
    # version 5 the processes and namelists, version 6 the channel authentication records, version 7 the change
    # history: without them, and marked 1, the file is a version 1 database (one written before the default objects existed).
    db = sqlite3.connect(tmp_path / DB_NAME)
    db.execute("DROP TABLE journal")
    db.execute("DROP TABLE messages")
    db.execute("DROP TABLE authrecs")
    db.execute("DROP TABLE objects")
    db.execute("DROP TABLE chlauth")
    db.execute("DROP TABLE history")
    db.execute("DELETE FROM meta WHERE key LIKE 'default_objects%'")
    db.execute("DELETE FROM meta WHERE key='default_chlauth'")
    db.execute("UPDATE meta SET value='1' WHERE key='schema_version'")
    db.commit()
    db.close()
    migrated = open_engine(tmp_path)
    assert inquire(migrated, "FROM.V1", mq.MQIA_MAX_Q_DEPTH)[mq.MQIA_MAX_Q_DEPTH] == 55
    # the upgrade brings IBM's default process and namelists, as a new queue manager has them
    for code, pid, count in ((mq.MQCMD_INQUIRE_PROCESS_NAMES, mq.MQCA_PROCESS_NAME, 1), (mq.MQCMD_INQUIRE_NAMELIST_NAMES, mq.MQCA_NAMELIST_NAME, 3)):
        [names] = ok(migrated, command(code, String(pid, "SYSTEM.*")))
        assert len(names.parameters[0].values) == count
    # and IBM's three default channel authentication rules
    assert len(ok(migrated, command(mq.MQCMD_INQUIRE_CHLAUTH_RECS, String(mq.MQCACH_CHANNEL_NAME, "*")))) == 3
    ok(migrated, command(mq.MQCMD_DELETE_PROCESS, String(mq.MQCA_PROCESS_NAME, "SYSTEM.DEFAULT.PROCESS")))
    ok(migrated, change("FROM.V1", mq.MQQT_LOCAL, Integer(mq.MQIA_MAX_Q_DEPTH, 66)))
    migrated.close()
    db = sqlite3.connect(tmp_path / DB_NAME)
    assert db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone() == (str(SCHEMA_VERSION),)
    db.close()
    reopened = open_engine(tmp_path)
    assert inquire(reopened, "FROM.V1", mq.MQIA_MAX_Q_DEPTH)[mq.MQIA_MAX_Q_DEPTH] == 66
    # a default object deleted after the upgrade stays deleted
    assert reason(reopened.execute(command(mq.MQCMD_INQUIRE_PROCESS, String(mq.MQCA_PROCESS_NAME, "SYSTEM.DEFAULT.PROCESS")))) == mq.MQRC_UNKNOWN_OBJECT_NAME
    reopened.close()


def _registry_of_before_the_system_queues(path: Path, *users: str) -> None:
    """Makes the registry at ``path`` as the releases that made only six queues and one namelist wrote it (with the
    user's own queues ``users``)."""
    first = ("SYSTEM.DEFAULT.LOCAL.QUEUE", "SYSTEM.DEFAULT.MODEL.QUEUE", "SYSTEM.DEFAULT.ALIAS.QUEUE", "SYSTEM.DEFAULT.REMOTE.QUEUE")
    kept = (*first, "SYSTEM.ADMIN.PERFM.EVENT", "SYSTEM.DEFAULT.INITIATION.QUEUE", *users)
    db = sqlite3.connect(path / DB_NAME)
    marks = ",".join("?" * len(kept))
    db.execute(f"DELETE FROM queue_attrs WHERE name LIKE 'SYSTEM.%' AND name NOT IN ({marks})", kept)
    db.execute(f"DELETE FROM queues WHERE name LIKE 'SYSTEM.%' AND name NOT IN ({marks})", kept)
    db.execute("DELETE FROM objects WHERE name LIKE 'SYSTEM.QPUBSUB.%' OR name='SYSTEM.ADMIN.TOPIC'")
    db.execute("DELETE FROM meta WHERE key='default_objects.queue'")
    db.execute("UPDATE meta SET value='1' WHERE key LIKE 'default_objects.%'")
    db.commit()
    db.close()


def _namelists(engine: Engine) -> list[str]:
    [names] = ok(engine, command(mq.MQCMD_INQUIRE_NAMELIST_NAMES, String(mq.MQCA_NAMELIST_NAME, "*")))
    return sorted(v.rstrip() for v in names.parameters[0].values)  # type: ignore[attr-defined]


def test_a_registry_from_before_the_system_queues_gets_them_once_at_open(tmp_path: Path) -> None:
    engine = open_engine(tmp_path)
    ok(engine, change("SYSTEM.DEFAULT.INITIATION.QUEUE", mq.MQQT_LOCAL, Integer(mq.MQIA_MAX_Q_DEPTH, 77)))
    ok(engine, delete("SYSTEM.ADMIN.PERFM.EVENT"))  # the user's own choice, before the upgrade
    # a queue of the user's own by a name IBM's later release uses
    ok(engine, change("SYSTEM.DEAD.LETTER.QUEUE", mq.MQQT_LOCAL, String(mq.MQCA_Q_DESC, "mine")))
    engine.close()
    _registry_of_before_the_system_queues(tmp_path, "SYSTEM.DEAD.LETTER.QUEUE")

    upgraded = open_engine(tmp_path)
    # IBM's system queues and the queued pub/sub namelists arrive, with IBM's attributes ...
    assert set(upgraded.queue_names()) == set(IBM_QUEUES) - {"SYSTEM.ADMIN.PERFM.EVENT"}
    assert inquire(upgraded, "SYSTEM.ADMIN.COMMAND.QUEUE", mq.MQIA_MAX_Q_DEPTH)[mq.MQIA_MAX_Q_DEPTH] == 3000
    assert _namelists(upgraded) == ["SYSTEM.DEFAULT.NAMELIST", "SYSTEM.QPUBSUB.QUEUE.NAMELIST", "SYSTEM.QPUBSUB.SUBPOINT.NAMELIST"]
    topic = ok(upgraded, command(mq.MQCMD_INQUIRE_TOPIC, String(mq.MQCA_TOPIC_NAME, "SYSTEM.ADMIN.TOPIC")))
    assert attributes(topic[0])[mq.MQCA_TOPIC_STRING] == "$SYS/MQ"
    # ... what the user had is left as it was: a changed default queue, one deleted, one of theirs by an IBM name
    assert inquire(upgraded, "SYSTEM.DEFAULT.INITIATION.QUEUE", mq.MQIA_MAX_Q_DEPTH)[mq.MQIA_MAX_Q_DEPTH] == 77
    assert inquire(upgraded, "SYSTEM.DEAD.LETTER.QUEUE", mq.MQCA_Q_DESC)[mq.MQCA_Q_DESC] == "mine"
    # and they are made once: deleted after the upgrade, they stay deleted
    ok(upgraded, delete("SYSTEM.ADMIN.COMMAND.QUEUE"))
    ok(upgraded, command(mq.MQCMD_DELETE_NAMELIST, String(mq.MQCA_NAMELIST_NAME, "SYSTEM.QPUBSUB.QUEUE.NAMELIST")))
    upgraded.close()
    reopened = open_engine(tmp_path)
    assert "SYSTEM.ADMIN.COMMAND.QUEUE" not in reopened.queue_names()
    assert "SYSTEM.ADMIN.PERFM.EVENT" not in reopened.queue_names()
    assert _namelists(reopened) == ["SYSTEM.DEFAULT.NAMELIST", "SYSTEM.QPUBSUB.SUBPOINT.NAMELIST"]
    reopened.close()


def test_a_new_queue_manager_deleting_a_system_queue_keeps_it_deleted(tmp_path: Path) -> None:
    engine = open_engine(tmp_path)
    ok(engine, delete("SYSTEM.DEAD.LETTER.QUEUE"))
    engine.close()
    reopened = open_engine(tmp_path)
    assert set(reopened.queue_names()) == set(IBM_QUEUES) - {"SYSTEM.DEAD.LETTER.QUEUE"}
    reopened.close()


def test_an_unreadable_journal_row_is_refused_at_open(tmp_path: Path) -> None:
    engine = open_engine(tmp_path)
    ok(engine, create("BEFORE"))
    _abandon(engine)
    db = sqlite3.connect(tmp_path / DB_NAME)
    # an operation of a kind no version wrote, then a row that tries to build an object
    db.execute("INSERT INTO journal (ops) VALUES (?)", (pickle.dumps([["Z", 1]]),))
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="journal"):
        open_engine(tmp_path)
    db = sqlite3.connect(tmp_path / DB_NAME)
    db.execute("DELETE FROM journal")
    db.execute("INSERT INTO journal (ops) VALUES (?)", (pickle.dumps([["A", "BEFORE", ((1, Path("x")),)]]),))
    db.commit()
    db.close()
    with pytest.raises(StoreError, match="not plain data"):
        open_engine(tmp_path)
