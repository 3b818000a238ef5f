"""PCF client library.

    async with connect("127.0.0.1", 1414) as c:
        responses = await c.execute(message)         # raises PcfCommandError on failure

    with connect_sync("127.0.0.1", 1414) as c:       # the same, blocking
        responses = c.execute(message)

A failed command raises :class:`PcfCommandError`, which keeps the specific reason, the
parameter in error and every response message.  ``execute_many`` pipelines several commands
(one send, answers in request order).
"""

from pcfserver.client.aio import Client, connect
from pcfserver.client.protocol import (
    ClientProtocol,
    PcfClientError,
    PcfCommandError,
    PcfConnectionClosed,
    PcfProtocolError,
    check,
    failure_of,
)
from pcfserver.client.sync import SyncClient, connect_sync

__all__ = [
    "Client",
    "ClientProtocol",
    "PcfClientError",
    "PcfCommandError",
    "PcfConnectionClosed",
    "PcfProtocolError",
    "SyncClient",
    "check",
    "connect",
    "connect_sync",
    "failure_of",
]
