"""The change history: one entry per change from every interface, its revert MQSC, kept with the registry (through a
restart and a kill -9), bounded, and shown on /history."""

from __future__ import annotations

import html
import sqlite3
from collections.abc import Iterator
from pathlib import Path

import pytest

from pcfserver.client.sync import SyncClient
from pcfserver.console.reverts import command_text, revert_text
from pcfserver.dialects import mqsc as dialect
from pcfserver.engine import chlauth, open_engine
from pcfserver.engine.store import DB_NAME
from tests.console_support import PREFIX, Console, console_server, csrf_of, mqsc
from tests.engine_support import acknowledged_until_killed

pytestmark = pytest.mark.timeout(120)
ADMIN = ("admin", "adminpw")


@pytest.fixture(scope="module")
def served(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Console]:
    users = (("admin", ["MQWebAdmin"], "adminpw"),)
    with console_server(tmp_path_factory.mktemp("history"), users=users) as console:
        yield console


def _run(engine: object, text: str, origin: tuple[str, str] = ("MQSC", "tester")) -> None:
    outcome = dialect.run(text, lambda command: engine.execute(command, None, origin))  # type: ignore[attr-defined]
    assert outcome.status == "ok", outcome.lines


def test_rest_and_pcf_changes_are_listed_with_their_reverts(served: Console) -> None:
    mqsc(served, "DEFINE QLOCAL(HIST.REST) MAXDEPTH(10)", ADMIN)
    mqsc(served, "ALTER QLOCAL(HIST.REST) MAXDEPTH(20)", ADMIN)
    with SyncClient("127.0.0.1", served.pcf_port) as client:
        [command] = dialect.parse_command("DEFINE QLOCAL(HIST.PCF) DESCR('over pcf')")
        client.execute(command)
    mqsc(served, "DISPLAY QLOCAL(HIST.REST)", ADMIN)  # an inquiry is no change
    with served.client("admin", "adminpw") as client:
        page = client.get(PREFIX + "/history").text
        filtered = client.get(PREFIX + "/history", params={"name": "hist.pcf"}).text
        by_user = client.get(PREFIX + "/history", params={"user": "admin"}).text
    table = page[page.index('id="history-table"'):]
    assert table.index("HIST.PCF") < table.index("ALTER QLOCAL(HIST.REST) MAXDEPTH(20)") < table.index("DEFINE QLOCAL(HIST.REST)")
    assert "ALTER QLOCAL(HIST.REST) MAXDEPTH(10)" in table  # the revert of the alteration
    assert "DELETE QLOCAL(HIST.PCF)" in table and "DELETE QLOCAL(HIST.REST)" in table
    assert "<td>REST</td>" in table and "<td>PCF</td>" in table and "<td>admin</td>" in table
    assert "DISPLAY" not in table
    assert "HIST.PCF" in filtered and "HIST.REST" not in filtered[filtered.index('id="history-table"'):]
    assert "HIST.REST" in by_user and "HIST.PCF" not in by_user[by_user.index('id="history-table"'):]
    assert 'class="mqsc revert"' in page and "data-copy=" in page and "style=" not in page


def _history_row(page: str, command: str) -> str:
    """The history table's row of the change that ran ``command``, unescaped."""
    rows = [html.unescape(row.split("</tr>")[0]) for row in page[page.index('id="history-table"'):].split('<tr id="change-')[1:]]
    found = [row for row in rows if f'<pre class="mqsc">{command}</pre>' in row]
    assert len(found) == 1, (command, rows)
    return found[0]


def test_changes_made_in_console_pages_name_the_console_and_the_signed_in_user(served: Console) -> None:
    with served.client("admin", "adminpw") as client:
        form = client.get(PREFIX + "/queues/+new", params={"type": "QLOCAL"}).text
        made = client.post(PREFIX + "/queues/+new", data={"csrf": csrf_of(form), "type": "QLOCAL", "name": "HIST.CONSOLE",
                                                         "attr.MAXDEPTH": "4321", "action": "run"})
        assert made.status_code == 303, made.text
        box = client.get(PREFIX + "/mqsc").text
        ran = client.post(PREFIX + "/mqsc", data={"csrf": csrf_of(box), "command": "ALTER QLOCAL(HIST.CONSOLE) DESCR('from the box')"})
        assert ran.status_code == 200 and "AMQ8008I" in ran.text
        page = client.get(PREFIX + "/history", params={"name": "HIST.CONSOLE"}).text
    created = _history_row(page, "DEFINE QLOCAL(HIST.CONSOLE) MAXDEPTH(4321)")
    altered = _history_row(page, "ALTER QLOCAL(HIST.CONSOLE) DESCR('from the box')")
    for row in (created, altered):
        assert "<td>console</td>" in row and "<td>admin</td>" in row, row
    assert "DELETE QLOCAL(HIST.CONSOLE)" in created and "ALTER QLOCAL(HIST.CONSOLE) DESCR('')" in altered, (created, altered)


def test_history_pages_newest_first(served: Console) -> None:
    for i in range(55):
        mqsc(served, f"DEFINE QLOCAL(HIST.PAGE.{i:02d})", ADMIN)
    with served.client("admin", "adminpw") as client:
        first = client.get(PREFIX + "/history", params={"name": "HIST.PAGE"}).text
        second = client.get(PREFIX + "/history", params={"name": "HIST.PAGE", "page": "2"}).text
    assert "55 changes, page 1 of 2" in first and "HIST.PAGE.54" in first and "HIST.PAGE.04)" not in first
    assert "HIST.PAGE.04" in second and "HIST.PAGE.54" not in second


def test_reverts_of_every_sort_of_change() -> None:
    engine = open_engine(None)
    try:
        for text in ("DEFINE QLOCAL(R.Q) MAXDEPTH(100)", "DELETE QLOCAL(R.Q)", "DEFINE CHANNEL(R.C) CHLTYPE(SVRCONN) DESCR('one')",
                     "ALTER CHANNEL(R.C) CHLTYPE(SVRCONN) DESCR('two')", "DEFINE NAMELIST(R.N) NAMES(A,B)", "DELETE NAMELIST(R.N)",
                     "SET AUTHREC PROFILE(R.*) OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(PUT,GET)",
                     "SET AUTHREC PROFILE(R.*) OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHRMV(PUT) AUTHADD(BROWSE)", "ALTER QMGR DESCR('changed')",
                     "CLEAR QLOCAL(SYSTEM.DEFAULT.LOCAL.QUEUE)"):
            _run(engine, text)
        pairs = [(command_text(e), revert_text(e)) for e in engine.audit.history]
        assert [p[1] for p in pairs] == [
            "DELETE QLOCAL(R.Q)",
            "DEFINE QLOCAL(R.Q) MAXDEPTH(100) REPLACE",
            "DELETE CHANNEL(R.C)",
            "ALTER CHANNEL(R.C) CHLTYPE(SVRCONN) DESCR('one')",
            "DELETE NAMELIST(R.N)",
            "DEFINE NAMELIST(R.N) NAMES(A,B) REPLACE",
            "DELETE AUTHREC PROFILE(R.*) OBJTYPE(QUEUE) PRINCIPAL('bob')",
            "SET AUTHREC PROFILE(R.*) OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHRMV(BROWSE) AUTHADD(PUT)",
            "ALTER QMGR DESCR('')",
        ]  # CLEAR changes messages: no history
        assert all(e.via == "MQSC" and e.user == "tester" for e in engine.audit.history)
    finally:
        engine.close()


def test_a_revert_applied_restores_the_object() -> None:
    engine = open_engine(None)
    try:
        _run(engine, "DEFINE QLOCAL(R.BACK) MAXDEPTH(77) DESCR('kept')")
        _run(engine, "DELETE QLOCAL(R.BACK)")
        _run(engine, revert_text(engine.audit.history[-1]))
        assert engine.queue("R.BACK") is not None and engine.queue("R.BACK").attrs[15] == 77  # type: ignore[union-attr]
    finally:
        engine.close()


def test_history_survives_a_restart_and_stays_bounded(tmp_path: Path) -> None:
    engine = open_engine(tmp_path)
    _run(engine, "DEFINE QLOCAL(KEEP.ME) DESCR('x')")
    _run(engine, "ALTER QLOCAL(KEEP.ME) DESCR('y')")
    engine.close()
    reopened = open_engine(tmp_path)
    try:
        entries = list(reopened.audit.history)
        assert [command_text(e) for e in entries] == ["DEFINE QLOCAL(KEEP.ME) DESCR('x')", "ALTER QLOCAL(KEEP.ME) DESCR('y')"]
        assert revert_text(entries[1]) == "ALTER QLOCAL(KEEP.ME) DESCR('x')"
        reopened.audit.keep = 20  # formats/console.tsv keeps 10,000; the table is trimmed every 256 rows
        for i in range(300):
            _run(reopened, f"ALTER QLOCAL(KEEP.ME) MAXDEPTH({i + 1})")
    finally:
        reopened.close()
    db = sqlite3.connect(tmp_path / DB_NAME)
    try:
        rows = db.execute("SELECT COUNT(*), MAX(seq) FROM history").fetchone()
    finally:
        db.close()
    assert rows[1] == 302 and rows[0] < 300


def test_a_database_without_history_is_migrated(tmp_path: Path) -> None:
    engine = open_engine(tmp_path)
    engine.close()
    db = sqlite3.connect(tmp_path / DB_NAME)
    db.execute("DROP TABLE history")
    db.execute("UPDATE meta SET value='6' WHERE key='schema_version'")
    db.commit()
    db.close()
    migrated = open_engine(tmp_path)
    try:
        _run(migrated, "DEFINE QLOCAL(AFTER.MIGRATION)")
        assert migrated.audit.history[-1].target == "AFTER.MIGRATION"
    finally:
        migrated.close()


CHILD = """
import sys
from pcfserver.dialects import mqsc
from pcfserver.engine import chlauth, open_engine
engine = open_engine(sys.argv[1])
print("READY", flush=True)
i = int(sys.argv[2])
while True:
    outcome = mqsc.run(f"DEFINE QLOCAL(KILL.Q{i}) DESCR('n{i}')", lambda c: engine.execute(c, None, ("MQSC", "killer")))
    assert outcome.status == "ok"
    print("ACK", i, flush=True)
    i += 1
"""


def test_an_acknowledged_change_keeps_its_history_row_through_kill_9(tmp_path: Path) -> None:
    acked = acknowledged_until_killed(CHILD, tmp_path, 0, 1.0)
    assert acked, "the child acknowledged nothing before it was killed"
    engine = open_engine(tmp_path)
    try:
        recorded = {e.target for e in engine.audit.history}
        for _, number in acked:
            assert f"KILL.Q{number}" in recorded
            assert engine.queue(f"KILL.Q{number}") is not None
        assert all(e.user == "killer" for e in engine.audit.history)
        # and nothing the store did not keep: every entry names a queue that exists
        assert all(engine.queue(e.target) is not None for e in engine.audit.history)
    finally:
        engine.close()


def _chlauth_rules(engine: object) -> dict[tuple[str, int, str], dict[int, object]]:
    """Every channel authentication rule's fields, without the alteration stamp (a revert makes a new one)."""
    stamp = (chlauth.ALTDATE, chlauth.ALTTIME)
    return {ident: {pid: value for pid, value in rule.attrs.items() if pid not in stamp}
            for ident, rule in engine.chlauth.by_ident.items()}  # type: ignore[attr-defined]


def test_set_chlauth_reverts_put_every_rule_back() -> None:
    engine = open_engine(None)
    try:
        steps = [  # each command, and the revert its history entry shows
            ("SET CHLAUTH('APP.*') TYPE(ADDRESSMAP) ADDRESS('10.0.0.*') USERSRC(CHANNEL) DESCR('apps')",
             "SET CHLAUTH(APP.*) TYPE(ADDRESSMAP) ACTION(REMOVE) ADDRESS(10.0.0.*)"),
            ("SET CHLAUTH('APP.*') TYPE(ADDRESSMAP) ADDRESS('10.0.0.*') USERSRC(MAP) MCAUSER('appuser') ACTION(REPLACE)",
             "SET CHLAUTH(APP.*) TYPE(ADDRESSMAP) ACTION(REPLACE) DESCR('apps') ADDRESS(10.0.0.*) USERSRC(CHANNEL)"),
            ("SET CHLAUTH('APP.*') TYPE(USERMAP) CLNTUSER('fred') USERSRC(MAP) MCAUSER('app1')",
             "SET CHLAUTH(APP.*) TYPE(USERMAP) ACTION(REMOVE) CLNTUSER('fred')"),
            ("SET CHLAUTH('APP.*') TYPE(USERMAP) CLNTUSER('bob') ADDRESS('10.1.*') USERSRC(NOACCESS) WARN(YES)",
             "SET CHLAUTH(APP.*) TYPE(USERMAP) ACTION(REMOVE) CLNTUSER('bob') ADDRESS(10.1.*)"),
            ("SET CHLAUTH('APP.*') TYPE(USERMAP) CLNTUSER('fred') ACTION(REMOVE)",
             "SET CHLAUTH(APP.*) TYPE(USERMAP) ACTION(ADD) CLNTUSER('fred') MCAUSER('app1') USERSRC(MAP)"),
            ("SET CHLAUTH('APP.*') TYPE(BLOCKUSER) USERLIST('eve','mallory')",
             "SET CHLAUTH(APP.*) TYPE(BLOCKUSER) ACTION(REMOVE) USERLIST('eve','mallory')"),
            ("SET CHLAUTH('APP.*') TYPE(BLOCKUSER) USERLIST('trudy')",  # ADD to a BLOCK list: the list is set back
             "SET CHLAUTH(APP.*) TYPE(BLOCKUSER) ACTION(REPLACE) USERLIST('eve','mallory')"),
            ("SET CHLAUTH('APP.*') TYPE(BLOCKUSER) USERLIST('eve') ACTION(REMOVE)",
             "SET CHLAUTH(APP.*) TYPE(BLOCKUSER) ACTION(REPLACE) USERLIST('eve','mallory','trudy')"),
            ("SET CHLAUTH('APP.*') TYPE(USERMAP) CLNTUSER('fred') USERSRC(MAP) MCAUSER('app1')", None),
            ("SET CHLAUTH('APP.*') TYPE(USERMAP) ACTION(REMOVEALL)",  # both USERMAP rules come back, one line each
             "SET CHLAUTH(APP.*) TYPE(USERMAP) ACTION(ADD) ADDRESS(10.1.*) CLNTUSER('bob') USERSRC(NOACCESS) WARN(YES)\n"
             "SET CHLAUTH(APP.*) TYPE(USERMAP) ACTION(ADD) CLNTUSER('fred') MCAUSER('app1') USERSRC(MAP)"),
            ("SET CHLAUTH('SYSTEM.*') TYPE(ADDRESSMAP) ADDRESS('*') ACTION(REMOVE)",  # one of IBM's default rules
             "SET CHLAUTH(SYSTEM.*) TYPE(ADDRESSMAP) ACTION(ADD) DESCR('Default rule to disable all SYSTEM channels') ADDRESS(*) "
             "USERSRC(NOACCESS)"),
        ]
        for command, expected in steps:
            was = _chlauth_rules(engine)
            _run(engine, command)
            entry = engine.audit.history[-1]
            assert entry.kind == "chlauth"
            revert = revert_text(entry)
            if expected is not None:
                assert revert == expected, command
            changed = _chlauth_rules(engine)
            assert changed != was
            for line in revert.splitlines():  # (MQSC runs one command at a time)
                _run(engine, line)
            assert _chlauth_rules(engine) == was, (command, revert)
            _run(engine, command)  # on to the next step from the changed state
            assert _chlauth_rules(engine) == changed
    finally:
        engine.close()
