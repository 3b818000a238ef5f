"""Encoding messages to canonical PCF: minimal padding to a multiple of 4, NUL pad bytes."""

from __future__ import annotations

import struct
from collections.abc import Callable

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
from pcfserver.tables import structures

_PADS = (b"", b"\0\0\0", b"\0\0", b"\0")
_ROWS = structures()


class _Packers:
    __slots__ = ("fixed", "header", "prefix")

    def __init__(self, order: str) -> None:
        self.prefix = ">" if order == "big" else "<"
        self.header = layouts.fixed_format("MQCFH", order).pack
        self.fixed = {name: layouts.fixed_format(name, order).pack for name in _ROWS}


_PACKERS = {"big": _Packers("big"), "little": _Packers("little")}


def _type(name: str) -> int:
    value = _ROWS[name].type
    assert value is not None
    return value


_T = {name: _type(name) for name in _ROWS if name != "MQCFH"}


def _bytes_of(text: str, ccsid: int, default_ccsid: int, parameter: int) -> bytes:
    codec = codec_for(default_ccsid if ccsid == 0 else ccsid)
    if codec is None:
        raise PcfError(3049, f"CCSID {ccsid} is not supported", parameter_id=parameter)
    try:
        return text.encode(codec)
    except UnicodeEncodeError as exc:
        raise PcfError(3049, f"{text!r} cannot be written in CCSID {ccsid or default_ccsid}: {exc.reason}", parameter_id=parameter) from None


def _append(out: list[bytes], item: Parameter, k: _Packers, default_ccsid: int) -> None:
    kind = type(item)
    f = k.fixed
    if kind is Integer:
        assert isinstance(item, Integer)
        out.append(f["MQCFIN"](_T["MQCFIN"], 16, item.parameter, item.value))
    elif kind is String:
        assert isinstance(item, String)
        data = _bytes_of(item.value, item.ccsid, default_ccsid, item.parameter)
        n = len(data)
        pad = _PADS[n & 3]
        out.append(f["MQCFST"](_T["MQCFST"], 20 + n + len(pad), item.parameter, item.ccsid, n))
        out.append(data)
        out.append(pad)
    elif kind is IntegerList or kind is Integer64List:
        assert isinstance(item, (IntegerList, Integer64List))
        name, code, width = ("MQCFIL", "l", 4) if kind is IntegerList else ("MQCFIL64", "q", 8)
        n = len(item.values)
        out.append(f[name](_T[name], 16 + width * n, item.parameter, n))
        out.append(struct.pack(f"{k.prefix}{n}{code}", *item.values))
    elif kind is Integer64:
        assert isinstance(item, Integer64)
        out.append(f["MQCFIN64"](_T["MQCFIN64"], 24, item.parameter, 0, item.value))
    elif kind is StringList:
        assert isinstance(item, StringList)
        encoded = [_bytes_of(v, item.ccsid, default_ccsid, item.parameter) for v in item.values]
        blank = _bytes_of(" ", item.ccsid, default_ccsid, item.parameter)
        each = max((len(e) for e in encoded), default=0)
        carried = item.string_length  # as decoded: an empty list's StringLength, or a width wider than its values
        if carried is not None and carried > each and (not encoded or (carried - each) % len(blank) == 0):
            each = carried
        data = b"".join(e + blank * ((each - len(e)) // len(blank)) for e in encoded)  # a blank is 2 bytes in UTF-16
        pad = _PADS[len(data) & 3]
        if len(encoded) > 24 + len(data) + len(pad):  # as the decoder: never more strings than bytes
            raise PcfError(3068, f"{len(encoded)} empty strings are more than an MQCFSL of {24 + len(data) + len(pad)} bytes may hold", parameter_id=item.parameter)
        out.append(f["MQCFSL"](_T["MQCFSL"], 24 + len(data) + len(pad), item.parameter, item.ccsid, len(encoded), each))
        out.append(data)
        out.append(pad)
    elif kind is ByteString:
        assert isinstance(item, ByteString)
        n = len(item.value)
        pad = _PADS[n & 3]
        out.append(f["MQCFBS"](_T["MQCFBS"], 16 + n + len(pad), item.parameter, n))
        out.append(bytes(item.value))
        out.append(pad)
    elif kind is Group:
        assert isinstance(item, Group)
        out.append(f["MQCFGR"](_T["MQCFGR"], 16, item.parameter, len(item.parameters)))
        for member in item.parameters:
            _append(out, member, k, default_ccsid)
    elif kind is IntegerFilter:
        assert isinstance(item, IntegerFilter)
        out.append(f["MQCFIF"](_T["MQCFIF"], 20, item.parameter, item.operator, item.value))
    elif kind is StringFilter:
        assert isinstance(item, StringFilter)
        data = _bytes_of(item.value, item.ccsid, default_ccsid, item.parameter)
        pad = _PADS[len(data) & 3]
        out.append(f["MQCFSF"](_T["MQCFSF"], 24 + len(data) + len(pad), item.parameter, item.operator, item.ccsid, len(data)))
        out.append(data)
        out.append(pad)
    elif kind is ByteStringFilter:
        assert isinstance(item, ByteStringFilter)
        pad = _PADS[len(item.value) & 3]
        out.append(f["MQCFBF"](_T["MQCFBF"], 20 + len(item.value) + len(pad), item.parameter, item.operator, len(item.value)))
        out.append(bytes(item.value))
        out.append(pad)
    else:
        raise TypeError(f"not a PCF parameter: {item!r}")


def encode(message: Message, *, byte_order: str = "big", default_ccsid: int = DEFAULT_CCSID) -> bytes:
    """The message as canonical PCF bytes in ``byte_order`` ("big" or "little")."""
    k = _PACKERS.get(byte_order)
    if k is None:
        raise ValueError(f"byte_order must be 'big' or 'little', not {byte_order!r}")
    out: list[bytes] = [b""]
    try:
        for item in message.parameters:
            _append(out, item, k, default_ccsid)
        out[0] = k.header(
            message.type,
            36,
            message.version,
            message.command,
            message.msg_seq_number,
            message.control,
            message.comp_code,
            message.reason,
            len(message.parameters),
        )
    except struct.error as exc:
        raise PcfError(3016, f"a value does not fit its field: {exc}") from None
    return b"".join(out)


Encoder = Callable[[Message], bytes]
