"""IBM i CL: CRTMQMQ, CHGMQMQ, CPYMQMQ, DLTMQMQ, CLRMQMQ, DSPMQMQ, WRKMQMQ and CHGMQM on the PCF engine.

``COMMAND KEYWORD(value) ...`` or values by position (``CHGMQMQ 'APP.Q' *DFT *LCL``); the
keywords and positions are ``formats/ibmi-parameters.tsv``, each keyword's PCF parameter the
``ibmi`` column of the attribute tables and the value words ``dialect-values.tsv`` (inverted
PUTENBL/GETENBL, ``TRGTYPE(*ALL)`` = EVERY ...).  Special values (round2-semantics §4.1):
``*SAME`` leaves an attribute as it is (it is not sent), ``*NONE``/``*BLANK`` blank a name or
text, ``*SYSDFTQ`` (CRTMQMQ) takes the default queue's value (not sent: the engine does that),
``MQMNAME`` must name this queue manager or be ``*DFT``.

``CHGMQMQ`` without ``QTYPE`` and ``CPYMQMQ`` without it ask the engine for the queue's type
first.  Answers are job-log lines: the AMQ8xxx message id and text, and for every failure the
MQRC/MQRCCF reason (dialect-messages.tsv).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from pcfserver import mq, names
from pcfserver.codec.model import Integer, IntegerFilter, IntegerList, Message, Parameter, String, StringFilter
from pcfserver.dialects.keywords import word_for
from pcfserver.dialects.lexer import CommandSyntaxError, Token, UnknownCommandError, items, parse_number, segment
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
    failure,
    object_name,
    reason_inserts,
)
from pcfserver.dialects.tables import Attr, AttrValue, CommandRow, failure_key, ibmi_parameters, line, required_message, vocabulary

DIALECT = "ibmi"
# Required parameters (seed 003 "Required"; round2-semantics §4.1/§4.3).
REQUIRED = {
    "CRTMQMQ": ("QNAME", "QTYPE"),
    "CHGMQMQ": ("QNAME",),
    "CPYMQMQ": ("FROMQ", "TOQ"),
    "DLTMQMQ": ("QNAME",),
    "CLRMQMQ": ("QNAME",),
    "DSPMQMQ": ("QNAME",),
}
# Parameters that are not attributes: their meaning is the command's (the module docstring).
_SPECIAL = frozenset(("MQMNAME", "OUTPUT", "WHERE"))
_NAME_KEYWORDS = {"QNAME": mq.MQCA_Q_NAME, "FROMQ": mq.MQCACF_FROM_Q_NAME, "TOQ": mq.MQCACF_TO_Q_NAME}


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


def parse(text: str) -> ClCommand:
    """Keywords and positional values assigned to the command's parameters (nothing is sent yet)."""
    vocab = vocabulary(DIALECT)
    found = items(text)
    if not found or found[0].word.quoted or found[0].values is not None:
        raise UnknownCommandError("not a CL command", text.strip())
    name = found[0].keyword
    row = vocab.commands.get(name)
    if row is None:
        raise ClError("unknown", f"{name} is not a command here", segment(text, found[0].end), command=name)
    by_position = {p.position: p.keyword for p in ibmi_parameters()[name]}
    known = set(by_position.values())
    values: dict[str, tuple[Token, ...]] = {}
    position = 0
    keyworded = False
    for item in found[1:]:
        if item.values is None:
            if keyworded:
                raise ClError("syntax", "a positional value after a keyword", segment(text, item.end), command=name)
            position += 1
            keyword = by_position.get(position)
            if keyword is None:
                raise ClError("syntax", f"no parameter at position {position}", segment(text, item.end), command=name)
            tokens: tuple[Token, ...] = (item.word,)
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
    for keyword in REQUIRED.get(name, ()):
        if keyword not in values:
            raise ClError("syntax", f"{keyword} is required", text.rstrip(), command=name)
    return ClCommand(name, row, values, text)


# ---------------------------------------------------------------------------------- values


def _single(command: ClCommand, keyword: str) -> Token:
    tokens = command.values[keyword]
    if len(tokens) != 1:
        raise ClError("syntax", f"{keyword} takes one value", command.text.rstrip(), command=command.name)
    return tokens[0]


def _word_value(parameter: int, token: Token) -> AttrValue | None:
    words = vocabulary(DIALECT).words.get(parameter)
    if words is None or token.quoted:
        return None
    return words.to_value.get(token.text)


def attribute_value(command: ClCommand, keyword: str, attr: Attr) -> AttrValue | None:
    """The PCF value of an attribute keyword; None for *SAME / *SYSDFTQ (leave it to the engine)."""
    token = _single(command, keyword)
    if not token.quoted and ((token.text == "*SAME" and command.name != "CRTMQMQ") or (token.text == "*SYSDFTQ" and command.name == "CRTMQMQ")):
        return None
    value = _word_value(attr.parameter, token)
    if value is not None:
        return value
    if attr.is_string:
        if not token.quoted and token.text.startswith("*"):
            raise ClError("syntax", f"{token.text} is not a value of {keyword}", _through(command, token), command=command.name)
        return token.text
    number = None if token.quoted else parse_number(token.text)
    if number is None:
        raise ClError("syntax", f"{token.raw} is not a value of {keyword}", _through(command, token), command=command.name)
    return number


def _through(command: ClCommand, token: Token) -> str:
    return segment(command.text, token.end)


def _qtype(command: ClCommand) -> int | None:
    token = command.first("QTYPE")
    if token is None:
        return None
    value = _word_value(mq.MQIA_Q_TYPE, token)
    if not isinstance(value, int) or (value == mq.MQQT_ALL and command.name != "WRKMQMQ"):
        raise ClError("syntax", f"{token.raw} is not a queue type", _through(command, token), command=command.name)
    return value


def _name(command: ClCommand, keyword: str) -> str:
    token = _single(command, keyword)
    if command.name == "WRKMQMQ" and not token.quoted and token.text == "*ALL":
        return "*"
    return token.text


# ---------------------------------------------------------------------------------- running


def _line(key: str, **inserts: object) -> str:
    return line(DIALECT, key, **inserts)


def failure_line(command: Message, failed: Message) -> str:
    """The job-log line of a failure: the AMQ message (or AMQ8101) and the reason's number and name."""
    inserts = reason_inserts(failed.reason, error_keyword(command, failed, DIALECT))
    shown = _line(failure_key(DIALECT, failed.reason), name=object_name(command), **inserts)
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
        pcf = _pcf(command, execute, context)
    except _Refused as refused:
        return refused.outcome
    except ClError as error:
        return syntax_outcome(error, error.key, error.inserts)
    except CommandSyntaxError as error:
        return syntax_outcome(error, "syntax", {"command": text.split()[0] if text.split() else ""})
    answer = execute(pcf)
    failed = failure(answer)
    if command.name == "WRKMQMQ":
        return _work_list(answer, failed, pcf)
    if failed is not None:
        return _failed(pcf, failed)
    if command.name == "DSPMQMQ":
        return Outcome(OK, tuple(Block(tuple(display_lines(r)), pcf.command) for r in answer))
    return Outcome(OK, (Block((_line(f"ok:{names.command_name(pcf.command)}"),), pcf.command),))


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


def _type_of(name: str, execute: Execute) -> int:
    """The type of an existing queue (CHGMQMQ/CPYMQMQ without QTYPE): asked, not guessed."""
    inquiry = Message(mq.MQCMD_INQUIRE_Q, (String(mq.MQCA_Q_NAME, name), IntegerList(mq.MQIACF_Q_ATTRS, (mq.MQIA_Q_TYPE,))))
    answer = execute(inquiry)
    failed = failure(answer)
    if failed is not None:
        raise _Refused(_failed(inquiry, failed))
    qtype = answer[0].int_value(mq.MQIA_Q_TYPE)
    assert qtype is not None
    return qtype


def _attributes(command: ClCommand, table: str) -> list[Parameter]:
    vocab = vocabulary(DIALECT)
    source = vocab.qmgr if table == "qmgr" else vocab.queue
    out: list[Parameter] = []
    for keyword in command.values:
        if keyword in _SPECIAL or keyword in _NAME_KEYWORDS or keyword == "QTYPE":
            continue
        attr = source.get(keyword)
        if keyword in ("FORCE", "REPLACE"):
            attr = vocab.queue[keyword]
        if attr is None or (attr.access == "inquire" and keyword not in ("FORCE", "REPLACE")):
            raise ClError("keyword", f"{keyword} is not modelled here", command.text.rstrip(), keyword=keyword, command=command.name)
        value = attribute_value(command, keyword, attr)
        if value is None:
            continue
        out.append(String(attr.parameter, value) if isinstance(value, str) else Integer(attr.parameter, value))
    return out


def _pcf(command: ClCommand, execute: Execute, context: Context) -> Message:
    _check_qmgr(command, context)
    name = command.name
    row = command.row
    assert row.pcf is not None
    if name == "CHGMQM":
        return Message(row.pcf, tuple(_attributes(command, "qmgr")))
    if name in ("DLTMQMQ", "CLRMQMQ"):
        return Message(row.pcf, (String(mq.MQCA_Q_NAME, _name(command, "QNAME")),))
    if name == "DSPMQMQ":
        output = command.first("OUTPUT")
        if output is not None and output.text not in ("*", "*PRINT"):
            raise ClError("syntax", f"{output.raw} is not a value of OUTPUT", _through(command, output), command=name)
        return Message(row.pcf, (String(mq.MQCA_Q_NAME, _name(command, "QNAME")), IntegerList(mq.MQIACF_Q_ATTRS, (mq.MQIACF_ALL,))))
    if name == "WRKMQMQ":
        return _work_command(command)
    qtype = _qtype(command)
    attributes = _attributes(command, "queue")  # checked before anything is asked
    if name == "CPYMQMQ":
        source = _name(command, "FROMQ")
        head: list[Parameter] = [String(mq.MQCACF_FROM_Q_NAME, source), String(mq.MQCACF_TO_Q_NAME, _name(command, "TOQ"))]
        head.append(Integer(mq.MQIA_Q_TYPE, qtype if qtype is not None else _type_of(source, execute)))
    else:
        queue = _name(command, "QNAME")
        head = [String(mq.MQCA_Q_NAME, queue)]
        head.append(Integer(mq.MQIA_Q_TYPE, qtype if qtype is not None else _type_of(queue, execute)))
    return Message(row.pcf, (*head, *attributes))


def _work_command(command: ClCommand) -> Message:
    vocab = vocabulary(DIALECT)
    params: list[Parameter] = [String(mq.MQCA_Q_NAME, _name(command, "QNAME") if "QNAME" in command.values else "*")]
    qtype = _qtype(command)
    if qtype is not None:
        params.append(Integer(mq.MQIA_Q_TYPE, qtype))
    params.append(IntegerList(mq.MQIACF_Q_ATTRS, (mq.MQCA_Q_NAME, mq.MQIA_Q_TYPE)))
    for keyword, parameter in (("CLUSTER", mq.MQCA_CLUSTER_NAME), ("CLUSNL", mq.MQCA_CLUSTER_NAMELIST)):
        if keyword in command.values:
            token = _single(command, keyword)
            if not (token.text == "*SAME" and not token.quoted):
                params.append(String(parameter, token.text))
    version = 1
    if "WHERE" in command.values:
        params.append(_where(command, vocab.queue))
        version = 3
    return Message(mq.MQCMD_INQUIRE_Q, tuple(params), version=version)


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


def _work_list(answer: Sequence[Message], failed: Message | None, pcf: Message) -> Outcome:
    header = _line("list:MQCMD_INQUIRE_Q")
    column = header.index("Type") if "Type" in header else 51
    if failed is not None and failed.reason != mq.MQRC_UNKNOWN_OBJECT_NAME:
        return _failed(pcf, failed)
    lines = [header]
    for response in answer:
        if response.comp_code != mq.MQCC_OK:
            continue
        queue = (response.str_value(mq.MQCA_Q_NAME) or "").rstrip()
        qtype = response.int_value(mq.MQIA_Q_TYPE)
        shown = word_for(mq.MQIA_Q_TYPE, qtype, DIALECT) if qtype is not None else None
        lines.append(queue.ljust(column) + (shown or ""))
    return Outcome(OK, (Block(tuple(lines), mq.MQCMD_INQUIRE_Q),))


def _shown(attr: Attr, value: AttrValue) -> str:
    if isinstance(value, str):
        text = value.rstrip()
        if text:
            return text
        return word_for(attr.parameter, "", DIALECT) or ""
    word = word_for(attr.parameter, value, DIALECT)
    return word if word else str(value)


def display_lines(response: Message) -> list[str]:
    """DSPMQMQ's lines: AMQ8409, then ``KEYWORD value`` in CHGMQMQ's parameter order."""
    vocab = vocabulary(DIALECT)
    lines = [_line("display:MQCMD_INQUIRE_Q")]
    order = [p.keyword for p in ibmi_parameters()["CHGMQMQ"] if p.keyword not in ("MQMNAME", "FORCE")]
    order += [k for k in vocab.queue if k not in order]
    for keyword in order:
        attr = vocab.queue.get(keyword)
        if attr is None:
            continue
        item = response.get(attr.parameter)
        if isinstance(item, (Integer, String)):
            lines.append(f"  {keyword:<11}{_shown(attr, item.value)}")
    return lines


# ---------------------------------------------------------------------------------- PCF to CL


def _cl_value(parameter: int, value: AttrValue) -> str:
    word = word_for(parameter, value, DIALECT)
    if word:
        return word
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    return str(value)


def render_parts(message: Message) -> tuple[list[str], list[str]]:
    """CRTMQMQ / CHGMQM words for a Create Queue / Change Queue Manager, and comments for what CL cannot say."""
    vocab = vocabulary(DIALECT)
    if message.command == mq.MQCMD_CREATE_Q:
        table, parts = vocab.queue, ["CRTMQMQ"]
    elif message.command == mq.MQCMD_CHANGE_Q_MGR:
        table, parts = vocab.qmgr, ["CHGMQM", "MQMNAME(*DFT)"]
    else:
        raise ValueError(f"no CL form for {names.command_name(message.command)}")
    by_parameter = {a.parameter: k for k, a in table.items()}
    if message.command == mq.MQCMD_CREATE_Q:
        by_parameter.update({mq.MQCA_Q_NAME: "QNAME", mq.MQIA_Q_TYPE: "QTYPE", mq.MQIACF_REPLACE: "REPLACE"})
    comments: list[str] = []
    for item in message.parameters:
        if not isinstance(item, (Integer, String)):
            continue
        keyword = by_parameter.get(item.parameter)
        if keyword is None:
            shown = f"{names.parameter_name(item.parameter)}={item.value!r}"
            comments.append(f"/* {shown} has no CL keyword: not set */")
            continue
        parts.append(f"{keyword}({_cl_value(item.parameter, item.value)})")
    return parts, comments


def render_script_lines(message: Message) -> list[str]:
    """The command for a script: comments first, then the command with ``+`` continuations."""
    parts, comments = render_parts(message)
    if len(parts) == 1:
        return [*comments, *parts]
    return [*comments, f"{parts[0]} +", *(f"  {p} +" for p in parts[1:-1]), f"  {parts[-1]}"]


__all__ = ["ClCommand", "ClError", "display_lines", "failure_line", "parse", "render_parts", "render_script_lines", "run"]
