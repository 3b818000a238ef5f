"""MQSC: one command's text to its PCF command, PCF answers to runmqsc's lines, and PCF back to MQSC.

Grammar (round2-semantics §5.1, §5.3): verb, noun, ``(name)``, then parameters in any order,
each ``KEYWORD(value)`` or a bare flag (``REPLACE``, ``NOTRIGGER``).  Which verbs and nouns
exist, the PCF command each becomes, the keywords of each command and every value word are
``formats/`` tables (dialect-commands.tsv, dialect-synonyms.tsv, dialect-values.tsv and the
``mqsc`` columns of the attribute tables); this module only applies them.

Choices a real runmqsc leaves unseen (recorded in dialect-commands.tsv):

* ``DISPLAY QUEUE(x)`` with no attribute asks for MQCA_Q_NAME and MQIA_Q_TYPE only, as runmqsc
  shows just QUEUE and TYPE; ``ALL`` sends MQIACF_ALL.  ``DISPLAY QMGR`` with none sends no
  list (the PCF default, everything), as runmqsc shows everything.
* ``DELETE Qxxx`` sends the queue type, so that deleting a queue of another type fails.
* A keyword the command does not have, or an attribute the queue type does not have, is a
  syntax error (runmqsc checks these before anything is sent).
* A WHERE filter on a flag attribute takes the flag words as values:
  ``WHERE(TRIGGER EQ NOTRIGGER)`` (IBM's text on this was not found).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cache

from pcfserver import kinds, mq, names
from pcfserver.codec.model import (
    ByteString,
    Integer,
    IntegerFilter,
    IntegerList,
    Message,
    Parameter,
    String,
    StringFilter,
    StringList,
)
from pcfserver.dialects import authrec, chlauth
from pcfserver.dialects.keywords import (
    CONN_LENGTH,
    byte_string,
    connection_parts,
    display_keyword,
    is_bytes_parameter,
    is_string_parameter,
    with_filtered,
    without_filtered,
    word_for,
)
from pcfserver.dialects.lexer import CommandSyntaxError, Item, Token, UnknownCommandError, items, parse_number, segment
from pcfserver.dialects.outcome import (
    END,
    FAILED,
    OK,
    SYNTAX,
    Block,
    Context,
    Execute,
    Outcome,
    error_keyword,
    failed_name,
    failure,
    reason_inserts,
)
from pcfserver.dialects.tables import (
    OBJECT_TABLES,
    ORDERED_TABLES,
    STATUS_COMMANDS,
    Attr,
    AttrValue,
    CommandRow,
    Vocabulary,
    alternates,
    attributes_of,
    failure_key,
    line,
    message,
    table_of_command,
    vocabulary,
)

DIALECT = "mqsc"

OPERATORS: dict[str, int] = {
    "LT": mq.MQCFOP_LESS,
    "GT": mq.MQCFOP_GREATER,
    "EQ": mq.MQCFOP_EQUAL,
    "NE": mq.MQCFOP_NOT_EQUAL,
    "LE": mq.MQCFOP_NOT_GREATER,
    "GE": mq.MQCFOP_NOT_LESS,
    "LK": mq.MQCFOP_LIKE,
    "NL": mq.MQCFOP_NOT_LIKE,
}
OPERATOR_WORDS = {value: word for word, value in OPERATORS.items()}
_STRING_ONLY = frozenset((mq.MQCFOP_LIKE, mq.MQCFOP_NOT_LIKE))
_ENUM_OPERATORS = frozenset((mq.MQCFOP_EQUAL, mq.MQCFOP_NOT_EQUAL))
# DISPLAY QSTATUS with no attribute named (K: runmqsc shows CURDEPTH with QUEUE and TYPE).
STATUS_DEFAULT = (mq.MQIA_CURRENT_Q_DEPTH,)
# DISPLAY PROCESS and DISPLAY NAMELIST with no attribute named send no list (every attribute): runmqsc's
# DISPLAY NAMELIST shows them all (a 9.1 transcript); DISPLAY PROCESS is taken to do the same (K).
_SELECTOR_LISTS = {
    mq.MQCMD_INQUIRE_Q: (mq.MQIACF_Q_ATTRS, "queue", ()),
    mq.MQCMD_INQUIRE_Q_STATUS: (mq.MQIACF_Q_STATUS_ATTRS, "status", STATUS_DEFAULT),
    mq.MQCMD_INQUIRE_Q_MGR: (mq.MQIACF_Q_MGR_ATTRS, "qmgr", ()),
    **{k.command("INQUIRE"): (k.selectors, k.key, ()) for k in kinds.kinds()},
    mq.MQCMD_INQUIRE_CHANNEL_STATUS: (mq.MQIACH_CHANNEL_INSTANCE_ATTRS, "chstatus", ()),
    mq.MQCMD_INQUIRE_LISTENER_STATUS: (mq.MQIACF_LISTENER_STATUS_ATTRS, "lsstatus", ()),
    mq.MQCMD_INQUIRE_SERVICE_STATUS: (mq.MQIACF_SERVICE_STATUS_ATTRS, "svstatus", ()),
    mq.MQCMD_INQUIRE_PUBSUB_STATUS: (mq.MQIACF_PUBSUB_STATUS_ATTRS, "pubsub", ()),
    mq.MQCMD_INQUIRE_CLUSTER_Q_MGR: (mq.MQIACF_CLUSTER_Q_MGR_ATTRS, "clusqmgr", ()),
    mq.MQCMD_INQUIRE_Q_MGR_STATUS: (mq.MQIACF_Q_MGR_STATUS_ATTRS, "qmstatus", (mq.MQIACF_Q_MGR_STATUS,)),
    mq.MQCMD_INQUIRE_CONNECTION: (mq.MQIACF_CONNECTION_ATTRS, "conn", (mq.MQIACF_CONN_INFO_TYPE,)),
    mq.MQCMD_INQUIRE_TOPIC_STATUS: (mq.MQIACF_TOPIC_STATUS_ATTRS, "tpstatus", ()),
    mq.MQCMD_INQUIRE_SUB_STATUS: (mq.MQIACF_SUB_STATUS_ATTRS, "sbstatus", ()),
}
_DISPLAY_TABLE = {
    mq.MQCMD_INQUIRE_Q: "queue",
    mq.MQCMD_INQUIRE_Q_STATUS: "status",
    mq.MQCMD_INQUIRE_Q_MGR: "qmgr",
    mq.MQCMD_INQUIRE_AUTH_RECS: "authrec",
    mq.MQCMD_INQUIRE_ENTITY_AUTH: "entauth",
    **{k.command("INQUIRE"): k.key for k in kinds.kinds()},
    mq.MQCMD_INQUIRE_CHLAUTH_RECS: "chlauth",
    mq.MQCMD_INQUIRE_PROT_POLICY: "policy",
    **{getattr(mq, command): table for command, table in STATUS_COMMANDS.items()},
}
# DEFINE ... LIKE(x): the Create command becomes its Copy, the LIKE name its source and the defined name its target.
_COPIES = {
    mq.MQCMD_CREATE_Q: (mq.MQCMD_COPY_Q, mq.MQCACF_FROM_Q_NAME, mq.MQCACF_TO_Q_NAME),
    **{k.command("CREATE"): (k.command("COPY"), k.from_name, k.to_name) for k in kinds.kinds()},
}
# The parameter that says which sort of a kind an object is (CHLTYPE): shown right after the name.
_SUBTYPES = {k.key: k.subtype for k in kinds.kinds() if k.subtype} | {"chstatus": mq.MQIACH_CHANNEL_TYPE, "qmstatus": mq.MQIACF_Q_MGR_STATUS, "conn": mq.MQIACF_CONN_INFO_TYPE}
# Status displays runmqsc shows in keyword order after the name and type (DISPLAY CHSTATUS, [INSTANA]); the other
# status tables keep their row order (DISPLAY LSSTATUS).
_SORTED_STATUS = frozenset(("chstatus", "qmstatus"))
# Entries runmqsc prints on a line of their own, per table (DISPLAY SBSTATUS: SUB, then SUBID, q020920_ example; the
# 48-digit ACTCONN likewise, K).
_OWN_LINE = {
    "sbstatus": frozenset((mq.MQCACF_SUB_NAME, mq.MQBACF_SUB_ID, mq.MQBACF_CONNECTION_ID)),
    "tpstatus": frozenset((mq.MQBACF_CONNECTION_ID,)),
    "conn": frozenset((mq.MQIACF_CONN_INFO_TYPE,)),
}
# A connection's identifier (24 bytes): runmqsc shows its last 8 as CONN and its first 16 as EXTCONN, each on a line
# of its own, then TYPE on its own (IBM DISPLAY CONN q086140_; published runmqsc output).
_CONNECTION_NAMES = frozenset((mq.MQBACF_CONNECTION_ID, mq.MQBACF_GENERIC_CONNECTION_ID))
_EXTCONN_LENGTH = 16
_CREATE_OF_COPY = {copy: create for create, (copy, _source, _target) in _COPIES.items()}
# The parameter that names the object a display is about, per table (shown first, alone in its entry).
_NAME_PARAMETERS = {
    "queue": mq.MQCA_Q_NAME,
    "status": mq.MQCA_Q_NAME,
    "qmgr": mq.MQCA_Q_MGR_NAME,
    "authrec": mq.MQCACF_AUTH_PROFILE_NAME,
    "entauth": mq.MQCACF_ENTITY_NAME,
    "policy": mq.MQCA_POLICY_NAME,
    **{k.key: k.name for k in kinds.kinds()},
    "chstatus": mq.MQCACH_CHANNEL_NAME,
    "lsstatus": mq.MQCACH_LISTENER_NAME,
    "svstatus": mq.MQCA_SERVICE_NAME,
    "pubsub": mq.MQCA_Q_MGR_NAME,
    "clusqmgr": mq.MQCA_CLUSTER_Q_MGR_NAME,
    "qmstatus": mq.MQCA_Q_MGR_NAME,
    "conn": mq.MQBACF_CONNECTION_ID,
    "tpstatus": mq.MQCA_TOPIC_STRING,
    "sbstatus": mq.MQCACF_SUB_NAME,
}
_ATTRIBUTE_OPTIONS = {"@attributes": "queue", "@qmgr-attributes": "qmgr", **{f"@{t}-attributes": t for t in (*OBJECT_TABLES, "policy")}}
# Tables whose list attributes are named once per member (SET POLICY's SIGNER and RECIP, which IBM lets repeat) and
# shown so, one entry a member (runmqsc's DISPLAY POLICY); a list in parentheses is read as well (runCommandJSON's arrays).
_REPEATED_LISTS = frozenset(("policy",))
_SELECTOR_OPTIONS = {"@selectors": "queue", "@status-selectors": "status", "@qmgr-selectors": "qmgr", **{f"@{t}-selectors": t for t in ORDERED_TABLES}}
# An options word: the command takes ``(*)`` after its noun and ignores it (REFRESH SECURITY(*): every class).
_ANY_NAME = "(*)"
_UNQUOTED = re.compile(r"[A-Z0-9./_%*]+\Z")


@dataclass(frozen=True, slots=True)
class Options:
    """What a command accepts besides its name, from the options column of dialect-commands.tsv."""

    keyed: dict[str, tuple[int, bool]]  # KEYWORD -> (parameter, required)
    flags: frozenset[int]  # parameters whose flag words are accepted
    attributes: dict[str, Attr]  # settable attributes by keyword
    selectors: dict[str, Attr] | None  # displayable attributes by keyword (DISPLAY commands)
    where: bool
    shows: tuple[int, ...] = ()  # @shows:A,B - what a DISPLAY with no attribute named asks for (DISPLAY TOPIC: TYPE)
    type_parameter: int = mq.MQIA_Q_TYPE  # @type=P - the parameter the row's qtype column is sent in
    unnamed: bool = False  # @unnamed - the object's name may be left out (DELETE SUB SUBID(...))
    brief: bool = False  # a generic name with no attribute named shows the name (and sort) only (BRIEF option)
    filterable: dict[str, Attr] | None = None  # what WHERE may test: the selectors and the kind's sort (CHLTYPE)


@dataclass(frozen=True, slots=True)
class MqscCommand:
    """A parsed MQSC command: its words, its object name and the PCF message (None for END)."""

    verb: str
    noun: str
    name: str
    message: Message | None
    row: CommandRow | None = field(default=None, compare=False)


def _vocab() -> Vocabulary:
    return vocabulary(DIALECT)


@cache
def verbs() -> tuple[str, ...]:
    """The MQSC verbs this server runs (AMQ8426's list)."""
    return tuple(sorted({command.split()[0] for command in _vocab().commands}))


def _settable(attr: Attr, qtype: int | None, table: str) -> bool:
    if attr.access != "set" or attr.zos:
        return False
    return table != "queue" or qtype is None or qtype in attr.applies


def _displayable(attr: Attr, qtype: int | None, table: str) -> bool:
    if attr.zos or attr.access == "command":
        return False
    return table != "queue" or qtype is None or qtype == mq.MQQT_CLUSTER or qtype in attr.applies


def command_names() -> frozenset[str]:
    """Every MQSC command of dialect-commands.tsv, as VERB NOUN (after synonyms): ALTER SUB, DISPLAY QLOCAL, ..."""
    return frozenset(_vocab().commands)


@cache
def options_of(command: str) -> Options:
    """The parsed options column of one MQSC command of dialect-commands.tsv."""
    vocab = _vocab()
    row = vocab.commands[command]
    keyed: dict[str, tuple[int, bool]] = {}
    flags: set[int] = set()
    attributes: dict[str, Attr] = {}
    selectors: dict[str, Attr] | None = None
    where = False
    shows: tuple[int, ...] = ()
    type_parameter: int = mq.MQIA_Q_TYPE
    unnamed = False
    excluded: set[str] = set()
    brief = False
    for option in row.options:
        if option == _ANY_NAME:
            continue
        if option == "WHERE":
            where = True
        elif option.startswith("@shows:"):
            shows = tuple(getattr(mq, word) for word in option[len("@shows:") :].split(","))
        elif option.startswith("@type="):
            type_parameter = getattr(mq, option[len("@type=") :])
        elif option == "@unnamed":
            unnamed = True
        elif option.startswith("-"):
            excluded.add(option[1:])
        elif option == "BRIEF":
            brief = True
        elif option in _ATTRIBUTE_OPTIONS:
            table = _ATTRIBUTE_OPTIONS[option]
            attributes.update({k: a for k, a in vocab.table(table).items() if _settable(a, row.qtype, table)})
        elif option in _SELECTOR_OPTIONS:
            table = _SELECTOR_OPTIONS[option]
            selectors = {k: a for k, a in vocab.table(table).items() if _displayable(a, row.qtype, table)}
        elif "=" in option:
            keyword, parameter = option.split("=", 1)
            required = parameter.endswith("!")
            keyed[keyword] = (getattr(mq, parameter.rstrip("!")), required)
        else:
            flags.add(getattr(mq, option))
    for keyword in excluded:
        attributes.pop(keyword, None)
    filterable = selectors
    kind = kinds.kind_of_command(row.pcf) if row.pcf is not None else None
    if selectors is not None and kind is not None and kind.subtype:
        # The sort is a requested attribute too (DISPLAY CHANNEL(x) CHLTYPE, DISPLAY LISTENER(*) TRPTYPE: IBM's syntax
        # diagrams; a health check asks for CHLTYPE MAXINST MAXINSTC), and WHERE(CHLTYPE EQ SVRCONN) may test it.
        sort = {k: a for k, a in vocab.table(kind.key).items() if a.parameter == kind.subtype}
        selectors = {**selectors, **sort}
        filterable = selectors
    return Options(keyed, frozenset(flags), attributes, selectors, where, shows, type_parameter, unnamed, brief, filterable)


# ---------------------------------------------------------------------------------- parsing


def _error(message: str, text: str, end: int, keyword: str | None = None) -> CommandSyntaxError:
    return CommandSyntaxError(message, segment(text, end), keyword=keyword)


def _one_value(item: Item, text: str) -> Token:
    if item.values is None:
        raise _error(f"{item.keyword} needs a value in parentheses", text, item.end, item.keyword)
    if len(item.values) != 1:
        raise _error(f"{item.keyword} takes one value", text, item.end, item.keyword)
    return item.values[0]


def parse_int(token: Token, text: str, keyword: str) -> int:
    value = None if token.quoted else parse_number(token.text)
    if value is None:
        raise _error(f"{keyword} takes a number of at most 32 bits", text, token.end, keyword)
    return value


def value_from_token(
    parameter: int, token: Token, text: str, keyword: str, *, numbers: bool, vocab: Vocabulary, flags: bool = False
) -> AttrValue:
    """A keyword's value: the string as given, a word's number, or a decimal number.

    ``numbers``: whether numbers are accepted besides the words (attributes with a range);
    ``flags``: whether flag words count as values (``WHERE(TRIGGER EQ NOTRIGGER)``).
    """
    if is_string_parameter(parameter):
        return token.text
    words = vocab.words.get(parameter)
    if words and not token.quoted and token.text in words.to_value and (flags or token.text not in words.flags):
        return words.to_value[token.text]
    if words and words.to_value and not numbers:
        raise _error(f"{token.raw} is not a value of {keyword}", text, token.end, keyword)
    return parse_int(token, text, keyword)


def _attribute_value(attr: Attr, item: Item, text: str) -> AttrValue:
    token = _one_value(item, text)
    words = _vocab().words.get(attr.parameter)
    numbers = attr.has_range or not (words and words.to_value)
    return value_from_token(attr.parameter, token, text, item.keyword, numbers=numbers, vocab=_vocab())


def _filter(item: Item, selectors: dict[str, Attr], text: str) -> IntegerFilter | StringFilter:
    if item.values is None or len(item.values) != 3:
        raise _error("WHERE takes (keyword operator value)", text, item.end, "WHERE")
    key, op, value = item.values
    attr = None if key.quoted else selectors.get(_keyword(key.text))
    if attr is None or attr.struct not in ("MQCFIN", "MQCFST"):
        raise _error(f"{key.raw} cannot be filtered", text, key.end, "WHERE")
    operator = None if op.quoted else OPERATORS.get(op.text)
    if operator is None:
        raise _error(f"{op.raw} is not an operator", text, op.end, "WHERE")
    if attr.is_string:
        return StringFilter(attr.parameter, operator, value.text)
    if operator in _STRING_ONLY:
        raise _error(f"{op.text} compares strings only", text, op.end, "WHERE")
    words = _vocab().words.get(attr.parameter)
    enumerated = bool(words and words.to_value) and not attr.has_range
    if enumerated and operator not in _ENUM_OPERATORS:
        raise _error(f"{key.text} takes EQ or NE only", text, op.end, "WHERE")
    shown = words.to_word if words is not None else {}
    # A word only displays show (DISPLAY CONN's APPLTYPE(USER)) is what a WHERE compares with: WHERE(APPLTYPE EQ USER)
    displayed = next((v for v, w in shown.items() if w == value.text and isinstance(v, int)), None) if not value.quoted else None
    if displayed is not None and value.text not in (words.to_value if words is not None else {}):
        return IntegerFilter(attr.parameter, operator, displayed)
    number = value_from_token(attr.parameter, value, text, key.text, numbers=not enumerated, vocab=_vocab(), flags=True)
    assert isinstance(number, int)
    return IntegerFilter(attr.parameter, operator, number)


def where_filter(item: Item, selectors: dict[str, Attr], text: str) -> IntegerFilter | StringFilter:
    """A WHERE(keyword operator value) on one of ``selectors`` as a PCF filter (CommandSyntaxError when it cannot be one)."""
    return _filter(item, selectors, text)


def _keyword(word: str) -> str:
    return _vocab().synonyms["keyword"].get(word, word)


def _name(item: Item, text: str) -> str:
    token = _one_value(item, text)
    if not token.text:
        raise _error("the name is empty", text, token.end, item.keyword)
    return token.text


def parse(text: str) -> MqscCommand:
    """One MQSC command (no continuation characters): its PCF message, or CommandSyntaxError."""
    vocab = _vocab()
    found = items(text)
    if not found:
        raise CommandSyntaxError("no command", text)
    first = found[0]
    verb = vocab.synonyms["verb"].get(first.keyword, first.keyword) if not first.word.quoted else ""
    if verb == "END" and first.values is None:
        if len(found) > 1:
            raise _error("END takes no parameters", text, found[1].end)
        return MqscCommand("END", "", "", None)
    if first.word.quoted or first.values is not None or verb not in verbs():
        raise UnknownCommandError(f"{first.word.raw} is not an MQSC command", segment(text, first.word.end))
    if len(found) < 2 or found[1].word.quoted:
        raise _error(f"{verb} needs an object", text, found[1].end if len(found) > 1 else len(text))
    noun_item = found[1]
    noun = vocab.synonyms["noun"].get(noun_item.keyword, noun_item.keyword)
    row = vocab.commands.get(f"{verb} {noun}")
    if row is None or row.pcf is None:
        raise _error(f"{verb} {noun_item.keyword} is not a command", text, noun_item.word.end)
    name = ""
    if row.name is not None and not (noun_item.values is None and options_of(row.command).unnamed):
        name = _name(noun_item, text)
    elif noun_item.values is not None and not (_ANY_NAME in row.options and [t.text for t in noun_item.values] == ["*"]):
        raise _error(f"{noun} takes no name", text, noun_item.end)
    if authrec.is_authrec(row):
        message = authrec.build(row, found[2:], text)
    elif chlauth.is_chlauth(row):
        message = chlauth.build(row, name, found[2:], text)
    else:
        message = _build(row, name, found[2:], text)
    return MqscCommand(verb, noun, name, message, row)


def _build(row: CommandRow, name: str, rest: Sequence[Item], text: str) -> Message:
    vocab = _vocab()
    options = options_of(row.command)
    assert row.pcf is not None
    params: list[Parameter] = []
    seen: dict[int, Item] = {}
    required: dict[int, Parameter] = {}
    selectors: list[int] = []
    filters: list[Parameter] = []
    qtype = row.qtype
    like: str | None = None
    copy = _COPIES.get(row.pcf)
    settable = {a.parameter for a in options.attributes.values()}
    groups = _group_words(row.pcf)
    repeated: dict[int, list[str]] | None = {} if table_of_command(row.pcf) in _REPEATED_LISTS else None

    def note(parameter: int, item: Item) -> None:
        if parameter in seen:
            raise _error(f"{item.keyword} repeats {seen[parameter].keyword}", text, item.end, item.keyword)
        seen[parameter] = item

    for item in rest:
        if item.word.quoted:
            raise _error(f"{item.word.raw} is not a keyword", text, item.word.end)
        keyword = _keyword(item.keyword)
        if item.values is None:
            group = groups.get(keyword)  # DISPLAY QMGR EVENT: a word for a group of attributes
            if options.selectors is not None and (keyword == "ALL" or keyword in options.selectors or isinstance(group, int)):
                selector = mq.MQIACF_ALL if keyword == "ALL" else group if isinstance(group, int) else options.selectors[keyword].parameter
                if selector in selectors:
                    raise _error(f"{keyword} is named twice", text, item.end, keyword)
                selectors.append(selector)
                continue
            flag = vocab.flags.get(keyword)
            if flag is not None and (flag[0] in options.flags or flag[0] in settable):
                note(flag[0], item)
                assert isinstance(flag[1], int)
                params.append(Integer(flag[0], flag[1]))
                continue
            raise _error(f"{keyword} is not valid here", text, item.end, keyword)
        if keyword == "WHERE" and options.where:
            assert options.filterable is not None
            note(-1, item)
            filters.append(_filter(item, options.filterable, text))
            continue
        if keyword in options.keyed:
            parameter, is_required = options.keyed[keyword]
            note(parameter, item)
            if copy is not None and parameter == copy[1]:
                like = _name(item, text)
                continue
            if parameter == mq.MQIA_Q_TYPE:
                value = value_from_token(parameter, _one_value(item, text), text, keyword, numbers=False, vocab=vocab)
                assert isinstance(value, int)
                qtype = value
                continue
            token = _one_value(item, text)
            built: Parameter
            if is_bytes_parameter(parameter):
                built = _bytes(parameter, token, text, keyword)
            else:
                value = value_from_token(parameter, token, text, keyword, numbers=not vocab.words.get(parameter), vocab=vocab)
                built = String(parameter, value) if isinstance(value, str) else Integer(parameter, value)
            if is_required:
                required[parameter] = built
            else:
                params.append(built)
            continue
        attr = options.attributes.get(keyword)
        if attr is None:
            raise _error(f"{keyword} is not valid here", text, item.end, keyword)
        if repeated is not None and attr.struct == "MQCFSL":
            if not item.values:
                raise _error(f"{item.keyword} needs a value in parentheses", text, item.end, item.keyword)
            repeated.setdefault(attr.parameter, []).extend(token.text for token in item.values)
            continue
        note(attr.parameter, item)
        if attr.struct == "MQCFSL":
            if item.values is None:
                raise _error(f"{item.keyword} needs a list in parentheses", text, item.end, item.keyword)
            params.append(StringList(attr.parameter, tuple(token.text for token in item.values)))
            continue
        if attr.struct == "MQCFIL":  # a list of words or numbers: COMPHDR(SYSTEM,NONE)
            if not item.values:
                raise _error(f"{item.keyword} needs a list in parentheses", text, item.end, item.keyword)
            takes_numbers = attr.has_range or not (vocab.words.get(attr.parameter) and vocab.words[attr.parameter].to_value)
            members = [value_from_token(attr.parameter, t, text, item.keyword, numbers=takes_numbers, vocab=vocab) for t in item.values]
            params.append(IntegerList(attr.parameter, tuple(int(v) for v in members)))
            continue
        if attr.struct == "MQCFBS":
            params.append(_bytes(attr.parameter, _one_value(item, text), text, item.keyword))
            continue
        value = _attribute_value(attr, item, text)
        params.append(String(attr.parameter, value) if isinstance(value, str) else Integer(attr.parameter, value))
    params.extend(StringList(parameter, tuple(values)) for parameter, values in (repeated or {}).items())
    for keyword, (parameter, is_required) in options.keyed.items():
        if is_required and parameter not in required:
            raise _error(f"{keyword} is required", text, len(text), keyword)
    head: list[Parameter] = []
    command = row.pcf
    if like is not None and copy is not None:
        command, source, target = copy
        head += [String(source, like), String(target, name)]
    elif row.name is not None and (name or not options.unnamed):
        head.append(_name_parameter(row.name, name, text))
    head.extend(required.values())
    if qtype is not None:
        head.append(Integer(options.type_parameter, qtype))
    params = _for_subtype(command, [*head, *params], params)
    listed = _SELECTOR_LISTS.get(command)
    if listed is not None:
        parameter, table, default = listed
        brief = options.brief and not selectors and "*" in name
        chosen = tuple(selectors) or (_brief(table) if brief else options.shows or default)
        chosen = with_filtered(chosen, filters[0].parameter if filters else None)
        shared = alternates(table, DIALECT) if table in OBJECT_TABLES else {}
        chosen = (*chosen, *(p for s in chosen for p in shared.get(s, {}).values() if p not in chosen))
        if chosen or brief:
            head.append(IntegerList(parameter, chosen))
    if filters and filters[0].parameter in seen:  # IBM: not CHLTYPE in WHERE when it also selects (TYPE(SDR))
        raise _error(f"WHERE cannot test {seen[filters[0].parameter].keyword}, which selects", text, len(text), "WHERE")
    everything = (*head, *params, *filters)
    version = 3 if filters else 2 if any(isinstance(p, ByteString) for p in everything) else 1  # MQCFBS needs version 2
    return Message(command, everything, type=mq.MQCFT_COMMAND, version=version)


def _bytes(parameter: int, token: Token, text: str, keyword: str) -> ByteString:
    """A byte string keyword's value (SUBID, DESTCORL, PUBACCT): hexadecimal digits, two a byte, as runmqsc shows them."""
    try:
        return ByteString(parameter, byte_string(token.text))
    except ValueError:
        raise _error(f"{keyword} takes hexadecimal digits, two a byte", text, token.end, keyword) from None


def _name_parameter(parameter: int, name: str, text: str) -> Parameter:
    """The name after the noun: a string, or for a byte-string name (CONN) its hexadecimal digits, ``*`` = every one."""
    if not (names.parameter_name(parameter) or "").startswith("MQBACF_"):
        return String(parameter, name)
    if name == "*":
        return ByteString(parameter, b"")
    try:
        value = bytes.fromhex(name)
    except ValueError:
        raise _error(f"{name} is not hexadecimal", text, len(text)) from None
    if parameter in _CONNECTION_NAMES and len(value) in (CONN_LENGTH, CONN_LENGTH + _EXTCONN_LENGTH):
        # CONN(16 hex digits) as DISPLAY CONN shows it: that connection of this queue manager (16 zero bytes stand
        # for its EXTCONN prefix, IBM STOP CONN q086790_); all 48 digits: that connection exactly.
        return ByteString(mq.MQBACF_CONNECTION_ID, value.rjust(CONN_LENGTH + _EXTCONN_LENGTH, b"\0"))
    return ByteString(parameter, value)


# What a BRIEF display of a queue or topic asks for (DISPLAY QUEUE(*): QUEUE and TYPE, as it always asked)
_BRIEF_SELECTORS = {"queue": (mq.MQCA_Q_NAME, mq.MQIA_Q_TYPE), "topic": (mq.MQIA_TOPIC_TYPE,)}


def _brief(table: str) -> tuple[int, ...]:
    """What a BRIEF display of a generic name asks for: the sort (the name always comes), or nothing else."""
    if table in _BRIEF_SELECTORS:
        return _BRIEF_SELECTORS[table]
    return (_SUBTYPES[table],) if table in _SUBTYPES else ()


def _for_subtype(command: int, given: Sequence[Parameter], params: list[Parameter]) -> list[Parameter]:
    """Attributes whose keyword stands for another parameter on the command's subtype (SSLCIPH on CHLTYPE(MQTT)
    is SSLCipherSuite), given as that parameter."""
    table = table_of_command(command)
    subtype_pid = _SUBTYPES.get(table)
    shared = alternates(table, DIALECT) if subtype_pid else {}
    subtype = next((p.value for p in given if p.parameter == subtype_pid and isinstance(p, Integer)), None)
    if subtype is None or not shared:
        return params
    out: list[Parameter] = []
    for p in params:
        other = shared.get(p.parameter, {}).get(subtype)
        if other is not None and isinstance(p, String):
            p = String(other, p.value)
        elif other is not None and isinstance(p, Integer):
            p = Integer(other, p.value)
        out.append(p)
    return out


def parse_command(text: str) -> list[Message]:
    """The PCF command(s) of one MQSC command (none for END); CommandSyntaxError when it cannot be read."""
    parsed = parse(text)
    return [] if parsed.message is None else [parsed.message]


# ---------------------------------------------------------------------------------- PCF to MQSC


class NotExpressible(ValueError):
    """A PCF command MQSC has no way to say (a parameter it cannot carry, a command it lacks)."""


def quote(value: str, *, always: bool = False) -> str:
    """A string as MQSC reads it back: bare when it is upper case name characters, else quoted."""
    if not always and _UNQUOTED.match(value):
        return value
    return "'" + value.replace("'", "''") + "'"


def _row_for(message: Message) -> tuple[CommandRow, set[int]]:
    """The MQSC command a PCF command is, and the parameters its verb and noun already say."""
    vocab = _vocab()
    code = _CREATE_OF_COPY.get(message.command, message.command)
    qtype = message.int_value(mq.MQIA_Q_TYPE)
    rows = [r for r in vocab.commands.values() if r.pcf == code]
    if not rows:
        raise NotExpressible(f"MQSC has no command for {names.command_name(message.command) or message.command}")
    exact = [r for r in rows if r.qtype is not None and r.qtype == qtype]
    if exact:
        return exact[0], {mq.MQIA_Q_TYPE}
    untyped = [r for r in rows if r.qtype is None]
    if untyped:
        return untyped[0], set()
    raise NotExpressible(f"{names.command_name(message.command)} needs a queue type MQSC can name")


def _value_text(parameter: int, value: AttrValue, always: bool) -> str:
    if isinstance(value, str):
        return quote(value, always=always)
    word = word_for(parameter, value, DIALECT)
    return word if word else str(value)


def render_parts(message: Message, *, quote_all: bool = False) -> list[str]:
    """The MQSC words of a PCF command: ``VERB NOUN(name)`` first, then one part per parameter."""
    row, consumed = _row_for(message)
    if authrec.is_authrec(row):
        try:
            return authrec.render_parts(row, message, lambda value: quote(value.rstrip(), always=quote_all))
        except ValueError as error:
            raise NotExpressible(str(error)) from error
    if chlauth.is_chlauth(row):
        try:
            return chlauth.render_parts(row, message, lambda value: quote(value.rstrip(), always=quote_all))
        except ValueError as error:
            raise NotExpressible(str(error)) from error
    vocab = _vocab()
    options = options_of(row.command)
    keyed = {parameter: keyword for keyword, (parameter, _) in options.keyed.items()}
    head = row.command
    copy = _COPIES.get(_CREATE_OF_COPY.get(message.command, 0))
    name_parameter = copy[2] if copy is not None else row.name
    parts: list[str] = []
    if name_parameter is not None and not (options.unnamed and message.str_value(name_parameter) is None):
        name = message.str_value(name_parameter)
        if name is None:
            raise NotExpressible(f"{row.command} needs {names.parameter_name(name_parameter)}")
        head += f"({quote(name.rstrip(), always=quote_all)})"
        consumed.add(name_parameter)
    if copy is not None:
        source = message.str_value(copy[1])
        if source is None:
            raise NotExpressible(f"a copy needs {names.parameter_name(copy[1])}")
        parts.append(f"LIKE({quote(source.rstrip(), always=quote_all)})")
        consumed.add(copy[1])
    listed = _SELECTOR_LISTS.get(message.command)
    by_parameter: dict[int, str] = {}
    for word, known in options.attributes.items():
        by_parameter.setdefault(known.parameter, word)
    table = table_of_command(message.command)
    for base, others in (alternates(table, DIALECT) if table in OBJECT_TABLES else {}).items():
        for other in others.values():  # SSLCipherSuite is written SSLCIPH, as SSLCipherSpec
            if base in by_parameter:
                by_parameter.setdefault(other, by_parameter[base])
    for item in message.parameters:
        parameter = item.parameter
        if parameter in consumed and not isinstance(item, (IntegerFilter, StringFilter)):
            continue
        if listed is not None and parameter == listed[0] and isinstance(item, IntegerList):
            generic = options.brief and "*" in (message.str_value(row.name) or "" if row.name else "")
            values = without_filtered(item.values, message.parameters)
            # A specific name asking only what a generic one shows (QUEUE and TYPE) has no MQSC of its own: runmqsc's
            # nearest is the display with nothing named, which shows every attribute.
            brief = generic or (options.brief and tuple(values) == _brief(listed[1]))
            shown = _brief(listed[1]) if brief else options.shows or listed[2]  # (what the parser sends when nothing is named)
            parts.extend(_selector_words(values, listed[1], shown, options, message.command))
            continue
        if isinstance(item, (IntegerFilter, StringFilter)):
            parts.append(_where_text(item, quote_all, table_of_command(message.command)))
            continue
        if isinstance(item, StringList):
            keyword = by_parameter.get(parameter)
            if keyword is None:
                raise NotExpressible(f"{row.command} has no keyword for {names.parameter_name(parameter) or parameter}")
            if table in _REPEATED_LISTS:  # SIGNER('CN=A') SIGNER('CN=B'), as IBM writes them
                parts.extend(f"{keyword}({quote(v.rstrip(), always=quote_all)})" for v in item.values)
            else:
                parts.append(f"{keyword}({','.join(quote(v.rstrip(), always=quote_all) for v in item.values)})")
            continue
        if isinstance(item, IntegerList) and (listed is None or parameter != listed[0]):
            keyword = by_parameter.get(parameter)
            if keyword is None:
                raise NotExpressible(f"{row.command} has no keyword for {names.parameter_name(parameter) or parameter}")
            parts.append(f"{keyword}({','.join(_value_text(parameter, v, quote_all) for v in item.values)})")
            continue
        if isinstance(item, ByteString):
            keyword = keyed.get(parameter) or next((k for k, a in options.attributes.items() if a.parameter == parameter), None)
            if keyword is None:
                raise NotExpressible(f"{row.command} has no keyword for {names.parameter_name(parameter) or parameter}")
            parts.append(f"{keyword}({item.value.hex().upper()})")
            continue
        if not isinstance(item, (Integer, String)):
            raise NotExpressible(f"MQSC cannot carry {names.parameter_name(parameter) or parameter}")
        words = vocab.words.get(parameter)
        if isinstance(item, Integer) and words is not None and words.to_word.get(item.value) in words.flags:
            parts.append(words.to_word[item.value])
            continue
        keyword = keyed.get(parameter) or by_parameter.get(parameter)
        if keyword is None:
            raise NotExpressible(f"{row.command} has no keyword for {names.parameter_name(parameter) or parameter}")
        parts.append(f"{keyword}({_value_text(parameter, item.value, quote_all)})")
    return [head, *parts]


def _group_words(code: int) -> dict[str, AttrValue]:
    """The words that name a group of a display's attributes (DISPLAY QMGR EVENT), by word: their selectors."""
    listed = _SELECTOR_LISTS.get(code)
    words = _vocab().words.get(listed[0]) if listed is not None else None
    return words.to_value if words is not None else {}


def _selector_words(values: Sequence[int], table: str, default: tuple[int, ...], options: Options, code: int) -> list[str]:
    if tuple(values) == default:
        return []
    groups = {value: word for word, value in _group_words(code).items()}
    out = []
    for value in values:
        if value == mq.MQIACF_ALL:
            out.append("ALL")
            continue
        keyword = groups.get(value) or next((k for k, a in (options.selectors or {}).items() if a.parameter == value), None)
        if keyword is None:
            raise NotExpressible(f"DISPLAY has no keyword for {names.parameter_name(value) or value}")
        out.append(keyword)
    return out


def _where_text(item: IntegerFilter | StringFilter, quote_all: bool, table: str) -> str:
    keyword = display_keyword(item.parameter, table=table)
    operator = OPERATOR_WORDS.get(item.operator)
    if keyword is None or operator is None:
        raise NotExpressible("a filter MQSC cannot say")
    return f"WHERE({keyword} {operator} {_value_text(item.parameter, item.value, quote_all)})"


def render_command(message: Message, *, quote_all: bool = False) -> str:
    """The PCF command as one line of MQSC; NotExpressible when MQSC cannot say it."""
    return " ".join(render_parts(message, quote_all=quote_all))


SCRIPT_LINE = 1000  # the longest script line written; IBM's runmqsc reads lines of up to 2048 characters on Multiplatforms


def render_script_lines(message: Message, *, quote_all: bool = True) -> list[str]:
    """The command as dmpmqcfg lays it out: one parameter per line, ``+`` continuations.  A parameter too long for one
    line (a topic string of thousands of characters) goes on over several (:func:`_folded`)."""
    parts = render_parts(message, quote_all=quote_all)
    lines = [parts[0], *(f"   {p}" for p in parts[1:])]
    out: list[str] = []
    for i, text in enumerate(lines):
        out += _folded(text, SCRIPT_LINE - 4)
        if i < len(lines) - 1:
            out[-1] += " +"
    return out


def _folded(text: str, width: int) -> list[str]:
    """``text`` as script lines of at most ``width`` + 3 characters.  Each but the last ends in ``-``, which continues
    from the first column of the next line, inside a quoted string too; the cut falls where the piece before it does
    not end in a blank and the next does not start with one (a reader may trim them) or with ``*`` (a line that starts
    with ``*`` is a comment).  Where no such place is near, a blank may start the next piece; in a run of ``*`` the
    piece ends in ``+`` instead, which continues from the next line's first non-blank, and the next starts indented."""
    out: list[str] = []
    while len(text) > width:
        span = range(width, width // 2, -1)
        cut = next((i for i in span if text[i - 1] != " " and text[i] not in " *"), 0) or next((i for i in span if text[i] != "*"), 0)
        if cut:
            out.append(text[:cut] + "-")
            text = text[cut:]
        else:
            out.append(text[:width] + "+")
            text = "   " + text[width:]
    out.append(text)
    return out


# ---------------------------------------------------------------------------------- answers


SLOT = 40  # runmqsc shows two attributes a line, in 40-column slots after a 3-blank indent
INDENT = "   "


def layout(entries: Sequence[str]) -> list[str]:
    """Display entries two to a line; one too wide for its slot pushes its partner to the next line.

    An entry of several lines (a list of names, one a line) takes whole lines: the entry before it,
    if it waits for a partner, stands alone.
    """
    lines: list[str] = []
    left: str | None = None
    for entry in entries:
        if "\n" in entry:
            if left is not None:
                lines.append(INDENT + left)
                left = None
            lines.extend(INDENT + part for part in entry.split("\n") if part)  # (a trailing newline: a line of its own)
        elif left is None:
            left = entry
        elif len(left) < SLOT:
            lines.append(INDENT + left.ljust(SLOT) + entry)
            left = None
        else:
            lines.append(INDENT + left)
            lines.append(INDENT + " " * SLOT + entry)
            left = None
    if left is not None:
        lines.append(INDENT + left)
    return lines


def command_text(lines: Sequence[str]) -> list[str]:
    """runCommand's ``text`` for one answer: a display (its message and attribute lines, each after the indent) as one
    string, the lines run together, as mqweb answers it (clients written against IBM MQ read ``text[0]`` as the whole
    object: formats/rest-admin.tsv, run_command_text); anything else line by line."""
    if len(lines) > 1 and all(line.startswith(INDENT) for line in lines[1:]):
        return ["".join(lines)]
    return list(lines)


_DISPLAY_HEAD = re.compile(r"([^()]+?\.)(?=   [A-Z])")
_ENTRY_WORD = re.compile(r" *([A-Z][A-Z0-9]*)(\()?")
_LIST_BREAK = re.compile(r" {2,},")


@cache
def _own_line_words() -> dict[str, frozenset[str]]:
    """Per display message (AMQ8276I: ...), the keywords runmqsc writes on a line of their own (``_OWN_LINE``; a
    connection's EXTCONN with its CONN), so that a display run together can be laid out again the same way."""
    out: dict[str, frozenset[str]] = {}
    for code, table in _DISPLAY_TABLE.items():
        text = message(DIALECT, f"display:{names.command_name(code)}")
        own = set(_OWN_LINE.get(table, ()))
        if table in ORDERED_TABLES and table not in _SORTED_STATUS:  # rows before the name (a subscription's SUBID)
            order = [a.parameter for a in attributes_of(table)]
            name = _NAME_PARAMETERS.get(table)
            own.update(order[: order.index(name)] if name in order else ())
        if text is None or not own:
            continue
        words = {display_keyword(p, dialect=DIALECT, table=table) for p in own}
        if table == "conn":
            words |= {"CONN", "EXTCONN"}
        out[_line(f"display:{names.command_name(code)}")] = frozenset(w for w in words if w)
    return out


def display_lines(text: str) -> list[str]:
    """runmqsc's lines of one ``command_text`` display (its entries laid out again); other text as it is."""
    head = _DISPLAY_HEAD.match(text)
    if head is None:
        return [text]
    own = _own_line_words().get(head.group(1), frozenset())
    entries: list[str] = []
    i, n = head.end(), len(text)
    while i < n:
        found = _ENTRY_WORD.match(text, i)
        if found is None or found.end() == i:
            return [text]  # not entries as runmqsc writes them: shown as it came
        i = found.end()
        if not found.group(2):
            entries.append(found.group(1) + ("\n" if found.group(1) in own else ""))
            continue
        depth, j = 1, i
        while j < n and depth:
            depth += {"(": 1, ")": -1}.get(text[j], 0)
            j += 1
        if depth:
            return [text]
        keyword, value = found.group(1), text[i : j - 1]
        names = _LIST_BREAK.split(value)  # a list shown one name a line (NAMES): its continuation lines ran together
        entries.append((f"{keyword}({value})" if len(names) < 2 else _list_entry(keyword, names)) + ("\n" if keyword in own else ""))
        i = j
    return [head.group(1), *layout(entries)]


def _display_value(parameter: int, value: AttrValue) -> str:
    if isinstance(value, str):
        return value.rstrip(" ") or " "
    word = word_for(parameter, value, DIALECT)
    if word is None:
        return str(value)
    return word or " "


def _list_entry(keyword: str, shown: Sequence[str]) -> str:
    """A list of names as runmqsc shows a namelist's: ``NAMES(A`` then ``     ,B`` ... ``)``, one name a line."""
    if len(shown) <= 1:
        return f"{keyword}({''.join(shown) or ' '})"
    continuation = " " * len(keyword) + ","
    return "\n".join([f"{keyword}({shown[0]}", *(continuation + name for name in shown[1:-1]), f"{continuation}{shown[-1]})"])


def display_entries(response: Message, table: str) -> list[str]:
    """A response's attributes as runmqsc shows them: the name (and type) first, the rest sorted.

    Processes and namelists keep the order of their table, which is runmqsc's for namelists
    (NAMCOUNT, NAMES, DESCR, ALTDATE, ALTTIME); a namelist's names are shown one a line.
    """
    words = _vocab().words
    first: list[str] = []
    rest: list[tuple[int, str]] = []
    name_parameter = _NAME_PARAMETERS.get(table)
    for item in response.parameters:
        keyword = display_keyword(item.parameter, dialect=DIALECT, table=table)
        if keyword is None:
            continue
        if isinstance(item, Integer):
            shown = _display_value(item.parameter, item.value)
            found = words.get(item.parameter)
            entry = shown if found is not None and shown in found.flags else f"{keyword}({shown})"
        elif isinstance(item, String):
            entry = f"{keyword}({_display_value(item.parameter, item.value)})"
        elif isinstance(item, ByteString) and table == "conn" and item.parameter == mq.MQBACF_CONNECTION_ID:
            conn, extconn = connection_parts(item.value)
            first += [f"{keyword}({conn})\n", f"EXTCONN({extconn})\n"]
            continue
        elif isinstance(item, ByteString):
            entry = f"{keyword}({item.value.hex().upper() or ' '})"
        elif isinstance(item, StringList) and table in _REPEATED_LISTS:  # RECIP(CN=A) RECIP(CN=B): an entry each
            rest.extend((item.parameter, f"{keyword}({_display_value(item.parameter, v)})") for v in item.values)
            continue
        elif isinstance(item, StringList) and table in OBJECT_TABLES:
            entry = _list_entry(keyword, [_display_value(item.parameter, v) for v in item.values])
        elif isinstance(item, (IntegerList, StringList)):
            entry = f"{keyword}({','.join(_display_value(item.parameter, v) for v in item.values)})"
        else:
            continue
        if item.parameter in _OWN_LINE.get(table, ()):
            entry += "\n"
        is_name = (
            item.parameter == name_parameter
            or (keyword == "TYPE" and table in ("queue", "status"))
            or (table in _SUBTYPES and item.parameter == _SUBTYPES[table])
        )
        if is_name:
            first.append(entry)
        else:
            rest.append((item.parameter, entry))
    first.sort(key=lambda entry: not entry.startswith(("QUEUE(", "QMNAME(")))
    if table in ORDERED_TABLES and table not in _SORTED_STATUS:
        order = {a.parameter: i for i, a in enumerate(attributes_of(table))}  # every row (SSLCIPH's two)
        ranked = [entry for _, entry in sorted(rest, key=lambda pair: order.get(pair[0], len(order)))]
        # A row its table lists before the object's name shows before it (a subscription's SUBID, q020920_ example).
        ahead = {p for p, i in order.items() if name_parameter in order and i < order[name_parameter]}
        early = [entry for p, entry in sorted(rest, key=lambda pair: order.get(pair[0], len(order))) if p in ahead]
        # Such an entry has its line to itself (runmqsc prints SUBID alone, then SUB and TOPICSTR side by side).
        return [entry + "\n" for entry in early] + first + [entry for entry in ranked if entry not in early]
    return first + sorted(entry for _, entry in rest)


def _line(key: str, **inserts: object) -> str:
    return line(DIALECT, key, **inserts)


def failure_lines(command: Message, failed: Message, name: str | None = None) -> list[str]:
    """The line(s) runmqsc prints for a failure; the MQRC name and number when IBM gives no text."""
    inserts = reason_inserts(failed.reason, error_keyword(command, failed, DIALECT))
    return [_line(failure_key(DIALECT, failed.reason, command.command), name=name or failed_name(command, failed), **inserts)]


def render_answer(command: Message, answer: Sequence[Message], *, name: str | None = None) -> Outcome:
    """runmqsc's lines for a PCF command's answer, grouped per response message.

    ``name``: the object a failure is about, when the command names two (MOVE's source or target).
    """
    code = command.command
    blocks: list[Block] = []
    failed = failure(answer)
    table = _DISPLAY_TABLE.get(code)
    if table is not None:
        for response in answer:
            if response.comp_code == mq.MQCC_OK and response.parameters:
                if table == "chlauth" and response.get(mq.MQCACH_CHANNEL_NAME) is None:  # RUNCHECK: no record decides
                    lines = [_line("chlauth:runs-as", user=(response.str_value(mq.MQCACH_MCA_USER_ID) or "").rstrip())]
                else:
                    body = chlauth.display_lines(response) if table == "chlauth" else layout(display_entries(response, table))
                    lines = [_line(f"display:{names.command_name(code)}"), *body]
                blocks.append(Block(tuple(lines), code, response.comp_code, response.reason))
    count = _move_count(answer)
    if failed is None:
        if table is None:
            lines = []
            if count is not None:
                lines.append(_line(f"ok:{names.command_name(code)}", count=count))
            elif message(DIALECT, f"ok:{names.command_name(code)}") is not None:
                lines.append(_line(f"ok:{names.command_name(code)}"))
            blocks.append(Block(tuple(lines), code))
        return Outcome(OK, tuple(blocks))
    lines = failure_lines(command, failed, name)
    if count is not None:
        lines.append(_line("ok:MQCMD_MOVE_Q", count=count))
    blocks.append(Block(tuple(lines), code, failed.comp_code, failed.reason))
    return Outcome(FAILED, tuple(blocks))


def _move_count(answer: Sequence[Message]) -> int | None:
    for response in answer:
        count = response.int_value(mq.MQIACF_MOVE_COUNT)
        if count is not None:
            return count
    return None


def syntax_outcome(error: CommandSyntaxError) -> Outcome:
    """AMQ8405I and the command segment (and, for an unknown verb, AMQ8426I and the verbs)."""
    lines = [_line("syntax"), error.segment]
    if isinstance(error, UnknownCommandError):
        lines.append(_line("verbs"))
        lines.extend(f"       {verb}" for verb in verbs())
    return Outcome(SYNTAX, (Block(tuple(lines), 0, mq.MQCC_FAILED, mq.MQRCCF_COMMAND_FAILED),))


_LINE_END = re.compile(r"\r\n|\r|\n")


def one_line(text: str) -> str:
    """A command sent as several lines (runCommand, Escape) as one: line ends become blanks.
    Only CR and LF end a line: U+0085, U+2028 and the like are text, even inside quotes."""
    return " ".join(_LINE_END.split(text)).strip()


def run(text: str, execute: Execute, context: Context | None = None) -> Outcome:
    """Parses, executes and renders one MQSC command."""
    try:
        parsed = parse(text)
    except CommandSyntaxError as error:
        return syntax_outcome(error)
    if parsed.message is None:
        return Outcome(END)
    answer = execute(parsed.message)
    return render_answer(parsed.message, answer, name=_missing(parsed.message, answer, execute))


def _missing(command: Message, answer: Sequence[Message], execute: Execute) -> str | None:
    """Which queue a failed MOVE did not find (the answer does not say): asked, not guessed."""
    failed = failure(answer)
    if command.command != mq.MQCMD_MOVE_Q or failed is None or failed.reason != mq.MQRC_UNKNOWN_OBJECT_NAME:
        return None
    source = (command.str_value(mq.MQCACF_FROM_Q_NAME) or "").rstrip()
    target = (command.str_value(mq.MQCACF_TO_Q_NAME) or "").rstrip()
    [names_answer, *_] = execute(Message(mq.MQCMD_INQUIRE_Q_NAMES, (String(mq.MQCA_Q_NAME, source),)))
    found = names_answer.get(mq.MQCACF_Q_NAMES)
    exists = isinstance(found, StringList) and any(n.rstrip() == source for n in found.values)
    return target if exists else source
