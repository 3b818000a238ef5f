"""The JSON form of PCF messages (what ``pcfserver decode`` prints and ``encode``/``send`` read),
and the readable text tree.

Reading accepts numbers or constant names for every coded field (``"command": "MQCMD_CHANGE_Q"``
or ``8``; ``"value": "MQQT_LOCAL"``), so hand-written command files stay readable.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from pcfserver import mq, names
from pcfserver.codec.ccsid import DEFAULT_CCSID, codec_for
from pcfserver.codec.model import (
    PARAMETER_TYPES,
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

_TYPE_OF: dict[str, int] = {name: row.type for name, row in structures().items() if row.type is not None}
_CLASS_OF: dict[str, type[Parameter]] = {cls.STRUCT: cls for cls in PARAMETER_TYPES}
_STRUCT_OF_TYPE: dict[int, str] = {value: name for name, value in _TYPE_OF.items()}
_JSON_BLANKS = " \t\r\n"  # JSON's whitespace (str.strip's would take U+0085 and others too)
_MAX_LIST_BYTES = 104_857_600  # an MQCFSL's strings: no more than the largest message ``decode`` accepts by default


def _encoded_length(text: str, ccsid: int, default_ccsid: int) -> int:
    codec = codec_for(default_ccsid if ccsid == 0 else ccsid) or "latin-1"
    return len(text.encode(codec, "replace"))


def error_to_json(error: PcfError) -> dict[str, Any]:
    return {"reason": error.reason, "reason_name": error.reason_name, "offset": error.offset, "message": error.detail}


def parameter_to_json(item: Parameter, default_ccsid: int = DEFAULT_CCSID) -> dict[str, Any]:
    struct = item.STRUCT
    out: dict[str, Any] = {
        "type": _TYPE_OF[struct],
        "type_name": struct,
        "parameter": item.parameter,
        "parameter_name": names.parameter_name(item.parameter, struct),
    }
    if isinstance(item, (Integer, Integer64)):
        out["value"] = item.value
        if names.has_value_set(item.parameter):
            out["value_name"] = names.value_name(item.parameter, item.value)
    elif isinstance(item, (IntegerList, Integer64List)):
        out["values"] = list(item.values)
        if names.has_value_set(item.parameter):
            out["value_names"] = [names.value_name(item.parameter, v) for v in item.values]
    elif isinstance(item, String):
        out["ccsid"] = item.ccsid
        out["string_length"] = item.string_length if item.string_length is not None else _encoded_length(item.value, item.ccsid, default_ccsid)
        out["value"] = item.value
    elif isinstance(item, StringList):
        out["ccsid"] = item.ccsid
        out["string_length"] = (
            item.string_length
            if item.string_length is not None
            else max((_encoded_length(v, item.ccsid, default_ccsid) for v in item.values), default=0)
        )
        out["values"] = list(item.values)
    elif isinstance(item, ByteString):
        out["value_hex"] = item.value.hex()
    elif isinstance(item, Group):
        out["parameter_count"] = len(item.parameters)
        out["parameters"] = [parameter_to_json(member, default_ccsid) for member in item.parameters]
    else:
        out["operator"] = item.operator
        out["operator_name"] = names.number_name(("MQCFOP",), item.operator)
        if isinstance(item, IntegerFilter):
            out["value"] = item.value
        elif isinstance(item, StringFilter):
            out["ccsid"] = item.ccsid
            out["value"] = item.value
        else:
            out["value_hex"] = item.value.hex()
    return out


def message_to_json(message: Message, default_ccsid: int = DEFAULT_CCSID) -> dict[str, Any]:
    """The decode JSON object of a message (one line of ``pcfserver decode``)."""
    out: dict[str, Any] = {
        "offset": message.offset,
        "length": message.length,
        "byte_order": message.byte_order,
        "type": message.type,
        "type_name": names.type_name(message.type),
        "struc_length": message.struc_length,
        "version": message.version,
        "command": message.command,
        "command_name": names.command_name(message.command),
        "msg_seq_number": message.msg_seq_number,
        "control": message.control,
        "comp_code": message.comp_code,
        "reason": message.reason,
        "reason_name": names.reason_name(message.reason),
        "parameter_count": len(message.parameters) if message.parameter_count is None else message.parameter_count,
        "parameters": [parameter_to_json(p, default_ccsid) for p in message.parameters],
    }
    if message.error is not None:
        out["error"] = error_to_json(message.error)
    if message.warnings:
        out["warnings"] = [error_to_json(w) for w in message.warnings]
    return out


# ---------------------------------------------------------------------------------------------
# JSON to messages


class JsonFormError(ValueError):
    """A JSON object that does not describe a PCF message; says where."""


def parse_number(value: Any, where: str, prefixes: tuple[str, ...] = ()) -> int:
    """A number given as a number or a constant name; JsonFormError says where it is not."""
    if isinstance(value, bool) or value is None:
        raise JsonFormError(f"{where}: expected a number or a name, got {value!r}")
    if isinstance(value, int):
        return value
    if isinstance(value, str):
        try:
            return names.number_from_name(value, prefixes)
        except ValueError:
            pass
    raise JsonFormError(f"{where}: expected a number or a constant name, got {value!r}")


def _int_field(obj: dict[str, Any], key: str, where: str, default: int | None = None, prefixes: tuple[str, ...] = ()) -> int:
    if key not in obj or obj[key] is None:
        name_key = f"{key}_name"
        if name_key in obj and obj[name_key] is not None:
            return parse_number(obj[name_key], f"{where}.{name_key}", prefixes)
        if default is None:
            raise JsonFormError(f"{where}: missing {key!r}")
        return default
    return parse_number(obj[key], f"{where}.{key}", prefixes)


def _string_length(obj: dict[str, Any], where: str) -> int | None:
    """An MQCFSL's ``string_length`` as decode printed it: the encoder keeps it where the values
    do not fix it (an empty list's StringLength, or a width wider than its values)."""
    if obj.get("string_length") is None:
        return None
    length = parse_number(obj["string_length"], f"{where}.string_length")
    if not 0 <= length <= 2**31 - 1:
        raise JsonFormError(f"{where}.string_length: {length} is not a StringLength (0 to 2147483647)")
    return length


def _text(value: Any, where: str) -> str:
    if not isinstance(value, str):
        raise JsonFormError(f"{where}: expected a string, got {value!r}")
    return value


def _hex(obj: dict[str, Any], where: str) -> bytes:
    try:
        return bytes.fromhex(_text(obj.get("value_hex", ""), f"{where}.value_hex"))
    except ValueError as exc:
        raise JsonFormError(f"{where}.value_hex: {exc}") from None


def _struct_name(obj: dict[str, Any], where: str) -> str:
    type_name = obj.get("type_name")
    if isinstance(type_name, str) and type_name in _CLASS_OF:
        return type_name
    raw = obj.get("type")
    if isinstance(raw, str) and raw in _CLASS_OF:
        return raw
    if raw is not None or type_name is not None:
        value = parse_number(raw if raw is not None else type_name, f"{where}.type", ("MQCFT_",))
        if value in _STRUCT_OF_TYPE:
            return _STRUCT_OF_TYPE[value]
        raise JsonFormError(f"{where}: structure type {value} is not a parameter structure")
    raise JsonFormError(f"{where}: missing 'type' or 'type_name' (MQCFIN, MQCFST, ...)")


def parameter_from_json(obj: Any, where: str = "parameter") -> Parameter:
    if not isinstance(obj, dict):
        raise JsonFormError(f"{where}: expected an object, got {obj!r}")
    struct = _struct_name(obj, where)
    pid = _int_field(obj, "parameter", where)

    def value_of(raw: Any, at: str) -> int:
        if isinstance(raw, str):
            try:
                return names.value_from_name(pid, raw)
            except ValueError as exc:
                raise JsonFormError(f"{at}: {exc}") from None
        return parse_number(raw, at)

    if struct in ("MQCFIN", "MQCFIN64"):
        value = value_of(obj.get("value", obj.get("value_name")), f"{where}.value")
        return Integer(pid, value) if struct == "MQCFIN" else Integer64(pid, value)
    if struct in ("MQCFIL", "MQCFIL64"):
        raw_values = obj.get("values", obj.get("value_names", []))
        if not isinstance(raw_values, list):
            raise JsonFormError(f"{where}.values: expected a list")
        ints = tuple(value_of(v, f"{where}.values[{i}]") for i, v in enumerate(raw_values))
        return IntegerList(pid, ints) if struct == "MQCFIL" else Integer64List(pid, ints)
    if struct == "MQCFST":
        return String(pid, _text(obj.get("value", ""), f"{where}.value"), _int_field(obj, "ccsid", where, 0))
    if struct == "MQCFSL":
        raw_values = obj.get("values", [])
        if not isinstance(raw_values, list):
            raise JsonFormError(f"{where}.values: expected a list")
        values = tuple(_text(v, f"{where}.values[{i}]") for i, v in enumerate(raw_values))
        length = _string_length(obj, where)
        if length is not None and len(values) * length > _MAX_LIST_BYTES:
            raise JsonFormError(f"{where}.string_length: {len(values)} strings of {length} bytes are more than the {_MAX_LIST_BYTES} bytes a message decode accepts may hold")
        return StringList(pid, values, _int_field(obj, "ccsid", where, 0), length)
    if struct == "MQCFBS":
        return ByteString(pid, _hex(obj, where))
    if struct == "MQCFGR":
        members = obj.get("parameters", [])
        if not isinstance(members, list):
            raise JsonFormError(f"{where}.parameters: expected a list")
        return Group(pid, tuple(parameter_from_json(m, f"{where}.parameters[{i}]") for i, m in enumerate(members)))
    operator = _int_field(obj, "operator", where, prefixes=("MQCFOP_",))
    if struct == "MQCFIF":
        return IntegerFilter(pid, operator, value_of(obj.get("value"), f"{where}.value"))
    if struct == "MQCFSF":
        return StringFilter(pid, operator, _text(obj.get("value", ""), f"{where}.value"), _int_field(obj, "ccsid", where, 0))
    return ByteStringFilter(pid, operator, _hex(obj, where))


def _needed_version(parameters: tuple[Parameter, ...]) -> int:
    version = 1
    for item in parameters:
        if isinstance(item, (IntegerFilter, StringFilter, ByteStringFilter)):
            return 3
        if isinstance(item, ByteString):
            version = 2
        if isinstance(item, Group):
            version = max(version, _needed_version(item.parameters))
    return version


def message_from_json(obj: Any, where: str = "message") -> Message:
    """A Message from its JSON form; absent header fields take a command's usual values."""
    if not isinstance(obj, dict):
        raise JsonFormError(f"{where}: expected a JSON object, got {type(obj).__name__}")
    raw_params = obj.get("parameters", [])
    if not isinstance(raw_params, list):
        raise JsonFormError(f"{where}.parameters: expected a list")
    params = tuple(parameter_from_json(p, f"{where}.parameters[{i}]") for i, p in enumerate(raw_params))
    byte_order = obj.get("byte_order", "big")
    if byte_order not in ("big", "little"):
        raise JsonFormError(f"{where}.byte_order: 'big' or 'little', not {byte_order!r}")
    return Message(
        command=_int_field(obj, "command", where, prefixes=("MQCMD_",)),
        parameters=params,
        type=_int_field(obj, "type", where, mq.MQCFT_COMMAND, ("MQCFT_",)),
        version=_int_field(obj, "version", where, _needed_version(params)),
        msg_seq_number=_int_field(obj, "msg_seq_number", where, 1),
        control=_int_field(obj, "control", where, mq.MQCFC_LAST, ("MQCFC_",)),
        comp_code=_int_field(obj, "comp_code", where, mq.MQCC_OK, ("MQCC_",)),
        reason=_int_field(obj, "reason", where, mq.MQRC_NONE, ("MQRC_", "MQRCCF_")),
        byte_order=byte_order,
    )


def json_objects(text: str) -> Iterator[tuple[str, Any]]:
    """The objects of a JSON document (object or array) or of JSON Lines, each with where it was."""
    stripped = text.strip(_JSON_BLANKS)
    if not stripped:
        return
    try:
        whole = json.loads(stripped)
    except json.JSONDecodeError:
        whole = None
    if isinstance(whole, list):
        for i, obj in enumerate(whole):
            yield f"message {i + 1}", obj
        return
    if isinstance(whole, dict):
        yield "message 1", whole
        return
    # lines end at "\n" only: str.splitlines would also split at U+0085, U+2028 and others, which
    # decode writes unescaped inside string values
    for number, line in enumerate(text.split("\n"), 1):
        if not line.strip(_JSON_BLANKS):
            continue
        try:
            yield f"line {number}", json.loads(line)
        except json.JSONDecodeError as exc:
            raise JsonFormError(f"line {number}: not valid JSON: {exc.msg}") from None


# ---------------------------------------------------------------------------------------------
# Text tree


def named(name: str | None, value: int) -> str:
    """``MQQT_LOCAL (1)``, or the bare number when it has no name."""
    return f"{name} ({value})" if name else str(value)


def _parameter_lines(item: Parameter, indent: str) -> Iterator[str]:
    struct = item.STRUCT
    label = f"{indent}{struct:<8} {named(names.parameter_name(item.parameter, struct), item.parameter)}"
    if isinstance(item, (Integer, Integer64)):
        yield f"{label}: {named(names.value_name(item.parameter, item.value), item.value)}"
    elif isinstance(item, (IntegerList, Integer64List)):
        shown = ", ".join(named(names.value_name(item.parameter, v), v) for v in item.values)
        yield f"{label}: [{shown}]"
    elif isinstance(item, String):
        yield f"{label}: {item.value!r} (CCSID {item.ccsid})"
    elif isinstance(item, StringList):
        yield f"{label}: [{', '.join(repr(v) for v in item.values)}] (CCSID {item.ccsid})"
    elif isinstance(item, ByteString):
        yield f"{label}: 0x{item.value.hex()}"
    elif isinstance(item, Group):
        yield f"{label}: group of {len(item.parameters)}"
        for member in item.parameters:
            yield from _parameter_lines(member, indent + "    ")
    else:
        operator = named(names.number_name(("MQCFOP",), item.operator), item.operator)
        shown = f"0x{item.value.hex()}" if isinstance(item, ByteStringFilter) else repr(item.value)
        yield f"{label}: {operator} {shown}"


def message_to_text(message: Message, index: int) -> str:
    order = "big-endian" if message.byte_order == "big" else "little-endian"
    lines = [f"Message {index} at offset {message.offset}, {message.length} bytes, {order}"]
    if message.error is not None:
        e = message.error
        lines.append(f"  ERROR {named(e.reason_name, e.reason)} at offset {e.offset}: {e.detail}")
    lines.append(
        f"  MQCFH    Type {named(names.type_name(message.type), message.type)}, Version {message.version}, "
        f"Command {named(names.command_name(message.command), message.command)}"
    )
    lines.append(
        f"           MsgSeqNumber {message.msg_seq_number}, Control {named(names.number_name(('MQCFC',), message.control), message.control)}, "
        f"CompCode {named(names.comp_code_name(message.comp_code), message.comp_code)}, "
        f"Reason {named(names.reason_name(message.reason), message.reason)}, "
        f"ParameterCount {len(message.parameters) if message.parameter_count is None else message.parameter_count}"
    )
    for item in message.parameters:
        lines.extend(_parameter_lines(item, "  "))
    for warning in message.warnings:
        lines.append(f"  warning {named(warning.reason_name, warning.reason)} at offset {warning.offset}: {warning.detail}")
    return "\n".join(lines)
