"""The trio client."""

from __future__ import annotations

from collections.abc import AsyncIterator, Sequence
from contextlib import asynccontextmanager

import trio

from pcfserver.client.protocol import ClientProtocol, PcfConnectionClosed, check, raise_first_failure
from pcfserver.codec import Message

RECEIVE_SIZE = 65536


class Client:
    """One connection to a PCF server.  Calls are serialised; use ``execute_many`` to pipeline."""

    def __init__(self, stream: trio.abc.Stream, *, byte_order: str | None = None, default_ccsid: int = 819) -> None:
        self.stream = stream
        self.byte_order = byte_order
        self.protocol = ClientProtocol(default_ccsid=default_ccsid)
        self._lock = trio.Lock()

    async def execute(self, message: Message, *, check_failure: bool = True) -> list[Message]:
        """Sends one command and returns its answer; a failed command raises PcfCommandError."""
        async with self._lock:
            await self.stream.send_all(self.protocol.command_bytes(message, self.byte_order))
            answer = await self._receive_answer()
        return check(answer) if check_failure else answer

    async def execute_many(self, messages: Sequence[Message], *, check_failure: bool = False) -> list[list[Message]]:
        """Pipelines the commands in one send; one answer per command, in order.

        With ``check_failure`` the first failed answer raises PcfCommandError (after all arrived).
        """
        async with self._lock:
            data = b"".join(self.protocol.command_bytes(m, self.byte_order) for m in messages)
            answers: list[list[Message]] = []
            async with trio.open_nursery() as nursery:
                nursery.start_soon(self.stream.send_all, data)
                for _ in messages:
                    answers.append(await self._receive_answer())
        if check_failure:
            raise_first_failure(answers)
        return answers

    async def send_raw(self, data: bytes) -> None:
        """Sends bytes as they are (for tests of malformed input)."""
        async with self._lock:
            await self.stream.send_all(data)

    async def receive_answer(self) -> list[Message]:
        """The next answer (after ``send_raw``)."""
        async with self._lock:
            return await self._receive_answer()

    async def _receive_answer(self) -> list[Message]:
        while True:
            answer = self.protocol.next_answer()
            if answer is not None:
                return answer
            data = await self.stream.receive_some(RECEIVE_SIZE)
            if not data:
                raise PcfConnectionClosed("the server closed the connection before the answer was complete", self.protocol.partial)
            self.protocol.receive_data(data)

    async def aclose(self) -> None:
        await self.stream.aclose()

    async def __aenter__(self) -> Client:
        return self

    async def __aexit__(self, *exc: object) -> None:
        await self.aclose()


@asynccontextmanager
async def connect(host: str, port: int, *, byte_order: str | None = None, default_ccsid: int = 819) -> AsyncIterator[Client]:
    """A connected :class:`Client`, closed on exit.

    ``byte_order`` ("big"/"little") overrides the byte order each message names.
    """
    stream = await trio.open_tcp_stream(host, port)
    client = Client(stream, byte_order=byte_order, default_ccsid=default_ccsid)
    try:
        yield client
    finally:
        await trio.aclose_forcefully(stream)
