"""MQCMD_ESCAPE: MQSC text carried in PCF, run by the engine and answered as IBM's Escape Response."""

from __future__ import annotations

from pathlib import Path

import trio

from pcfserver import mq
from pcfserver.client import connect
from pcfserver.codec import Integer, Message, String
from pcfserver.engine import open_engine
from pcfserver.server import PcfServer, ServerConfig
from tests.engine_support import check_shape, through_codec


def escape(text: str, escape_type: int = mq.MQET_MQSC) -> Message:
    return Message(mq.MQCMD_ESCAPE, (Integer(mq.MQIACF_ESCAPE_TYPE, escape_type), String(mq.MQCACF_ESCAPE_TEXT, text)))


def text_of(response: Message) -> str:
    assert response.int_value(mq.MQIACF_ESCAPE_TYPE) == mq.MQET_MQSC
    value = response.str_value(mq.MQCACF_ESCAPE_TEXT)
    assert value is not None
    return value


def test_define_through_escape_changes_the_registry() -> None:
    engine = open_engine(None)
    [response] = engine.execute(through_codec(escape("DEFINE QLOCAL(ESC.Q) MAXDEPTH(42)"), "little"))
    assert (response.command, response.comp_code, response.reason) == (mq.MQCMD_CREATE_Q, mq.MQCC_OK, mq.MQRC_NONE)
    assert response.type == mq.MQCFT_RESPONSE and response.control == mq.MQCFC_LAST and response.byte_order == "little"
    assert text_of(response) == "AMQ8006I: IBM MQ queue created."
    [again] = engine.execute(escape("DEFINE QLOCAL(ESC.Q)"))
    assert (again.command, again.comp_code, again.reason) == (mq.MQCMD_CREATE_Q, mq.MQCC_FAILED, mq.MQRCCF_OBJECT_ALREADY_EXISTS)
    assert text_of(again) == "AMQ8150E: IBM MQ object already exists."


def test_only_cr_and_lf_end_lines_of_escape_text() -> None:
    """A command sent over several lines is one command; U+0085 (NEL, a character of ISO 8859-1)
    inside a quoted string is text, as in a script file, not a line end."""
    engine = open_engine(None)
    [made] = engine.execute(escape("DEFINE QLOCAL(ESC.NEL)\r\n  DESCR('one\x85two')\nMAXDEPTH(7)"))
    assert text_of(made) == "AMQ8006I: IBM MQ queue created."
    [shown] = engine.execute(escape("DISPLAY QLOCAL(ESC.NEL) DESCR MAXDEPTH"))
    assert "DESCR(one\x85two)" in text_of(shown) and "MAXDEPTH(7)" in text_of(shown)


def test_display_answers_one_message_per_object() -> None:
    engine = open_engine(None)
    engine.execute(escape("DEFINE QLOCAL(ESC.A) MAXDEPTH(1)"))
    engine.execute(escape("DEFINE QLOCAL(ESC.B) MAXDEPTH(2)"))
    answer = engine.execute(escape("DISPLAY QLOCAL(ESC.*) MAXDEPTH"))
    check_shape(answer, mq.MQCMD_INQUIRE_Q, "big")
    assert [text_of(m) for m in answer] == [
        "AMQ8409I: Display Queue details.\n   QUEUE(ESC.A)                            TYPE(QLOCAL)\n   MAXDEPTH(1)",
        "AMQ8409I: Display Queue details.\n   QUEUE(ESC.B)                            TYPE(QLOCAL)\n   MAXDEPTH(2)",
    ]


def test_unreadable_text_and_bad_escape_type() -> None:
    engine = open_engine(None)
    [response] = engine.execute(escape("DEFINE QLOCAL(X) MAXDEPTH("))
    assert (response.command, response.comp_code, response.reason) == (mq.MQCMD_ESCAPE, mq.MQCC_FAILED, mq.MQRCCF_COMMAND_FAILED)
    assert text_of(response) == "AMQ8405I: Syntax error detected at or near end of command segment below:-\nDEFINE QLOCAL(X) MAXDEPTH("
    error, summary = engine.execute(escape("PING QMGR", escape_type=2))
    assert (error.reason, error.int_value(mq.MQIACF_PARAMETER_ID)) == (mq.MQRCCF_ESCAPE_TYPE_ERROR, mq.MQIACF_ESCAPE_TYPE)
    assert summary.reason == mq.MQRCCF_COMMAND_FAILED
    [end] = engine.execute(escape("END"))
    assert (end.command, end.comp_code, text_of(end)) == (mq.MQCMD_ESCAPE, mq.MQCC_OK, "")


def test_escape_runs_in_its_batch_and_survives_a_restart(tmp_path: Path) -> None:
    engine = open_engine(tmp_path)
    create = Message(mq.MQCMD_CREATE_Q, (String(mq.MQCA_Q_NAME, "BATCH.Q"), Integer(mq.MQIA_Q_TYPE, mq.MQQT_LOCAL)))
    first, second = engine.execute_batch([escape("DEF QL(BATCH.Q) DESCR('from escape')"), create])
    assert first[0].comp_code == mq.MQCC_OK
    assert second[0].reason == mq.MQRCCF_OBJECT_ALREADY_EXISTS  # the Escape's change is seen by the next command
    engine.close()
    engine = open_engine(tmp_path)
    [shown] = engine.execute(escape("DIS QL(BATCH.Q) DESCR"))
    assert "DESCR(from escape)" in text_of(shown)
    engine.close()


async def test_escape_over_the_pcf_port(nursery: trio.Nursery) -> None:
    server = PcfServer(open_engine(None), ServerConfig(host="127.0.0.1", port=0))
    await nursery.start(server.serve)
    assert server.address is not None
    async with connect(*server.address) as client:
        [created] = await client.execute(escape("DEFINE QALIAS(ESC.ALIAS) TARGET(SYSTEM.DEFAULT.LOCAL.QUEUE)"))
        assert (created.command, text_of(created)) == (mq.MQCMD_CREATE_Q, "AMQ8006I: IBM MQ queue created.")
        [shown] = await client.execute(escape("DIS QA(ESC.ALIAS) TARGET"))
        assert text_of(shown).splitlines()[-1] == "   TARGET(SYSTEM.DEFAULT.LOCAL.QUEUE)"
        [failed] = await client.execute(escape("ALTER QLOCAL(NOT.THERE) MAXDEPTH(1)"), check_failure=False)
        assert (failed.command, failed.comp_code, failed.reason) == (mq.MQCMD_CHANGE_Q, mq.MQCC_FAILED, mq.MQRC_UNKNOWN_OBJECT_NAME)
        assert text_of(failed) == "AMQ8147E: IBM MQ object NOT.THERE not found."
