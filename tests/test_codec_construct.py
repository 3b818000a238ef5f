"""The Construct reference parsers (issue 2 §5): compiled and interpreted agree with each other
and with ``pcfserver.decode`` on every valid corpus stream and on generated messages."""

from __future__ import annotations

import io
import re
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from test_codec_properties import CODECS, ORDERS, messages

from pcfserver import (
    ByteString,
    ByteStringFilter,
    Group,
    Integer,
    Integer64,
    Integer64List,
    IntegerFilter,
    IntegerList,
    Message,
    Parameter,
    String,
    StringFilter,
    StringList,
    decode,
    encode,
)
from pcfserver.codec import layouts

CORPUS = Path(__file__).resolve().parent.parent / "formats" / "corpus"
CLEAN = [p for p in sorted(CORPUS.glob("*.pcf")) if p.name == "sample.pcf" or '"strict":' in p.with_suffix(".json").read_text("utf-8")]
TYPE = {"MQCFIN": 3, "MQCFST": 4, "MQCFIL": 5, "MQCFSL": 6, "MQCFBS": 9, "MQCFIF": 13, "MQCFSF": 14, "MQCFBF": 15, "MQCFGR": 20, "MQCFIN64": 23, "MQCFIL64": 25}


def _raw(text: str, ccsid: int) -> bytes:
    return text.encode(CODECS[ccsid])


# Both sides become the same plain tuples: structure type, then its fields; strings as bytes.


def from_model(item: Parameter) -> tuple[Any, ...]:
    t = TYPE[item.STRUCT]
    if isinstance(item, (Integer, Integer64)):
        return (t, item.parameter, item.value)
    if isinstance(item, (IntegerList, Integer64List)):
        return (t, item.parameter, tuple(item.values))
    if isinstance(item, String):
        return (t, item.parameter, item.ccsid, _raw(item.value, item.ccsid))
    if isinstance(item, StringList):
        return (t, item.parameter, item.ccsid, tuple(_raw(v, item.ccsid) for v in item.values))
    if isinstance(item, ByteString):
        return (t, item.parameter, item.value)
    if isinstance(item, Group):
        return (t, item.parameter, tuple(from_model(m) for m in item.parameters))
    if isinstance(item, IntegerFilter):
        return (t, item.parameter, item.operator, item.value)
    if isinstance(item, StringFilter):
        return (t, item.parameter, item.operator, item.ccsid, _raw(item.value, item.ccsid))
    assert isinstance(item, ByteStringFilter)
    return (t, item.parameter, item.operator, item.value)


def from_construct(c: Any) -> tuple[Any, ...]:
    t, b = c.type, c.body
    if t in (3, 23):
        return (t, b.parameter, b.value)
    if t in (5, 25):
        return (t, b.parameter, tuple(b["values"]))
    if t == 4:
        return (t, b.parameter, b.ccsid, bytes(b.data))
    if t == 6:
        return (t, b.parameter, b.ccsid, tuple(bytes(v) for v in b["values"]))
    if t == 9:
        return (t, b.parameter, bytes(b.data))
    if t == 20:
        return (t, b.parameter, tuple(from_construct(m) for m in b.members))
    if t == 13:
        return (t, b.parameter, b.operator, b.value)
    if t == 14:
        return (t, b.parameter, b.operator, b.ccsid, bytes(b.data))
    if t == 15:
        return (t, b.parameter, b.operator, bytes(b.data))
    raise AssertionError(f"structure type {t} in a valid stream")


HEADER = ("type", "version", "command", "msg_seq_number", "control", "comp_code", "reason")


def message_from_model(m: Message) -> tuple[Any, ...]:
    return (m.byte_order, m.offset, m.length, *(getattr(m, f) for f in HEADER), tuple(from_model(p) for p in m.parameters))


def parse_stream(data: bytes, compiled: bool) -> list[tuple[Any, ...]]:
    """Every message of a stream through the Construct parser of its byte order."""
    out = []
    stream = io.BytesIO(data)
    while (pos := stream.tell()) < len(data):
        order = "big" if data[pos + 4 : pos + 8] == b"\0\0\0\x24" else "little"
        c = layouts.message_parser(order, compiled).parse_stream(stream)
        assert c.struc_length == 36 and c.parameter_count == len(c.parameters)
        out.append((order, pos, stream.tell() - pos, *(c[f] for f in HEADER), tuple(from_construct(p) for p in c.parameters)))
    return out


@pytest.mark.parametrize("order", ["big", "little"])
def test_compiled_parser_really_compiled(order: str) -> None:
    parser = layouts.message_parser(order, compiled=True)
    assert type(parser).__name__ == "Compiled"
    assert "def parseall(io, this)" in parser.source
    assert type(layouts.message_parser(order, compiled=False)).__name__ == "Struct"
    # compile() silently links what it cannot compile; the one link is the group recursion.
    assert re.findall(r"# linkedinstances\[\d+\] is <(\w+)>", parser.source) == ["LazyBound"]


@pytest.mark.parametrize("path", CLEAN, ids=lambda p: p.stem)
def test_corpus_streams_agree(path: Path) -> None:
    data = path.read_bytes()
    expected = [message_from_model(m) for m in decode(data)]
    assert parse_stream(data, compiled=True) == expected
    assert parse_stream(data, compiled=False) == expected


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(messages(), ORDERS)
def test_generated_messages_agree(message: Message, order: str) -> None:
    data = encode(message, byte_order=order)
    expected = [message_from_model(m) for m in decode(data)]
    assert parse_stream(data, compiled=True) == expected
    assert parse_stream(data, compiled=False) == expected
