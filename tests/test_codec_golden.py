"""Golden corpus (issue 2 §2, §5): every stream in ``formats/corpus/`` decodes to its expected form.

The expectations were written by ``tools/make_corpus.py`` from the same small descriptions as
the bytes, never by running the decoder, so these tests hold the codec to pcf-structures.md.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from codec_support import merged_spans

from pcfserver import Message, PcfError, StreamDecoder, decode, encode
from pcfserver.cli import main as cli_main
from pcfserver.jsonform import message_to_json

ROOT = Path(__file__).resolve().parent.parent
CORPUS = ROOT / "formats" / "corpus"
STREAMS = sorted(path.stem for path in CORPUS.glob("[0-9][0-9][0-9]-*.pcf"))
BY_NAME = {stem[4:]: stem for stem in STREAMS}  # "several-faults" -> "076-several-faults"
ERROR_KEYS = ("reason", "reason_name", "offset")

# Known differences from the expectation, each a reported discrepancy: tests marked xfail(strict).
KNOWN: dict[tuple[str, str], str] = {}


def load(stem: str) -> tuple[bytes, dict[str, Any]]:
    return (CORPUS / f"{stem}.pcf").read_bytes(), json.loads((CORPUS / f"{stem}.json").read_text("utf-8"))


def comparable(obj: dict[str, Any]) -> dict[str, Any]:
    """A decode JSON object without the human-readable error texts (not part of the expectation)."""
    out = dict(obj)
    if "error" in out:
        assert isinstance(out["error"]["message"], str) and out["error"]["message"]
        out["error"] = {k: out["error"][k] for k in ERROR_KEYS}
    if "warnings" in out:
        assert all(isinstance(w["message"], str) and w["message"] for w in out["warnings"])
        out["warnings"] = [{k: w[k] for k in ERROR_KEYS} for w in out["warnings"]]
    return out


def as_json(messages: list[Message]) -> list[dict[str, Any]]:
    return [comparable(message_to_json(m)) for m in messages]


def expected_lax(expected: dict[str, Any]) -> list[dict[str, Any]]:
    return expected["lax"] if "lax" in expected else expected["strict"]


def before_first_fault(expected: dict[str, Any]) -> list[dict[str, Any]]:
    """The messages strict decoding returns before it stops: those before the first fault."""
    out = []
    for item in expected_lax(expected):
        if "error" in item or "warnings" in item:
            break
        out.append(item)
    return out


def known(kind: str, stem: str) -> Any:
    reason = KNOWN.get((kind, stem[4:]))
    return pytest.param(stem, marks=pytest.mark.xfail(reason=reason, strict=True)) if reason else stem


# ---------------------------------------------------------------------------------------------
# The corpus itself


def test_corpus_is_up_to_date_with_its_generator() -> None:
    result = subprocess.run([sys.executable, str(ROOT / "tools" / "make_corpus.py"), "--check"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr


def test_corpus_covers_what_issue_2_asks() -> None:
    structures: set[tuple[str, str]] = set()
    ccsids: set[int] = set()
    depth = 0
    multi = 0
    malformed = 0

    def walk(params: list[dict[str, Any]], order: str, level: int) -> None:
        nonlocal depth
        for p in params:
            structures.add((p["type_name"], order))
            if "ccsid" in p:
                ccsids.add(p["ccsid"])
            if p["type_name"] == "MQCFGR":
                depth = max(depth, level + 1)
                walk(p["parameters"], order, level + 1)

    for stem in STREAMS:
        _, expected = load(stem)
        malformed += "strict_error" in expected
        messages = expected_lax(expected)
        multi += len(messages) > 1
        for m in messages:
            walk(m["parameters"], m["byte_order"], 0)
    every = {"MQCFIN", "MQCFIN64", "MQCFST", "MQCFIL", "MQCFIL64", "MQCFSL", "MQCFBS", "MQCFGR", "MQCFIF", "MQCFSF", "MQCFBF"}
    assert {(s, o) for s in every for o in ("big", "little")} <= structures
    assert {819, 1208, 500, 37} <= ccsids
    assert depth >= 2
    assert len(STREAMS) >= 40 and multi >= 10 and malformed >= 20
    assert sum(p.stat().st_size for p in CORPUS.iterdir()) < 100_000
    assert (CORPUS / "sample.pcf").is_file()


# ---------------------------------------------------------------------------------------------
# Decoding


@pytest.mark.parametrize("stem", STREAMS)
def test_strict(stem: str) -> None:
    data, expected = load(stem)
    if "strict" in expected:
        assert as_json(decode(data)) == expected["strict"]
        return
    with pytest.raises(PcfError) as caught:
        decode(data)
    error = caught.value
    assert {"reason": error.reason, "reason_name": error.reason_name, "offset": error.offset} == expected["strict_error"]


@pytest.mark.parametrize("stem", [known("lax", s) for s in STREAMS])
def test_lax(stem: str) -> None:
    data, expected = load(stem)
    messages = decode(data, strict=False)
    assert as_json(messages) == expected_lax(expected)
    assert sum(m.length for m in messages) == len(data)


@pytest.mark.parametrize("chunk", [1, 5, 64])
@pytest.mark.parametrize("stem", [known("lax", s) for s in STREAMS])
def test_stream_decoder_in_chunks(stem: str, chunk: int) -> None:
    """Fed in pieces, StreamDecoder gives what one-shot decoding gives, in both modes."""
    data, expected = load(stem)
    lax = StreamDecoder(strict=False)
    strict = StreamDecoder()
    got_lax: list[Message] = []
    got_strict: list[Message] = []
    failure: PcfError | None = None
    for start in range(0, len(data), chunk):
        piece = data[start : start + chunk]
        lax.feed(piece)
        got_lax.extend(lax.messages())
        if failure is None:
            strict.feed(piece)
            try:
                while (message := strict.next_message()) is not None:
                    got_strict.append(message)
            except PcfError as exc:
                failure = exc
    got_lax.extend(lax.close())
    if failure is None:
        try:
            got_strict.extend(strict.close())
        except PcfError as exc:
            failure = exc
    assert merged_spans(as_json(got_lax)) == expected_lax(expected)
    if "strict" in expected:
        assert failure is None
        assert as_json(got_strict) == expected["strict"]
    else:
        assert failure is not None
        assert {"reason": failure.reason, "reason_name": failure.reason_name, "offset": failure.offset} == expected["strict_error"]
        assert as_json(got_strict) == before_first_fault(expected)


# ---------------------------------------------------------------------------------------------
# Encoding


def _strucs_minimal(data: bytes, order: str) -> None:
    """Every structure of a canonical message has StrucLength = fixed part + data rounded up to 4."""
    count = int.from_bytes(data[32:36], order)
    pos = 36

    def walk(pos: int, count: int) -> int:
        for _ in range(count):
            t, sl = (int.from_bytes(data[pos + i : pos + i + 4], order, signed=True) for i in (0, 4))
            if t in (3, 23, 13):
                assert sl == {3: 16, 23: 24, 13: 20}[t]
            elif t == 20:
                assert sl == 16
                pos = walk(pos + 16, int.from_bytes(data[pos + 12 : pos + 16], order, signed=True))
                continue
            elif t in (5, 25):
                n = int.from_bytes(data[pos + 12 : pos + 16], order, signed=True)
                assert sl == 16 + n * (4 if t == 5 else 8)
            else:
                fixed, length_at = {4: (20, 16), 6: (24, None), 9: (16, 12), 14: (24, 20), 15: (20, 16)}[t]
                if length_at is None:
                    n = int.from_bytes(data[pos + 16 : pos + 20], order, signed=True) * int.from_bytes(data[pos + 20 : pos + 24], order, signed=True)
                else:
                    n = int.from_bytes(data[pos + length_at : pos + length_at + 4], order, signed=True)
                assert sl == fixed + n + (-n) % 4
                assert data[pos + fixed + n : pos + sl] == b"\0" * ((-n) % 4)
            pos += sl
        return pos

    assert walk(pos, count) == len(data)


@pytest.mark.parametrize("stem", [s for s in STREAMS if "strict" in load(s)[1]])
def test_reencoding_is_canonical(stem: str) -> None:
    data, expected = load(stem)
    messages = decode(data)
    encoded = [encode(m, byte_order=m.byte_order) for m in messages]
    for message, raw in zip(messages, encoded, strict=True):
        again = decode(raw)
        assert again == [message]
        assert again[0].byte_order == message.byte_order
        _strucs_minimal(raw, message.byte_order)
    if expected["canonical"]:
        assert b"".join(encoded) == data
    else:
        assert len(b"".join(encoded)) < len(data)


def test_sample_session() -> None:
    data = (CORPUS / "sample.pcf").read_bytes()
    messages = decode(data)
    assert {m.byte_order for m in messages} == {"big", "little"}
    assert {m.type for m in messages} >= {1, 2, 16}  # commands (both kinds) and responses
    assert any(m.reason == 3008 for m in messages)  # a failed command's summary
    assert b"".join(encode(m, byte_order=m.byte_order) for m in messages) == data
    assert decode(data, strict=False) == messages


# ---------------------------------------------------------------------------------------------
# The CLI on a few streams


def _cli_lines(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, list[dict[str, Any]]]:
    status = cli_main(["decode", *args])
    out = capsys.readouterr().out
    return status, [comparable(json.loads(line)) for line in out.splitlines()]


@pytest.mark.parametrize("name", ["all-structures-big", "statistics-groups-little", "ccsid-1208-utf8", "ccsid-500-ebcdic"])
def test_cli_decode_clean_stream(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    stem = BY_NAME[name]
    _, expected = load(stem)
    status, lines = _cli_lines(capsys, str(CORPUS / f"{stem}.pcf"))
    assert status == 0
    assert lines == expected["strict"]
    status, lines = _cli_lines(capsys, "--lax", str(CORPUS / f"{stem}.pcf"))
    assert (status, lines) == (0, expected["strict"])


@pytest.mark.parametrize("name", ["garbage-between", "several-faults", "parameter-count-too-big-mid", "cfsl-empty-strings-bomb"])
def test_cli_decode_malformed_stream(name: str, capsys: pytest.CaptureFixture[str]) -> None:
    stem = BY_NAME[name]
    data, expected = load(stem)
    status, lines = _cli_lines(capsys, "--lax", str(CORPUS / f"{stem}.pcf"))
    assert status == 1
    assert lines == expected["lax"]
    # Strict: the messages before the fault, then one line for the rest, with the fault as its error.
    status, lines = _cli_lines(capsys, str(CORPUS / f"{stem}.pcf"))
    before = before_first_fault(expected)
    assert status == 1
    assert lines[:-1] == before
    rest = lines[-1]
    start = before[-1]["offset"] + before[-1]["length"] if before else 0
    assert (rest["offset"], rest["offset"] + rest["length"]) == (start, len(data))
    assert rest["error"] == expected["strict_error"]
