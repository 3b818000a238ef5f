"""MQSC's SET CHLAUTH and DISPLAY CHLAUTH as Set / Inquire Channel Authentication Record(s), and back.

``SET CHLAUTH(profile) TYPE(...) ...`` and ``DISPLAY CHLAUTH(generic) ...`` (IBM q086630_, q086070_):
the keywords are the rows of ``formats/chlauth-attributes.tsv``, their value words rows of
``formats/dialect-values.tsv``; each command's keywords are its options in
``formats/dialect-commands.tsv`` (after ``@chlauth``, a trailing ``!`` = required).  USERLIST and
ADDRLIST take lists; the other keywords one value.

DISPLAY: ADDRESS, CLNTUSER, QMNAME, SSLPEER and SSLCERTI with a value are MATCH(RUNCHECK)'s
inputs; bare, they (and every other attribute keyword, and ALL) choose what is shown.  No
attribute named: everything for a specific name or MATCH(RUNCHECK), only the fields that tell
records apart for a generic name (IBM: ALL is the default "if you do not specify a generic name
and do not request any specific attributes").  WHERE(keyword operator value) compares the name,
the type or a field the record shows; a record that does not show that field does not match.

runmqsc shows a record as CHLAUTH, TYPE, DESCR, CUSTOM, then the type's fields, ALTDATE and
ALTTIME, two to a line; a USERLIST or ADDRLIST starts a line (runmqsc 9.4.2 output,
object-model.md §2.4).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pcfserver import mq, names
from pcfserver.codec.model import Integer, IntegerFilter, IntegerList, Message, Parameter, String, StringFilter, StringList
from pcfserver.dialects.authrec import syntax_error, word_value
from pcfserver.dialects.keywords import with_filtered, without_filtered, word_for
from pcfserver.dialects.lexer import Item
from pcfserver.dialects.tables import Attr, CommandRow, vocabulary

DIALECT = "mqsc"
MARKER = "@chlauth"
TABLE = "chlauth"
PROFILE = mq.MQCACH_CHANNEL_NAME
TYPE = mq.MQIACF_CHLAUTH_TYPE
ATTRS = mq.MQIACF_CHLAUTH_ATTRS
MATCH = mq.MQIACH_MATCH
# The selection a DISPLAY with a generic name and no attribute sends: only what is always returned.
KEYS_ONLY = (PROFILE, TYPE)
# runmqsc's display: two entries a line in 40-column slots after a 3-blank indent.
SLOT = 40
INDENT = "   "


def is_chlauth(row: CommandRow) -> bool:
    return bool(row.options) and row.options[0] == MARKER


def _table() -> dict[str, Attr]:
    return vocabulary(DIALECT).table(TABLE)


def _keywords(row: CommandRow) -> dict[str, tuple[Attr, bool]]:
    table = _table()
    out: dict[str, tuple[Attr, bool]] = {}
    for option in row.options[1:]:
        keyword = option.rstrip("!")
        if keyword != "WHERE":
            out[keyword] = (table[keyword], option.endswith("!"))
    return out


def _selectors() -> dict[str, Attr]:
    """The attribute names DISPLAY CHLAUTH takes bare (IBM's "Requested attributes")."""
    return {k: a for k, a in _table().items() if a.access != "command" and a.parameter not in (PROFILE, TYPE)}


def _filterable() -> dict[str, Attr]:
    """What WHERE may compare: the record's name, its type and every field shown (integers and strings)."""
    return {k: a for k, a in _table().items() if a.struct in ("MQCFIN", "MQCFST") and (a.access != "command" or a.parameter == PROFILE)}


def build(row: CommandRow, name: str, rest: Sequence[Item], text: str) -> Message:
    """The PCF command of SET or DISPLAY CHLAUTH; CommandSyntaxError when the text cannot be read."""
    assert row.pcf is not None
    valued = _keywords(row)
    display = row.pcf == mq.MQCMD_INQUIRE_CHLAUTH_RECS
    selectors = _selectors() if display else {}
    given: dict[str, Item] = {}
    chosen: list[int] = []
    filters: list[Parameter] = []
    for item in rest:
        keyword = item.keyword
        if item.word.quoted:
            raise syntax_error(f"{item.word.raw} is not a keyword", text, item.word.end)
        if keyword == "WHERE" and "WHERE" in row.options and item.values is not None:
            from pcfserver.dialects import mqsc  # (mqsc imports this module)

            if filters:
                raise syntax_error("WHERE is named twice", text, item.end, keyword)
            filters.append(mqsc.where_filter(item, _filterable(), text))
            continue
        if item.values is None and display and (keyword == "ALL" or keyword in selectors):
            selector = mq.MQIACF_ALL if keyword == "ALL" else selectors[keyword].parameter
            if selector in chosen:
                raise syntax_error(f"{keyword} is named twice", text, item.end, keyword)
            chosen.append(selector)
            continue
        if keyword not in valued or item.values is None:
            raise syntax_error(f"{keyword} is not valid here", text, item.end, keyword)
        if keyword in given:
            raise syntax_error(f"{keyword} is named twice", text, item.end, keyword)
        attr = valued[keyword][0]
        if attr.struct != "MQCFSL" and len(item.values) != 1:
            raise syntax_error(f"{keyword} takes one value", text, item.end, keyword)
        given[keyword] = item
    for keyword, (_attr, required) in valued.items():
        if required and keyword not in given:
            raise syntax_error(f"{keyword} is required", text, len(text), keyword)
    head: list[Parameter] = [String(PROFILE, name)]
    params: list[Parameter] = []
    for keyword, item in given.items():
        attr = valued[keyword][0]
        assert item.values is not None
        if attr.struct == "MQCFSL":
            params.append(StringList(attr.parameter, tuple(token.text for token in item.values)))
        elif attr.is_string:
            params.append(String(attr.parameter, item.values[0].text))
        else:
            parameter = Integer(attr.parameter, word_value(attr.parameter, item.values[0], text, keyword))
            (head if attr.parameter == TYPE and not display else params).append(parameter)
    if display:
        match = next((p.value for p in params if isinstance(p, Integer) and p.parameter == MATCH), mq.MQMATCH_GENERIC)
        shown = {a.parameter for a in selectors.values()}
        filtered = filters[0].parameter if filters and filters[0].parameter in shown else None
        if chosen and mq.MQIACF_ALL in chosen:
            params.append(IntegerList(ATTRS, (mq.MQIACF_ALL,)))
        elif chosen:
            params.append(IntegerList(ATTRS, with_filtered(tuple(chosen), filtered)))
        elif "*" in name and match != mq.MQMATCH_RUNCHECK:
            params.append(IntegerList(ATTRS, with_filtered(KEYS_ONLY, filtered)))
    return Message(row.pcf, (*head, *params, *filters), type=mq.MQCFT_COMMAND, version=3 if filters else 1)


def render_parts(row: CommandRow, message: Message, quote: Callable[[str], str]) -> list[str]:
    """The MQSC words of a Set or Inquire Channel Authentication Record(s) command (the inverse of :func:`build`)."""
    by_parameter = {attr.parameter: keyword for keyword, (attr, _required) in _keywords(row).items()}
    selectors = {a.parameter: k for k, a in _selectors().items()}
    profile = message.str_value(PROFILE)
    if profile is None:
        raise ValueError(f"{row.command} needs {names.parameter_name(PROFILE)}")
    parts = [f"{row.command}({quote(profile)})"]
    for item in message.parameters:
        parameter = item.parameter
        if parameter == PROFILE and not isinstance(item, StringFilter):
            continue
        if isinstance(item, (IntegerFilter, StringFilter)):
            from pcfserver.dialects import mqsc  # (mqsc imports this module)

            keyword = next((k for k, a in _filterable().items() if a.parameter == parameter), None)
            operator = mqsc.OPERATOR_WORDS.get(item.operator)
            if keyword is None or operator is None:
                raise ValueError("a filter MQSC cannot say")
            value = item.value if isinstance(item, IntegerFilter) else None
            shown = quote(item.value) if isinstance(item, StringFilter) else (word_for(parameter, value, DIALECT) if value is not None else None) or str(value)
            parts.append(f"WHERE({keyword} {operator} {shown})")
            continue
        if parameter == ATTRS and isinstance(item, IntegerList):
            values = tuple(without_filtered(item.values, message.parameters))
            if values == KEYS_ONLY and "*" in profile:
                continue
            for value in values:
                if value == mq.MQIACF_ALL:
                    parts.append("ALL")
                elif value in selectors:
                    parts.append(selectors[value])
                elif value not in KEYS_ONLY:
                    raise ValueError(f"DISPLAY CHLAUTH has no keyword for {names.parameter_name(value) or value}")
            continue
        keyword = by_parameter.get(parameter)
        if keyword is None:
            raise ValueError(f"{row.command} has no keyword for {names.parameter_name(parameter) or parameter}")
        if isinstance(item, StringList):
            parts.append(f"{keyword}({','.join(quote(v) for v in item.values)})")
        elif isinstance(item, String):
            parts.append(f"{keyword}({quote(item.value)})")
        elif isinstance(item, Integer):
            word = word_for(parameter, item.value, DIALECT)
            parts.append(f"{keyword}({word if word else item.value})")
        else:
            raise ValueError(f"{row.command} cannot carry {names.parameter_name(parameter) or parameter}")
    return parts


def _shown(parameter: int, value: int | str) -> str:
    if isinstance(value, str):
        return value.rstrip(" ") or " "
    return word_for(parameter, value, DIALECT) or str(value)


def display_entries(response: Message) -> list[tuple[str, bool]]:
    """A record's attributes as runmqsc shows them, in the order the response holds them, each with whether
    it starts a line (a USERLIST or ADDRLIST does)."""
    keywords = {a.parameter: k for k, a in _table().items()}
    out: list[tuple[str, bool]] = []
    for item in response.parameters:
        keyword = keywords.get(item.parameter)
        if keyword is None:
            continue
        if isinstance(item, StringList):
            out.append((f"{keyword}({','.join(_shown(item.parameter, v) for v in item.values) or ' '})", True))
        elif isinstance(item, (Integer, String)):
            out.append((f"{keyword}({_shown(item.parameter, item.value)})", False))
    return out


def display_lines(response: Message) -> list[str]:
    """The lines runmqsc shows a record in: two entries a line, at least two blanks apart; an entry too wide for
    that stands alone and the next one starts the following line (``DESCR(...)`` then ``CUSTOM( )  ADDRESS(*)``:
    runmqsc 9.4.2 shows a 39-character DESCR alone and pairs a 37-character one)."""
    lines: list[str] = []
    left: str | None = None
    for entry, starts_line in display_entries(response):
        if starts_line and left is not None:
            lines.append(INDENT + left)
            left = None
        if left is None:
            if len(entry) > SLOT - 2:
                lines.append(INDENT + entry)
            else:
                left = entry
        else:
            lines.append(INDENT + left.ljust(SLOT) + entry)
            left = None
    if left is not None:
        lines.append(INDENT + left)
    return lines
