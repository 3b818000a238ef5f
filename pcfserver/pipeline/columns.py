"""Rows straight from the bytes: the pipeline's decode, without a ``Message`` per message.

:func:`decode_file` gives exactly the rows ``rows.RowBuffer`` builds from the codec's tolerant
decode (the tests compare the two on every kind of input), about four times as fast (decode,
rows and Arrow batches of 3,000,000 messages: 14 s against 58 s), by splitting the work in two:

* a **scanner**, a plain Python loop, walks the structures of each message by their Type and
  StrucLength, checks every rule the codec checks and decodes the strings (latin-1, ASCII and UTF-8
  directly; code pages such as EBCDIC through a cache, admin traffic repeating its queue names
  and descriptions endlessly) and remembers where each message and parameter starts.  It takes
  a message when the codec would decode it whole, with no warning: every structure the codec
  knows (MQCFIN, MQCFST, MQCFIL, MQCFSL, MQCFBS, MQCFIF, MQCFSF, MQCFBF, MQCFIN64, MQCFIL64 and
  MQCFGR groups, nested, whose members name their group by its index in the message);
* a **column builder** then reads every number (header fields, parameter ids, integer values,
  64-bit values, list elements) from the bytes with numpy, for thousands of messages at once, in
  each message's own byte order, and assembles the Arrow arrays from them.

Anything else (a message with a warning, a span that does not decode, the end of a file cut
short) goes to the codec's own ``StreamDecoder``, positioned at that message with ``seek``, and
through ``rows.RowBuffer``; the scanner goes on after what the decoder took, and the codec's rows
join the scanner's in the same batch, in file order (issue 21: a batch per run of them made
interleaved traffic 0.13x the bare decode).  So the codec stays the one definition of what
decodes and how, and every byte is still accounted for.

Why the scanner does not also serve as the codec's walk (or the codec as the scanner's): see
"One walker of the bytes" in this package's README.
"""

from __future__ import annotations

import struct
import time
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc

from pcfserver import mq
from pcfserver.codec import PcfError, StreamDecoder
from pcfserver.codec.ccsid import DEFAULT_CCSID, codec_for
from pcfserver.codec.decoder import DEFAULT_MAX_MESSAGE_BYTES, HEADER_LENGTH, MAX_GROUP_DEPTH, MESSAGE_TYPES, OPERATORS
from pcfserver.pipeline import rows
from pcfserver.tables import ccsid_codecs, structures

_STRUCTS = {row.type: row for row in structures().values() if row.type is not None}
_IN, _ST, _IL, _SL, _BS, _IF, _SF = (
    mq.MQCFT_INTEGER,
    mq.MQCFT_STRING,
    mq.MQCFT_INTEGER_LIST,
    mq.MQCFT_STRING_LIST,
    mq.MQCFT_BYTE_STRING,
    mq.MQCFT_INTEGER_FILTER,
    mq.MQCFT_STRING_FILTER,
)
_GR, _IN64, _IL64, _BF = mq.MQCFT_GROUP, mq.MQCFT_INTEGER64, mq.MQCFT_INTEGER64_LIST, mq.MQCFT_BYTE_STRING_FILTER
_TYPE_NAMES = {t: _STRUCTS[t].name for t in (_IN, _ST, _IL, _SL, _BS, _IF, _SF, _GR, _IN64, _IL64, _BF)}
assert set(_TYPE_NAMES) == set(_STRUCTS), "the scanner reads every structure the codec knows"
_MIN_VERSION = {t: _STRUCTS[t].min_version for t in _TYPE_NAMES}
_FIXED = {t: _STRUCTS[t].fixed_length for t in _TYPE_NAMES}
assert _FIXED == {_IN: 16, _ST: 20, _IL: 16, _SL: 24, _BS: 16, _IF: 20, _SF: 24, _GR: 16, _IN64: 24, _IL64: 16, _BF: 20}, (
    "the scanner reads these layouts"
)
assert all(version == 1 for t, version in _MIN_VERSION.items() if t in (_IN, _ST, _IL, _SL, _GR, _IN64, _IL64)), (
    "the scanner checks versions for the others only"
)
assert _MIN_VERSION[_IF] == _MIN_VERSION[_SF] == _MIN_VERSION[_BF], "filters share one version"
_BS_VERSION, _FILTER_VERSION = _MIN_VERSION[_BS], _MIN_VERSION[_IF]
_LITTLE_36 = 0x24000000  # StrucLength 36 of a little-endian MQCFH, read big-endian
_PAD = 40  # zero bytes after the data: the scanner and the gathers read a whole header or structure head anywhere
_CACHE_LIMIT = 65536
_CACHED_BYTES = 128

_BIG_ONE = struct.Struct(">l").unpack_from
_HEADERS = {True: struct.Struct(">9l").unpack_from, False: struct.Struct("<9l").unpack_from}
_SIX = {True: struct.Struct(">6l").unpack_from, False: struct.Struct("<6l").unpack_from}
_FOUR = {True: struct.Struct(">4l").unpack_from, False: struct.Struct("<4l").unpack_from}

_DIRECT = frozenset({"latin-1", "ascii", "utf-8"})
_STRINGS: dict[tuple[int, bytes], str] = {}
"""Decoded strings by (CCSID, bytes); only strings that decoded cleanly, bounded by _CACHE_LIMIT."""


def _text(ccsid: int, raw: bytes, default: str) -> str | None:
    """The string the codec makes of ``raw`` in ``ccsid``, or None where it would warn."""
    key = (ccsid, raw)
    text = _STRINGS.get(key)
    if text is None:
        codec = default if ccsid == 0 else codec_for(ccsid)
        if codec is None:
            return None
        try:
            text = raw.decode(codec)
        except UnicodeDecodeError:
            return None
        if len(raw) <= _CACHED_BYTES:
            if len(_STRINGS) >= _CACHE_LIMIT:
                _STRINGS.clear()
            _STRINGS[key] = text
    return text


class _Scan:
    """What the scanner found for one batch of messages it takes whole: positions, and the
    values that are Python objects anyway (strings, byte strings)."""

    __slots__ = (
        "bytes_values", "counts", "ends", "list_strings", "member_at", "member_parent", "orders", "params", "pending",
        "starts", "strings",
    )  # fmt: skip

    def __init__(self) -> None:
        self.starts: list[int] = []
        self.ends: list[int] = []
        self.orders: list[bool] = []  # big-endian?
        self.counts: list[int] = []  # entries per message: its parameters, groups' members included
        self.params: list[int] = []  # where each entry starts, depth first
        self.member_at: list[int] = []  # entries inside a group: their index in ``params``...
        self.member_parent: list[int] = []  # ... and their group's index within their own message
        self.strings: list[str] = []  # MQCFST and MQCFSF values, in parameter order
        self.list_strings: list[str] = []  # MQCFSL elements, in order
        self.bytes_values: list[bytes] = []  # MQCFBS and MQCFBF values, in order
        self.pending: tuple[int, int, int, int] | None = None  # list lengths before the message being scanned

    def truncate(self, marks: tuple[int, int, int, int]) -> None:
        """Forgets what was gathered of a message not taken after all."""
        del self.params[marks[0] :], self.strings[marks[1] :], self.list_strings[marks[2] :], self.bytes_values[marks[3] :]
        member_at = self.member_at
        while member_at and member_at[-1] >= marks[0]:
            member_at.pop()
            self.member_parent.pop()


class _Scanner:
    """Walks one file's bytes; see the module's docstring."""

    def __init__(self, data: bytes, default_ccsid: int = DEFAULT_CCSID) -> None:
        self.end = len(data)
        self.data = data + bytes(_PAD)
        self.max_count = (max(DEFAULT_MAX_MESSAGE_BYTES, self.end) - HEADER_LENGTH) // 16
        default = codec_for(default_ccsid)
        assert default is not None
        self.default = default
        # CCSIDs whose codec (a C decoder) is faster than a cache lookup: decoded directly
        self.direct = {ccsid: codec for ccsid, codec in ccsid_codecs().items() if codec in _DIRECT}
        if default in _DIRECT:
            self.direct[0] = default

    def walk(self, pos: int, scan: _Scan, limit: int) -> int:
        """Takes messages from ``pos`` until ``scan`` holds ``limit`` or the next message is not
        one it takes whole; returns where it stopped.  Should it raise, ``scan`` holds the
        messages it took whole and nothing of the one it was scanning."""
        try:
            return self._walk(pos, scan, limit)
        except BaseException:
            if scan.pending is not None:
                scan.truncate(scan.pending)
            raise

    def _walk(self, pos: int, scan: _Scan, limit: int) -> int:
        data, end, max_count, default = self.data, self.end, self.max_count, self.default
        starts, ends, orders, params, counts = scan.starts, scan.ends, scan.orders, scan.params, scan.counts
        strings, list_strings, bytes_values = scan.strings, scan.list_strings, scan.bytes_values
        member_at, member_parent = scan.member_at, scan.member_parent
        types, operators, text, known, direct = MESSAGE_TYPES, OPERATORS, _text, _STRINGS.get, self.direct.get
        room = limit - len(starts)
        value: str | None
        while pos < end and room > 0:
            if pos + HEADER_LENGTH > end:
                return pos
            length = _BIG_ONE(data, pos + 4)[0]
            if length == HEADER_LENGTH:
                big = True
            elif length == _LITTLE_36:
                big = False
            else:
                return pos
            mtype, _, version, _, seq, control, _, _, count = _HEADERS[big](data, pos)
            if mtype not in types or not 1 <= version <= 3 or seq < 1 or (control != 0 and control != 1):
                return pos  # the codec warns
            if count < 0 or count > max_count or pos + HEADER_LENGTH + 16 * count > end:
                return pos
            six = _SIX[big]
            first = len(params)
            marks = (first, len(strings), len(list_strings), len(bytes_values))
            scan.pending = marks
            p = pos + HEADER_LENGTH
            todo = count  # structures to read: the message's own, then the members of its groups (which follow them)
            taken, grouped = True, False
            while todo:
                n, todo = todo, 0
                for _ in range(n):
                    t, sl, _, a, b, c = six(data, p)
                    if t == _IN:
                        if sl != 16 or p + 16 > end:
                            taken = False
                            break
                    elif t == _ST:  # a = CCSID, b = StringLength
                        if b < 0 or sl < 20 + b or sl & 3 or p + sl > end:
                            taken = False
                            break
                        raw = data[p + 20 : p + 20 + b]
                        codec = direct(a)
                        if codec is not None:
                            try:
                                value = raw.decode(codec)
                            except UnicodeDecodeError:
                                taken = False
                                break
                        else:
                            value = known((a, raw)) or text(a, raw, default)
                            if value is None:
                                taken = False
                                break
                        strings.append(value)
                    elif t == _IL:  # a = Count
                        if a < 0 or sl != 16 + 4 * a or p + sl > end:
                            taken = False
                            break
                    elif t == _SL:  # a = CCSID, b = Count, c = StringLength
                        if c < 0 or b < 0 or sl < 24 or sl & 3 or b > sl or 24 + b * c > sl or p + sl > end:
                            taken = False
                            break
                        start = p + 24
                        for i in range(b):
                            value = text(a, data[start + i * c : start + (i + 1) * c], default)
                            if value is None:
                                taken = False
                                break
                            list_strings.append(value)
                        if not taken:
                            break
                    elif t == _BS:  # a = StringLength
                        if version < _BS_VERSION or a < 0 or sl < 16 + a or sl & 3 or p + sl > end:
                            taken = False
                            break
                        bytes_values.append(data[p + 16 : p + 16 + a])
                    elif t == _IF:  # a = Operator, b = value
                        if version < _FILTER_VERSION or sl != 20 or p + 20 > end or a not in operators:
                            taken = False
                            break
                    elif t == _SF:  # a = Operator, b = CCSID, c = FilterValueLength
                        if version < _FILTER_VERSION or c < 0 or sl < 24 + c or sl & 3 or p + sl > end or a not in operators:
                            taken = False
                            break
                        raw = data[p + 24 : p + 24 + c]
                        value = known((b, raw)) or text(b, raw, default)
                        if value is None:
                            taken = False
                            break
                        strings.append(value)
                    elif t == _GR:  # a = ParameterCount: a structures more to read (its members, which follow it)
                        if sl != 16 or a < 0 or p + 16 + 16 * a > end:
                            taken = False
                            break
                        todo += a
                        grouped = True
                    elif t == _IN64:  # the value is at +16
                        if sl != 24 or p + 24 > end:
                            taken = False
                            break
                    elif t == _IL64:  # a = Count
                        if a < 0 or sl != 16 + 8 * a or p + sl > end:
                            taken = False
                            break
                    elif t == _BF:  # a = Operator, b = FilterValueLength
                        if version < _FILTER_VERSION or b < 0 or sl < 20 + b or sl & 3 or p + sl > end or a not in operators:
                            taken = False
                            break
                        bytes_values.append(data[p + 20 : p + 20 + b])
                    else:
                        taken = False
                        break
                    params.append(p)
                    p += sl
                if not taken:
                    break
            if taken and grouped:
                taken = _members(data, big, params, first, member_at, member_parent)
            if not taken:
                scan.truncate(marks)
                scan.pending = None
                return pos
            scan.pending = None
            starts.append(pos)
            ends.append(p)
            orders.append(big)
            counts.append(len(params) - first)
            room -= 1
            pos = p
        return pos


def _members(data: bytes, big: bool, params: list[int], first: int, member_at: list[int], member_parent: list[int]) -> bool:
    """For a message whose entries from ``params[first]`` hold groups: records each member's
    group (its index within the message); False when groups nest deeper than the codec allows."""
    quad = _FOUR[big]
    groups: list[list[int]] = []  # per open group: [members still to come, its index in the message]
    for index in range(len(params) - first):
        if groups:
            member_at.append(first + index)
            member_parent.append(groups[-1][1])
            groups[-1][0] -= 1
        t, _, _, a = quad(data, params[first + index])
        if t == _GR:
            if len(groups) >= MAX_GROUP_DEPTH:
                return False
            if a:  # open until its last member (and that member's own members) is read
                groups.append([a, index])
                continue
        while groups and not groups[-1][0]:
            groups.pop()
    return True


# -- columns ---------------------------------------------------------------------------------

_NAMES: dict[int, Any] = {}
"""Per structure type: parameter id -> name (the pipeline's row names, as rows._parameter_name)."""


def _lookup(values: Any, name_of: Callable[[int], str | None]) -> Any:
    """A string array of ``name_of`` each value (few distinct values: one call each)."""
    encoded = pa.array(values, pa.int64()).dictionary_encode()
    return pa.array([name_of(v) for v in encoded.dictionary.to_pylist()], pa.string()).take(encoded.indices)


class _Windows:
    """Views of a file's (padded) bytes as the 4, 8, 24 and 36 bytes from each position: indexing
    one with positions copies those bytes, several times faster than computed byte indices."""

    __slots__ = ("headers", "heads", "quads", "words")

    def __init__(self, data: bytes) -> None:
        raw = np.frombuffer(data, dtype=np.uint8)
        window = np.lib.stride_tricks.sliding_window_view
        self.words, self.quads, self.heads, self.headers = window(raw, 4), window(raw, 8), window(raw, 24), window(raw, HEADER_LENGTH)


def _firsts(owner: Any, chosen: Any) -> Any:
    """Of parameter indices ``chosen`` (ascending), the first of each message."""
    if not len(chosen):
        return chosen
    owners = owner[chosen]
    return chosen[np.flatnonzero(np.diff(owners, prepend=-1))]


def _int32s(raw: Any, positions: Any, big: Any) -> Any:
    """The 32-bit integers at ``positions`` of ``raw``, each in its own byte order."""
    gathered = raw.words[positions]
    return np.where(big, gathered.view(">i4")[:, 0], gathered.view("<i4")[:, 0]).astype(np.int64)


def _int64s(raw: Any, positions: Any, big: Any) -> Any:
    """The 64-bit integers at ``positions`` of ``raw``, each in its own byte order."""
    gathered = raw.quads[positions]
    return np.where(big, gathered.view(">i8")[:, 0], gathered.view("<i8")[:, 0]).astype(np.int64)


def _spread(values: Any, where: Any, count: int) -> Any:
    """An array of ``count`` entries: ``values`` in order where ``where`` is set, nulls elsewhere."""
    index = np.cumsum(where) - 1
    return values.take(pa.array(index, pa.int64(), mask=~where))


def _masked(values: Any, where: Any, arrow_type: Any) -> Any:
    return pa.array(values, arrow_type, mask=~where)


def _string_list(values: list[str], counts: Any) -> Any:
    offsets = np.zeros(len(counts) + 1, dtype=np.int32)
    np.cumsum(counts, out=offsets[1:])
    return pa.ListArray.from_arrays(pa.array(offsets), pa.array(values, pa.string()))


def _build(source_file: str, raw: Any, scan: _Scan) -> Any:
    """The MESSAGE_SCHEMA batch of the messages in ``scan``."""
    starts = np.array(scan.starts, dtype=np.int64)
    ends = np.array(scan.ends, dtype=np.int64)
    big = np.array(scan.orders, dtype=bool)
    m = len(starts)
    header = raw.headers[starts]
    fields = np.where(big[:, None], header.view(">i4"), header.view("<i4")).astype(np.int64)
    counts = np.array(scan.counts, dtype=np.int64)

    positions = np.array(scan.params, dtype=np.int64)
    k = len(positions)
    owner = np.repeat(np.arange(m), counts)
    param_big = big[owner]
    head = raw.heads[positions]
    values = np.where(param_big[:, None], head.view(">i4"), head.view("<i4")).astype(np.int64)
    kinds, pids, a, b = values[:, 0], values[:, 2], values[:, 3], values[:, 4]
    if scan.member_at:
        parent = np.full(k, -1, dtype=np.int64)
        parent[np.array(scan.member_at, dtype=np.int64)] = scan.member_parent
        top = parent < 0
        parents = _masked(parent, ~top, pa.int32())
    else:
        top = np.ones(k, dtype=bool)
        parents = pa.nulls(k, pa.int32())

    is_in, is_st, is_il, is_sl = kinds == _IN, kinds == _ST, kinds == _IL, kinds == _SL
    is_bs, is_if, is_sf = kinds == _BS, kinds == _IF, kinds == _SF
    is_gr, is_in64, is_il64, is_bf = kinds == _GR, kinds == _IN64, kinds == _IL64, kinds == _BF

    # parameter names, per (structure, id), as rows._parameter_name gives them
    keyed = kinds * (1 << 32) + (pids & 0xFFFFFFFF)
    parameter_names = _lookup(keyed, lambda key: rows.parameter_name(_TYPE_NAMES[key >> 32], _signed(key & 0xFFFFFFFF)))
    type_names = _lookup(kinds, lambda t: _TYPE_NAMES[t])

    # int_value: MQCFIN's Value (+12), MQCFIF's (+16), MQCFGR's ParameterCount (+12), MQCFIN64's (+16, 8 bytes)
    ints = np.where(is_if, b, a)
    if is_in64.any():
        wide = np.flatnonzero(is_in64)
        ints[wide] = _int64s(raw, positions[wide] + 16, param_big[wide])
    int_value = _masked(ints, is_in | is_if | is_gr | is_in64, pa.int64())
    text_values = pa.array(scan.strings, pa.string())
    has_text = is_st | is_sf
    string_value = _spread(text_values, has_text, k)

    # MQCFIL and MQCFIL64 elements: Count at +12, values from +16 (4 or 8 bytes), in the list's byte order
    is_list = is_il | is_il64
    list_counts = np.where(is_list, a, 0)
    element_owner = np.repeat(np.arange(k), list_counts)
    element_first = np.zeros(k + 1, dtype=np.int64)
    np.cumsum(list_counts, out=element_first[1:])
    element_index = np.arange(len(element_owner)) - element_first[element_owner]
    element_big = param_big[element_owner]
    if is_il64.any():
        element_wide = is_il64[element_owner]
        element_positions = positions[element_owner] + 16 + np.where(element_wide, 8, 4) * element_index
        elements = _int32s(raw, element_positions, element_big)
        wide = np.flatnonzero(element_wide)
        elements[wide] = _int64s(raw, element_positions[wide], element_big[wide])
    else:
        element_positions = positions[element_owner] + 16 + 4 * element_index
        elements = _int32s(raw, element_positions, element_big)
    int_values = pa.ListArray.from_arrays(
        pa.array(element_first.astype(np.int32), mask=np.append(~is_list, False)), pa.array(elements, pa.int64())
    )

    string_values = (
        _spread(_string_list(scan.list_strings, b[is_sl]), is_sl, k)
        if is_sl.any()
        else pa.nulls(k, rows.PARAMETER_TYPE.field("string_values").type)
    )
    has_bytes = is_bs | is_bf
    bytes_value = _spread(pa.array(scan.bytes_values, pa.binary()), has_bytes, k) if has_bytes.any() else pa.nulls(k, pa.binary())
    ccsid = _masked(np.where(is_sf, b, a), is_st | is_sl | is_sf, pa.int32())
    operator = _masked(a, is_if | is_sf | is_bf, pa.int32())
    parameters = pa.StructArray.from_arrays(
        [
            pa.array(pids, pa.int32()),
            parameter_names,
            type_names,
            int_value,
            string_value,
            int_values,
            string_values,
            bytes_value,
            ccsid,
            operator,
            parents,
        ],
        fields=list(rows.PARAMETER_FIELDS),
    )
    list_offsets = np.zeros(m + 1, dtype=np.int32)
    np.cumsum(counts, out=list_offsets[1:])
    parameter_lists = pa.ListArray.from_arrays(pa.array(list_offsets), parameters, type=rows.MESSAGE_SCHEMA.field("parameters").type)

    # q_name: the first top-level MQCA_Q_NAME, else MQCACF_TO_Q_NAME, else MQCACF_FROM_Q_NAME
    # (MQCFST only); parameters are in message order, so the first of each message is where its
    # owner changes, and a better rank, set later, overwrites a worse one
    q_index = np.full(m, -1, dtype=np.int64)
    top_strings = is_st & top
    for pid in (mq.MQCACF_FROM_Q_NAME, mq.MQCACF_TO_Q_NAME, mq.MQCA_Q_NAME):
        found = _firsts(owner, np.flatnonzero(top_strings & (pids == pid)))
        q_index[owner[found]] = found
    q_names = pc.utf8_rtrim(string_value.take(pa.array(q_index, mask=q_index < 0)), characters=rows._PAD)
    # q_type: the first top-level MQCFIN MQIA_Q_TYPE
    typed = _firsts(owner, np.flatnonzero(is_in & top & (pids == mq.MQIA_Q_TYPE)))
    q_type = np.zeros(m, dtype=np.int64)
    has_type = np.zeros(m, dtype=bool)
    q_type[owner[typed]] = a[typed]
    has_type[owner[typed]] = True

    commands, reasons = fields[:, 3], fields[:, 7]
    arrays = [
        pa.repeat(pa.scalar(source_file, pa.string()), m),
        pa.array(starts, pa.int64()),
        pa.array(ends - starts, pa.int64()),
        pa.array(["little", "big"], pa.string()).take(pa.array(big.astype(np.int8))),
        pa.array(fields[:, 0], pa.int32()),
        pa.array(commands, pa.int32()),
        _lookup(commands, rows.command_name),
        pa.array(fields[:, 4], pa.int32()),
        pa.array(fields[:, 5], pa.int32()),
        pa.array(fields[:, 6], pa.int32()),
        pa.array(reasons, pa.int32()),
        _lookup(reasons, rows.reason_name),
        pa.array(fields[:, 8], pa.int32()),
        q_names,
        pa.array(q_type, pa.int32(), mask=~has_type),
        parameter_lists,
        pa.nulls(m, rows.MESSAGE_SCHEMA.field("warnings").type),
    ]
    return pa.RecordBatch.from_arrays(arrays, schema=rows.MESSAGE_SCHEMA)


def _signed(value: int) -> int:
    return value - (1 << 32) if value >= 1 << 31 else value


# -- files -----------------------------------------------------------------------------------


def _in_offset_order(batches: list[Any]) -> Any:
    """One MESSAGE_SCHEMA batch of the rows of ``batches``, by offset."""
    batches = [batch for batch in batches if batch.num_rows] or batches[:1]
    if len(batches) == 1:
        return batches[0]
    table = pa.Table.from_batches(batches, schema=rows.MESSAGE_SCHEMA)
    table = table.take(pc.sort_indices(table.column("offset"))).combine_chunks()
    return pa.RecordBatch.from_arrays([column.chunk(0) if column.num_chunks else pa.array([], column.type) for column in table.columns], schema=rows.MESSAGE_SCHEMA)


class _File:
    """One file's decode, a batch of up to ``batch_rows`` message rows at a time: the messages the
    scanner takes become columns, those it leaves to the codec rows of a RowBuffer, and the two
    are merged in file order, so however the two kinds interleave a batch is never small."""

    def __init__(self, source_file: str, data: bytes, batch_rows: int, timings: dict[str, float] | None) -> None:
        self.source_file = source_file
        self.data = data
        self.total = len(data)
        self.batch_rows = batch_rows
        self.timings = timings
        self.scanner = _Scanner(data)
        self.raw = _Windows(self.scanner.data)
        self.scan = _Scan()
        self.slow = rows.RowBuffer(source_file)  # message rows not yet yielded, and problem rows
        self.position = 0  # the first byte no row holds yet
        self.decoder: StreamDecoder | None = None
        self.building = False

    def _codec_at(self, position: int) -> bool:
        """The codec's message (or undecodable span) at ``position`` into ``slow``: is it a message row?"""
        if self.decoder is None:
            self.decoder = StreamDecoder(strict=False, max_message_bytes=max(DEFAULT_MAX_MESSAGE_BYTES, self.total))
            self.decoder.feed(self.data)
            self.decoder.end()
        self.decoder.seek(position)
        message = self.decoder.next_message()
        assert message is not None, "after the end of the input every byte decodes to something"
        self.slow.add(message)
        self.position = message.offset + message.length
        return message.error is None

    def _columns(self) -> Any:
        """The batch of what was scanned and what the codec decoded since the last one, in file order."""
        started = time.perf_counter()
        self.building = True
        pieces = [_build(self.source_file, self.raw, self.scan)] if self.scan.starts else []
        if self.slow.messages:
            pieces.append(self.slow.take_messages())
        batch = _in_offset_order(pieces)
        self.building = False
        self.scan = _Scan()
        if self.timings is not None:
            self.timings["columns"] = self.timings.get("columns", 0.0) + time.perf_counter() - started
        return batch

    def batches(self) -> Iterator[Any]:
        """MESSAGE_SCHEMA batches of ``batch_rows`` rows (the last fewer) in file order; problem
        rows collect in ``slow``."""
        total, batch_rows, scan, slow = self.total, self.batch_rows, self.scan, self.slow
        while self.position < total:
            self.position = self.scanner.walk(self.position, scan, batch_rows - len(slow.messages))
            if self.position < total and len(scan.starts) + len(slow.messages) < batch_rows:
                self._codec_at(self.position)  # what the scanner does not take
            if len(scan.starts) + len(slow.messages) >= batch_rows:
                yield self._columns()
                scan = self.scan
        if scan.starts or slow.messages:
            yield self._columns()

    def fail(self, exc: Exception) -> Any:
        """After a failure of the decoder itself: the rows not yet yielded that are sound, and the
        rest of the file as one problem row (MQRC_UNEXPECTED_ERROR)."""
        slow = self.slow
        if self.building:  # the batch cannot be built: the bytes of its messages become the problem
            first = min(self.scan.starts[:1] + [row[1] for row in slow.messages[:1]])
            pieces = []
        else:  # the scanner rolled back the message it failed in; the codec added nothing
            first = max(self.position, self.scan.ends[-1] if self.scan.ends else 0)
            pieces = [_build(self.source_file, self.raw, self.scan)] if self.scan.starts else []
            if slow.messages:
                pieces.append(slow.take_messages())
        slow.messages.clear()
        slow.offsets[1:] = []
        slow.parameters.clear()
        slow.warnings.clear()
        slow.problems[:] = [row for row in slow.problems if row[1] < first]  # after it, the problem row covers them
        self.scan = _Scan()
        if first < self.total:
            detail = f"decoder failed: {type(exc).__name__}: {exc}"
            slow.add_problem(first, self.total - first, PcfError(mq.MQRC_UNEXPECTED_ERROR, detail, offset=first))
        self.position = self.total
        return _in_offset_order(pieces) if pieces else None


def decode_file(
    source_file: str, data: Any, batch_rows: int = rows.DEFAULT_BATCH_ROWS, timings: dict[str, float] | None = None
) -> Iterator[tuple[Any, Any]]:
    """One file's rows as ``(messages_batch, problems_batch)`` pairs of at most ``batch_rows``
    messages, in file order: the rows ``rows.RowBuffer`` makes of ``decode(data, strict=False)``.
    Every batch but the last holds ``batch_rows`` rows, whatever the codec decoded among them;
    the last pair may hold no messages.  ``timings`` (for the benchmark) gains the seconds spent scanning
    (``scan``, the codec's part included) and building the arrays (``columns``).

    Never raises for bad data: should the decoder itself fail, the rest of the file becomes one
    problem row (reason MQRC_UNEXPECTED_ERROR), so every byte is still accounted for.
    """
    file = _File(source_file, data if type(data) is bytes else bytes(data), batch_rows, timings)
    batches = file.batches()
    yielded = False
    while True:
        started = time.perf_counter()
        building = timings.get("columns", 0.0) if timings is not None else 0.0
        with rows.collector_paused():  # millions of short-lived objects and no cycles (measured: 2x slower with it)
            try:
                batch = next(batches, None)
            except Exception as exc:  # a codec bug must not lose the file or fail the job
                batch = file.fail(exc)
                batches = iter(())
            problems = file.slow.take_problems()
        if timings is not None:
            building = timings.get("columns", 0.0) - building
            timings["scan"] = timings.get("scan", 0.0) + time.perf_counter() - started - building
        if batch is None:
            if problems.num_rows or not yielded:
                yield file.slow.take_messages(), problems
            return
        yielded = True
        yield batch, problems


def decode_counted(
    source_file: str, data: Any, stats: rows.FileStats, batch_rows: int = rows.DEFAULT_BATCH_ROWS
) -> Iterator[tuple[Any, Any]]:
    """Like :func:`decode_file`, also counting every batch into ``stats`` (complete at the end)."""
    for messages, problems in decode_file(source_file, data, batch_rows):
        stats.add_messages(messages)
        stats.add_problems(problems)
        yield messages, problems
