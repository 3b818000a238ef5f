"""The ``pcfserver`` command: each subcommand lives in its own module.

A subcommand module defines ``configure(parser)`` and ``run(args) -> int``; it is imported only
when its subcommand is named (so ``decode`` never pays for trio or PySpark).  Exit status: 0
clean, 1 when the job found a failure (a malformed message, a failed command), 2 usage errors.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence
from typing import Protocol, cast

SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "decode": ("pcfserver.cli_codec", "decode a PCF byte stream to JSON Lines or a readable tree"),
    "encode": ("pcfserver.cli_codec", "encode messages given in the decode JSON form to PCF bytes"),
    "serve": ("pcfserver.server.cli", "run the PCF admin server"),
    "send": ("pcfserver.client.cli", "send commands to a PCF server and print the responses"),
    "console": ("pcfserver.client.console", "run MQSC (as runmqsc does), TPF ZMQSC or IBM i CL commands against a PCF server, or MQSC over the REST API (--rest URL)"),
    "dump": ("pcfserver.client.console", "print the registry as MQSC or IBM i CL commands that recreate it"),
    "put": ("pcfserver.client.rest_cli", "put messages on a queue over the messaging REST API (like amqsput)"),
    "get": ("pcfserver.client.rest_cli", "get messages from a queue over the messaging REST API (like amqsget)"),
    "browse": ("pcfserver.client.rest_cli", "show a queue's messages without removing them (like amqsbcg)"),
    "publish": ("pcfserver.client.pubsub_cli", "publish messages on a topic string over the messaging REST API (like amqspub)"),
    "subscribe": ("pcfserver.client.pubsub_cli", "subscribe to a topic string and print publications as they arrive (like amqssub), over the REST API"),
    "user": ("pcfserver.cli_user", "add, list or remove the users who may sign in to the REST API (roles MQWebAdmin, MQWebAdminRO, MQWebUser)"),
    "conformance": ("pcfserver.conformance.cli", "run the conformance suite against a PCF server"),
    "pipeline": ("pcfserver.pipeline.cli", "decode captured PCF streams at scale on Apache Spark"),
}


class _Subcommand(Protocol):
    def configure(self, name: str, parser: argparse.ArgumentParser) -> None: ...

    def run(self, name: str, args: argparse.Namespace) -> int: ...


def _module(name: str) -> _Subcommand:
    return cast(_Subcommand, importlib.import_module(SUBCOMMANDS[name][0]))


def build_parser(selected: str | None) -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="pcfserver", description="PCF admin server, codec and tools")
    sub = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (_, help_text) in SUBCOMMANDS.items():
        child = sub.add_parser(name, help=help_text, description=help_text)
        if name == selected:
            _module(name).configure(name, child)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    args_list = list(sys.argv[1:] if argv is None else argv)
    selected = next((a for a in args_list if not a.startswith("-")), None)
    if selected not in SUBCOMMANDS:
        selected = None
    parser = build_parser(selected)
    args = parser.parse_args(args_list)
    if args.command is None:
        parser.print_help(sys.stderr)
        return 2
    try:
        return _module(args.command).run(args.command, args)
    except KeyboardInterrupt:
        return 130
    except BrokenPipeError:
        return 0


if __name__ == "__main__":
    sys.exit(main())
