"""Server logging with the stdlib: text lines or one JSON object per line."""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any, TextIO

LOGGER_NAME = "pcfserver.server"
_FIELDS = ("event", "peer", "connection", "command", "queue", "reason", "us")


class JsonFormatter(logging.Formatter):
    """One JSON object per record: time, level, message and the structured fields given as ``extra``."""

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {
            "time": time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(record.created)) + f".{int(record.msecs):03d}Z",
            "level": record.levelname.lower(),
            "msg": record.getMessage(),
        }
        for name in _FIELDS:
            value = record.__dict__.get(name)
            if value is not None:
                out[name] = value
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, separators=(",", ":"))


def configure_logging(log_format: str = "text", stream: TextIO | None = None, level: int = logging.INFO) -> logging.Handler:
    """Sends the server's log to ``stream`` (stderr) in the chosen format; returns the handler."""
    handler = logging.StreamHandler(stream or sys.stderr)
    if log_format == "json":
        handler.setFormatter(JsonFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(message)s"))
    logger = logging.getLogger(LOGGER_NAME)
    for old in list(logger.handlers):
        logger.removeHandler(old)
    logger.addHandler(handler)
    logger.setLevel(level)
    logger.propagate = False
    return handler
