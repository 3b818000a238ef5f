"""MQSC's SET AUTHREC, DELETE AUTHREC and DISPLAY AUTHREC as Set, Delete and Inquire Authority Record(s), and
DISPLAY ENTAUTH as Inquire Entity Authority; and back.

The commands have no ``(name)`` after the noun: the profile is a keyword, PRINCIPAL and GROUP each
name one entity, AUTHADD and AUTHRMV take lists of authority words (IBM's SET AUTHREC on
Multiplatforms).  The keywords are the rows of ``formats/authrec-attributes.tsv``; the words of
OBJTYPE, MATCH and the authorities are rows of ``formats/dialect-values.tsv``.  Each command's
keywords are its options in ``formats/dialect-commands.tsv`` (after ``@authrec``).

PCF needs the profile and object type first (Set, Delete) or the options and profile first
(Inquire), so they lead the message whatever order the text gives them.  Choices:

* PROFILE left out of SET or DELETE (IBM allows it for OBJTYPE(QMGR)): a blank ProfileName, which
  the engine reads as the queue manager's own name.
* PROFILE left out of DISPLAY ("every record that satisfies the other parameters"): ProfileName
  ``**`` with MQAUTHOPT_NAME_AS_WILDCARD.
* DISPLAY's PRINCIPAL(x) / GROUP(x): EntityName x with EntityType MQZAET_PRINCIPAL / MQZAET_GROUP.
* DISPLAY's bare ALL, AUTHLIST, ENTITY, ENTTYPE are accepted; every attribute is shown.
* DISPLAY ENTAUTH's keywords are the rows of ``formats/entauth-attributes.tsv``; its PRINCIPAL(x) / GROUP(x) (exactly
  one) becomes EntityName and EntityType, which lead with ObjectType (the PCF command's required parameters).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from pcfserver import mq, names
from pcfserver.codec.model import Integer, IntegerList, Message, Parameter, String, StringList
from pcfserver.dialects.lexer import CommandSyntaxError, Item, Token, segment
from pcfserver.dialects.tables import Attr, CommandRow, table_of_command, vocabulary

DIALECT = "mqsc"
MARKER = "@authrec"
# Every authority word belongs to one parameter in dialect-values.tsv; AUTHADD and AUTHRMV read the same words.
_AUTH_WORDS = mq.MQIACF_AUTHORIZATION_LIST
_PROFILE = mq.MQCACF_AUTH_PROFILE_NAME
_OBJTYPE = mq.MQIACF_OBJECT_TYPE
_OPTIONS = mq.MQIACF_AUTH_OPTIONS
_ENTITY_BITS = mq.MQAUTHOPT_ENTITY_EXPLICIT | mq.MQAUTHOPT_ENTITY_SET
_DEFAULT_MATCH = "PROFILE"
_EVERY_PROFILE = "**"


def is_authrec(row: CommandRow) -> bool:
    return bool(row.options) and row.options[0] == MARKER


def _keywords(row: CommandRow) -> tuple[dict[str, tuple[Attr, bool]], frozenset[str]]:
    """The command's valued keywords (attribute, required) and its bare display words."""
    assert row.pcf is not None
    table = vocabulary(DIALECT).table(table_of_command(row.pcf))
    valued: dict[str, tuple[Attr, bool]] = {}
    bare: set[str] = set()
    for option in row.options[1:]:
        keyword = option.rstrip("!")
        attr = table.get(keyword)
        if attr is None or attr.access == "inquire" or keyword == "ALL":
            bare.add(keyword)
        else:
            valued[keyword] = (attr, option.endswith("!"))
    return valued, frozenset(bare)


def syntax_error(message: str, text: str, end: int, keyword: str | None = None) -> CommandSyntaxError:
    """A syntax error at ``end`` of ``text`` (runmqsc's command segment); shared by the SET/DISPLAY grammars."""
    return CommandSyntaxError(message, segment(text, end), keyword=keyword)


def word_value(parameter: int, token: Token, text: str, keyword: str) -> int:
    """The number a value word stands for (unquoted), else a syntax error naming the keyword."""
    words = vocabulary(DIALECT).words.get(parameter)
    value = None if token.quoted or words is None else words.to_value.get(token.text)
    if not isinstance(value, int):
        raise syntax_error(f"{token.raw} is not a value of {keyword}", text, token.end, keyword)
    return value


def _one(item: Item, text: str) -> Token:
    if item.values is None or len(item.values) != 1:
        raise syntax_error(f"{item.keyword} takes one value in parentheses", text, item.end, item.keyword)
    return item.values[0]


def build(row: CommandRow, rest: Sequence[Item], text: str) -> Message:
    """The PCF command of SET, DELETE or DISPLAY AUTHREC; CommandSyntaxError when the text cannot be read."""
    assert row.pcf is not None
    valued, bare = _keywords(row)
    given: dict[str, Item] = {}
    for item in rest:
        keyword = item.keyword
        if item.word.quoted:
            raise syntax_error(f"{item.word.raw} is not a keyword", text, item.word.end)
        if item.values is None and keyword in bare:
            continue
        if keyword not in valued or item.values is None:
            raise syntax_error(f"{keyword} is not valid here", text, item.end, keyword)
        if keyword in given:
            raise syntax_error(f"{keyword} is named twice", text, item.end, keyword)
        given[keyword] = item
    for keyword, (_attr, required) in valued.items():
        if required and keyword not in given:
            raise syntax_error(f"{keyword} is required", text, len(text), keyword)
    if "PRINCIPAL" in given and "GROUP" in given and row.pcf in (mq.MQCMD_INQUIRE_AUTH_RECS, mq.MQCMD_INQUIRE_ENTITY_AUTH):
        raise syntax_error("PRINCIPAL and GROUP cannot both be given", text, given["GROUP"].end, "GROUP")
    if row.pcf == mq.MQCMD_INQUIRE_ENTITY_AUTH:
        return _entity_auth(row.pcf, given, text)
    head: list[Parameter] = []
    params: list[Parameter] = []
    profile = given.get("PROFILE")
    if row.pcf == mq.MQCMD_INQUIRE_AUTH_RECS:
        match = given.get("MATCH")
        options = word_value(_OPTIONS, _one(match, text), text, "MATCH") if match is not None else _match_value(_DEFAULT_MATCH)
        if profile is None:
            options = (options & _ENTITY_BITS) | mq.MQAUTHOPT_NAME_AS_WILDCARD
        head += [Integer(_OPTIONS, options), String(_PROFILE, _one(profile, text).text if profile is not None else _EVERY_PROFILE)]
    else:
        head.append(String(_PROFILE, _one(profile, text).text if profile is not None else ""))
    for keyword, item in given.items():
        attr = valued[keyword][0]
        parameter = attr.parameter
        if keyword in ("PROFILE", "MATCH"):
            continue
        if parameter == _OBJTYPE:
            target = head if row.pcf != mq.MQCMD_INQUIRE_AUTH_RECS else params
            target.append(Integer(_OBJTYPE, word_value(_OBJTYPE, _one(item, text), text, keyword)))
        elif keyword in ("PRINCIPAL", "GROUP") and row.pcf == mq.MQCMD_INQUIRE_AUTH_RECS:
            entity_type = mq.MQZAET_PRINCIPAL if keyword == "PRINCIPAL" else mq.MQZAET_GROUP
            params += [String(mq.MQCACF_ENTITY_NAME, _one(item, text).text), Integer(mq.MQIACF_ENTITY_TYPE, entity_type)]
        elif attr.struct == "MQCFSL":
            params.append(StringList(parameter, (_one(item, text).text,)))
        elif attr.struct == "MQCFIL":
            assert item.values is not None
            params.append(IntegerList(parameter, tuple(word_value(_AUTH_WORDS, token, text, keyword) for token in item.values)))
        else:
            params.append(String(parameter, _one(item, text).text))
    return Message(row.pcf, (*head, *params), type=mq.MQCFT_COMMAND)


def _entity_auth(code: int, given: dict[str, Item], text: str) -> Message:
    """DISPLAY ENTAUTH: the entity, its type and the object type lead; then OBJNAME and SERVCOMP as given."""
    keyword = "PRINCIPAL" if "PRINCIPAL" in given else "GROUP"
    if keyword not in given:
        raise syntax_error("PRINCIPAL or GROUP is required", text, len(text), keyword)
    entity_type = mq.MQZAET_PRINCIPAL if keyword == "PRINCIPAL" else mq.MQZAET_GROUP
    object_type = word_value(_OBJTYPE, _one(given["OBJTYPE"], text), text, "OBJTYPE")
    params: list[Parameter] = [
        String(mq.MQCACF_ENTITY_NAME, _one(given[keyword], text).text),
        Integer(mq.MQIACF_ENTITY_TYPE, entity_type),
        Integer(_OBJTYPE, object_type),
    ]
    if "OBJNAME" not in given and object_type != mq.MQOT_Q_MGR:
        raise syntax_error("OBJNAME is required unless OBJTYPE(QMGR)", text, len(text), "OBJNAME")
    for keyword, parameter in (("OBJNAME", mq.MQCACF_OBJECT_NAME), ("SERVCOMP", mq.MQCACF_SERVICE_COMPONENT)):
        if keyword in given:
            params.append(String(parameter, _one(given[keyword], text).text))
    return Message(code, tuple(params), type=mq.MQCFT_COMMAND)


def _match_value(word: str) -> int:
    value = vocabulary(DIALECT).words[_OPTIONS].to_value[word]
    assert isinstance(value, int)
    return value


def render_parts(row: CommandRow, message: Message, quote: Callable[[str], str]) -> list[str]:
    """The MQSC words of a Set, Delete or Inquire Authority Record(s) command (the inverse of :func:`build`).

    ``quote``: how a string is written (MQSC's quoting rule, given by the caller).
    """
    vocab = vocabulary(DIALECT)
    by_parameter = {attr.parameter: keyword for keyword, (attr, _required) in _keywords(row)[0].items()}
    parts = [row.command]
    options = message.int_value(_OPTIONS)
    profile = (message.str_value(_PROFILE) or "").rstrip()
    if not (options is not None and options & mq.MQAUTHOPT_NAME_AS_WILDCARD and profile == _EVERY_PROFILE) and profile:
        parts.append(f"PROFILE({quote(profile)})")
    entity_type = message.int_value(mq.MQIACF_ENTITY_TYPE)
    for item in message.parameters:
        parameter = item.parameter
        if parameter in (_PROFILE, _OPTIONS, mq.MQIACF_ENTITY_TYPE):
            continue
        if parameter == mq.MQCACF_ENTITY_NAME and isinstance(item, String):
            entity_keyword = "GROUP" if entity_type == mq.MQZAET_GROUP else "PRINCIPAL"
            parts.append(f"{entity_keyword}({quote(item.value)})")
            continue
        keyword = by_parameter.get(parameter)
        if keyword is None:
            raise ValueError(f"{row.command} has no keyword for {names.parameter_name(parameter) or parameter}")
        words = vocab.words.get(_AUTH_WORDS if isinstance(item, IntegerList) else parameter)
        if isinstance(item, IntegerList) and words is not None:
            parts.append(f"{keyword}({','.join(words.to_word.get(v, str(v)) for v in item.values)})")
        elif isinstance(item, Integer):
            word = words.to_word.get(item.value) if words is not None else None
            parts.append(f"{keyword}({word if word else item.value})")
        elif isinstance(item, StringList):
            parts.append(f"{keyword}({','.join(quote(v) for v in item.values)})")
        elif isinstance(item, String):
            parts.append(f"{keyword}({quote(item.value)})")
        else:
            raise ValueError(f"{row.command} cannot carry {names.parameter_name(parameter) or parameter}")
    if options is not None and row.pcf == mq.MQCMD_INQUIRE_AUTH_RECS:
        if options & mq.MQAUTHOPT_NAME_AS_WILDCARD:  # no PROFILE: only the entity half of MATCH remains
            options = (options & _ENTITY_BITS) | mq.MQAUTHOPT_NAME_ALL_MATCHING
        match = {v: w for w, v in vocab.words[_OPTIONS].to_value.items()}.get(options)
        if match is None:
            raise ValueError(f"MATCH has no word for the options {options}")
        if match != _DEFAULT_MATCH:
            parts.append(f"MATCH({match})")
    return parts
