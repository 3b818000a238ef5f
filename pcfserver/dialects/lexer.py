"""Tokenizers shared by the command languages (sans-IO, text in, tokens out).

* MQSC and IBM i CL: ``KEYWORD(value)`` items separated by blanks or commas, single quotes
  with ``''`` for a quote, unquoted words folded to upper case, blanks allowed inside the
  parentheses (``TRIGDPTH ( 1)``) and between a keyword and its parenthesis
  (round2-semantics §5.1).  An unquoted value may hold balanced parentheses of its own when they follow a
  word directly (``CONNAME(host(1414))``: IBM's uniform-cluster scripts write it so).
* TPF ZMQSC: ``KEYWORD-value`` tokens separated by blanks; a quoted value keeps its case
  (seed 002).

Every problem is a :class:`CommandSyntaxError` carrying the command text up to the point where
it was found (runmqsc's "command segment").
"""

from __future__ import annotations

import re
from dataclasses import dataclass

_NUMBER = re.compile(r"[+-]?[0-9]{1,10}\Z")
INT_MIN, INT_MAX = -(2**31), 2**31 - 1  # an MQCFIN holds a signed 32-bit integer


def parse_number(text: str) -> int | None:
    """A decimal integer that fits an MQCFIN, or None (ASCII digits only, no blanks)."""
    if not _NUMBER.match(text):
        return None
    value = int(text)
    return value if INT_MIN <= value <= INT_MAX else None


class CommandSyntaxError(ValueError):
    """A command that cannot be read; ``segment`` is its text up to and including the error."""

    def __init__(self, message: str, segment: str, *, keyword: str | None = None) -> None:
        super().__init__(f"{message}: {segment}")
        self.message = message
        self.segment = segment
        self.keyword = keyword


class UnknownCommandError(CommandSyntaxError):
    """The first word is not a command of the language."""


@dataclass(frozen=True, slots=True)
class Token:
    """A word or a quoted string.  ``text`` is upper-cased unless quoted; ``raw`` is as typed."""

    text: str
    quoted: bool
    raw: str
    start: int
    end: int


@dataclass(frozen=True, slots=True)
class Item:
    """A keyword (or bare value) and, when it has one, the tokens between its parentheses."""

    word: Token
    values: tuple[Token, ...] | None
    start: int
    end: int

    @property
    def keyword(self) -> str:
        return self.word.text


_SEPARATORS = " ,\t"
_SPECIAL = " ,\t()'"


def segment(text: str, end: int) -> str:
    """The command text up to ``end``, as runmqsc shows it after AMQ8405I."""
    return text[:end].rstrip()


def _quoted(text: str, start: int) -> tuple[str, int]:
    """The string of a quote starting at ``start`` and the index after its closing quote."""
    out: list[str] = []
    i = start + 1
    while True:
        j = text.find("'", i)
        if j < 0:
            raise CommandSyntaxError("a quoted string is not closed", text.rstrip())
        out.append(text[i:j])
        if text.startswith("''", j):
            out.append("'")
            i = j + 2
            continue
        return "".join(out), j + 1


def tokens(text: str) -> list[Token]:
    """Words, quoted strings and parentheses (tokens whose raw text is ``(`` or ``)`` and not quoted)."""
    out: list[Token] = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in _SEPARATORS:
            i += 1
        elif c in "()":
            out.append(Token(c, False, c, i, i + 1))
            i += 1
        elif c == "'":
            value, j = _quoted(text, i)
            out.append(Token(value, True, text[i:j], i, j))
            i = j
        else:
            j = i
            while j < n and text[j] not in _SPECIAL:
                j += 1
            raw = text[i:j]
            out.append(Token(raw.upper(), False, raw, i, j))
            i = j
    return out


def _paren(token: Token, which: str) -> bool:
    return not token.quoted and token.raw == which


def _balanced(text: str, parts: list[Token], start: int) -> int:
    """The index of the ``)`` that closes the ``(`` at ``start``."""
    depth = 0
    for j in range(start, len(parts)):
        if _paren(parts[j], "("):
            depth += 1
        elif _paren(parts[j], ")"):
            depth -= 1
            if depth == 0:
                return j
    raise CommandSyntaxError("a parenthesis is not closed", text.rstrip())


def items(text: str, *, bare_lists: bool = False) -> list[Item]:
    """The command as items: ``KEYWORD``, ``KEYWORD(values...)`` or a bare value; with ``bare_lists`` (CL's
    positional lists, ``GRTMQMAUT APP.Q *Q (JACK JILL) (*GET *INQ)``) also ``(values...)`` alone, as an item whose
    word is empty."""
    out: list[Item] = []
    parts = tokens(text)
    i = 0
    while i < len(parts):
        part = parts[i]
        opens_list = bare_lists and _paren(part, "(")
        if (_paren(part, "(") and not opens_list) or _paren(part, ")"):
            raise CommandSyntaxError(f"'{part.raw}' without a keyword", segment(text, part.end))
        values: tuple[Token, ...] | None = None
        end = part.end
        if opens_list:
            i -= 1  # (the list's own parenthesis opens it, with no word before it)
            part = Token("", False, "", part.start, part.start)
        if i + 1 < len(parts) and _paren(parts[i + 1], "("):
            inside: list[Token] = []
            j = i + 2
            while True:
                if j >= len(parts):
                    raise CommandSyntaxError("a parenthesis is not closed", text.rstrip())
                got = parts[j]
                if _paren(got, ")"):
                    break
                if _paren(got, "("):
                    word = inside[-1] if inside else None
                    if word is None or word.quoted or _paren(word, ")") or word.end != got.start:
                        raise CommandSyntaxError("parentheses inside parentheses", segment(text, got.end))
                    # A word with balanced parentheses of its own, unquoted: CONNAME(host(1414)) as IBM's uniform
                    # clusters write it (CONNAME(+CONNAME+) with CONNAME=127.0.0.1(1414)); one value, folded like any word.
                    j = _balanced(text, parts, j)
                    raw = text[word.start : parts[j].end]
                    inside[-1] = Token(raw.upper(), False, raw, word.start, parts[j].end)
                    j += 1
                    continue
                inside.append(got)
                j += 1
            values = tuple(inside)
            end = parts[j].end
            i = j + 1
        else:
            i += 1
        out.append(Item(part, values, part.start, end))
    return out


@dataclass(frozen=True, slots=True)
class TpfToken:
    """A TPF ``KEYWORD-value`` (value None for a bare keyword such as TRIGGER)."""

    keyword: str
    value: str | None
    quoted: bool
    start: int
    end: int


def tpf_tokens(text: str) -> list[TpfToken]:
    """Blank-separated ``KEYWORD-value`` tokens; quotes may hold blanks and dashes."""
    out: list[TpfToken] = []
    i, n = 0, len(text)
    while i < n:
        if text[i] in " \t":
            i += 1
            continue
        start = i
        keyword_chars: list[str] = []
        while i < n and text[i] not in " \t-'":
            keyword_chars.append(text[i])
            i += 1
        keyword = "".join(keyword_chars).upper()
        if i < n and text[i] == "'":
            raise CommandSyntaxError("a quoted string must follow KEYWORD-", segment(text, i + 1))
        if i >= n or text[i] in " \t":
            if not keyword:
                raise CommandSyntaxError("an empty keyword", segment(text, i))
            out.append(TpfToken(keyword, None, False, start, i))
            continue
        i += 1  # the dash
        if not keyword:
            raise CommandSyntaxError("a value without a keyword", segment(text, i))
        if i < n and text[i] == "'":
            value, i = _quoted(text, i)
            if i < n and text[i] not in " \t":
                raise CommandSyntaxError("text after a quoted value", segment(text, i + 1))
            out.append(TpfToken(keyword, value, True, start, i))
            continue
        value_start = i
        while i < n and text[i] not in " \t":
            if text[i] == "'":
                raise CommandSyntaxError("a quote inside an unquoted value", segment(text, i + 1))
            i += 1
        raw = text[value_start:i]
        if not raw:
            raise CommandSyntaxError(f"{keyword}- has no value", segment(text, i))
        out.append(TpfToken(keyword, raw.upper(), False, start, i))
    return out
