"""IBM i CL's operational commands on channels and listeners (STRMQMCHL ... ENDMQMLSR) run the same PCF commands
as MQSC's START/STOP/PING/RESET CHANNEL and START/STOP LISTENER, with the job-log lines IBM i prints."""

from __future__ import annotations

from pcfserver.dialects import run_script
from pcfserver.engine import open_engine


def _run(script: str) -> list[str]:
    engine = open_engine(None)
    transcript = run_script(script, engine.execute, dialect="ibmi")
    return [line for line in transcript.text.splitlines() if not line.startswith(">")]


def test_channel_and_listener_operations_in_cl() -> None:
    lines = _run(
        "CRTMQMCHL CHLNAME(TO.QM2) CHLTYPE(*SDR) CONNAME('127.0.0.1(1)') TMQNAME(XQ)\n"
        "STRMQMCHL CHLNAME(TO.QM2)\n"
        "ENDMQMCHL TO.QM2\n"
        "RSTMQMCHL CHLNAME(TO.QM2) MQMNAME(*DFT)\n"
        "STRMQMCHL CHLNAME(NOPE)\n"
        "CRTMQMLSR LSRNAME(L1) PORT(1415)\n"
        "STRMQMLSR LSRNAME(L1)\n"
        "ENDMQMLSR LSRNAME(L1)\n"
        "ENDMQMLSR LSRNAME(L1)\n"
    )
    assert lines == [
        "AMQ8014: IBM MQ channel created.",
        "AMQ8018: Start IBM MQ channel accepted.",
        "AMQ8019: Stop IBM MQ channel accepted.",
        "AMQ8023: IBM MQ channel reset.",
        "AMQ8147: IBM MQ object NOPE not found. Reason 4032 MQRCCF_CHANNEL_NOT_FOUND.",
        "AMQ8626: IBM MQ listener created.",
        "AMQ8021: Request to start IBM MQ Listener accepted.",
        "AMQ8706: Request to stop IBM MQ Listener accepted.",
        "AMQ8101: IBM MQ error (CA2) has occurred. Reason 3234 MQRCCF_LISTENER_STOPPED.",
    ]


def test_an_option_not_carried_is_refused_as_cl_refuses_an_unknown_keyword() -> None:
    lines = _run("CRTMQMCHL CHLNAME(C1) CHLTYPE(*RCVR)\nENDMQMCHL CHLNAME(C1) OPTION(*IMMED)\n")
    assert lines[1] == "CPD0043: Keyword OPTION not valid for this command."
