"""IBM i CL on the PCF engine: the queue commands (CRTMQMQ, CHGMQMQ, CPYMQMQ, DLTMQMQ, CLRMQMQ, DSPMQMQ, WRKMQMQ),
CHGMQM and DSPMQM, the commands of every kind IBM i has (formats/kinds.tsv ``ibmi`` noun: CRTMQMCHL ... WRKMQMCHL,
CRTMQMPRC, CRTMQMNL, CRTMQMLSR, CRTMQMSVC, CRTMQMAUTI ...), and the authority commands (GRTMQMAUT ..., in
ibmi_authority.py).

``COMMAND KEYWORD(value) ...`` or values by position (``CHGMQMQ 'APP.Q' *DFT *LCL``); the
keywords and positions are ``formats/ibmi-parameters.tsv``, each keyword's PCF parameter the
``ibmi`` column of the attribute tables and the value words ``dialect-values.tsv`` and ``<kind>-values.tsv``
(inverted PUTENBL/GETENBL, ``TRGTYPE(*ALL)`` = EVERY ...).  A kind's name, type and copy keywords are the ibmi cells
of its name, subtype, from and to rows (CHLNAME, CHLTYPE, FROMCHL, TOCHL).  Special values (round2-semantics §4.1):
``*SAME`` leaves an attribute as it is (it is not sent), ``*NONE``/``*BLANK`` blank a name or
text, ``*SYSDFTQ`` / ``*SYSDFTCHL`` ... (the Create commands) take the default object's value (not sent: the engine
does that), ``MQMNAME`` must name this queue manager or be ``*DFT``.

``CHGMQMQ``/``CPYMQMQ`` without ``QTYPE`` (and ``CHGMQMCHL``/``CPYMQMCHL`` without ``CHLTYPE``, ``CHGMQMAUTI`` without
``AUTHTYPE``) ask the engine for the object's type first, as IBM i fills it from the stored object; a kind whose type
CL does not name (a listener: TCP only) gets its one type.  Answers are job-log lines: the AMQ8xxx message id and text,
and for every failure the MQRC/MQRCCF reason (dialect-messages.tsv; a kind without ibmi rows of its own shows
runmqsc's message, whose catalogue IBM i shares, without the severity letter).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from functools import cache

from pcfserver import kinds, mq, names
from pcfserver.codec.model import ByteString, Integer, IntegerFilter, IntegerList, Message, Parameter, String, StringFilter, StringList
from pcfserver.dialects import ibmi_authority
from pcfserver.dialects.cl import ClCommand, ClError, continued, quoted
from pcfserver.dialects.cl import check_output as _output
from pcfserver.dialects.cl import job_line as _line
from pcfserver.dialects.cl import single as _single
from pcfserver.dialects.cl import through as _through
from pcfserver.dialects.cl import word_value as _word_value
from pcfserver.dialects.keywords import byte_string, word_for
from pcfserver.dialects.lexer import CommandSyntaxError, Item, Token, UnknownCommandError, items, parse_number, segment
from pcfserver.dialects.mqsc import OPERATORS
from pcfserver.dialects.outcome import (
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
    Attr,
    AttrValue,
    attributes_of,
    failure_key,
    ibmi_parameters,
    message,
    required_message,
    vocabulary,
)
from pcfserver.kinds import Kind

DIALECT = "ibmi"
# Required parameters (seed 003 "Required"; round2-semantics §4.1/§4.3).
REQUIRED = {
    "CRTMQMQ": ("QNAME", "QTYPE"),
    "CHGMQMQ": ("QNAME",),
    "CPYMQMQ": ("FROMQ", "TOQ"),
    "DLTMQMQ": ("QNAME",),
    "CLRMQMQ": ("QNAME",),
    "DSPMQMQ": ("QNAME",),
    "CLRMQMTOP": ("TOPICSTR",),  # I: CLRMQMTOP q084050_ TOPICSTR required, CLRTYPE(*RETAINED) its only value
}
# Parameters that are not attributes: their meaning is the command's (the module docstring).
_SPECIAL = frozenset(("MQMNAME", "OUTPUT", "WHERE"))
_QUEUE_VERBS = {
    mq.MQCMD_CREATE_Q: "CREATE",
    mq.MQCMD_COPY_Q: "COPY",
    mq.MQCMD_CHANGE_Q: "CHANGE",
    mq.MQCMD_DELETE_Q: "DELETE",
    mq.MQCMD_CLEAR_Q: "CLEAR",
    mq.MQCMD_INQUIRE_Q: "INQUIRE",
}


@dataclass(frozen=True, slots=True)
class Target:
    """What a CL command works on: its table, its verb and the keywords that name the object and its sort."""

    table: str  # queue, qmgr or a kind of formats/kinds.tsv
    verb: str  # CREATE COPY CHANGE DELETE CLEAR INQUIRE; "" for CHGMQM
    name: str  # the keyword naming the object (QNAME, CHLNAME)
    name_pid: int
    from_keyword: str  # Copy's source and target (FROMQ/TOQ, FROMCHL/TOCHL)
    from_pid: int
    to_keyword: str
    to_pid: int
    subtype: str  # the keyword giving the sort (QTYPE, CHLTYPE, AUTHTYPE); "" = CL does not name it
    subtype_pid: int  # 0 = the object has no sorts
    selectors: int  # Inquire's attribute list
    kind: Kind | None


@cache
def target(command: str) -> Target | None:
    """The object of a CL command of dialect-commands.tsv (None: a command this module does not carry out)."""
    row = vocabulary(DIALECT).commands.get(command)
    pcf = row.pcf if row is not None else None
    if pcf in (mq.MQCMD_CHANGE_Q_MGR, mq.MQCMD_INQUIRE_Q_MGR):  # CHGMQM, DSPMQM
        return Target("qmgr", "" if pcf == mq.MQCMD_CHANGE_Q_MGR else "INQUIRE", "", 0, "", 0, "", 0, "", 0, mq.MQIACF_Q_MGR_ATTRS, None)
    if pcf in _QUEUE_VERBS:
        return Target(
            "queue", _QUEUE_VERBS[pcf], "QNAME", mq.MQCA_Q_NAME, "FROMQ", mq.MQCACF_FROM_Q_NAME, "TOQ", mq.MQCACF_TO_Q_NAME,
            "QTYPE", mq.MQIA_Q_TYPE, mq.MQIACF_Q_ATTRS, None,
        )  # fmt: skip
    found = kinds.by_command().get(pcf) if pcf is not None else None
    if found is None:
        # An operation on one object of a kind (STRMQMCHL, ENDMQMLSR): the row's name parameter says which kind.
        owner = next((k for k in kinds.kinds() if row is not None and row.name == k.name), None)
        if owner is None:
            return None
        found = (owner, "OPERATE")
    kind, verb = found
    keyword = {a.parameter: a.keyword(DIALECT) for a in reversed(attributes_of(kind.key))}
    return Target(
        kind.key, verb, keyword.get(kind.name, ""), kind.name, keyword.get(kind.from_name, ""), kind.from_name,
        keyword.get(kind.to_name, ""), kind.to_name, keyword.get(kind.subtype, "") if kind.subtype else "", kind.subtype,
        kind.selectors, kind,
    )  # fmt: skip


def required(command: str) -> tuple[str, ...]:
    """A command's required keywords: the queue commands' (seed 003), else the name (both names for Copy, the type too
    for Create where CL names it: CRTMQMCHL CHLTYPE, CRTMQMAUTI AUTHTYPE), none for the WRK lists."""
    if command in REQUIRED:
        return REQUIRED[command]
    if command in ibmi_authority.REQUIRED:
        return ibmi_authority.REQUIRED[command]
    found = target(command)
    if found is None or found.table in ("queue", "qmgr") or command.startswith("WRK"):
        return ()
    if found.verb == "COPY":
        return (found.to_keyword,) if _identifiers(command) else (found.from_keyword, found.to_keyword)
    if found.verb == "CREATE" and found.subtype:
        return (found.name, found.subtype)
    return () if _identifiers(command) else (found.name,)


@cache
def _identifiers(command: str) -> dict[str, int]:
    """The keywords of a command that name its object by a byte string instead of its name (CHGMQMSUB SUBID,
    CPYMQMSUB FROMSUBID): those whose parameter is a byte-string attribute that cannot be set, 48 hexadecimal digits
    (IBM CHGMQMSUB q084000_: "48 hexadecimal characters representing a 24-byte subscription identifier")."""
    found = target(command)
    if found is None or found.kind is None:
        return {}
    table = {a.parameter: a for a in attributes_of(found.table)}
    out: dict[str, int] = {}
    for p in ibmi_parameters().get(command, ()):
        attr = table.get(p.parameter) if p.parameter is not None else next((a for a in table.values() if a.keyword(DIALECT) == p.keyword), None)
        if attr is not None and attr.struct == "MQCFBS" and attr.access != "set":
            out[p.keyword] = attr.parameter
    return out


def _hex(command: ClCommand, keyword: str) -> bytes:
    token = _single(command, keyword)
    try:
        return byte_string(token.text)
    except ValueError:
        raise ClError("syntax", f"{token.raw} is not hexadecimal digits, two a byte", _through(command, token), command=command.name) from None


def parse(text: str) -> ClCommand:
    """Keywords and positional values assigned to the command's parameters (nothing is sent yet)."""
    vocab = vocabulary(DIALECT)
    found = items(text, bare_lists=True)
    if not found or found[0].word.quoted or found[0].values is not None:
        raise UnknownCommandError("not a CL command", text.strip())
    name = found[0].keyword
    row = vocab.commands.get(name)
    if row is None:
        raise ClError("unknown", f"{name} is not a command here", segment(text, found[0].end), command=name)
    by_position = {p.position: p.keyword for p in ibmi_parameters().get(name, ())}
    known = set(by_position.values())
    values: dict[str, tuple[Token, ...]] = {}
    position = 0
    keyworded = False
    for item in _positional_lists(found[1:], known, text):
        if item.values is None or not item.keyword:  # a value, or a list ``(JACK JILL)``, by position
            if keyworded:
                raise ClError("syntax", "a positional value after a keyword", segment(text, item.end), command=name)
            position += 1
            keyword = by_position.get(position)
            if keyword is None:
                raise ClError("syntax", f"no parameter at position {position}", segment(text, item.end), command=name)
            tokens: tuple[Token, ...] = (item.word,) if item.values is None else item.values
            if not tokens:
                raise ClError("syntax", f"{keyword} has no value", segment(text, item.end), command=name)
        else:
            keyworded = True
            keyword = item.keyword
            if item.word.quoted or keyword not in known:
                raise ClError("keyword", f"{item.word.raw} is not a keyword of {name}", segment(text, item.word.end), keyword=item.word.raw, command=name)
            tokens = item.values
            if not tokens:
                raise ClError("syntax", f"{keyword} has no value", segment(text, item.end), command=name)
        if keyword in values:
            raise ClError("syntax", f"{keyword} is given twice", segment(text, item.end), command=name)
        values[keyword] = tokens
    if target(name) is None and name not in REQUIRED and name not in ibmi_authority.COMMANDS:
        raise ClError("unknown", f"{name} is not carried out here", segment(text, found[0].end), command=name)
    for keyword in required(name):
        if keyword not in values:
            raise ClError("syntax", f"{keyword} is required", text.rstrip(), command=name)
    return ClCommand(name, row, values, text)


def _positional_lists(found: Sequence[Item], known: set[str], text: str) -> list[Item]:
    """``*Q (JACK JILL)``: a value, a blank, then a list, before any keyword and where the value is no keyword of the
    command, is two values by position (the lexer reads it as a keyword with values, as ``MQMNAME (TRENT)`` in IBM's
    examples is one)."""
    out: list[Item] = []
    keyworded = False  # (after a keyword, values by position are refused anyway: an unknown keyword says so better)
    for item in found:
        word = item.word
        keyworded = keyworded or (item.values is not None and word.text in known)
        if not keyworded and item.values is not None and word.text and not word.quoted and not text.startswith("(", word.end):
            start = text.index("(", word.end)
            out += [Item(word, None, item.start, word.end), Item(Token("", False, "", start, start), item.values, start, item.end)]
        else:
            out.append(item)
    return out


# ---------------------------------------------------------------------------------- values


def _leaves_alone(command: ClCommand, token: Token) -> bool:
    """*SAME (Change, Copy) and *SYSDFTQ / *SYSDFTCHL / ... (Create): the engine's value stays."""
    if token.quoted:
        return False
    creating = command.name.startswith("CRT")
    return (token.text == "*SAME" and not creating) or (creating and token.text.startswith("*SYSDFT"))


def attribute_value(command: ClCommand, keyword: str, attr: Attr) -> AttrValue | None:
    """The PCF value of an attribute keyword; None for *SAME / *SYSDFTQ (leave it to the engine)."""
    token = _single(command, keyword)
    if _leaves_alone(command, token):
        return None
    value = _word_value(attr.parameter, token)
    if value is not None:
        return value
    if attr.is_string and not token.quoted and token.text in ("*NONE", "*BLANK"):
        return ""
    if attr.is_string:
        if not token.quoted and token.text.startswith("*"):
            raise ClError("syntax", f"{token.text} is not a value of {keyword}", _through(command, token), command=command.name)
        return token.text
    number = None if token.quoted else parse_number(token.text)
    if number is None:
        raise ClError("syntax", f"{token.raw} is not a value of {keyword}", _through(command, token), command=command.name)
    return number


def _subtype(command: ClCommand, found: Target) -> int | None:
    """The sort the command names (QTYPE, CHLTYPE ...); None when it names none.  *ALL only on the WRK lists of queues."""
    token = command.first(found.subtype) if found.subtype else None
    if token is None:
        return None
    value = _word_value(found.subtype_pid, token)
    if not isinstance(value, int) or (found.table == "queue" and value == mq.MQQT_ALL and not command.name.startswith("WRK")):
        raise ClError("syntax", f"{token.raw} is not a type of {command.name}", _through(command, token), command=command.name)
    return value


def _name(command: ClCommand, keyword: str) -> str:
    token = _single(command, keyword)
    if command.name.startswith("WRK") and not token.quoted and token.text == "*ALL":
        return "*"
    return token.text


# ---------------------------------------------------------------------------------- running


def failure_line(command: Message, failed: Message) -> str:
    """The job-log line of a failure: the AMQ message (or AMQ8101) and the reason's number and name."""
    inserts = reason_inserts(failed.reason, error_keyword(command, failed, DIALECT))
    shown = _line(failure_key(DIALECT, failed.reason), name=failed_name(command, failed), **inserts)
    return f"{shown} {required_message(DIALECT, 'reason-suffix').format(**inserts)}"


class _Refused(Exception):
    def __init__(self, outcome: Outcome) -> None:
        super().__init__(outcome.status)
        self.outcome = outcome


def _failed(command: Message, failed: Message) -> Outcome:
    return Outcome(FAILED, (Block((failure_line(command, failed),), failed.command, failed.comp_code, failed.reason),))


def run(text: str, execute: Execute, context: Context | None = None) -> Outcome:
    """Reads, executes and answers one CL command as job-log lines."""
    context = context or Context()
    try:
        command = parse(text)
        if command.name in ibmi_authority.COMMANDS:
            _check_qmgr(command, context)
            if ibmi_authority.every_object(command):
                return _authority_each(command, execute, context)
            return _authority(ibmi_authority.pcf(command), execute)
        pcf = _pcf(command, execute, context)
    except _Refused as refused:
        return refused.outcome
    except ClError as error:
        return syntax_outcome(error, error.key, error.inserts)
    except CommandSyntaxError as error:
        return syntax_outcome(error, "syntax", {"command": text.split()[0] if text.split() else ""})
    answer = execute(pcf)
    failed = failure(answer)
    found = target(command.name)
    if found is None or (failed is not None and not command.name.startswith("WRK")):
        return _failed(pcf, failed) if failed is not None else Outcome(OK, (Block((_line(f"ok:{names.command_name(pcf.command)}"),), pcf.command),))
    if command.name.startswith("WRK"):
        return _work_list(answer, failed, pcf, found)
    if failed is not None:
        return _failed(pcf, failed)
    if command.name.startswith("DSP"):
        return Outcome(OK, tuple(Block(tuple(display_lines(r, found)), pcf.command) for r in answer))
    return Outcome(OK, (Block((_line(f"ok:{names.command_name(pcf.command)}"),), pcf.command),))


def _authority(pcf: Message, execute: Execute) -> Outcome:
    """A GRTMQMAUT, RVKMQMAUT or DSPMQMAUT carried out (pcfserver/dialects/ibmi_authority.py)."""
    answer = execute(pcf)
    failed = failure(answer)
    if failed is not None and not (pcf.command == mq.MQCMD_INQUIRE_AUTH_RECS and failed.reason == mq.MQRC_UNKNOWN_ENTITY):
        return _failed(pcf, failed)  # (a WRKMQMAUT that finds no record lists none)
    if pcf.command == mq.MQCMD_INQUIRE_ENTITY_AUTH:
        return Outcome(OK, tuple(Block(tuple(ibmi_authority.display_lines(r)), pcf.command) for r in answer))
    if pcf.command == mq.MQCMD_INQUIRE_AUTH_RECS:
        return Outcome(OK, (Block(tuple(ibmi_authority.work_lines(answer)), pcf.command),))
    return Outcome(OK, (Block((_line(f"ok:{names.command_name(pcf.command)}"),), pcf.command),))


def _authority_each(command: ClCommand, execute: Execute, context: Context) -> Outcome:
    """GRTMQMAUT / RVKMQMAUT OBJ(*ALL): the objects of the type asked for, then one record each (all checked first)."""
    inquiry, parameter = ibmi_authority.objects_inquiry(command)
    if inquiry is None:
        found = [context.qmgr_name]
    else:
        answer = execute(inquiry)
        failed = failure(answer)
        if failed is not None and failed.reason not in (mq.MQRC_UNKNOWN_OBJECT_NAME, mq.MQRCCF_CHANNEL_NOT_FOUND):
            return _failed(inquiry, failed)
        found = []
        for response in answer if failed is None else ():
            item = response.get(parameter)
            found += [v.rstrip() for v in item.values] if isinstance(item, StringList) else [(response.str_value(parameter) or "").rstrip()]
    commands = [ibmi_authority.pcf(command, name) for name in found if name]
    outcome = Outcome(OK, (Block((_line("ok:MQCMD_SET_AUTH_REC"),), mq.MQCMD_SET_AUTH_REC),))
    for pcf in commands:
        outcome = _authority(pcf, execute)
        if outcome.status != OK:
            return outcome
    return outcome


def syntax_outcome(error: CommandSyntaxError, key: str, inserts: dict[str, object]) -> Outcome:
    lines = [_line(key, **inserts)]
    if key != "syntax":
        lines.append(_line("syntax", command=inserts.get("command", "")))
    lines.append(f"  {error.segment}")
    return Outcome(SYNTAX, (Block(tuple(lines), 0, mq.MQCC_FAILED, mq.MQRCCF_COMMAND_FAILED),))


def _check_qmgr(command: ClCommand, context: Context) -> None:
    token = command.first("MQMNAME")
    if token is None or (not token.quoted and token.text == "*DFT") or token.text == context.qmgr_name:
        return
    failed = Message(0, comp_code=mq.MQCC_FAILED, reason=mq.MQRC_Q_MGR_NAME_ERROR)
    inserts = reason_inserts(failed.reason)
    line = f"{_line('qmgr')} {required_message(DIALECT, 'reason-suffix').format(**inserts)}"
    raise _Refused(Outcome(FAILED, (Block((line,), 0, mq.MQCC_FAILED, failed.reason),)))


def _type_of(name: str, found: Target, execute: Execute) -> int:
    """The sort of an existing object (CHGMQMQ/CPYMQMQ without QTYPE, CHGMQMCHL without CHLTYPE): asked, not guessed."""
    inquiry = Message(found.kind.command("INQUIRE") if found.kind else mq.MQCMD_INQUIRE_Q, (String(found.name_pid, name), IntegerList(found.selectors, (found.subtype_pid,))))
    answer = execute(inquiry)
    failed = failure(answer)
    if failed is not None:
        raise _Refused(_failed(inquiry, failed))
    value = answer[0].int_value(found.subtype_pid)
    assert value is not None
    return value


def _source(found: Target) -> dict[str, Attr]:
    vocab = vocabulary(DIALECT)
    if found.table == "qmgr":
        return vocab.qmgr
    if found.table == "queue":
        return vocab.queue
    return vocab.objects[found.table]


def _list_value(command: ClCommand, keyword: str, attr: Attr) -> Parameter | None:
    """A list attribute (a channel's MSGEXIT, COMPHDR): ``KEYWORD(a b c)``; *SAME leaves it, *NONE empties a string list."""
    tokens = command.values[keyword]
    if len(tokens) == 1 and _leaves_alone(command, tokens[0]):
        return None
    if attr.struct == "MQCFSL" and len(tokens) == 1 and not tokens[0].quoted and tokens[0].text in ("*NONE", "*BLANK"):
        tokens = ()  # no exits (COMPHDR(*NONE) is a value: MQCOMPRESS_NONE)
    if attr.struct == "MQCFSL":
        return StringList(attr.parameter, tuple(t.text for t in tokens))
    numbers: list[int] = []
    for token in tokens:
        value = _word_value(attr.parameter, token)
        if value is None and not token.quoted:
            value = parse_number(token.text)
        if not isinstance(value, int):
            raise ClError("syntax", f"{token.raw} is not a value of {keyword}", _through(command, token), command=command.name)
        numbers.append(value)
    return IntegerList(attr.parameter, tuple(numbers))


def _attributes(command: ClCommand, found: Target) -> list[Parameter]:
    vocab = vocabulary(DIALECT)
    source = _source(found)
    own = {p.keyword: p.parameter for p in ibmi_parameters().get(command.name, ()) if p.parameter is not None}
    by_parameter = {a.parameter: a for a in attributes_of(found.table)} if own else {}
    skip = {found.name, found.from_keyword, found.to_keyword, found.subtype, *_identifiers(command.name)} - {""}
    out: list[Parameter] = []
    for keyword in command.values:
        if keyword in _SPECIAL or keyword in skip:
            continue
        attr = by_parameter.get(own[keyword]) if keyword in own else source.get(keyword)
        if found.table in ("queue", "qmgr") and keyword in ("FORCE", "REPLACE"):
            attr = vocab.queue[keyword]
        if attr is None or (attr.access == "inquire" and keyword not in ("FORCE", "REPLACE")):
            raise ClError("keyword", f"{keyword} is not modelled here", command.text.rstrip(), keyword=keyword, command=command.name)
        if attr.struct in ("MQCFSL", "MQCFIL"):
            listed = _list_value(command, keyword, attr)
            if listed is not None:
                out.append(listed)
            continue
        if attr.struct == "MQCFBS":  # DESTCRRLID, PUBACCT: hexadecimal digits; *NONE: none (empty)
            token = _single(command, keyword)
            if not _leaves_alone(command, token):
                none = not token.quoted and token.text == "*NONE"
                out.append(ByteString(attr.parameter, b"" if none else _hex(command, keyword)))
            continue
        value = attribute_value(command, keyword, attr)
        if value is None:
            continue
        out.append(String(attr.parameter, value) if isinstance(value, str) else Integer(attr.parameter, value))
    return out


def _sole_subtype(found: Target) -> int | None:
    """The one sort a kind has here when CL cannot name it (a listener: TCP, SYSTEM.DEFAULT.LISTENER.TCP's)."""
    subtypes = [s for s in found.kind.defaults if s] if found.kind else []
    return subtypes[0] if len(subtypes) == 1 and not found.subtype else None


def _clear_topic_string(command: ClCommand) -> Message:
    """CLRMQMTOP TOPICSTR(string) CLRTYPE(*RETAINED): Clear Topic String (CLRTYPE's default is its one value)."""
    params: list[Parameter] = [String(mq.MQCA_TOPIC_STRING, _single(command, "TOPICSTR").text)]
    token = command.first("CLRTYPE")
    value = _word_value(mq.MQIACF_CLEAR_TYPE, token) if token is not None else mq.MQCLRT_RETAINED
    if token is not None and value is None:
        raise ClError("syntax", f"{token.raw} is not a value of CLRTYPE", _through(command, token), command=command.name)
    assert isinstance(value, int)
    params.append(Integer(mq.MQIACF_CLEAR_TYPE, value))
    return Message(mq.MQCMD_CLEAR_TOPIC_STRING, tuple(params))


def _pcf(command: ClCommand, execute: Execute, context: Context) -> Message:
    _check_qmgr(command, context)
    name = command.name
    row = command.row
    if row.pcf == mq.MQCMD_CLEAR_TOPIC_STRING:
        return _clear_topic_string(command)
    found = target(name)
    assert row.pcf is not None and found is not None
    if found.table == "qmgr" and found.verb == "INQUIRE":  # DSPMQM: every attribute
        _output(command)
        return Message(row.pcf, (IntegerList(found.selectors, (mq.MQIACF_ALL,)),))
    if found.table == "qmgr":
        return Message(row.pcf, tuple(_attributes(command, found)))
    if found.verb == "OPERATE":  # the object's name is all the command carries here
        return Message(row.pcf, (String(found.name_pid, _name(command, found.name)),))
    if found.verb in ("DELETE", "CLEAR"):
        return Message(row.pcf, tuple(_named(command, found)), version=_version(_named(command, found)))
    if name.startswith("DSP"):
        _output(command)
        shown: list[Parameter] = _named(command, found)
        subtype = _subtype(command, found) if found.table != "queue" else None
        if subtype is not None:
            shown.append(Integer(found.subtype_pid, subtype))
        return Message(row.pcf, (*shown, IntegerList(found.selectors, (mq.MQIACF_ALL,))), version=_version(shown))
    if name.startswith("WRK"):
        return _work_command(command, found)
    subtype = _subtype(command, found)
    attributes = _attributes(command, found)  # checked before anything is asked
    if found.verb == "COPY":
        source = _copied(command, found, execute)
        head: list[Parameter] = [String(found.from_pid, source), String(found.to_pid, _name(command, found.to_keyword))]
    else:
        head = _named(command, found)
        source = _name(command, found.name) if found.name in command.values else ""
    if found.subtype_pid:
        if subtype is None:
            subtype = _sole_subtype(found)
        head.append(Integer(found.subtype_pid, subtype if subtype is not None else _type_of(source, found, execute)))
    return Message(row.pcf, (*head, *attributes), version=_version([*head, *attributes]))


def _version(params: Sequence[Parameter]) -> int:
    """MQCFH version 2 when a byte string (MQCFBS) is sent, as IBM's MQCFBS page asks."""
    return 2 if any(isinstance(p, ByteString) for p in params) else 1


def _named(command: ClCommand, found: Target) -> list[Parameter]:
    """The parameters naming the object: its name, and/or its identifier (SUBID) where the command has one."""
    out: list[Parameter] = []
    if found.name in command.values or not _identifiers(command.name):
        out.append(String(found.name_pid, _name(command, found.name)))
    for keyword, parameter in _identifiers(command.name).items():
        if keyword in command.values:
            out.append(ByteString(parameter, _hex(command, keyword)))
    if not out:
        raise ClError("syntax", f"{found.name} is required", command.text.rstrip(), command=command.name)
    return out


def _copied(command: ClCommand, found: Target, execute: Execute) -> str:
    """Copy's source: FROMSUB, or the name of the subscription FROMSUBID identifies (asked: PCF Copy names its
    source by name only)."""
    if found.from_keyword in command.values:
        return _name(command, found.from_keyword)
    ids = [(keyword, parameter) for keyword, parameter in _identifiers(command.name).items() if keyword in command.values]
    if not ids:
        raise ClError("syntax", f"{found.from_keyword} is required", command.text.rstrip(), command=command.name)
    keyword, parameter = ids[0]
    assert found.kind is not None
    inquiry = Message(found.kind.command("INQUIRE"), (ByteString(parameter, _hex(command, keyword)),), version=2)
    answer = execute(inquiry)
    failed = failure(answer)
    if failed is not None:
        raise _Refused(_failed(inquiry, failed))
    return (answer[0].str_value(found.name_pid) or "").rstrip()


def _work_command(command: ClCommand, found: Target) -> Message:
    params: list[Parameter] = [String(found.name_pid, _name(command, found.name) if found.name in command.values else "*")]
    subtype = _subtype(command, found)
    if subtype is not None:
        params.append(Integer(found.subtype_pid, subtype))
    if found.table == "queue":
        params.append(IntegerList(found.selectors, (mq.MQCA_Q_NAME, mq.MQIA_Q_TYPE)))
    else:  # a kind's Inquire always answers its name and sort
        params.append(IntegerList(found.selectors, (found.subtype_pid,) if found.subtype_pid else (mq.MQIACF_ALL,)))
    for keyword, parameter in (("CLUSTER", mq.MQCA_CLUSTER_NAME), ("CLUSNL", mq.MQCA_CLUSTER_NAMELIST)):
        if found.table == "queue" and keyword in command.values:
            token = _single(command, keyword)
            if not (token.text == "*SAME" and not token.quoted):
                params.append(String(parameter, token.text))
    version = 1
    if "WHERE" in command.values:
        params.append(_where(command, _source(found)))
        version = 3
    inquire = found.kind.command("INQUIRE") if found.kind else mq.MQCMD_INQUIRE_Q
    return Message(inquire, tuple(params), version=version)


def _where(command: ClCommand, attributes: dict[str, Attr]) -> IntegerFilter | StringFilter:
    tokens = command.values["WHERE"]
    if len(tokens) != 3 or tokens[0].quoted or not tokens[0].text.startswith("*") or not tokens[1].text.startswith("*"):
        raise ClError("syntax", "WHERE takes (*keyword *operator value)", command.text.rstrip(), command=command.name)
    key, op, value = tokens
    attr = attributes.get(key.text[1:])
    operator = OPERATORS.get(op.text[1:])
    if attr is None or attr.struct not in ("MQCFIN", "MQCFST"):
        raise ClError("syntax", f"{key.text} cannot be filtered", _through(command, key), command=command.name)
    if operator is None:
        raise ClError("syntax", f"{op.text} is not an operator here", _through(command, op), command=command.name)
    if attr.is_string:
        return StringFilter(attr.parameter, operator, value.text)
    number = _word_value(attr.parameter, value)
    if number is None:
        number = None if value.quoted else parse_number(value.text)
        if number is None:
            raise ClError("syntax", f"{value.raw} is not a value of {key.text}", _through(command, value), command=command.name)
    assert isinstance(number, int)
    return IntegerFilter(attr.parameter, operator, number)


def _work_list(answer: Sequence[Message], failed: Message | None, pcf: Message, found: Target) -> Outcome:
    key = f"list:{names.command_name(pcf.command)}"
    header = _line(key) if message(DIALECT, key) is not None else ("Name".ljust(51) + ("Type" if found.subtype_pid else "")).rstrip()
    column = header.index("Type") if "Type" in header else 51
    unknown = found.kind.unknown_reason if found.kind else mq.MQRC_UNKNOWN_OBJECT_NAME
    if failed is not None and failed.reason != unknown:
        return _failed(pcf, failed)
    lines = [header]
    for response in answer:
        if response.comp_code != mq.MQCC_OK:
            continue
        name = (response.str_value(found.name_pid) or "").rstrip()
        sort = response.int_value(found.subtype_pid) if found.subtype_pid else None
        shown = word_for(found.subtype_pid, sort, DIALECT) if sort is not None else None
        lines.append((name.ljust(column) + (shown or "")).rstrip() if found.subtype_pid else name)
    return Outcome(OK, (Block(tuple(lines), pcf.command),))


def _shown(attr: Attr, value: AttrValue) -> str:
    if isinstance(value, str):
        text = value.rstrip()
        if text:
            return text
        return word_for(attr.parameter, "", DIALECT) or ""
    word = word_for(attr.parameter, value, DIALECT)
    return word if word else str(value)


def display_lines(response: Message, found: Target | None = None) -> list[str]:
    """DSPMQMQ's (DSPMQMCHL's ...) lines: the display message, then ``KEYWORD value`` in the Change command's order."""
    found = found or target("DSPMQMQ")
    assert found is not None
    source = _source(found)
    change = ("CHGMQM" if found.table == "qmgr" else "CHGMQMQ") if found.kind is None else f"CHGMQM{found.kind.ibmi}"
    lines = [_line(f"display:{names.command_name(response.command) or 'MQCMD_INQUIRE_Q'}")]
    order = [p.keyword for p in ibmi_parameters().get(change, ()) if p.keyword not in ("MQMNAME", "FORCE")]
    order += [k for k in source if k not in order]
    for keyword in order:
        attr = source.get(keyword)
        if attr is None:
            continue
        item = response.get(attr.parameter)
        if isinstance(item, (Integer, String)):
            lines.append(f"  {keyword:<11}{_shown(attr, item.value)}".rstrip())
        elif isinstance(item, ByteString):
            lines.append(f"  {keyword:<11}{item.value.hex().upper() or '*NONE'}")
        elif isinstance(item, (StringList, IntegerList)):
            lines.append(f"  {keyword:<11}{' '.join(_shown(attr, v) for v in item.values)}".rstrip())
    return lines


# ---------------------------------------------------------------------------------- PCF to CL


def _cl_value(parameter: int, value: AttrValue) -> str:
    word = word_for(parameter, value, DIALECT)
    if word:
        return word
    if isinstance(value, str):
        return quoted(value)
    return str(value)


def _cl_list(parameter: int, values: Sequence[AttrValue]) -> str:
    return " ".join(_cl_value(parameter, v) for v in values) if values else "*NONE"


_CL_VERBS = {"CREATE": "CRTMQM", "CHANGE": "CHGMQM"}


def render_parts(message: Message) -> tuple[list[str], list[str]]:
    """The CL words of a Create Queue, a Change Queue Manager or a kind's Create or Change (CRTMQMCHL, CHGMQMAUTI ...),
    and comments for what CL cannot say.  ValueError when CL has no form for the command (COMMINFO, an AMQP or MQTT
    channel)."""
    vocab = vocabulary(DIALECT)
    subtype = 0
    sole: int | None = None
    if message.command == mq.MQCMD_CREATE_Q:
        table, parts = vocab.queue, ["CRTMQMQ"]
    elif message.command == mq.MQCMD_CHANGE_Q_MGR:
        table, parts = vocab.qmgr, ["CHGMQM", "MQMNAME(*DFT)"]
    else:
        found = kinds.by_command().get(message.command)
        prefix = _CL_VERBS.get(found[1], "") if found is not None else ""
        cl = f"{prefix}{found[0].ibmi}" if found is not None and prefix and found[0].ibmi else ""
        if found is None or cl not in vocab.commands:
            raise ValueError(f"no CL form for {names.command_name(message.command)}")
        kind = found[0]
        table, parts, subtype = vocab.objects[kind.key], [cl], kind.subtype
        cl_target = target(cl)
        sole = _sole_subtype(cl_target) if cl_target is not None else None
        value = message.int_value(subtype) if subtype else None
        if value is not None and subtype in {a.parameter for a in table.values()} and not word_for(subtype, value, DIALECT):
            raise ValueError(f"no CL form for {names.command_name(message.command)} of this type")
    by_parameter: dict[int, str] = {}
    for word, attr in table.items():
        by_parameter.setdefault(attr.parameter, word)
    if subtype or parts[0] not in ("CRTMQMQ", "CHGMQM"):  # a kind's command: only its own keywords, in its spelling
        own = ibmi_parameters().get(parts[0], ())
        allowed = {p.keyword for p in own}
        by_parameter = {pid: word for pid, word in by_parameter.items() if word in allowed}
        by_parameter.update({p.parameter: p.keyword for p in own if p.parameter is not None})
    if message.command == mq.MQCMD_CREATE_Q:
        by_parameter.update({mq.MQCA_Q_NAME: "QNAME", mq.MQIA_Q_TYPE: "QTYPE", mq.MQIACF_REPLACE: "REPLACE"})
    comments: list[str] = []
    for item in message.parameters:
        if isinstance(item, (StringList, IntegerList)):
            values: Sequence[AttrValue] = item.values
            shown = _cl_list(item.parameter, values)
        elif isinstance(item, (Integer, String)):
            shown = _cl_value(item.parameter, item.value)
        elif isinstance(item, ByteString):  # DESTCRRLID, PUBACCT: hexadecimal digits, as CL reads them
            shown = item.value.hex().upper()
        else:
            continue
        keyword = by_parameter.get(item.parameter)
        if keyword is None:
            if subtype and item.parameter == subtype and isinstance(item, Integer) and item.value == sole:
                continue  # the one sort CL cannot name (a TCP listener)
            value_text = item.values if isinstance(item, (StringList, IntegerList)) else item.value
            comments.append(f"/* {names.parameter_name(item.parameter)}={value_text!r} has no CL keyword: not set */")
            continue
        parts.append(f"{keyword}({shown})")
    return parts, comments


def render_script_lines(message: Message) -> list[str]:
    """The command for a script: comments first, then the command with ``+`` continuations."""
    parts, comments = render_parts(message)
    return [*comments, *continued(parts)]


__all__ = ["ClCommand", "ClError", "Target", "display_lines", "failure_line", "parse", "render_parts", "render_script_lines", "required", "run", "target"]
