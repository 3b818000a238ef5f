"""The codec's server mode and the engine together: a decode problem that keeps the framing
is answered as that command's error, and the stream goes on."""

from __future__ import annotations

import pcfserver
from pcfserver import Integer, Message, String, StringFilter, mq
from pcfserver.engine import open_engine


def test_rule_violation_found_by_the_decoder_is_the_commands_answer() -> None:
    engine = open_engine()
    try:
        # An MQCFSF in a version-1 header is a structure the header may not carry (3013).
        bad = Message(mq.MQCMD_INQUIRE_Q, (String(mq.MQCA_Q_NAME, "*"), StringFilter(mq.MQCA_Q_DESC, mq.MQCFOP_LIKE, "X*")), type=mq.MQCFT_COMMAND, version=1)
        good = Message(mq.MQCMD_CREATE_Q, (String(mq.MQCA_Q_NAME, "APP.Q"), Integer(mq.MQIA_Q_TYPE, mq.MQQT_LOCAL)))
        stream = pcfserver.StreamDecoder(strict=False, resync=False)
        stream.feed(pcfserver.encode(bad, byte_order="little") + pcfserver.encode(good))
        first, second = stream.messages()
        answer = engine.execute(first)
        assert [(m.comp_code, m.reason, m.control) for m in answer] == [
            (mq.MQCC_FAILED, mq.MQRCCF_STRUCTURE_TYPE_ERROR, mq.MQCFC_NOT_LAST),
            (mq.MQCC_FAILED, mq.MQRCCF_COMMAND_FAILED, mq.MQCFC_LAST),
        ]
        assert all(m.byte_order == "little" for m in answer)
        assert [(m.comp_code, m.reason) for m in engine.execute(second)] == [(mq.MQCC_OK, mq.MQRC_NONE)]
    finally:
        engine.close()
