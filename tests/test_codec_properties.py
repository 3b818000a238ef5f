"""Codec properties (issue 2 §5): round trips, canonical padding, and no input that escapes.

* encode then decode is the identity, in both byte orders, for every parameter type;
* encoding is canonical: StrucLength = fixed part + data rounded up to 4, NUL pad bytes;
* any bytes (random, or valid messages mutated) give messages or PcfError and nothing else,
  strict or tolerant, one-shot or through StreamDecoder in random pieces (same result);
* tolerant decoding accounts for every byte: the lengths add up to the input's;
* lengths and counts are never trusted: bombs fail at once, without allocating.
"""

from __future__ import annotations

import json
import struct
import tracemalloc
from typing import Any

import pytest
from codec_support import merged_spans
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

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
    PcfError,
    StreamDecoder,
    String,
    StringFilter,
    StringList,
    decode,
    encode,
)
from pcfserver.codec.decoder import MESSAGE_TYPES, OPERATORS
from pcfserver.jsonform import message_to_json

SETTINGS = settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
INT32 = st.integers(-(2**31), 2**31 - 1)
INT64 = st.integers(-(2**63), 2**63 - 1)
ORDERS = st.sampled_from(["big", "little"])

# CCSIDs and their Python codecs (formats/ccsids.tsv); 0 is the default, 819.
CODECS = {0: "latin-1", 819: "latin-1", 367: "ascii", 437: "cp437", 850: "cp850", 1208: "utf-8", 1200: "utf-16-be", 37: "cp037", 500: "cp500", 273: "cp273", 1140: "cp1140"}
UNICODE = st.characters(blacklist_categories=("Cs",))


def text_in(ccsid: int, max_size: int = 12) -> st.SearchStrategy[str]:
    """Text that CCSID can hold: any bytes of a single-byte code page, any text for UTF-8/16."""
    codec = CODECS[ccsid]
    if codec in ("utf-8", "utf-16-be"):
        return st.text(UNICODE, max_size=max_size)
    if codec == "ascii":
        return st.binary(max_size=max_size).map(lambda b: bytes(x & 0x7F for x in b).decode("ascii"))
    return st.binary(max_size=max_size).map(lambda b: b.decode(codec))


ccsids = st.sampled_from(sorted(CODECS))


@st.composite
def strings(draw: st.DrawFn) -> String:
    ccsid = draw(ccsids)
    return String(draw(INT32), draw(text_in(ccsid, 40)), ccsid)


@st.composite
def string_lists(draw: st.DrawFn) -> StringList:
    """Values of one encoded length (the encoder blank-pads shorter ones: so pad them here)."""
    ccsid = draw(ccsids)
    codec = CODECS[ccsid]
    texts = draw(st.lists(text_in(ccsid), max_size=5))
    width = max((len(t.encode(codec)) for t in texts), default=0)
    blank = len(" ".encode(codec))
    values = tuple(t + " " * ((width - len(t.encode(codec))) // blank) for t in texts)
    # the StringLength a decoded list carries: its values' width, or any length when it holds none
    return StringList(draw(INT32), values, ccsid, draw(st.integers(0, 64)) if not values else width)


@st.composite
def string_filters(draw: st.DrawFn) -> StringFilter:
    ccsid = draw(ccsids)
    return StringFilter(draw(INT32), draw(st.sampled_from(sorted(OPERATORS))), draw(text_in(ccsid)), ccsid)


leaves: st.SearchStrategy[Parameter] = st.one_of(
    st.builds(Integer, INT32, INT32),
    st.builds(Integer64, INT32, INT64),
    strings(),
    st.builds(IntegerList, INT32, st.lists(INT32, max_size=6).map(tuple)),
    st.builds(Integer64List, INT32, st.lists(INT64, max_size=6).map(tuple)),
    string_lists(),
    st.builds(ByteString, INT32, st.binary(max_size=40)),
    st.builds(IntegerFilter, INT32, st.sampled_from(sorted(OPERATORS)), INT32),
    string_filters(),
    st.builds(ByteStringFilter, INT32, st.sampled_from(sorted(OPERATORS)), st.binary(max_size=20)),
)
parameters: st.SearchStrategy[Parameter] = st.recursive(
    leaves, lambda inner: st.builds(Group, INT32, st.lists(inner, max_size=4).map(tuple)), max_leaves=12
)


def needed_version(params: tuple[Parameter, ...]) -> int:
    """MQCFBS needs MQCFH Version 2, filters Version 3 (pcf-structures.md §3.13)."""
    version = 1
    for p in params:
        if isinstance(p, (IntegerFilter, StringFilter, ByteStringFilter)):
            version = 3
        elif isinstance(p, ByteString):
            version = max(version, 2)
        elif isinstance(p, Group):
            version = max(version, needed_version(p.parameters))
    return version


@st.composite
def messages(draw: st.DrawFn, plausible: bool = False) -> Message:
    """Any message; ``plausible``: one whose MQCFH a resynchronising decoder recognises
    (Command 0..999999, CompCode 0..2), as real commands and responses have."""
    params = tuple(draw(st.lists(parameters, max_size=6)))
    return Message(
        command=draw(st.integers(0, 999_999) if plausible else INT32),
        parameters=params,
        type=draw(st.sampled_from(sorted(MESSAGE_TYPES))),
        version=draw(st.integers(needed_version(params), 3)),
        msg_seq_number=draw(st.integers(1, 2**31 - 1)),
        control=draw(st.sampled_from([0, 1])),
        comp_code=draw(st.integers(0, 2) if plausible else INT32),
        reason=draw(INT32),
    )


# ---------------------------------------------------------------------------------------------
# Round trips and canonical form


@SETTINGS
@given(messages(), ORDERS)
def test_encode_then_decode_is_the_identity(message: Message, order: str) -> None:
    data = encode(message, byte_order=order)
    for strict in (True, False):
        (got,) = decode(data, strict=strict)
        assert got == message
        assert (got.byte_order, got.offset, got.length, got.parameter_count) == (order, 0, len(data), len(message.parameters))
        assert got.error is None and got.warnings == ()


@SETTINGS
@given(messages(), ORDERS)
def test_decode_then_encode_gives_back_the_same_bytes(message: Message, order: str) -> None:
    """A canonical stream survives decode then encode byte for byte, an empty MQCFSL's StringLength included."""
    data = encode(message, byte_order=order)
    (decoded,) = decode(data)
    assert encode(decoded, byte_order=order) == data

    def lengths(params: tuple[Parameter, ...]) -> list[int | None]:
        out: list[int | None] = []
        for p in params:
            if isinstance(p, Group):
                out += lengths(p.parameters)
            elif isinstance(p, StringList):
                out.append(p.string_length)
        return out

    assert lengths(decoded.parameters) == lengths(message.parameters)


def test_an_empty_string_list_keeps_its_string_length() -> None:
    data = encode(Message(8, (StringList(2020, (), 0, 43),)))
    assert struct.unpack_from(">2l", data, 36 + 16) == (0, 43)  # Count 0, StringLength 43
    (got,) = decode(data)
    assert got.parameters[0].string_length == 43  # type: ignore[union-attr]
    assert encode(got) == data


def _walk(data: bytes, order: str, pos: int, count: int) -> int:
    """Checks every structure from ``pos`` is canonical; returns where they end."""
    o = ">" if order == "big" else "<"
    fixed = {3: 16, 23: 24, 13: 20, 20: 16}
    for _ in range(count):
        t, sl = struct.unpack_from(o + "2l", data, pos)
        if t in fixed:
            assert sl == fixed[t]
            if t == 20:
                pos = _walk(data, order, pos + 16, struct.unpack_from(o + "l", data, pos + 12)[0])
                continue
        elif t in (5, 25):
            n = struct.unpack_from(o + "l", data, pos + 12)[0]
            assert sl == 16 + n * (4 if t == 5 else 8)
        else:
            if t == 6:
                n, each = struct.unpack_from(o + "2l", data, pos + 16)
                start, length = 24, n * each
            else:
                start, at = {4: (20, 16), 9: (16, 12), 14: (24, 20), 15: (20, 16)}[t]
                length = struct.unpack_from(o + "l", data, pos + at)[0]
            assert sl == start + length + (-length) % 4  # minimal padding to a multiple of 4
            assert data[pos + start + length : pos + sl] == b"\0" * ((-length) % 4)  # NUL pad bytes
        pos += sl
    return pos


@SETTINGS
@given(messages(), ORDERS)
def test_encoding_is_canonical(message: Message, order: str) -> None:
    data = encode(message, byte_order=order)
    o = ">" if order == "big" else "<"
    header = struct.unpack_from(o + "9l", data)
    assert header[1] == 36 and header[8] == len(message.parameters)
    assert _walk(data, order, 36, len(message.parameters)) == len(data)


@SETTINGS
@given(messages())
def test_byte_orders_differ_only_in_integers(message: Message) -> None:
    big, little = encode(message, byte_order="big"), encode(message, byte_order="little")
    assert len(big) == len(little)
    assert decode(big + little + big) == [message, message, message]


@SETTINGS
@given(ccsids.flatmap(lambda c: st.tuples(st.just(c), st.lists(text_in(c), max_size=5))), ORDERS)
def test_string_list_values_are_blank_padded_to_a_common_length(case: tuple[int, list[str]], order: str) -> None:
    """Values of different lengths come back padded with blanks (in UTF-16 a blank is 2 bytes)."""
    ccsid, texts = case
    codec = CODECS[ccsid]
    width = max((len(t.encode(codec)) for t in texts), default=0)
    blank = len(" ".encode(codec))
    (got,) = decode(encode(Message(8, (StringList(2020, tuple(texts), ccsid),)), byte_order=order))
    assert got.parameters == (StringList(2020, tuple(t + " " * ((width - len(t.encode(codec))) // blank) for t in texts), ccsid),)


def test_encoder_refuses_what_the_decoder_refuses() -> None:
    """An MQCFSL can hold no more strings than it has bytes: 24 empty strings, not 25."""
    assert decode(encode(Message(8, (StringList(2020, ("",) * 24),))))[0].parameters == (StringList(2020, ("",) * 24),)
    with pytest.raises(PcfError) as caught:
        encode(Message(8, (StringList(2020, ("",) * 25),)))
    assert caught.value.reason == 3068


# ---------------------------------------------------------------------------------------------
# Nothing escapes: arbitrary and mutated input


def _check_any(data: bytes) -> None:
    """Strict: messages or PcfError.  Tolerant: messages covering every byte, printable as JSON."""
    try:
        strict = decode(data)
    except PcfError as exc:
        assert isinstance(exc.reason, int) and exc.offset is not None and 0 <= exc.offset <= len(data)
        strict = None
    lax = decode(data, strict=False)
    assert isinstance(lax, list) and all(isinstance(m, Message) for m in lax)
    assert sum(m.length for m in lax) == len(data)
    assert [m.offset for m in lax] == [sum(m.length for m in lax[:i]) for i in range(len(lax))]
    for m in lax:
        json.dumps(message_to_json(m), ensure_ascii=False).encode("utf-8")
    if strict is not None:
        assert lax == strict and all(m.error is None and not m.warnings for m in lax)


def _as_json(messages: list[Message]) -> list[dict[str, Any]]:
    return [message_to_json(m) for m in messages]


def _chunked(data: bytes, sizes: list[int], strict: bool) -> tuple[list[Message], PcfError | None]:
    decoder = StreamDecoder(strict=strict)
    out: list[Message] = []
    pos = 0
    i = 0
    try:
        while pos < len(data):
            size = sizes[i % len(sizes)]
            i += 1
            decoder.feed(data[pos : pos + size])
            pos += size
            while (message := decoder.next_message()) is not None:
                out.append(message)
        out.extend(decoder.close())
    except PcfError as exc:
        return out, exc
    return out, None


def _check_chunked(data: bytes, sizes: list[int]) -> None:
    """StreamDecoder fed in pieces gives what one-shot decoding gives, strict and tolerant."""
    got, failure = _chunked(data, sizes, strict=True)
    try:
        expected = decode(data)
    except PcfError as exc:
        assert failure is not None and (failure.reason, failure.offset) == (exc.reason, exc.offset)
        prefix = decode(data, strict=False)[: len(got)]
        assert got == prefix and all(m.error is None and not m.warnings for m in got)
    else:
        assert failure is None and got == expected
    lax, failure = _chunked(data, sizes, strict=False)
    assert failure is None
    assert merged_spans(_as_json(lax)) == merged_spans(_as_json(decode(data, strict=False)))


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=400))
def test_any_bytes_give_messages_or_pcf_error(data: bytes) -> None:
    _check_any(data)


@st.composite
def mutated_streams(draw: st.DrawFn) -> bytes:
    """A few valid messages in either byte order, then bit flips, truncations and splices."""
    parts = draw(st.lists(st.tuples(messages(), ORDERS), min_size=1, max_size=4))
    data = bytearray(b"".join(encode(m, byte_order=o) for m, o in parts))
    for _ in range(draw(st.integers(1, 4))):
        kind = draw(st.sampled_from(["flip", "int", "cut", "splice", "delete", "duplicate"]))
        if not data:
            break
        at = draw(st.integers(0, len(data) - 1))
        if kind == "flip":
            data[at] ^= 1 << draw(st.integers(0, 7))
        elif kind == "int":  # an aligned field set to an awkward value
            at -= at % 4
            value = draw(st.sampled_from([0, -1, 1, 3, 36, 2**31 - 1, -(2**31), 100_000_000, 16, 20, 24]))
            data[at : at + 4] = struct.pack(draw(st.sampled_from([">l", "<l"])), value)
        elif kind == "cut":
            del data[at:]
        elif kind == "splice":
            data[at:at] = draw(st.binary(min_size=1, max_size=40))
        elif kind == "delete":
            del data[at : at + draw(st.integers(1, 40))]
        else:
            end = min(len(data), at + draw(st.integers(1, 80)))
            data[at:at] = data[at:end]
    return bytes(data)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_streams())
def test_mutated_messages_give_messages_or_pcf_error(data: bytes) -> None:
    _check_any(data)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(mutated_streams(), st.lists(st.integers(1, 97), min_size=1, max_size=8))
def test_stream_decoder_in_random_pieces_equals_one_shot(data: bytes, sizes: list[int]) -> None:
    _check_chunked(data, sizes)


@settings(max_examples=50, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(messages(plausible=True), ORDERS), min_size=1, max_size=3), st.binary(min_size=1, max_size=200), st.lists(st.integers(1, 4500), min_size=1, max_size=4))
def test_resync_after_garbage_finds_every_message(parts: list[tuple[Message, str]], garbage: bytes, sizes: list[int]) -> None:
    """Garbage before valid messages hides none of them (unless it ends in a plausible header)."""
    body = b"".join(encode(m, byte_order=o) for m, o in parts)
    data = b"\xff" + garbage + body
    lax = decode(data, strict=False)
    decoded = [m for m in lax if m.error is None]
    if decoded == [m for m, _ in parts]:
        assert [m.byte_order for m in decoded] == [o for _, o in parts]
    else:  # the garbage itself held something that reads as a header: then the span must end inside it
        assert any(m.error is None and m.offset < 1 + len(garbage) for m in lax)
    _check_chunked(data, sizes)


# ---------------------------------------------------------------------------------------------
# Bombs: a length or count that would allocate or loop is refused at once


def _header(count: int, order: str = ">", version: int = 3) -> bytes:
    return struct.pack(order + "9l", 1, 36, version, 13, 1, 1, 0, 0, count)


BOMBS = {
    # name: (bytes, expected reason)
    "header count 2**31-1": (_header(2**31 - 1), 3006),
    "header count 6 million, 36 bytes": (_header(6_000_000), 3016),
    "MQCFIL 100 million values, 52 bytes": (_header(1) + struct.pack(">4l", 5, 16, 1002, 100_000_000), 3027),
    "MQCFIL 100 million values, consistent StrucLength": (_header(1) + struct.pack(">4l", 5, 16 + 400_000_000, 1002, 100_000_000), 2030),
    "MQCFIL 2**31-1 values, little-endian": (_header(1, "<") + struct.pack("<4l", 5, 16, 1002, 2**31 - 1), 3027),
    "MQCFIL64 100 million values": (_header(1) + struct.pack(">4l", 25, 16, 1002, 100_000_000), 3027),
    "MQCFSL 100 million empty strings": (_header(1) + struct.pack(">6l", 6, 24, 3011, 0, 100_000_000, 0), 3068),
    "MQCFSL 100 million 1-byte strings": (_header(1) + struct.pack(">6l", 6, 24, 3011, 0, 100_000_000, 1), 3024),
    "MQCFSL 1 string of 2**31-1 bytes": (_header(1) + struct.pack(">6l", 6, 24, 3011, 0, 1, 2**31 - 1), 3024),
    "MQCFST StringLength 2**31-1": (_header(1) + struct.pack(">5l", 4, 20, 2016, 0, 2**31 - 1), 3010),
    "MQCFST StrucLength 2**31-4": (_header(1) + struct.pack(">5l", 4, 2**31 - 4, 2016, 0, 4) + b"ABCD", 2030),
    "MQCFBS StringLength 2**31-1": (_header(1) + struct.pack(">4l", 9, 16, 7004, 2**31 - 1), 3255),
    "MQCFGR 100 million members": (_header(1) + struct.pack(">4l", 20, 16, 8011, 100_000_000), 3259),
    "MQCFGR 6 million members": (_header(1) + struct.pack(">4l", 20, 16, 8011, 6_000_000), 3016),
    "groups 1000 deep": (_header(1) + struct.pack(">4l", 20, 16, 8011, 1) * 1000, 3259),
}


@pytest.mark.parametrize("name", sorted(BOMBS))
def test_bombs_fail_without_allocating(name: str) -> None:
    data, reason = BOMBS[name]
    tracemalloc.start()
    try:
        with pytest.raises(PcfError) as caught:
            decode(data)
        lax = decode(data, strict=False)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert caught.value.reason == reason
    assert lax[0].error is not None and lax[0].error.reason == reason
    assert sum(m.length for m in lax) == len(data)
    assert peak < 512 * 1024, f"{name}: {peak} bytes allocated"


def test_the_52_byte_message_of_issue_2() -> None:
    data = BOMBS["MQCFIL 100 million values, 52 bytes"][0]
    assert len(data) == 52
    with pytest.raises(PcfError) as caught:
        decode(data)
    assert (caught.value.reason, caught.value.offset, caught.value.parameter_id) == (3027, 36, 1002)


def test_huge_struc_length_in_a_stream_is_refused_without_buffering() -> None:
    """A stream decoder with a message size limit refuses a message claiming more, before it comes."""
    head = _header(1) + struct.pack(">5l", 4, 2**31 - 4, 2016, 0, 4)
    chunk = b"\0" * 65536
    for strict in (True, False):
        decoder = StreamDecoder(strict=strict, max_message_bytes=1_000_000)
        tracemalloc.start()
        try:
            decoder.feed(head)
            if strict:
                with pytest.raises(PcfError) as caught:
                    decoder.next_message()
                assert (caught.value.reason, caught.value.offset) == (2030, 0)
            else:
                got = []
                for _ in range(40):  # 2.5 MB more of the claimed message: not kept
                    decoder.feed(chunk)
                    got.extend(decoder.messages())
                got.extend(decoder.close())
                assert got[0].error is not None and got[0].error.reason == 2030
                assert sum(m.length for m in got) == len(head) + 40 * len(chunk)
                assert decoder.buffered == 0
            _, peak = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        assert peak < 1_000_000


def test_stream_decoder_holds_one_message_at_a_time() -> None:
    """Feeding many messages keeps only the undecoded rest buffered."""
    one = encode(Message(8, (String(2016, "APP.Q"), Integer(20, 1))))
    decoder = StreamDecoder()
    total = 0
    for _ in range(2000):
        decoder.feed(one * 3 + one[:7])
        total += len(decoder.messages())
        decoder.feed(one[7:])
        total += len(decoder.messages())
        assert decoder.buffered == 0
    assert total == 8000 and decoder.close() == []


@SETTINGS
@given(mutated_streams())
def test_seeking_to_where_a_message_starts_decodes_the_rest_as_a_whole_decode_does(data: bytes) -> None:
    """``end()`` then ``seek()`` to any message's offset gives the messages a whole decode gives from there."""
    whole = decode(data, strict=False)
    for index in range(len(whole)):
        decoder = StreamDecoder(strict=False)
        decoder.feed(data)
        decoder.end()
        decoder.seek(whole[index].offset)
        assert decoder.messages() == whole[index:]
    decoder = StreamDecoder(strict=False)
    decoder.feed(data)
    with pytest.raises(ValueError):
        decoder.seek(len(data) + 1)
