"""Engine wrappers for tests: one that records and can slow down batches, one that is wrong on purpose.

Both wrap a real engine (``pcfserver.engine.open_engine``).  ``RecordingEngine`` notes the size
of every batch, can delay batches and can fail a whole batch that names a given queue (as an
engine bug would).  ``WrongEngine`` breaks the response rules, so that a conformance run
against it must fail.
"""

from __future__ import annotations

import threading
from collections.abc import Sequence
from dataclasses import replace
from typing import Protocol

from pcfserver import mq
from pcfserver.codec import Message
from pcfserver.engine.responses import success


class _Inner(Protocol):
    def execute_batch(self, commands: Sequence[Message]) -> list[list[Message]]: ...

    def close(self) -> None: ...


class RecordingEngine:
    """Delegates to ``inner``; records batch sizes, sleeps ``delay`` seconds per batch, fails batches naming ``explode_on``."""

    def __init__(self, inner: _Inner, *, delay: float = 0.0, explode_on: str | None = None) -> None:
        self.inner = inner
        self.delay = delay
        self.explode_on = explode_on
        self.batches: list[int] = []
        self.closed = False
        self._lock = threading.Lock()

    def execute(self, command: Message) -> list[Message]:
        return self.execute_batch([command])[0]

    def execute_batch(self, commands: Sequence[Message]) -> list[list[Message]]:
        with self._lock:
            if self.delay:
                threading.Event().wait(self.delay)
            if self.explode_on is not None and any((c.str_value(mq.MQCA_Q_NAME) or "").rstrip() == self.explode_on for c in commands):
                raise RuntimeError("engine failed on the batch")
            self.batches.append(len(commands))
            return self.inner.execute_batch(commands)

    def close(self) -> None:
        self.closed = True
        self.inner.close()


class WrongEngine(RecordingEngine):
    """Gets the response rules wrong: no summary after an error, and success for unknown commands."""

    def execute_batch(self, commands: Sequence[Message]) -> list[list[Message]]:
        answers = super().execute_batch(commands)
        out: list[list[Message]] = []
        for command, answer in zip(commands, answers, strict=True):
            if answer and answer[0].reason == mq.MQRCCF_CFH_COMMAND_ERROR:
                out.append(success(command))
            elif len(answer) > 1 and answer[-1].reason == mq.MQRCCF_COMMAND_FAILED:
                out.append([replace(answer[0], control=mq.MQCFC_LAST)])
            else:
                out.append(answer)
        return out
