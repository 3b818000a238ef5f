"""MQCMD_ESCAPE: an MQSC command carried in PCF, run on the engine and answered as IBM's command server does.

IBM's Escape Response (PCF reference, "MQCMD_ESCAPE (Escape) Response on Multiplatforms"): each
response message carries EscapeType (MQIACF_ESCAPE_TYPE, MQET_MQSC) and EscapeText
(MQCACF_ESCAPE_TEXT, the command's text response); its Command field is the MQCMD_* of the MQSC
command inside, its CompCode and Reason say whether that command worked, and there may be
several messages (here: one per object of a DISPLAY, one otherwise).  The MQSC text is parsed
by :mod:`pcfserver.dialects.mqsc` and each resulting PCF command runs through the engine in the
same batch (whole or not at all, committed with the Escape).  A text that cannot be read is
answered with Command MQCMD_ESCAPE, CompCode MQCC_FAILED, Reason MQRCCF_COMMAND_FAILED and the
AMQ8405I lines (chosen: IBM documents no reason for it; commands.tsv).  Escape text cannot use
continuation characters (round2-semantics §5.2), so line ends count as blanks.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace

from pcfserver import mq
from pcfserver.codec.model import Integer, Message, String
from pcfserver.dialects import mqsc
from pcfserver.dialects.outcome import Block
from pcfserver.engine import responses


def answer(command: Message, values: Mapping[int, object], execute: Callable[[Message], list[Message]], ccsid: int) -> list[Message]:
    """The Escape Response messages for one checked MQCMD_ESCAPE (``values``: its parameters by id)."""
    text = values.get(mq.MQCACF_ESCAPE_TEXT, "")
    assert isinstance(text, str)
    outcome = mqsc.run(mqsc.one_line(text).strip(), execute)
    blocks = outcome.blocks or (Block((), command.command),)
    out = []
    for block in blocks:
        params = (Integer(mq.MQIACF_ESCAPE_TYPE, mq.MQET_MQSC), String(mq.MQCACF_ESCAPE_TEXT, "\n".join(block.lines), ccsid))
        message = responses.ok_response(command, params)
        out.append(replace(message, command=block.command or command.command, comp_code=block.comp_code, reason=block.reason))
    return responses.numbered(out)
