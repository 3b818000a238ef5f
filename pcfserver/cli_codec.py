"""``pcfserver decode`` and ``pcfserver encode``."""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from typing import IO

from pcfserver.codec import Message, PcfError, StreamDecoder, encode
from pcfserver.codec.ccsid import DEFAULT_CCSID, codec_for
from pcfserver.jsonform import JsonFormError, json_objects, message_from_json, message_to_json, message_to_text

CHUNK = 1 << 20


class UsageError(Exception):
    """A problem with how the command was called (exit status 2)."""


def configure(name: str, parser: argparse.ArgumentParser) -> None:
    parser.add_argument("file", nargs="?", default="-", metavar="FILE|-", help="input file, or - for standard input (default)")
    if name == "decode":
        parser.add_argument("--format", choices=("json", "text"), default="json", help="JSON Lines (default) or a readable tree")
        parser.add_argument("--lax", action="store_true", help="tolerant decoding: record problems and resynchronise on the next header")
        parser.add_argument("--default-ccsid", type=int, default=DEFAULT_CCSID, metavar="N", help="CCSID of strings whose CodedCharSetId is 0 (default 819)")
        parser.add_argument("--max-message-bytes", type=int, default=104_857_600, metavar="N", help="largest message accepted (default 100 MB)")
    else:
        parser.add_argument("--byte-order", choices=("big", "little"), default=None, help="byte order of every message (default: each message's byte_order, else big)")
        parser.add_argument("--default-ccsid", type=int, default=DEFAULT_CCSID, metavar="N", help="CCSID for strings whose ccsid is 0 (default 819)")
        parser.add_argument("-o", "--output", default="-", metavar="FILE", help="output file (default standard output)")


def run(name: str, args: argparse.Namespace) -> int:
    try:
        if codec_for(args.default_ccsid) is None:
            raise UsageError(f"--default-ccsid {args.default_ccsid} is not a CCSID this codec converts")
        return _decode(args) if name == "decode" else _encode(args)
    except UsageError as exc:
        print(f"pcfserver {name}: {exc}", file=sys.stderr)
        return 2


def _open_input(path: str) -> tuple[IO[bytes], int | None]:
    if path == "-":
        return sys.stdin.buffer, None
    try:
        handle = open(path, "rb")
    except OSError as exc:
        raise UsageError(f"cannot read {path}: {exc.strerror}") from None
    try:
        size: int | None = os.fstat(handle.fileno()).st_size
    except OSError:
        size = None
    return handle, size


class _Progress:
    """A one-line progress report on stderr, only when stderr is a terminal."""

    def __init__(self, total: int | None) -> None:
        self.enabled = sys.stderr.isatty()
        self.total = total
        self.start = self.last = time.monotonic()

    def update(self, done: int, messages: int) -> None:
        now = time.monotonic()
        if not self.enabled or now - self.last < 0.5:
            return
        self.last = now
        rate = done / max(now - self.start, 1e-9) / 1e6
        share = f" {100 * done / self.total:5.1f}%" if self.total else ""
        sys.stderr.write(f"\r{done / 1e6:,.1f} MB{share}  {messages:,} messages  {rate:,.1f} MB/s ")
        sys.stderr.flush()

    def finish(self) -> None:
        if self.enabled:
            sys.stderr.write("\n")


def _decode(args: argparse.Namespace) -> int:
    source, size = _open_input(args.file)
    decoder = StreamDecoder(strict=not args.lax, default_ccsid=args.default_ccsid, max_message_bytes=args.max_message_bytes)
    out = sys.stdout
    progress = _Progress(size)
    count = 0
    malformed = 0
    read = 0

    def emit(batch: list[Message]) -> None:
        nonlocal count, malformed
        lines = []
        for message in batch:
            count += 1
            if message.error is not None:
                malformed += 1
            if args.format == "json":
                lines.append(json.dumps(message_to_json(message, args.default_ccsid), ensure_ascii=False))
            else:
                lines.append(message_to_text(message, count) + "\n")
        if lines:
            out.write("\n".join(lines) + "\n")

    batch: list[Message] = []  # taken one by one: a strict failure must not lose the messages before it
    try:
        while chunk := source.read(CHUNK):
            read += len(chunk)
            decoder.feed(chunk)
            while (message := decoder.next_message()) is not None:
                batch.append(message)
            emit(batch)
            batch.clear()
            progress.update(read, count)
        emit(decoder.close())
    except PcfError as error:
        emit(batch)
        rest = decoder.malformed()
        if rest is not None:
            emit([rest])
        else:
            malformed += 1
        print(f"pcfserver decode: malformed message: {error} (--lax decodes past it)", file=sys.stderr)
    finally:
        progress.finish()
        if source is not sys.stdin.buffer:
            source.close()
    out.flush()
    return 1 if malformed else 0


def _encode(args: argparse.Namespace) -> int:
    source, _ = _open_input(args.file)
    try:
        text = source.read().decode("utf-8")
    except UnicodeDecodeError:
        print("pcfserver encode: input is not UTF-8 JSON", file=sys.stderr)
        return 1
    finally:
        if source is not sys.stdin.buffer:
            source.close()
    chunks: list[bytes] = []
    try:
        for where, obj in json_objects(text):
            message = message_from_json(obj, where)
            order = args.byte_order or message.byte_order
            try:
                chunks.append(encode(message, byte_order=order, default_ccsid=args.default_ccsid))
            except PcfError as exc:
                raise JsonFormError(f"{where}: {exc}") from None
    except JsonFormError as exc:
        print(f"pcfserver encode: {exc}", file=sys.stderr)
        return 1
    data = b"".join(chunks)
    if args.output == "-":
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
    else:
        try:
            with open(args.output, "wb") as handle:
                handle.write(data)
        except OSError as exc:
            raise UsageError(f"cannot write {args.output}: {exc.strerror}") from None
    return 0
