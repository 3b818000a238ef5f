#!/usr/bin/env python3
"""Codec speed: decode and encode rates on realistic CHANGE_Q commands, as ratios of a minimal
``struct`` loop (unpack_from / pack) run in the same process on the same bytes.

    python tools/bench_codec.py [--messages 100000] [--repeat 3]

Absolute rates move 10-40% from run to run on a shared machine; the ratios are the figures
to compare.  Each figure is the best of --repeat runs.
"""

from __future__ import annotations

import argparse
import struct
import time
from collections.abc import Callable

import pcfserver
from pcfserver import Integer, Message, String, mq
from pcfserver.codec import layouts


def change_q(i: int) -> Message:
    """A realistic MQCMD_CHANGE_Q of about 280 bytes: name, type, six integers, two strings."""
    return Message(
        mq.MQCMD_CHANGE_Q,
        (
            String(mq.MQCA_Q_NAME, f"APP.ORDERS.REQUEST.{i % 1000:04d}"),
            Integer(mq.MQIA_Q_TYPE, mq.MQQT_LOCAL),
            Integer(mq.MQIA_MAX_Q_DEPTH, 5000 + i % 100),
            Integer(mq.MQIA_MAX_MSG_LENGTH, 4194304),
            Integer(mq.MQIA_DEF_PERSISTENCE, 1),
            Integer(mq.MQIA_DEF_PRIORITY, i % 10),
            Integer(mq.MQIA_INHIBIT_PUT, 0),
            Integer(mq.MQIA_BACKOUT_THRESHOLD, 3),
            String(mq.MQCA_Q_DESC, "Order requests from the web shop"),
            String(mq.MQCA_BACKOUT_REQ_Q_NAME, "APP.ORDERS.BACKOUT"),
        ),
        type=mq.MQCFT_COMMAND_XR,
        version=3,
    )


def unique_change_q(i: int) -> Message:
    """The same shape with every value distinct: the worst case for the decoder's interning."""
    return Message(
        mq.MQCMD_CHANGE_Q,
        (
            String(mq.MQCA_Q_NAME, f"APP.ORDERS.REQUEST.{i:08d}"),
            Integer(mq.MQIA_Q_TYPE, mq.MQQT_LOCAL),
            Integer(mq.MQIA_MAX_Q_DEPTH, i),
            Integer(mq.MQIA_MAX_MSG_LENGTH, 4194304 + i),
            Integer(mq.MQIA_DEF_PERSISTENCE, i),
            Integer(mq.MQIA_DEF_PRIORITY, i + 1),
            Integer(mq.MQIA_INHIBIT_PUT, i + 2),
            Integer(mq.MQIA_BACKOUT_THRESHOLD, i + 3),
            String(mq.MQCA_Q_DESC, f"Order requests from shop {i:08d}"),
            String(mq.MQCA_BACKOUT_REQ_Q_NAME, f"APP.BACKOUT.{i:08d}"),
        ),
        type=mq.MQCFT_COMMAND_XR,
        version=3,
    )


def baseline_decode(data: bytes) -> list[tuple[object, ...]]:
    """The minimal struct loop: header tuple, then per parameter a tuple; strings as raw bytes."""
    header = struct.Struct(">9l").unpack_from
    two = struct.Struct(">ll").unpack_from
    cfin = struct.Struct(">ll").unpack_from
    cfst = struct.Struct(">lll").unpack_from
    out: list[tuple[object, ...]] = []
    pos, end = 0, len(data)
    while pos < end:
        h = header(data, pos)
        pos += 36
        params: list[tuple[object, ...]] = []
        for _ in range(h[8]):
            t, sl = two(data, pos)
            if t == 3:
                params.append(cfin(data, pos + 8))
            else:
                pid, ccsid, n = cfst(data, pos + 8)
                params.append((pid, ccsid, data[pos + 20 : pos + 20 + n]))
            pos += sl
        out.append((h, params))
    return out


def baseline_encode(messages: list[tuple[tuple[int, ...], list[tuple[object, ...]]]]) -> list[bytes]:
    """The minimal struct loop: pack header and parameters, join."""
    header = struct.Struct(">9l").pack
    cfin = struct.Struct(">4l").pack
    cfst = struct.Struct(">5l").pack
    out = []
    for h, params in messages:
        parts = [header(*h)]
        for p in params:
            if len(p) == 2:
                parts.append(cfin(3, 16, p[0], p[1]))
            else:
                raw = p[2]
                assert isinstance(raw, bytes)
                pad = -len(raw) & 3
                parts.append(cfst(4, 20 + len(raw) + pad, p[0], p[1], len(raw)))
                parts.append(raw + b"\0" * pad)
        out.append(b"".join(parts))
    return out


def best(fn: Callable[[], object], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--messages", type=int, default=100_000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--construct", action="store_true", help="also time the Construct reference parsers (slow)")
    args = parser.parse_args()
    n = args.messages
    messages = [change_q(i) for i in range(n)]
    encoded = [pcfserver.encode(m) for m in messages]
    stream = b"".join(encoded)
    size = len(stream)
    print(f"{n:,} CHANGE_Q commands, {size / n:.0f} bytes each, {size / 1e6:.1f} MB, best of {args.repeat}")

    decoded = pcfserver.decode(stream)
    assert decoded == messages, "decode does not give back the messages"
    tuples = baseline_decode(stream)
    assert b"".join(baseline_encode([(h, p) for h, p in tuples])) == stream  # type: ignore[misc]

    t_base_dec = best(lambda: baseline_decode(stream), args.repeat)
    t_dec = best(lambda: pcfserver.decode(stream), args.repeat)
    t_base_enc = best(lambda: baseline_encode(tuples), args.repeat)  # type: ignore[arg-type]
    t_enc = best(lambda: [pcfserver.encode(m) for m in messages], args.repeat)

    def row(label: str, seconds: float, base: float) -> None:
        print(f"  {label:<44} {n / seconds:>11,.0f} msg/s {size / seconds / 1e6:>8.1f} MB/s   ratio {base / seconds:.3f}")

    print("decode")
    row("struct.unpack_from loop (baseline)", t_base_dec, t_base_dec)
    row("pcfserver.decode (strict)", t_dec, t_base_dec)
    t_lax = best(lambda: pcfserver.decode(stream, strict=False), args.repeat)
    row("pcfserver.decode (tolerant)", t_lax, t_base_dec)
    unique = b"".join(pcfserver.encode(unique_change_q(i)) for i in range(n))
    t_base_unique = best(lambda: baseline_decode(unique), args.repeat)
    t_unique = best(lambda: pcfserver.decode(unique), args.repeat)
    row("pcfserver.decode, every value unique", t_unique, t_base_unique)
    if args.construct:
        sample = encoded[: max(1, n // 20)]
        for compiled in (True, False):
            parser_ = layouts.message_parser("big", compiled)
            t = best(lambda p=parser_: [p.parse(b) for b in sample], 1) * (n / len(sample))
            row(f"Construct {'compiled' if compiled else 'interpreted'} reference parser", t, t_base_dec)
    print("encode")
    row("struct.pack + join (baseline)", t_base_enc, t_base_enc)
    row("pcfserver.encode", t_enc, t_base_enc)
    print(f"targets: decode >= 0.33 (now {t_base_dec / t_dec:.2f}), encode >= 0.15 (now {t_base_enc / t_enc:.2f})")


if __name__ == "__main__":
    main()
