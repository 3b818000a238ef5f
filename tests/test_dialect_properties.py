"""Properties: random text never crashes a front end; every PCF command the engine accepts renders to MQSC that reads back the same."""

from __future__ import annotations

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from pcfserver import mq
from pcfserver.codec import Integer, IntegerFilter, IntegerList, Message, Parameter, String, StringFilter
from pcfserver.dialects import ExecuteError, ibmi, mqsc, parse_command, render_command, run_script, tpf
from pcfserver.dialects.lexer import CommandSyntaxError, items, tpf_tokens
from pcfserver.dialects.mqsc import options_of
from pcfserver.dialects.script import read_script
from pcfserver.dialects.tables import vocabulary
from pcfserver.dialects.tpf import TpfRefusal
from pcfserver.engine import open_engine
from pcfserver.engine.spec import Attribute, spec

WORDS = [
    "DEFINE", "DEF", "ALTER", "DIS", "DISPLAY", "DELETE", "CLEAR", "MOVE", "PING", "END", "QLOCAL", "QL", "QA", "QR", "QM", "Q", "QMGR",
    "QSTATUS", "MAXDEPTH", "PUT", "DESCR", "REPLACE", "LIKE", "WHERE", "TYPE", "ALL", "TRIGGER", "NOTRIGGER", "TOQLOCAL", "ZMQSC",
    "QL-", "ALT", "DISP", "SWEEP-ON", "COMMON-", "CHGMQMQ", "CRTMQMQ", "WRKMQMQ", "CHGMQM", "QNAME", "*SAME", "*NONE", "*ALL",
    "GT", "LK", "*GT", "(", ")", "'", "''", "+", "-", ",", ";", "*", " ", "  ", "\n", "5000", "-1", "99999999999", "Ünï", "²",
    "SET", "STOP", "POLICY", "SIGNER", "RECIP", "ENCALG(AES256)", "SIGNALG", "KEYREUSE", "UNLIMITED", "TOLERATE", "ACTION(ADD)",
    "CONN", "CONN(0000000000000001)", "APPLTYPE", "USER",
    "GRTMQMAUT", "RVKMQMAUT", "DSPMQMAUT", "OBJ(", "OBJTYPE(", "AUT(", "USER(", "*Q", "*MQM", "*PUBLIC", "*REMOVE", "*GET", "*ALLMQI",
]
TEXT = st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=6)), max_size=14).map("".join)


def _only_syntax_errors(call: object, text: str) -> None:
    assert callable(call)
    try:
        call(text)
    except (CommandSyntaxError, TpfRefusal):
        pass


@settings(max_examples=400, deadline=None)
@given(TEXT)
def test_random_text_never_crashes_a_reader(text: str) -> None:
    for call in (items, tpf_tokens, mqsc.parse, tpf.parse, ibmi.parse):
        _only_syntax_errors(call, text)
    events = read_script(text.split("\n"))
    assert sum(len(getattr(e, "lines", (1,))) for e in events) == len(text.split("\n"))


def _refusing(command: Message) -> list[Message]:
    raise ExecuteError("nothing behind this")


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(TEXT, st.sampled_from(["auto", "mqsc", "tpf", "ibmi"]))
def test_random_scripts_run_to_an_exit_code(text: str, dialect: str) -> None:
    engine = open_engine(None)
    transcript = run_script(text, engine.execute, dialect=dialect, clock=lambda: "00.00.00")
    assert transcript.exit_code in (0, 10)
    assert transcript.read == len(transcript.outcomes)
    assert run_script(text, _refusing, dialect=dialect, qmgr_name="QM1").exit_code in (0, 10, 20)


# ---------------------------------------------------------------------------------- PCF -> MQSC -> PCF

NAMES = st.from_regex(r"[A-Za-z0-9._/%]{1,20}", fullmatch=True)
TEXTS = st.text(alphabet=st.characters(min_codepoint=32, max_codepoint=126), max_size=30)
QUEUE_TYPES = (mq.MQQT_LOCAL, mq.MQQT_MODEL, mq.MQQT_ALIAS, mq.MQQT_REMOTE)
NOUNS = {mq.MQQT_LOCAL: "QLOCAL", mq.MQQT_MODEL: "QMODEL", mq.MQQT_ALIAS: "QALIAS", mq.MQQT_REMOTE: "QREMOTE"}


def _value(draw: st.DrawFn, attr: Attribute) -> Parameter:
    if attr.is_string:
        return String(attr.pid, draw(TEXTS.map(lambda t: t[: attr.max_length])))
    choices: list[st.SearchStrategy[int]] = []
    if attr.values:
        choices.append(st.sampled_from(sorted(attr.values)))
    if attr.has_range:
        choices.append(st.integers(attr.low, attr.high))
    if not choices:
        choices.append(st.integers(-(2**31), 2**31 - 1))
    return Integer(attr.pid, draw(st.one_of(choices)))


def _attributes(draw: st.DrawFn, command: str) -> list[Parameter]:
    settable = options_of(command).attributes
    chosen = draw(st.lists(st.sampled_from(sorted(settable)), unique=True, max_size=6)) if settable else []
    table = spec().qmgr_attributes if command == "ALTER QMGR" else spec().queue_attributes
    return [_value(draw, table[settable[k].parameter]) for k in chosen]


def _flag(draw: st.DrawFn, parameter: int, values: tuple[int, ...]) -> list[Parameter]:
    return [Integer(parameter, v) for v in draw(st.lists(st.sampled_from(values), max_size=1))]


@st.composite
def commands(draw: st.DrawFn) -> Message:
    kind = draw(st.sampled_from(["define", "copy", "alter", "delete", "clear", "display", "qmgr", "display-qmgr", "ping"]))
    qtype = draw(st.sampled_from(QUEUE_TYPES))
    noun = NOUNS[qtype]
    name = draw(NAMES)
    head: list[Parameter]
    if kind == "define":
        head = [String(mq.MQCA_Q_NAME, name), Integer(mq.MQIA_Q_TYPE, qtype)]
        rest = _attributes(draw, f"DEFINE {noun}") + _flag(draw, mq.MQIACF_REPLACE, (0, 1))
        return Message(mq.MQCMD_CREATE_Q, (*head, *draw(st.permutations(rest))))
    if kind == "copy":
        head = [String(mq.MQCACF_FROM_Q_NAME, f"EXISTING.{qtype}"), String(mq.MQCACF_TO_Q_NAME, name), Integer(mq.MQIA_Q_TYPE, qtype)]
        return Message(mq.MQCMD_COPY_Q, (*head, *_attributes(draw, f"DEFINE {noun}")))
    if kind == "alter":
        force = _flag(draw, mq.MQIACF_FORCE, (1,)) if qtype != mq.MQQT_MODEL else []
        head = [String(mq.MQCA_Q_NAME, f"EXISTING.{qtype}"), Integer(mq.MQIA_Q_TYPE, qtype)]
        return Message(mq.MQCMD_CHANGE_Q, (*head, *draw(st.permutations(_attributes(draw, f"ALTER {noun}") + force))))
    if kind == "delete":
        extra = _flag(draw, mq.MQIACF_PURGE, (0, 1)) if qtype == mq.MQQT_LOCAL else []
        extra += _flag(draw, mq.MQIACF_REMOVE_AUTHREC, (0, 1))
        return Message(mq.MQCMD_DELETE_Q, (String(mq.MQCA_Q_NAME, f"EXISTING.{qtype}"), Integer(mq.MQIA_Q_TYPE, qtype), *extra))
    if kind == "clear":
        return Message(mq.MQCMD_CLEAR_Q, (String(mq.MQCA_Q_NAME, f"EXISTING.{mq.MQQT_LOCAL}"),))
    if kind == "display":
        return draw(displays(qtype))
    if kind == "qmgr":
        return Message(mq.MQCMD_CHANGE_Q_MGR, tuple(_attributes(draw, "ALTER QMGR") + _flag(draw, mq.MQIACF_FORCE, (1,))))
    if kind == "display-qmgr":
        keywords = sorted(options_of("DISPLAY QMGR").selectors or {})
        chosen = draw(st.lists(st.sampled_from(keywords), unique=True, max_size=4))
        if not chosen:
            return Message(mq.MQCMD_INQUIRE_Q_MGR)
        selectors = tuple(vocabulary("mqsc").qmgr[k].parameter for k in chosen)
        return Message(mq.MQCMD_INQUIRE_Q_MGR, (IntegerList(mq.MQIACF_Q_MGR_ATTRS, selectors),))
    return Message(mq.MQCMD_PING_Q_MGR)


@st.composite
def displays(draw: st.DrawFn, qtype: int) -> Message:
    typed = draw(st.booleans())
    command = f"DISPLAY {NOUNS[qtype]}" if typed else "DISPLAY QUEUE"
    selectors_by_keyword = options_of(command).selectors or {}
    params: list[Parameter] = [String(mq.MQCA_Q_NAME, draw(st.sampled_from(["*", "EXISTING*", f"EXISTING.{qtype}", "NONE*"])))]
    if typed:
        params.append(Integer(mq.MQIA_Q_TYPE, qtype))
    chosen = draw(st.lists(st.sampled_from(sorted(selectors_by_keyword)), unique=True, max_size=4))
    selectors = tuple(selectors_by_keyword[k].parameter for k in chosen) or draw(st.sampled_from([(mq.MQCA_Q_NAME, mq.MQIA_Q_TYPE), (mq.MQIACF_ALL,)]))
    params.append(IntegerList(mq.MQIACF_Q_ATTRS, selectors))
    params += _flag(draw, mq.MQIACF_CLUSTER_INFO, (1,))
    version = 1
    if draw(st.booleans()):
        version = 3
        filterable = [a for a in selectors_by_keyword.values() if a.struct in ("MQCFIN", "MQCFST")]
        attr = draw(st.sampled_from(filterable))
        words = vocabulary("mqsc").words.get(attr.parameter)
        enumerated = bool(words and words.to_value) and not attr.has_range
        if attr.is_string:
            operator = draw(st.sampled_from(list(mqsc.OPERATORS.values())))
            params.append(StringFilter(attr.parameter, operator, draw(TEXTS)))
        else:
            operators = [mq.MQCFOP_EQUAL, mq.MQCFOP_NOT_EQUAL] if enumerated else [o for o in mqsc.OPERATORS.values() if o not in (mq.MQCFOP_LIKE, mq.MQCFOP_NOT_LIKE)]
            engine_attr = spec().queue_attributes[attr.parameter]
            value = _value(draw, engine_attr)
            assert isinstance(value, Integer)
            params.append(IntegerFilter(attr.parameter, draw(st.sampled_from(operators)), value.value))
    return Message(mq.MQCMD_INQUIRE_Q, tuple(params), version=version)


def _engine_with_queues() -> object:
    engine = open_engine(None)
    for qtype in QUEUE_TYPES:
        [answer] = engine.execute(Message(mq.MQCMD_CREATE_Q, (String(mq.MQCA_Q_NAME, f"EXISTING.{qtype}"), Integer(mq.MQIA_Q_TYPE, qtype))))
        assert answer.comp_code == mq.MQCC_OK
    return engine


@settings(max_examples=500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(commands())
def test_every_accepted_pcf_command_renders_to_mqsc_that_reads_back_the_same(command: Message) -> None:
    engine = _engine_with_queues()
    answer = engine.execute(command)  # type: ignore[attr-defined]
    failed = [m for m in answer if m.comp_code != mq.MQCC_OK]
    assume(not failed or failed[0].reason == mq.MQRC_UNKNOWN_OBJECT_NAME)
    text = render_command(command)
    assert parse_command(text) == [as_runmqsc_asks(command)], text


def as_runmqsc_asks(command: Message) -> Message:
    """``command`` as its MQSC text reads back: a DISPLAY with WHERE also shows the attribute the filter tests (runmqsc
    does), so a list of attributes that lacks it gains it at its end."""
    filtered = next((p.parameter for p in command.parameters if isinstance(p, (IntegerFilter, StringFilter))), None)
    params = list(command.parameters)
    name = command.str_value(mq.MQCA_Q_NAME) if command.command == mq.MQCMD_INQUIRE_Q else None
    if name is not None and "*" not in name:
        # a specific queue asking only QUEUE and TYPE: MQSC says nothing, which asks every attribute (no list; a WHERE
        # adds nothing to every attribute)
        params = [p for p in params if not (isinstance(p, IntegerList) and p.parameter == mq.MQIACF_Q_ATTRS and p.values == (mq.MQCA_Q_NAME, mq.MQIA_Q_TYPE))]
    for i, p in enumerate(params):
        if isinstance(p, IntegerList) and p.parameter == mq.MQIACF_Q_ATTRS and filtered is not None:
            if p.values and mq.MQIACF_ALL not in p.values and filtered not in p.values:
                params[i] = IntegerList(p.parameter, (*p.values, filtered))
    return Message(command.command, tuple(params), version=command.version)
