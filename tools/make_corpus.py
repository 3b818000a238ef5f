#!/usr/bin/env python3
"""Builds the golden PCF corpus in ``formats/corpus/`` (issue 2 §2).

Each stream is written from a small description with plain ``struct.pack``, and its expected
decoded form (the JSON of ``pcfserver decode``) is written from the same description.  Nothing
here imports pcfserver: the golden test would be circular if the expectations came from the
decoder or the bytes from its encoder.  Only ``formats/constants.tsv`` is read, to turn constant
names into numbers; the structure layouts are written out below from pcf-structures.md §3.

A stream is a list of *segments*, each one thing a decoder should report:

* ``Msg``: a message that decodes (possibly with ``warnings``: problems tolerant mode accepts);
* ``Span``: bytes that cannot be decoded whole (a framing error); tolerant mode reports them as
  one message with ``error`` set, spanning up to the next segment (the next plausible MQCFH).

Strict mode stops at the first fault (a span's error or a message's first warning).

Output per stream: ``NNN-name.pcf`` (the bytes) and ``NNN-name.json``::

    {"description", "source", "strict": [...], "canonical"}         a stream that decodes cleanly
    {"description", "source", "strict_error": {...}, "lax": [...]}   a stream with faults

``strict`` lists the decode JSON objects of every message; for a clean stream tolerant mode
gives the same list (not repeated, to keep the corpus small), and ``canonical`` says whether
the bytes are what an encoder must write for those messages (minimal padding, NUL pad bytes).
``strict_error`` is the first fault, which strict decoding raises; ``lax`` lists what tolerant
decoding gives: the messages, each problem it accepted in a message's ``warnings``, and each
span it could not decode as a message with ``error`` set.  Error objects carry ``reason``,
``reason_name`` and ``offset``; the decoder's ``message`` text is not part of the expectation.

Also writes ``sample.pcf``, the README's sample session (no expectation file: it is built from
the helpers the golden streams check).  Run: ``python tools/make_corpus.py [--check]``.
"""

from __future__ import annotations

import argparse
import csv
import json
import struct
import sys
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
FORMATS = ROOT / "formats"
OUT = FORMATS / "corpus"


def _load_constants() -> dict[str, int]:
    with open(FORMATS / "constants.tsv", encoding="utf-8", newline="") as handle:
        lines = [line for line in handle if line.strip() and not line.startswith("#")]
    values: dict[str, int] = {}
    for row in csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE):
        try:
            values.setdefault(row["name"], int(row["value"]))
        except ValueError:
            continue
    return values


C = _load_constants()

# Python codecs of the CCSIDs the corpus uses (formats/ccsids.tsv); 0 = MQCCSI_DEFAULT = 819.
CODECS = {0: "latin-1", 819: "latin-1", 1208: "utf-8", 500: "cp500", 37: "cp037"}

# Structure type numbers and fixed lengths, pcf-structures.md §3.
TYPES = {
    "MQCFIN": 3, "MQCFST": 4, "MQCFIL": 5, "MQCFSL": 6, "MQCFBS": 9, "MQCFIF": 13,
    "MQCFSF": 14, "MQCFBF": 15, "MQCFGR": 20, "MQCFIN64": 23, "MQCFIL64": 25,
}  # fmt: skip
FIXED = {
    "MQCFIN": 16, "MQCFIN64": 24, "MQCFST": 20, "MQCFIL": 16, "MQCFIL64": 16, "MQCFSL": 24,
    "MQCFBS": 16, "MQCFGR": 16, "MQCFIF": 20, "MQCFSF": 24, "MQCFBF": 20,
}  # fmt: skip
HEADER_FIELDS = ("type", "struc_length", "version", "command", "msg_seq_number", "control", "comp_code", "reason", "parameter_count")
# Byte offset of each MQCFH field (§3.1), used for the offsets of header errors.
HEADER_OFFSET = {name: 4 * i for i, name in enumerate(HEADER_FIELDS)}


def num(value: int | str) -> int:
    return value if isinstance(value, int) else C[value]


def name_of(value: int | str) -> str | None:
    return value if isinstance(value, str) else None


def pad4(n: int) -> int:
    return (4 - n % 4) % 4


def error(reason: str, offset: int) -> dict[str, Any]:
    return {"reason": C[reason], "reason_name": reason, "offset": offset}


# ---------------------------------------------------------------------------------------------
# Parameters


@dataclass
class P:
    """One parameter structure: what is written, and what a decoder must show for it."""

    struct: str
    parameter: int | str
    value: Any = None
    ccsid: int = 0
    operator: int | str = 0
    members: list[P] = field(default_factory=list)
    over: dict[str, int] = field(default_factory=dict)  # raw field values that break a rule
    extra_pad: bytes = b""  # non-minimal padding: legal, not significant
    raw: bytes | None = None  # string bytes written as given (not encoded from value)
    each: int | None = None  # MQCFSL StringLength (default: longest value)
    fault: tuple[str, int] | None = None  # (reason, offset in this structure) this structure causes
    skipped: bool = False  # tolerant mode skips it (unknown structure type)
    shown: Any = None  # what tolerant mode shows when it differs from value
    value_name: Any = "absent"  # MQCFIN value_name (MQCFIL value_names) when values are numbers

    def data(self) -> bytes:
        """The data after the fixed part, without padding."""
        s = self.struct
        if self.raw is not None:
            return self.raw
        if s in ("MQCFST", "MQCFSF"):
            return str(self.value).encode(CODECS[self.ccsid])
        if s == "MQCFSL":
            encoded = [v.encode(CODECS[self.ccsid]) for v in self.value]
            each = self.string_length()
            assert all(len(e) == each for e in encoded), "MQCFSL corpus values must have equal length"
            return b"".join(encoded)
        if s in ("MQCFBS", "MQCFBF"):
            return bytes(self.value)
        return b""  # lists are packed in build(), in the message's byte order

    def string_length(self) -> int:
        if self.each is not None:
            return self.each
        return max((len(v.encode(CODECS[self.ccsid])) for v in self.value), default=0)

    def build(self, o: str, at: int, faults: list[tuple[str, int]]) -> bytes:
        s = self.struct
        if self.fault is not None:
            faults.append((self.fault[0], at + self.fault[1]))
        if s == "UNKNOWN":
            body = self.raw or b""
            return self._pack(o, [("type", num(self.value)), ("struc_length", 8 + len(body))]) + body
        t = TYPES[s]
        pid = num(self.parameter)
        if s in ("MQCFIL", "MQCFIL64"):
            code = "l" if s == "MQCFIL" else "q"
            data = struct.pack(f"{o}{len(self.value)}{code}", *[num(v) for v in self.value])
        else:
            data = self.data()
        sl = FIXED[s] + len(data) + pad4(len(data)) + len(self.extra_pad)
        fields: list[tuple[str, Any]] = [("type", t), ("struc_length", sl), ("parameter", pid)]
        if s == "MQCFIN":
            fields.append(("value", num(self.value)))
        elif s == "MQCFIN64":
            fields += [("reserved", 0), ("value", self.value)]
        elif s == "MQCFST":
            fields += [("ccsid", self.ccsid), ("string_length", len(data))]
        elif s in ("MQCFIL", "MQCFIL64"):
            fields.append(("count", len(self.value)))
        elif s == "MQCFSL":
            fields += [("ccsid", self.ccsid), ("count", len(self.value)), ("string_length", self.string_length())]
        elif s == "MQCFBS":
            fields.append(("string_length", len(data)))
        elif s == "MQCFGR":
            fields.append(("parameter_count", len(self.members)))
        elif s == "MQCFIF":
            fields += [("operator", num(self.operator)), ("value", num(self.value))]
        elif s == "MQCFSF":
            fields += [("operator", num(self.operator)), ("ccsid", self.ccsid), ("filter_value_length", len(data))]
        elif s == "MQCFBF":
            fields += [("operator", num(self.operator)), ("filter_value_length", len(data))]
        for key, value in self.over.items():
            assert key in dict(fields), f"{s} has no field {key}"
            fields = [(k, value if k == key else v) for k, v in fields]
        head = self._pack(o, fields)
        out = head + data + b"\0" * pad4(len(data)) + self.extra_pad
        if s == "MQCFGR":
            for member in self.members:
                out += member.build(o, at + len(out), faults)
        return out

    def _pack(self, o: str, fields: list[tuple[str, Any]]) -> bytes:
        """MQLONG fields, except MQCFIN64's Value, an MQINT64 (§3.3)."""
        return b"".join(struct.pack(o + ("q" if self.struct == "MQCFIN64" and k == "value" else "l"), v) for k, v in fields)

    def expect(self) -> dict[str, Any]:
        s = self.struct
        out: dict[str, Any] = {"type": TYPES[s], "type_name": s, "parameter": num(self.parameter), "parameter_name": name_of(self.parameter)}
        shown = self.value if self.shown is None else self.shown
        if s in ("MQCFIN", "MQCFIN64"):
            out["value"] = num(self.value)
            if isinstance(self.value, str):
                out["value_name"] = self.value
            elif self.value_name != "absent":
                out["value_name"] = self.value_name
        elif s in ("MQCFIL", "MQCFIL64"):
            out["values"] = [num(v) for v in self.value]
            if self.value and all(isinstance(v, str) for v in self.value):
                out["value_names"] = list(self.value)
            elif self.value_name != "absent":  # a parameter with a value set: names even of an empty list
                out["value_names"] = self.value_name
        elif s == "MQCFST":
            out["ccsid"] = self.ccsid
            out["string_length"] = len(self.data())
            out["value"] = shown if self.raw is None or self.shown is not None else self.raw.decode(CODECS[self.ccsid])
        elif s == "MQCFSL":
            out["ccsid"] = self.ccsid
            out["string_length"] = self.string_length()
            out["values"] = list(shown)
        elif s == "MQCFBS":
            out["value_hex"] = bytes(self.value).hex()
        elif s == "MQCFGR":
            out["parameter_count"] = len(self.members)
            out["parameters"] = [m.expect() for m in self.members if not m.skipped]
        else:
            out["operator"] = num(self.operator)
            out["operator_name"] = name_of(self.operator)
            if s == "MQCFIF":
                out["value"] = num(self.value)
            elif s == "MQCFSF":
                out["ccsid"] = self.ccsid
                out["value"] = shown
            else:
                out["value_hex"] = bytes(self.value).hex()
        return out


def IN(parameter: int | str, value: int | str, **kw: Any) -> P:
    return P("MQCFIN", parameter, value, **kw)


def IN64(parameter: int | str, value: int, **kw: Any) -> P:
    return P("MQCFIN64", parameter, value, **kw)


def ST(parameter: int | str, value: str, ccsid: int = 0, **kw: Any) -> P:
    return P("MQCFST", parameter, value, ccsid, **kw)


def IL(parameter: int | str, values: list[Any], **kw: Any) -> P:
    return P("MQCFIL", parameter, values, **kw)


def IL64(parameter: int | str, values: list[int], **kw: Any) -> P:
    return P("MQCFIL64", parameter, values, **kw)


def SL(parameter: int | str, values: list[str], ccsid: int = 0, **kw: Any) -> P:
    return P("MQCFSL", parameter, values, ccsid, **kw)


def BS(parameter: int | str, value: bytes, **kw: Any) -> P:
    return P("MQCFBS", parameter, value, **kw)


def GR(parameter: int | str, members: list[P], **kw: Any) -> P:
    return P("MQCFGR", parameter, members=members, **kw)


def IF(parameter: int | str, operator: int | str, value: int | str, **kw: Any) -> P:
    return P("MQCFIF", parameter, value, operator=operator, **kw)


def SF(parameter: int | str, operator: int | str, value: str, ccsid: int = 0, **kw: Any) -> P:
    return P("MQCFSF", parameter, value, ccsid, operator=operator, **kw)


def BF(parameter: int | str, operator: int | str, value: bytes, **kw: Any) -> P:
    return P("MQCFBF", parameter, value, operator=operator, **kw)


def UNKNOWN(type_value: int, body: bytes, **kw: Any) -> P:
    return P("UNKNOWN", 0, type_value, raw=body, **kw)


def padded(text: str, width: int) -> str:
    """Responses return names blank-padded to their standard length (pcf-structures.md §3.4)."""
    return text.ljust(width)


# ---------------------------------------------------------------------------------------------
# Messages and streams


@dataclass
class Msg:
    """One message: MQCFH fields (names or numbers) and its parameters."""

    command: int | str
    params: list[P] = field(default_factory=list)
    type: int | str = "MQCFT_COMMAND"
    version: int = 1
    seq: int = 1
    control: int | str = "MQCFC_LAST"
    comp_code: int | str = "MQCC_OK"
    reason: int | str = 0
    order: str = "big"
    over: dict[str, int] = field(default_factory=dict)  # raw header values that break a rule
    header_faults: list[tuple[str, str]] = field(default_factory=list)  # (reason, header field) tolerant mode accepts

    def header(self) -> dict[str, int]:
        fields = {
            "type": num(self.type),
            "struc_length": 36,
            "version": self.version,
            "command": num(self.command),
            "msg_seq_number": self.seq,
            "control": num(self.control),
            "comp_code": num(self.comp_code),
            "reason": num(self.reason),
            "parameter_count": len(self.params),
        }
        fields.update(self.over)
        return fields

    def build(self, at: int, faults: list[tuple[str, int]]) -> bytes:
        o = ">" if self.order == "big" else "<"
        h = self.header()
        out = struct.pack(o + "9l", *[h[k] for k in HEADER_FIELDS])
        for reason, name in self.header_faults:
            faults.append((reason, at + HEADER_OFFSET[name]))
        for item in self.params:
            out += item.build(o, at + len(out), faults)
        return out

    def expect(self, offset: int, length: int, warnings: list[tuple[str, int]]) -> dict[str, Any]:
        h = self.header()
        out = {
            "offset": offset,
            "length": length,
            "byte_order": self.order,
            "type": h["type"],
            "type_name": name_of(self.type),
            "struc_length": 36,
            "version": h["version"],
            "command": h["command"],
            "command_name": name_of(self.command),
            "msg_seq_number": h["msg_seq_number"],
            "control": h["control"],
            "comp_code": h["comp_code"],
            "reason": h["reason"],
            "reason_name": name_of(self.reason) if self.reason != 0 else "MQRC_NONE",
            "parameter_count": h["parameter_count"],
            "parameters": [p.expect() for p in self.params if not p.skipped],
        }
        if warnings:
            out["warnings"] = [error(reason, off) for reason, off in warnings]
        return out


@dataclass
class Span:
    """Bytes a decoder cannot decode whole: a malformed message, garbage or a stray structure.

    ``content`` is a Msg (written as described, overrides and all), a P, or raw bytes.
    ``error`` is (reason, offset within the span); None takes the first fault the content
    records.  ``error_at_end`` puts the error at the first byte after the span (a message whose
    ParameterCount runs into the next MQCFH).  ``truncate`` cuts the span's last bytes.
    """

    content: Msg | P | bytes
    error: tuple[str, int] | None = None
    error_at_end: str | None = None
    truncate: int = 0
    header_shown: bool = True  # whether the span's first 36 bytes are a readable MQCFH

    def build(self, at: int, faults: list[tuple[str, int]]) -> bytes:
        if isinstance(self.content, Msg):
            data = self.content.build(at, faults)
        elif isinstance(self.content, P):
            data = self.content.build(">", at, faults)
        else:
            data = self.content
        return data[: len(data) - self.truncate] if self.truncate else data

    def expect(self, offset: int, length: int, err: dict[str, Any]) -> dict[str, Any]:
        fields = dict.fromkeys(HEADER_FIELDS, 0)
        order = "big"
        names: dict[str, Any] = {"type_name": "MQCFT_NONE", "command_name": "MQCMD_NONE", "reason_name": "MQRC_NONE"}
        if isinstance(self.content, Msg) and self.header_shown and length >= 36:
            fields = self.content.header()
            order = self.content.order
            names = {
                "type_name": name_of(self.content.type),
                "command_name": name_of(self.content.command),
                "reason_name": name_of(self.content.reason) if self.content.reason != 0 else "MQRC_NONE",
            }
        return {
            "offset": offset,
            "length": length,
            "byte_order": order,
            "type": fields["type"],
            "type_name": names["type_name"],
            "struc_length": fields["struc_length"],
            "version": fields["version"],
            "command": fields["command"],
            "command_name": names["command_name"],
            "msg_seq_number": fields["msg_seq_number"],
            "control": fields["control"],
            "comp_code": fields["comp_code"],
            "reason": fields["reason"],
            "reason_name": names["reason_name"],
            "parameter_count": fields["parameter_count"],
            "parameters": [],
            "error": err,
        }


@dataclass
class Stream:
    name: str
    description: str
    source: str
    segments: list[Msg | Span]

    def build(self) -> tuple[bytes, dict[str, Any]]:
        data = b""
        starts: list[int] = []
        errors: list[tuple[str, int] | None] = []  # per segment: a span's error (offset -1: the span's end)
        warnings: list[list[tuple[str, int]]] = []
        for segment in self.segments:
            starts.append(len(data))
            faults: list[tuple[str, int]] = []
            data += segment.build(len(data), faults)
            if isinstance(segment, Msg):
                warnings.append(sorted(faults, key=lambda f: f[1]))
                errors.append(None)
            else:
                warnings.append([])
                if segment.error is not None:
                    errors.append((segment.error[0], starts[-1] + segment.error[1]))
                elif segment.error_at_end is not None:
                    errors.append((segment.error_at_end, -1))
                else:
                    assert faults, f"{self.name}: a span without a fault"
                    errors.append(faults[0])
        lax: list[dict[str, Any]] = []
        for i, segment in enumerate(self.segments):
            end = starts[i + 1] if i + 1 < len(starts) else len(data)
            if isinstance(segment, Msg):
                lax.append(segment.expect(starts[i], end - starts[i], warnings[i]))
            else:
                reason, offset = errors[i]  # type: ignore[misc]
                lax.append(segment.expect(starts[i], end - starts[i], error(reason, end if offset == -1 else offset)))
        # Strict: the messages before the first fault, then that fault.
        strict: list[dict[str, Any]] = []
        strict_error: dict[str, Any] | None = None
        for item in lax:
            fault = item.get("error") or (item["warnings"][0] if "warnings" in item else None)
            if fault is not None:
                strict_error = fault
                break
            strict.append(item)
        _check_resync(self.name, data, starts, self.segments)
        expected: dict[str, Any] = {"description": self.description, "source": self.source}
        if strict_error is None:
            expected["strict"] = strict  # and tolerant decoding gives the same
            expected["canonical"] = not any(_padded(p) for m in self.segments if isinstance(m, Msg) for p in m.params)
        else:
            expected["strict_error"] = strict_error
            expected["lax"] = lax
        return data, expected


def _padded(item: P) -> bool:
    """Whether a parameter is written with more than the minimal padding."""
    return bool(item.extra_pad) or any(_padded(m) for m in item.members)


MESSAGE_TYPES = {1, 2, 7, 8, 10, 12, 16, 17, 18, 19, 21, 22, 26, 27}


def _plausible(data: bytes, pos: int) -> bool:
    """A full MQCFH that a resynchronising decoder would accept (decoder's documented heuristic)."""
    if pos + 36 > len(data):
        return False
    field = data[pos + 4 : pos + 8]
    if field == b"\0\0\0\x24":
        o = ">"
    elif field == b"\x24\0\0\0":
        o = "<"
    else:
        return False
    t, _, version, command, seq, control, comp, _, count = struct.unpack_from(o + "9l", data, pos)
    return t in MESSAGE_TYPES and 1 <= version <= 3 and 0 <= command < 1_000_000 and seq >= 1 and control in (0, 1) and 0 <= comp <= 2 and 0 <= count <= 1_000_000


def _order_at(data: bytes, pos: int) -> str | None:
    field = data[pos + 4 : pos + 8]
    return "big" if field == b"\0\0\0\x24" else "little" if field == b"\x24\0\0\0" else None


def _check_resync(name: str, data: bytes, starts: list[int], segments: list[Msg | Span]) -> None:
    """Self-check: a span must end where the next segment starts, with nothing in between a
    resynchronising decoder could take for an MQCFH, except the two byte-order shadows: a
    big-endian MQCFH with small fields reads as a little-endian one 3 bytes later, and a
    little-endian one after three zero bytes as a big-endian one 3 bytes earlier."""
    for i, segment in enumerate(segments):
        if not isinstance(segment, Span):
            continue
        start = starts[i]
        end = starts[i + 1] if i + 1 < len(starts) else len(data)
        for pos in range(start + 1, end):
            if not _plausible(data, pos):
                continue
            shadow_of_start = pos == start + 3 and _order_at(data, start) == "big"
            twin_of_next = pos == end - 3 and i + 1 < len(starts) and _order_at(data, end) == "little"
            if not (shadow_of_start or twin_of_next):
                raise AssertionError(f"{name}: a plausible MQCFH at {pos} inside the span {start}..{end}")
        if i + 1 < len(starts):
            assert _plausible(data, end), f"{name}: the segment after a span must start with a plausible MQCFH"


# ---------------------------------------------------------------------------------------------
# The corpus

QN = "MQCA_Q_NAME"
QDESC = "MQCA_Q_DESC"


def create_local(order: str = "big", name: str = "APP.PAYMENTS.REQUEST") -> Msg:
    """Create Queue as pymqi sends it: COMMAND_XR, Version 3, required parameters first (§7)."""
    return Msg(
        "MQCMD_CREATE_Q",
        [
            ST(QN, name),
            IN("MQIA_Q_TYPE", "MQQT_LOCAL"),
            IN("MQIA_MAX_Q_DEPTH", 50000),
            IN("MQIA_DEF_PERSISTENCE", "MQPER_PERSISTENT"),
            ST(QDESC, "Incoming payment requests"),
            IN("MQIA_MAX_MSG_LENGTH", 4194304),
        ],
        type="MQCFT_COMMAND_XR",
        version=3,
        order=order,
    )


def ok(command: str, order: str = "big", version: int = 1, seq: int = 1, control: str = "MQCFC_LAST") -> Msg:
    """The standard OK response (§6 kind 1)."""
    return Msg(command, [], type="MQCFT_RESPONSE", version=version, seq=seq, control=control, order=order)


def failed(command: str, reason: str, parameter_id: str | None, order: str = "big", version: int = 1) -> list[Msg | Span]:
    """An error response and its MQRCCF_COMMAND_FAILED summary (§6 kind 3)."""
    params = [IN("MQIACF_PARAMETER_ID", parameter_id)] if parameter_id else []
    return [
        Msg(command, params, type="MQCFT_RESPONSE", version=version, seq=1, control="MQCFC_NOT_LAST", comp_code="MQCC_FAILED", reason=reason, order=order),
        Msg(command, [], type="MQCFT_RESPONSE", version=version, seq=2, control="MQCFC_LAST", comp_code="MQCC_FAILED", reason="MQRCCF_COMMAND_FAILED", order=order),
    ]


def inquire_q(order: str, pattern: str = "APP.*") -> Msg:
    return Msg(
        "MQCMD_INQUIRE_Q",
        [ST(QN, pattern), IN("MQIA_Q_TYPE", "MQQT_LOCAL"), IL("MQIACF_Q_ATTRS", ["MQCA_Q_NAME", "MQIA_CURRENT_Q_DEPTH", "MQIA_MAX_Q_DEPTH", "MQCA_Q_DESC"])],
        type="MQCFT_COMMAND_XR",
        version=3,
        order=order,
    )


def q_data(order: str, name: str, depth: int, max_depth: int, desc: str, seq: int, last: bool) -> Msg:
    """One Inquire Queue data response: names padded to 48, descriptions to 64 (§6, pitfall 11)."""
    return Msg(
        "MQCMD_INQUIRE_Q",
        [
            ST(QN, padded(name, 48)),
            IN("MQIA_Q_TYPE", "MQQT_LOCAL"),
            IN("MQIA_CURRENT_Q_DEPTH", depth),
            IN("MQIA_MAX_Q_DEPTH", max_depth),
            ST(QDESC, padded(desc, 64)),
        ],
        type="MQCFT_RESPONSE",
        seq=seq,
        control="MQCFC_LAST" if last else "MQCFC_NOT_LAST",
        order=order,
    )


def every_structure(order: str) -> Msg:
    """One message holding every parameter structure type (Version 3 allows them all)."""
    return Msg(
        "MQCMD_INQUIRE_Q",
        [
            ST(QN, "APP.*"),
            IN("MQIA_Q_TYPE", "MQQT_LOCAL"),
            IN64("MQIA_MAX_Q_FILE_SIZE", 2_199_023_255_552, value_name=None),
            IL("MQIACF_Q_ATTRS", ["MQCA_Q_NAME", "MQIA_CURRENT_Q_DEPTH"]),
            IL64(745, [0, 1, -1, 2**63 - 1, -(2**63)]),
            SL("MQCA_NAMES", ["APP.A", "APP.B", "APP.C"]),
            BS("MQBACF_CORREL_ID", bytes(range(24))),
            GR("MQGACF_Q_STATISTICS_DATA", [IN("MQIA_CURRENT_Q_DEPTH", 7), ST(QDESC, "x")]),
            IF("MQIA_CURRENT_Q_DEPTH", "MQCFOP_GREATER", 100),
            SF(QDESC, "MQCFOP_LIKE", "Pay*"),
            BF("MQBACF_CORREL_ID", "MQCFOP_EQUAL", b"\x01\x02\x03"),
        ],
        type="MQCFT_COMMAND_XR",
        version=3,
        order=order,
    )


def statistics(order: str) -> Msg:
    """A statistics-style message: groups nested two deep, 64-bit integers and 64-bit lists."""
    return Msg(
        "MQCMD_STATISTICS_Q",
        [
            ST("MQCA_Q_MGR_NAME", padded("QM1", 48)),
            GR(
                "MQGACF_Q_STATISTICS_DATA",
                [
                    ST(QN, padded("APP.PAYMENTS.REQUEST", 48)),
                    IN64(745, 123_456_789_012),
                    IL64(746, [10, 20, 0]),
                    GR("MQGACF_MONITOR_ELEMENT", [IN("MQIA_CURRENT_Q_DEPTH", 42), IN64(747, -1), IL("MQIACF_Q_TYPES", ["MQQT_LOCAL", "MQQT_ALIAS"])]),
                ],
            ),
            GR("MQGACF_Q_STATISTICS_DATA", [ST(QN, padded("APP.EMPTY", 48)), IN64(745, 0), GR("MQGACF_MONITOR_ELEMENT", [])]),
        ],
        type="MQCFT_STATISTICS",
        version=3,
        order=order,
    )


def ebcdic(order: str, ccsid: int) -> Msg:
    return Msg(
        "MQCMD_CHANGE_Q",
        [
            ST(QN, "APP.EBCDIC.QUEUE", ccsid),
            IN("MQIA_Q_TYPE", "MQQT_LOCAL"),
            ST(QDESC, "Stücke für Ämter: 100% [sic] ^~|", ccsid),
            SL("MQCA_NAMES", ["CLUS.A ", "CLUS.BB", "CLUS.C "], ccsid),
        ],
        order=order,
    )


def sample_conversation() -> list[Msg | Span]:
    """A few commands and their responses, as a capture of one admin session would hold them."""
    return [
        # Inquire Queue Names from a little-endian client (pymqi on x86: COMMAND_XR, Version 3).
        Msg("MQCMD_INQUIRE_Q_NAMES", [ST(QN, "APP.*"), IN("MQIA_Q_TYPE", "MQQT_ALL")], type="MQCFT_COMMAND_XR", version=3, order="little"),
        Msg(
            "MQCMD_INQUIRE_Q_NAMES",
            [
                SL("MQCACF_Q_NAMES", [padded(n, 48) for n in ("APP.PAYMENTS.REQUEST", "APP.PAYMENTS.REPLY", "APP.ALIAS")]),
                IL("MQIACF_Q_TYPES", ["MQQT_LOCAL", "MQQT_LOCAL", "MQQT_ALIAS"]),
            ],
            type="MQCFT_RESPONSE",
            version=3,
            order="little",
        ),
        # Create Queue from a big-endian client, then the OK response.
        create_local("big", "APP.AUDIT"),
        ok("MQCMD_CREATE_Q", "big", version=3),
        # Change Queue of a queue that does not exist: error + MQRCCF_COMMAND_FAILED summary.
        Msg("MQCMD_CHANGE_Q", [ST(QN, "APP.MISSING"), IN("MQIA_Q_TYPE", "MQQT_LOCAL"), IN("MQIA_INHIBIT_PUT", "MQQA_PUT_INHIBITED")], order="little"),
        *failed("MQCMD_CHANGE_Q", "MQRC_UNKNOWN_OBJECT_NAME", "MQCA_Q_NAME", "little"),
        # Generic Inquire Queue: one data response per queue, the last one MQCFC_LAST.
        inquire_q("little"),
        q_data("little", "APP.PAYMENTS.REPLY", 0, 5000, "Payment replies", 1, False),
        q_data("little", "APP.PAYMENTS.REQUEST", 17, 50000, "Incoming payment requests", 2, True),
        # Delete Queue with purge, OK.
        Msg("MQCMD_DELETE_Q", [ST(QN, "APP.AUDIT"), IN("MQIACF_PURGE", "MQPO_YES")], order="big"),
        ok("MQCMD_DELETE_Q", "big"),
    ]


def nested(depth: int, innermost: list[P]) -> P:
    item = GR("MQGACF_ACTIVITY", innermost)
    for _ in range(depth - 1):
        item = GR("MQGACF_ACTIVITY", [item])
    return item


def with_fault(item: P, reason: str, at: int = 0) -> P:
    item.fault = (reason, at)
    return item


def ping(order: str = "big") -> Msg:
    return Msg("MQCMD_PING_Q_MGR", [], order=order)


S = "pcf-structures.md"
CORPUS: list[Stream] = [
    # ---------------------------------------------------------------- valid streams
    Stream("create-q-big", "Create Queue (local) command, big-endian, COMMAND_XR Version 3 as pymqi sends it", f"{S} §3.1, §3.13, §7", [create_local("big")]),
    Stream("create-q-ok-big", "Create Queue and its one OK response (CompCode 0, Reason 0, no parameters)", f"{S} §6 kind 1", [create_local("big"), ok("MQCMD_CREATE_Q", "big", version=3)]),
    Stream(
        "create-q-exists-little",
        "Create Queue of an existing queue: MQRCCF_OBJECT_ALREADY_EXISTS with MQIACF_PARAMETER_ID, then the 3008 summary",
        f"{S} §6 kind 3; command-semantics.md §2",
        [create_local("little"), *failed("MQCMD_CREATE_Q", "MQRCCF_OBJECT_ALREADY_EXISTS", "MQCA_Q_NAME", "little", version=3)],
    ),
    Stream(
        "change-q-unknown-big",
        "Change Queue of a missing queue: MQRC_UNKNOWN_OBJECT_NAME error response, then the MQRCCF_COMMAND_FAILED summary",
        f"{S} §6 kind 3",
        [
            Msg("MQCMD_CHANGE_Q", [ST(QN, "APP.MISSING"), IN("MQIA_Q_TYPE", "MQQT_LOCAL"), IN("MQIA_MAX_Q_DEPTH", 1000)]),
            *failed("MQCMD_CHANGE_Q", "MQRC_UNKNOWN_OBJECT_NAME", "MQCA_Q_NAME"),
        ],
    ),
    Stream(
        "copy-q-big",
        "Copy Queue (FromQName, ToQName, QType, Replace) and its OK response",
        "command-semantics.md §1; pcf-structures.md §6",
        [
            Msg(
                "MQCMD_COPY_Q",
                [ST("MQCACF_FROM_Q_NAME", "APP.PAYMENTS.REQUEST"), ST("MQCACF_TO_Q_NAME", "APP.PAYMENTS.REQUEST.COPY"), IN("MQIA_Q_TYPE", "MQQT_LOCAL"), IN("MQIACF_REPLACE", "MQRP_YES")]
            ),
            ok("MQCMD_COPY_Q"),
        ],
    ),
    Stream(
        "inquire-q-big",
        "Generic Inquire Queue and two data responses (MsgSeqNumber 1, 2, only the last MQCFC_LAST), names blank-padded",
        f"{S} §6 kind 2 and Inquire Queue response",
        [
            inquire_q("big"),
            q_data("big", "APP.A", 0, 5000, "first", 1, False),
            q_data("big", "APP.C", 99999, 999999999, "second", 2, True),
        ],
    ),
    Stream(
        "inquire-q-little",
        "Generic Inquire Queue, little-endian, with a per-object MQRC_UNKNOWN_OBJECT_NAME among the data responses",
        f"{S} §6 (generic Inquire, per-object failures)",
        [
            inquire_q("little"),
            Msg("MQCMD_INQUIRE_Q", [ST(QN, padded("APP.GONE", 48))], type="MQCFT_RESPONSE", seq=1, control="MQCFC_NOT_LAST", comp_code="MQCC_FAILED", reason="MQRC_UNKNOWN_OBJECT_NAME", order="little"),
            q_data("little", "APP.C", 0, 5000, "third", 2, True),
        ],
    ),
    Stream(
        "inquire-q-names-big",
        "Inquire Queue Names: MQCFSL of 48-character names and the matching MQCFIL of queue types",
        f"{S} §3.7 and Inquire Queue Names response",
        [
            Msg("MQCMD_INQUIRE_Q_NAMES", [ST(QN, "*"), IN("MQIA_Q_TYPE", "MQQT_ALL")]),
            Msg(
                "MQCMD_INQUIRE_Q_NAMES",
                [SL("MQCACF_Q_NAMES", [padded(n, 48) for n in ("APP.A", "APP.B", "SYSTEM.DEFAULT.LOCAL.QUEUE")]), IL("MQIACF_Q_TYPES", ["MQQT_LOCAL", "MQQT_ALIAS", "MQQT_LOCAL"])],
                type="MQCFT_RESPONSE",
            ),
        ],
    ),
    Stream(
        "inquire-q-names-little",
        "Inquire Queue Names little-endian, the reply listing no queue (empty MQCFSL and MQCFIL)",
        f"{S} §3.5, §3.7 (Count 0)",
        [
            Msg("MQCMD_INQUIRE_Q_NAMES", [ST(QN, "NONE.*")], order="little"),
            Msg("MQCMD_INQUIRE_Q_NAMES", [SL("MQCACF_Q_NAMES", []), IL("MQIACF_Q_TYPES", [], value_name=[])], type="MQCFT_RESPONSE", order="little"),
        ],
    ),
    Stream("all-structures-big", "One Version 3 message with every parameter structure type, big-endian", f"{S} §3.2-§3.12", [every_structure("big")]),
    Stream("all-structures-little", "Every parameter structure type, little-endian", f"{S} §3.2-§3.12", [every_structure("little")]),
    Stream("statistics-groups-big", "Statistics message: MQCFGR nested two deep, MQCFIN64 and MQCFIL64, an empty group", f"{S} §3.3, §3.6, §3.9", [statistics("big")]),
    Stream("statistics-groups-little", "The statistics message little-endian", f"{S} §3.3, §3.6, §3.9", [statistics("little")]),
    Stream(
        "integer64-extremes-big",
        "MQCFIN64 and MQCFIL64 at the signed 64-bit extremes (MQCFIN64 has its Reserved word, MQCFIL64 none)",
        f"{S} §3.3, §3.6, pitfall 3",
        [Msg("MQCMD_RESET_Q_STATS", [IN64(745, 2**63 - 1), IN64(746, -(2**63)), IN64(747, -1), IL64(748, [2**32, -(2**32), 0]), IL64(749, [])], type="MQCFT_RESPONSE")],
    ),
    Stream(
        "byte-strings-big",
        "MQCFBS (Version 2): an extended response's 24-byte MQBACF_RESPONSE_ID, a 5-byte value (3 pad bytes) and an empty one",
        f"{S} §3.8, §4 extended responses",
        [
            Msg(
                "MQCMD_CHANGE_Q",
                [BS("MQBACF_RESPONSE_ID", b"AMQ QM1         \x00\x00\x00\x00\x00\x00\x00\x01"), ST("MQCACF_RESPONSE_Q_MGR_NAME", padded("QM1", 48)), BS("MQBACF_CORREL_ID", b"\xde\xad\xbe\xef\x00"), BS("MQBACF_MSG_ID", b"")],
                type="MQCFT_XR_SUMMARY",
                version=2,
            )
        ],
    ),
    Stream(
        "byte-strings-little",
        "MQCFBS little-endian: byte strings are never converted, NUL is data",
        f"{S} §3.8",
        [Msg("MQCMD_CHANGE_Q", [BS("MQBACF_RESPONSE_ID", bytes(24)), BS("MQBACF_CORREL_ID", b"\x00\xff\x00")], type="MQCFT_XR_ITEM", version=2, order="little")],
    ),
    Stream(
        "filters-big",
        "Inquire Queue with filters (Version 3): MQCFIF CurrentQDepth > 100, MQCFSF QDesc LIKE, MQCFBF",
        f"{S} §3.10-§3.12",
        [
            Msg("MQCMD_INQUIRE_Q", [ST(QN, "*"), IF("MQIA_CURRENT_Q_DEPTH", "MQCFOP_GREATER", 100)], type="MQCFT_COMMAND_XR", version=3),
            Msg("MQCMD_INQUIRE_Q", [ST(QN, "*"), SF(QDESC, "MQCFOP_LIKE", "Payment*")], type="MQCFT_COMMAND_XR", version=3),
            Msg("MQCMD_INQUIRE_Q", [ST(QN, "*"), BF("MQBACF_CORREL_ID", "MQCFOP_NOT_EQUAL", b"\x00\x01\x02\x03\x04")], type="MQCFT_COMMAND_XR", version=3),
        ],
    ),
    Stream(
        "filters-little",
        "Filters little-endian, every operator family (LESS, NOT_LESS, CONTAINS_GEN, EXCLUDES_GEN, empty filter values)",
        f"{S} §3.10-§3.12 operators",
        [
            Msg(
                "MQCMD_INQUIRE_Q",
                [
                    ST(QN, "*"),
                    IF("MQIA_MAX_Q_DEPTH", "MQCFOP_LESS", -1),
                    IF("MQIA_Q_TYPE", "MQCFOP_NOT_LESS", "MQQT_LOCAL", value_name=None),
                    SF(QDESC, "MQCFOP_CONTAINS_GEN", "x"),
                    SF("MQCA_Q_NAME", "MQCFOP_EXCLUDES_GEN", ""),
                    BF("MQBACF_MSG_ID", "MQCFOP_EQUAL", b""),
                ],
                type="MQCFT_COMMAND_XR",
                version=3,
                order="little",
            )
        ],
    ),
    Stream(
        "ccsid-1208-utf8",
        "UTF-8 strings (CCSID 1208) with non-ASCII text; StringLength counts bytes, not characters",
        f"{S} §1 (string CCSID), §3.4",
        [
            Msg(
                "MQCMD_CHANGE_Q",
                [ST(QN, "APP.ÜBERWEISUNG", 1208), IN("MQIA_Q_TYPE", "MQQT_LOCAL"), ST(QDESC, "Größe – € 日本語 ✓", 1208), SF(QDESC, "MQCFOP_LIKE", "Zürich*", 1208)],
                version=3,
            ),
            Msg("MQCMD_CHANGE_Q", [SL("MQCA_NAMES", ["ÄÖÜ", "äöü"], 1208)], type="MQCFT_RESPONSE", order="little"),
        ],
    ),
    Stream("ccsid-500-ebcdic", "EBCDIC International (CCSID 500) strings and string list, big-endian as on z/OS", f"{S} §1", [ebcdic("big", 500)]),
    Stream("ccsid-037-ebcdic", "EBCDIC US (CCSID 37) strings and string list, little-endian header", f"{S} §1", [ebcdic("little", 37)]),
    Stream(
        "ccsid-037-literal-bytes",
        "CCSID 37 bytes written by hand (not by a codec): 'SYSTEM.ADMIN' = E2 E8 E2 E3 C5 D4 4B C1 C4 D4 C9 D5",
        f"{S} §1",
        [Msg("MQCMD_INQUIRE_Q", [ST(QN, "SYSTEM.ADMIN", 37, raw=bytes.fromhex("E2E8E2E3C5D44BC1C4D4C9D5"))], type="MQCFT_RESPONSE")],
    ),
    Stream(
        "ccsid-819-default",
        "ISO 8859-1 strings, CCSID 819 given explicitly and as MQCCSI_DEFAULT (0, the header's CCSID, 819 by default)",
        f"{S} §1, §3.4",
        [Msg("MQCMD_CHANGE_Q", [ST(QN, "APP.CAFÉ", 819), ST(QDESC, "Crème brûlée ±½", 0), SL("MQCA_NAMES", ["ñ", "ß"], 819), SF(QDESC, "MQCFOP_EQUAL", "Ø", 819)], version=3)],
    ),
    Stream(
        "non-minimal-padding",
        "Variable structures padded beyond the minimum, pad bytes not NUL: legal, the bytes between the data and StrucLength are not significant",
        f"{S} §3 padding rule",
        [
            Msg(
                "MQCMD_CHANGE_Q",
                [
                    ST(QN, "APP.PADDED", extra_pad=b"    XXXX"),
                    SL("MQCA_NAMES", ["AB", "CD"], extra_pad=b"\xff\xff\xff\xff"),
                    BS("MQBACF_CORREL_ID", b"\x01", extra_pad=bytes(8)),
                    SF(QDESC, "MQCFOP_LIKE", "A*", extra_pad=b"    "),
                    BF("MQBACF_MSG_ID", "MQCFOP_EQUAL", b"\x02\x03", extra_pad=b"\x00" * 12),
                ],
                version=3,
            ),
            Msg("MQCMD_CHANGE_Q", [ST(QN, "LE", extra_pad=b"\0\0\0\0")], order="little"),
        ],
    ),
    Stream(
        "empty-values",
        "Empty values: zero-length string, empty lists, zero-length byte string, a group of no members, no parameters",
        f"{S} §3.4-§3.9 (lengths and counts ≥ 0)",
        [
            Msg("MQCMD_CHANGE_Q", [ST(QN, ""), IL("MQIACF_Q_ATTRS", [], value_name=[]), IL64(745, []), SL("MQCA_NAMES", []), SL("MQCACF_Q_NAMES", ["", ""]), BS("MQBACF_MSG_ID", b""), GR("MQGACF_ACTIVITY", [])], version=2),
            ping(),
        ],
    ),
    Stream(
        "string-nul-and-blanks",
        "A response string holding a NUL (data, not a terminator) and trailing blanks (kept: exactly StringLength characters)",
        f"{S} §3.4",
        [Msg("MQCMD_INQUIRE_Q", [ST(QDESC, "A\x00B   "), ST(QN, padded("Q", 48))], type="MQCFT_RESPONSE", order="little")],
    ),
    Stream(
        "mixed-byte-orders",
        "Byte order is decided per message: a big-endian command, a little-endian response, a big-endian ping",
        f"{S} §1 (encoding per message)",
        [create_local("big", "APP.X"), ok("MQCMD_CREATE_Q", "little", version=3), ping("big"), ok("MQCMD_PING_Q_MGR", "little")],
    ),
    Stream(
        "message-types",
        "MQCFH Types other than command/response: event, user PCF, extended-response item/summary, status",
        f"{S} §4",
        [
            Msg("MQCMD_Q_MGR_EVENT", [ST("MQCA_Q_MGR_NAME", padded("QM1", 48)), IN("MQIACF_REASON_QUALIFIER", 1)], type="MQCFT_EVENT"),
            Msg("MQCMD_NONE", [IN(99999, 2)], type="MQCFT_USER", order="little"),
            Msg("MQCMD_INQUIRE_Q", [ST(QN, padded("APP.A", 48))], type="MQCFT_XR_ITEM", version=3, control="MQCFC_NOT_LAST"),
            Msg("MQCMD_INQUIRE_Q", [], type="MQCFT_XR_SUMMARY", version=3, seq=2),
            Msg("MQCMD_INQUIRE_Q", [], type="MQCFT_STATUS", version=3, order="little"),
        ],
    ),
    # ---------------------------------------------------------------- malformed: the MQCFH
    Stream(
        "bad-header-length",
        "MQCFH StrucLength 40 between two good messages: not 36 in either byte order (framing lost until the next MQCFH)",
        f"{S} §3.1 StrucLength must be 36 → 3002",
        [ping(), Span(Msg("MQCMD_PING_Q_MGR", over={"struc_length": 40}), error=("MQRCCF_CFH_LENGTH_ERROR", 4), header_shown=False), ping("little")],
    ),
    Stream(
        "bad-header-type",
        "MQCFH Type 99 is not a message type; tolerant mode decodes the message and records the problem",
        f"{S} §4 → 3001",
        [ping(), Msg("MQCMD_PING_Q_MGR", over={"type": 99}, header_faults=[("MQRCCF_CFH_TYPE_ERROR", "type")], type=99), ping()],
    ),
    Stream(
        "bad-header-version",
        "MQCFH Version 4 (only 1, 2 and 3 exist)",
        f"{S} §3.13 → 3003",
        [Msg("MQCMD_CHANGE_Q", [ST(QN, "Q")], version=4, header_faults=[("MQRCCF_CFH_VERSION_ERROR", "version")], order="little"), ping()],
    ),
    Stream(
        "bad-header-seq",
        "MsgSeqNumber 0 (numbering starts at 1)",
        f"{S} §3.1 → 3004",
        [Msg("MQCMD_PING_Q_MGR", seq=0, header_faults=[("MQRCCF_CFH_MSG_SEQ_NUMBER_ERR", "msg_seq_number")]), ping()],
    ),
    Stream(
        "bad-header-control",
        "Control 2 (only MQCFC_LAST 1 and MQCFC_NOT_LAST 0)",
        f"{S} §3.1 → 3005",
        [ping("little"), Msg("MQCMD_PING_Q_MGR", control=2, header_faults=[("MQRCCF_CFH_CONTROL_ERROR", "control")], order="little")],
    ),
    Stream(
        "bad-header-parameter-count",
        "ParameterCount -1 between good messages",
        f"{S} §3.1 ParameterCount ≥ 0 → 3006",
        [ping(), Span(Msg("MQCMD_PING_Q_MGR", over={"parameter_count": -1}), error=("MQRCCF_CFH_PARM_COUNT_ERROR", 32)), ping()],
    ),
    Stream(
        "header-count-bomb",
        "A 36-byte message claiming 2147483647 parameters: an error before any parameter is read",
        "issue 2 (never trust a count); pcf-structures.md §3.1 → 3006",
        [Span(Msg("MQCMD_CHANGE_Q", over={"parameter_count": 2**31 - 1}), error=("MQRCCF_CFH_PARM_COUNT_ERROR", 32))],
    ),
    Stream(
        "parameter-count-too-big-last",
        "ParameterCount 3 but two parameters and the stream ends: the message is short of its structures",
        f"{S} §2 → 3016",
        [ping(), Span(Msg("MQCMD_CHANGE_Q", [ST(QN, "Q"), IN("MQIA_Q_TYPE", "MQQT_LOCAL")], over={"parameter_count": 3}), error=("MQRCCF_MSG_LENGTH_ERROR", 0))],
    ),
    Stream(
        "parameter-count-too-big-mid",
        "ParameterCount 3 but two parameters, then the next MQCFH: its Type (1) is no parameter structure type",
        f"{S} §3.12 unknown structure Type → 3013; tolerant mode resynchronises on that MQCFH",
        [Span(Msg("MQCMD_CHANGE_Q", [ST(QN, "Q"), IN("MQIA_Q_TYPE", "MQQT_LOCAL")], over={"parameter_count": 3}), error_at_end="MQRCCF_STRUCTURE_TYPE_ERROR"), ping(), ping("little")],
    ),
    Stream(
        "parameter-count-too-small",
        "ParameterCount 1 but two parameters: the second one is read where the next MQCFH should be",
        f"{S} §3.1 → 3002 at the stray structure",
        [
            Msg("MQCMD_CHANGE_Q", [ST(QN, "Q"), IN("MQIA_Q_TYPE", "MQQT_LOCAL")][:1], version=1),
            Span(IN("MQIA_Q_TYPE", "MQQT_LOCAL"), error=("MQRCCF_CFH_LENGTH_ERROR", 4)),
            ping(),
        ],
    ),
    Stream(
        "truncated-last",
        "The stream ends 10 bytes before the end of its last message (inside the last MQCFIN)",
        f"{S} §2 → 3016 at the message's offset",
        [create_local("little"), Span(create_local("little"), error=("MQRCCF_MSG_LENGTH_ERROR", 0), truncate=10)],
    ),
    Stream(
        "truncated-header",
        "The stream ends 20 bytes into an MQCFH",
        f"{S} §2 → 3016",
        [ping(), Span(ping(), error=("MQRCCF_MSG_LENGTH_ERROR", 0), truncate=16, header_shown=False)],
    ),
    Stream(
        "garbage-between",
        "Forty bytes of garbage between two messages; tolerant mode resynchronises on the next MQCFH",
        f"{S} §3.1 → 3002; issue 2 tolerant mode",
        [ping(), Span(b"GARBAGE!" * 5, error=("MQRCCF_CFH_LENGTH_ERROR", 4)), create_local("big"), ping("little")],
    ),
    # ---------------------------------------------------------------- malformed: structure types and versions
    Stream(
        "unknown-structure-type",
        "A structure of Type 99 (StrucLength 16, a multiple of 4): tolerant mode skips it by its StrucLength",
        f"{S} §3.12 → 3013",
        [Msg("MQCMD_CHANGE_Q", [ST(QN, "Q"), UNKNOWN(99, b"\0" * 8, fault=("MQRCCF_STRUCTURE_TYPE_ERROR", 0), skipped=True), IN("MQIA_Q_TYPE", "MQQT_LOCAL")]), ping()],
    ),
    Stream(
        "unknown-structure-bad-length",
        "A structure of Type 99 whose StrucLength (10) cannot be skipped: the framing is lost",
        f"{S} §3.12 → 3013",
        [Span(Msg("MQCMD_CHANGE_Q", [UNKNOWN(99, b"\0\0", fault=("MQRCCF_STRUCTURE_TYPE_ERROR", 0))])), ping("little")],
    ),
    Stream(
        "byte-string-in-version-1",
        "MQCFBS in a Version 1 message (MQCFBS needs Version ≥ 2)",
        f"{S} §3.8, §3.13 → 3013",
        [Msg("MQCMD_CHANGE_Q", [BS("MQBACF_CORREL_ID", b"\x01\x02", fault=("MQRCCF_STRUCTURE_TYPE_ERROR", 0))], version=1, order="little")],
    ),
    Stream(
        "filter-in-version-2",
        "MQCFIF in a Version 2 message (filters need Version 3)",
        f"{S} §3.13 → 3013",
        [Msg("MQCMD_INQUIRE_Q", [ST(QN, "*"), IF("MQIA_CURRENT_Q_DEPTH", "MQCFOP_GREATER", 1, fault=("MQRCCF_STRUCTURE_TYPE_ERROR", 0))], version=2)],
    ),
    # ---------------------------------------------------------------- malformed: lengths of fixed structures
    Stream(
        "cfin-length",
        "MQCFIN with StrucLength 20, between good messages, little-endian",
        f"{S} §3.2 → 3009",
        [ping("little"), Span(Msg("MQCMD_CHANGE_Q", [ST(QN, "Q"), with_fault(IN("MQIA_MAX_Q_DEPTH", 5, over={"struc_length": 20}), "MQRCCF_CFIN_LENGTH_ERROR")], order="little")), ping("little")],
    ),
    Stream(
        "cfin64-length",
        "MQCFIN64 with StrucLength 16 (it is 24: the Reserved word is part of it)",
        f"{S} §3.3 → 3009",
        [Span(Msg("MQCMD_RESET_Q_STATS", [with_fault(IN64(745, 1, over={"struc_length": 16}), "MQRCCF_CFIN_LENGTH_ERROR")], type="MQCFT_RESPONSE"))],
    ),
    Stream(
        "cfgr-length",
        "MQCFGR with StrucLength 20",
        f"{S} §3.9 → 3258",
        [Span(Msg("MQCMD_STATISTICS_Q", [with_fault(GR("MQGACF_Q_STATISTICS_DATA", [IN("MQIA_CURRENT_Q_DEPTH", 1)], over={"struc_length": 20}), "MQRCCF_CFGR_LENGTH_ERROR")], type="MQCFT_STATISTICS"))],
    ),
    Stream(
        "cfif-length",
        "MQCFIF with StrucLength 24",
        f"{S} §3.10 → 3241",
        [Span(Msg("MQCMD_INQUIRE_Q", [with_fault(IF("MQIA_CURRENT_Q_DEPTH", "MQCFOP_GREATER", 1, over={"struc_length": 24}), "MQRCCF_CFIF_LENGTH_ERROR")], version=3))],
    ),
    # ---------------------------------------------------------------- malformed: variable structures
    Stream(
        "cfst-length-not-multiple-of-4",
        "MQCFST StrucLength 25 for a 5-character string (must be a multiple of 4)",
        f"{S} §3.4 → 3010",
        [Span(Msg("MQCMD_CHANGE_Q", [with_fault(ST(QN, "APP.Q", over={"struc_length": 25}), "MQRCCF_CFST_LENGTH_ERROR")]))],
    ),
    Stream(
        "cfst-string-longer-than-structure",
        "MQCFST StringLength 40 in a 28-byte structure",
        f"{S} §3.4 → 3010 (StrucLength inconsistent with StringLength)",
        [Span(Msg("MQCMD_CHANGE_Q", [with_fault(ST(QN, "APP.Q", over={"string_length": 40}), "MQRCCF_CFST_LENGTH_ERROR")], order="little"))],
    ),
    Stream(
        "cfst-negative-string-length",
        "MQCFST StringLength -1",
        f"{S} §3.4 → 3011",
        [Span(Msg("MQCMD_CHANGE_Q", [with_fault(ST(QN, "APP.Q", over={"string_length": -1}), "MQRCCF_CFST_STRING_LENGTH_ERR")]))],
    ),
    Stream(
        "cfst-length-beyond-stream",
        "MQCFST StrucLength 1000 while the stream holds 3 more short messages: the message cannot end inside the stream",
        f"{S} §2 → 3016; tolerant mode resynchronises on the next MQCFH",
        [Span(Msg("MQCMD_CHANGE_Q", [ST(QN, "APP.Q", over={"struc_length": 1000})]), error=("MQRCCF_MSG_LENGTH_ERROR", 0)), ping(), ping("little"), ping()],
    ),
    Stream(
        "cfil-length",
        "MQCFIL StrucLength 24 for one value (must be 16 + 4×Count)",
        f"{S} §3.5 → 3028",
        [Span(Msg("MQCMD_INQUIRE_Q", [with_fault(IL("MQIACF_Q_ATTRS", ["MQIACF_ALL"], over={"struc_length": 24}, value_name=None), "MQRCCF_CFIL_LENGTH_ERROR")]))],
    ),
    Stream(
        "cfil-negative-count",
        "MQCFIL Count -1",
        f"{S} §3.5 → 3027",
        [Span(Msg("MQCMD_INQUIRE_Q", [with_fault(IL("MQIACF_Q_ATTRS", [], over={"count": -1}), "MQRCCF_CFIL_COUNT_ERROR")], order="little"))],
    ),
    Stream(
        "cfil-count-bomb",
        "A 52-byte message whose MQCFIL claims 100 million values in a 16-byte structure",
        "issue 2 (never trust a count); pcf-structures.md §3.5 → 3027",
        [Span(Msg("MQCMD_INQUIRE_Q", [with_fault(IL("MQIACF_Q_ATTRS", [], over={"count": 100_000_000}), "MQRCCF_CFIL_COUNT_ERROR")]))],
    ),
    Stream(
        "cfil-consistent-bomb",
        "A 52-byte message whose MQCFIL claims 100 million values with a matching StrucLength: 400 MB, above the 100 MB largest message",
        "issue 2 (never trust a count); MQ's largest message is 100 MB → MQRC_MSG_TOO_BIG_FOR_Q 2030",
        [Span(Msg("MQCMD_INQUIRE_Q", [IL("MQIACF_Q_ATTRS", [], over={"count": 100_000_000, "struc_length": 16 + 400_000_000})]), error=("MQRC_MSG_TOO_BIG_FOR_Q", 0))],
    ),
    Stream(
        "cfil64-length",
        "MQCFIL64 StrucLength 20 for one 8-byte value (must be 16 + 8×Count)",
        f"{S} §3.6 → 3028",
        [Span(Msg("MQCMD_RESET_Q_STATS", [with_fault(IL64(745, [1], over={"struc_length": 20}), "MQRCCF_CFIL_LENGTH_ERROR")], type="MQCFT_RESPONSE", order="little"))],
    ),
    Stream(
        "cfsl-length-not-multiple-of-4",
        "MQCFSL StrucLength 30",
        f"{S} §3.7 → 3024",
        [Span(Msg("MQCMD_CHANGE_Q", [with_fault(SL("MQCA_NAMES", ["AB", "CD"], over={"struc_length": 30}), "MQRCCF_CFSL_LENGTH_ERROR")]))],
    ),
    Stream(
        "cfsl-strings-longer-than-structure",
        "MQCFSL of 2 strings of StringLength 8 in a 28-byte structure",
        f"{S} §3.7 → 3024 (StrucLength inconsistent with Count × StringLength)",
        [Span(Msg("MQCMD_CHANGE_Q", [with_fault(SL("MQCA_NAMES", ["AB", "CD"], over={"string_length": 8}), "MQRCCF_CFSL_LENGTH_ERROR")]))],
    ),
    Stream(
        "cfsl-negative-string-length",
        "MQCFSL StringLength -4",
        f"{S} §3.7 → 3069",
        [Span(Msg("MQCMD_CHANGE_Q", [with_fault(SL("MQCA_NAMES", ["AB", "CD"], over={"string_length": -4}), "MQRCCF_CFSL_STRING_LENGTH_ERR")], order="little"))],
    ),
    Stream(
        "cfsl-negative-count",
        "MQCFSL Count -1",
        f"{S} §3.7 → 3068",
        [Span(Msg("MQCMD_CHANGE_Q", [with_fault(SL("MQCA_NAMES", [], over={"count": -1}), "MQRCCF_CFSL_COUNT_ERROR")]))],
    ),
    Stream(
        "cfsl-empty-strings-bomb",
        "A 60-byte message whose MQCFSL claims 100 million strings of length 0 (StrucLength 24 is consistent): more strings than its bytes",
        "issue 2 (never trust a count); pcf-structures.md §3.7 → 3068",
        [Span(Msg("MQCMD_CHANGE_Q", [with_fault(SL("MQCA_NAMES", [], over={"count": 100_000_000}), "MQRCCF_CFSL_COUNT_ERROR")]))],
    ),
    Stream(
        "cfbs-length",
        "MQCFBS StrucLength 18",
        f"{S} §3.8 → 3255",
        [Span(Msg("MQCMD_CHANGE_Q", [with_fault(BS("MQBACF_CORREL_ID", b"\x01\x02", over={"struc_length": 18}), "MQRCCF_CFBS_LENGTH_ERROR")], version=2))],
    ),
    Stream(
        "cfbs-negative-length",
        "MQCFBS StringLength -1",
        f"{S} §3.8 → 3257",
        [Span(Msg("MQCMD_CHANGE_Q", [with_fault(BS("MQBACF_CORREL_ID", b"", over={"string_length": -1}), "MQRCCF_CFBS_STRING_LENGTH_ERR")], version=2, order="little"))],
    ),
    Stream(
        "cfgr-negative-count",
        "MQCFGR ParameterCount -1",
        f"{S} §3.9 → 3259",
        [Span(Msg("MQCMD_STATISTICS_Q", [with_fault(GR("MQGACF_Q_STATISTICS_DATA", [], over={"parameter_count": -1}), "MQRCCF_CFGR_PARM_COUNT_ERROR")], type="MQCFT_STATISTICS"))],
    ),
    Stream(
        "cfgr-count-bomb",
        "A 52-byte message whose group claims 100 million members",
        "issue 2 (never trust a count); pcf-structures.md §3.9 → 3259",
        [Span(Msg("MQCMD_STATISTICS_Q", [with_fault(GR("MQGACF_Q_STATISTICS_DATA", [], over={"parameter_count": 100_000_000}), "MQRCCF_CFGR_PARM_COUNT_ERROR")], type="MQCFT_STATISTICS"))],
    ),
    Stream(
        "cfsf-length",
        "MQCFSF StrucLength 26",
        f"{S} §3.11 → 3245",
        [Span(Msg("MQCMD_INQUIRE_Q", [with_fault(SF(QDESC, "MQCFOP_LIKE", "A*", over={"struc_length": 26}), "MQRCCF_CFSF_LENGTH_ERROR")], version=3))],
    ),
    Stream(
        "cfsf-negative-length",
        "MQCFSF FilterValueLength -2",
        f"{S} §3.11 → 3244",
        [Span(Msg("MQCMD_INQUIRE_Q", [with_fault(SF(QDESC, "MQCFOP_LIKE", "A*", over={"filter_value_length": -2}), "MQRCCF_CFSF_FILTER_VAL_LEN_ERR")], version=3, order="little"))],
    ),
    Stream(
        "cfbf-length",
        "MQCFBF StrucLength 22",
        f"{S} §3.12 → 3264",
        [Span(Msg("MQCMD_INQUIRE_Q", [with_fault(BF("MQBACF_CORREL_ID", "MQCFOP_EQUAL", b"\x01", over={"struc_length": 22}), "MQRCCF_CFBF_LENGTH_ERROR")], version=3))],
    ),
    Stream(
        "cfbf-negative-length",
        "MQCFBF FilterValueLength -1",
        f"{S} §3.12 → 3267",
        [Span(Msg("MQCMD_INQUIRE_Q", [with_fault(BF("MQBACF_CORREL_ID", "MQCFOP_EQUAL", b"", over={"filter_value_length": -1}), "MQRCCF_CFBF_FILTER_VAL_LEN_ERR")], version=3))],
    ),
    # ---------------------------------------------------------------- malformed: values tolerant mode keeps
    Stream(
        "filter-operators",
        "Filter operators that are no MQCFOP value (99, 0, 7): each filter's own reason",
        f"{S} §3.10-§3.12 → 3242, 3246, 3266 (3266, not 3267: pitfall 15)",
        [
            Msg(
                "MQCMD_INQUIRE_Q",
                [
                    ST(QN, "*"),
                    IF("MQIA_CURRENT_Q_DEPTH", 99, 1, fault=("MQRCCF_CFIF_OPERATOR_ERROR", 0)),
                    SF(QDESC, 0, "A", fault=("MQRCCF_CFSF_OPERATOR_ERROR", 0)),
                    BF("MQBACF_CORREL_ID", 7, b"\x01", fault=("MQRCCF_CFBF_OPERATOR_ERROR", 0)),
                ],
                type="MQCFT_COMMAND_XR",
                version=3,
            ),
            ping(),
        ],
    ),
    Stream(
        "ccsid-unknown",
        "An MQCFST in CCSID 4711, which the codec does not convert (tolerant mode shows the bytes as ISO 8859-1)",
        f"{S} §1 → 3049",
        [Msg("MQCMD_CHANGE_Q", [ST(QN, "APP.Q"), P("MQCFST", QDESC, None, 4711, raw=b"caf\xe9", shown="café", fault=("MQRCCF_CCSID_ERROR", 0))]), ping()],
    ),
    Stream(
        "ccsid-invalid-utf8",
        "An MQCFST in CCSID 1208 holding bytes that are not UTF-8 (tolerant mode shows U+FFFD for them)",
        f"{S} §1 → 3049",
        [Msg("MQCMD_CHANGE_Q", [P("MQCFST", QDESC, None, 1208, raw=b"ab\xffcd", shown="ab\ufffdcd", fault=("MQRCCF_CCSID_ERROR", 0))], order="little"), ping("little")],
    ),
    Stream(
        "groups-too-deep",
        "Groups nested 33 deep (the codec's limit is 32): the 33rd group is an error",
        f"{S} §3.9 → 3259 (nesting limit is this codec's, not IBM's)",
        [Span(Msg("MQCMD_STATISTICS_Q", [nested(33, [IN("MQIA_CURRENT_Q_DEPTH", 1)])], type="MQCFT_STATISTICS"), error=("MQRCCF_CFGR_PARM_COUNT_ERROR", 36 + 32 * 16)), ping()],
    ),
    Stream(
        "several-faults",
        "A capture with several bad messages: tolerant mode reports each and decodes every good one",
        "issue 2 tolerant mode",
        [
            ping(),
            Span(Msg("MQCMD_CHANGE_Q", [with_fault(IN("MQIA_MAX_Q_DEPTH", 5, over={"struc_length": 12}), "MQRCCF_CFIN_LENGTH_ERROR")])),
            ok("MQCMD_CREATE_Q", "big", version=3),
            Msg("MQCMD_PING_Q_MGR", control=5, header_faults=[("MQRCCF_CFH_CONTROL_ERROR", "control")], order="little"),
            Span(b"\x00" * 12, error=("MQRCCF_CFH_LENGTH_ERROR", 4)),
            create_local("little", "APP.TWO"),
            Span(create_local("little", "APP.THREE"), error=("MQRCCF_MSG_LENGTH_ERROR", 0), truncate=3),
        ],
    ),
]

SAMPLE = Stream(
    "sample",
    "A few-message admin conversation in both byte orders (README quick start): Inquire Queue Names, Create, a failed Change, a generic Inquire, Delete",
    "pcf-structures.md §6, command-semantics.md §1",
    sample_conversation(),
)


def render(expected: dict[str, Any]) -> str:
    """JSON with one message object per line: small, and diffs stay readable."""
    parts = []
    for key, value in expected.items():
        if isinstance(value, list):
            inner = ",\n  ".join(json.dumps(item, ensure_ascii=False, separators=(",", ":")) for item in value)
            parts.append(f"{json.dumps(key)}:[\n  {inner}\n ]" if value else f"{json.dumps(key)}:[]")
        else:
            parts.append(f"{json.dumps(key)}:{json.dumps(value, ensure_ascii=False, separators=(',', ':'))}")
    return "{\n " + ",\n ".join(parts) + "\n}\n"


def files() -> dict[str, bytes]:
    out: dict[str, bytes] = {}
    names = set()
    for number, stream in enumerate(CORPUS, 1):
        assert stream.name not in names, stream.name
        names.add(stream.name)
        data, expected = stream.build()
        stem = f"{number:03d}-{stream.name}"
        out[f"{stem}.pcf"] = data
        out[f"{stem}.json"] = render(expected).encode("utf-8")
    data, expected = SAMPLE.build()
    assert "strict" in expected, "the sample must decode cleanly"
    out["sample.pcf"] = data  # built from the helpers the golden streams check; no expectation file of its own
    return out


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--check", action="store_true", help="only check that formats/corpus/ is up to date")
    args = parser.parse_args(argv)
    wanted = files()
    OUT.mkdir(parents=True, exist_ok=True)
    present = {p.name for p in OUT.iterdir() if p.suffix in (".pcf", ".json")}
    stale = sorted(present - set(wanted))
    changed = sorted(name for name, data in wanted.items() if not (OUT / name).exists() or (OUT / name).read_bytes() != data)
    if args.check:
        for name in stale + changed:
            print(f"out of date: formats/corpus/{name}", file=sys.stderr)
        return 1 if stale or changed else 0
    for name in stale:
        (OUT / name).unlink()
    for name in changed:
        (OUT / name).write_bytes(wanted[name])
    total = sum(len(d) for d in wanted.values())
    print(f"{len(CORPUS)} streams + sample, {len(wanted)} files, {total} bytes; {len(changed)} written, {len(stale)} removed")
    return 0


if __name__ == "__main__":
    sys.exit(main())
