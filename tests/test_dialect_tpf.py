"""TPF ZMQSC: every ALT QL parameter of seed 002, the TPF semantics of round2-semantics §3.3, the replies."""

from __future__ import annotations

import pytest

from pcfserver import mq
from pcfserver.codec import Integer, Message, Parameter, String
from pcfserver.dialects import tpf
from pcfserver.dialects.outcome import Context
from tests.dialect_support import CLOCK, Recorder, queue_names, refusing

CONTEXT = Context("QM1", lambda: CLOCK)


def run(execute: Recorder, text: str) -> list[str]:
    return tpf.run(text, execute, CONTEXT).lines


@pytest.fixture
def execute() -> Recorder:
    recorder = Recorder()
    assert run(recorder, "ZMQSC DEF QL-LQ") == [f"MQSC0145I {CLOCK} LOCAL QUEUE LQ DEFINED"]
    return recorder


def changed(execute: Recorder) -> tuple[Parameter, ...]:
    """The attributes of the last Change Queue sent (name and type left out)."""
    last = execute.sent[-1]
    assert last.command == mq.MQCMD_CHANGE_Q
    assert last.parameters[:2] == (String(mq.MQCA_Q_NAME, "LQ"), Integer(mq.MQIA_Q_TYPE, mq.MQQT_LOCAL))
    return last.parameters[2:]


# Every parameter of ZMQSC ALT QL (seed 002) and the PCF it becomes.
ALT_QL = [
    ("MAXMSGL-65536", [Integer(mq.MQIA_MAX_MSG_LENGTH, 65536)]),
    ("PUT-ENABLED", [Integer(mq.MQIA_INHIBIT_PUT, mq.MQQA_PUT_ALLOWED)]),
    ("PUT-DISABLED", [Integer(mq.MQIA_INHIBIT_PUT, mq.MQQA_PUT_INHIBITED)]),
    ("GET-ENABLED", [Integer(mq.MQIA_INHIBIT_GET, mq.MQQA_GET_ALLOWED)]),
    ("GET-DISABLED", [Integer(mq.MQIA_INHIBIT_GET, mq.MQQA_GET_INHIBITED)]),
    ("DEFPSIST-NO", [Integer(mq.MQIA_DEF_PERSISTENCE, mq.MQPER_NOT_PERSISTENT)]),
    ("DEFPSIST-YES", [Integer(mq.MQIA_DEF_PERSISTENCE, mq.MQPER_PERSISTENT)]),
    # QDEPTHHI: the warning percentage; 0 = no warnings
    ("QDEPTHHI-75", [Integer(mq.MQIA_Q_DEPTH_HIGH_LIMIT, 75), Integer(mq.MQIA_Q_DEPTH_HIGH_EVENT, mq.MQEVR_ENABLED)]),
    ("QDEPTHHI-0", [Integer(mq.MQIA_Q_DEPTH_HIGH_LIMIT, 0), Integer(mq.MQIA_Q_DEPTH_HIGH_EVENT, mq.MQEVR_DISABLED)]),
    # MAXDEPTH: 0 = no maximum
    ("MAXDEPTH-250", [Integer(mq.MQIA_MAX_Q_DEPTH, 250)]),
    ("MAXDEPTH-0", [Integer(mq.MQIA_MAX_Q_DEPTH, 999_999_999)]),
    ("SWEEP-ON", [String(mq.MQCA_CUSTOM, "SWEEP(ON)")]),
    ("SWEEP-OFF", [String(mq.MQCA_CUSTOM, "SWEEP(OFF)")]),
    ("TRIGTYPE-FIRST", [Integer(mq.MQIA_TRIGGER_TYPE, mq.MQTT_FIRST)]),
    ("TRIGTYPE-EVERY", [Integer(mq.MQIA_TRIGGER_TYPE, mq.MQTT_EVERY)]),
    ("TRIGTYPE-NONE", [Integer(mq.MQIA_TRIGGER_TYPE, mq.MQTT_NONE)]),
    ("TRIGDATA-'Start it'", [String(mq.MQCA_TRIGGER_DATA, "Start it")]),
    ("TRIGDATA-abc", [String(mq.MQCA_TRIGGER_DATA, "ABC")]),
    ("NOTRIGGER", [Integer(mq.MQIA_TRIGGER_CONTROL, mq.MQTC_OFF)]),
    ("TRIGGER", [Integer(mq.MQIA_TRIGGER_CONTROL, mq.MQTC_ON)]),
    ("PROCESS-'my.proc'", [String(mq.MQCA_PROCESS_NAME, "my.proc")]),
    ("PROCESS-MY.PROC", [String(mq.MQCA_PROCESS_NAME, "MY.PROC")]),
]


@pytest.mark.parametrize(("parameter", "pcf"), ALT_QL, ids=[p for p, _ in ALT_QL])
def test_every_alt_ql_parameter(execute: Recorder, parameter: str, pcf: list[Parameter]) -> None:
    assert run(execute, f"ZMQSC ALT QL-LQ {parameter}") == [f"MQSC0146I {CLOCK} LOCAL QUEUE LQ ALTERED"]
    assert list(changed(execute)) == pcf
    stored = execute.queue("LQ")
    for item in pcf:
        assert isinstance(item, (Integer, String))
        assert stored[item.parameter] == item.value


def test_alt_asks_for_the_queue_first(execute: Recorder) -> None:
    before = len(execute.sent)
    run(execute, "ZMQSC ALT QL-LQ PUT-DISABLED")
    inquiry, change = execute.sent[before:]
    assert inquiry.command == mq.MQCMD_INQUIRE_Q and change.command == mq.MQCMD_CHANGE_Q


def test_the_seed_example() -> None:
    # seed 002: ZMQSC ALT QL-'local.queue.' GET-DISABLED -> MQSC0146I 08.41.05 LOCAL QUEUE local.queue ALTERED
    execute = Recorder()
    run(execute, "ZMQSC DEF QL-'local.queue'")
    assert run(execute, "ZMQSC ALT QL-'local.queue' GET-DISABLED") == ["MQSC0146I 08.41.05 LOCAL QUEUE local.queue ALTERED"]
    assert execute.queue("local.queue")[mq.MQIA_INHIBIT_GET] == mq.MQQA_GET_INHIBITED


def test_sweep_keeps_other_custom_pairs(execute: Recorder) -> None:
    execute(Message(mq.MQCMD_CHANGE_Q, (String(mq.MQCA_Q_NAME, "LQ"), Integer(mq.MQIA_Q_TYPE, 1), String(mq.MQCA_CUSTOM, "OWNER(BILLING) SWEEP(ON)"))))
    run(execute, "ZMQSC ALT QL-LQ SWEEP-OFF")
    assert execute.queue("LQ")[mq.MQCA_CUSTOM] == "OWNER(BILLING) SWEEP(OFF)"


def test_def_ql_keeps_common_and_sweep_and_display_shows_them() -> None:
    execute = Recorder()
    assert run(execute, "ZMQSC DEF QL-SHARED COMMON-YES SWEEP-OFF USAGE-XMITQ") == [f"MQSC0145I {CLOCK} LOCAL QUEUE SHARED DEFINED"]
    assert execute.queue("SHARED")[mq.MQCA_CUSTOM] == "COMMON(YES) SWEEP(OFF)"
    assert execute.queue("SHARED")[mq.MQIA_USAGE] == mq.MQUS_TRANSMISSION
    shown = run(execute, "ZMQSC DISP QL-SHARED")
    assert shown[0] == f"MQSC0151I {CLOCK} DISPLAY OF LOCAL QUEUE SHARED"
    assert "  COMMON-YES" in shown and "  SWEEP-OFF" in shown and "  USAGE-XMITQ" in shown


@pytest.mark.parametrize(
    ("text", "line"),
    [
        # COMMON cannot be altered; a processor-shared queue takes no MAXDEPTH or QDEPTHHI
        ("ZMQSC ALT QL-LQ COMMON-YES", "MQSC0165E 08.41.05 COMMON CANNOT BE ALTERED - DELETE AND DEFINE QUEUE LQ AGAIN"),
        ("ZMQSC DEF QL-NEW COMMON-YES MAXDEPTH-5", "MQSC0166E 08.41.05 MAXDEPTH NOT VALID FOR PROCESSOR SHARED QUEUE NEW"),
        ("ZMQSC DEF QL-NEW COMMON-YES QDEPTHHI-5", "MQSC0166E 08.41.05 QDEPTHHI NOT VALID FOR PROCESSOR SHARED QUEUE NEW"),
        # ALL is reserved
        ("ZMQSC DEF QL-ALL", "MQSC0167E 08.41.05 ALL IS RESERVED AND CANNOT NAME A QUEUE"),
        ("ZMQSC ALT QL-all PUT-DISABLED", "MQSC0167E 08.41.05 ALL IS RESERVED AND CANNOT NAME A QUEUE"),
        # there is no DEPTH trigger type on TPF; USAGE is not on ALT
        ("ZMQSC ALT QL-LQ TRIGTYPE-DEPTH", "MQSC0100E 08.41.05 FORMAT ERROR AT ZMQSC ALT QL-LQ TRIGTYPE-DEPTH"),
        ("ZMQSC ALT QL-LQ USAGE-XMITQ", "MQSC0100E 08.41.05 FORMAT ERROR AT ZMQSC ALT QL-LQ USAGE-XMITQ"),
        ("ZMQSC ALT QL-LQ MAXDEPTH-x", "MQSC0100E 08.41.05 FORMAT ERROR AT ZMQSC ALT QL-LQ MAXDEPTH-x"),
        ("ZMQSC ALT QL-LQ PUT", "MQSC0100E 08.41.05 FORMAT ERROR AT ZMQSC ALT QL-LQ PUT"),
        ("ZMQSC ALT QL-LQ TRIGGER NOTRIGGER", "MQSC0100E 08.41.05 FORMAT ERROR AT ZMQSC ALT QL-LQ TRIGGER NOTRIGGER"),
        ("ZMQSC ALT QL-BAD*NAME PUT-ENABLED", "MQSC0100E 08.41.05 FORMAT ERROR AT ZMQSC ALT QL-BAD*NAME"),
        ("ZMQSC FROB QL-LQ", "MQSC0100E 08.41.05 FORMAT ERROR AT ZMQSC FROB QL-LQ"),
        ("ALT QL-LQ", "MQSC0100E 08.41.05 FORMAT ERROR AT ALT"),
        # failures from the engine
        ("ZMQSC ALT QL-NONE PUT-ENABLED", "MQSC0160E 08.41.05 QUEUE NONE NOT FOUND"),
        ("ZMQSC DEF QL-LQ", "MQSC0161E 08.41.05 QUEUE LQ ALREADY DEFINED"),
        ("ZMQSC DEF QA-LQ TARGQ-X", "MQSC0162E 08.41.05 QUEUE LQ IS ANOTHER QUEUE TYPE"),
        ("ZMQSC ALT QL-LQ MAXMSGL-999999999", "MQSC0199E 08.41.05 ZMQSC ALT QL FAILED - REASON 3044 MQRCCF_MAX_MSG_LENGTH_ERROR"),
    ],
)
def test_refusals_and_failures(execute: Recorder, text: str, line: str) -> None:
    sent = len(execute.sent)
    outcome = tpf.run(text, execute, CONTEXT)
    assert outcome.lines == [line]
    assert outcome.status in ("failed", "syntax")
    if "FORMAT ERROR" in line or "RESERVED" in line or "NOT VALID" in line:
        assert execute.sent[sent:] == []  # refused before anything is sent


def test_alt_of_an_alias_as_ql_is_the_wrong_type() -> None:
    execute = Recorder()
    run(execute, "ZMQSC DEF QL-TARGET")
    assert run(execute, "ZMQSC DEF QA-AL TARGQ-TARGET PUT-DISABLED") == [f"MQSC0148I {CLOCK} ALIAS QUEUE AL DEFINED"]
    assert run(execute, "ZMQSC ALT QL-AL PUT-ENABLED") == [f"MQSC0162E {CLOCK} QUEUE AL IS ANOTHER QUEUE TYPE"]
    assert execute.queue("AL")[mq.MQCA_BASE_OBJECT_NAME] == "TARGET"


def test_del_ql_purge_and_not_empty(execute: Recorder) -> None:
    full = refusing(execute, mq.MQCMD_DELETE_Q, mq.MQRC_Q_NOT_EMPTY)
    assert tpf.run("ZMQSC DEL QL-LQ", full, CONTEXT).lines == [f"MQSC0163E {CLOCK} LOCAL QUEUE LQ NOT EMPTY - USE PURGE"]
    in_use = refusing(execute, mq.MQCMD_DELETE_Q, mq.MQRCCF_OBJECT_OPEN)
    assert tpf.run("ZMQSC DEL QL-LQ", in_use, CONTEXT).lines == [f"MQSC0164E {CLOCK} QUEUE LQ IN USE"]
    assert run(execute, "ZMQSC DEL QL-LQ PURGE") == [f"MQSC0147I {CLOCK} LOCAL QUEUE LQ DELETED"]
    assert execute.sent[-1].parameters[-1] == Integer(mq.MQIACF_PURGE, mq.MQPO_YES)
    assert "LQ" not in queue_names(execute)


def test_display_shows_tpf_values(execute: Recorder) -> None:
    run(execute, "ZMQSC ALT QL-LQ MAXDEPTH-0 QDEPTHHI-0 TRIGGER TRIGDATA-'x y'")
    assert run(execute, "ZMQSC DISP QL-LQ") == [
        f"MQSC0151I {CLOCK} DISPLAY OF LOCAL QUEUE LQ",
        "  MAXMSGL-4194304",
        "  PUT-ENABLED",
        "  GET-ENABLED",
        "  DEFPSIST-NO",
        "  USAGE-NORMAL",
        "  COMMON-NO",
        "  QDEPTHHI-0",
        "  MAXDEPTH-0",
        "  SWEEP-ON",
        "  TRIGTYPE-FIRST",
        "  TRIGDATA-'x y'",
        "  TRIGGER",
        "  PROCESS-''",
    ]


def test_disp_ql_all_lists_every_local_queue(execute: Recorder) -> None:
    run(execute, "ZMQSC DEF QL-SECOND")
    headers = [line for line in run(execute, "ZMQSC DISP QL-ALL") if line.startswith("MQSC0151I")]
    assert headers == [f"MQSC0151I {CLOCK} DISPLAY OF LOCAL QUEUE {n}" for n in queue_names(execute, mq.MQQT_LOCAL)]
    assert {"LQ", "SECOND"} <= set(queue_names(execute, mq.MQQT_LOCAL))
    none = refusing(execute, mq.MQCMD_INQUIRE_Q, mq.MQRC_UNKNOWN_OBJECT_NAME)
    assert tpf.run("ZMQSC DISP QL-ALL", none, CONTEXT).lines == [f"MQSC0152I {CLOCK} NO QUEUES FOUND FOR ALL"]
