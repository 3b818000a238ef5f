"""What every command language hands back: the lines it prints, grouped by the PCF answer they show.

A front end runs one command with an ``execute`` callable (PCF command in, its answer out: the
engine in-process, or a client over TCP) and returns an :class:`Outcome`.  Its blocks keep the
PCF command, completion code and reason behind each group of lines, which is what IBM's Escape
response carries (one response message per block).
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from pcfserver import kinds, mq, names
from pcfserver.codec.model import Message, String
from pcfserver.dialects.keywords import parameter_keyword
from pcfserver.dialects.tables import table_of_command

Execute = Callable[[Message], list[Message]]

OK = "ok"
FAILED = "failed"
SYNTAX = "syntax"
END = "end"


class ExecuteError(Exception):
    """The command could not be sent or its answer not received (the queue manager is not there)."""


@dataclass(frozen=True, slots=True)
class Block:
    """Lines shown for one PCF response (or for a syntax error, with command 0)."""

    lines: tuple[str, ...]
    command: int = 0
    comp_code: int = mq.MQCC_OK
    reason: int = mq.MQRC_NONE


@dataclass(frozen=True, slots=True)
class Outcome:
    """One command's result: ok, failed, syntax (not run) or end (MQSC END)."""

    status: str
    blocks: tuple[Block, ...] = ()

    @property
    def lines(self) -> list[str]:
        return [line for block in self.blocks for line in block.lines]


def _clock() -> str:
    return time.strftime("%H.%M.%S")


@dataclass(frozen=True, slots=True)
class Context:
    """What a front end may need besides the command: the queue manager name and a clock (TPF replies)."""

    qmgr_name: str = ""
    clock: Callable[[], str] = field(default=_clock)


def failure(answer: Sequence[Message]) -> Message | None:
    """The message that says why a command failed (not the MQRCCF_COMMAND_FAILED summary when there is another)."""
    failed = [m for m in answer if m.comp_code == mq.MQCC_FAILED]
    if not failed:
        return None
    return next((m for m in failed if m.reason != mq.MQRCCF_COMMAND_FAILED), failed[0])


# The parameters that name a command's object, in the order they are looked for (a copy names its source first,
# as Copy answers MQRC_UNKNOWN_OBJECT_NAME about it).
_NAME_PARAMETERS = (
    mq.MQCA_Q_NAME,
    mq.MQCACF_FROM_Q_NAME,
    mq.MQCACF_TO_Q_NAME,
    *kinds.name_parameters(),
    mq.MQCACF_AUTH_PROFILE_NAME,
    mq.MQCA_CLUSTER_Q_MGR_NAME,
    mq.MQCA_CLUSTER_NAME,
    mq.MQCA_CLUSTER_NAMELIST,
)


def object_name(command: Message) -> str:
    """The object a command names, as typed (blanks trimmed): its first parameter when that names an object (the
    command's own name leads it: DISPLAY CLUSQMGR(QM7) CHANNEL(TO.QM7) is about QM7), else the first name found."""
    first = command.parameters[0] if command.parameters else None
    if isinstance(first, String) and first.parameter in _NAME_PARAMETERS:
        return first.value.rstrip()
    for parameter in _NAME_PARAMETERS:
        item = command.get(parameter)
        if isinstance(item, String):
            return item.value.rstrip()
    return ""


def failed_name(command: Message, failed: Message) -> str:
    """The object a failure is about: for "not found", the one the error names when it names a parameter of the command
    (DEFINE SUB's DEST, its TOPICOBJ: the queue or topic object that is missing), else the object the command names."""
    parameter = failed.int_value(mq.MQIACF_PARAMETER_ID) if failed.reason == mq.MQRC_UNKNOWN_OBJECT_NAME else None
    named = command.get(parameter) if parameter is not None else None
    if isinstance(named, String) and named.value.strip():
        return named.value.rstrip()
    return object_name(command)


def error_keyword(command: Message, failed: Message, dialect: str) -> str | None:
    """The keyword, in ``dialect``, of the parameter a PCF error message names (MQIACF_PARAMETER_ID)."""
    parameter = failed.int_value(mq.MQIACF_PARAMETER_ID)
    if parameter is None:
        return None
    return parameter_keyword(parameter, dialect=dialect, table=table_of_command(command.command))


def reason_inserts(reason: int, keyword: str | None = None) -> dict[str, object]:
    """{reason}, {reason_name}, {hex} and {parameter} (`` for KEYWORD`` or empty) for a message text."""
    return {
        "reason": reason,
        "reason_name": names.reason_name(reason) or "MQRC_UNKNOWN",
        "hex": f"{reason:X}",
        "parameter": f" for {keyword}" if keyword else "",
    }
