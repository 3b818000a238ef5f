"""Conformance cases: loaded from JSON files in ``formats/conformance/``.

A file holds one group::

    {"group": "header", "description": "...", "cases": [CASE, ...]}

A case::

    {"name": "...", "doc": "the IBM documentation it rests on",
     "setup":   [COMMAND, ...],        # run first; each must succeed unless it has "may_fail": true
     "command": COMMAND | "raw": RAW,  # the command under test (or "steps": [{"command"|"raw", "expect"}, ...])
     "expect":  EXPECT,
     "cleanup": [COMMAND, ...]}        # run last, failures ignored

COMMAND is a message in the decode JSON form (``pcfserver.jsonform``).  RAW is a command whose
encoded bytes are altered: ``{"command": COMMAND, "patch": [{"offset": 4, "int32": 40}],
"truncate": N, "append_hex": "..."}`` (integers written in the command's byte order).
EXPECT::

    {"comp_code": "MQCC_FAILED", "reason": "MQRCCF_CFH_LENGTH_ERROR", "parameter_id": "MQCA_Q_NAME" | null,
     "error_parameter": {"parameter": "MQIACF_SELECTOR", "value": 9999},
     "messages": 2, "command": 0, "closes": true,
     "responses": [{"message": 1, "parameters": [{"parameter": "MQIA_MAX_Q_DEPTH", "value": 10}]}]}

Keys left out are not checked.  ``reason`` is the specific reason (the first failed message
other than the MQRCCF_COMMAND_FAILED summary), MQRC_NONE for success.  Every answer is also
checked against the response rules (Type, Command, numbering, Control, byte order, summary).
"""

from __future__ import annotations

import json
import struct
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pcfserver.codec import Message, encode
from pcfserver.jsonform import JsonFormError, message_from_json, parse_number
from pcfserver.tables import FORMATS_DIR

CASES_DIR = FORMATS_DIR / "conformance"


class CaseError(ValueError):
    """A case file that does not follow the format; says where."""


@dataclass(frozen=True)
class Command:
    """A command to send: the message and, for raw cases, the exact bytes."""

    message: Message
    data: bytes
    may_fail: bool = False

    @property
    def byte_order(self) -> str:
        return self.message.byte_order


@dataclass(frozen=True)
class Expect:
    comp_code: int | None = None
    reason: int | None = None
    parameter_id: int | str | None = "unchecked"  # "unchecked", None (must be absent) or an id
    error_parameter: tuple[int, int] | None = None
    messages: int | None = None
    command: int | None = None
    closes: bool | None = None
    responses: tuple[tuple[int, tuple[dict[str, Any], ...]], ...] = ()


@dataclass(frozen=True)
class Step:
    command: Command
    expect: Expect


@dataclass(frozen=True)
class Case:
    group: str
    name: str
    doc: str
    steps: tuple[Step, ...]
    setup: tuple[Command, ...] = ()
    cleanup: tuple[Command, ...] = ()
    source: str = ""

    @property
    def id(self) -> str:
        return f"{self.group}/{self.name}"


@dataclass
class Group:
    name: str
    description: str
    cases: list[Case] = field(default_factory=list)


def _number(value: Any, where: str, prefixes: tuple[str, ...] = ()) -> int:
    try:
        return parse_number(value, where, prefixes)
    except JsonFormError as exc:
        raise CaseError(str(exc)) from None


def _command(obj: Any, where: str) -> Command:
    if not isinstance(obj, dict):
        raise CaseError(f"{where}: expected an object")
    try:
        message = message_from_json(obj, where)
    except JsonFormError as exc:
        raise CaseError(str(exc)) from None
    return Command(message, encode(message, byte_order=message.byte_order), bool(obj.get("may_fail", False)))


def _raw(obj: Any, where: str) -> Command:
    if not isinstance(obj, dict) or "command" not in obj:
        raise CaseError(f"{where}: a raw command needs 'command'")
    base = _command(obj["command"], f"{where}.command")
    data = bytearray(base.data)
    pack = ">l" if base.byte_order == "big" else "<l"
    for i, patch in enumerate(obj.get("patch", [])):
        at = f"{where}.patch[{i}]"
        if not isinstance(patch, dict) or "offset" not in patch or "int32" not in patch:
            raise CaseError(f"{at}: expected {{'offset': N, 'int32': V}}")
        offset = _number(patch["offset"], f"{at}.offset")
        if not 0 <= offset <= len(data) - 4:
            raise CaseError(f"{at}: offset {offset} is outside the {len(data)}-byte message")
        struct.pack_into(pack, data, offset, _number(patch["int32"], f"{at}.int32"))
    if "truncate" in obj:
        data = data[: _number(obj["truncate"], f"{where}.truncate")]
    if "append_hex" in obj:
        try:
            data += bytes.fromhex(str(obj["append_hex"]))
        except ValueError as exc:
            raise CaseError(f"{where}.append_hex: {exc}") from None
    return Command(base.message, bytes(data))


def _expect(obj: Any, where: str) -> Expect:
    if not isinstance(obj, dict):
        raise CaseError(f"{where}: expected an object")
    known = {"comp_code", "reason", "parameter_id", "error_parameter", "messages", "command", "closes", "responses"}
    unknown = set(obj) - known
    if unknown:
        raise CaseError(f"{where}: unknown keys {sorted(unknown)}")
    parameter_id: int | str | None = "unchecked"
    if "parameter_id" in obj:
        parameter_id = None if obj["parameter_id"] is None else _number(obj["parameter_id"], f"{where}.parameter_id")
    error_parameter = None
    if "error_parameter" in obj:
        ep = obj["error_parameter"]
        if not isinstance(ep, dict):
            raise CaseError(f"{where}.error_parameter: expected an object")
        error_parameter = (_number(ep.get("parameter"), f"{where}.error_parameter.parameter"), _number(ep.get("value"), f"{where}.error_parameter.value"))
    responses = []
    for i, item in enumerate(obj.get("responses", [])):
        at = f"{where}.responses[{i}]"
        if not isinstance(item, dict) or not isinstance(item.get("parameters"), list):
            raise CaseError(f"{at}: expected {{'message': N, 'parameters': [...]}}")
        checks = []
        for j, check in enumerate(item["parameters"]):
            if not isinstance(check, dict) or "parameter" not in check:
                raise CaseError(f"{at}.parameters[{j}]: expected an object with 'parameter'")
            checks.append({**check, "parameter": _number(check["parameter"], f"{at}.parameters[{j}].parameter")})
        responses.append((_number(item.get("message", 1), f"{at}.message"), tuple(checks)))
    return Expect(
        comp_code=None if "comp_code" not in obj else _number(obj["comp_code"], f"{where}.comp_code", ("MQCC_",)),
        reason=None if "reason" not in obj else _number(obj["reason"], f"{where}.reason", ("MQRC_", "MQRCCF_")),
        parameter_id=parameter_id,
        error_parameter=error_parameter,
        messages=None if "messages" not in obj else _number(obj["messages"], f"{where}.messages"),
        command=None if "command" not in obj else _number(obj["command"], f"{where}.command", ("MQCMD_",)),
        closes=None if "closes" not in obj else bool(obj["closes"]),
        responses=tuple(responses),
    )


def _step(obj: dict[str, Any], where: str) -> Step:
    if "raw" in obj:
        command = _raw(obj["raw"], f"{where}.raw")
    elif "command" in obj:
        command = _command(obj["command"], f"{where}.command")
    else:
        raise CaseError(f"{where}: needs 'command' or 'raw'")
    if "expect" not in obj:
        raise CaseError(f"{where}: needs 'expect'")
    return Step(command, _expect(obj["expect"], f"{where}.expect"))


def parse_case(group: str, obj: Any, where: str) -> Case:
    if not isinstance(obj, dict):
        raise CaseError(f"{where}: expected an object")
    name, doc = obj.get("name"), obj.get("doc")
    if not isinstance(name, str) or not name:
        raise CaseError(f"{where}: needs a 'name'")
    if not isinstance(doc, str) or not doc:
        raise CaseError(f"{where} ({name}): needs a 'doc' naming the IBM documentation")
    if "steps" in obj:
        if not isinstance(obj["steps"], list) or not obj["steps"]:
            raise CaseError(f"{where}.steps: expected a non-empty list")
        steps = tuple(_step(s, f"{where}.steps[{i}]") for i, s in enumerate(obj["steps"]))
    else:
        steps = (_step(obj, where),)
    setup = tuple(_command(c, f"{where}.setup[{i}]") for i, c in enumerate(obj.get("setup", [])))
    cleanup = tuple(_command(c, f"{where}.cleanup[{i}]") for i, c in enumerate(obj.get("cleanup", [])))
    return Case(group, name, doc, steps, setup, cleanup, where)


def load_file(path: Path) -> Group:
    try:
        obj = json.loads(path.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise CaseError(f"{path}: {exc}") from None
    if not isinstance(obj, dict) or not isinstance(obj.get("group"), str) or not isinstance(obj.get("cases"), list):
        raise CaseError(f"{path}: expected {{'group': NAME, 'cases': [...]}}")
    group = Group(obj["group"], str(obj.get("description", "")))
    for i, case in enumerate(obj["cases"]):
        group.cases.append(parse_case(group.name, case, f"{path.name}: cases[{i}]"))
    seen: set[str] = set()
    for case in group.cases:
        if case.name in seen:
            raise CaseError(f"{path}: two cases named {case.name!r}")
        seen.add(case.name)
    return group


def load_groups(directory: Path | None = None) -> list[Group]:
    """Every group in the directory (default: the project's ``formats/conformance``), by file name."""
    directory = directory or CASES_DIR
    groups = [load_file(p) for p in sorted(directory.glob("*.json"))]
    if not groups:
        raise CaseError(f"no case files (*.json) in {directory}")
    return groups
