"""``pcfserver put``, ``get`` and ``browse``: IBM's amqsput, amqsget and amqsbcg over the messaging REST API.

    pcfserver put QUEUE [--count N] [--size B] [--persistent] [FILE|-]
    pcfserver get QUEUE [--all] [--wait S]
    pcfserver browse QUEUE

They talk to a server started with ``--http-port`` (``--host``/``--port`` name it, default
127.0.0.1:9080, the port mqweb uses for HTTP) or ``--https-port`` (``--https``, default port
9443; or ``--url https://host:port``) over one kept-alive connection, with the standard
library's http.client; ``--user`` and the other options of :mod:`pcfserver.client.rest_session`
sign in.  Exit status: 0 done, 1 when the server refused a request (or, for get and browse, the
queue held no message; or the credentials or the certificate were refused), 2 usage errors.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from typing import BinaryIO, TextIO
from urllib.parse import quote

from pcfserver.client.rest_session import OptionError, Reply, RestFailure, Session, add_options, failure, run_command

__all__ = ["OptionError", "Progress", "Reply", "RestClient", "RestFailure", "configure", "failure", "run"]

PROGRESS_FROM = 100  # counts from this up show a progress bar (on a terminal)


class RestClient:
    """Requests to one queue's messaging resources over one kept-alive HTTP(S) connection."""

    def __init__(self, session: Session, qmgr: str) -> None:
        self.base = f"/ibmmq/rest/v3/messaging/qmgr/{quote(qmgr, safe='')}/queue/"
        self.session = session
        self.where = session.where

    def request(self, method: str, queue: str, resource: str, *, query: str = "", headers: dict[str, str] | None = None, body: bytes | None = None) -> Reply:
        url = self.base + quote(queue, safe="") + "/" + resource + (f"?{query}" if query else "")
        return self.session.request(method, url, headers=headers, body=body)

    def close(self) -> None:
        self.session.close()


class Progress:
    """A progress bar on stderr, drawn only when stderr is a terminal and the count is large."""

    def __init__(self, total: int, stream: TextIO | None = None) -> None:
        self.stream = stream or sys.stderr
        self.total = total
        self.on = total >= PROGRESS_FROM and self.stream.isatty()
        self.started = time.monotonic()
        self._drawn = -1.0

    def update(self, done: int) -> None:
        if not self.on:
            return
        now = time.monotonic()
        if done < self.total and now - self._drawn < 0.1:
            return
        self._drawn = now
        width = 30
        filled = width * done // self.total
        rate = done / max(now - self.started, 1e-9)
        self.stream.write(f"\r[{'#' * filled}{'.' * (width - filled)}] {done}/{self.total} {rate:,.0f} msg/s")
        if done >= self.total:
            self.stream.write("\n")
        self.stream.flush()


def configure(name: str, parser: argparse.ArgumentParser) -> None:
    parser.add_argument("queue", metavar="QUEUE", help="queue name (a local queue or an alias of one)")
    parser.add_argument("--qmgr", default="QM1", help="queue manager name (default QM1)")
    add_options(parser)
    if name == "put":
        parser.add_argument("file", metavar="FILE", nargs="?", help="put each line of FILE (- for standard input) as one message")
        parser.add_argument("--count", type=int, default=1, metavar="N", help="messages to put (with FILE: times to put its lines; default 1)")
        parser.add_argument("--size", type=int, default=None, metavar="B", help="body size in bytes of generated messages (without FILE)")
        parser.add_argument("--persistent", action="store_true", help="persistent messages (default non-persistent, as the REST API's)")
    elif name == "get":
        parser.add_argument("--all", action="store_true", help="get every message until the queue is empty")
        parser.add_argument("--wait", type=float, default=0.0, metavar="S", help="wait up to S seconds for each message (default 0)")


def run(name: str, args: argparse.Namespace) -> int:
    def action(session: Session) -> int:
        client = RestClient(session, args.qmgr)
        if name == "put":
            return _put(client, args)
        if name == "get":
            return _get(client, args)
        return _browse(client, args, sys.stdout)

    return run_command(name, args, action)


# ---------------------------------------------------------------------- put


def _bodies(args: argparse.Namespace, stdin: BinaryIO) -> list[bytes]:
    if args.file is not None:
        if args.size is not None:
            raise RestFailure("--size generates messages; it does not go with FILE")
        if args.file == "-":
            data = stdin.read()
        else:
            with open(args.file, "rb") as handle:
                data = handle.read()
        lines = [line for line in data.splitlines() if line]
        return lines * int(args.count)
    if args.size is not None:
        pattern = b"pcfserver message "
        body = (pattern * (args.size // len(pattern) + 1))[: args.size]
        return [body] * args.count
    return [f"pcfserver message {i}".encode() for i in range(1, args.count + 1)]


def _put(client: RestClient, args: argparse.Namespace) -> int:
    if args.count < 1 or (args.size is not None and args.size < 0):
        raise RestFailure("--count must be at least 1 and --size not negative")
    try:
        bodies = _bodies(args, sys.stdin.buffer)
    except OSError as exc:
        raise RestFailure(f"cannot read {args.file}: {exc.strerror or exc}") from None
    headers = {"Content-Type": "text/plain;charset=utf-8"}
    if args.persistent:
        headers["ibm-mq-md-persistence"] = "persistent"
    progress = Progress(len(bodies))
    started = time.monotonic()
    last_id = ""
    for done, body in enumerate(bodies, 1):
        reply = client.request("POST", args.queue, "message", headers=headers, body=body)
        if reply.status != 201:
            progress.update(done - 1)
            print(f"pcfserver put: {done - 1} messages put to {args.queue}", file=sys.stderr)
            raise failure(reply)
        last_id = reply.headers.get("ibm-mq-md-messageid", "")
        progress.update(done)
    elapsed = time.monotonic() - started
    if len(bodies) == 1:
        print(f"put 1 message to {args.queue}: messageId {last_id}")
    else:
        print(f"put {len(bodies)} messages to {args.queue} in {elapsed:.2f} s ({len(bodies) / max(elapsed, 1e-9):,.0f}/s)")
    return 0


# ---------------------------------------------------------------------- get


def _get(client: RestClient, args: argparse.Namespace) -> int:
    query = f"wait={int(args.wait * 1000)}" if args.wait > 0 else ""
    got = 0
    out = sys.stdout.buffer
    while True:
        reply = client.request("DELETE", args.queue, "message", query=query)
        if reply.status == 204:
            break
        if reply.status != 200:
            raise failure(reply)
        got += 1
        out.write(reply.body + b"\n")
        out.flush()
        if not args.all:
            break
    if not got:
        print(f"no message available on {args.queue}", file=sys.stderr)
        return 1
    if args.all:
        print(f"got {got} messages from {args.queue}", file=sys.stderr)
    return 0


# ---------------------------------------------------------------------- browse


def _browse(client: RestClient, args: argparse.Namespace, out: TextIO) -> int:
    """Every message with its descriptor, then its body, as amqsbcg shows them; nothing is removed."""
    reply = client.request("GET", args.queue, "messagelist")
    if reply.status != 200:
        raise failure(reply)
    messages = json.loads(reply.body)["messages"]
    shown = 0
    for number, summary in enumerate(messages, 1):
        one = client.request("GET", args.queue, "message", query=f"messageId={summary['messageId']}")
        if one.status == 204:
            continue  # got by someone else since the list was made
        out.write(f"\n MQGET of message number {number}\n****Message descriptor****\n")
        for key in ("messageId", "correlationId", "format", "persistence", "priority", "expiry", "putDate", "replyTo", "backoutCount"):
            out.write(f"  {key} : {summary.get(key, '')}\n")
        for key, value in summary.get("userProperties", {}).items():
            out.write(f"  property {key} : {value}\n")
        out.write("****   Message      ****\n")
        if one.status != 200:
            out.write(f" not shown: {failure(one)}\n")
            shown += 1
            continue
        text = one.body.decode("utf-8", "replace")
        out.write(f" length - {len(one.body)} bytes\n{text}\n")
        shown += 1
    out.write(f"\n No more messages ({shown} browsed on {args.queue})\n")
    return 0 if shown else 1
