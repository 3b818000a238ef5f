"""WHERE on the status inquiries (Inquire Queue / Channel / Listener / Service / Topic / Subscription Status and
Connection, and MQSC DISPLAY QSTATUS ... WHERE): one MQCFIF or MQCFSF filter on a field of the status table
(formats/*-attributes.tsv, commands.tsv ``@filter:TABLE``), applied to the answers the command's own handler gives.

A filter may name a field the inquiry was not asked to show (in PCF: MQSC's DISPLAY ... WHERE asks for the field it
tests, as runmqsc shows it): the handler runs once with every field to decide which instances pass, and once as asked
to answer them; both list the same instances in the same order.  An instance without the field (XMITQ of a
server-connection channel) does not pass.  When none passes, the connection, channel, listener and service status
inquiries answer as when there is no instance at all (MQRCCF_NONE_FOUND, MQRCCF_CHL_STATUS_NOT_FOUND, ...: their reason says
that no instance matched; a published client that counts connections with DISPLAY CONN(*) WHERE(...) over runCommand
reads 2/3008 as none); the queue, topic and subscription status inquiries, whose not-found reasons name a missing
object that does exist, answer a success without data (chosen; recorded in commands.tsv).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Protocol, TypeVar

from pcfserver import mq
from pcfserver.codec.model import IntegerFilter, Message, StringFilter
from pcfserver.engine import responses
from pcfserver.engine.filters import holds


class FilteredParse(Protocol):
    values: dict[int, object]
    filter: IntegerFilter | StringFilter | None


_P = TypeVar("_P", bound=FilteredParse)
# What an inquiry answers when its filter passes no instance (commands.tsv, the @filter rows): its own "none found".
_NONE_PASSES = {
    mq.MQCMD_INQUIRE_CONNECTION: mq.MQRCCF_NONE_FOUND,
    mq.MQCMD_INQUIRE_CHANNEL_STATUS: mq.MQRCCF_CHL_STATUS_NOT_FOUND,
    mq.MQCMD_INQUIRE_LISTENER_STATUS: mq.MQRCCF_LSTR_STATUS_NOT_FOUND,
    mq.MQCMD_INQUIRE_SERVICE_STATUS: mq.MQRCCF_SERV_STATUS_NOT_FOUND,
}


def run_filtered(handler: Callable[[Message, _P], list[Message]], command: Message, parsed: _P, selector: int | None) -> list[Message]:
    """The handler's answer to ``command`` with only the instances that pass ``parsed.filter``; ``selector`` is the
    command's list of fields to show (MQIACH_CHANNEL_INSTANCE_ATTRS, ...)."""
    wanted = parsed.filter
    shown = handler(command, parsed)
    if wanted is None or not shown or shown[0].comp_code != mq.MQCC_OK:
        return shown
    full = shown
    if selector is not None:
        values = parsed.values
        had, asked = selector in values, values.get(selector)
        values[selector] = (mq.MQIACF_ALL,)
        try:
            full = handler(command, parsed)
        finally:
            if had:
                values[selector] = asked
            else:
                del values[selector]
        if len(full) != len(shown):  # (cannot happen with these handlers: then judge what was shown)
            full = shown
    kept = [answer for judged, answer in zip(full, shown, strict=True) if passes(judged, wanted)]
    if kept:
        return responses.numbered(kept)
    reason = _NONE_PASSES.get(command.command)
    return responses.success(command) if reason is None else responses.error_responses(command, reason)


def passes(answer: Message, wanted: IntegerFilter | StringFilter) -> bool:
    """Whether a data response carries the filter's field with a value that passes it (strings without their padding)."""
    for parameter in answer.parameters:
        if parameter.parameter == wanted.parameter:
            value = getattr(parameter, "value", None)
            if isinstance(value, str):
                value = value.rstrip(" ")
            return holds(wanted, value)
    return False
