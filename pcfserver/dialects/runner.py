"""Scripts of commands: runmqsc's transcript (banner, numbered echo, summary, exit code), or TPF's and IBM i's.

:class:`ScriptRunner` is incremental (feed a line, get the lines to print), so an interactive
console and a whole file share it; :func:`run_script` runs a whole text.  ``dialect`` is
``mqsc``, ``tpf``, ``ibmi`` or ``auto`` (per command: ``ZMQSC ...`` is TPF, an IBM i MQ command
name is CL, anything else MQSC).  The transcript's frame is runmqsc's for ``mqsc`` and
``auto`` (so an MQSC script's output is runmqsc's whatever else it holds), TPF's console replies
for ``tpf`` and IBM i's job log (each command echoed after ``> ``) for ``ibmi``.

Exit codes, runmqsc's (round2-semantics §5.4): 0 every command ran, 10 a command failed or had
a syntax error, 20 the queue manager could not be reached (AMQ8146E).

runmqsc's ``-v`` (``verify``) reads every command but runs none: a command with a syntax error is
reported as usual, a good one prints nothing after its echo, and the summary has no "processed" line
(the runmqsc -v transcript IBM quotes in an APAR on verify mode, ibm.com/support/pages/node/4709355:
"2 MQSC commands read. / One command has a syntax error.").  Exit status 10 when a command has a syntax error, else 0.  ``-e`` (``echo`` False) leaves
the numbered copy of each command out of the report.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from pcfserver import mq
from pcfserver.codec.model import IntegerList, Message
from pcfserver.dialects import ibmi, mqsc, tpf
from pcfserver.dialects.outcome import END, FAILED, OK, SYNTAX, Context, Execute, ExecuteError, Outcome, failure
from pcfserver.dialects.script import ScriptCommand, ScriptNote, ScriptReader
from pcfserver.dialects.tables import line, vocabulary

DIALECTS = ("auto", "mqsc", "tpf", "ibmi")
EXIT_OK = 0
EXIT_FAILED = 10
EXIT_ERROR = 20
RUNNERS: dict[str, Callable[[str, Execute, Context], Outcome]] = {"mqsc": mqsc.run, "tpf": tpf.run, "ibmi": ibmi.run}
_COMMENTS = {"mqsc": ("*",), "auto": ("*", "/*"), "ibmi": ("/*",), "tpf": ("*",)}


def detect(text: str) -> str:
    """The language of one command: ``tpf`` for ZMQSC, ``ibmi`` for an IBM i MQ command, else ``mqsc``."""
    words = text.split(None, 1)
    first = words[0].upper() if words else ""
    if first == "ZMQSC":
        return "tpf"
    if first.split("(", 1)[0] in vocabulary("ibmi").commands:
        return "ibmi"
    return "mqsc"


@dataclass(frozen=True, slots=True)
class Transcript:
    """A whole script's output and result (``outcomes`` in command order, END excluded)."""

    text: str
    exit_code: int
    read: int
    syntax_errors: int
    failed: int
    outcomes: tuple[Outcome, ...]


def _mqsc_line(key: str, **inserts: object) -> str:
    return line("mqsc", key, **inserts)


def _count_line(kind: str, count: int) -> str:
    key = f"{kind}:{count if count < 2 else 'n'}"
    return _mqsc_line(key, count=count)


class _Verified(Exception):
    """A command that got as far as being run: its language read it without a syntax error (verify mode)."""


def _verified(command: Message) -> list[Message]:
    raise _Verified


def queue_manager_name(execute: Execute) -> str:
    """The name of the queue manager ``execute`` reaches (ExecuteError when it is not there)."""
    inquiry = Message(mq.MQCMD_INQUIRE_Q_MGR, (IntegerList(mq.MQIACF_Q_MGR_ATTRS, (mq.MQCA_Q_MGR_NAME,)),))
    answer = execute(inquiry)
    if failure(answer) is not None or not answer:
        raise ExecuteError("the queue manager did not answer Inquire Queue Manager")
    return (answer[0].str_value(mq.MQCA_Q_MGR_NAME) or "").rstrip()


class ScriptRunner:
    """Runs a script line by line, producing the lines a user sees as each command completes."""

    def __init__(
        self,
        execute: Execute,
        *,
        dialect: str = "mqsc",
        qmgr_name: str | None = None,
        clock: Callable[[], str] | None = None,
        runner: Callable[[str, Execute, Context], Outcome] | None = None,
        verify: bool = False,
        echo: bool = True,
    ) -> None:
        """``runner``, when given, runs every command in place of its language's front end (``pcfserver
        console --rest``, where the REST API's runCommand runs the MQSC text on the server); it raises
        ExecuteError, as ``execute`` does, when the queue manager cannot be reached.  ``verify``: runmqsc -v,
        read each command and run none (``execute`` is never called; give ``qmgr_name``).  ``echo`` False:
        runmqsc -e, no numbered copy of the commands."""
        if dialect not in DIALECTS:
            raise ValueError(f"unknown dialect {dialect!r}; one of {', '.join(DIALECTS)}")
        self.dialect = dialect
        self.frame = "mqsc" if dialect in ("mqsc", "auto") else dialect
        self._execute = execute
        self._qmgr_name = qmgr_name
        self._clock = clock
        self._runner = runner
        self.verify = verify
        self.echo = echo
        self._reader = ScriptReader(continuation=dialect != "tpf", comments=_COMMENTS[dialect])
        self.number = 0
        self.read = 0
        self.syntax_errors = 0
        self.failed = 0
        self.unreachable = False
        self.ended = False
        self.outcomes: list[Outcome] = []

    @property
    def exit_code(self) -> int:
        if self.unreachable:
            return EXIT_ERROR
        return EXIT_FAILED if self.failed or self.syntax_errors else EXIT_OK

    def _context(self) -> Context:
        name = self._qmgr_name or ""
        return Context(name) if self._clock is None else Context(name, self._clock)

    def _unreachable(self) -> list[str]:
        self.unreachable = True
        self.ended = True
        return [_mqsc_line("unavailable")]

    def start(self) -> list[str]:
        """The opening lines (runmqsc's banner); asks for the queue manager name when not given."""
        lines = [_mqsc_line("banner")] if self.frame == "mqsc" else []
        if self._qmgr_name is None:
            try:
                self._qmgr_name = queue_manager_name(self._execute)
            except ExecuteError:
                return lines + self._unreachable()
        if self.frame == "mqsc":
            lines += [_mqsc_line("starting", qmgr=self._qmgr_name), "", ""]
        return lines

    def feed(self, line: str) -> list[str]:
        """One input line; the output of every command it completes."""
        if self.ended:
            return []
        out: list[str] = []
        for event in self._reader.feed(line):
            out.extend(self._event(event))
            if self.ended:
                break
        return out

    def finish(self) -> list[str]:
        """End of input: any open command, then runmqsc's summary."""
        out: list[str] = []
        if not self.ended:
            for event in self._reader.close():
                out.extend(self._event(event))
                if self.ended:
                    break
        if self.frame == "mqsc" and not self.unreachable:
            out += [_count_line("read", self.read), _count_line("syntax", self.syntax_errors)]
            if not self.verify:
                out.append(_count_line("failed", self.failed))
        self.ended = True
        return out

    def _event(self, event: ScriptCommand | ScriptNote) -> list[str]:
        if isinstance(event, ScriptNote):
            return [f"       : {event.line}".rstrip()] if self.frame == "mqsc" and self.echo else []
        out = self._echo(event)
        dialect = detect(event.text) if self.dialect == "auto" else self.dialect
        try:
            if self.verify:
                outcome = RUNNERS[dialect](event.text, _verified, self._context())
            else:
                outcome = (self._runner or RUNNERS[dialect])(event.text, self._execute, self._context())
        except _Verified:
            outcome = Outcome(OK)
        except ExecuteError:
            return out + self._unreachable()
        if outcome.status == END:
            self.ended = True
            return out
        self.read += 1
        self.outcomes.append(outcome)
        if outcome.status == SYNTAX:
            self.syntax_errors += 1
        elif outcome.status == FAILED:
            self.failed += 1
        return out + outcome.lines

    def _echo(self, command: ScriptCommand) -> list[str]:
        if self.frame == "tpf" or not self.echo:
            return []
        if self.frame == "ibmi":
            return [f"> {command.text}"]
        self.number += 1
        first, *rest = command.lines
        return [f"{self.number:6d} : {first}".rstrip(), *(f"       : {line}".rstrip() for line in rest)]


def script_lines(text: str) -> list[str]:
    """A script's lines as a file reader gives them: only CR and LF end a line (str.splitlines
    would also end one at U+0085, U+2028 and others, which may sit inside a quoted string)."""
    lines = re.split(r"\r\n|\r|\n", text)
    if lines[-1] == "":
        lines.pop()
    return lines


def run_script(text: str, execute: Execute, *, dialect: str = "mqsc", qmgr_name: str | None = None, clock: Callable[[], str] | None = None) -> Transcript:
    """Runs a whole script; its transcript as the platform prints it, and the exit code."""
    runner = ScriptRunner(execute, dialect=dialect, qmgr_name=qmgr_name, clock=clock)
    lines = runner.start()
    if not runner.ended:
        for line in script_lines(text):
            lines += runner.feed(line)
            if runner.ended:
                break
    lines += runner.finish()
    return Transcript(
        text="".join(f"{line}\n" for line in lines),
        exit_code=runner.exit_code,
        read=runner.read,
        syntax_errors=runner.syntax_errors,
        failed=runner.failed,
        outcomes=tuple(runner.outcomes),
    )
