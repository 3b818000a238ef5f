"""The CLI signs in (issue 21 §6): put, get, browse and console --rest against real servers with
users, on HTTP and on HTTPS with certificates from a test CA (trustme), the CLI run as a user
would run it (a subprocess, no terminal to prompt at)."""

from __future__ import annotations

import argparse
import fcntl
import io
import os
import pty
import subprocess
import sys
import termios
import time
from collections.abc import AsyncIterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import trio
import trustme

from pcfserver.client.rest_session import Endpoint, OptionError, Session, add_options, parse_url
from pcfserver.engine import open_engine
from pcfserver.server import ServerConfig
from pcfserver.server.service import Service
from pcfserver.tables import FORMATS_DIR
from pcfserver.users import UserStore

HOST = "127.0.0.1"
QUEUE = "SYSTEM.DEFAULT.LOCAL.QUEUE"
TRANSCRIPTS = FORMATS_DIR / "transcripts"
GRANT = "SET AUTHREC PROFILE('SYSTEM.DEFAULT.LOCAL.QUEUE') OBJTYPE(QUEUE) PRINCIPAL('bob') AUTHADD(PUT, GET, BROWSE, INQ)\n"


@dataclass
class Server:
    service: Service
    http: int
    https: int
    pcf: int
    data: Path
    ca: Path  # the CA that signed the server's certificate


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA()


def add_user(data: Path, name: str, *roles: str) -> None:
    store = UserStore(data)
    store.add(name, list(roles), f"{name}-pw", [])
    store.close()


async def start(nursery: trio.Nursery, data: Path, ca: trustme.CA) -> Server:
    """A server with users (bob as the issue made him, and a read-only viewer), HTTP and HTTPS."""
    add_user(data, "bob", "MQWebUser", "MQWebAdmin")
    add_user(data, "viewer", "MQWebAdminRO")
    add_user(data, "certuser", "MQWebAdmin")
    cert = ca.issue_cert("localhost", "127.0.0.1")
    cert.cert_chain_pems[0].write_to_path(str(data / "tls-cert.pem"))
    cert.private_key_pem.write_to_path(str(data / "tls-key.pem"))
    ca.cert_pem.write_to_path(str(data / "ca.pem"))
    config = ServerConfig(
        host=HOST, port=0, http_port=0, https_port=0,
        tls_cert=data / "tls-cert.pem", tls_key=data / "tls-key.pem", tls_ca=data / "ca.pem",
    )  # fmt: skip
    service = Service(open_engine(data), config, data)
    addresses = await nursery.start(service.serve)
    return Server(service, addresses.http[1], addresses.https[1], addresses.pcf[1], data, data / "ca.pem")


@pytest.fixture
async def server(nursery: trio.Nursery, tmp_path: Path, ca: trustme.CA) -> AsyncIterator[Server]:
    running = await start(nursery, tmp_path, ca)
    yield running
    running.service.shutdown()


async def cli(*args: str, stdin: bytes = b"", env: dict[str, str] | None = None) -> tuple[int, str, str]:
    """``pcfserver ARGS`` in a new session (no controlling terminal, so no password prompt)."""
    clean = {k: v for k, v in os.environ.items() if not k.startswith("PCFSERVER_")}
    with trio.fail_after(60):
        done = await trio.run_process(
            [sys.executable, "-m", "pcfserver", *args], stdin=stdin, capture_stdout=True, capture_stderr=True, check=False,
            env={**clean, "PYTHONUNBUFFERED": "1", **(env or {})}, start_new_session=True,
        )  # fmt: skip
    return done.returncode, done.stdout.decode(), done.stderr.decode()


BOB = {"PCFSERVER_PASSWORD": "bob-pw"}


async def test_put_get_browse_sign_in_over_http_and_https(server: Server) -> None:
    http = ("--port", str(server.http))
    https = ("--https", "--port", str(server.https), "--cafile", str(server.ca))
    # the issue's report: no way to sign in, so the server answers 401; the message now says what to give
    code, _, err = await cli("put", QUEUE, *http, stdin=b"hi\n")
    assert code == 1 and "The request is not authenticated" in err and "give --user NAME" in err
    # bob may administer (MQWebAdmin) but messages go under his own authority (MQWebUser): grant it over REST
    code, out, err = await cli("console", "--rest", f"https://localhost:{server.https}", "--cafile", str(server.ca), "--user", "bob", env=BOB, stdin=GRANT.encode())
    assert (code, err) == (0, ""), out
    assert "AMQ8862I: IBM MQ authority record set." in out
    # the password from the environment, over HTTP
    code, out, err = await cli("put", QUEUE, "-", *http, "--user", "bob", stdin=b"over http\n", env=BOB)
    assert (code, err) == (0, "") and out.startswith(f"put 1 message to {QUEUE}")
    # from standard input's first line, with the messages from a file, over HTTPS
    lines = server.data / "lines.txt"
    lines.write_text("over https\n")
    code, out, err = await cli("put", QUEUE, str(lines), *https, "--user", "bob", "--password-stdin", stdin=b"bob-pw\n")
    assert (code, err) == (0, ""), err
    # the user from the environment too; a full https URL instead of --https --port
    both = {**BOB, "PCFSERVER_USER": "bob"}
    code, out, err = await cli("browse", QUEUE, "--url", f"https://127.0.0.1:{server.https}", "--cafile", str(server.ca), env=both)
    assert code == 0 and "over http" in out and "over https" in out and "(2 browsed" in out
    code, out, err = await cli("get", QUEUE, "--all", *https, "--user", "bob", "--password-stdin", stdin=b"bob-pw\n")
    assert (code, out) == (0, "over http\nover https\n") and "got 2 messages" in err
    # a read-only user browses but may not get: the server's 403, said plainly
    code, _, err = await cli("get", QUEUE, *https, "--user", "viewer", env={"PCFSERVER_PASSWORD": "viewer-pw"})
    assert code == 1 and "PCFS0013E" in err and "viewer" in err


async def test_wrong_passwords_certificates_and_ports_are_clear_messages(server: Server, ca: trustme.CA, tmp_path: Path) -> None:
    https = ("--https", "--port", str(server.https))
    code, out, err = await cli("browse", QUEUE, *https, "--cafile", str(server.ca), "--user", "bob", env={"PCFSERVER_PASSWORD": "wrong"})
    assert (code, out) == (1, "")
    assert "refused the user name or password of bob: PCFS0010E" in err and "Traceback" not in err
    # a CA that did not sign the server's certificate, and the system's CAs (which did not either)
    other = tmp_path / "other-ca.pem"
    trustme.CA().cert_pem.write_to_path(str(other))
    for trust in (("--cafile", str(other)), ()):
        code, out, err = await cli("browse", QUEUE, *https, *trust, "--user", "bob", env=BOB)
        assert code == 1 and "cannot verify the certificate of https://127.0.0.1:" in err and "--cafile" in err, err
    # --insecure skips the check (as curl's)
    code, out, err = await cli("browse", QUEUE, *https, "--insecure", "--user", "bob", env=BOB)
    assert code == 1 and "No more messages (0 browsed" in out and err == ""
    # HTTPS spoken to the HTTP port, and HTTP to the HTTPS port
    code, _, err = await cli("browse", QUEUE, "--https", "--port", str(server.http), "--cafile", str(server.ca), "--user", "bob", env=BOB)
    assert code == 1 and "TLS with https://127.0.0.1:" in err and "leave out --https" in err, err
    code, _, err = await cli("browse", QUEUE, "--port", str(server.https), "--user", "bob", env=BOB)
    assert code == 1 and "add --https" in err, err
    # no password anywhere and no terminal to ask at: a usage error, nothing sent
    code, _, err = await cli("browse", QUEUE, "--port", str(server.http), "--user", "bob")
    assert code == 2 and "no password for bob" in err and "PCFSERVER_PASSWORD" in err
    # options that cannot go together
    code, _, err = await cli("put", QUEUE, "-", "--port", str(server.http), "--user", "bob", "--password-stdin", stdin=b"bob-pw\nmessage\n")
    assert code == 2 and "cannot share it" in err
    code, _, err = await cli("browse", QUEUE, "--port", str(server.http), "--cafile", str(server.ca))
    assert code == 2 and "add --https" in err
    code, _, err = await cli("browse", QUEUE, "--port", str(server.http), "--password-stdin", stdin=b"x\n")
    assert code == 2 and "--password-stdin needs --user" in err


async def test_a_client_certificate_signs_in_without_a_password(server: Server, ca: trustme.CA, tmp_path: Path) -> None:
    client = ca.issue_cert("certuser@example", common_name="certuser")
    client.cert_chain_pems[0].write_to_path(str(tmp_path / "client.pem"))
    client.private_key_pem.write_to_path(str(tmp_path / "client.key"))
    tls = ("--cafile", str(server.ca), "--cert", str(tmp_path / "client.pem"), "--key", str(tmp_path / "client.key"))
    code, out, err = await cli("console", "--rest", f"https://localhost:{server.https}", *tls, stdin=b"DEFINE QLOCAL(CERT.Q)\n")
    assert (code, err) == (0, "") and "AMQ8006I: IBM MQ queue created." in out


@pytest.mark.parametrize(("script", "exit_code"), [("runmqsc-reference.mqsc", 0), ("runmqsc-one.mqsc", 0), ("runmqsc-setup.mqsc", 10), ("runmqsc-triggering.mqsc", 10)])
async def test_console_over_rest_prints_what_it_prints_over_pcf(server: Server, script: str, exit_code: int) -> None:
    """The golden transcripts (what the console prints over PCF on a fresh queue manager, and
    runmqsc's own example) come out of runCommand over HTTPS unchanged, exit status included."""
    source = TRANSCRIPTS / script
    expected = (TRANSCRIPTS / (source.stem + ".out")).read_text()
    rest = ("console", "--rest", f"https://localhost:{server.https}", "--cafile", str(server.ca), "--user", "bob", "--password-stdin", str(source))
    code, out, err = await cli(*rest, stdin=b"bob-pw\n")
    assert out == expected
    assert (code, err) == (exit_code, "")


async def test_console_over_rest_and_over_pcf_agree_on_the_same_server(server: Server) -> None:
    script = (
        "DEFINE QLOCAL(SAME.Q) MAXDEPTH(7) DESCR('both ways')\n"
        "DISPLAY QLOCAL(SAME.Q) MAXDEPTH DESCR\n"
        "ALTER QLOCAL(SAME.NONE) MAXDEPTH(1)\n"
        "DEFINE QLOCAL(SAME.Q)\n"
        "DISPLAY QLOCAL(SAME.Q) BADWORD\n"
        "DISPLAY QMGR MAXUMSGS\n"
        "/* a CL comment */\n"
        "DELETE QLOCAL(SAME.Q)\n"
        "DELETE QLOCAL(SAME.Q)\n"
        "DEFINE QLOCAL(SAME.U) DESCR('next\x85line')\n"  # U+0085 is text, not a line end, inside a quoted string
        "DISPLAY QLOCAL(SAME.U) DESCR\n"
        "DELETE QLOCAL(SAME.U)\n"
    )
    code_pcf, out_pcf, _ = await cli("console", "--port", str(server.pcf), stdin=script.encode())
    code_rest, out_rest, err = await cli("console", "--rest", f"http://127.0.0.1:{server.http}", "--user", "bob", env=BOB, stdin=script.encode())
    assert (code_rest, err) == (code_pcf, "") == (10, "")
    assert out_rest == out_pcf
    assert "AMQ8405I" in out_rest and "AMQ8147E" in out_rest and "DESCR(both ways)" in out_rest
    assert "DESCR(next\x85line)" in out_rest


async def test_console_over_rest_failures(server: Server, tmp_path: Path) -> None:
    base = ("console", "--rest", f"https://localhost:{server.https}", "--cafile", str(server.ca))
    # a wrong password: runmqsc's "queue manager not available", exit 20, the reason on stderr
    code, out, err = await cli(*base, "--user", "bob", env={"PCFSERVER_PASSWORD": "nope"}, stdin=b"DISPLAY QMGR\n")
    assert code == 20 and "AMQ8146E" in out and "DISPLAY QMGR" not in out
    assert err.startswith("pcfserver console: the server at https://localhost:") and "refused the user name or password of bob" in err
    # a CA that does not match
    other = tmp_path / "other-ca.pem"
    trustme.CA().cert_pem.write_to_path(str(other))
    code, out, err = await cli("console", "--rest", f"https://localhost:{server.https}", "--cafile", str(other), "--user", "bob", env=BOB, stdin=b"DISPLAY QMGR\n")
    assert code == 20 and "AMQ8146E" in out and "cannot verify the certificate of https://localhost:" in err
    # a read-only user's change fails as runmqsc shows it (AMQ8135E), the display works
    code, out, err = await cli(*base, "--user", "viewer", env={"PCFSERVER_PASSWORD": "viewer-pw"}, stdin=b"DISPLAY QMGR MAXUMSGS\nDEFINE QLOCAL(RO.Q)\n")
    assert code == 10 and "MAXUMSGS(10000)" in out and "AMQ8135E" in out and err == ""
    # a queue manager the server does not have
    code, out, err = await cli(*base, "--qmgr", "QM9", "--user", "bob", env=BOB, stdin=b"DISPLAY QMGR\n")
    assert code == 20 and "AMQ8146E" in out and "QM9" in err
    # nothing listening
    listener = (await trio.open_tcp_listeners(0, host=HOST))[0]
    port = listener.socket.getsockname()[1]
    await listener.aclose()
    code, out, err = await cli("console", "--rest", f"http://127.0.0.1:{port}", stdin=b"DISPLAY QMGR\n")
    assert code == 20 and "AMQ8146E" in out and "cannot reach" in err
    # usage errors
    code, _, err = await cli(*base, "--dialect", "tpf", "--user", "bob", env=BOB, stdin=b"ZMQSC DIS QL-X\n")
    assert code == 2 and "MQSC only" in err
    code, _, err = await cli(*base, "--user", "bob", "--password-stdin", stdin=b"bob-pw\nDISPLAY QMGR\n")
    assert code == 2 and "cannot share it" in err
    code, _, err = await cli("console", "--port", str(server.pcf), "--user", "bob", stdin=b"DISPLAY QMGR\n")
    assert code == 2 and "--user go with --rest URL" in err


async def test_the_conformance_client_signs_in_the_same_way(server: Server) -> None:
    https = ("conformance", "--rest", f"https://localhost:{server.https}", "--cafile", str(server.ca))
    code, out, err = await cli(*https, "--user", "bob", "--password-stdin", stdin=b"bob-pw\n")
    assert (code, err) == (0, "") and "0 failed" in out
    code, out, _ = await cli(*https, "--user", "bob", env={"PCFSERVER_PASSWORD": "wrong"})
    assert code == 1 and "status 401" in out
    code, _, err = await cli("conformance", "--rest", f"http://127.0.0.1:{server.http}", "--cafile", str(server.ca))
    assert code == 2 and "https://" in err


def at_a_terminal(args: list[str], answer: bytes) -> tuple[int, bytes]:
    """``pcfserver ARGS`` with a terminal (a pty, its controlling terminal) that answers the prompt."""
    master, slave = pty.openpty()
    clean = {k: v for k, v in os.environ.items() if not k.startswith("PCFSERVER_")}
    process = subprocess.Popen(
        [sys.executable, "-m", "pcfserver", *args], stdin=slave, stdout=slave, stderr=slave, env=clean, start_new_session=True,
        preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0),
    )  # fmt: skip
    os.close(slave)
    seen, answered, deadline = b"", False, time.monotonic() + 60
    try:
        while time.monotonic() < deadline:
            try:
                chunk = os.read(master, 4096)
            except OSError:  # EIO: the child closed the terminal
                break
            if not chunk:
                break
            seen += chunk
            if not answered and b"Password for bob: " in seen:
                os.write(master, answer + b"\n")
                answered = True
        return process.wait(timeout=60), seen
    finally:
        os.close(master)
        if process.poll() is None:
            process.kill()


async def test_at_a_terminal_the_password_is_asked_for_and_not_echoed(server: Server) -> None:
    script = server.data / "show.mqsc"
    script.write_text("DISPLAY QMGR MAXUMSGS\n")
    console = ["console", "--rest", f"http://127.0.0.1:{server.http}", "--user", "bob", str(script)]
    code, seen = await trio.to_thread.run_sync(at_a_terminal, console, b"bob-pw")
    assert code == 0 and b"MAXUMSGS(10000)" in seen and b"bob-pw" not in seen
    browse = ["browse", QUEUE, "--port", str(server.http), "--user", "bob"]
    code, seen = await trio.to_thread.run_sync(at_a_terminal, browse, b"not-it")
    assert code == 1 and b"refused the user name or password of bob" in seen and b"not-it" not in seen


def test_urls_ports_and_the_unencrypted_password_warning(monkeypatch: pytest.MonkeyPatch) -> None:
    assert parse_url("https://mq.example.com") == Endpoint("https", "mq.example.com", 9443)
    assert parse_url("http://[::1]:9080/ibmmq/rest/v2") == Endpoint("http", "::1", 9080)
    assert parse_url("mq.example.com:1234", https=True) == Endpoint("https", "mq.example.com", 1234)
    for bad in ("ftp://x", "https://x:99999", "http://"):
        with pytest.raises(OptionError):
            parse_url(bad)
    monkeypatch.setenv("PCFSERVER_PASSWORD", "pw")
    monkeypatch.delenv("PCFSERVER_USER", raising=False)
    parser = argparse.ArgumentParser()
    add_options(parser)
    for host, warned in (("mq.example.com", True), ("127.0.0.1", False), ("localhost", False)):
        stream = io.StringIO()
        Session(parser.parse_args(["--host", host, "--user", "bob"]), warn=stream).close()  # nothing is sent until a request
        assert ("sending bob's password unencrypted to http://" in stream.getvalue()) is warned
    stream = io.StringIO()
    Session(parser.parse_args(["--url", "https://mq.example.com", "--user", "bob"]), warn=stream).close()
    assert stream.getvalue() == ""
    with pytest.raises(OptionError, match="--cafile"):
        Session(parser.parse_args(["--https", "--cafile", "/no/such/ca.pem", "--user", "bob"]))
