"""The SQLite store: restart persistence, identity, schema version, locking, failed commits."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest
from engine_support import attributes, change, command, create, delete, inquire, ok, qname, reason

from pcfserver import mq
from pcfserver.codec import Integer, Message, String
from pcfserver.engine import Engine, StoreError, open_engine
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
    assert engine.queue_names() == sorted(["BEFORE", *(f"SYSTEM.DEFAULT.{t}.QUEUE" for t in ("LOCAL", "MODEL", "ALIAS", "REMOTE"))])
    assert inquire(engine, "BEFORE", mq.MQIA_MAX_Q_DEPTH)[mq.MQIA_MAX_Q_DEPTH] == 5000
    engine.close()
