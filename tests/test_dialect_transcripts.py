"""Golden transcripts: whole scripts run on a fresh queue manager print exactly the files in formats/transcripts.

runmqsc-reference.out is runmqsc's own example (round2-semantics §5.4) typed in by hand; the
others were checked line by line against the rules there (banner, numbered echo with ``:`` for
continuation and comment lines, END echoed but not counted, the three summary lines) and the
TPF/IBM i message table.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from pcfserver.codec import Message
from pcfserver.dialects import ExecuteError, run_script
from pcfserver.engine import open_engine
from pcfserver.tables import FORMATS_DIR
from tests.dialect_support import CLOCK

TRANSCRIPTS = FORMATS_DIR / "transcripts"
CASES = [
    ("runmqsc-reference.mqsc", "mqsc", 0),
    ("runmqsc-one.mqsc", "mqsc", 0),
    ("runmqsc-setup.mqsc", "mqsc", 10),
    ("runmqsc-triggering.mqsc", "mqsc", 10),
    ("runmqsc-topics.mqsc", "mqsc", 10),
    ("runmqsc-pubsub-status.mqsc", "mqsc", 10),
    ("tpf-orders.tpf", "tpf", 10),
    ("ibmi-orders.cl", "ibmi", 10),
    # IBM's own developer configurations (the files name their sources).  The container ran its dev.mqsc on a
    # queue manager whose default listener was running (mq-container PR #30, "stop different default listener so
    # dev listener can start"), so that one starts it first, as the container's set-up did.
    ("ibm-dev-container.mqsc", "mqsc", 0),
    ("ibm-dev-docker.mqsc", "mqsc", 0),
]
# What a queue manager had done before a script ran (its output is not part of the transcript).
SETUP = {"ibm-dev-container.mqsc": "START LISTENER('SYSTEM.DEFAULT.LISTENER.TCP')\n"}


@pytest.mark.parametrize(("script", "dialect", "exit_code"), CASES)
def test_transcript(script: str, dialect: str, exit_code: int) -> None:
    source = TRANSCRIPTS / script
    expected = (TRANSCRIPTS / (source.stem + ".out")).read_text()
    engine = open_engine(None)
    if script in SETUP:
        assert run_script(SETUP[script], engine.execute).exit_code == 0
    transcript = run_script(source.read_text(), engine.execute, dialect=dialect, clock=lambda: CLOCK)
    assert transcript.text == expected
    assert transcript.exit_code == exit_code


def test_every_transcript_file_is_tested() -> None:
    tested = {Path(s).stem for s, _, _ in CASES}
    present = {p.stem for p in TRANSCRIPTS.iterdir()}
    assert present == tested


def test_auto_runs_each_command_in_its_own_language_inside_runmqsc_s_frame() -> None:
    script = "DEFINE QLOCAL(MIX)\nZMQSC ALT QL-MIX GET-DISABLED\nCHGMQMQ QNAME(MIX) MAXDEPTH(9)\nDIS QL(MIX) GET MAXDEPTH\n"
    transcript = run_script(script, open_engine(None).execute, dialect="auto", clock=lambda: CLOCK)
    assert transcript.text.splitlines()[4:] == [
        "     1 : DEFINE QLOCAL(MIX)",
        "AMQ8006I: IBM MQ queue created.",
        "     2 : ZMQSC ALT QL-MIX GET-DISABLED",
        "MQSC0146I 08.41.05 LOCAL QUEUE MIX ALTERED",
        "     3 : CHGMQMQ QNAME(MIX) MAXDEPTH(9)",
        "AMQ8008: IBM MQ queue changed.",
        "     4 : DIS QL(MIX) GET MAXDEPTH",
        "AMQ8409I: Display Queue details.",
        "   QUEUE(MIX)                              TYPE(QLOCAL)",
        "   GET(DISABLED)                           MAXDEPTH(9)",
        "4 MQSC commands read.",
        "No commands have a syntax error.",
        "All valid MQSC commands were processed.",
    ]
    assert transcript.exit_code == 0


def test_no_queue_manager_is_exit_20() -> None:
    def unreachable(command: Message) -> list[Message]:
        raise ExecuteError("connection refused")

    transcript = run_script("DEFINE QLOCAL(A)\n", unreachable)
    assert transcript.text == "5724-H72 (C) Copyright IBM Corp. 1994, 2025.\nAMQ8146E: IBM MQ queue manager not available.\n"
    assert transcript.exit_code == 20


def test_losing_the_queue_manager_mid_script_is_exit_20_and_stops() -> None:
    engine = open_engine(None)
    calls = 0

    def flaky(command: Message) -> list[Message]:
        nonlocal calls
        calls += 1
        if calls > 2:
            raise ExecuteError("connection reset")
        return engine.execute(command)

    transcript = run_script("DEFINE QLOCAL(A)\nDEFINE QLOCAL(B)\nDEFINE QLOCAL(C)\n", flaky)
    assert transcript.text.splitlines()[4:] == [
        "     1 : DEFINE QLOCAL(A)",
        "AMQ8006I: IBM MQ queue created.",
        "     2 : DEFINE QLOCAL(B)",
        "AMQ8146E: IBM MQ queue manager not available.",
    ]
    assert transcript.exit_code == 20
