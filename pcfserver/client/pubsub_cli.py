"""``pcfserver publish`` and ``subscribe``: IBM's amqspub and amqssub over the REST API, with put's sign-in options.

    pcfserver publish TOPICSTRING [FILE|-] [--persistent] [--priority N]
    pcfserver subscribe TOPICSTRING [--name N] [--wait S]

``publish`` posts each line of FILE (or standard input, or one generated message) to IBM's
``POST /ibmmq/rest/v3/messaging/qmgr/{qmgr}/topic/{topicString}/message``.

IBM's REST API has no subscribe, so ``subscribe`` uses only resources IBM documents, and works the
same against mqweb: an administrative subscription made with the mqsc resource (runCommandJSON
``define sub ... destclas(managed)``) and destructive gets from its destination queue with the
messaging API (``DELETE .../queue/{dest}/message?wait=ms``), printing each publication as it
arrives until ``--wait`` seconds pass with none.  A retained publication on the topic is the first
thing it prints: DEFINE SUB delivers it to the new subscription's queue, as MQSUB does.  With ``--name`` the subscription is durable and
kept: the next ``subscribe --name`` with the same name resumes it and gets what was published in
between.  Without it the subscription is made under a generated name and removed, with its
queue, when the command ends (a ``kill -9`` leaves it: ``DELETE SUB`` removes it).  Choices and
reasons: formats/rest-messaging.tsv (the rows that start ``CLI subscribe``).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import Any
from urllib.parse import quote

from pcfserver.client.rest_session import OptionError, Reply, RestFailure, Session, add_options, failure, run_command

DEFAULT_WAIT = 30.0  # seconds, as IBM's amqssub sample waits for the next publication
TEMPORARY_PREFIX = "PCFSERVER.SUBSCRIBE."


def topic_path(qmgr: str, topic: str) -> str:
    """IBM's topic URL: levels stay real '/', and '%', '.', '?' (and every other character a URL does not carry
    as it is) are percent-encoded; a leading or trailing '/' goes as %2F."""
    head, body, tail = "", topic, ""
    if body.startswith("/"):
        head, body = "%2F", body[1:]
    if body.endswith("/"):
        body, tail = body[:-1], "%2F"
    encoded = "/".join(quote(level, safe="").replace(".", "%2E") for level in body.split("/"))
    return f"/ibmmq/rest/v3/messaging/qmgr/{quote(qmgr, safe='').replace('.', '%2E')}/topic/{head}{encoded}{tail}/message"


def configure(name: str, parser: argparse.ArgumentParser) -> None:
    parser.add_argument("topic", metavar="TOPICSTRING", help="the topic string (levels separated by '/'; subscribe takes '#' and '+' wildcards)")
    parser.add_argument("--qmgr", default="QM1", help="queue manager name (default QM1)")
    add_options(parser)
    if name == "publish":
        parser.add_argument("file", metavar="FILE", nargs="?", help="publish each line of FILE (- for standard input) as one message")
        parser.add_argument("--persistent", action="store_true", help="persistent publications (default non-persistent, as the REST API's)")
        parser.add_argument("--priority", type=int, choices=range(10), metavar="N", help="message priority 0-9 (default 4, the REST API's)")
    else:
        parser.add_argument("--name", metavar="N", help="a durable subscription named N: made if new, else resumed (kept when the command ends)")
        parser.add_argument("--wait", type=float, default=DEFAULT_WAIT, metavar="S",
                            help=f"end when S seconds pass with no publication (default {DEFAULT_WAIT:g}, as amqssub)")


def run(name: str, args: argparse.Namespace) -> int:
    def check() -> None:
        if name == "subscribe" and args.wait < 0:
            raise OptionError("--wait must not be negative")

    def action(session: Session) -> int:
        if name == "publish":
            return _publish(session, args)
        return Subscriber(session, args.qmgr).run(args.topic, args.name, args.wait)

    return run_command(name, args, action, check)


# ---------------------------------------------------------------------- publish


def _publish(session: Session, args: argparse.Namespace) -> int:
    if args.file is None:
        bodies = [b"pcfserver publication 1"]
    else:
        try:
            if args.file == "-":
                data = sys.stdin.buffer.read()
            else:
                with open(args.file, "rb") as handle:
                    data = handle.read()
        except OSError as exc:
            raise RestFailure(f"cannot read {args.file}: {exc.strerror or exc}") from None
        bodies = [line for line in data.splitlines() if line]
    headers = {"Content-Type": "text/plain;charset=utf-8"}
    if args.persistent:
        headers["ibm-mq-md-persistence"] = "persistent"
    if args.priority is not None:
        headers["ibm-mq-md-priority"] = str(args.priority)
    path = topic_path(args.qmgr, args.topic)
    last_id = ""
    for done, body in enumerate(bodies):
        reply = session.request("POST", path, headers=headers, body=body)
        if reply.status != 201:
            print(f"pcfserver publish: {done} messages published on {args.topic}", file=sys.stderr)
            raise failure(reply)
        last_id = reply.headers.get("ibm-mq-md-messageid", "")
    if len(bodies) == 1:
        print(f"published 1 message on {args.topic}: messageId {last_id}")
    else:
        print(f"published {len(bodies)} messages on {args.topic}")
    return 0


# ---------------------------------------------------------------------- subscribe


class Subscriber:
    """An administrative subscription and the gets from its destination, over the REST API."""

    def __init__(self, session: Session, qmgr: str) -> None:
        self.session = session
        self.qmgr = qmgr
        self.mqsc = f"/ibmmq/rest/v2/admin/action/qmgr/{quote(qmgr, safe='')}/mqsc"

    def command(self, **body: Any) -> dict[str, Any]:
        """One runCommandJSON; its first commandResponse item (RestFailure when the request itself is refused)."""
        reply = self.session.request("POST", self.mqsc, headers={"Content-Type": "application/json", "Accept": "application/json"},
                                     body=json.dumps({"type": "runCommandJSON", **body}).encode())
        if reply.status != 200:
            raise failure(reply)
        items = reply.json()
        found = items.get("commandResponse") if isinstance(items, dict) else None
        if not isinstance(found, list) or not found or not isinstance(found[0], dict):
            raise RestFailure(f"{self.session.where} answered runCommandJSON with something that is not IBM's commandResponse")
        return found[0]

    def find(self, name: str) -> tuple[str, str] | None:
        """(topic string, destination) of subscription ``name``, or None when there is none."""
        item = self.command(command="display", qualifier="sub", name=name, responseParameters=["topicstr", "dest"])
        if item.get("completionCode", 0) == 2:
            if item.get("reasonCode") == 2428:  # MQRC_NO_SUBSCRIPTION
                return None
            raise _refused(item, f"DISPLAY SUB({name})")
        parameters = item.get("parameters", {})
        return str(parameters.get("topicstr", "")), str(parameters.get("dest", ""))

    def make(self, name: str, topic: str) -> str:
        """A durable managed subscription (DEFINE SUB); answers its destination queue."""
        item = self.command(command="define", qualifier="sub", name=name, parameters={"topicstr": topic, "destclas": "managed"})
        if item.get("completionCode", 0) == 2:
            raise _refused(item, f"DEFINE SUB({name})")
        found = self.find(name)
        if found is None or not found[1]:
            raise RestFailure(f"the subscription {name} was defined but DISPLAY SUB shows no destination")
        return found[1]

    def remove(self, name: str) -> None:
        """The temporary subscription goes, and with it its managed queue (DELETE SUB removes it, as IBM's does)."""
        item = self.command(command="delete", qualifier="sub", name=name)
        if item.get("completionCode", 0) == 2:
            raise _refused(item, f"DELETE SUB({name})")

    def run(self, topic: str, name: str | None, wait: float) -> int:
        temporary = name is None
        if name is None:
            name = TEMPORARY_PREFIX + os.urandom(8).hex().upper()
            found = None
        else:
            found = self.find(name)
        if found is None:
            queue = self.make(name, topic)
            print(f"subscribed to {topic}" + ("" if temporary else f" as {name} (durable)"), file=sys.stderr)
        else:
            if found[0] != topic:
                raise RestFailure(f"the subscription {name} exists for the topic string {found[0]!r}, not {topic!r}")
            queue = found[1]
            print(f"resumed the subscription {name} to {topic}", file=sys.stderr)
        got = 0
        try:
            got = self._receive(queue, wait)
        finally:
            if temporary:
                try:
                    self.remove(name)
                except RestFailure as exc:
                    print(f"pcfserver subscribe: could not remove the subscription {name}: {exc}", file=sys.stderr)
        print(f"received {got} publications on {topic}; none for {wait:g} s", file=sys.stderr)
        return 0

    def _receive(self, queue: str, wait: float) -> int:
        path = f"/ibmmq/rest/v3/messaging/qmgr/{quote(self.qmgr, safe='')}/queue/{quote(queue, safe='')}/message"
        out = sys.stdout.buffer
        got = 0
        deadline = time.monotonic() + wait
        while True:
            remaining = deadline - time.monotonic()
            reply: Reply = self.session.request("DELETE", path + f"?wait={max(int(remaining * 1000), 0)}")
            if reply.status == 200:
                got += 1
                out.write(reply.body + b"\n")
                out.flush()
                deadline = time.monotonic() + wait
                continue
            if reply.status == 204:
                return got
            if reply.status == 404:
                return got  # the queue is gone (DELETE SUB elsewhere): DEFINE SUB made it with the subscription
            raise failure(reply)


def _refused(item: dict[str, Any], what: str) -> RestFailure:
    lines = item.get("message") or item.get("text") or []
    detail = " ".join(str(line) for line in lines) if isinstance(lines, list) else str(lines)
    return RestFailure(f"{what} failed: reason {item.get('reasonCode')}" + (f" ({detail})" if detail else ""))
