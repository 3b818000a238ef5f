"""The pipeline's column scanner against the definition of a row: ``rows.RowBuffer`` over the
codec's own tolerant ``decode``, on any input (property tests), on generated captures, and on
the inputs that must go to the codec (groups, 64-bit integers, warnings, broken spans)."""

from __future__ import annotations

import itertools
import struct
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_codec_properties import ORDERS, messages, mutated_streams
from test_pipeline_rows import every_kind, gen_captures

from pcfserver import mq
from pcfserver.codec import Group, Integer, IntegerFilter, IntegerList, Message, StreamDecoder, String, StringList, decode, encode
from pcfserver.pipeline import columns, rows

SETTINGS = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def reference(data: bytes) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    buffer = rows.RowBuffer("f")
    for message in decode(data, strict=False):
        buffer.add(message)
    return buffer.take_messages().to_pylist(), buffer.take_problems().to_pylist()


def scanned(data: bytes, batch_rows: int = rows.DEFAULT_BATCH_ROWS) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    got_messages: list[dict[str, Any]] = []
    got_problems: list[dict[str, Any]] = []
    for batch, problems in columns.decode_file("f", data, batch_rows):
        assert batch.schema == rows.MESSAGE_SCHEMA and problems.schema == rows.PROBLEM_SCHEMA
        assert batch.num_rows <= batch_rows
        got_messages += batch.to_pylist()
        got_problems += problems.to_pylist()
    return got_messages, got_problems


def assert_same_rows(data: bytes, batch_rows: int = rows.DEFAULT_BATCH_ROWS) -> None:
    got = scanned(data, batch_rows)
    assert got == reference(data)
    spans = sorted((r["offset"], r["length"]) for r in got[0] + got[1])
    assert sum(length for _, length in spans) == len(data)
    assert all(a + n == b for (a, n), (b, _) in itertools.pairwise(spans))


@SETTINGS
@given(st.lists(st.tuples(messages(plausible=True), ORDERS), max_size=6), st.integers(1, 4))
def test_any_messages_give_the_rows_of_the_codec(parts: list[tuple[Message, str]], batch_rows: int) -> None:
    assert_same_rows(b"".join(encode(m, byte_order=o) for m, o in parts), batch_rows)


@SETTINGS
@given(mutated_streams(), st.integers(1, 8))
def test_damaged_streams_give_the_rows_of_the_codec(data: bytes, batch_rows: int) -> None:
    assert_same_rows(data, batch_rows)


@settings(max_examples=300, deadline=None)
@given(st.binary(max_size=300))
def test_any_bytes_give_the_rows_of_the_codec(data: bytes) -> None:
    assert_same_rows(data)


@pytest.mark.parametrize(("rate", "seed"), [(0.0, 1), (0.05, 2), (0.2, 3)])
def test_generated_captures_give_the_rows_of_the_codec(tmp_path: Any, rate: float, seed: int) -> None:
    path = tmp_path / "c.pcf"
    gen_captures.generate_file(str(path), 3000, rate, seed)
    assert_same_rows(path.read_bytes(), 700)


def test_admin_traffic_is_taken_without_the_codec(monkeypatch: pytest.MonkeyPatch, tmp_path: Any) -> None:
    """Commands and responses of every structure the scanner reads never reach the codec."""
    path = tmp_path / "c.pcf"
    gen_captures.generate_file(str(path), 500, 0.0, 4)
    data = path.read_bytes()
    want = reference(data)

    def refuse(self: StreamDecoder) -> Message | None:
        raise AssertionError("the codec was asked")

    monkeypatch.setattr(StreamDecoder, "next_message", refuse)
    assert scanned(data) == want
    assert len(want[0]) == 500 and not want[1]


def unknown_ccsid(order: str) -> bytes:
    """A string in CCSID 4242, which the codec decodes with a warning (the encoder refuses it)."""
    data = bytearray(encode(Message(mq.MQCMD_CHANGE_Q, (String(mq.MQCA_Q_NAME, "Q", 819),)), byte_order=order))
    data[48:52] = (4242).to_bytes(4, order)  # type: ignore[arg-type]
    return bytes(data)


def encoded(message: Message) -> Any:
    return lambda order: encode(message, byte_order=order)


@pytest.mark.parametrize(
    "make",
    [
        encoded(every_kind()),  # groups, 64-bit integers and a byte-string filter: the codec's
        unknown_ccsid,  # a warning
        encoded(Message(mq.MQCMD_CHANGE_Q, (String(mq.MQCA_Q_NAME, "Q"),), control=7)),  # a header warning
        encoded(Message(mq.MQCMD_INQUIRE_Q, (IntegerFilter(mq.MQIA_Q_TYPE, 99, 1),), version=3)),  # an operator that is not one
        encoded(
            Message(mq.MQCMD_INQUIRE_Q, (IntegerFilter(mq.MQIA_Q_TYPE, mq.MQCFOP_EQUAL, 1),), version=1)
        ),  # a filter too new for version 1
    ],
    ids=["groups", "unknown-ccsid", "control", "operator", "version"],
)
def test_what_the_scanner_does_not_take_goes_to_the_codec_in_order(make: Any) -> None:
    plain = Message(
        mq.MQCMD_INQUIRE_Q,
        (String(mq.MQCA_Q_NAME, "A.*"), IntegerList(mq.MQIACF_Q_ATTRS, (1, 2)), StringList(mq.MQCACF_Q_NAMES, ("X", "Y"))),
    )
    data = b"".join(encode(plain, byte_order=o) + make(o) + encode(plain, byte_order=o) for o in ("big", "little"))
    assert_same_rows(data)
    assert_same_rows(data + data[:50])  # ending inside a message
    batches = [batch for batch, _ in columns.decode_file("f", data)]
    offsets = [offset for batch in batches for offset in batch.column("offset").to_pylist()]
    assert len(offsets) == 6 and offsets == sorted(offsets)  # in file order, batch after batch
    assert len(batches) == 1  # the codec's rows join the scanner's in one batch (issue 21: no batch per run)


def test_queue_name_and_type_come_from_the_first_of_their_kind() -> None:
    message = Message(
        mq.MQCMD_COPY_Q,
        (
            String(mq.MQCACF_FROM_Q_NAME, "FROM"),
            Integer(mq.MQIA_Q_TYPE, 1),
            String(mq.MQCACF_TO_Q_NAME, "TO  "),
            String(mq.MQCACF_TO_Q_NAME, "SECOND"),
            Integer(mq.MQIA_Q_TYPE, 3),
        ),
    )
    got, _ = scanned(encode(message))
    assert (got[0]["q_name"], got[0]["q_type"]) == ("TO", 1)


def test_a_member_names_its_group_by_its_index_in_its_own_message() -> None:
    """``parent`` counts within the message's own parameter array, whatever came before it in the batch."""
    grouped = Message(
        mq.MQCMD_INQUIRE_Q, (Integer(mq.MQIA_Q_TYPE, 1), Group(mq.MQGACF_Q_STATISTICS_DATA, (Integer(mq.MQIA_CURRENT_Q_DEPTH, 2),)))
    )
    got, _ = scanned(encode(grouped) * 3)
    assert [[p["parent"] for p in row["parameters"]] for row in got] == [[None, None, 1]] * 3


def test_a_failure_building_columns_turns_the_unbuilt_messages_into_one_problem(monkeypatch: pytest.MonkeyPatch) -> None:
    data = b"".join(encode(Message(mq.MQCMD_CLEAR_Q, (String(mq.MQCA_Q_NAME, f"Q{i}"),))) for i in range(10))
    size = len(data) // 10
    real = columns._build
    calls: list[int] = []

    def failing(source_file: str, raw: Any, scan: Any) -> Any:
        calls.append(len(scan.starts))
        if len(calls) == 2:
            raise RuntimeError("no room")
        return real(source_file, raw, scan)

    monkeypatch.setattr(columns, "_build", failing)
    batches = list(columns.decode_file("f", data, batch_rows=4))
    messages = [row for batch, _ in batches for row in batch.to_pylist()]
    problems = [row for _, batch in batches for row in batch.to_pylist()]
    assert [row["offset"] for row in messages] == [i * size for i in range(4)]
    assert [(p["offset"], p["length"], p["reason_name"]) for p in problems] == [(4 * size, 6 * size, "MQRC_UNEXPECTED_ERROR")]
    assert "RuntimeError: no room" in problems[0]["detail"]


def test_groups_64_bit_integers_and_byte_string_filters_are_taken_without_the_codec(monkeypatch: pytest.MonkeyPatch) -> None:
    """Event, statistics and z/OS messages carry these: they are scanned, not handed to the codec."""
    data = b"".join(encode(every_kind(), byte_order=o) for o in ("big", "little"))
    want = reference(data)

    def refuse(self: StreamDecoder) -> Message | None:
        raise AssertionError("the codec was asked")

    monkeypatch.setattr(StreamDecoder, "next_message", refuse)
    assert scanned(data) == want and len(want[0]) == 2


def test_a_queue_name_inside_a_group_is_not_the_message_s_queue() -> None:
    message = Message(
        mq.MQCMD_STATISTICS_Q,
        (
            Group(mq.MQGACF_Q_STATISTICS_DATA, (String(mq.MQCA_Q_NAME, "INNER"), Integer(mq.MQIA_Q_TYPE, 1))),
            String(mq.MQCACF_FROM_Q_NAME, "OUTER"),
        ),
        type=mq.MQCFT_STATISTICS,
    )
    got, _ = scanned(encode(message))
    assert (got[0]["q_name"], got[0]["q_type"]) == ("OUTER", None)


def test_groups_nested_too_deep_are_the_codec_s_problem() -> None:
    inner: Any = Integer(mq.MQIA_Q_TYPE, 1)
    for _ in range(33):
        inner = Group(mq.MQGACF_Q_STATISTICS_DATA, (inner,))
    data = encode(Message(mq.MQCMD_INQUIRE_Q, (String(mq.MQCA_Q_NAME, "Q"),))) + encode(Message(mq.MQCMD_INQUIRE_Q, (inner,)))
    assert_same_rows(data)
    assert len(scanned(data)[1]) == 1


def test_interleaved_codec_messages_do_not_cut_batches_short() -> None:
    """Issue 21: one message in two going to the codec used to make a batch of each run."""
    plain = encode(Message(mq.MQCMD_CLEAR_Q, (String(mq.MQCA_Q_NAME, "Q"),)))
    data = b"".join(plain + unknown_ccsid("big") for _ in range(13))
    assert_same_rows(data, 10)
    assert [batch.num_rows for batch, _ in columns.decode_file("f", data, 10)] == [10, 10, 6]


def test_captures_with_events_statistics_and_z_os_responses_give_the_rows_of_the_codec(tmp_path: Any) -> None:
    path = tmp_path / "rich.pcf"
    info = gen_captures.generate_file(str(path), 3000, 0.02, 5, rich_rate=0.3)
    assert 0.25 <= info["rich"] / 3000 <= 0.4
    data = path.read_bytes()
    assert_same_rows(data, 700)
    types = {row["type"] for row in reference(data)[0]}
    assert {mq.MQCFT_EVENT, mq.MQCFT_STATISTICS, mq.MQCFT_COMMAND_XR, mq.MQCFT_XR_ITEM, mq.MQCFT_XR_SUMMARY} <= types
    assert [batch.num_rows for batch, _ in columns.decode_file("f", data, 700)][:3] == [700, 700, 700]


@pytest.mark.parametrize("order", ["big", "little"])
def test_every_field_of_every_structure_set_to_awkward_values_gives_the_rows_of_the_codec(order: str) -> None:
    """Rule by rule: each 4-byte field of a message holding every structure (header, groups,
    filters, 64-bit integers, lists), and of a message holding each structure alone (so that no
    rule hides behind another structure's), set to values at and around the limits the rules
    draw; a rule changed in the codec and not in the scanner (or the other way round) shows here."""
    plain = encode(Message(mq.MQCMD_CLEAR_Q, (String(mq.MQCA_Q_NAME, "Q"),)), byte_order=order)
    whole = every_kind()
    pack = struct.Struct(">l" if order == "big" else "<l")
    for message in (whole, *(Message(mq.MQCMD_INQUIRE_Q, (p,), version=3) for p in whole.parameters)):
        original = encode(message, byte_order=order)
        for at in range(0, len(original), 4):
            (was,) = pack.unpack_from(original, at)
            for value in {0, -1, 1, 2, 3, 4, 7, 8, 16, 20, 24, 32, 36, 99, 2**31 - 1, -(2**31), was - 4, was - 1, was + 1, was + 4, was + 8}:
                if -(2**31) <= value < 2**31 and value != was:
                    data = bytearray(original)
                    pack.pack_into(data, at, value)
                    assert_same_rows(plain + bytes(data) + plain)


def test_a_failure_building_a_batch_with_codec_rows_keeps_every_byte_accounted_for(monkeypatch: pytest.MonkeyPatch) -> None:
    plain = encode(Message(mq.MQCMD_CLEAR_Q, (String(mq.MQCA_Q_NAME, "Q"),)))
    broken = bytearray(plain)
    broken[40:44] = (7).to_bytes(4, "big")  # a problem row inside the second batch
    data = plain * 4 + unknown_ccsid("big") + bytes(broken) + plain * 3
    real = columns._build
    calls: list[int] = []

    def failing(source_file: str, raw: Any, scan: Any) -> Any:
        calls.append(len(scan.starts))
        if len(calls) == 2:
            raise RuntimeError("no room")
        return real(source_file, raw, scan)

    monkeypatch.setattr(columns, "_build", failing)
    batches = list(columns.decode_file("f", data, batch_rows=4))
    messages = [row for batch, _ in batches for row in batch.to_pylist()]
    problems = [row for _, batch in batches for row in batch.to_pylist()]
    assert [row["offset"] for row in messages] == [i * len(plain) for i in range(4)]
    assert [(p["offset"], p["length"], p["reason_name"]) for p in problems] == [(4 * len(plain), len(data) - 4 * len(plain), "MQRC_UNEXPECTED_ERROR")]
