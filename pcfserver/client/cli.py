"""``pcfserver send``: send commands given in the decode JSON form, print the responses.

Input: one JSON object, a JSON array of objects, or JSON Lines.  Output: the decoded responses
as a readable tree (text) or as JSON Lines (the decode form, plus ``"answer"``: the index of
the command answered).  Exit status 1 when a command failed or the connection broke.
"""

from __future__ import annotations

import argparse
import json
import sys

from pcfserver.client.protocol import PcfClientError, failure_of
from pcfserver.client.sync import SyncClient
from pcfserver.codec import Message, PcfError
from pcfserver.jsonform import JsonFormError, json_objects, message_from_json, message_to_json, message_to_text


class UsageError(Exception):
    """Exit status 2."""


def configure(name: str, parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", default="-", metavar="FILE|-", help="commands in the decode JSON form (default standard input)")
    parser.add_argument("--host", default="127.0.0.1", help="server address (default 127.0.0.1)")
    parser.add_argument("--port", type=int, default=1414, help="server port (default 1414)")
    parser.add_argument("--format", choices=("text", "json"), default="text", help="readable tree (default) or JSON Lines")
    parser.add_argument("--byte-order", choices=("big", "little"), default=None, help="send every command in this byte order (default: each command's byte_order, else big)")
    parser.add_argument("--timeout", type=float, default=30.0, metavar="S", help="seconds to wait for the server (default 30)")


def read_commands(path: str) -> list[Message]:
    try:
        if path == "-":
            text = sys.stdin.buffer.read().decode("utf-8")
        else:
            with open(path, "rb") as handle:
                text = handle.read().decode("utf-8")
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise UsageError(f"{path}: not UTF-8 JSON") from None
    return [message_from_json(obj, where) for where, obj in json_objects(text)]


def run(name: str, args: argparse.Namespace) -> int:
    try:
        commands = read_commands(args.file)
    except UsageError as exc:
        print(f"pcfserver send: {exc}", file=sys.stderr)
        return 2
    except JsonFormError as exc:
        print(f"pcfserver send: {exc}", file=sys.stderr)
        return 1
    failed = 0
    out = sys.stdout
    try:
        client = SyncClient(args.host, args.port, timeout=args.timeout, byte_order=args.byte_order)
    except OSError as exc:
        print(f"pcfserver send: cannot connect to {args.host}:{args.port}: {exc}", file=sys.stderr)
        return 1
    index = 0
    try:
        for number, command in enumerate(commands, 1):
            try:
                answer = client.execute(command, check_failure=False)
            except PcfError as exc:
                print(f"pcfserver send: command {number} cannot be encoded: {exc}", file=sys.stderr)
                return 1
            error = failure_of(answer)
            if error is not None:
                failed += 1
            for message in answer:
                index += 1
                if args.format == "json":
                    obj = message_to_json(message)
                    obj["answer"] = number
                    out.write(json.dumps(obj) + "\n")
                else:
                    out.write(message_to_text(message, index) + "\n")
            if error is not None and args.format == "text":
                out.write(f"command {number}: {error}\n")
            out.flush()
    except (PcfClientError, OSError) as exc:
        print(f"pcfserver send: {exc}", file=sys.stderr)
        return 1
    finally:
        client.close()
    if failed:
        print(f"pcfserver send: {failed} of {len(commands)} commands failed", file=sys.stderr)
        return 1
    return 0
