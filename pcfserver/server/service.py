"""One engine served on every listener: the PCF port, the HTTP port when asked for, one committer.

The listeners are thin shells; what they share lives here and in ``committer``: the group commit
(so a change made over PCF is seen over REST and the other way round, each answer released only
once durable), and shutdown in order: the listeners stop accepting and answer what they have
received, then the committer releases the last group and ends.
"""

from __future__ import annotations

import trio

from pcfserver.server.committer import Committer, Engine
from pcfserver.server.core import PcfServer, ServerConfig
from pcfserver.server.http import HttpServer

Addresses = tuple[tuple[str, int], tuple[str, int] | None]


class Service:
    """The PCF listener and, with ``config.http_port`` set, the HTTP listener over one engine."""

    def __init__(self, engine: Engine, config: ServerConfig) -> None:
        self.committer = Committer(engine, in_thread=config.engine_in_thread)
        self.pcf = PcfServer(engine, config, self.committer)
        self.http = HttpServer(engine, config, self.committer, port=config.http_port) if config.http_port is not None else None

    @property
    def stopping(self) -> bool:
        return self.pcf.stopping

    def shutdown(self) -> None:
        """Both listeners stop accepting and finish what they received; then the committer ends."""
        self.pcf.shutdown()
        if self.http is not None:
            self.http.shutdown()

    async def serve(self, *, task_status: trio.TaskStatus[Addresses] = trio.TASK_STATUS_IGNORED) -> None:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(self.committer.run)
            try:
                async with trio.open_nursery() as listeners:
                    pcf_address = await listeners.start(self.pcf.serve)
                    http_address = await listeners.start(self.http.serve) if self.http is not None else None
                    task_status.started((pcf_address, http_address))
            finally:
                self.committer.close()
