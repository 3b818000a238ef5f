"""TPF ``ZMQSC``: TPF MQSeries local queue manager commands on the PCF engine (seed 002, round2 §3).

``ZMQSC verb object-name KEYWORD-value ...``; the verbs and objects, keywords and value words
are the ``tpf`` rows and columns of the ``formats/`` tables.  TPF semantics, not
Multiplatforms ones (round2-semantics §3.3):

* ``MAXDEPTH-0`` means no maximum: it is stored as the largest MaxQDepth (999,999,999), which
  the display shows as 0 again;
* ``QDEPTHHI-n`` is the percentage at which a warning goes to the console: it sets the queue's
  depth-high limit and enables depth-high events (0 disables them), the display shows 0 while
  they are disabled (chosen: the engine's depth-high event is what such a warning hangs on);
* there is no DEPTH trigger type; ``COMMON`` cannot be altered, and a processor-shared queue
  (``COMMON-YES``) takes neither MAXDEPTH nor QDEPTHHI;
* ``SWEEP`` and ``COMMON`` have no PCF parameter: they are kept in the queue's CUSTOM attribute
  as ``SWEEP(ON) COMMON(YES)`` (dialect-only-attributes.tsv says why), so ``ALT`` first asks
  the engine for the queue (its type and CUSTOM) instead of guessing;
* quoted names keep their case, unquoted ones are upper-cased; ``ALL`` is reserved, and
  ``ZMQSC DISP QL-ALL`` lists every local queue (the display command is chosen: TPF's was not
  found).

Replies are ``MQSCnnnnI hh.mm.ss text`` (seed: ``MQSC0146I 08.41.05 LOCAL QUEUE local.queue
ALTERED``); the other texts are chosen and marked so in dialect-messages.tsv.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pcfserver import mq
from pcfserver.codec.model import Integer, IntegerList, Message, Parameter, String
from pcfserver.dialects.keywords import word_for
from pcfserver.dialects.lexer import CommandSyntaxError, TpfToken, parse_number, segment, tpf_tokens
from pcfserver.dialects.outcome import (
    FAILED,
    OK,
    SYNTAX,
    Block,
    Context,
    Execute,
    Outcome,
    failure,
    reason_inserts,
)
from pcfserver.dialects.tables import Attr, AttrValue, CommandRow, failure_key, required_message, vocabulary

DIALECT = "tpf"
NO_LIMIT = 999_999_999  # MAXDEPTH-0: the largest MaxQDepth the registry holds
RESERVED = "ALL"
_NAME = re.compile(r"[A-Za-z0-9%/_.]{1,48}\Z")
_CUSTOM_PAIR = re.compile(r"([A-Z0-9_]+)\(([^)]*)\)")
# The order of seed 002's parameters (ALT QL), used for the display.
DISPLAY_ORDER = (
    "TARGQ", "MAXMSGL", "PUT", "GET", "DEFPSIST", "USAGE", "COMMON", "QDEPTHHI", "MAXDEPTH",
    "SWEEP", "TRIGTYPE", "TRIGDATA", "TRIGGER", "PROCESS",
)
_KINDS = {mq.MQQT_LOCAL: "LOCAL", mq.MQQT_ALIAS: "ALIAS", mq.MQQT_MODEL: "MODEL", mq.MQQT_REMOTE: "REMOTE"}
_SHARED_EXCLUDES = ("MAXDEPTH", "QDEPTHHI")


@dataclass(frozen=True, slots=True)
class TpfCommand:
    """A read ZMQSC command: its row, the object name, PCF attributes and the TPF-only settings."""

    row: CommandRow
    name: str
    params: tuple[Parameter, ...]
    given: tuple[str, ...]  # keywords given, in order
    only: dict[str, str]  # SWEEP / COMMON given


class TpfRefusal(Exception):
    """A command TPF refuses before anything is sent (a dialect-messages.tsv key and its inserts)."""

    def __init__(self, key: str, **inserts: object) -> None:
        super().__init__(key)
        self.key = key
        self.inserts = inserts


def _error(text: str, token: TpfToken | None, why: str, end: int | None = None) -> CommandSyntaxError:
    stop = end if end is not None else (token.end if token else len(text))
    return CommandSyntaxError(why, segment(text, stop), keyword=token.keyword if token else None)


def _allowed(row: CommandRow) -> dict[str, Attr]:
    vocab = vocabulary(DIALECT)
    if "@attributes" not in row.options:
        return {}
    return {
        keyword: attr
        for keyword, attr in vocab.queue.items()
        if attr.access == "set" and row.qtype in attr.applies and keyword not in ("QL",)
        and not (row.command.startswith("ALT") and keyword == "USAGE")
    }


def parse(text: str) -> TpfCommand:
    """One ``ZMQSC`` command; CommandSyntaxError when it cannot be read (nothing is sent)."""
    vocab = vocabulary(DIALECT)
    tokens = tpf_tokens(text)
    if not tokens or tokens[0].keyword != "ZMQSC" or tokens[0].value is not None:
        raise _error(text, tokens[0] if tokens else None, "a TPF MQSeries command starts with ZMQSC")
    if len(tokens) < 3 or tokens[1].value is not None:
        raise _error(text, tokens[1] if len(tokens) > 1 else None, "ZMQSC needs a verb and an object")
    verb, target = tokens[1], tokens[2]
    row = vocab.commands.get(f"{verb.keyword} {target.keyword}")
    if row is None:
        raise _error(text, target, f"{verb.keyword} {target.keyword} is not a ZMQSC command")
    if target.value is None:
        raise _error(text, target, f"{target.keyword} needs a name: {target.keyword}-name")
    name = target.value
    if not _NAME.match(name):
        raise _error(text, target, "a name is 1 to 48 characters: A-Z a-z 0-9 % / _ .")
    allowed = _allowed(row)
    params: list[Parameter] = []
    given: list[str] = []
    only: dict[str, str] = {}
    for token in tokens[3:]:
        keyword = token.keyword
        if keyword in given or (keyword in ("TRIGGER", "NOTRIGGER") and {"TRIGGER", "NOTRIGGER"} & set(given)):
            raise _error(text, token, f"{keyword} is given twice")
        given.append(keyword)
        if token.value is None:
            params.append(_flag(row, allowed, token, text))
            continue
        if keyword in vocab.only and keyword in row.options:
            spec = vocab.only[keyword]
            if token.value not in spec.values:
                raise _error(text, token, f"{keyword} takes {' or '.join(spec.values)}")
            only[keyword] = token.value
            continue
        attr = allowed.get(keyword)
        if attr is None:
            if keyword == "COMMON" and row.command.startswith("ALT"):
                raise TpfRefusal("common", name=name)
            raise _error(text, token, f"{keyword} is not a parameter of ZMQSC {row.command}")
        params.extend(_attribute(attr, token, text))
    return TpfCommand(row, name, tuple(params), tuple(given), only)


def _flag(row: CommandRow, allowed: dict[str, Attr], token: TpfToken, text: str) -> Parameter:
    flag = vocabulary(DIALECT).flags.get(token.keyword)
    parameters = {a.parameter for a in allowed.values()} | {getattr(mq, o) for o in row.options if o.startswith("MQ")}
    if flag is None or flag[0] not in parameters:
        raise _error(text, token, f"{token.keyword} needs a value: {token.keyword}-value")
    assert isinstance(flag[1], int)
    return Integer(flag[0], flag[1])


def _attribute(attr: Attr, token: TpfToken, text: str) -> list[Parameter]:
    assert token.value is not None
    if attr.is_string:
        return [String(attr.parameter, token.value)]
    words = vocabulary(DIALECT).words.get(attr.parameter)
    if words and words.to_value:
        value = words.to_value.get(token.value) if not token.quoted else None
        if value is None or token.value in words.flags:
            raise _error(text, token, f"{token.keyword} takes {' or '.join(sorted(w for w in words.to_value if w not in words.flags))}")
        assert isinstance(value, int)
        return [Integer(attr.parameter, value)]
    number = None if token.quoted or token.value.startswith(("+", "-")) else parse_number(token.value)
    if number is None:
        raise _error(text, token, f"{token.keyword} takes a number")
    if attr.parameter == mq.MQIA_MAX_Q_DEPTH and number == 0:
        return [Integer(attr.parameter, NO_LIMIT)]
    if attr.parameter == mq.MQIA_Q_DEPTH_HIGH_LIMIT:
        event = mq.MQEVR_ENABLED if number else mq.MQEVR_DISABLED
        return [Integer(attr.parameter, number), Integer(mq.MQIA_Q_DEPTH_HIGH_EVENT, event)]
    return [Integer(attr.parameter, number)]


# ---------------------------------------------------------------------------------- CUSTOM pairs


def custom_pairs(custom: str) -> dict[str, str]:
    """``NAME(VALUE)`` pairs of a CUSTOM attribute, in order."""
    return {m.group(1): m.group(2) for m in _CUSTOM_PAIR.finditer(custom.upper())}


def merged_custom(custom: str, settings: dict[str, str]) -> str:
    """CUSTOM with ``settings`` replacing or adding their pairs; other text is kept."""
    text = custom.rstrip()
    for keyword, value in settings.items():
        pair = f"{keyword}({value})"
        pattern = re.compile(rf"(?<![A-Z0-9_]){keyword}\([^)]*\)", re.IGNORECASE)
        text = pattern.sub(pair, text, count=1) if pattern.search(text) else f"{text} {pair}".strip()
    return text


# ---------------------------------------------------------------------------------- running


def _line(context: Context, key: str, **inserts: object) -> str:
    text = required_message(DIALECT, key)
    return f"{text.id} {context.clock()} {text.format(**inserts)}"


def _failure_line(context: Context, command: str, name: str, failed: Message) -> str:
    inserts = reason_inserts(failed.reason)
    return _line(context, failure_key(DIALECT, failed.reason), command=f"ZMQSC {command}", name=name, **inserts)


def _inquire(name: str, qtype: int | None, attrs: tuple[int, ...]) -> Message:
    params: list[Parameter] = [String(mq.MQCA_Q_NAME, name)]
    if qtype is not None:
        params.append(Integer(mq.MQIA_Q_TYPE, qtype))
    params.append(IntegerList(mq.MQIACF_Q_ATTRS, attrs))
    return Message(mq.MQCMD_INQUIRE_Q, tuple(params))


def _custom_of(response: Message) -> str:
    return (response.str_value(mq.MQCA_CUSTOM) or "").rstrip()


def run(text: str, execute: Execute, context: Context | None = None) -> Outcome:
    """Reads, executes and answers one ZMQSC command in TPF's reply form."""
    context = context or Context()
    try:
        command = parse(text)
    except TpfRefusal as refusal:
        return Outcome(FAILED, (Block((_line(context, refusal.key, **refusal.inserts),), 0, mq.MQCC_FAILED),))
    except CommandSyntaxError as error:
        return Outcome(SYNTAX, (Block((_line(context, "syntax", segment=error.segment),), 0, mq.MQCC_FAILED),))
    row, name = command.row, command.name
    if name.upper() == RESERVED:
        if row.command.startswith("DISP"):
            return _display(command, execute, context)
        return Outcome(FAILED, (Block((_line(context, "reserved"),), 0, mq.MQCC_FAILED),))
    if row.command.startswith("DISP"):
        return _display(command, execute, context)
    try:
        pcf = _command(command, execute)
    except TpfRefusal as refusal:
        return Outcome(FAILED, (Block((_line(context, refusal.key, **refusal.inserts),), 0, mq.MQCC_FAILED),))
    except _Failed as failed:
        return _failed(context, row.command, name, failed.message)
    answer = execute(pcf)
    failed_message = failure(answer)
    assert row.pcf is not None
    if failed_message is not None:
        return _failed(context, row.command, name, failed_message)
    return Outcome(OK, (Block((_line(context, f"ok:{row.command}", name=name),), row.pcf),))


class _Failed(Exception):
    def __init__(self, message: Message) -> None:
        super().__init__(message.reason)
        self.message = message


def _failed(context: Context, command: str, name: str, failed: Message) -> Outcome:
    line = _failure_line(context, command, name, failed)
    return Outcome(FAILED, (Block((line,), failed.command, failed.comp_code, failed.reason),))


def _command(command: TpfCommand, execute: Execute) -> Message:
    """The PCF command; ALT asks the engine for the queue first (its type and CUSTOM)."""
    row, name = command.row, command.name
    assert row.pcf is not None and row.qtype is not None
    params: list[Parameter] = [String(mq.MQCA_Q_NAME, name), Integer(mq.MQIA_Q_TYPE, row.qtype)]
    params.extend(command.params)
    common = command.only.get("COMMON", "NO")
    custom = ""
    if row.command.startswith("ALT"):
        answer = execute(_inquire(name, None, (mq.MQIA_Q_TYPE, mq.MQCA_CUSTOM)))
        failed = failure(answer)
        if failed is not None:
            raise _Failed(failed)
        current = answer[0]
        if current.int_value(mq.MQIA_Q_TYPE) != row.qtype:
            raise _Failed(Message(row.pcf, comp_code=mq.MQCC_FAILED, reason=mq.MQRCCF_OBJECT_WRONG_TYPE))
        custom = _custom_of(current)
        common = custom_pairs(custom).get("COMMON", common)
    if common == "YES":
        for keyword in _SHARED_EXCLUDES:
            if keyword in command.given:
                raise TpfRefusal("shared", keyword=keyword, name=name)
    if command.only:
        params.append(String(mq.MQCA_CUSTOM, merged_custom(custom, command.only)))
    return Message(row.pcf, tuple(params))


def _display(command: TpfCommand, execute: Execute, context: Context) -> Outcome:
    row, name = command.row, command.name
    pattern = "*" if name.upper() == RESERVED else name
    answer = execute(_inquire(pattern, row.qtype, (mq.MQIACF_ALL,)))
    failed = failure(answer)
    if failed is not None:
        if failed.reason == mq.MQRC_UNKNOWN_OBJECT_NAME and pattern == "*":
            return Outcome(OK, (Block((_line(context, "display:none", name=name),), mq.MQCMD_INQUIRE_Q),))
        return _failed(context, row.command, name, failed)
    blocks = [Block(tuple(display_lines(response, context)), mq.MQCMD_INQUIRE_Q) for response in answer]
    return Outcome(OK, tuple(blocks))


def display_lines(response: Message, context: Context) -> list[str]:
    """One queue as the TPF display shows it: a header, then ``KEYWORD-value`` lines."""
    vocab = vocabulary(DIALECT)
    qtype = response.int_value(mq.MQIA_Q_TYPE) or 0
    name = (response.str_value(mq.MQCA_Q_NAME) or "").rstrip()
    lines = [_line(context, "display", kind=_KINDS.get(qtype, str(qtype)), name=name)]
    values: dict[str, str] = {}
    for keyword, attr in vocab.queue.items():
        item = response.get(attr.parameter)
        if isinstance(item, (Integer, String)) and keyword != "QL":
            values[keyword] = _shown(attr, item.value, response)
    if qtype == mq.MQQT_LOCAL:
        pairs = custom_pairs(_custom_of(response))
        for keyword, only in vocab.only.items():
            values[keyword] = pairs.get(keyword, only.default)
    for keyword in DISPLAY_ORDER:
        if keyword in values:
            shown = values[keyword]
            lines.append(f"  {shown}" if keyword == "TRIGGER" else f"  {keyword}-{shown}")
    return lines


def _shown(attr: Attr, value: AttrValue, response: Message) -> str:
    if isinstance(value, str):
        text = value.rstrip()
        return text if _NAME.match(text) and text == text.upper() else "'" + text.replace("'", "''") + "'"
    if attr.parameter == mq.MQIA_MAX_Q_DEPTH and value == NO_LIMIT:
        return "0"
    if attr.parameter == mq.MQIA_Q_DEPTH_HIGH_LIMIT and response.int_value(mq.MQIA_Q_DEPTH_HIGH_EVENT) == mq.MQEVR_DISABLED:
        return "0"
    word = word_for(attr.parameter, value, DIALECT)
    return word if word else str(value)
