"""``pcfserver console`` and ``pcfserver dump``: the command languages over the PCF TCP port.

``console`` reads commands from a file, a pipe or the terminal (with line editing and history),
runs each through :mod:`pcfserver.dialects` and prints what the platform prints; in MQSC its
output and exit status are runmqsc's (0 all processed, 10 some failed, 20 no queue manager),
so ``pcfserver console < setup.mqsc`` runs an existing runmqsc script unchanged.  With ``--rest
URL`` (and the sign-in and TLS options of :mod:`pcfserver.client.rest_session`) it runs MQSC
over the REST API's runCommand instead of the PCF port (:mod:`pcfserver.client.mqsc_rest`),
printing the same lines with the same exit status.  ``dump``
prints the registry as DEFINE ... REPLACE (or CRTMQMQ) commands that recreate it; exit status 0,
or 1 when the server cannot be reached or refuses.
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TextIO

from pcfserver.client.mqsc_rest import RestMqsc
from pcfserver.client.protocol import PcfClientError, portable
from pcfserver.client.rest_session import OptionError, Session, add_options
from pcfserver.client.sync import SyncClient
from pcfserver.codec import Message, PcfError
from pcfserver.dialects import ExecuteError, ScriptRunner, dump
from pcfserver.dialects.runner import DIALECTS, EXIT_ERROR, queue_manager_name
from pcfserver.engine.responses import error_responses

HISTORY = Path.home() / ".pcfserver_console_history"


def configure(name: str, parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--host", default="127.0.0.1", help="server address (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=1414, help="server port (default 1414)")
    parser.add_argument("--timeout", type=float, default=30.0, metavar="S", help="seconds to wait for the server (default 30)")
    if name == "console":
        parser.add_argument("file", nargs="?", default="-", metavar="FILE|-", help="commands to run (default standard input; a terminal is interactive)")
        parser.add_argument(
            "--dialect", choices=DIALECTS, default="auto",
            help="command language: mqsc, tpf (ZMQSC), ibmi (CL), or auto per command (default; the output frame is runmqsc's)",
        )
        parser.add_argument(
            "-v", "--verify", action="store_true",
            help="as runmqsc -v: read every command and report syntax errors, run none (no server needed; exit 10 on a syntax error)",
        )
        parser.add_argument("-e", "--no-echo", action="store_true", help="as runmqsc -e: leave the numbered copy of each command out of the report")
        rest = parser.add_argument_group("over the REST API instead of the PCF port (MQSC only)")
        rest.add_argument("--rest", metavar="URL", help="run MQSC through this server's REST API (runCommand): https://host:9443 or http://host:9080")
        rest.add_argument(
            "--qmgr", default=None,
            help="the queue manager in REST URLs (default: the only one the server has); with --verify, the name the report shows (default QM1)",
        )
        add_options(rest, address=False)
    else:
        parser.add_argument("--dialect", choices=("mqsc", "ibmi"), default="mqsc", help="write MQSC (default) or IBM i CL commands")
        parser.add_argument("--all", action="store_true", help="every attribute, not only those that differ from the defaults")


class _Connection:
    """The blocking client as an ``execute`` callable; any failure to talk is an ExecuteError."""

    def __init__(self, host: str, port: int, timeout: float) -> None:
        self.client: SyncClient | None = None
        try:
            self.client = SyncClient(host, port, timeout=timeout)
        except OSError as exc:
            self.error = f"cannot connect to {host}:{port}: {exc.strerror or exc}"
        else:
            self.error = ""

    def __call__(self, command: Message) -> list[Message]:
        if self.client is None:
            raise ExecuteError(self.error)
        command = portable(command)
        try:
            self.client.protocol.command_bytes(command)
        except PcfError as exc:  # a command the codec cannot write: its own failure, not a lost server
            return error_responses(command, exc.reason, exc.parameter_id)
        try:
            return self.client.execute(command, check_failure=False)
        except (PcfClientError, PcfError, OSError) as exc:
            self.client.close()
            self.client = None
            self.error = str(exc)
            raise ExecuteError(str(exc)) from exc

    def close(self) -> None:
        if self.client is not None:
            self.client.close()




def _terminal_lines() -> Iterator[str]:
    """Lines typed at a terminal, with readline editing and a history file."""
    try:
        import readline
    except ImportError:  # pragma: no cover - platforms without readline
        readline = None  # type: ignore[assignment]
    if readline is not None:
        try:
            readline.read_history_file(HISTORY)
        except OSError:
            pass
    try:
        while True:
            try:
                yield input()
            except EOFError:
                return
    finally:
        if readline is not None:
            try:
                readline.write_history_file(HISTORY)
            except OSError:
                pass


def _lines(path: str) -> Iterator[str]:
    if path == "-":
        if sys.stdin.isatty():
            yield from _terminal_lines()
        else:
            yield from sys.stdin
        return
    with open(path, encoding="utf-8") as handle:
        yield from handle


def _emit(out: TextIO, lines: list[str]) -> None:
    if lines:
        out.write("".join(f"{line}\n" for line in lines))
        out.flush()


def run(name: str, args: argparse.Namespace) -> int:
    if name == "dump":
        return _dump(args)
    if args.file != "-" and not os.path.isfile(args.file):
        print(f"pcfserver console: cannot read {args.file}", file=sys.stderr)
        return EXIT_ERROR
    if args.verify:
        if args.rest is not None:
            print("pcfserver console: --verify runs no command, so it talks to no server: leave out --rest", file=sys.stderr)
            return 2
        runner = ScriptRunner(_no_server, dialect=args.dialect, qmgr_name=args.qmgr or "QM1", verify=True, echo=not args.no_echo)
        return _console(runner, args.file, lambda: "")
    if args.rest is not None:
        return _run_rest(args)
    given = [o for o, v in (("--user", args.user), ("--password-stdin", args.password_stdin), ("--https", args.https), ("--cafile", args.cafile),
                            ("--insecure", args.insecure), ("--cert", args.cert), ("--key", args.key), ("--qmgr", args.qmgr)) if v]
    if given:
        print(f"pcfserver console: {', '.join(given)} go with --rest URL (the PCF port takes none of them)", file=sys.stderr)
        return 2
    connection = _Connection(args.host, args.port, args.timeout)
    try:
        runner = ScriptRunner(connection, dialect=args.dialect, echo=not args.no_echo)
        return _console(runner, args.file, lambda: connection.error)
    finally:
        connection.close()


def _no_server(command: Message) -> list[Message]:  # pragma: no cover - a verifying runner never executes
    raise ExecuteError("--verify runs no command")


def _console(runner: ScriptRunner, path: str, error: Callable[[], str]) -> int:
    out = sys.stdout
    _emit(out, runner.start())
    for line in _lines(path):
        if runner.ended:
            break
        _emit(out, runner.feed(line))
    _emit(out, runner.finish())
    if runner.unreachable and error():
        print(f"pcfserver console: {error()}", file=sys.stderr)
    return runner.exit_code


def _run_rest(args: argparse.Namespace) -> int:
    """MQSC through runCommand: the same transcript and exit status as over the PCF port."""
    try:
        if args.dialect in ("tpf", "ibmi"):
            raise OptionError(f"--rest runs MQSC only (the REST API's runCommand takes MQSC); --dialect {args.dialect} needs the PCF port")
        if args.password_stdin and args.file == "-":
            raise OptionError("--password-stdin and commands from standard input cannot share it: set $PCFSERVER_PASSWORD or give a FILE")
        session = Session(args, url=args.rest, timeout=args.timeout)
    except OptionError as exc:
        print(f"pcfserver console: {exc}", file=sys.stderr)
        return 2
    rest = RestMqsc(session, args.qmgr)
    try:
        try:
            qmgr: str | None = rest.queue_manager()
        except ExecuteError as exc:
            rest.error, qmgr = str(exc), None

        def execute(command: Message) -> list[Message]:  # only the start's name inquiry reaches this, and only when it failed
            raise ExecuteError(rest.error)

        runner = ScriptRunner(execute, dialect=args.dialect, qmgr_name=qmgr, runner=rest, echo=not args.no_echo)
        return _console(runner, args.file, lambda: rest.error)
    finally:
        session.close()


def _dump(args: argparse.Namespace) -> int:
    connection = _Connection(args.host, args.port, args.timeout)
    try:
        qmgr = queue_manager_name(connection)
        sys.stdout.write(dump(connection, dialect=args.dialect, all_attributes=args.all, qmgr_name=qmgr))
        return 0
    except ExecuteError as exc:
        print(f"pcfserver dump: {connection.error or exc}", file=sys.stderr)
        return 1
    finally:
        connection.close()
