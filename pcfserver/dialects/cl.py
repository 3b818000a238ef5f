"""What every IBM i CL command shares once read: the command and its values by keyword, the analyser's refusal, a
value's word, and the job-log line of a message (pcfserver/dialects/ibmi.py reads the commands and carries them
out; ibmi_authority.py the authority ones)."""

from __future__ import annotations

from dataclasses import dataclass

from pcfserver.dialects.lexer import CommandSyntaxError, Token, segment
from pcfserver.dialects.tables import AttrValue, CommandRow, line, message, vocabulary

DIALECT = "ibmi"


class ClError(CommandSyntaxError):
    """A CL command the command analyser refuses (CPD/CPF message key and inserts)."""

    def __init__(self, key: str, why: str, text_segment: str, **inserts: object) -> None:
        super().__init__(why, text_segment, keyword=str(inserts.get("keyword", "")) or None)
        self.key = key
        self.inserts = inserts


@dataclass(frozen=True, slots=True)
class ClCommand:
    """A read CL command: its name, the table row and each parameter's tokens by keyword."""

    name: str
    row: CommandRow
    values: dict[str, tuple[Token, ...]]
    text: str

    def first(self, keyword: str) -> Token | None:
        tokens = self.values.get(keyword)
        return tokens[0] if tokens else None


def single(command: ClCommand, keyword: str) -> Token:
    """The one value of a keyword (refused when it was given several)."""
    tokens = command.values[keyword]
    if len(tokens) != 1:
        raise ClError("syntax", f"{keyword} takes one value", command.text.rstrip(), command=command.name)
    return tokens[0]


def through(command: ClCommand, token: Token) -> str:
    """The command's text up to and including ``token`` (the segment a refusal shows)."""
    return segment(command.text, token.end)


def word_value(parameter: int, token: Token) -> AttrValue | None:
    """The value a word stands for (``*YES``, ``*LCLQ`` ...) for ``parameter``; None for a quoted value or another word."""
    words = vocabulary(DIALECT).words.get(parameter)
    if words is None or token.quoted:
        return None
    return words.to_value.get(token.text)


def check_output(command: ClCommand) -> None:
    """A display's OUTPUT: * or *PRINT (the lines go to the same output either way)."""
    output = command.first("OUTPUT")
    if output is not None and output.text not in ("*", "*PRINT"):
        raise ClError("syntax", f"{output.raw} is not a value of OUTPUT", through(command, output), command=command.name)


def quoted(text: str) -> str:
    """A string as CL reads it back: in apostrophes, each apostrophe doubled."""
    return "'" + text.replace("'", "''") + "'"


def continued(parts: list[str]) -> list[str]:
    """A command's words as script lines: the command, then one parameter a line, each but the last ending in ``+``."""
    if len(parts) == 1:
        return list(parts)
    return [f"{parts[0]} +", *(f"  {p} +" for p in parts[1:-1]), f"  {parts[-1]}"]


def job_line(key: str, **inserts: object) -> str:
    """A job-log line; a success or display of a kind without ibmi rows takes runmqsc's message (the AMQ catalogue
    IBM i shares) without its severity letter, as the ibmi queue rows show AMQ8006 for runmqsc's AMQ8006I."""
    if message(DIALECT, key) is None and key.startswith(("ok:", "display:")):
        shared = message("mqsc", key)
        if shared is not None:
            ident = shared.id[:-1] if shared.id[-1:].isalpha() else shared.id
            body = shared.format(**inserts)
            return f"{ident}: {body}" if ident else body
    return line(DIALECT, key, **inserts)
