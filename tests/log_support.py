"""The server's log as JSON objects, caught while a test runs (the server logger at INFO meanwhile)."""

from __future__ import annotations

import json
import logging
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from pcfserver.server.logs import LOGGER_NAME, JsonFormatter


class JsonLines(logging.Handler):
    """Every line the server logs, formatted as ``--log-format json`` writes it."""

    def __init__(self) -> None:
        super().__init__(logging.INFO)
        self.lines: list[str] = []
        self.setFormatter(JsonFormatter())

    def emit(self, record: logging.LogRecord) -> None:
        self.lines.extend(self.format(record).splitlines())

    def events(self, event: str) -> list[dict[str, Any]]:
        """The objects of one event ("http", "command", ...), in the order they were written."""
        return [row for row in map(json.loads, self.lines) if row.get("event") == event]


@contextmanager
def server_log() -> Iterator[JsonLines]:
    handler = JsonLines()
    logger = logging.getLogger(LOGGER_NAME)
    logger.addHandler(handler)
    old_level = logger.level
    logger.setLevel(logging.INFO)
    try:
        yield handler
    finally:
        logger.removeHandler(handler)
        logger.setLevel(old_level)
