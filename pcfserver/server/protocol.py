"""One connection's PCF byte stream, without I/O (no trio here).

The server feeds the bytes it receives with ``receive_data`` and takes complete command
messages with ``next_commands``.  A message whose framing is lost becomes a
:class:`FramingError` holding the error response to send before the connection is closed.  ``encode_responses`` turns the engine's answers into the bytes of one send.
"""

from __future__ import annotations

import struct
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from pcfserver.codec import Message, PcfError, StreamDecoder, encode
from pcfserver.engine.responses import error_responses

HEADER_LENGTH = 36
_BIG_36 = b"\x00\x00\x00\x24"
_LITTLE_36 = b"\x24\x00\x00\x00"


@dataclass(frozen=True, slots=True)
class FramingError:
    """A message the decoder could not frame: its error and the answer to send for it."""

    error: PcfError
    offset: int
    command: int
    byte_order: str
    responses: tuple[Message, ...]


def header_fields(head: bytes) -> tuple[int, str]:
    """(Command, byte order) read from the first bytes of a message, as far as they show them.

    The byte order comes from StrucLength (36 either way) or, failing that, from the Type field
    (a small number in one order only); the command is 0 when fewer than 16 bytes are known.
    """
    order: str | None = None
    if len(head) >= 8:
        if head[4:8] == _BIG_36:
            order = "big"
        elif head[4:8] == _LITTLE_36:
            order = "little"
    if order is None and len(head) >= 4:
        big, little = struct.unpack(">l", head[:4])[0], struct.unpack("<l", head[:4])[0]
        if 0 < little < 256 and not 0 < big < 256:
            order = "little"
    order = order or "big"
    command = 0
    if len(head) >= 16:
        command = struct.unpack(">l" if order == "big" else "<l", head[12:16])[0]
    return command, order


def framing_error_responses(error: PcfError, head: bytes) -> FramingError:
    command, order = header_fields(head)
    answers = error_responses(command, error.reason, error.parameter_id)
    return FramingError(
        error=error,
        offset=error.offset or 0,
        command=command,
        byte_order=order,
        responses=tuple(replace(m, byte_order=order) for m in answers),
    )


# Responses without parameters (the engine shares one success message per command, version and
# byte order) encoded once, found by identity; each entry keeps its message alive.
_BARE: dict[tuple[int, int], tuple[Message, bytes]] = {}
_BARE_ENTRIES = 1024


def encode_responses(answers: Iterable[Sequence[Message]], default_ccsid: int = 819) -> bytes:
    """All response messages of several commands, each in its own byte order, as one buffer."""
    out: list[bytes] = []
    for answer in answers:
        for m in answer:
            if m.parameters:
                out.append(encode(m, byte_order=m.byte_order, default_ccsid=default_ccsid))
                continue
            key = (id(m), default_ccsid)
            hit = _BARE.get(key)
            if hit is None:
                if len(_BARE) >= _BARE_ENTRIES:
                    _BARE.clear()
                hit = _BARE[key] = (m, encode(m, byte_order=m.byte_order, default_ccsid=default_ccsid))
            out.append(hit[1])
    return b"".join(out)


class ServerProtocol:
    """Bytes in, command messages out, for one connection.

    A message that breaks a rule but keeps its framing comes out with ``warnings`` and is
    answered by the engine; lost framing sets ``failure``, whose answer is built from the first
    bytes of the message being decoded (its Command and byte order).
    """

    def __init__(self, *, max_message_bytes: int, default_ccsid: int = 819) -> None:
        self.default_ccsid = default_ccsid
        # Rule violations that keep the framing come back as warnings, which the engine answers
        # as that command's error; only lost framing ends the connection.
        self._decoder = StreamDecoder(strict=False, resync=False, default_ccsid=default_ccsid, max_message_bytes=max_message_bytes)
        self._received = 0
        self.failure: FramingError | None = None

    @property
    def received(self) -> int:
        """Bytes received so far."""
        return self._received

    @property
    def boundary(self) -> int:
        """Stream offset where the first message not yet returned starts."""
        return self._decoder.offset

    @property
    def buffered(self) -> int:
        """Bytes received and not yet returned in a message (0 on a message boundary)."""
        return self._received - self._decoder.offset

    def receive_data(self, data: bytes) -> None:
        """Bytes from the peer.  After a framing error they are only counted (the input is drained)."""
        if not data:
            return
        self._received += len(data)
        if self.failure is not None:
            return
        self._decoder.feed(data)

    def next_commands(self, limit: int) -> list[Message]:
        """Up to ``limit`` complete messages; on a framing error, those before it and ``failure`` set."""
        out: list[Message] = []
        if self.failure is not None:
            return out
        decoder = self._decoder
        try:
            while len(out) < limit:
                message = decoder.next_message()
                if message is None:
                    break
                out.append(message)
        except PcfError as error:
            self.failure = framing_error_responses(error, decoder.peek(HEADER_LENGTH))
            return out
        return out

    def encode(self, answers: Iterable[Sequence[Message]]) -> bytes:
        return encode_responses(answers, self.default_ccsid)
