"""The attribute values the console never shows (formats/console-secrets.tsv): masked in object pages, the change
history, and the MQSC commands and answers its pages show."""

from __future__ import annotations

import re
from functools import cache

from pcfserver.dialects.tables import attributes_of
from pcfserver.tables import read_table, value_of

MASK = "********"
_TABLES = ("authinfo", "channel", "qmgr", "queue", "topic", "sub", "listener", "service", "comminfo", "namelist", "process")


@cache
def parameters() -> frozenset[int]:
    return frozenset(value_of(row["parameter"]) for row in read_table("console-secrets.tsv"))


@cache
def keywords() -> tuple[str, ...]:
    """The MQSC keywords of the secret attributes (LDAPPWD, PASSWORD, KEYRPWD)."""
    secret = parameters()
    return tuple(sorted({attr.keyword("mqsc") for table in _TABLES for attr in attributes_of(table) if attr.parameter in secret} - {""}))


@cache
def _pattern() -> re.Pattern[str]:
    words = keywords()
    # KEYWORD(value) or KEYWORD('quoted value'), as commands are typed and as runmqsc shows them
    return re.compile(r"\b(" + "|".join(map(re.escape, words)) + r")\(\s*('(?:[^']|'')*'|[^)]*?)\s*\)", re.IGNORECASE)


def _masked(found: re.Match[str]) -> str:
    value = found[2]
    blank = not value.strip("' ")
    return found[0] if blank else f"{found[1]}({MASK})"


def mask_text(text: str) -> str:
    """MQSC text (a command, or runmqsc's answer) with every secret attribute's value replaced by ********."""
    return _pattern().sub(_masked, text)


def placeholder_in(text: str) -> str:
    """The keyword of the first secret attribute whose value in ``text`` is the console's mask (a revert or a recent
    command copied from a page): running it would set the password to ********.  "" when there is none."""
    for found in _pattern().finditer(text):
        if found[2].strip("'") == MASK:
            return found[1].upper()
    return ""


def shown(parameter: int, text: str) -> str:
    """A value as a page shows it: ******** for a secret that is set."""
    return MASK if parameter in parameters() and text.strip() else text
