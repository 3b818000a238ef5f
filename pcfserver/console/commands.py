"""Every change a console page makes is an MQSC command, shown to the user before it runs and run as runmqsc runs
it (the MQSC dialect, the same engine, under the viewer's identity): one way to change things, whose answer is
the one an administrator knows."""

from __future__ import annotations

from dataclasses import dataclass

from pcfserver.console.web import ConsoleContext
from pcfserver.dialects import mqsc
from pcfserver.dialects.outcome import OK


@dataclass(frozen=True, slots=True)
class Ran:
    command: str
    ok: bool
    lines: tuple[str, ...]


def run_mqsc(ctx: ConsoleContext, text: str) -> Ran:
    """One MQSC command (several lines become one), applied whole or not at all inside the page's operation."""
    command = mqsc.one_line(text).strip()
    outcome = mqsc.run(command, ctx.execute)
    return Ran(command, outcome.status == OK, tuple(outcome.lines))
