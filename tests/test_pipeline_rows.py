"""The pipeline's row model, summary and capture generator, without Spark."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType
from typing import Any

import pyarrow.parquet as pq
import pytest

from pcfserver import mq
from pcfserver.codec import (
    ByteString,
    ByteStringFilter,
    Group,
    Integer,
    Integer64,
    Integer64List,
    IntegerFilter,
    IntegerList,
    Message,
    String,
    StringFilter,
    StringList,
    decode,
    encode,
)
from pcfserver.pipeline import columns, rows, summary, tasks

ROOT = Path(__file__).resolve().parent.parent


def load_tool(name: str) -> ModuleType:
    spec = importlib.util.spec_from_file_location(name, ROOT / "tools" / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module


gen_captures = load_tool("gen_captures")


def every_kind() -> Message:
    """A message with every parameter structure, nested groups included."""
    return Message(
        mq.MQCMD_INQUIRE_Q,
        (
            String(mq.MQCA_Q_NAME, "APP.*", 500),
            IntegerFilter(mq.MQIA_CURRENT_Q_DEPTH, mq.MQCFOP_GREATER, 10),
            StringFilter(mq.MQCA_Q_DESC, mq.MQCFOP_LIKE, "Orders*", 37),
            ByteStringFilter(mq.MQBACF_CONNECTION_ID, mq.MQCFOP_EQUAL, b"\x01\x02"),
            Group(
                mq.MQGACF_Q_STATISTICS_DATA,
                (
                    Integer(mq.MQIA_CURRENT_Q_DEPTH, 7),
                    Group(mq.MQGACF_Q_STATISTICS_DATA, (String(mq.MQCA_Q_NAME, "INNER", 0),)),
                    Integer64List(mq.MQIACF_Q_TIME_INDICATOR, (2**40, -1)),
                ),
            ),
            Integer64(mq.MQIA_MAX_Q_DEPTH, 2**35),
            IntegerList(mq.MQIACF_Q_ATTRS, (mq.MQIACF_ALL,)),
            StringList(mq.MQCACF_Q_NAMES, ("A", "BB"), 0),
            ByteString(mq.MQBACF_CONNECTION_ID, b"\x00\xff"),
        ),
        version=3,
    )


def test_every_parameter_kind_becomes_one_entry_and_groups_name_their_parent() -> None:
    data = encode(every_kind(), byte_order="little")
    (message,) = decode(data)
    buffer = rows.RowBuffer("f")
    buffer.add(message)
    row = buffer.take_messages().to_pylist()[0]
    params = row["parameters"]
    assert [p["type_name"] for p in params] == [
        "MQCFST", "MQCFIF", "MQCFSF", "MQCFBF", "MQCFGR", "MQCFIN", "MQCFGR", "MQCFST", "MQCFIL64", "MQCFIN64", "MQCFIL", "MQCFSL", "MQCFBS",
    ]  # fmt: skip
    assert [p["parent"] for p in params] == [None, None, None, None, None, 4, 4, 6, 4, None, None, None, None]
    assert params[4]["int_value"] == 3 and params[6]["int_value"] == 1  # a group's member count
    assert params[0] == {
        "parameter": mq.MQCA_Q_NAME, "parameter_name": "MQCA_Q_NAME", "type_name": "MQCFST", "int_value": None,
        "string_value": "APP.*", "int_values": None, "string_values": None, "bytes_value": None, "ccsid": 500,
        "operator": None, "parent": None,
    }  # fmt: skip
    assert params[1]["operator"] == mq.MQCFOP_GREATER and params[1]["int_value"] == 10
    assert params[2]["string_value"] == "Orders*" and params[2]["ccsid"] == 37
    assert params[3]["bytes_value"] == b"\x01\x02"
    assert params[8]["int_values"] == [2**40, -1]
    assert params[9]["int_value"] == 2**35
    assert params[11]["string_values"] == ["A ", "BB"]  # MQCFSL pads to one length
    assert params[12]["bytes_value"] == b"\x00\xff"
    assert row["byte_order"] == "little" and row["length"] == len(data) and row["offset"] == 0
    assert row["command_name"] == "MQCMD_INQUIRE_Q" and row["reason_name"] == "MQRC_NONE"
    assert row["parameter_count"] == 9 and row["q_name"] == "APP.*" and row["q_type"] is None
    assert row["warnings"] is None


@pytest.mark.parametrize(
    ("params", "expected"),
    [
        ((String(mq.MQCA_Q_NAME, "Q1".ljust(48)), Integer(mq.MQIA_Q_TYPE, 3)), ("Q1", 3)),
        ((String(mq.MQCACF_FROM_Q_NAME, "FROM"), String(mq.MQCACF_TO_Q_NAME, "TO")), ("TO", None)),
        ((String(mq.MQCACF_FROM_Q_NAME, "FROM"),), ("FROM", None)),
        ((Integer(mq.MQIA_Q_TYPE, 1),), (None, 1)),
    ],
)
def test_q_name_is_the_queue_the_message_is_about(params: tuple[Any, ...], expected: tuple[Any, ...]) -> None:
    buffer = rows.RowBuffer("f")
    buffer.add(decode(encode(Message(mq.MQCMD_COPY_Q, params)))[0])
    row = buffer.take_messages().to_pylist()[0]
    assert (row["q_name"], row["q_type"]) == expected


def test_warnings_stay_on_their_message_and_errors_become_problems() -> None:
    good = bytearray(encode(Message(mq.MQCMD_CHANGE_Q, (String(mq.MQCA_Q_NAME, "Q"),))))
    good[48:52] = (4242).to_bytes(4, "big")  # an unknown CCSID: decoded, with a warning
    broken = bytearray(encode(Message(mq.MQCMD_DELETE_Q, (String(mq.MQCA_Q_NAME, "Q"),))))
    broken[40:44] = (7).to_bytes(4, "big")  # a StrucLength that cannot be
    data = bytes(good) + bytes(broken) + encode(Message(mq.MQCMD_CLEAR_Q))
    batches = list(columns.decode_file("f", data))
    m = [row for messages, _ in batches for row in messages.to_pylist()]
    p = [row for _, problems in batches for row in problems.to_pylist()]
    assert [r["command"] for r in m] == [mq.MQCMD_CHANGE_Q, mq.MQCMD_CLEAR_Q]
    assert m[0]["warnings"][0]["reason_name"] == "MQRCCF_CCSID_ERROR"
    assert p == [
        {
            "source_file": "f", "offset": len(good), "length": len(broken), "reason": mq.MQRCCF_CFST_LENGTH_ERROR,
            "reason_name": "MQRCCF_CFST_LENGTH_ERROR", "detail": p[0]["detail"], "error_offset": len(good) + 36,
        }
    ]  # fmt: skip
    assert sum(r["length"] for r in m) + sum(r["length"] for r in p) == len(data)


def test_batches_are_cut_at_batch_rows_and_cover_the_file() -> None:
    data = b"".join(encode(Message(mq.MQCMD_CLEAR_Q, (String(mq.MQCA_Q_NAME, f"Q{i}"),))) for i in range(25))
    batches = list(columns.decode_file("f", data, batch_rows=10))
    assert [m.num_rows for m, _ in batches] == [10, 10, 5]
    offsets = [r["offset"] for m, _ in batches for r in m.to_pylist()]
    assert offsets == sorted(offsets) and len(set(offsets)) == 25


def test_a_decoder_failure_becomes_one_problem_for_the_rest_of_the_file(monkeypatch: pytest.MonkeyPatch) -> None:
    data = b"".join(encode(Message(mq.MQCMD_CLEAR_Q)) for _ in range(4))
    real = columns._Scanner._walk

    def failing(self: Any, pos: int, scan: Any, limit: int) -> int:
        real(self, pos, scan, 2)  # takes two messages, then fails inside the third
        scan.pending = (len(scan.params), len(scan.strings), len(scan.list_strings), len(scan.bytes_values))
        scan.params.append(pos + 999)
        raise RuntimeError("boom")

    monkeypatch.setattr(columns._Scanner, "_walk", failing)
    [(messages, problems)] = list(columns.decode_file("f", data))
    assert messages.num_rows == 2
    (problem,) = problems.to_pylist()
    assert (problem["offset"], problem["length"], problem["reason_name"]) == (72, 72, "MQRC_UNEXPECTED_ERROR")
    assert "RuntimeError: boom" in problem["detail"]


def test_empty_input_gives_empty_batches_of_the_schemas() -> None:
    [(messages, problems)] = list(columns.decode_file("f", b""))
    assert messages.schema == rows.MESSAGE_SCHEMA and messages.num_rows == 0
    assert problems.schema == rows.PROBLEM_SCHEMA and problems.num_rows == 0


def test_stats_count_commands_failures_and_changed_queues() -> None:
    from pcfserver.engine.responses import error_responses, success

    change = Message(mq.MQCMD_CHANGE_Q, (String(mq.MQCA_Q_NAME, "Q1"), Integer(mq.MQIA_Q_TYPE, 1)))
    copy = Message(mq.MQCMD_COPY_Q, (String(mq.MQCACF_FROM_Q_NAME, "Q1"), String(mq.MQCACF_TO_Q_NAME, "Q2")))
    stream = [change, *success(change), change, *error_responses(change, mq.MQRC_OBJECT_IN_USE), copy, *success(copy)]
    data = b"".join(encode(m) for m in stream) + b"\x00" * 8
    stats = rows.FileStats("f", len(data))
    for _ in columns.decode_counted("f", data, stats):
        pass
    assert (stats.messages, stats.problems, stats.problem_bytes, stats.accounted) == (7, 1, 8, True)
    assert stats.changes == {("Q1", mq.MQCMD_CHANGE_Q): 2, ("Q2", mq.MQCMD_COPY_Q): 1}
    report = summary.build([stats])
    rate = report["error_rate"]
    assert (rate["commands"], rate["failed_commands"], rate["responses"], rate["failed_responses"]) == (3, 1, 4, 2)
    assert report["failures"] == [{"command": "MQCMD_CHANGE_Q", "reason": "MQRC_OBJECT_IN_USE", "responses": 1}]
    assert report["queues_changed"][0] == {"q_name": "Q1", "changes": 2, "by_command": {"MQCMD_CHANGE_Q": 2}}
    assert rows.FileStats.from_row(stats.to_row()) == stats
    text = summary.render(report)
    assert "Queues changed most often" in text and "every byte accounted for" in text


def test_parquet_sink_writes_parts_without_spark(tmp_path: Path) -> None:
    data = encode(every_kind()) + b"garbage!"
    for folder in ("messages", "problems"):
        (tmp_path / folder).mkdir()
    batch = __import__("pyarrow").record_batch({"path": ["a.pcf"], "content": [data]})
    (out,) = list(tasks.ParquetSink(str(tmp_path), "run1")(iter([batch])))
    (stats,) = out.to_pylist()
    assert (stats["messages"], stats["problems"], stats["message_bytes"] + stats["problem_bytes"]) == (1, 1, len(data))
    assert pq.read_table(tmp_path / "messages" / "part-00000-run1.parquet").num_rows == 1
    assert pq.read_table(tmp_path / "problems" / "part-00000-run1.parquet").num_rows == 1
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["messages", "part-00000-run1.parquet", "part-00000-run1.parquet", "problems"]


def test_generator_is_deterministic_and_exact(tmp_path: Path) -> None:
    a = gen_captures.generate_file(str(tmp_path / "a.pcf"), 500, 0.0, 7)
    b = gen_captures.generate_file(str(tmp_path / "b.pcf"), 500, 0.0, 7)
    c = gen_captures.generate_file(str(tmp_path / "c.pcf"), 500, 0.0, 8)
    assert (tmp_path / "a.pcf").read_bytes() == (tmp_path / "b.pcf").read_bytes() != (tmp_path / "c.pcf").read_bytes()
    assert a["messages"] == b["messages"] == c["messages"] == 500
    messages = decode((tmp_path / "a.pcf").read_bytes())  # strict: a clean capture is all valid PCF
    assert len(messages) == 500
    assert {m.byte_order for m in messages} == {"big", "little"}
    ccsids = {p.ccsid for m in messages for p in m.parameters if isinstance(p, String)}
    assert {500, 37} <= ccsids
    commands = {m.command for m in messages}
    assert {mq.MQCMD_CREATE_Q, mq.MQCMD_COPY_Q, mq.MQCMD_CHANGE_Q, mq.MQCMD_DELETE_Q, mq.MQCMD_CLEAR_Q, mq.MQCMD_INQUIRE_Q, mq.MQCMD_INQUIRE_Q_NAMES} <= commands
    assert {m.reason for m in messages} >= {mq.MQRC_NONE, mq.MQRCCF_COMMAND_FAILED}


def test_generator_damages_the_asked_fraction(tmp_path: Path) -> None:
    info = gen_captures.generate_file(str(tmp_path / "d.pcf"), 2000, 0.05, 3)
    assert 50 <= sum(info["corrupted"].values()) <= 150
    data = (tmp_path / "d.pcf").read_bytes()
    decoded = decode(data, strict=False)
    assert any(m.error is not None for m in decoded)
    assert sum(m.length for m in decoded) == len(data)


def test_the_pipeline_command_does_not_load_spark_or_arrow() -> None:
    code = (
        "import sys, pcfserver.cli as c; c.build_parser('pipeline'); import pcfserver.pipeline.cli;"
        "bad = [m for m in ('pyspark', 'pyarrow', 'pandas') if m in sys.modules]; assert not bad, bad"
    )
    subprocess.run([sys.executable, "-c", code], check=True)


def test_the_pipeline_module_runs_as_a_spark_submit_script() -> None:
    done = subprocess.run([sys.executable, str(ROOT / "pcfserver" / "pipeline" / "cli.py"), "--help"], capture_output=True, text=True, check=True)
    assert "--output DIR" in done.stdout and "spark-submit" in done.stdout
