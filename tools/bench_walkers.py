#!/usr/bin/env python3
"""Issue 21, part 2: what one walker of the bytes for both the codec and the pipeline would cost.

The codec (``codec/decoder.py``) walks each message once and builds its ``Message`` as it goes;
the pipeline's scanner (``pipeline/columns.py``) walks the same structures, checking the same
rules, and leaves the numbers to numpy.  This measures the two ways of making one walk serve both,
each against what runs today, in the same process on the same bytes (best of ``--repeat``):

* **codec on the scanner**: ``columns._Scanner`` walks the stream (every rule checked, strings
  decoded), then ``Message`` objects are built from what it found (one more unpack per
  parameter, the codec's interning kept); the codec's own walk only for what the scanner leaves.
  Against ``pcfserver.decode(data, strict=False)``.
* **pipeline on the codec**: ``rows.RowBuffer`` over ``decode(data, strict=False)`` (the rows
  from ``Message`` objects), against ``columns.decode_file``.

Inputs: the CHANGE_Q stream of ``tools/bench_codec.py`` and one capture of
``tools/gen_captures.py`` with its default rich mix.  Both prototypes are checked to give exactly
what the code they would replace gives.

    python tools/bench_walkers.py [--messages 100000] [--repeat 3]
"""

from __future__ import annotations

import argparse
import importlib.util
import struct
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from pcfserver.codec import (
    ByteString,
    ByteStringFilter,
    Group,
    Integer,
    Integer64,
    Integer64List,
    IntegerFilter,
    IntegerList,
    Message,
    String,
    StringFilter,
    StringList,
    decode,
    encode,
)
from pcfserver.codec import decoder as codec
from pcfserver.codec.model import fast_builder
from pcfserver.pipeline import columns, rows

ROOT = Path(__file__).resolve().parent.parent
_new_message = fast_builder(Message)
_new_integer = fast_builder(Integer)
_new_string = fast_builder(String)
_SIX = {True: struct.Struct(">6l").unpack_from, False: struct.Struct("<6l").unpack_from}
_Q = {True: struct.Struct(">q").unpack_from, False: struct.Struct("<q").unpack_from}
_HEADER = {True: struct.Struct(">9l").unpack_from, False: struct.Struct("<9l").unpack_from}


def _load(name: str) -> Any:
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


def _messages_from_scan(data: bytes, scan: Any, out: list[Message]) -> None:
    """``Message`` objects of what the scanner took: the prototype of the codec on the scanner."""
    params, counts, strings, list_strings, bytes_values = scan.params, scan.counts, scan.strings, scan.list_strings, scan.bytes_values
    integers, cache = codec._INTEGERS, {}
    k = si = li = bi = 0
    for start, end, big, n in zip(scan.starts, scan.ends, scan.orders, counts, strict=True):
        six = _SIX[big]
        mtype, sl, version, command, seq, control, comp, reason, count = _HEADER[big](data, start)
        stack: list[list[Any]] = [[]]
        left = [count]
        pids: list[int] = []
        for p in params[k : k + n]:
            t, _, pid, a, b, c = six(data, p)
            item: Any
            if t == 3:  # MQCFIN
                key = (3, 16, pid, a)
                item = integers.get(key)
                if item is None:
                    item = integers[key] = _new_integer(pid, a)
            elif t == 4:  # MQCFST
                key2 = (pid, a, b, strings[si])
                item = cache.get(key2)
                if item is None:
                    item = cache[key2] = _new_string(pid, strings[si], a, b)
                si += 1
            elif t == 5:
                item = IntegerList(pid, struct.unpack_from((">" if big else "<") + f"{a}l", data, p + 16))
            elif t == 6:
                item = StringList(pid, tuple(list_strings[li : li + b]), a, c)
                li += b
            elif t == 9:
                item = ByteString(pid, bytes_values[bi])
                bi += 1
            elif t == 13:
                item = IntegerFilter(pid, a, b)
            elif t == 14:
                item = StringFilter(pid, a, strings[si], b)
                si += 1
            elif t == 15:
                item = ByteStringFilter(pid, a, bytes_values[bi])
                bi += 1
            elif t == 23:
                item = Integer64(pid, _Q[big](data, p + 16)[0])
            elif t == 25:
                item = Integer64List(pid, struct.unpack_from((">" if big else "<") + f"{a}q", data, p + 16))
            else:  # MQCFGR
                if a:
                    stack.append([])
                    left.append(a)
                    pids.append(pid)
                    continue
                item = Group(pid, ())
            stack[-1].append(item)
            left[-1] -= 1
            while len(stack) > 1 and not left[-1]:
                members = tuple(stack.pop())
                left.pop()
                stack[-1].append(Group(pids.pop(), members))
                left[-1] -= 1
        k += n
        order = "big" if big else "little"
        out.append(_new_message(command, tuple(stack[0]), mtype, version, seq, control, comp, reason, order, start, end - start, sl, count, None, ()))


def codec_on_scanner(data: bytes) -> list[Message]:
    """``decode(data, strict=False)`` with the scanner as its walk."""
    scanner = columns._Scanner(data)
    decoder: codec.StreamDecoder | None = None
    out: list[Message] = []
    pos, total = 0, len(data)
    while pos < total:
        scan = columns._Scan()
        pos = scanner.walk(pos, scan, 1 << 30)
        _messages_from_scan(scanner.data, scan, out)
        if pos < total:
            if decoder is None:
                decoder = codec.StreamDecoder(strict=False, max_message_bytes=max(codec.DEFAULT_MAX_MESSAGE_BYTES, total))
                decoder.feed(data)
                decoder.end()
            decoder.seek(pos)
            message = decoder.next_message()
            assert message is not None
            out.append(message)
            pos = message.offset + message.length
    return out


def pipeline_on_codec(data: bytes) -> int:
    buffer = rows.RowBuffer("f")
    count = 0
    with rows.collector_paused():
        for message in decode(data, strict=False):
            buffer.add(message)
            if len(buffer.messages) >= rows.DEFAULT_BATCH_ROWS:
                count += buffer.take_messages().num_rows
        count += buffer.take_messages().num_rows
    return count


def pipeline_today(data: bytes) -> int:
    return sum(batch.num_rows for batch, _ in columns.decode_file("f", data))


def best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        started = time.perf_counter()
        fn()
        times.append(time.perf_counter() - started)
    return min(times)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    bench_codec, gen_captures = _load("bench_codec"), _load("gen_captures")
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "rich.pcf"
        gen_captures.generate_file(str(path), args.messages, 0.001, 1, rich_rate=0.12)
        inputs = {
            "CHANGE_Q commands (bench_codec)": b"".join(encode(bench_codec.change_q(i)) for i in range(args.messages)),
            "rich capture (gen_captures)": path.read_bytes(),
        }
    print(f"{args.messages:,} messages per input, best of {args.repeat}")
    for label, data in inputs.items():
        assert codec_on_scanner(data) == decode(data, strict=False), "the prototype decodes differently"
        assert pipeline_on_codec(data) == pipeline_today(data)
        with rows.collector_paused():
            today = best(lambda d=data: decode(d, strict=False), args.repeat)
            scanned = best(lambda d=data: codec_on_scanner(d), args.repeat)
        rows_today = best(lambda d=data: pipeline_today(d), args.repeat)
        rows_codec = best(lambda d=data: pipeline_on_codec(d), args.repeat)
        print(f"{label}:")
        print(f"  codec:    decode(strict=False) {today:6.2f} s   on the scanner {scanned:6.2f} s   cost {scanned / today - 1:+.0%}")
        print(f"  pipeline: columns.decode_file  {rows_today:6.2f} s   on the codec   {rows_codec:6.2f} s   cost {rows_codec / rows_today - 1:+.0%}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
