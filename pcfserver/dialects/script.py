"""Script lines to commands (sans-IO, incremental): continuation, comments, blank lines, ``;``.

MQSC rules (round2-semantics §5.2), which IBM i CL source shares for ``+`` and ``-``:

* the last non-blank character decides: ``-`` continues from column 1 of the next line, ``+``
  from its first non-blank character; either may fall inside a word or a quoted string and is
  dropped;
* a line whose first character is ``*`` (MQSC) or that starts with ``/*`` (CL) is a comment;
  comments and blank lines never break a continuation;
* a trailing ``;`` ends the command, even after a ``+``.

TPF ZMQSC commands are one line each (no continuation).  Every input line is kept with the
command it belongs to, so a front end can echo the script as runmqsc does.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass


@dataclass(frozen=True, slots=True)
class ScriptCommand:
    """A whole command and the input lines it was read from (comments inside it included)."""

    text: str
    lines: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ScriptNote:
    """A comment or blank line outside any command (echoed, never run)."""

    line: str


ScriptEvent = ScriptCommand | ScriptNote


class ScriptReader:
    """Feed lines; get back the commands (and lone comment lines) they complete, in order."""

    def __init__(self, *, continuation: bool = True, comments: tuple[str, ...] = ("*",)) -> None:
        self._continuation = continuation
        self._comments = comments
        self._text: list[str] = []
        self._lines: list[str] = []
        self._mode = ""  # "" (no command open), "+" or "-" (the last line continued), "=" (open, joined)

    def _is_comment(self, line: str) -> bool:
        return any(line.startswith(prefix) for prefix in self._comments)

    def feed(self, line: str) -> list[ScriptEvent]:
        line = line.rstrip("\r\n")
        pending = bool(self._lines)
        if not line.strip() or self._is_comment(line):
            if pending:
                self._lines.append(line)
                return []
            return [ScriptNote(line)]
        self._lines.append(line)
        body = line.rstrip()
        if self._mode == "+":
            body = body.lstrip()
        last = body[-1:]
        if last == ";":
            self._text.append(body[:-1])
            return [self._complete()]
        if self._continuation and last in ("+", "-"):
            self._text.append(body[:-1])
            self._mode = last
            return []
        self._text.append(body)
        return [self._complete()]

    def close(self) -> list[ScriptEvent]:
        """End of input: a command left open by a continuation character is complete."""
        if not self._lines:
            return []
        if not "".join(self._text).strip():
            lines, self._lines, self._text, self._mode = self._lines, [], [], ""
            return [ScriptNote(line) for line in lines]
        return [self._complete()]

    def _complete(self) -> ScriptCommand:
        command = ScriptCommand("".join(self._text).strip(), tuple(self._lines))
        self._text, self._lines, self._mode = [], [], ""
        return command


def read_script(lines: Iterable[str], *, continuation: bool = True, comments: tuple[str, ...] = ("*",)) -> list[ScriptEvent]:
    """Every event of a whole script (options as :class:`ScriptReader`)."""
    reader = ScriptReader(continuation=continuation, comments=comments)
    out: list[ScriptEvent] = []
    for line in lines:
        out.extend(reader.feed(line))
    out.extend(reader.close())
    return out
