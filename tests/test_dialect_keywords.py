"""The keyword and value-word mapping as plain values, both ways (what the REST API's runCommandJSON reuses)."""

from __future__ import annotations

import pytest

from pcfserver import mq
from pcfserver.codec import Integer, IntegerList, String
from pcfserver.dialects import from_pcf_value, keyword_parameter, keyword_values, parameter_keyword, pcf_parameters, to_pcf_value
from pcfserver.dialects.tables import queue_attributes, vocabulary


def test_keywords_both_ways() -> None:
    assert keyword_parameter("maxdepth") == mq.MQIA_MAX_Q_DEPTH
    assert keyword_parameter("TARGQ") == mq.MQCA_BASE_OBJECT_NAME  # a fixed synonym
    assert keyword_parameter("maxumsgs", table="qmgr") == mq.MQIA_MAX_UNCOMMITTED_MSGS
    assert keyword_parameter("uncom", table="status") == mq.MQIACF_UNCOMMITTED_MSGS
    assert keyword_parameter("nosuch") is None
    assert parameter_keyword(mq.MQIA_INHIBIT_PUT) == "PUT"
    assert parameter_keyword(mq.MQIA_INHIBIT_PUT, dialect="ibmi") == "PUTENBL"
    assert parameter_keyword(mq.MQIA_INHIBIT_PUT, dialect="tpf") == "PUT"
    assert parameter_keyword(mq.MQIA_CAP_EXPIRY, dialect="ibmi") is None


def test_every_keyword_of_every_language_maps_back_to_its_parameter() -> None:
    for dialect in ("mqsc", "tpf", "ibmi"):
        for attr in queue_attributes():
            keyword = attr.keyword(dialect)
            if keyword:
                assert keyword_parameter(keyword, dialect=dialect) == attr.parameter


@pytest.mark.parametrize(
    ("parameter", "value", "number", "dialect"),
    [
        (mq.MQIA_INHIBIT_PUT, "disabled", 1, "mqsc"),
        (mq.MQIA_INHIBIT_PUT, "*NO", 1, "ibmi"),  # inverted on IBM i
        (mq.MQIA_TRIGGER_TYPE, "*ALL", mq.MQTT_EVERY, "ibmi"),
        (mq.MQIA_TRIGGER_CONTROL, "notrigger", 0, "mqsc"),
        (mq.MQIA_CAP_EXPIRY, "NOLIMIT", -1, "mqsc"),
        (mq.MQIA_CAP_EXPIRY, "250", 250, "mqsc"),
        (mq.MQIA_MAX_Q_DEPTH, 5000, 5000, "mqsc"),
        (mq.MQCA_Q_DESC, "Mixed case", "Mixed case", "mqsc"),
    ],
)
def test_values_both_ways(parameter: int, value: str | int, number: int | str, dialect: str) -> None:
    assert to_pcf_value(parameter, value, dialect=dialect) == number
    shown = from_pcf_value(parameter, number, dialect=dialect)
    assert to_pcf_value(parameter, shown, dialect=dialect) == number


def test_bad_values_are_value_errors() -> None:
    for parameter, value in ((mq.MQIA_INHIBIT_PUT, "maybe"), (mq.MQIA_MAX_Q_DEPTH, "lots"), (mq.MQCA_Q_DESC, 5), (mq.MQIA_MAX_Q_DEPTH, True)):
        with pytest.raises(ValueError):
            to_pcf_value(parameter, value)  # type: ignore[arg-type]


def test_every_word_round_trips() -> None:
    for dialect in ("mqsc", "tpf", "ibmi"):
        for parameter, words in vocabulary(dialect).words.items():
            for word, value in words.to_value.items():
                assert to_pcf_value(parameter, word, dialect=dialect) == value
                assert to_pcf_value(parameter, from_pcf_value(parameter, value, dialect=dialect), dialect=dialect) == value


def test_json_style_parameters() -> None:
    # REST runCommandJSON: {"parameters": {"maxdepth": 5000, "put": "disabled", "descr": "x"}}
    assert pcf_parameters({"maxdepth": 5000, "put": "disabled", "descr": "Orders"}) == (
        Integer(mq.MQIA_MAX_Q_DEPTH, 5000), Integer(mq.MQIA_INHIBIT_PUT, 1), String(mq.MQCA_Q_DESC, "Orders"),
    )
    with pytest.raises(ValueError):
        pcf_parameters({"nosuch": 1})
    response = (String(mq.MQCA_Q_NAME, "Q1".ljust(48)), Integer(mq.MQIA_Q_TYPE, 1), Integer(mq.MQIA_MAX_Q_DEPTH, 5000),
                Integer(mq.MQIA_INHIBIT_PUT, 1), String(mq.MQCA_Q_DESC, "Orders".ljust(64)), IntegerList(mq.MQIACF_Q_ATTRS, (1,)))
    assert keyword_values(response) == {"queue": "Q1", "type": "QLOCAL", "maxdepth": 5000, "put": "DISABLED", "descr": "Orders"}
    assert keyword_values((String(mq.MQCA_Q_MGR_NAME, "QM1"),), table="qmgr") == {"qmname": "QM1"}
