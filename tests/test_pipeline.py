"""The Spark pipeline against a plain single-process decode, on generated captures.

One local[2] SparkSession serves every test.  The expected rows come from the codec's own
``decode(data, strict=False)`` and ``rows.RowBuffer`` in this process; the actual rows are what
the Spark job wrote (read back with pyarrow) or what ``decode_captures`` returns.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pyarrow.parquet as pq
import pytest
from pyspark.sql import SparkSession
from test_pipeline_rows import every_kind, gen_captures

from pcfserver import mq
from pcfserver.cli import main as pcfserver_main
from pcfserver.codec import Group, Integer, Message, String, decode, encode
from pcfserver.pipeline import decode_captures, job, rows, summary


@pytest.fixture(scope="session")
def spark() -> Iterator[SparkSession]:
    session = job.session(
        "local[2]",
        driver_memory="1g",
        conf=[("spark.sql.shuffle.partitions", "2"), ("spark.ui.showConsoleProgress", "false")],
        app_name="pcfserver-pipeline-tests",
    )
    yield session
    session.stop()


@pytest.fixture(scope="module")
def captures(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Generated captures (clean and damaged), a hand-made one with every structure, an empty
    file and pure garbage, one of them in a subfolder."""
    root = tmp_path_factory.mktemp("captures")
    (root / "nested").mkdir()
    gen_captures.generate_file(str(root / "clean.pcf"), 3000, 0.0, 11)
    gen_captures.generate_file(str(root / "damaged.pcf"), 3000, 0.03, 12)
    gen_captures.generate_file(str(root / "nested" / "damaged2.pcf"), 2000, 0.05, 13)
    rich = [
        every_kind(),
        Message(mq.MQCMD_CHANGE_Q, (String(mq.MQCA_Q_NAME, "ÉBCDIC.Q", 500), Integer(mq.MQIA_Q_TYPE, 1))),
        Message(mq.MQCMD_INQUIRE_Q, (Group(mq.MQGACF_Q_STATISTICS_DATA, ()),), version=2),
    ]
    data = b"".join(encode(m, byte_order=order) for m in rich for order in ("big", "little"))
    (root / "rich.pcf").write_bytes(data + data[:50])  # ends inside a message
    (root / "empty.pcf").write_bytes(b"")
    (root / "garbage.bin").write_bytes(bytes(range(256)) * 3)
    (root / "_manifest.json").write_text("{}")  # Spark skips names starting with _ and .
    return root


def spark_path(path: Path) -> str:
    return "file:" + str(path.resolve())


def input_files(root: Path) -> list[Path]:
    """The files Spark reads: not hidden, not empty (its file scan skips files of no bytes)."""
    return sorted(p for p in root.rglob("*") if p.is_file() and not p.name.startswith(("_", ".")) and p.stat().st_size)


def expected(root: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[rows.FileStats]]:
    """The rows and statistics of a single-process decode with the codec's own ``decode``."""
    messages: list[dict[str, Any]] = []
    problems: list[dict[str, Any]] = []
    stats = []
    for path in input_files(root):
        data = path.read_bytes()
        name = spark_path(path)
        buffer = rows.RowBuffer(name)
        for message in decode(data, strict=False):
            buffer.add(message)
        m, p = buffer.take_messages(), buffer.take_problems()
        item = rows.FileStats(name, len(data))
        item.add_messages(m)
        item.add_problems(p)
        stats.append(item)
        messages += m.to_pylist()
        problems += p.to_pylist()
    return sort(messages), sort(problems), stats


def sort(table: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return sorted(table, key=lambda r: (r["source_file"], r["offset"]))


@pytest.fixture(scope="module")
def truth(captures: Path) -> tuple[list[dict[str, Any]], list[dict[str, Any]], list[rows.FileStats]]:
    return expected(captures)


def assert_every_byte_accounted(root: Path, messages: list[dict[str, Any]], problems: list[dict[str, Any]]) -> None:
    spans: dict[str, list[tuple[int, int]]] = {}
    for row in messages + problems:
        spans.setdefault(row["source_file"], []).append((row["offset"], row["length"]))
    for path in input_files(root):
        size = path.stat().st_size
        position = 0
        for offset, length in sorted(spans.get(spark_path(path), [])):
            assert offset == position, f"{path.name}: gap or overlap at {position}"
            assert length > 0
            position += length
        assert position == size, f"{path.name}: rows cover {position} of {size} bytes"


def test_job_rows_equal_the_single_process_decode(spark: SparkSession, captures: Path, truth: Any, tmp_path: Path) -> None:
    want_messages, want_problems, want_stats = truth
    result = job.run_job(spark, [str(captures)], str(tmp_path / "out"))
    got_messages = sort(pq.read_table(tmp_path / "out" / "messages").to_pylist())
    got_problems = sort(pq.read_table(tmp_path / "out" / "problems").to_pylist())
    assert len(got_messages) == len(want_messages) > 7000
    assert len(want_problems) > 100  # the damage is there to be found
    assert got_messages == want_messages
    assert got_problems == want_problems
    assert_every_byte_accounted(captures, got_messages, got_problems)
    written = json.loads((tmp_path / "out" / "summary.json").read_text())
    assert written.pop("job")["writer"] == "arrow"
    assert written == summary.build(want_stats)
    assert written["accounted"] and written["files"] == len(input_files(captures))
    assert written == {k: v for k, v in result.summary.items() if k != "job"}
    assert (tmp_path / "out" / "_SUCCESS").exists()
    assert not list((tmp_path / "out").rglob(".*"))  # no temporary files or checksums left


def test_spark_writer_and_decode_captures_give_the_same_rows(spark: SparkSession, captures: Path, truth: Any, tmp_path: Path) -> None:
    want_messages, want_problems, want_stats = truth
    job.run_job(spark, [str(captures)], str(tmp_path / "out"), writer="spark")
    read_back = spark.read.parquet(str(tmp_path / "out" / "messages"))
    assert read_back.columns == rows.MESSAGE_SCHEMA.names
    assert sort(read_back.toArrow().to_pylist()) == want_messages
    assert sort(spark.read.parquet(str(tmp_path / "out" / "problems")).toArrow().to_pylist()) == want_problems
    written = json.loads((tmp_path / "out" / "summary.json").read_text())
    written.pop("job")
    assert written == summary.build(want_stats)
    # the notebook API: the same rows as DataFrames
    messages, problems = decode_captures(spark, str(captures))
    assert problems.columns == rows.PROBLEM_SCHEMA.names
    assert sort(problems.toArrow().to_pylist()) == want_problems
    assert messages.count() == len(want_messages)


def test_globs_and_glob_filter_select_files(spark: SparkSession, captures: Path, truth: Any) -> None:
    captured = decode_captures(spark, [str(captures / "*.pcf")])
    assert {r["path"] for r in captured.files.collect()} == {spark_path(p) for p in captures.glob("*.pcf") if p.stat().st_size}
    only = decode_captures(spark, str(captures), glob_filter="damaged*.pcf")
    assert {r["path"].rsplit("/", 1)[1] for r in only.files.collect()} == {"damaged.pcf", "damaged2.pcf"}
    want = [r for r in truth[1] if "/damaged" in r["source_file"]]
    assert sort(only.problems.toArrow().to_pylist()) == want


def test_files_larger_than_binary_file_can_hold_fail_naming_the_limit(spark: SparkSession, tmp_path: Path) -> None:
    big = tmp_path / "huge.pcf"
    with open(big, "wb") as handle:
        handle.truncate(2**31)  # sparse: 2 GiB listed, nothing written or read
    with pytest.raises(job.CaptureTooLarge, match=r"huge\.pcf is 2,147,483,648 bytes.*2,147,483,647 bytes"):
        decode_captures(spark, str(big))
    small = tmp_path / "small.pcf"
    small.write_bytes(encode(Message(mq.MQCMD_CLEAR_Q)) * 100)
    spark.conf.set(job.BINARY_FILE_MAX_LENGTH_CONF, "1000")
    try:
        with pytest.raises(job.CaptureTooLarge, match=r"1,000 bytes \(spark\.sql\.sources\.binaryFile\.maxLength"):
            job.run_job(spark, [str(small)], str(tmp_path / "out"))
    finally:
        spark.conf.unset(job.BINARY_FILE_MAX_LENGTH_CONF)


def test_command_line(spark: SparkSession, captures: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    out = tmp_path / "cli"
    status = pcfserver_main(["pipeline", str(captures / "clean.pcf"), str(captures / "rich.pcf"), "--output", str(out)])
    assert status == 1  # rich.pcf ends inside a message: one undecodable span
    printed = capsys.readouterr()
    assert "Messages by command and reason" in printed.out and "every byte accounted for" in printed.out
    assert "1 problems from 2 files" in printed.err
    assert pcfserver_main(["pipeline", str(captures / "clean.pcf"), "--output", str(out)]) == 2  # output in the way
    assert "--overwrite" in capsys.readouterr().err
    assert pcfserver_main(["pipeline", str(captures / "clean.pcf"), "--output", str(out), "--overwrite", "-q"]) == 0
    assert json.loads((out / "summary.json").read_text())["files"] == 1
    assert pcfserver_main(["pipeline", str(tmp_path / "missing"), "--output", str(tmp_path / "o2")]) == 2
    assert "cannot read the input" in capsys.readouterr().err
    assert spark.sparkContext._jsc is not None  # the test's session is still running
    assert os.path.isdir(out / "messages")


def test_an_output_no_filesystem_reaches_is_a_clear_error(spark: SparkSession, captures: Path) -> None:
    with pytest.raises(job.PipelineError, match=r"pyarrow cannot write to nowhere://x.*--writer spark"):
        job.run_job(spark, [str(captures)], "nowhere://x/out", writer="arrow")
    with pytest.raises(job.PipelineError, match="cannot write to nowhere://x/out"):
        job.run_job(spark, [str(captures)], "nowhere://x/out")  # auto: neither pyarrow nor Hadoop
