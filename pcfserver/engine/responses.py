"""Response messages formed the way IBM MQ's command server forms them.

Success: one MQCFT_RESPONSE, CompCode 0, Reason 0, Control LAST.  Failure: the specific
error message (CompCode MQCC_FAILED, the reason, at most one MQCFIN naming the parameter in
error) then the summary MQRCCF_COMMAND_FAILED with Control LAST.  MsgSeqNumber counts from 1.
"""

from __future__ import annotations

from collections.abc import Sequence

from pcfserver import mq
from pcfserver.codec.model import Integer, Message, Parameter, new_message


class Reject(Exception):
    """A command refused: the reason and the one error parameter of the error message."""

    def __init__(self, reason: int, parameter: int | None = None, error_parameter: int | None = None) -> None:
        super().__init__(reason)
        self.reason = reason
        self.parameter = parameter
        self.error_parameter = error_parameter


def _response(command: Message | int, parameters: tuple[Parameter, ...], comp_code: int, reason: int) -> Message:
    code = command if isinstance(command, int) else command.command
    version = 1 if isinstance(command, int) else max(1, min(3, command.version))
    order = "big" if isinstance(command, int) else command.byte_order
    return Message(
        command=code,
        parameters=parameters,
        type=mq.MQCFT_RESPONSE,
        version=version,
        comp_code=comp_code,
        reason=reason,
        byte_order=order,
    )


def numbered(messages: Sequence[Message]) -> list[Message]:
    """MsgSeqNumber 1..n and Control LAST on the last message only."""
    last = len(messages) - 1
    new = new_message  # (dataclasses.replace took a quarter of an inquiry's time over thousands of messages)
    return [
        new(
            m.command, m.parameters, m.type, m.version, i + 1, mq.MQCFC_LAST if i == last else mq.MQCFC_NOT_LAST, m.comp_code, m.reason,
            m.byte_order, m.offset, m.length, m.struc_length, m.parameter_count, m.error, m.warnings,
        )
        for i, m in enumerate(messages)
    ]


def ok_response(command: Message | int, parameters: tuple[Parameter, ...] = ()) -> Message:
    """An OK (or data) response message, not yet numbered."""
    return _response(command, parameters, mq.MQCC_OK, mq.MQRC_NONE)


def error_message(command: Message | int, reason: int, parameter_id: int | None = None, *, error_parameter: int | None = None) -> Message:
    """One error message: CompCode FAILED, the reason, and at most one MQCFIN error parameter.

    The error parameter is MQIACF_PARAMETER_ID naming ``parameter_id`` unless
    ``error_parameter`` names another (MQIACF_SELECTOR, MQIA_CODED_CHAR_SET_ID, ...).
    """
    params: tuple[Parameter, ...] = ()
    if parameter_id is not None:
        params = (Integer(error_parameter if error_parameter is not None else mq.MQIACF_PARAMETER_ID, parameter_id),)
    return _response(command, params, mq.MQCC_FAILED, reason)


def error_responses(command: Message | int, reason: int, parameter_id: int | None = None, *, error_parameter: int | None = None) -> list[Message]:
    """A failed command's whole answer: the specific error, then the MQRCCF_COMMAND_FAILED summary."""
    return numbered(
        [
            error_message(command, reason, parameter_id, error_parameter=error_parameter),
            _response(command, (), mq.MQCC_FAILED, mq.MQRCCF_COMMAND_FAILED),
        ]
    )


def success(command: Message | int) -> list[Message]:
    """The one-message answer to a successful Create/Copy/Change/Delete/Clear."""
    return numbered([ok_response(command)])
