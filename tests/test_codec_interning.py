"""The decoder shares parameter objects it has seen before; sharing must never change a result."""

from __future__ import annotations

import pcfserver
from pcfserver import Integer, Message, String, mq
from pcfserver.codec import decoder


def _message(name: str, depth: int, ccsid: int = 0) -> Message:
    return Message(mq.MQCMD_CHANGE_Q, (String(mq.MQCA_Q_NAME, name, ccsid), Integer(mq.MQIA_Q_TYPE, 1), Integer(mq.MQIA_MAX_Q_DEPTH, depth)))


def test_same_bytes_give_equal_messages_warm_and_cold() -> None:
    data = b"".join(pcfserver.encode(_message(f"Q{i % 3}", i % 2)) for i in range(20))
    decoder.clear_caches()
    cold = pcfserver.decode(data)
    warm = pcfserver.decode(data)
    assert cold == warm
    assert [m.get(mq.MQCA_Q_NAME) for m in warm[:3]] == [String(2016, "Q0"), String(2016, "Q1"), String(2016, "Q2")]


def test_default_ccsid_is_part_of_what_is_shared() -> None:
    # CCSID 0 means "the default": the same bytes decode differently under another default.
    data = pcfserver.encode(_message("\u00c9T\u00c9", 1), default_ccsid=819)
    assert pcfserver.decode(data)[0].str_value(mq.MQCA_Q_NAME) == "\u00c9T\u00c9"
    latin_as_500 = pcfserver.decode(data, default_ccsid=500)[0].str_value(mq.MQCA_Q_NAME)
    assert latin_as_500 == data[56:59].decode("cp500")
    assert pcfserver.decode(data)[0].str_value(mq.MQCA_Q_NAME) == "\u00c9T\u00c9"


def test_byte_orders_do_not_share_integers() -> None:
    big = pcfserver.encode(_message("Q", 5), byte_order="big")
    little = pcfserver.encode(_message("Q", 5), byte_order="little")
    assert pcfserver.decode(big)[0].int_value(mq.MQIA_MAX_Q_DEPTH) == 5
    assert pcfserver.decode(little)[0].int_value(mq.MQIA_MAX_Q_DEPTH) == 5


def test_a_string_with_a_problem_is_reported_every_time() -> None:
    bad = pcfserver.encode(_message("Q", 1, ccsid=1208)).replace(b"Q\x00\x00\x00", b"\xff\x00\x00\x00")
    for _ in range(2):
        (message,) = pcfserver.decode(bad, strict=False)
        assert [w.reason for w in message.warnings] == [mq.MQRCCF_CCSID_ERROR]


def test_the_caches_stay_bounded() -> None:
    decoder.clear_caches()
    data = b"".join(pcfserver.encode(_message(f"Q{i}", i)) for i in range(decoder._CACHE_LIMIT + 10))
    pcfserver.decode(data)
    assert len(decoder._INTEGERS) <= decoder._CACHE_LIMIT
    assert all(len(cache) <= decoder._CACHE_LIMIT for cache in decoder._STRINGS.values())


def test_server_mode_records_violations_but_stops_on_lost_framing() -> None:
    import pytest

    good = pcfserver.encode(_message("Q", 1))
    wrong_type = pcfserver.encode(Message(mq.MQCMD_CHANGE_Q, (String(mq.MQCA_Q_NAME, "Q"),), type=99))
    stream = pcfserver.StreamDecoder(strict=False, resync=False)
    stream.feed(wrong_type + good)
    first, second = stream.messages()
    assert [w.reason for w in first.warnings] == [mq.MQRCCF_CFH_TYPE_ERROR]
    assert second == _message("Q", 1)
    broken = bytearray(good)
    broken[36 + 7] = 99  # MQCFST StrucLength no longer matches its data: framing lost
    stream.feed(bytes(broken) + good)
    with pytest.raises(pcfserver.PcfError) as caught:
        stream.messages()
    assert caught.value.reason == mq.MQRCCF_CFST_LENGTH_ERROR
    assert caught.value.offset == len(wrong_type) + len(good) + 36
    with pytest.raises(pcfserver.PcfError):
        stream.next_message()
