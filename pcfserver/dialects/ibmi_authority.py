"""IBM i CL's authority commands on the PCF engine: GRTMQMAUT and RVKMQMAUT as Set Authority Record, DSPMQMAUT as
Inquire Entity Authority, WRKMQMAUT as Inquire Authority Records (a list of profiles), RFRMQMAUT as Refresh Security;
and GRTMQMAUT written from an authority record (``pcfserver dump --dialect ibmi``).

The keywords are the ibmi cells of ``formats/authrec-attributes.tsv`` (OBJ the profile, OBJTYPE, USER, AUT, SRVCOMP)
and their positions rows of ``formats/ibmi-parameters.tsv``; the words of OBJTYPE and AUT are rows of
``formats/dialect-values.tsv``.  Choices (IBM i grants to user profiles, and an OAM here knows principals and groups):

* USER names principals: ``GRTMQMAUT ... USER(JACK JILL)`` is one Set Authority Record for both.  A group's record has
  no CL form here, so a dump leaves it as the MQSC comment it writes for every command CL lacks.
* OBJTYPE's queue words *ALSQ, *LCLQ, *MDLQ and *RMTQ are read as *Q: a record covers every queue its profile names,
  as SET AUTHREC OBJTYPE(QUEUE) does.
* GRTMQMAUT and RVKMQMAUT OBJ(*ALL) ("all objects of the type specified by OBJTYPE at the time the command is
  issued") ask the engine for those objects (queues of the type the OBJTYPE word names, *LCLQ local ones ...) and
  set one record per object; the queue manager's for *MQM.  A generic profile (``OBJ('APP.**')``) covers the
  objects created later too.  USER(*PUBLIC) is refused with a line saying why: this server has no *PUBLIC entity.
* RVKMQMAUT AUT(*REMOVE) deletes the users' records (Delete Authority Record); other words are taken away
  (AuthorityRemove), and a record left with none is deleted by the engine, as setmqaut's is.
* DSPMQMAUT needs USER here (IBM's default is *PUBLIC): it shows what that user may do to the object, its groups'
  authority included (Inquire Entity Authority).
"""

from __future__ import annotations

from typing import NoReturn

from pcfserver import kinds, mq
from pcfserver.codec.model import Integer, IntegerList, Message, Parameter, String, StringList
from pcfserver.dialects.cl import ClCommand, ClError, job_line, quoted, single, through, word_value
from pcfserver.dialects.cl import check_output as _output
from pcfserver.dialects.keywords import word_for
from pcfserver.dialects.tables import Attr, vocabulary

DIALECT = "ibmi"
COMMANDS = frozenset(("GRTMQMAUT", "RVKMQMAUT", "DSPMQMAUT", "WRKMQMAUT", "RFRMQMAUT"))
REQUIRED = {"GRTMQMAUT": ("OBJ", "OBJTYPE", "USER", "AUT"), "RVKMQMAUT": ("OBJ", "OBJTYPE", "USER", "AUT"), "DSPMQMAUT": ("OBJ", "OBJTYPE")}
_AUTH_WORDS = mq.MQIACF_AUTHORIZATION_LIST  # (AUT's words, as MQSC's AUTHADD/AUTHRMV/AUTHLIST share theirs)
_REMOVE = "*REMOVE"


def _keyword(parameter: int) -> str:
    """The CL keyword of an authority record's parameter (authrec-attributes.tsv's ibmi cell)."""
    attrs: dict[str, Attr] = vocabulary(DIALECT).objects["authrec"]
    return next(keyword for keyword, attr in attrs.items() if attr.parameter == parameter)


def _word(command: ClCommand, keyword: str, parameter: int) -> int:
    token = single(command, keyword)
    value = word_value(parameter, token)
    if not isinstance(value, int):
        raise ClError("syntax", f"{token.raw} is not a value of {keyword}", through(command, token), command=command.name)
    return value


def _not_here(command: ClCommand, why: str, text_segment: str) -> NoReturn:
    raise ClError("not-here", why, text_segment, command=command.name, because=why)


def _object(command: ClCommand, name: str | None = None) -> tuple[String, Integer]:
    """OBJ (or ``name``, one of OBJ(*ALL)'s objects) and OBJTYPE: the profile and its object type."""
    token = single(command, "OBJ")
    if name is None and not token.quoted and token.text == "*ALL":
        _not_here(command, "OBJ(*ALL) names objects, not a profile: DSPMQMAUT and WRKMQMAUT take a name", through(command, token))
    object_type = _word(command, "OBJTYPE", mq.MQIACF_OBJECT_TYPE)
    if object_type == mq.MQOT_ALL:
        raise ClError("syntax", "OBJTYPE(*ALL) is not a value here", through(command, single(command, "OBJTYPE")), command=command.name)
    return String(mq.MQCACF_AUTH_PROFILE_NAME, token.text if name is None else name), Integer(mq.MQIACF_OBJECT_TYPE, object_type)


# OBJ(*ALL)'s queues by the OBJTYPE word (IBM GRTMQMAUT: *Q all queue types, *ALSQ alias, *LCLQ local, *MDLQ model,
# *RMTQ remote); every other word's objects are its kind's (formats/kinds.tsv by MQOT_* type).
_QUEUE_WORDS = {"*Q": mq.MQQT_ALL, "*ALSQ": mq.MQQT_ALIAS, "*LCLQ": mq.MQQT_LOCAL, "*MDLQ": mq.MQQT_MODEL, "*RMTQ": mq.MQQT_REMOTE}


def every_object(command: ClCommand) -> bool:
    """GRTMQMAUT or RVKMQMAUT OBJ(*ALL): one record for each object of the type (objects_inquiry, then pcf(name=...))."""
    token = command.first("OBJ")
    return command.name in ("GRTMQMAUT", "RVKMQMAUT") and token is not None and not token.quoted and token.text == "*ALL"


def objects_inquiry(command: ClCommand) -> tuple[Message | None, int]:
    """What to ask for OBJ(*ALL)'s objects, and the parameter each answer names one in; None for *MQM (the queue
    manager itself: its name is the context's)."""
    word = single(command, "OBJTYPE").text
    object_type = _word(command, "OBJTYPE", mq.MQIACF_OBJECT_TYPE)
    if object_type == mq.MQOT_Q_MGR:
        return None, mq.MQCA_Q_MGR_NAME
    if word in _QUEUE_WORDS:
        return Message(
            mq.MQCMD_INQUIRE_Q_NAMES, (String(mq.MQCA_Q_NAME, "*"), Integer(mq.MQIA_Q_TYPE, _QUEUE_WORDS[word]))
        ), mq.MQCACF_Q_NAMES
    clntconn = object_type == mq.MQOT_CLNTCONN_CHANNEL
    kind = kinds.by_object_type().get(mq.MQOT_CHANNEL if clntconn else object_type)
    if kind is None:  # *RMTMQMNAME names no objects
        _not_here(
            command, f"OBJ(*ALL) with OBJTYPE({word}) names no objects here: name a profile", through(command, single(command, "OBJTYPE"))
        )
    params: list[Parameter] = [String(kind.name, "*")]
    if kind.key == "channel":
        params.append(Integer(mq.MQIACH_CHANNEL_TYPE, mq.MQCHT_CLNTCONN if clntconn else mq.MQCHT_ALL))
    if kind.names:  # Inquire Names where the kind has it; else the objects themselves, each answer naming one
        return Message(kind.command("INQUIRE_NAMES"), tuple(params)), kind.names
    return Message(kind.command("INQUIRE"), (*params, IntegerList(kind.selectors, (mq.MQIACF_ALL,)))), kind.name


def _users(command: ClCommand) -> tuple[str, ...]:
    tokens = command.values["USER"]
    for token in tokens:
        if not token.quoted and token.text == "*PUBLIC":
            _not_here(command, "USER(*PUBLIC) is not carried out here: this server has no *PUBLIC; name the users", through(command, token))
    return tuple(token.text for token in tokens)


def _service(command: ClCommand) -> list[Parameter]:
    token = command.first("SRVCOMP")
    if token is None or (not token.quoted and token.text == "*DFT"):
        return []
    return [String(mq.MQCACF_SERVICE_COMPONENT, single(command, "SRVCOMP").text)]


def pcf(command: ClCommand, name: str | None = None) -> Message:
    """The PCF command of a read authority command (ClError when CL would refuse it); ``name``: the object of an
    OBJ(*ALL) this one is for."""
    if command.name == "DSPMQMAUT":
        return _display(command)
    if command.name == "WRKMQMAUT":
        return _work(command)
    if command.name == "RFRMQMAUT":
        kind = _word(command, "TYPE", mq.MQIACF_SECURITY_TYPE) if "TYPE" in command.values else mq.MQSECTYPE_AUTHSERV
        return Message(mq.MQCMD_REFRESH_SECURITY, (Integer(mq.MQIACF_SECURITY_TYPE, kind),))
    profile, object_type = _object(command, name)
    users = StringList(mq.MQCACF_PRINCIPAL_ENTITY_NAMES, _users(command))
    tokens = command.values["AUT"]
    if command.name == "RVKMQMAUT" and any(not t.quoted and t.text == _REMOVE for t in tokens):
        if len(tokens) > 1:
            raise ClError("syntax", "AUT(*REMOVE) takes no other value", command.text.rstrip(), command=command.name)
        return Message(mq.MQCMD_DELETE_AUTH_REC, (profile, object_type, users, *_service(command)))
    auths: list[int] = []
    for token in tokens:
        value = word_value(_AUTH_WORDS, token)
        if not isinstance(value, int):
            raise ClError("syntax", f"{token.raw} is not a value of AUT", through(command, token), command=command.name)
        auths.append(value)
    change = mq.MQIACF_AUTH_ADD_AUTHS if command.name == "GRTMQMAUT" else mq.MQIACF_AUTH_REMOVE_AUTHS
    return Message(mq.MQCMD_SET_AUTH_REC, (profile, object_type, IntegerList(change, tuple(auths)), users, *_service(command)))


def _display(command: ClCommand) -> Message:
    _output(command)
    if "USER" not in command.values:
        _not_here(command, "USER is required here: this server has no *PUBLIC, IBM's default", command.text.rstrip())
    users = _users(command)
    if len(users) != 1:
        raise ClError("syntax", "USER takes one value", command.text.rstrip(), command=command.name)
    profile, object_type = _object(command)
    return Message(
        mq.MQCMD_INQUIRE_ENTITY_AUTH,
        (
            String(mq.MQCACF_ENTITY_NAME, users[0]),
            Integer(mq.MQIACF_ENTITY_TYPE, mq.MQZAET_PRINCIPAL),
            object_type,
            String(mq.MQCACF_OBJECT_NAME, profile.value),
            *_service(command),
        ),
    )


def _work(command: ClCommand) -> Message:
    """WRKMQMAUT: the profiles that cover an object's name (every one with OBJ(*ALL), the default; a generic profile
    itself when OBJ is one), of one type or of every type."""
    _output(command)
    token = command.first("OBJ")
    if token is None or (not token.quoted and token.text == "*ALL"):
        profile, options = "**", mq.MQAUTHOPT_NAME_AS_WILDCARD
    else:
        profile = single(command, "OBJ").text
        generic = any(c in profile for c in "*?%")
        options = mq.MQAUTHOPT_NAME_EXPLICIT if generic else mq.MQAUTHOPT_NAME_ALL_MATCHING
    params: list[Parameter] = [
        Integer(mq.MQIACF_AUTH_OPTIONS, options | mq.MQAUTHOPT_ENTITY_EXPLICIT),
        String(mq.MQCACF_AUTH_PROFILE_NAME, profile),
    ]
    if "OBJTYPE" in command.values:
        params.append(Integer(mq.MQIACF_OBJECT_TYPE, _word(command, "OBJTYPE", mq.MQIACF_OBJECT_TYPE)))
    return Message(mq.MQCMD_INQUIRE_AUTH_RECS, (*params, *_service(command)))


def work_lines(answer: list[Message]) -> list[str]:
    """WRKMQMAUT's list: each profile and its object type once, however many users it has records for."""
    header = job_line("list:MQCMD_INQUIRE_AUTH_RECS")
    column = header.index("Object type")
    seen: dict[tuple[str, int], None] = {}
    for response in answer:
        if response.comp_code == mq.MQCC_OK:
            seen[((response.str_value(mq.MQCACF_AUTH_PROFILE_NAME) or "").rstrip(), response.int_value(mq.MQIACF_OBJECT_TYPE) or 0)] = None
    rows = [f"{profile.ljust(column)}{word_for(mq.MQIACF_OBJECT_TYPE, kind, DIALECT) or kind}" for profile, kind in seen]
    return [header, *rows]


def display_lines(response: Message) -> list[str]:
    """DSPMQMAUT's lines: the display message, then OBJ, OBJTYPE, USER and AUT as the command spells them."""
    lines = [job_line("display:MQCMD_INQUIRE_ENTITY_AUTH")]
    name = (response.str_value(mq.MQCACF_OBJECT_NAME) or "").rstrip()
    object_type = response.int_value(mq.MQIACF_OBJECT_TYPE) or 0
    user = (response.str_value(mq.MQCACF_ENTITY_NAME) or "").rstrip()
    auths = response.get(mq.MQIACF_AUTHORIZATION_LIST)
    shown = [("OBJ", name), ("OBJTYPE", word_for(mq.MQIACF_OBJECT_TYPE, object_type, DIALECT) or str(object_type)), ("USER", user)]
    if isinstance(auths, IntegerList):
        shown.append(("AUT", " ".join(word_for(_AUTH_WORDS, v, DIALECT) or str(v) for v in auths.values)))
    return [*lines, *(f"  {keyword:<11}{value}" for keyword, value in shown)]


def render_parts(message: Message, qmgr_name: str = "") -> list[str]:
    """GRTMQMAUT's words for a Set Authority Record that grants (a dump's record); ValueError where CL has no form (a
    group's record, a revoke).  A queue manager's record with no profile names ``qmgr_name``, as OBJ must."""
    users = message.get(mq.MQCACF_PRINCIPAL_ENTITY_NAMES)
    auths = message.get(mq.MQIACF_AUTH_ADD_AUTHS)
    object_type = message.int_value(mq.MQIACF_OBJECT_TYPE)
    if message.command != mq.MQCMD_SET_AUTH_REC or not isinstance(users, StringList) or not isinstance(auths, IntegerList):
        raise ValueError("no CL form: GRTMQMAUT grants to users")
    if message.get(mq.MQCACF_GROUP_ENTITY_NAMES) is not None or message.get(mq.MQIACF_AUTH_REMOVE_AUTHS) is not None:
        raise ValueError("no CL form: GRTMQMAUT grants to users")
    profile = (message.str_value(mq.MQCACF_AUTH_PROFILE_NAME) or "").rstrip()
    if not profile and object_type == mq.MQOT_Q_MGR:
        profile = qmgr_name
    type_word = word_for(mq.MQIACF_OBJECT_TYPE, object_type, DIALECT) if object_type is not None else None
    if not profile or not type_word:
        raise ValueError("no CL form: OBJ and OBJTYPE are required")
    words = [word_for(_AUTH_WORDS, v, DIALECT) for v in auths.values]
    if not all(words):
        raise ValueError("no CL form for one of the authorities")
    return [
        "GRTMQMAUT",
        f"{_keyword(mq.MQCACF_AUTH_PROFILE_NAME)}({quoted(profile)})",
        f"{_keyword(mq.MQIACF_OBJECT_TYPE)}({type_word})",
        f"{_keyword(mq.MQCACF_PRINCIPAL_ENTITY_NAMES)}({' '.join(_name(u) for u in users.values)})",
        f"{_keyword(mq.MQIACF_AUTHORIZATION_LIST)}({' '.join(w for w in words if w)})",
    ]


def _name(text: str) -> str:
    """A user as CL reads it back: bare when CL would not change it (IBM i upper-cases a bare name), else quoted."""
    return text if text and all(c.isupper() or c.isdigit() or c in "_#@$" for c in text) else quoted(text)


__all__ = ["COMMANDS", "REQUIRED", "display_lines", "every_object", "objects_inquiry", "pcf", "render_parts", "work_lines"]
