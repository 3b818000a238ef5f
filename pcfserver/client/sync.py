"""The blocking client: the same protocol over a plain socket (no trio, usable anywhere)."""

from __future__ import annotations

import socket
from collections.abc import Iterator, Sequence
from contextlib import contextmanager

from pcfserver.client.protocol import ClientProtocol, PcfConnectionClosed, check, raise_first_failure
from pcfserver.codec import Message

RECEIVE_SIZE = 65536


class SyncClient:
    """One blocking connection to a PCF server; ``timeout`` (seconds) bounds every socket wait."""

    def __init__(
        self,
        host: str,
        port: int,
        *,
        timeout: float | None = 30.0,
        byte_order: str | None = None,
        default_ccsid: int = 819,
    ) -> None:
        self.sock = socket.create_connection((host, port), timeout=timeout)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.byte_order = byte_order
        self.protocol = ClientProtocol(default_ccsid=default_ccsid)
        self.eof = False

    def execute(self, message: Message, *, check_failure: bool = True) -> list[Message]:
        """Sends one command and returns its answer; a failed command raises PcfCommandError."""
        self.sock.sendall(self.protocol.command_bytes(message, self.byte_order))
        answer = self.receive_answer()
        return check(answer) if check_failure else answer

    def execute_many(self, messages: Sequence[Message], *, check_failure: bool = False) -> list[list[Message]]:
        """Pipelines the commands; one answer per command, in order.

        The commands are sent in slices small enough that the answers cannot fill the socket
        buffers while we are still sending.
        """
        answers: list[list[Message]] = []
        pending = 0
        for message in messages:
            self.sock.sendall(self.protocol.command_bytes(message, self.byte_order))
            pending += 1
            if pending >= 32:
                answers.append(self.receive_answer())
                pending -= 1
        for _ in range(pending):
            answers.append(self.receive_answer())
        if check_failure:
            raise_first_failure(answers)
        return answers

    def send_raw(self, data: bytes) -> None:
        """Sends bytes as they are (for malformed-input cases)."""
        self.sock.sendall(data)

    def receive_answer(self) -> list[Message]:
        """The next complete answer."""
        while True:
            answer = self.protocol.next_answer()
            if answer is not None:
                return answer
            data = self.sock.recv(RECEIVE_SIZE)
            if not data:
                self.eof = True
                raise PcfConnectionClosed("the server closed the connection before the answer was complete", self.protocol.partial)
            self.protocol.receive_data(data)

    def wait_closed(self) -> bool:
        """True when the server closes the connection (EOF) with nothing more to read, before the timeout."""
        if self.eof:
            return True
        try:
            while True:
                data = self.sock.recv(RECEIVE_SIZE)
                if not data:
                    self.eof = True
                    return True
                self.protocol.receive_data(data)
        except (TimeoutError, OSError):
            return False

    def close(self) -> None:
        self.sock.close()

    def __enter__(self) -> SyncClient:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


@contextmanager
def connect_sync(host: str, port: int, *, timeout: float | None = 30.0, byte_order: str | None = None, default_ccsid: int = 819) -> Iterator[SyncClient]:
    """A connected :class:`SyncClient`, closed on exit."""
    client = SyncClient(host, port, timeout=timeout, byte_order=byte_order, default_ccsid=default_ccsid)
    try:
        yield client
    finally:
        client.close()
