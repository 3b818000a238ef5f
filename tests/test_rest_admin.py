"""The administrative REST API, users, roles, login tokens and TLS, end to end: a real server on
127.0.0.1 (PCF, HTTP and HTTPS ports, one committer), httpx as the client, trustme as the CA."""

from __future__ import annotations

import ssl
import subprocess
import sys
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import pytest
import trio
import trustme

from pcfserver import mq, users
from pcfserver.client import connect
from pcfserver.codec import Integer, IntegerList, Message, String, StringList
from pcfserver.engine import open_engine
from pcfserver.server import ServerConfig
from pcfserver.server.service import InsecureListen, Service
from pcfserver.users import UserStore

HOST = "127.0.0.1"
CSRF = {"ibm-mq-rest-csrf-token": "x"}
MQSC = "/ibmmq/rest/v2/admin/action/qmgr/QM1/mqsc"
TOKEN_LIFETIME = 3.0  # seconds, for the secured fixture's server


@dataclass
class Server:
    service: Service
    pcf: tuple[str, int]
    http: int | None
    https: int | None
    data: Path

    def client(self, **kwargs: Any) -> httpx.AsyncClient:
        return httpx.AsyncClient(base_url=f"http://{HOST}:{self.http}", timeout=20, **kwargs)


async def start(nursery: trio.Nursery, data: Path, **config: Any) -> Server:
    engine = open_engine(data)
    config.setdefault("http_port", 0)
    service = Service(engine, ServerConfig(host=HOST, port=0, **config), data)
    addresses = await nursery.start(service.serve)
    return Server(service, addresses.pcf, addresses.http[1] if addresses.http else None, addresses.https[1] if addresses.https else None, data)


def add_user(data: Path, name: str, *roles: str, groups: tuple[str, ...] = ()) -> None:
    store = UserStore(data)
    store.add(name, list(roles), f"{name}-pw", list(groups))
    store.close()


async def run_json(client: httpx.AsyncClient, **body: Any) -> httpx.Response:
    return await client.post(MQSC, json={"type": "runCommandJSON", **body}, headers=CSRF)


async def run_text(client: httpx.AsyncClient, text: str, **kwargs: Any) -> httpx.Response:
    kwargs.setdefault("headers", CSRF)
    return await client.post(MQSC, json={"type": "runCommand", "parameters": {"command": text}}, **kwargs)


@pytest.fixture
async def open_server(nursery: trio.Nursery, tmp_path: Path) -> AsyncIterator[Server]:
    server = await start(nursery, tmp_path)
    yield server
    server.service.shutdown()


# -- the mqsc resource, no users (authentication off) ----------------------------------------


async def test_run_command_answers_runmqsc_lines(open_server: Server) -> None:
    async with open_server.client() as client:
        made = await run_text(client, "DEFINE QLOCAL(APP.Q) MAXDEPTH(7) DESCR('Hello there')")
        assert made.status_code == 200
        assert made.json() == {
            "commandResponse": [{"completionCode": 0, "reasonCode": 0, "text": ["AMQ8006I: IBM MQ queue created."]}],
            "overallCompletionCode": 0,
            "overallReasonCode": 0,
        }
        again = (await run_text(client, "DEFINE QLOCAL(APP.Q)")).json()
        assert again["overallCompletionCode"] == 2 and again["overallReasonCode"] == mq.MQRCCF_COMMAND_FAILED
        assert again["commandResponse"][0]["reasonCode"] == mq.MQRCCF_OBJECT_ALREADY_EXISTS
        assert again["commandResponse"][0]["text"] == ["AMQ8150E: IBM MQ object already exists."]
        shown = (await run_text(client, "DISPLAY QLOCAL(APP.Q) MAXDEPTH DESCR")).json()
        text = "\n".join(shown["commandResponse"][0]["text"])
        assert "MAXDEPTH(7)" in text and "DESCR(Hello there)" in text


async def test_run_command_json_define_display_alter_round_trip(open_server: Server) -> None:
    async with open_server.client() as client:
        made = await run_json(client, command="define", qualifier="qlocal", name="app.lower", parameters={"maxdepth": 9, "descr": "It's Mixed", "put": "disabled"})
        assert made.json()["overallCompletionCode"] == 0
        shown = (await run_json(client, command="DISPLAY", qualifier="QUEUE", name="app.lower", responseParameters=["all"])).json()
        assert len(shown["commandResponse"]) == 1
        params = shown["commandResponse"][0]["parameters"]
        # exactly what was stored comes back: the name's and the description's case, numbers as numbers
        assert params["queue"] == "app.lower" and params["descr"] == "It's Mixed"
        assert params["maxdepth"] == 9 and params["put"] == "DISABLED" and params["curdepth"] == 0
        assert all(key == key.lower() for key in params)
        await run_json(client, command="alter", qualifier="qlocal", name="app.lower", parameters={"maxdepth": 10})
        replaced = await run_json(client, command="define", qualifier="qlocal", name="app.lower", parameters={"replace": "yes", "maxdepth": 10})
        assert replaced.json()["overallCompletionCode"] == 0
        kept = await run_json(client, command="define", qualifier="qlocal", name="app.lower", parameters={"replace": "no"})
        assert kept.json()["commandResponse"][0]["reasonCode"] == mq.MQRCCF_OBJECT_ALREADY_EXISTS
        chosen = (await run_json(client, command="display", qualifier="qlocal", name="app.*", responseParameters=["maxdepth"])).json()
        assert chosen["commandResponse"][0]["parameters"]["maxdepth"] == 10
        assert "descr" not in chosen["commandResponse"][0]["parameters"]


async def test_run_command_json_where_and_generic_names(open_server: Server) -> None:
    async with open_server.client() as client:
        for name, depth in (("W.A", 10), ("W.B", 20), ("W.C", 30)):
            await run_json(client, command="define", qualifier="qlocal", name=name, parameters={"maxdepth": depth})
        found = (await run_json(client, command="display", qualifier="qlocal", name="W.*", parameters={"where": "maxdepth gt 15"}, responseParameters=["maxdepth"])).json()
        assert [item["parameters"]["queue"] for item in found["commandResponse"]] == ["W.B", "W.C"]


async def test_processes_and_namelists_over_run_command_json_and_run_command(open_server: Server) -> None:
    async with open_server.client() as client:
        made = await run_json(client, command="define", qualifier="process", name="TRIG.P", parameters={"applicid": "/opt/app/Start Me", "descr": "Triggered app"})
        assert made.json()["overallCompletionCode"] == 0
        shown = (await run_json(client, command="display", qualifier="process", name="TRIG.P", responseParameters=["all"])).json()
        params = shown["commandResponse"][0]["parameters"]
        assert params["process"] == "TRIG.P" and params["applicid"] == "/opt/app/Start Me" and params["descr"] == "Triggered app"
        assert all(key == key.lower() for key in params)
        await run_json(client, command="alter", qualifier="process", name="TRIG.P", parameters={"descr": "changed"})
        chosen = (await run_json(client, command="display", qualifier="process", name="TRIG.*", responseParameters=["descr"])).json()
        assert chosen["commandResponse"][0]["parameters"] == {"process": "TRIG.P", "descr": "changed"}
        listed = await run_json(client, command="define", qualifier="namelist", name="CLUS.NL", parameters={"names": ["CLUS.A", "clus.b"], "descr": "two"})
        assert listed.json()["overallCompletionCode"] == 0
        names = (await run_json(client, command="display", qualifier="namelist", name="CLUS.NL", responseParameters=["all"])).json()
        params = names["commandResponse"][0]["parameters"]
        assert params["namelist"] == "CLUS.NL" and params["names"] == ["CLUS.A", "clus.b"] and params["namcount"] == 2
        missing = (await run_json(client, command="display", qualifier="process", name="NOPE")).json()
        assert missing["overallCompletionCode"] == 2 and missing["commandResponse"][0]["reasonCode"] == mq.MQRC_UNKNOWN_OBJECT_NAME
        text = (await run_text(client, "DEFINE PROCESS(TEXT.P) APPLICID('x')")).json()
        assert text["commandResponse"][0]["text"] == ["AMQ8010I: IBM MQ process created."]
        shown = (await run_text(client, "DISPLAY NAMELIST(*)")).json()["commandResponse"]
        texts = [item["text"] for item in shown]  # one string per namelist, as mqweb answers a display
        assert all(len(text) == 1 and text[0].startswith("AMQ8550I: Display namelist details.   NAMELIST(") for text in texts)
        assert any("NAMELIST(CLUS.NL)" in text[0] for text in texts)
        for qualifier, name in (("process", "TRIG.P"), ("process", "TEXT.P"), ("namelist", "CLUS.NL")):
            gone = await run_json(client, command="delete", qualifier=qualifier, name=name)
            assert gone.json()["overallCompletionCode"] == 0
        after = (await run_json(client, command="display", qualifier="process", name="*")).json()
        assert [item["parameters"]["process"] for item in after["commandResponse"]] == ["SYSTEM.DEFAULT.PROCESS"]


async def test_failures_and_object_types_this_server_does_not_keep(open_server: Server) -> None:
    async with open_server.client() as client:
        missing = await run_json(client, command="display", qualifier="qlocal", name="NOPE")
        body = missing.json()
        assert missing.status_code == 200 and body["overallCompletionCode"] == 2
        assert body["commandResponse"][0]["reasonCode"] == mq.MQRC_UNKNOWN_OBJECT_NAME
        assert body["commandResponse"][0]["message"] == ["AMQ8147E: IBM MQ object NOPE not found."]
        # a z/OS-only object type (storage classes) is not an MQSC noun here: runmqsc's syntax error
        stgclass = (await run_json(client, command="define", qualifier="stgclass", name="S1")).json()
        assert stgclass["overallCompletionCode"] == 2 and stgclass["commandResponse"][0]["completionCode"] == 2
        assert stgclass["commandResponse"][0]["message"][0].startswith("AMQ8405I")


async def test_channels_are_defined_and_displayed_as_pymqrest_sends_them(open_server: Server) -> None:
    async with open_server.client() as client:
        made = (await run_json(client, command="define", qualifier="channel", name="TO.X", parameters={"chltype": "svrconn", "descr": "app"})).json()
        assert made["overallCompletionCode"] == 0, made
        shown = (await run_json(client, command="display", qualifier="channel", name="TO.X", responseParameters=["all"])).json()
        [item] = shown["commandResponse"]
        assert item["parameters"]["channel"] == "TO.X" and item["parameters"]["chltype"] == "SVRCONN"
        assert item["parameters"]["descr"] == "app" and item["parameters"]["sharecnv"] == 10
        assert "xmitq" not in item["parameters"]  # a server-connection channel has no transmission queue


async def test_queue_manager_status_command_server_and_resources(open_server: Server) -> None:
    async with open_server.client() as client:
        status = (await run_json(client, command="display", qualifier="qmstatus")).json()
        assert status["commandResponse"][0]["parameters"]["status"] == "RUNNING"
        assert status["commandResponse"][0]["parameters"]["qmname"] == "QM1"
        cmdserv = (await run_text(client, "DISPLAY CMDSERV")).json()
        assert cmdserv["commandResponse"][0]["text"] == ["AMQ8027I: IBM MQ Command Server Status . . : Running"]
        as_json = (await run_json(client, command="display", qualifier="cmdserv")).json()["commandResponse"]
        assert as_json == [{"completionCode": 0, "reasonCode": 0, "message": ["AMQ8027I: IBM MQ Command Server Status . . : Running"]}]
        qmgr = (await run_json(client, command="display", qualifier="qmgr", responseParameters=["maxumsgs"])).json()
        assert qmgr["commandResponse"][0]["parameters"]["maxumsgs"] == 10000
        assert (await client.get("/ibmmq/rest/v1/admin/qmgr")).json() == {"qmgr": [{"name": "QM1", "state": "running"}]}
        assert (await client.get("/ibmmq/rest/v2/admin/qmgr/QM1")).json()["qmgr"][0]["state"] == "running"
        assert (await client.get("/ibmmq/rest/v2/admin/qmgr/QM9")).status_code == 404
        installation = (await client.get("/ibmmq/rest/v3/admin/installation")).json()["installation"][0]
        assert installation["version"].startswith("9.")


async def test_bad_requests_get_ibm_error_json(open_server: Server) -> None:
    async with open_server.client() as client:
        no_csrf = await client.post(MQSC, json={"type": "runCommand", "parameters": {"command": "DISPLAY QMGR"}})
        assert no_csrf.status_code == 403 and no_csrf.json()["error"][0]["msgId"] == "MQWB0100E"
        garbage = await client.post(MQSC, content=b"{not json", headers=CSRF)
        assert garbage.status_code == 400 and "error" in garbage.json()
        wrong = await client.post(MQSC, json={"type": "runSomething"}, headers=CSRF)
        assert wrong.status_code == 400
        bool_value = await run_json(client, command="define", qualifier="qlocal", name="B", parameters={"maxdepth": True})
        assert bool_value.status_code == 400
        other_qmgr = await client.post("/ibmmq/rest/v2/admin/action/qmgr/QM9/mqsc", json={"type": "runCommand", "parameters": {"command": "DISPLAY QMGR"}}, headers=CSRF)
        assert other_qmgr.status_code == 404


# -- users and roles -----------------------------------------------------------------------


@pytest.fixture
async def secured(nursery: trio.Nursery, tmp_path: Path) -> AsyncIterator[Server]:
    add_user(tmp_path, "admin", "MQWebAdmin")
    add_user(tmp_path, "viewer", "MQWebAdminRO")
    add_user(tmp_path, "app", "MQWebUser", groups=("apps",))
    # Tokens live 3 s: long enough for a login, three requests and a logout on a loaded CI machine (1 s was not), short
    # enough for test_login_token_logout_and_expiry to wait for one to expire.
    server = await start(nursery, tmp_path, token_lifetime=TOKEN_LIFETIME)
    yield server
    server.service.shutdown()


def basic(name: str, password: str | None = None) -> httpx.BasicAuth:
    return httpx.BasicAuth(name, password if password is not None else f"{name}-pw")


async def test_every_role_against_every_kind_of_request(secured: Server) -> None:
    async with secured.client() as client:
        assert (await run_text(client, "DISPLAY QMGR")).status_code == 401
        assert (await run_text(client, "DISPLAY QMGR", auth=basic("admin", "wrong"))).status_code == 401
        # MQWebAdmin: every administrative operation under the server's authority; no messaging
        made = await run_text(client, "DEFINE QLOCAL(APP.Q)", auth=basic("admin"))
        assert made.json()["overallCompletionCode"] == 0
        put = await client.post("/ibmmq/rest/v2/messaging/qmgr/QM1/queue/APP.Q/message", content=b"x", headers={**CSRF, "Content-Type": "text/plain"}, auth=basic("admin"))
        assert put.status_code == 403
        # MQWebAdminRO: displays anything, changes nothing (2035, AMQ8135E), browses only
        shown = await run_text(client, "DISPLAY QLOCAL(APP.Q)", auth=basic("viewer"))
        assert shown.json()["overallCompletionCode"] == 0
        refused = (await run_text(client, "ALTER QLOCAL(APP.Q) MAXDEPTH(1)", auth=basic("viewer"))).json()
        assert refused["commandResponse"][0]["reasonCode"] == mq.MQRC_NOT_AUTHORIZED
        assert refused["commandResponse"][0]["text"][0].startswith("AMQ8135E")
        process = (await run_json_auth(client, basic("viewer"), command="display", qualifier="process", name="SYSTEM.DEFAULT.PROCESS")).json()
        assert process["commandResponse"][0]["parameters"]["process"] == "SYSTEM.DEFAULT.PROCESS"
        made_by_viewer = (await run_json_auth(client, basic("viewer"), command="define", qualifier="namelist", name="VIEWER.NL")).json()
        assert made_by_viewer["commandResponse"][0]["reasonCode"] == mq.MQRC_NOT_AUTHORIZED
        browse = await client.get("/ibmmq/rest/v2/messaging/qmgr/QM1/queue/APP.Q/messagelist", auth=basic("viewer"))
        assert browse.status_code == 200
        viewer_put = await client.post("/ibmmq/rest/v2/messaging/qmgr/QM1/queue/APP.Q/message", content=b"x", headers={**CSRF, "Content-Type": "text/plain"}, auth=basic("viewer"))
        assert viewer_put.status_code == 403
        # MQWebUser: under its own authority records; nothing granted yet
        app_put = await client.post("/ibmmq/rest/v2/messaging/qmgr/QM1/queue/APP.Q/message", content=b"x", headers={**CSRF, "Content-Type": "text/plain"}, auth=basic("app"))
        assert app_put.status_code == 500 and app_put.json()["error"][0]["reasonCode"] == mq.MQRC_NOT_AUTHORIZED
        app_alter = (await run_text(client, "ALTER QLOCAL(APP.Q) MAXDEPTH(1)", auth=basic("app"))).json()
        assert app_alter["commandResponse"][0]["reasonCode"] == mq.MQRC_NOT_AUTHORIZED
        # the admin grants put to the group apps over PCF, the queue manager's own way
        async with connect(*secured.pcf) as pcf:
            grant = Message(
                mq.MQCMD_SET_AUTH_REC,
                (
                    String(mq.MQCACF_AUTH_PROFILE_NAME, "APP.**"),
                    Integer(mq.MQIACF_OBJECT_TYPE, mq.MQOT_Q),
                    IntegerList(mq.MQIACF_AUTH_ADD_AUTHS, (mq.MQAUTH_OUTPUT, mq.MQAUTH_DISPLAY)),
                    StringList(mq.MQCACF_GROUP_ENTITY_NAMES, ("apps",)),
                ),
            )
            assert (await pcf.execute(grant, check_failure=False))[0].reason == 0
        app_put = await client.post("/ibmmq/rest/v2/messaging/qmgr/QM1/queue/APP.Q/message", content=b"granted", headers={**CSRF, "Content-Type": "text/plain"}, auth=basic("app"))
        assert app_put.status_code == 201
        app_get = await client.delete("/ibmmq/rest/v2/messaging/qmgr/QM1/queue/APP.Q/message", headers=CSRF, auth=basic("app"))
        assert app_get.status_code == 500 and app_get.json()["error"][0]["reasonCode"] == mq.MQRC_NOT_AUTHORIZED
        shown = (await run_json_auth(client, basic("app"), command="display", qualifier="qlocal", name="*", responseParameters=["curdepth"])).json()
        assert [i["parameters"]["queue"] for i in shown["commandResponse"]] == ["APP.Q"]  # only what it may display
        assert shown["commandResponse"][0]["parameters"]["curdepth"] == 1


async def run_json_auth(client: httpx.AsyncClient, auth: httpx.BasicAuth, **body: Any) -> httpx.Response:
    return await client.post(MQSC, json={"type": "runCommandJSON", **body}, headers=CSRF, auth=auth)


async def test_login_token_logout_and_expiry(secured: Server) -> None:
    async with secured.client() as client:
        bad = await client.post("/ibmmq/rest/v1/login", json={"username": "admin", "password": "nope"}, headers=CSRF)
        assert bad.status_code == 401
        good = await client.post("/ibmmq/rest/v1/login", json={"username": "admin", "password": "admin-pw"}, headers=CSRF)
        assert good.status_code == 204 and "LtpaToken2" in good.cookies
        who = await client.get("/ibmmq/rest/v1/login")
        assert who.json()["user"][0]["name"] == "admin" and who.json()["user"][0]["role"] == ["MQWebAdmin"]
        assert (await run_text(client, "DISPLAY QMGR")).status_code == 200  # the cookie authenticates
        assert (await client.delete("/ibmmq/rest/v1/login", headers=CSRF)).status_code == 204
        old = good.cookies["LtpaToken2"]
        client.cookies.clear()
        assert (await run_text(client, "DISPLAY QMGR", headers={**CSRF, "Cookie": f"LtpaToken2={old}"})).status_code == 401
        again = await client.post("/ibmmq/rest/v2/login", json={"username": "admin", "password": "admin-pw"}, headers=CSRF)
        token = again.cookies["LtpaToken2"]
        await trio.sleep(TOKEN_LIFETIME + 0.3)  # the server was started with a short token lifetime
        client.cookies.clear()
        assert (await run_text(client, "DISPLAY QMGR", headers={**CSRF, "Cookie": f"LtpaToken2={token}"})).status_code == 401


async def test_login_tokens_and_logouts_outlive_a_restart(tmp_path: Path) -> None:
    """As mqweb's LTPA tokens do: a token stays good until it expires, across a restart; a
    logged-out one stays out; the store keeps only digests of them."""
    add_user(tmp_path, "admin", "MQWebAdmin")
    login = {"username": "admin", "password": "admin-pw"}
    async with trio.open_nursery() as nursery:
        server = await start(nursery, tmp_path)
        async with server.client() as client:
            kept = (await client.post("/ibmmq/rest/v1/login", json=login, headers=CSRF)).cookies["LtpaToken2"]
            client.cookies.clear()
            ended = (await client.post("/ibmmq/rest/v1/login", json=login, headers=CSRF)).cookies["LtpaToken2"]
            client.cookies.clear()
            assert (await client.delete("/ibmmq/rest/v1/login", headers={**CSRF, "Cookie": f"LtpaToken2={ended}"})).status_code == 204
        server.service.shutdown()
    server.service.committer.engine.close()
    stored = b"".join(path.read_bytes() for path in tmp_path.glob("users.sqlite3*"))
    assert kept.encode() not in stored and ended.encode() not in stored
    async with trio.open_nursery() as nursery:
        server = await start(nursery, tmp_path)
        async with server.client() as client:
            who = await client.get("/ibmmq/rest/v1/login", headers={"Cookie": f"LtpaToken2={kept}"})
            assert who.status_code == 200 and who.json()["user"][0]["authenticationMechanism"] == "form"
            assert (await run_text(client, "DISPLAY QMGR", headers={**CSRF, "Cookie": f"LtpaToken2={ended}"})).status_code == 401
        server.service.shutdown()
    server.service.committer.engine.close()
    store = UserStore(tmp_path)
    store.remove("admin")  # removing a user ends their tokens
    assert store.token(kept) is None
    store.close()


async def test_failed_logins_are_rate_limited_per_address(secured: Server) -> None:
    async with secured.client() as client:
        for _ in range(5):
            assert (await client.post("/ibmmq/rest/v1/login", json={"username": "admin", "password": "guess"}, headers=CSRF)).status_code == 401
        right = await client.post("/ibmmq/rest/v1/login", json={"username": "admin", "password": "admin-pw"}, headers=CSRF)
        assert right.status_code == 401 and right.json()["error"][0]["msgId"] == "PCFS0012E"  # even the right password waits


def _cli_user(data: Path, *args: str, password: str = "pw") -> None:
    """``pcfserver user ARGS --data DATA`` in a process of its own, as an administrator runs it (the password on stdin)."""
    done = subprocess.run(
        [sys.executable, "-m", "pcfserver", "user", *args, "--data", str(data)], input=password + "\n", capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stderr


async def test_a_running_server_sees_users_added_by_the_cli(secured: Server) -> None:
    async with secured.client() as client:
        assert (await run_text(client, "DISPLAY QMGR", auth=basic("late"))).status_code == 401
        _cli_user(secured.data, "add", "late", "--role", "MQWebAdmin", "--password-stdin", password="late-pw")
        assert (await run_text(client, "DISPLAY QMGR", auth=basic("late"))).status_code == 200
        _cli_user(secured.data, "remove", "late")
        assert (await run_text(client, "DISPLAY QMGR", auth=basic("late"))).status_code == 401


class _CountingDb:
    """A connection that counts the statements run through it."""

    def __init__(self, db: Any) -> None:
        self.db, self.statements = db, 0

    def execute(self, *args: Any) -> Any:
        self.statements += 1
        return self.db.execute(*args)

    def __getattr__(self, name: str) -> Any:
        return getattr(self.db, name)


@pytest.mark.parametrize("watched", [True, False], ids=["wal-index watched", "PRAGMA only"])
def test_the_servers_user_store_sees_another_process_change_at_its_next_look(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, watched: bool) -> None:
    """The server's store looks at SQLite's WAL-index header and reads the users again as soon as another process
    (the CLI) changed them, not a second later; while nothing changes it runs no statement at all."""
    monkeypatch.setattr(users, "RECHECK_SECONDS", 3600.0)  # only the header can tell it here
    _cli_user(tmp_path, "add", "early", "--role", "MQWebUser", "--password-stdin")
    store = UserStore(tmp_path)
    try:
        if not watched:
            assert store._wal_index is not None
            store._wal_index.close()
            store._wal_index = None
        counting = _CountingDb(store._db)
        store._db = counting  # type: ignore[assignment]
        assert store.get("early") is not None and store.get("late") is None
        before = counting.statements
        for _ in range(5):
            assert store.get("early") is not None
        assert (counting.statements == before) is watched  # unchanged: no statement when the header is watched
        _cli_user(tmp_path, "add", "late", "--role", "MQWebUser", "--password-stdin")
        assert store.get("late") is not None
        _cli_user(tmp_path, "remove", "early")
        assert store.get("early") is None
    finally:
        store.close()


def test_passwords_are_stored_as_scrypt_hashes(tmp_path: Path) -> None:
    add_user(tmp_path, "alice", "MQWebAdmin")
    raw = (tmp_path / "users.sqlite3").read_bytes() + (tmp_path / "users.sqlite3-wal").read_bytes() if (tmp_path / "users.sqlite3-wal").exists() else (tmp_path / "users.sqlite3").read_bytes()
    assert b"alice-pw" not in raw
    store = UserStore(tmp_path)
    assert store.verify("alice", "alice-pw") is not None and store.verify("alice", "alice-PW") is None
    store.close()


# -- exposure and TLS --------------------------------------------------------------------------


def test_the_server_refuses_to_listen_beyond_loopback_without_authentication(tmp_path: Path) -> None:
    engine = open_engine(tmp_path)
    try:
        with pytest.raises(InsecureListen, match="--insecure"):
            Service(engine, ServerConfig(host="0.0.0.0", port=0, http_port=0), tmp_path)
        Service(engine, ServerConfig(host="0.0.0.0", port=0, http_port=0, insecure=True), tmp_path)  # told so in so many words
    finally:
        engine.close()


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA()


def write_cert(ca: trustme.CA, directory: Path, *names: str, common_name: str | None = None) -> tuple[Path, Path]:
    cert = ca.issue_cert(*names, common_name=common_name) if common_name else ca.issue_cert(*names)
    cert_path, key_path = directory / f"{names[0]}.pem", directory / f"{names[0]}.key"
    cert.cert_chain_pems[0].write_to_path(str(cert_path))
    cert.private_key_pem.write_to_path(str(key_path))
    return cert_path, key_path


async def test_https_with_a_test_ca_and_a_client_certificate(nursery: trio.Nursery, tmp_path: Path, ca: trustme.CA) -> None:
    add_user(tmp_path, "certuser", "MQWebAdminRO")
    cert, key = write_cert(ca, tmp_path, "localhost", "127.0.0.1")
    ca_path = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(ca_path))
    server = await start(nursery, tmp_path, http_port=None, https_port=0, tls_cert=cert, tls_key=key, tls_ca=ca_path)
    trusting = ssl.create_default_context()
    ca.configure_trust(trusting)
    async with httpx.AsyncClient(base_url=f"https://127.0.0.1:{server.https}", verify=trusting, timeout=20) as client:
        assert (await run_text(client, "DISPLAY QMGR")).status_code == 401  # no credentials at all
    client_cert = ca.issue_cert("certuser@example", common_name="certuser")
    with_cert = ssl.create_default_context()
    ca.configure_trust(with_cert)
    client_cert.configure_cert(with_cert)
    async with httpx.AsyncClient(base_url=f"https://127.0.0.1:{server.https}", verify=with_cert, timeout=20) as client:
        who = (await client.get("/ibmmq/rest/v2/login")).json()["user"][0]
        assert who == {"name": "certuser", "role": ["MQWebAdminRO"], "authenticationMechanism": "clientCertificate"}
        assert (await run_text(client, "DISPLAY QMGR")).json()["overallCompletionCode"] == 0
    server.service.shutdown()


async def test_https_makes_its_own_self_signed_certificate_once(nursery: trio.Nursery, tmp_path: Path) -> None:
    server = await start(nursery, tmp_path, http_port=None, https_port=0)
    cert = tmp_path / "server-cert.pem"
    assert cert.exists() and (tmp_path / "server-key.pem").stat().st_mode & 0o077 == 0
    context = ssl.create_default_context(cafile=str(cert))
    async with httpx.AsyncClient(base_url=f"https://localhost:{server.https}", verify=context, timeout=20) as client:
        assert (await client.get("/ibmmq/rest/v2/admin/qmgr")).json()["qmgr"][0]["name"] == "QM1"
    server.service.shutdown()


async def test_pcf_over_tls_maps_the_certificate_cn_to_a_user(nursery: trio.Nursery, tmp_path: Path, ca: trustme.CA) -> None:
    add_user(tmp_path, "pcfapp", "MQWebUser")
    cert, key = write_cert(ca, tmp_path, "localhost", "127.0.0.1")
    ca_path = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(ca_path))
    server = await start(nursery, tmp_path, http_port=None, pcf_tls=True, tls_cert=cert, tls_key=key, tls_ca=ca_path)
    context = ssl.create_default_context()
    ca.configure_trust(context)
    ca.issue_cert("pcfapp@example", common_name="pcfapp").configure_cert(context)
    stream = await trio.open_ssl_over_tcp_stream(*server.pcf, ssl_context=context, https_compatible=False)
    from pcfserver.client.aio import Client

    async with Client(stream) as client:
        define = Message(mq.MQCMD_CREATE_Q, (String(mq.MQCA_Q_NAME, "TLS.Q"), Integer(mq.MQIA_Q_TYPE, mq.MQQT_LOCAL)))
        answer = await client.execute(define, check_failure=False)
        assert answer[0].reason == mq.MQRC_NOT_AUTHORIZED  # pcfapp's records grant nothing
    # without a client certificate the TLS port does not serve at all
    plain_context = ssl.create_default_context()
    ca.configure_trust(plain_context)
    with pytest.raises((trio.BrokenResourceError, OSError)):
        bare = await trio.open_ssl_over_tcp_stream(*server.pcf, ssl_context=plain_context)
        await bare.send_all(b"x" * 64)
        await bare.receive_some(10)
    server.service.shutdown()


# -- the conformance client's REST group -------------------------------------------------------


async def test_the_rest_conformance_group_passes_against_this_server(nursery: trio.Nursery, tmp_path: Path) -> None:
    from pcfserver.conformance.rest import run_rest

    add_user(tmp_path, "conf", "MQWebAdmin")
    server = await start(nursery, tmp_path)
    results = await trio.to_thread.run_sync(lambda: run_rest(f"http://{HOST}:{server.http}", "QM1", user="conf", password="conf-pw"))
    assert len(results) >= 8
    assert [r.problems for r in results if not r.passed] == []
    # and it notices a server that answers wrongly: wrong credentials fail every authenticated case
    wrong = await trio.to_thread.run_sync(lambda: run_rest(f"http://{HOST}:{server.http}", "QM1", user="conf", password="nope"))
    assert sum(not r.passed for r in wrong) >= 6
    assert any("status 401" in p for r in wrong for p in r.problems)
    server.service.shutdown()


async def test_a_user_granted_get_and_put_takes_messages_and_leaves_non_text_ones(secured: Server) -> None:
    """IBM: the messaging API receives 'destructively under sync-point and any unhandled messages are left on the
    queue', so a DELETE needs GET authority, not BROWSE as well (a user granted PUT and GET only got 2035 before)."""
    url = "/ibmmq/rest/v2/messaging/qmgr/QM1/queue/APP.GP/message"
    async with secured.client() as client:
        for text in ("DEFINE QLOCAL(APP.GP)", "SET AUTHREC PROFILE('APP.GP') OBJTYPE(QUEUE) PRINCIPAL('app') AUTHADD(PUT,GET)"):
            assert (await run_text(client, text, auth=basic("admin"))).json()["overallCompletionCode"] == 0
        put = await client.post(url, content=b"take me", headers={**CSRF, "Content-Type": "text/plain"}, auth=basic("app"))
        assert put.status_code == 201
        got = await client.delete(url, headers=CSRF, auth=basic("app"))
        assert (got.status_code, got.text) == (200, "take me")
        # a message that is not text stays on the queue for this user too (the engine's own put, a binary format)
        engine = secured.service.committer.engine
        layer = engine.messaging
        engine.execute_operation(lambda: layer.put(None, "APP.GP", b"\x00\x01binary", format="MQADMIN "))
        refused = await client.delete(url, headers=CSRF, auth=basic("app"))
        assert (refused.status_code, refused.json()["error"][0]["reasonCode"]) == (500, mq.MQRC_FORMAT_ERROR)
        depth = (await run_text(client, "DISPLAY QLOCAL(APP.GP) CURDEPTH", auth=basic("admin"))).json()
        assert "CURDEPTH(1)" in " ".join(depth["commandResponse"][0]["text"])


async def test_a_token_asked_for_over_https_is_refused_over_http(nursery: trio.Nursery, tmp_path: Path) -> None:
    """IBM (Configuring the LTPA token): a token issued for an HTTPS request is not accepted over HTTP by default; its
    cookie is Secure.  A token asked for over HTTP works there.  GET /login names the mechanism in IBM's words, and
    DELETE /login without the CSRF header is 401 as IBM's logout page says."""
    add_user(tmp_path, "admin", "MQWebAdmin")
    server = await start(nursery, tmp_path, https_port=0)
    cert = tmp_path / "server-cert.pem"
    context = ssl.create_default_context(cafile=str(cert))
    login = {"username": "admin", "password": "admin-pw"}
    async with httpx.AsyncClient(base_url=f"https://localhost:{server.https}", verify=context, timeout=20) as secure:
        issued = await secure.post("/ibmmq/rest/v2/login", json=login, headers=CSRF)
        assert issued.status_code == 204 and "; Secure" in issued.headers["set-cookie"]
        token = issued.cookies["LtpaToken2"]
        who = (await secure.get("/ibmmq/rest/v2/login")).json()["user"][0]
        assert (who["name"], who["authenticationMechanism"]) == ("admin", "form")
        secure.cookies.clear()
        basic_who = (await secure.get("/ibmmq/rest/v2/login", auth=basic("admin"))).json()["user"][0]
        assert basic_who["authenticationMechanism"] == "basic"
    async with server.client() as plain:
        refused = await plain.get("/ibmmq/rest/v2/admin/qmgr", headers={"Cookie": f"LtpaToken2={token}"})
        assert refused.status_code == 401
        own = await plain.post("/ibmmq/rest/v2/login", json=login, headers=CSRF)
        assert own.status_code == 204 and "; Secure" not in own.headers["set-cookie"]
        assert (await plain.get("/ibmmq/rest/v2/admin/qmgr")).status_code == 200
        assert (await plain.delete("/ibmmq/rest/v2/login")).status_code == 401  # no CSRF header
        assert (await plain.delete("/ibmmq/rest/v2/login", headers=CSRF)).status_code == 204
    server.service.shutdown()
