"""The client side of the wire protocol, without I/O: commands to bytes, bytes to answers.

An *answer* is every response message a server sends for one command, up to and including
the one with Control LAST.  Shared by the trio client, the blocking client and the
conformance client.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

from pcfserver import mq, names
from pcfserver.codec import Message, PcfError, StreamDecoder, String, StringFilter, encode
from pcfserver.codec.decoder import DEFAULT_MAX_MESSAGE_BYTES

# The answers of clients that read this much without a message boundary are not PCF.
DEFAULT_MAX_RESPONSE_BYTES = DEFAULT_MAX_MESSAGE_BYTES


class PcfClientError(Exception):
    """The conversation with the server failed (not a failed command)."""


class PcfConnectionClosed(PcfClientError):
    """The server closed the connection before the whole answer arrived."""

    def __init__(self, message: str, partial: Sequence[Message] = ()) -> None:
        super().__init__(message)
        self.partial = list(partial)


class PcfProtocolError(PcfClientError):
    """The server sent bytes that are not a PCF response stream."""


class PcfCommandError(Exception):
    """A command failed.  Keeps the specific reason, the parameter in error and every response.

    ``reason`` is the first failure's reason other than the MQRCCF_COMMAND_FAILED summary
    (or the summary's when that is all there is), ``parameter_id`` the MQIACF_PARAMETER_ID
    value of that message (None when it names none) and ``responses`` all messages received.
    """

    def __init__(self, reason: int, parameter_id: int | None, responses: Sequence[Message]) -> None:
        self.reason = reason
        self.parameter_id = parameter_id
        self.responses = list(responses)
        command = responses[0].command if responses else 0
        shown = names.reason_name(reason) or str(reason)
        where = ""
        if parameter_id is not None:
            where = f" (parameter {names.parameter_name(parameter_id) or parameter_id})"
        super().__init__(f"{names.command_name(command) or command} failed: {shown} [{reason}]{where}")

    @property
    def reason_name(self) -> str:
        return names.reason_name(self.reason) or str(self.reason)

    @property
    def comp_code(self) -> int:
        return mq.MQCC_FAILED


def failure_of(responses: Sequence[Message]) -> PcfCommandError | None:
    """The error a failed answer stands for, or None when no message has CompCode FAILED."""
    failed = [m for m in responses if m.comp_code == mq.MQCC_FAILED]
    if not failed:
        return None
    specific = next((m for m in failed if m.reason != mq.MQRCCF_COMMAND_FAILED), failed[0])
    return PcfCommandError(specific.reason, specific.int_value(mq.MQIACF_PARAMETER_ID), responses)


def raise_first_failure(answers: Sequence[Sequence[Message]]) -> None:
    """Raises PcfCommandError for the first failed answer of several commands, if any failed."""
    for answer in answers:
        error = failure_of(answer)
        if error is not None:
            raise error


def check(responses: list[Message]) -> list[Message]:
    """The responses, or PcfCommandError when the command failed."""
    error = failure_of(responses)
    if error is not None:
        raise error
    return responses


class ClientProtocol:
    """Encodes commands and splits the response stream into answers (one per command, in order)."""

    def __init__(self, *, default_ccsid: int = 819, max_response_bytes: int = DEFAULT_MAX_RESPONSE_BYTES) -> None:
        self.default_ccsid = default_ccsid
        self._decoder = StreamDecoder(strict=True, default_ccsid=default_ccsid, max_message_bytes=max_response_bytes)
        self._current: list[Message] = []

    def command_bytes(self, message: Message, byte_order: str | None = None) -> bytes:
        return encode(message, byte_order=byte_order or message.byte_order, default_ccsid=self.default_ccsid)

    def receive_data(self, data: bytes | bytearray) -> None:
        self._decoder.feed(data)

    @property
    def partial(self) -> list[Message]:
        """Responses received for the answer not yet complete."""
        return list(self._current)

    @property
    def buffered(self) -> int:
        return self._decoder.buffered

    def next_answer(self) -> list[Message] | None:
        """The next complete answer, or None when more bytes are needed."""
        try:
            while True:
                message = self._decoder.next_message()
                if message is None:
                    return None
                self._current.append(message)
                if message.control == mq.MQCFC_LAST:
                    answer, self._current = self._current, []
                    return answer
        except PcfError as error:
            raise PcfProtocolError(f"malformed response from the server: {error}") from error


_UTF8 = 1208


def portable(command: Message) -> Message:
    """The command with its strings that ISO 8859-1 cannot hold marked UTF-8 (CCSID 1208), for a server to decode as
    it would decode them in process (the console, the REST gateway's hop to a partner)."""

    def fits(text: str) -> bool:
        try:
            text.encode("latin-1")
        except UnicodeEncodeError:
            return False
        return True

    params = tuple(
        replace(p, ccsid=_UTF8) if isinstance(p, (String, StringFilter)) and p.ccsid == 0 and not fits(p.value) else p
        for p in command.parameters
    )
    return replace(command, parameters=params)
