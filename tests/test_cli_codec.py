"""``pcfserver decode`` and ``pcfserver encode`` (issue 2 §4): JSON Lines, text tree, exit status
0/1/2, round trip through the JSON form, no traceback for any input, bounded memory."""

from __future__ import annotations

import json
import os
import pty
import struct
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_codec_properties import ORDERS, messages

from pcfserver import ByteString, Group, Integer, IntegerList, Message, String, StringList, decode, encode
from pcfserver.cli import main
from pcfserver.jsonform import message_to_json

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "formats" / "corpus"
SAMPLE = CORPUS / "sample.pcf"


def corpus(name: str) -> Path:
    (path,) = CORPUS.glob(f"[0-9][0-9][0-9]-{name}.pcf")
    return path


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(list(args))
    out, err = capsys.readouterr()
    return status, out, err


def lines(out: str) -> list[dict[str, Any]]:
    return [json.loads(line) for line in out.splitlines()]


# ---------------------------------------------------------------------------------------------
# decode


def test_decode_prints_one_json_object_per_message(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, "decode", str(SAMPLE))
    assert (status, err) == (0, "")
    objects = lines(out)
    assert len(objects) == len(decode(SAMPLE.read_bytes()))
    keys = {"offset", "length", "byte_order", "type", "type_name", "struc_length", "version", "command", "command_name", "msg_seq_number", "control", "comp_code", "reason", "reason_name", "parameter_count", "parameters"}
    assert all(keys <= set(o) for o in objects)
    assert {o["byte_order"] for o in objects} == {"big", "little"}
    first = objects[0]
    assert (first["command_name"], first["type_name"]) == ("MQCMD_INQUIRE_Q_NAMES", "MQCFT_COMMAND_XR")
    assert first["parameters"][0] | {"value": None} == {
        "type": 4, "type_name": "MQCFST", "parameter": 2016, "parameter_name": "MQCA_Q_NAME",
        "ccsid": 0, "string_length": 5, "value": None,
    }  # fmt: skip
    assert first["parameters"][1]["value_name"] == "MQQT_ALL"


def test_decode_reads_standard_input_through_a_subprocess() -> None:
    result = subprocess.run([sys.executable, "-m", "pcfserver", "decode", "-"], input=SAMPLE.read_bytes(), capture_output=True, timeout=60)
    assert (result.returncode, result.stderr) == (0, b"")  # no progress report: stderr is no terminal
    assert len(result.stdout.splitlines()) == len(decode(SAMPLE.read_bytes()))


def test_decode_of_a_malformed_stream_exits_1_with_an_error_line(capsys: pytest.CaptureFixture[str]) -> None:
    path = corpus("cfin-length")
    status, out, err = run(capsys, "decode", str(path))
    assert status == 1
    objects = lines(out)
    assert [("error" in o) for o in objects] == [False, True]  # the good message first, then the rest
    error = objects[-1]["error"]
    assert (error["reason"], error["reason_name"], error["offset"]) == (3009, "MQRCCF_CFIN_LENGTH_ERROR", 96)
    assert error["message"]
    assert "MQRCCF_CFIN_LENGTH_ERROR" in err and "--lax" in err and "Traceback" not in err


def test_decode_lax_goes_past_the_malformed_message(capsys: pytest.CaptureFixture[str]) -> None:
    path = corpus("cfin-length")
    status, out, _ = run(capsys, "decode", "--lax", str(path))
    objects = lines(out)
    assert status == 1
    assert [("error" in o) for o in objects] == [False, True, False]
    assert sum(o["length"] for o in objects) == path.stat().st_size


def test_decode_lax_of_a_clean_stream_exits_0(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "decode", "--lax", str(SAMPLE))
    assert status == 0 and all("error" not in o and "warnings" not in o for o in lines(out))


def test_decode_lax_shows_warnings(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "decode", "--lax", str(corpus("bad-header-control")))
    objects = lines(out)
    assert status == 0  # a message decoded with warnings is not malformed
    assert [w["reason_name"] for w in objects[1]["warnings"]] == ["MQRCCF_CFH_CONTROL_ERROR"]


def test_decode_text_format_shows_names(capsys: pytest.CaptureFixture[str]) -> None:
    status, out, _ = run(capsys, "decode", "--format", "text", str(SAMPLE))
    assert status == 0
    for name in ("MQCMD_INQUIRE_Q_NAMES", "MQCFT_COMMAND_XR", "MQCA_Q_NAME", "MQQT_LOCAL", "MQCACF_Q_NAMES", "MQRCCF_COMMAND_FAILED", "MQRC_UNKNOWN_OBJECT_NAME", "little-endian", "big-endian"):
        assert name in out
    assert "Message 1 at offset 0" in out
    status, out, _ = run(capsys, "decode", "--format", "text", "--lax", str(corpus("garbage-between")))
    assert status == 1 and "ERROR MQRCCF_CFH_LENGTH_ERROR (3002)" in out


@pytest.mark.parametrize(
    "args",
    [
        ["decode", "/nonexistent/capture.pcf"],
        ["decode", "--default-ccsid", "4711", "-"],
        ["encode", "/nonexistent/messages.jsonl"],
    ],
)
def test_usage_errors_exit_2(args: list[str], capsys: pytest.CaptureFixture[str]) -> None:
    status, out, err = run(capsys, *args)
    assert (status, out) == (2, "")
    assert err.startswith("pcfserver ") and "Traceback" not in err


@pytest.mark.parametrize("args", [["decode", "--format", "xml"], ["decode", "--bogus"], ["encode", "--byte-order", "middle"], []])
def test_bad_options_exit_2(args: list[str]) -> None:
    result = subprocess.run([sys.executable, "-m", "pcfserver", *args], capture_output=True, timeout=60, stdin=subprocess.DEVNULL)
    assert result.returncode == 2
    assert b"Traceback" not in result.stderr


# ---------------------------------------------------------------------------------------------
# encode


def test_encode_of_the_decode_json_reproduces_the_bytes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    _, out, _ = run(capsys, "decode", str(SAMPLE))
    (tmp_path / "sample.jsonl").write_text(out, encoding="utf-8")
    status, _, err = run(capsys, "encode", str(tmp_path / "sample.jsonl"), "-o", str(tmp_path / "again.pcf"))
    assert (status, err) == (0, "")
    assert (tmp_path / "again.pcf").read_bytes() == SAMPLE.read_bytes()  # byte order kept per message
    status, _, _ = run(capsys, "encode", "--byte-order", "little", str(tmp_path / "sample.jsonl"), "-o", str(tmp_path / "little.pcf"))
    little = decode((tmp_path / "little.pcf").read_bytes())
    assert status == 0 and {m.byte_order for m in little} == {"little"} and little == decode(SAMPLE.read_bytes())


@st.composite
def streams(draw: st.DrawFn) -> tuple[list[Message], list[str]]:
    """Canonical streams of one to three messages, each in either byte order, at least one of them
    holding an empty MQCFSL whose StringLength is not 0 (as a decoded list keeps it), sometimes
    inside a group."""
    found = list(draw(st.lists(messages(), min_size=1, max_size=3)))
    empty = StringList(draw(st.integers(0, 9999)), (), draw(st.sampled_from([0, 819, 1208, 1200])), draw(st.integers(1, 64)))
    where = draw(st.integers(0, len(found) - 1))
    target = found[where]
    params = list(target.parameters)
    params.insert(draw(st.integers(0, len(params))), Group(draw(st.integers(0, 9999)), (empty,)) if draw(st.booleans()) else empty)
    found[where] = Message(
        target.command, tuple(params), type=target.type, version=target.version, msg_seq_number=target.msg_seq_number,
        control=target.control, comp_code=target.comp_code, reason=target.reason,
    )
    return found, [draw(ORDERS) for _ in found]


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(stream=streams(), order=ORDERS)
def test_decode_then_encode_on_the_command_line_gives_back_the_bytes(
    stream: tuple[list[Message], list[str]], order: str, tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]
) -> None:
    """``pcfserver decode F | pcfserver encode [--byte-order B]`` gives back F (each message in its
    own byte order), or F in order B, every MQCFSL's StringLength kept: an empty list's too."""
    found, orders = stream
    folder = tmp_path_factory.mktemp("cli")
    original = b"".join(encode(m, byte_order=o) for m, o in zip(found, orders, strict=True))
    (folder / "f.pcf").write_bytes(original)
    status, out, err = run(capsys, "decode", str(folder / "f.pcf"))
    assert (status, err) == (0, "")
    (folder / "f.jsonl").write_text(out, encoding="utf-8")
    status, _, err = run(capsys, "encode", str(folder / "f.jsonl"), "-o", str(folder / "again.pcf"))
    assert (status, err) == (0, "")
    assert (folder / "again.pcf").read_bytes() == original
    status, _, err = run(capsys, "encode", "--byte-order", order, str(folder / "f.jsonl"), "-o", str(folder / "ordered.pcf"))
    assert (status, err) == (0, "")
    assert (folder / "ordered.pcf").read_bytes() == b"".join(encode(m, byte_order=order) for m in found)


def test_an_empty_string_list_s_string_length_survives_the_json_form(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = {"command": 8, "parameters": [{"type_name": "MQCFSL", "parameter": 2020, "ccsid": 0, "string_length": 23, "values": []}]}
    (tmp_path / "in.json").write_text(json.dumps(line), encoding="utf-8")
    for order, fmt in (("big", ">"), ("little", "<")):
        status, _, err = run(capsys, "encode", "--byte-order", order, str(tmp_path / "in.json"), "-o", str(tmp_path / "out.pcf"))
        assert (status, err) == (0, "")
        data = (tmp_path / "out.pcf").read_bytes()
        assert struct.unpack_from(f"{fmt}2l", data, 36 + 16) == (0, 23)  # Count 0, StringLength 23
    for bad, values in ((-1, []), ("wide", []), (2**31, []), (60_000_000, ["A", "B"])):
        line["parameters"][0].update(string_length=bad, values=values)  # type: ignore[index]
        (tmp_path / "in.json").write_text(json.dumps(line), encoding="utf-8")
        status, _, err = run(capsys, "encode", str(tmp_path / "in.json"), "-o", str(tmp_path / "out.pcf"))
        assert status == 1 and "string_length" in err and "Traceback" not in err


def test_line_separators_inside_string_values_do_not_split_json_lines(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """decode writes U+0085 (NEL), U+2028 and U+001C unescaped inside strings; encode reads JSON Lines split at \\n only."""
    original = encode(Message(8, (String(2016, "A\x85B", 1208), StringList(2020, ("\u2028", "\x1c"), 1208)))) + encode(Message(8))
    (tmp_path / "f.pcf").write_bytes(original)
    _, out, _ = run(capsys, "decode", str(tmp_path / "f.pcf"))
    (tmp_path / "f.jsonl").write_text(out, encoding="utf-8")
    status, _, err = run(capsys, "encode", str(tmp_path / "f.jsonl"), "-o", str(tmp_path / "again.pcf"))
    assert (status, err) == (0, "")
    assert (tmp_path / "again.pcf").read_bytes() == original


def test_encode_through_a_subprocess_pipe() -> None:
    decoded = subprocess.run([sys.executable, "-m", "pcfserver", "decode", str(SAMPLE)], capture_output=True, timeout=60, check=True)
    encoded = subprocess.run([sys.executable, "-m", "pcfserver", "encode", "-"], input=decoded.stdout, capture_output=True, timeout=60)
    assert (encoded.returncode, encoded.stderr) == (0, b"")
    assert encoded.stdout == SAMPLE.read_bytes()


def test_encode_takes_names_or_numbers(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    by_name = {
        "type": "MQCFT_COMMAND_XR",
        "command": "MQCMD_CHANGE_Q",
        "parameters": [
            {"type_name": "MQCFST", "parameter": "MQCA_Q_NAME", "value": "APP.Q"},
            {"type": "MQCFIN", "parameter_name": "MQIA_Q_TYPE", "value": "MQQT_LOCAL"},
            {"type_name": "MQCFIL", "parameter": "MQIACF_Q_ATTRS", "values": ["MQCA_Q_NAME", "MQIA_MAX_Q_DEPTH"]},
            {"type_name": "MQCFSL", "parameter": "MQCA_NAMES", "values": ["A", "BBB"]},
            {"type_name": "MQCFBS", "parameter": "MQBACF_CORREL_ID", "value_hex": "0102"},
        ],
    }
    by_number = {
        "type": 16,
        "command": 8,
        "parameters": [
            {"type": 4, "parameter": 2016, "value": "APP.Q"},
            {"type": 3, "parameter": 20, "value": 1},
            {"type": 5, "parameter": 1002, "values": [2016, 15]},
            {"type": 6, "parameter": 2020, "values": ["A  ", "BBB"]},
            {"type": 9, "parameter": 7011, "value_hex": "0102"},
        ],
    }
    expected = encode(
        Message(8, (String(2016, "APP.Q"), Integer(20, 1), IntegerList(1002, (2016, 15)), StringList(2020, ("A  ", "BBB")), ByteString(7011, b"\x01\x02")), type=16, version=2)
    )
    for obj in (by_name, by_number):
        (tmp_path / "in.json").write_text(json.dumps(obj), encoding="utf-8")
        status, _, err = run(capsys, "encode", str(tmp_path / "in.json"), "-o", str(tmp_path / "out.pcf"))
        assert (status, err) == (0, "")
        assert (tmp_path / "out.pcf").read_bytes() == expected
    # a JSON array of messages works as well as JSON Lines
    (tmp_path / "in.json").write_text(json.dumps([by_name, by_number]), encoding="utf-8")
    assert run(capsys, "encode", str(tmp_path / "in.json"), "-o", str(tmp_path / "out.pcf"))[0] == 0
    assert (tmp_path / "out.pcf").read_bytes() == expected * 2


@pytest.mark.parametrize(
    "text",
    [
        "{not json",
        '{"command": "MQCMD_NO_SUCH"}',
        '{"command": 8, "parameters": [{"type_name": "MQCFXX", "parameter": 1}]}',
        '{"command": 8, "parameters": [{"type_name": "MQCFIN", "parameter": 1, "value": 4294967296}]}',
        '{"command": 8, "parameters": [{"type_name": "MQCFST", "parameter": 1, "value": "€", "ccsid": 819}]}',
        '{"command": 8, "byte_order": "middle"}',
        "[1, 2]",
    ],
)
def test_encode_of_bad_json_exits_1_and_says_where(text: str, tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "bad.json").write_text(text, encoding="utf-8")
    status, out, err = run(capsys, "encode", str(tmp_path / "bad.json"), "-o", str(tmp_path / "out.pcf"))
    assert (status, out) == (1, "")
    assert err.startswith("pcfserver encode: ") and "Traceback" not in err


# ---------------------------------------------------------------------------------------------
# No traceback for any input


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(data=st.binary(max_size=300), lax=st.booleans(), fmt=st.sampled_from(["json", "text"]))
def test_decode_of_any_bytes_never_raises(data: bytes, lax: bool, fmt: str, tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path_factory.mktemp("any") / "in.pcf"
    path.write_bytes(data)
    status, out, err = run(capsys, "decode", "--format", fmt, *(["--lax"] if lax else []), str(path))
    assert status in (0, 1)
    assert "Traceback" not in err
    if fmt == "json":
        objects = lines(out)
        if lax:
            assert sum(o["length"] for o in objects) == len(data)
        assert status == (1 if any("error" in o for o in objects) else 0)


json_scalars = st.one_of(
    st.none(), st.booleans(), st.integers(-(2**70), 2**70), st.floats(allow_nan=False, allow_infinity=False), st.text(max_size=8),
    st.sampled_from(["MQCFIN", "MQCFST", "MQCFSL", "MQCFGR", "MQCFBS", "MQCFIF", "MQCFSF", "MQCFBF", "MQCFIL64", "MQCA_Q_NAME", "MQQT_LOCAL", "MQCFOP_LIKE", "zz", "big", "little"]),
)  # fmt: skip
json_values = st.recursive(json_scalars, lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=10)
KEYS = ["type", "type_name", "parameter", "parameter_name", "value", "values", "value_name", "value_hex", "ccsid", "operator", "parameters"]
parameter_like = st.recursive(
    st.dictionaries(st.sampled_from(KEYS), json_values, max_size=6),
    lambda inner: st.fixed_dictionaries({"type_name": st.just("MQCFGR"), "parameter": st.integers(), "parameters": st.lists(inner, max_size=3)}),
    max_leaves=6,
)
message_like = st.fixed_dictionaries(
    {},
    optional={
        **{k: json_values for k in ("type", "command", "version", "msg_seq_number", "control", "comp_code", "reason", "byte_order")},
        "parameters": st.lists(parameter_like, max_size=4) | json_values,
    },
)


@st.composite
def mutated_json(draw: st.DrawFn) -> dict[str, Any]:
    """The decode JSON of a valid message with a few keys replaced by odd values or deleted."""
    obj = message_to_json(draw(messages()))
    for _ in range(draw(st.integers(0, 3))):
        members = obj.get("parameters")
        params = [p for p in members if isinstance(p, dict)] if isinstance(members, list) else []
        target = draw(st.sampled_from(params)) if params and draw(st.booleans()) else obj
        key = draw(st.sampled_from(sorted(target)))
        if draw(st.booleans()):
            del target[key]
        else:
            target[key] = draw(json_values)
    return obj


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow])
@given(objects=st.lists(mutated_json() | message_like | json_values, min_size=1, max_size=3), as_array=st.booleans())
def test_encode_of_any_json_never_raises(objects: list[Any], as_array: bool, tmp_path_factory: pytest.TempPathFactory, capsys: pytest.CaptureFixture[str]) -> None:
    folder = tmp_path_factory.mktemp("json")
    text = json.dumps(objects) if as_array else "\n".join(json.dumps(o) for o in objects)
    (folder / "in.json").write_text(text, encoding="utf-8")
    status, _, err = run(capsys, "encode", str(folder / "in.json"), "-o", str(folder / "out.pcf"))
    assert status in (0, 1)
    assert "Traceback" not in err
    if status == 0:
        # what encode writes keeps its framing: tolerant decoding finds every message (header values a
        # strict decoder refuses, such as Type 0 or MsgSeqNumber 0, are written as asked: encode crafts test streams)
        data = (folder / "out.pcf").read_bytes()
        assert sum(m.length for m in decode(data, strict=False)) == len(data)  # every byte in a message


def test_encode_of_bytes_that_are_not_utf8(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    (tmp_path / "in.json").write_bytes(b"\xff\xfe{}")
    status, _, err = run(capsys, "encode", str(tmp_path / "in.json"))
    assert status == 1 and "UTF-8" in err


# ---------------------------------------------------------------------------------------------
# Bounded memory, progress on a terminal


def _unit() -> bytes:
    """About 117 KB of realistic messages: an Inquire Queue Names reply listing 1000 queues, a
    Create Queue and its reply, an activity-trace message carrying 64 KB of message data."""
    names = tuple(f"APP.QUEUE.{i:05d}".ljust(48) for i in range(1000))
    return b"".join(
        [
            encode(Message(18, (StringList(3011, names), IntegerList(1261, (1,) * 1000)), type=2), byte_order="little"),
            encode(Message(11, (String(2016, "APP.PAYMENTS"), Integer(20, 1), Integer(15, 5000)), type=16, version=3)),
            encode(Message(11, (), type=2, version=3)),
            encode(Message(69, (ByteString(7020, bytes(range(256)) * 256),), type=26, version=3)),
        ]
    )


def _vm_hwm_kb(pid: int) -> int | None:
    try:
        with open(f"/proc/{pid}/status", encoding="ascii") as handle:
            for line in handle:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1])
    except (OSError, ValueError):
        return None
    return None


@pytest.mark.skipif(not Path("/proc/self/status").exists(), reason="reads peak RSS from /proc")
def test_decode_of_300_mb_stays_under_100_mb_resident_and_shows_progress_on_a_terminal() -> None:
    unit = _unit()
    repeats = 300_000_000 // len(unit)
    master, slave = pty.openpty()  # stderr a terminal: progress is reported there
    child = subprocess.Popen([sys.executable, "-m", "pcfserver", "decode", "-"], stdin=subprocess.PIPE, stdout=subprocess.DEVNULL, stderr=slave)
    os.close(slave)
    assert child.stdin is not None
    peak = 0
    try:
        block = unit * 16
        for _ in range(repeats // 16):
            child.stdin.write(block)
            peak = max(peak, _vm_hwm_kb(child.pid) or 0)
        child.stdin.close()
        while child.poll() is None:
            peak = max(peak, _vm_hwm_kb(child.pid) or 0)
            time.sleep(0.005)
    finally:
        if child.poll() is None:
            child.kill()
        child.wait(timeout=60)
    progress = b""
    os.set_blocking(master, False)
    try:
        while chunk := os.read(master, 65536):
            progress += chunk
    except OSError:
        pass
    os.close(master)
    assert child.returncode == 0
    assert 0 < peak < 100 * 1024, f"peak RSS {peak} kB"
    assert b"MB" in progress and b"messages" in progress
