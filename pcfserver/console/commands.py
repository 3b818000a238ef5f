"""Every change a console page makes is an MQSC command, shown to the user before it runs and run as runmqsc runs
it (the MQSC dialect, the same engine, under the viewer's identity): one way to change things, whose answer is
the one an administrator knows."""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from pcfserver.console.secrets import mask_text
from pcfserver.console.web import ConsoleContext
from pcfserver.dialects import mqsc
from pcfserver.dialects.outcome import OK
from pcfserver.dialects.script import ScriptCommand, read_script
from pcfserver.tables import read_table


@dataclass(frozen=True, slots=True)
class Ran:
    command: str
    ok: bool
    lines: tuple[str, ...]


_REFUSED_FIELD = re.compile(r"Reason (\d+) (\w+) for (\w+)\.$")


def field_errors(ran: Ran) -> dict[str, str]:
    """The keywords a failed command's answer names (AMQ8101S ... Reason 3228 MQRCCF_PARM_MISSING for TOPICSTR.), each
    with what the queue manager said: a form marks those fields, as it marks what it checks itself."""
    out: dict[str, str] = {}
    said = _what_fields_need()
    for line in ran.lines:
        found = _REFUSED_FIELD.search(line)
        if found is not None:
            need = said.get((found[2], found[3]))
            out[found[3]] = f"The queue manager refused it: {found[2]} ({found[1]})." + (f" {need}" if need else "")
    return out


@cache
def _what_fields_need() -> dict[tuple[str, str], str]:
    """(reason, keyword) -> what the field needs (formats/console-reasons.tsv)."""
    return {(row["reason"], row["keyword"]): row["text"] for row in read_table("console-reasons.tsv")}


def run_mqsc(ctx: ConsoleContext, text: str) -> Ran:
    """One MQSC command (several lines become one), applied whole or not at all inside the page's operation."""
    command = mqsc.one_line(text).strip()
    outcome = mqsc.run(command, ctx.execute)
    # what a page shows of it: a password the command sets or the answer displays is masked (console/secrets.py)
    return Ran(mask_text(command), outcome.status == OK, tuple(mask_text(line) for line in outcome.lines))


_DISPLAY_ONLY = re.compile(r"\s*(DISPLAY|DIS|DISP|DISPL|DISPLA|PING)\b", re.IGNORECASE)
MAX_SCRIPT_COMMANDS = 100


def script_commands(text: str) -> list[str]:
    """The commands of a runmqsc script: one a line, ``+`` and ``-`` continuing, ``*`` comments and blank lines left out."""
    return [event.text for event in read_script(text.splitlines()) if isinstance(event, ScriptCommand) and event.text]


def display_only(text: str) -> bool:
    """Whether every command of a script only displays (DISPLAY, PING), as the REST API's runCommand tells them apart:
    what a read-only administrator may send.  The engine still checks each command under the viewer's identity."""
    return all(_DISPLAY_ONLY.match(command) for command in script_commands(text))
