"""The command engine: decoded command messages in, response messages out (sans-IO).

Interface used by the server, the CLI and the tests (the engine never imports trio):

    engine = open_engine(data_dir=None | Path, qmgr="QM1", ccsid=819)
    responses = engine.execute(command)            # list[Message], numbered, Control LAST on the last
    answers = engine.execute_batch(commands)       # one list per command, in order; the whole batch is
                                                   # committed durably in one transaction before return,
                                                   # each command applied whole or not at all
    engine.qmgr_name, engine.ccsid
    engine.close()

``data_dir=None`` keeps the registry in memory only.  With a directory, the registry is the
SQLite database ``registry.sqlite3`` in it (WAL, each commit's log fdatasync'd: pcfserver.engine.wal); at first start it holds IBM's
default queues, process and namelist and the given queue manager name and CCSID, which later opens keep (a different
explicit ``qmgr``/``ccsid`` raises :class:`StoreError`).  An engine is not thread-safe: calls
must be serialised (the server runs it from one task or one worker thread at a time).
"""

from pcfserver.engine.engine import Engine, open_engine
from pcfserver.engine.store import StoreError

__all__ = ["Engine", "StoreError", "open_engine"]
