"""Decoding PCF byte streams: strict for the server, tolerant for forensics.

Every length and count read from the wire is checked against the structure that carries it
and against the bytes present before anything is read or allocated.  Byte order is detected
per message from MQCFH.StrucLength.  Offsets in errors are absolute positions in the stream.
"""

from __future__ import annotations

import struct
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from pcfserver import mq
from pcfserver.codec import layouts
from pcfserver.codec.ccsid import DEFAULT_CCSID, codec_for
from pcfserver.codec.model import (
    ByteString,
    ByteStringFilter,
    Group,
    Integer,
    Integer64,
    Integer64List,
    IntegerFilter,
    IntegerList,
    Message,
    Parameter,
    PcfError,
    String,
    StringFilter,
    StringList,
)
from pcfserver.codec.model import new_integer as _new_integer
from pcfserver.codec.model import new_message as _new_message
from pcfserver.codec.model import new_string as _new_string
from pcfserver.tables import StructureRow, constants, structures

DEFAULT_MAX_MESSAGE_BYTES = 104_857_600  # MQ's largest message, 100 MB
MAX_GROUP_DEPTH = 32
HEADER_LENGTH = 36
_BIG_36 = b"\x00\x00\x00\x24"
_LITTLE_36 = b"\x24\x00\x00\x00"

MESSAGE_TYPES = frozenset(
    constants().values[name]
    for name in (
        "MQCFT_COMMAND",
        "MQCFT_RESPONSE",
        "MQCFT_EVENT",
        "MQCFT_USER",
        "MQCFT_TRACE_ROUTE",
        "MQCFT_REPORT",
        "MQCFT_COMMAND_XR",
        "MQCFT_XR_MSG",
        "MQCFT_XR_ITEM",
        "MQCFT_XR_SUMMARY",
        "MQCFT_STATISTICS",
        "MQCFT_ACCOUNTING",
        "MQCFT_APP_ACTIVITY",
        "MQCFT_STATUS",
    )
)
OPERATORS = frozenset(v for k, v in constants().values.items() if k.startswith("MQCFOP_"))

_STRUCT_BY_TYPE: dict[int, StructureRow] = {
    row.type: row for row in structures().values() if row.type is not None
}
_T_INTEGER = mq.MQCFT_INTEGER
_T_STRING = mq.MQCFT_STRING
_CFIN_LENGTH = _STRUCT_BY_TYPE[_T_INTEGER].length_reason
_CFST_LENGTH = _STRUCT_BY_TYPE[_T_STRING].length_reason
_CFST_STRING_LENGTH = _STRUCT_BY_TYPE[_T_STRING].count_reason or 0
_CCSID_ERROR = mq.MQRCCF_CCSID_ERROR
_STRUCTURE_TYPE_ERROR = mq.MQRCCF_STRUCTURE_TYPE_ERROR
_MSG_LENGTH_ERROR = mq.MQRCCF_MSG_LENGTH_ERROR
_TOO_BIG = mq.MQRC_MSG_TOO_BIG_FOR_Q


# Interning.  Parameter objects are immutable, and admin traffic repeats the same attribute
# values endlessly, so an MQCFIN or short MQCFST already seen is shared instead of rebuilt:
# a dict hit costs ~60 ns where building a frozen dataclass costs ~500 ns.  Keys are the
# unpacked fields (integers) or (id, CCSID, raw bytes) (strings; per default codec, because
# CCSID 0 means the default).  Bounded: a full cache is emptied, never grown.
_CACHE_LIMIT = 16384
_CACHED_STRING_BYTES = 128
_INTEGERS: dict[tuple[int, ...], Integer] = {}
_STRINGS: dict[str, dict[tuple[int, int, bytes], String]] = {}


def clear_caches() -> None:
    """Forget interned parameters (tests use this to exercise the cold path)."""
    _INTEGERS.clear()
    _STRINGS.clear()


class Incomplete(Exception):
    """More bytes are needed: the message is not malformed, only not all here yet."""

    def __init__(self, need: int) -> None:
        super().__init__(need)
        self.need = need


@dataclass(frozen=True, slots=True)
class _Order:
    """Unpackers of one byte order, made once."""

    name: str
    header: Callable[..., tuple[Any, ...]]
    two: Callable[..., tuple[Any, ...]]
    fixed: dict[int, Callable[..., tuple[Any, ...]]]
    long_array: str
    quad_array: str


def _order(name: str) -> _Order:
    prefix = ">" if name == "big" else "<"
    return _Order(
        name=name,
        header=layouts.fixed_format("MQCFH", name).unpack_from,
        two=struct.Struct(prefix + "ll").unpack_from,
        fixed={t: layouts.fixed_format(row.name, name).unpack_from for t, row in _STRUCT_BY_TYPE.items()},
        long_array=prefix + "%dl",
        quad_array=prefix + "%dq",
    )


_ORDERS = {"big": _order("big"), "little": _order("little")}


class _Options:
    __slots__ = ("default_codec", "max_bytes", "strict", "strings", "warnings")

    def __init__(self, strict: bool, default_ccsid: int, max_bytes: int) -> None:
        self.strict = strict
        codec = codec_for(default_ccsid)
        if codec is None:
            raise ValueError(f"CCSID {default_ccsid} is not one the codec converts")
        self.default_codec = codec
        self.strings = _STRINGS.setdefault(codec, {})
        self.max_bytes = max_bytes
        self.warnings: list[PcfError] = []


def _problem(opts: _Options, error: PcfError) -> None:
    """A rule broken in a way that keeps the framing: strict fails, tolerant records it."""
    if opts.strict:
        raise error
    opts.warnings.append(error)


def _text(opts: _Options, raw: Any, ccsid: int, parameter: int, offset: int) -> str:
    if ccsid == 0 and opts.default_codec == "latin-1":
        return str(raw.decode("latin-1"))  # every byte is a character: cannot fail
    codec = opts.default_codec if ccsid == 0 else codec_for(ccsid)
    if codec is None:
        _problem(opts, PcfError(_CCSID_ERROR, f"CCSID {ccsid} is not supported", parameter_id=parameter, offset=offset))
        codec = "latin-1"
    try:
        return str(raw.decode(codec))
    except UnicodeDecodeError as exc:
        _problem(
            opts,
            PcfError(_CCSID_ERROR, f"bytes not valid in CCSID {ccsid}: {exc.reason}", parameter_id=parameter, offset=offset),
        )
        return str(raw.decode(codec, "replace"))


def _variable_length(row: StructureRow, sl: int, data_bytes: int, count: int, pid: int, p: int) -> None:
    """Checks a variable structure's StrucLength against the data it says it holds."""
    if count < 0:
        raise PcfError(row.count_reason or row.length_reason, f"{row.name} {row.data_field} {count} is negative", parameter_id=pid, offset=p)
    if sl < row.fixed_length or sl % 4:
        raise PcfError(row.length_reason, f"{row.name} StrucLength {sl} is not a multiple of 4 of at least {row.fixed_length}", parameter_id=pid, offset=p)
    if row.data == "quads" and (sl - row.fixed_length) % 8:  # no Count makes it right: the length is wrong
        raise PcfError(row.length_reason, f"{row.name} StrucLength {sl} is not {row.fixed_length} + 8 × Count", parameter_id=pid, offset=p)
    if row.fixed_length + data_bytes > sl:
        reason = row.count_reason if row.data in ("longs", "quads") and row.count_reason else row.length_reason
        raise PcfError(reason, f"{row.name} needs {row.fixed_length + data_bytes} bytes for its data but StrucLength is {sl}", parameter_id=pid, offset=p)
    if row.data in ("longs", "quads") and row.fixed_length + data_bytes != sl:
        raise PcfError(row.length_reason, f"{row.name} StrucLength {sl} does not match Count {count}", parameter_id=pid, offset=p)


def _parameters(
    buf: Any, p: int, end: int, count: int, depth: int, version: int, o: _Order, opts: _Options
) -> tuple[tuple[Parameter, ...], int]:
    items: list[Parameter] = []
    append = items.append
    two = o.two
    fixed = o.fixed
    cfin = fixed[_T_INTEGER]
    cfst = fixed[_T_STRING]
    integers = _INTEGERS
    strings = opts.strings
    for _ in range(count):
        if p + 16 <= end:
            # The MQCFIN unpacker read at any structure gives its Type and StrucLength first (every
            # structure starts so), and for an MQCFIN the whole of it: the integers' cache key.
            quad = cfin(buf, p)
            t = quad[0]
            sl = quad[1]
            if t == _T_INTEGER and sl == 16:
                item = integers.get(quad)
                if item is None:
                    item = _new_integer(quad[2], quad[3])
                    if len(integers) >= _CACHE_LIMIT:
                        integers.clear()
                    integers[quad] = item
                append(item)
                p += 16
                continue
        else:
            if p + 8 > end:
                raise Incomplete(p + 8)
            t, sl = two(buf, p)
        if t == _T_INTEGER:  # an MQCFIN the path above did not take: a wrong length, or not all here
            if sl != 16:
                raise PcfError(_CFIN_LENGTH, f"MQCFIN StrucLength {sl} is not 16", offset=p)
            raise Incomplete(p + 16)
        if t == _T_STRING:  # the other common case, inline
            if p + 20 > end:
                raise Incomplete(p + 20)
            _, _, pid, ccsid, n = cfst(buf, p)
            if n < 0:
                raise PcfError(_CFST_STRING_LENGTH, f"MQCFST StringLength {n} is negative", parameter_id=pid, offset=p)
            if sl < 20 + n or sl % 4:
                raise PcfError(_CFST_LENGTH, f"MQCFST StrucLength {sl} does not hold StringLength {n} in a multiple of 4", parameter_id=pid, offset=p)
            if p + sl > end:
                raise Incomplete(p + sl)
            raw = buf[p + 20 : p + 20 + n]
            if n > _CACHED_STRING_BYTES:
                append(_new_string(pid, _text(opts, raw, ccsid, pid, p), ccsid, n))
            else:
                skey = (pid, ccsid, raw if type(raw) is bytes else bytes(raw))
                text_item = strings.get(skey)
                if text_item is None:
                    seen = len(opts.warnings)
                    text_item = _new_string(pid, _text(opts, raw, ccsid, pid, p), ccsid, n)
                    if len(opts.warnings) == seen:  # only values that decoded cleanly are shared
                        if len(strings) >= _CACHE_LIMIT:
                            strings.clear()
                        strings[skey] = text_item
                append(text_item)
            p += sl
            continue
        row = _STRUCT_BY_TYPE.get(t)
        if row is None:
            error = PcfError(_STRUCTURE_TYPE_ERROR, f"unknown structure type {t}", offset=p)
            if opts.strict or sl < 8 or sl % 4:
                raise error
            if p + sl > end:
                raise Incomplete(p + sl)
            if plausible_header(buf, p, end):  # the next message: this one's ParameterCount is too big
                raise error
            opts.warnings.append(error)  # tolerant: skip it by its StrucLength
            p += sl
            continue
        if version < row.min_version:
            _problem(opts, PcfError(_STRUCTURE_TYPE_ERROR, f"{row.name} needs MQCFH version {row.min_version}, message is version {version}", offset=p))
        if p + row.fixed_length > end:
            raise Incomplete(p + row.fixed_length)
        values = fixed[t](buf, p)
        pid = values[2]
        data = row.data
        if data == "none":
            if sl != row.fixed_length:
                raise PcfError(row.length_reason, f"{row.name} StrucLength {sl} is not {row.fixed_length}", parameter_id=pid, offset=p)
            p += sl
            if t == mq.MQCFT_INTEGER64:
                append(Integer64(pid, values[4]))
            else:  # MQCFIF
                _operator(opts, row, values[3], pid, p - sl)
                append(IntegerFilter(pid, values[3], values[4]))
            continue
        if data == "members":
            if sl != row.fixed_length:
                raise PcfError(row.length_reason, f"MQCFGR StrucLength {sl} is not 16", parameter_id=pid, offset=p)
            members = values[3]
            if members < 0 or members > (opts.max_bytes // 16):
                raise PcfError(row.count_reason or row.length_reason, f"MQCFGR ParameterCount {members} is impossible", parameter_id=pid, offset=p)
            if depth >= MAX_GROUP_DEPTH:
                raise PcfError(row.count_reason or row.length_reason, f"groups nested deeper than {MAX_GROUP_DEPTH}", parameter_id=pid, offset=p)
            inner, p = _parameters(buf, p + 16, end, members, depth + 1, version, o, opts)
            append(Group(pid, inner))
            continue
        start = p + row.fixed_length
        if data == "longs" or data == "quads":
            n = values[3]
            width = 4 if data == "longs" else 8
            _variable_length(row, sl, width * max(n, 0), n, pid, p)
            if p + sl > end:
                raise Incomplete(p + sl)
            ints = struct.unpack_from((o.long_array if width == 4 else o.quad_array) % n, buf, start)
            append(IntegerList(pid, ints) if width == 4 else Integer64List(pid, ints))
        elif data == "strings":
            ccsid, n, each = values[3], values[4], values[5]
            if each < 0:
                raise PcfError(mq.MQRCCF_CFSL_STRING_LENGTH_ERR, f"MQCFSL StringLength {each} is negative", parameter_id=pid, offset=p)
            _variable_length(row, sl, max(n, 0) * each, n, pid, p)
            if n > sl:  # zero-length strings take no bytes: without this, 60 bytes could claim 100 million of them
                raise PcfError(row.count_reason or row.length_reason, f"MQCFSL Count {n} is more strings than its {sl} bytes can hold", parameter_id=pid, offset=p)
            if p + sl > end:
                raise Incomplete(p + sl)
            texts = tuple(
                _text(opts, buf[start + i * each : start + (i + 1) * each], ccsid, pid, p) for i in range(n)
            )
            append(StringList(pid, texts, ccsid, each))
        else:  # one string or byte string, possibly a filter
            n = values[-1]
            _variable_length(row, sl, max(n, 0), n, pid, p)
            if p + sl > end:
                raise Incomplete(p + sl)
            raw = buf[start : start + n]
            if t == mq.MQCFT_BYTE_STRING:
                append(ByteString(pid, bytes(raw)))
            elif t == mq.MQCFT_STRING_FILTER:
                _operator(opts, row, values[3], pid, p)
                append(StringFilter(pid, values[3], _text(opts, raw, values[4], pid, p), values[4]))
            else:  # MQCFBF
                _operator(opts, row, values[3], pid, p)
                append(ByteStringFilter(pid, values[3], bytes(raw)))
        p += sl
    return tuple(items), p


def _operator(opts: _Options, row: StructureRow, operator: int, pid: int, p: int) -> None:
    if operator not in OPERATORS:
        _problem(opts, PcfError(row.operator_reason or _STRUCTURE_TYPE_ERROR, f"{row.name} Operator {operator} is not an MQCFOP value", parameter_id=pid, offset=p))


def byte_order_at(buf: Any, pos: int) -> str | None:
    """The byte order MQCFH.StrucLength shows at ``pos``, or None when it is not 36 either way."""
    field = bytes(buf[pos + 4 : pos + 8])
    if field == _BIG_36:
        return "big"
    if field == _LITTLE_36:
        return "little"
    return None


def decode_at(buf: Any, pos: int, end: int, opts: _Options, base: int = 0) -> tuple[Message, int]:
    """One message starting at ``pos``; raises Incomplete or PcfError (offsets relative to ``buf``)."""
    if pos + HEADER_LENGTH > end:
        raise Incomplete(pos + HEADER_LENGTH)
    order = byte_order_at(buf, pos)
    if order is None:
        raise PcfError(mq.MQRCCF_CFH_LENGTH_ERROR, "MQCFH StrucLength is not 36 in either byte order", offset=pos + 4)
    o = _ORDERS[order]
    mtype, sl, version, command, seq, control, comp, reason, count = o.header(buf, pos)
    if count < 0 or count > (opts.max_bytes - HEADER_LENGTH) // 16:
        raise PcfError(mq.MQRCCF_CFH_PARM_COUNT_ERROR, f"ParameterCount {count} is impossible", offset=pos + 32)
    opts.warnings = []
    if mtype not in MESSAGE_TYPES:
        _problem(opts, PcfError(mq.MQRCCF_CFH_TYPE_ERROR, f"MQCFH Type {mtype} is not a message type", offset=pos))
    if not 1 <= version <= 3:
        _problem(opts, PcfError(mq.MQRCCF_CFH_VERSION_ERROR, f"MQCFH Version {version} is not 1, 2 or 3", offset=pos + 8))
    if seq < 1:
        _problem(opts, PcfError(mq.MQRCCF_CFH_MSG_SEQ_NUMBER_ERR, f"MsgSeqNumber {seq} is below 1", offset=pos + 16))
    if control not in (0, 1):
        _problem(opts, PcfError(mq.MQRCCF_CFH_CONTROL_ERROR, f"Control {control} is neither MQCFC_LAST nor MQCFC_NOT_LAST", offset=pos + 20))
    params, p = _parameters(buf, pos + HEADER_LENGTH, end, count, 0, version, o, opts)
    message = _new_message(
        command,
        params,
        mtype,
        version,
        seq,
        control,
        comp,
        reason,
        order,
        base + pos,
        p - pos,
        sl,
        count,
        None,
        tuple(w.at(base) for w in opts.warnings) if opts.warnings else (),
    )
    return message, p


def plausible_header(buf: Any, pos: int, end: int) -> bool | None:
    """Whether an MQCFH could start at ``pos``; None when too few bytes are here to tell."""
    if pos + HEADER_LENGTH > end:
        return None
    order = byte_order_at(buf, pos)
    if order is None:
        return False
    mtype, _, version, command, seq, control, comp, _, count = _ORDERS[order].header(buf, pos)
    return (
        mtype in MESSAGE_TYPES
        and 1 <= version <= 3
        and 0 <= command < 1_000_000
        and seq >= 1
        and control in (0, 1)
        and 0 <= comp <= 2
        and 0 <= count <= 1_000_000
    )


RESYNC_WINDOW = 65536  # bytes after a resynchronisation point that decide it
_FAILS = 100  # framing cost of a message that cannot be decoded
_UNFINISHED = 50  # framing cost of a message that runs past the window


def find_header(buf: Any, start: int, end: int) -> int | None:
    """The first position after ``start`` where a plausible MQCFH starts, or None.

    A position too close to ``end`` to judge is returned as a candidate: the caller waits.

    Byte order makes headers ambiguous: a big-endian MQCFH whose fields are below 256 reads
    as a plausible little-endian one 3 bytes later (each field then reads as its low byte),
    and a little-endian one after three zero bytes as a big-endian one 3 bytes earlier.  So
    the little-endian twin of the big-endian header at ``start`` (the message that failed)
    is taken only when its own first message decodes, and of a big-endian candidate and its
    little-endian twin the one whose framing holds up better over the next messages.
    """
    shadow = start + 3 if byte_order_at(buf, start) == "big" else -1  # judged here, passed over below
    if shadow > 0 and byte_order_at(buf, shadow) == "little" and plausible_header(buf, shadow, end):
        if _framing_costs(buf, shadow, end)[0] < _UNFINISHED:
            return shadow  # the failed big-endian reading was the misreading
    search = start + 5
    while True:
        hits: list[int] = [i for i in (buf.find(_BIG_36, search, end), buf.find(_LITTLE_36, search, end)) if i >= 0]
        if not hits:
            return None
        candidate = min(hits) - 4
        if candidate != shadow:
            verdict = plausible_header(buf, candidate, end)
            if verdict is None:
                return candidate
            if verdict:
                return _untwinned(buf, candidate, end)
        search = candidate + 5


def _untwinned(buf: Any, candidate: int, end: int) -> int:
    """``candidate`` or, when it is big-endian and its little-endian twin 3 bytes on is
    plausible too, the twin if the twin's framing decodes the next messages better."""
    twin = candidate + 3
    if byte_order_at(buf, candidate) != "big" or byte_order_at(buf, twin) != "little" or not plausible_header(buf, twin, end):
        return candidate
    return twin if _framing_costs(buf, twin, end, candidate) < _framing_costs(buf, candidate, end) else candidate


def _framing_costs(buf: Any, pos: int, end: int, window_from: int | None = None) -> tuple[int, ...]:
    """Per message decoded from ``pos`` (up to 8) within the window of RESYNC_WINDOW bytes from
    ``window_from`` (default ``pos``): its warnings, or _FAILS for one that cannot be decoded
    (or runs past the end of the input), or _UNFINISHED for one that runs past the window;
    either ends the list."""
    limit = min(end, (pos if window_from is None else window_from) + RESYNC_WINDOW)
    opts = _Options(False, DEFAULT_CCSID, DEFAULT_MAX_MESSAGE_BYTES)
    costs: list[int] = []
    while pos < limit and len(costs) < 8:
        try:
            message, pos = decode_at(buf, pos, limit, opts)
        except Incomplete:
            costs.append(_UNFINISHED if limit < end else _FAILS)
            break
        except PcfError:
            costs.append(_FAILS)
            break
        costs.append(min(len(message.warnings), _UNFINISHED - 1))
    return tuple(costs)


class StreamDecoder:
    """Sans-IO, incremental PCF decoder: ``feed(data)``, then take the complete messages.

    ``next_message()`` returns the next complete message or None when the next one is not all
    here (incomplete).  A malformed message raises PcfError in strict mode, after which the
    framing is lost and every later call raises the same error; in tolerant mode it becomes a
    Message whose ``error`` is set, and decoding resumes at the next plausible MQCFH.
    ``close()`` says the input has ended and returns what remains.

    ``resync`` (default: ``not strict``) says whether lost framing is skipped over.  A server
    uses ``strict=False, resync=False``: rule violations that keep the framing (an MQCFH Type
    or Version a command may not have, an unknown structure with a sound length) come back in
    the message's ``warnings`` so the command can be answered and the connection go on, while
    lost framing raises as in strict mode.
    """

    def __init__(
        self,
        *,
        strict: bool = True,
        default_ccsid: int = DEFAULT_CCSID,
        max_message_bytes: int = DEFAULT_MAX_MESSAGE_BYTES,
        resync: bool | None = None,
    ) -> None:
        self._opts = _Options(strict, default_ccsid, max_message_bytes)
        self._resync = (not strict) if resync is None else resync
        self._buf: bytes | bytearray = b""
        self._pos = 0
        self._base = 0
        self._need = 0
        self._closed = False
        self._failed: PcfError | None = None

    @property
    def offset(self) -> int:
        """Stream offset of the first byte not yet returned as part of a message."""
        return self._base + self._pos

    @property
    def buffered(self) -> int:
        """Bytes received but not yet returned in a message."""
        return len(self._buf) - self._pos

    @property
    def failed(self) -> PcfError | None:
        return self._failed

    def feed(self, data: bytes | bytearray | memoryview) -> None:
        if self._closed:
            raise RuntimeError("feed() after close()")
        if not data:
            return
        if self._pos == len(self._buf):
            self._base += len(self._buf)
            self._buf = bytes(data)
            self._pos = 0
            self._need = 0
            return
        if self._pos > 65536 or not isinstance(self._buf, bytearray):
            rest = bytearray(memoryview(self._buf)[self._pos :])
            self._base += self._pos
            self._need = max(0, self._need - self._pos)
            self._pos = 0
            self._buf = rest
        assert isinstance(self._buf, bytearray)
        self._buf += data

    def next_message(self) -> Message | None:
        if self._failed is not None:
            raise self._failed
        buf, pos, end = self._buf, self._pos, len(self._buf)
        if pos >= end or end < self._need:
            return None
        opts = self._opts
        try:
            message, after = decode_at(buf, pos, end, opts, self._base)
        except Incomplete as incomplete:
            if incomplete.need - pos > opts.max_bytes:
                return self._malformed(PcfError(_TOO_BIG, f"message longer than the {opts.max_bytes}-byte limit", offset=pos))
            if self._closed:
                return self._cut_short()
            self._need = incomplete.need
            return None
        except PcfError as error:
            return self._malformed(error)
        self._pos = after
        self._need = 0
        return message

    def _cut_short(self) -> Message:
        """After the end of the input: the message the input ends inside, as an error span up
        to the next plausible MQCFH (decoding resumes there, so a structure whose StrucLength
        runs past the end hides only its own message)."""
        error = PcfError(_MSG_LENGTH_ERROR, f"stream ends {len(self._buf) - self._pos} bytes into an incomplete message", offset=self._base + self._pos)
        if not self._resync:
            self._failed = error
            raise error
        resume = find_header(self._buf, self._pos, len(self._buf))
        return self._error_span(error, len(self._buf) if resume is None else resume)

    def _malformed(self, error: PcfError) -> Message | None:
        error = error.at(self._base)
        if not self._resync:
            self._failed = error
            raise error
        buf, pos, end = self._buf, self._pos, len(self._buf)
        resume = find_header(buf, pos, end)
        if resume is not None and not self._closed and end <= resume + RESYNC_WINDOW:
            # wait: the bytes after the next header decide it, as when all are here (more than the
            # window, since a window that ends at the last byte reads as the end of the input)
            self._need = resume + RESYNC_WINDOW + 1
            return None
        if resume is None:
            if not self._closed and end <= pos + 3 + RESYNC_WINDOW:
                self._need = pos + 4 + RESYNC_WINDOW
                return None  # wait: the next header, or what decides the failed one's twin, may still be arriving
            resume = end if self._closed else max(pos + 1, end - HEADER_LENGTH)
        return self._error_span(error, resume)

    def _error_span(self, error: PcfError, resume: int) -> Message:
        buf, pos = self._buf, self._pos
        fields = [0, 0, 0, 0, 0, 0, 0, 0, 0]
        order = byte_order_at(buf, pos) if resume - pos >= HEADER_LENGTH else None
        if order is not None:
            fields = list(_ORDERS[order].header(buf, pos))
        message = Message(
            command=fields[3],
            type=fields[0],
            version=fields[2],
            msg_seq_number=fields[4],
            control=fields[5],
            comp_code=fields[6],
            reason=fields[7],
            byte_order=order or "big",
            offset=self._base + pos,
            length=resume - pos,
            struc_length=fields[1],
            parameter_count=fields[8],
            error=error,
        )
        self._pos = resume
        self._need = 0
        return message

    def peek(self, size: int) -> bytes:
        """Up to ``size`` bytes from the start of the message being decoded (for error answers)."""
        return bytes(self._buf[self._pos : self._pos + size])

    def malformed(self) -> Message | None:
        """After a strict failure: the undecodable rest of the buffer as a message with ``error`` set."""
        if self._failed is None or self._pos >= len(self._buf):
            return None
        return self._error_span(self._failed, len(self._buf))

    def messages(self) -> list[Message]:
        """Every complete message now available."""
        out: list[Message] = []
        while (message := self.next_message()) is not None:
            out.append(message)
        return out

    def end(self) -> None:
        """Says the input has ended, without decoding anything yet: from now on
        ``next_message()`` decides with the bytes that are here, and a message the input ends
        inside comes back as an error span (raises, without ``resync``)."""
        self._closed = True
        self._need = 0  # what was waited for will not come

    def seek(self, offset: int) -> None:
        """Goes on decoding at stream ``offset``, between :attr:`offset` and the end of the bytes
        fed: for a caller that framed the messages before ``offset`` itself (the pipeline's
        column scanner hands the decoder only the messages it does not take whole)."""
        position = offset - self._base
        if not self._pos <= position <= len(self._buf):
            raise ValueError(f"offset {offset} is outside the undecoded bytes {self.offset}-{self._base + len(self._buf)}")
        if self._failed is not None:
            raise self._failed
        self._pos = position
        self._need = 0

    def close(self) -> list[Message]:
        """The input has ended: the remaining messages; a message the input ends inside is an error.

        Resynchronising, decoding goes on at the next plausible MQCFH after such a message, so a
        structure whose StrucLength runs past the end hides only its own message.
        """
        self.end()
        return self.messages()


def decode(data: bytes | bytearray | memoryview, *, strict: bool = True, default_ccsid: int = DEFAULT_CCSID) -> list[Message]:
    """Every message of a stream.  Strict: raises PcfError at the first malformed message.

    Tolerant: malformed spans come back as messages with ``error`` set, and the lengths of
    all returned messages add up to the length of the input.
    """
    if strict:
        opts = _Options(True, default_ccsid, max(DEFAULT_MAX_MESSAGE_BYTES, len(data)))
        buf = data if isinstance(data, (bytes, bytearray)) else bytes(data)
        out: list[Message] = []
        pos, end = 0, len(buf)
        while pos < end:
            try:
                message, pos = decode_at(buf, pos, end, opts)
            except Incomplete as incomplete:
                if incomplete.need - pos > opts.max_bytes:  # as StreamDecoder and tolerant decode() say
                    raise PcfError(_TOO_BIG, f"message longer than the {opts.max_bytes}-byte limit", offset=pos) from None
                raise PcfError(_MSG_LENGTH_ERROR, f"stream ends {end - pos} bytes into an incomplete message", offset=pos) from None
            out.append(message)
        return out
    decoder = StreamDecoder(strict=False, default_ccsid=default_ccsid, max_message_bytes=max(DEFAULT_MAX_MESSAGE_BYTES, len(data)))
    decoder.feed(data)
    return decoder.close()
