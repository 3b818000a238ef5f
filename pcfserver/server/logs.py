"""Server logging with the stdlib: text lines or one JSON object per line.

Command lines are logged in batches: one log record carries the lines of all commands a
connection had answered together (its message, a :class:`CommandLines`), and the formatters below write one
line (or one JSON object) per command.  This keeps the cost of "one line per command" to one
record and one write per batch instead of per command.  The HTTP access log is batched the same
way (:class:`AccessLog`), each line keeping the time its request was answered.
"""

from __future__ import annotations

import json
import logging
import sys
import time
from typing import Any, TextIO

LOGGER_NAME = "pcfserver.server"
_FIELDS = ("event", "peer", "connection", "command", "queue", "reason", "us")





Entry = tuple[str, int, str, str | None, str, int]
"""One command's log line: peer, connection number, command name, queue, reason name, microseconds."""


class CommandLines:
    """The message of a batched command record: renders as one text line per command."""

    __slots__ = ("entries",)

    def __init__(self, entries: list[Entry]) -> None:
        self.entries = entries

    def lines(self) -> list[str]:
        return [f"{peer} {command} {queue or '-'} {reason} {us}us" for peer, _, command, queue, reason, us in self.entries]

    def __str__(self) -> str:
        return "\n".join(self.lines())


AccessEntry = tuple[float, str, str, str, str, int, int]
"""One request's access line: time, peer, method, path, kind (put, get, ... or empty), status, microseconds."""


class AccessLines:
    """The message of a batched access record: renders as one text line per request."""

    __slots__ = ("entries",)

    def __init__(self, entries: list[AccessEntry]) -> None:
        self.entries = entries

    def lines(self) -> list[str]:
        return [f"{peer} {method} {path} {kind or '-'} {status} {us}us" for _, peer, method, path, kind, status, us in self.entries]

    def __str__(self) -> str:
        return "\n".join(self.lines())


class AccessLog:
    """The access log: one line per answered request, each with its own time, written in batches.

    ``add`` keeps a line; ``flush`` hands every line kept to ``logger`` as one record (:class:`AccessLines`), which
    the formatters below write as one line (or JSON object) per request.  A record per request cost 8 us of a
    request's CPU (the record's fields, the handler's lock, formatting, a write): the HTTP listener flushes
    ``ACCESS_DELAY`` after the first line kept, or at ``ACCESS_BATCH`` lines, and when it stops.

    The record has every attribute a stdlib record has (formatters and handlers see an ordinary INFO record from
    this module; ``event`` is "http"), made from a template instead of ``Logger.info``."""

    __slots__ = ("_logger", "_template", "pending")

    def __init__(self, logger: logging.Logger) -> None:
        self._logger = logger
        self._template: dict[str, Any] | None = None
        self.pending: list[AccessEntry] = []

    def enabled(self) -> bool:
        return self._logger.isEnabledFor(logging.INFO)

    def add(self, peer: str, method: str, path: str, kind: str, status: int, us: int) -> None:
        self.pending.append((time.time(), peer, method, path, kind, status, us))

    def flush(self) -> None:
        entries = self.pending
        if not entries:
            return
        self.pending = []
        template = self._template
        if template is None:
            template = self._template = logging.LogRecord(self._logger.name, logging.INFO, __file__, 0, "", None, None, "flush").__dict__.copy()
        record = _new_record(logging.LogRecord)
        fields = record.__dict__
        fields.update(template)
        now = time.time()
        fields["created"] = now
        fields["msecs"] = (now - int(now)) * 1000
        fields["relativeCreated"] = template["relativeCreated"] + (now - template["created"]) * 1000
        fields["msg"] = AccessLines(entries)
        fields["event"] = "http"
        self._logger.handle(record)


_new_record = object.__new__


_second: list[tuple[int, str]] = [(-1, "")]  # the last second formatted, and its text


def _clock(created: float) -> str:
    """``yyyy-mm-ddThh:mm:ss.mmmZ``, the seconds formatted once per second (a busy server logs many lines in one)."""
    second = int(created)
    cached = _second[0]
    if cached[0] != second:
        cached = _second[0] = (second, time.strftime("%Y-%m-%dT%H:%M:%S", time.gmtime(second)))
    return f"{cached[1]}.{int((created - second) * 1000):03d}Z"


class TextFormatter(logging.Formatter):
    """``time LEVEL message``; a batched command record becomes one such line per command."""

    def format(self, record: logging.LogRecord) -> str:
        prefix = f"{_clock(record.created)} {record.levelname} "
        message = record.msg
        if isinstance(message, CommandLines):
            return "\n".join(prefix + line for line in message.lines())
        if isinstance(message, AccessLines):
            level = record.levelname
            return "\n".join(f"{_clock(entry[0])} {level} {line}" for entry, line in zip(message.entries, message.lines(), strict=True))
        text = prefix + record.getMessage()
        if record.exc_info:
            text += "\n" + self.formatException(record.exc_info)
        return text


class JsonFormatter(logging.Formatter):
    """One JSON object per line: time, level, message and the structured fields given as ``extra``."""

    def format(self, record: logging.LogRecord) -> str:
        base: dict[str, Any] = {"time": _clock(record.created), "level": record.levelname.lower()}
        message = record.msg
        if isinstance(message, CommandLines):
            rows = []
            for (peer, number, command, queue, reason, us), line in zip(message.entries, message.lines(), strict=True):
                row = dict(base, msg=line, event="command", peer=peer, connection=number, command=command, queue=queue, reason=reason, us=us)
                rows.append(json.dumps(row, separators=(",", ":")))
            return "\n".join(rows)
        if isinstance(message, AccessLines):
            level = base["level"]
            rows = []
            for (created, peer, method, path, kind, status, us), line in zip(message.entries, message.lines(), strict=True):
                row = {
                    "time": _clock(created), "level": level, "msg": line, "event": "http", "peer": peer,
                    "command": f"{method} {kind or '-'}", "queue": path, "reason": str(status), "us": us,
                }
                rows.append(json.dumps(row, separators=(",", ":")))
            return "\n".join(rows)
        out = dict(base, msg=record.getMessage())
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
    handler.setFormatter(JsonFormatter() if log_format == "json" else TextFormatter())
    logger = logging.getLogger(LOGGER_NAME)
    for old in list(logger.handlers):
        logger.removeHandler(old)
    logger.addHandler(handler)
    logger.setLevel(level)
    logger.propagate = False
    return handler
