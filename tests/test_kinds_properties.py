"""Properties of the kinds with rules of their own (channels, listeners, services, authentication information):
a random valid definition, defined, altered, displayed and deleted through PCF, MQSC, IBM i CL and runCommandJSON,
leaves the same object in each queue manager (IBM documents one object model behind all four languages)."""

from __future__ import annotations

import re
from collections.abc import Callable

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pcfserver import kinds, mq
from pcfserver.codec import Integer, IntegerList, Message, Parameter, String, StringList
from pcfserver.dialects import ibmi, mqsc, render_command
from pcfserver.dialects.keywords import word_for
from pcfserver.dialects.outcome import Context, Outcome, failure
from pcfserver.dialects.tables import attributes_of, ibmi_parameters
from pcfserver.engine import open_engine
from pcfserver.engine.spec import Attribute, spec
from pcfserver.kinds import Kind
from pcfserver.rest.admin import mqsc_text

STAMPS = (mq.MQCA_ALTERATION_DATE, mq.MQCA_ALTERATION_TIME)
WORD = st.from_regex(r"[A-Za-z0-9._/]{1,12}", fullmatch=True)
TEXT = st.from_regex(r"[A-Za-z0-9._/()]{1,10}( [A-Za-z0-9]{1,6})?", fullmatch=True)
# Values the kind's own rules fix (pcfserver/engine/kinds): given here so that every definition is one IBM accepts.
NEEDED: dict[str, dict[int, dict[int, str]]] = {
    "channel": {
        mq.MQCHT_SENDER: {mq.MQCACH_XMIT_Q_NAME: "XMITQ.A", mq.MQCACH_CONNECTION_NAME: "partner(1414)"},
        mq.MQCHT_SERVER: {mq.MQCACH_XMIT_Q_NAME: "XMITQ.B"},
        mq.MQCHT_REQUESTER: {mq.MQCACH_CONNECTION_NAME: "partner(1415)"},
        mq.MQCHT_CLNTCONN: {mq.MQCACH_CONNECTION_NAME: "server(1416)"},
        mq.MQCHT_CLUSSDR: {mq.MQCACH_CONNECTION_NAME: "repos(1417)"},
    },
    "authinfo": {
        mq.MQAIT_CRL_LDAP: {mq.MQCA_AUTH_INFO_CONN_NAME: "ldap(389)"},
        mq.MQAIT_IDPW_LDAP: {mq.MQCA_AUTH_INFO_CONN_NAME: "ldap1(389),ldap2(389)", mq.MQCA_LDAP_SHORT_USER_FIELD: "uid"},
        mq.MQAIT_OCSP: {mq.MQCA_AUTH_INFO_OCSP_URL: "http://ocsp.example.com/"},
    },
}
# Attributes a random value would break a rule of (MCANAME only blank, CLUSNL beside CLUSTER, CONNAME's syntax).
FIXED = {mq.MQCACH_MCA_NAME, mq.MQCA_CLUSTER_NAMELIST, mq.MQCACH_CONNECTION_NAME, mq.MQCA_AUTH_INFO_CONN_NAME,
         mq.MQCACH_XMIT_Q_NAME, mq.MQCA_AUTH_INFO_OCSP_URL, mq.MQCA_LDAP_SHORT_USER_FIELD}  # fmt: skip
KINDS = ("channel", "listener", "service", "authinfo")


def _keywords(kind: Kind) -> dict[int, tuple[str, str]]:
    """Each attribute's (MQSC, IBM i) keywords."""
    return {a.parameter: (a.keyword("mqsc"), a.keyword("ibmi")) for a in reversed(attributes_of(kind.key))}


def _value(draw: st.DrawFn, attr: Attribute, kind: Kind, subtype: int) -> Parameter | None:
    if attr.struct == "MQCFSL":
        return StringList(attr.pid, tuple(draw(st.lists(WORD, max_size=2))))
    if attr.struct == "MQCFIL":
        assert attr.values is not None
        return IntegerList(attr.pid, (draw(st.sampled_from(sorted(attr.values))),))
    if attr.is_string:
        return String(attr.pid, draw(TEXT)[: attr.max_length])
    values = sorted(attr.values or ())
    if kind.key == "channel" and subtype != mq.MQCHT_MQTT:
        values = [v for v in values if v != mq.MQSCA_NEVER_REQUIRED or attr.pid != mq.MQIACH_SSL_CLIENT_AUTH]
    if kind.key == "channel" and subtype == mq.MQCHT_MQTT and attr.pid == mq.MQIACH_XMIT_PROTOCOL_TYPE:
        values = [mq.MQXPT_TCP]
    choices: list[st.SearchStrategy[int]] = [st.sampled_from(values)] if values else []
    if attr.has_range:
        choices.append(st.integers(attr.low, attr.high))
    if not choices:
        return None  # a free integer: no value is sure to be IBM's
    return Integer(attr.pid, draw(st.one_of(choices)))


@st.composite
def definitions(draw: st.DrawFn) -> tuple[Kind, int, str, list[Parameter], list[Parameter]]:
    """A kind, its sort, a name, the attributes of a Create and those of a later Change (keywords in every language
    the sort has: MQSC always, IBM i CL for the kinds and sorts IBM i has)."""
    kind = kinds.by_key()[draw(st.sampled_from(KINDS))]
    table = spec().objects[kind.key]
    subtype = 0
    if kind.subtype:
        values = table.attributes[kind.subtype].values
        assert values is not None
        subtype = draw(st.sampled_from(sorted(values)))
    cl = bool(kind.ibmi) and (not kind.subtype or bool(word_for(kind.subtype, subtype, "ibmi")) or kind.key == "listener")
    keywords = _keywords(kind)
    if cl:  # the keywords both CL commands take (CHGMQMAUTI lacks some of CRTMQMAUTI's)
        both = {p.keyword for p in ibmi_parameters()[f"CRTMQM{kind.ibmi}"]} & {p.keyword for p in ibmi_parameters()[f"CHGMQM{kind.ibmi}"]}
        keywords = {pid: (m, c if c in both else "") for pid, (m, c) in keywords.items()}
    usable = [
        a for a in table.stored_for(subtype)
        if a.access == "set" and not a.zos and a.pid not in FIXED and a.pid != kind.subtype
        and keywords.get(a.pid, ("", ""))[0] and (not cl or keywords[a.pid][1])
    ]  # fmt: skip

    def some() -> list[Parameter]:
        chosen = draw(st.lists(st.sampled_from(usable), max_size=6, unique_by=lambda a: a.pid)) if usable else []
        return [v for v in (_value(draw, a, kind, subtype) for a in chosen) if v is not None]

    needed = [String(pid, text) for pid, text in NEEDED.get(kind.key, {}).get(subtype, {}).items()]
    name = draw(st.from_regex(r"PROP\.[A-Z0-9]{1,8}", fullmatch=True))
    return kind, subtype, name, [*needed, *some()], some()


def _message(kind: Kind, verb: str, name: str, subtype: int, attrs: list[Parameter]) -> Message:
    head: list[Parameter] = [String(kind.name, name)]
    if kind.subtype and verb in ("CREATE", "CHANGE"):
        head.append(Integer(kind.subtype, subtype))
    return Message(kind.command(verb), (*head, *attrs))


def _ok(outcome: Outcome) -> None:
    assert outcome.status == "ok", outcome.lines


def _json_value(parameter: Parameter) -> object:
    if isinstance(parameter, StringList):
        return list(parameter.values)
    if isinstance(parameter, IntegerList):
        return [word_for(parameter.parameter, v, "mqsc") or v for v in parameter.values]
    if isinstance(parameter, String):
        return parameter.value
    assert isinstance(parameter, Integer)
    return word_for(parameter.parameter, parameter.value, "mqsc") or parameter.value


def _json(kind: Kind, command: Message) -> dict[str, object]:
    """A runCommandJSON body for a Create/Change/Delete/Inquire of a kind, as pymqrest writes them."""
    verb = {"CREATE": "define", "CHANGE": "alter", "DELETE": "delete", "INQUIRE": "display"}[kinds.by_command()[command.command][1]]
    keywords = _keywords(kind)
    name = ""
    params: dict[str, object] = {}
    for p in command.parameters:
        if p.parameter == kind.name:
            assert isinstance(p, String)
            name = p.value
        elif not isinstance(p, IntegerList) or p.parameter != kind.selectors:
            params[keywords[p.parameter][0].lower()] = _json_value(p)
    return {"type": "runCommandJSON", "command": verb, "qualifier": kind.rest[0].lower(), "name": name, "parameters": params}


def _run_languages(kind: Kind, command: Message, engines: dict[str, object], cl: bool) -> None:
    """Runs ``command`` in each language on its own queue manager; each must succeed."""
    execute: dict[str, Callable[[Message], list[Message]]] = {k: e.execute for k, e in engines.items()}  # type: ignore[attr-defined]
    assert failure(execute["pcf"](command)) is None
    _ok(mqsc.run(render_command(command, quote_all=True), execute["mqsc"]))
    text, _display = mqsc_text(_json(kind, command))
    _ok(mqsc.run(text, execute["rest"]))
    if cl and "cl" in execute:
        verb = kinds.by_command()[command.command][1]
        if verb in ("CREATE", "CHANGE"):
            line = " ".join(ibmi.render_parts(command)[0])
        else:
            target = ibmi.target(f"DLTMQM{kind.ibmi}")
            assert target is not None
            line = f"DLTMQM{kind.ibmi} {target.name}('{command.parameters[0].value}')"  # type: ignore[union-attr]
        _ok(ibmi.run(line, execute["cl"], Context("QM1")))


def _stored(kind: Kind, engine: object, name: str) -> dict[int, object] | None:
    answer = engine.execute(Message(kind.command("INQUIRE"), (String(kind.name, name),)))  # type: ignore[attr-defined]
    if failure(answer) is not None:
        assert answer[0].reason == kind.unknown_reason
        return None
    [response] = answer
    return {p.parameter: getattr(p, "value", getattr(p, "values", None)) for p in response.parameters if p.parameter not in STAMPS}


def _unstamped(line: str) -> str:
    return re.sub(r"ALT(DATE|TIME)\([^)]*\)", "", line)


@settings(max_examples=100, deadline=None, suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
@given(definitions())
def test_define_alter_display_delete_agree_in_pcf_mqsc_cl_and_json(case: tuple[Kind, int, str, list[Parameter], list[Parameter]]) -> None:
    kind, subtype, name, created, changed = case
    cl = bool(kind.ibmi) and (not kind.subtype or bool(word_for(kind.subtype, subtype, "ibmi")) or kind.key == "listener")
    engines = {"pcf": open_engine(None), "mqsc": open_engine(None), "rest": open_engine(None)}
    if cl:
        engines["cl"] = open_engine(None)
    for verb, attrs in (("CREATE", created), ("CHANGE", changed)):
        _run_languages(kind, _message(kind, verb, name, subtype, attrs), engines, cl)
        stored = {language: _stored(kind, engine, name) for language, engine in engines.items()}
        assert stored["pcf"] is not None
        for language, found in stored.items():
            assert found == stored["pcf"], (verb, language)
        for attr in attrs:  # what the command set is what the object holds
            value = stored["pcf"].get(attr.parameter)
            want = getattr(attr, "value", getattr(attr, "values", None))
            if isinstance(want, str):
                assert isinstance(value, str) and value.rstrip() == want.rstrip(), attr
            elif isinstance(want, tuple) and attr.parameter != mq.MQIACH_HDR_COMPRESSION:
                assert tuple(str(v).rstrip() if isinstance(v, str) else v for v in value) == want, attr  # type: ignore[union-attr]
            elif not isinstance(want, tuple):
                assert value == want, attr
    shown = mqsc.run(f"DISPLAY {kind.noun}('{name}') ALL", engines["mqsc"].execute)  # type: ignore[attr-defined]
    _ok(shown)
    assert any(f"{kind.noun}({name})" in line for line in shown.lines)
    body = {"type": "runCommandJSON", "command": "display", "qualifier": kind.rest[0].lower(), "name": name, "responseParameters": ["all"]}
    text, display = mqsc_text(body)
    assert display
    json_shown = mqsc.run(text, engines["rest"].execute)  # type: ignore[attr-defined]
    _ok(json_shown)
    assert [_unstamped(line) for line in json_shown.lines] == [_unstamped(line) for line in shown.lines]
    if cl:
        displayed = ibmi.run(f"DSPMQM{kind.ibmi} {ibmi.target(f'DSPMQM{kind.ibmi}').name}('{name}')", engines["cl"].execute, Context("QM1"))  # type: ignore[union-attr]
        _ok(displayed)
        assert any(line.split()[-1:] == [name] for line in displayed.lines[1:2])
    _run_languages(kind, _message(kind, "DELETE", name, subtype, []), engines, cl)
    assert all(_stored(kind, engine, name) is None for engine in engines.values())
