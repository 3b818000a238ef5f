"""Administrative subscriptions' own rules (notes/topic-rules.md section 2; IBM DEFINE SUB q085760_, ALTER SUB
q085420_, DELETE SUB q085950_, DISPLAY SUB q086340_, PCF Create Subscription q087050_, Inquire Subscription q088040_).

* A new subscription gets a 24-byte SubId (MQ_CORREL_ID_LENGTH): 'AMQ ', the queue manager name's first 12 characters
  blank-padded, then 8 bytes that make it unique (the creation second, little-endian, and 4 more) - the shape of
  IBM's example 414D5120414141202020...EE921E4E20002A03 (q020920_).  It keeps it through Change and Replace.  Its
  creation date and time are set once.  It is durable (MQSUB_DURABLE_YES) and SUBTYPE(ADMIN) (q085760_).
* DestinationCorrelId not given: the SubId (IBM Inquire Subscription Status q088060_: "If the queue manager is
  generating the CorrelId for a subscription, then the SubId is used as the DestinationCorrelId").
* The topic: TopicObject's string, '/', TopicString (topictree.join); TopicObject must name an existing topic object
  (MQRC_UNKNOWN_OBJECT_NAME, K); neither given: MQRCCF_PARM_MISSING for TopicString (K).  The subscription keeps the
  resolved string (DISPLAY SUB's default DISTYPE(RESOLVED)) and its TopicObject's name: deleting the topic object later
  leaves both (q020890_).  DISTYPE(DEFINED) shows the string as given, found by taking the object's string off (K:
  when the object is gone, the resolved string is shown).
* DestinationClass PROVIDED needs Destination (MQRCCF_DEST_NAME_ERROR 3316, K) naming an existing queue when it is
  on this queue manager (DESTQMGR blank or this one; MQRC_UNKNOWN_OBJECT_NAME, K); ALTER SUB does not check DEST
  (q085420_).  MANAGED: the queue manager names the destination SYSTEM.MANAGED.DURABLE.<16 hex digits of the SubId>
  (K), or DEST when given; the queue itself is made from MDURMDL by the publish/subscribe engine when the
  subscription is defined (IBM makes it with the subscription; :func:`_defined`), and goes with DELETE SUB.
* A new subscription receives the retained publications it matches when it is defined, unless REQONLY(YES)
  (formats/pubsub-rules.tsv).
* The topic's resolved DURSUB(NO) refuses it (MQRCCF_DURABILITY_NOT_ALLOWED 3314, K trigger) and so does SUB(DISABLED)
  (MQRC_SUB_INHIBITED 2503, K for an administrative subscription).
* SELECTOR must be a selector in IBM's syntax (pcfserver.engine.selector): else MQRC_SELECTOR_SYNTAX_ERROR 2459 (K
  for DEFINE SUB; the MQI's code for a bad selection string).  SELTYPE (display only) is STANDARD with one, NONE
  without.
* Change (and Replace) cannot alter TOPICOBJ, TOPICSTR, WSCHEMA (MQRC_TOPIC_NOT_ALTERABLE 2510), SELECTOR
  (MQRC_SELECTOR_NOT_ALTERABLE 2524), SUBLEVEL (MQRC_SUBLEVEL_NOT_ALTERABLE 2512), DESTCLAS
  (MQRC_DEST_CLASS_NOT_ALTERABLE 2533) or SUBSCOPE (2510, chosen: IBM's MQI has no code of its own); the same value
  is accepted (IBM i CHGMQMSUB *SAME).  The MQI's codes, as notes/topic-rules.md S9 chose.
* Change, Delete and Inquire name the subscription by SubName, SubId or both (both must agree); neither:
  MQRCCF_SUB_IDENTITY_ERROR 3154 (K).  Not there: MQRC_NO_SUBSCRIPTION 2428 (kinds.tsv unknown_reason, K).
* The queue manager's PSMODE(DISABLED) refuses a new subscription: MQRCCF_PUBSUB_INHIBITED 3318 ("publish/subscribe
  messaging is inhibited for the queue manager"; K that DEFINE SUB is refused rather than kept for later).
* Inquire answers always carry SubName and SubId (q088040_).
* Inquire filters: Durable (ALL default, YES, NO) and SubscriptionType (USER default = ADMIN and API; ADMIN, API,
  PROXY, ALL) (q088040_).
"""

from __future__ import annotations

import calendar
import itertools
import os
import time

from pcfserver import mq
from pcfserver.engine.context import EngineView
from pcfserver.engine.kinds.hooks import Hooks, Values
from pcfserver.engine.kinds.topic import tree
from pcfserver.engine.messages import MQIError
from pcfserver.engine.registry import NamedObject
from pcfserver.engine.responses import Reject
from pcfserver.engine.selector import SelectorError, check_selector
from pcfserver.engine.spec import byte_text
from pcfserver.engine.store import ObjValue
from pcfserver.engine.topictree import join

OBJECT_TYPE = -1  # formats/kinds.tsv: subscriptions have no MQOT_*
SUB_NAME = mq.MQCACF_SUB_NAME
SUB_ID = mq.MQBACF_SUB_ID
TOPIC_STRING = mq.MQCA_TOPIC_STRING
TOPIC_OBJECT = mq.MQCA_TOPIC_NAME
DEST = mq.MQCACF_DESTINATION
DEST_QMGR = mq.MQCACF_DESTINATION_Q_MGR
DEST_CLASS = mq.MQIACF_DESTINATION_CLASS
DEST_CORREL = mq.MQBACF_DESTINATION_CORREL_ID
SELECTOR = mq.MQCACF_SUB_SELECTOR
SUB_ID_LENGTH = mq.MQ_CORREL_ID_LENGTH
NOT_ALTERABLE = (
    (TOPIC_OBJECT, mq.MQRC_TOPIC_NOT_ALTERABLE),
    (TOPIC_STRING, mq.MQRC_TOPIC_NOT_ALTERABLE),
    (mq.MQIACF_WILDCARD_SCHEMA, mq.MQRC_TOPIC_NOT_ALTERABLE),
    (mq.MQCACF_SUB_SELECTOR, mq.MQRC_SELECTOR_NOT_ALTERABLE),
    (mq.MQIACF_SUB_LEVEL, mq.MQRC_SUBLEVEL_NOT_ALTERABLE),
    (DEST_CLASS, mq.MQRC_DEST_CLASS_NOT_ALTERABLE),
    (mq.MQIACF_SUBSCRIPTION_SCOPE, mq.MQRC_TOPIC_NOT_ALTERABLE),
)
_USER_TYPES = frozenset((mq.MQSUBTYPE_ADMIN, mq.MQSUBTYPE_API))


def subscriptions(engine: EngineView) -> dict[str, NamedObject]:
    return engine.objects.by_type[OBJECT_TYPE]


def _text(attrs: dict[int, ObjValue], pid: int) -> str:
    value = attrs.get(pid, "")
    assert isinstance(value, str)
    return value


def _topic_string(engine: EngineView, name: str) -> str | None:
    found = engine.objects.get(mq.MQOT_TOPIC, name)
    return None if found is None else _text(found.attrs, TOPIC_STRING)


# The last 4 bytes of a SubId: a counter that starts at a random value in each process, so two SubIds made in one
# second differ, and a restart within the same second is unlikely to meet the same counter (1 in 2**32 per SubId).
_COUNTER = itertools.count(int.from_bytes(os.urandom(4), "big"))


def new_sub_id(engine: EngineView) -> str:
    """A new SubId, as hex (spec.byte_text): 'AMQ ', the queue manager name, the creation second and the counter.
    Made in constant time (no scan of the subscriptions: issue 19 expects tens of thousands of them)."""
    date, clock = engine.now()
    try:
        second = calendar.timegm(time.strptime(f"{date} {clock}", "%Y-%m-%d %H.%M.%S"))
    except ValueError:
        second = int(time.time())
    head = b"AMQ " + engine.qmgr_name[:12].ljust(12).encode("ascii", "replace") + (second & 0xFFFFFFFF).to_bytes(4, "little")
    return byte_text(head + (next(_COUNTER) & 0xFFFFFFFF).to_bytes(4, "big"), SUB_ID_LENGTH)


def defined_string(engine: EngineView, attrs: dict[int, ObjValue]) -> str:
    """TOPICSTR as given (DISTYPE(DEFINED)): the resolved string without its topic object's string."""
    resolved = _text(attrs, TOPIC_STRING)
    obj = _text(attrs, TOPIC_OBJECT)
    prefix = _topic_string(engine, obj) if obj else None
    if not prefix:
        return resolved
    if resolved == prefix:
        return ""
    if resolved.startswith(prefix + "/"):
        return resolved[len(prefix) + 1 :]
    return resolved


def _fill(engine: EngineView, name: str, attrs: dict[int, ObjValue], source: NamedObject | None, values: Values | None) -> None:
    existing = subscriptions(engine).get(name)
    if existing is not None:  # Replace keeps the identity and the creation stamp
        for pid in (SUB_ID, mq.MQCA_CREATION_DATE, mq.MQCA_CREATION_TIME):
            attrs[pid] = existing.attrs[pid]
    else:
        attrs[SUB_ID] = new_sub_id(engine)
        attrs[mq.MQCA_CREATION_DATE], attrs[mq.MQCA_CREATION_TIME] = engine.now()
    if values is None:  # a default object (SYSTEM.DEFAULT.SUB): no topic, no destination
        return
    if not str(values.get(mq.MQCACF_SUB_USER_ID, "")).strip():  # SUBUSER not given: the user who defined it (sub-attributes.tsv)
        attrs[mq.MQCACF_SUB_USER_ID] = str(existing.attrs.get(mq.MQCACF_SUB_USER_ID, "")) if existing is not None else engine.issuer()[:12]
    names_none = not values.get(TOPIC_STRING) and not str(values.get(TOPIC_OBJECT, "")).strip()
    if existing is not None and (
        (TOPIC_STRING not in values and TOPIC_OBJECT not in values) or (names_none and not _text(existing.attrs, TOPIC_STRING))
    ):
        # A Replace that names no topic keeps the sub's own; so does one that names the empty topic SYSTEM.DEFAULT.SUB
        # (a template without one) has, as dmpmqcfg writes it: DEFINE SUB('SYSTEM.DEFAULT.SUB') TOPICSTR('') REPLACE.
        attrs[TOPIC_STRING] = existing.attrs[TOPIC_STRING]
        attrs[TOPIC_OBJECT] = existing.attrs[TOPIC_OBJECT]
    elif source is None or TOPIC_STRING in values or TOPIC_OBJECT in values:
        given = values.get(TOPIC_STRING, "")
        assert isinstance(given, str)
        obj = _text(attrs, TOPIC_OBJECT)
        if not given and not obj:
            raise Reject(mq.MQRCCF_PARM_MISSING, TOPIC_STRING)
        prefix = ""
        if obj:
            found = _topic_string(engine, obj)
            if found is None:
                raise Reject(mq.MQRC_UNKNOWN_OBJECT_NAME, TOPIC_OBJECT)
            prefix = found
        attrs[TOPIC_STRING] = join(prefix, given)
    selector = attrs.get(SELECTOR, "")
    attrs[mq.MQIACF_SELECTOR_TYPE] = mq.MQSELTYPE_STANDARD if isinstance(selector, str) and selector.strip() else mq.MQSELTYPE_NONE
    if DEST_CORREL not in values:
        attrs[DEST_CORREL] = attrs[SUB_ID] if existing is None else existing.attrs[DEST_CORREL]
    if attrs.get(DEST_CLASS) == mq.MQDC_MANAGED and (not _text(attrs, DEST) or (existing is None and DEST not in values)):
        # a new managed subscription (a Copy too: not its source's queue) names its own queue unless DEST is given
        sub_id = _text(attrs, SUB_ID)
        attrs[DEST] = "SYSTEM.MANAGED.DURABLE." + sub_id[-16:]


def check(engine: EngineView, name: str, attrs: dict[int, ObjValue], old: NamedObject | None) -> None:
    if not name.strip(" "):
        raise Reject(mq.MQRCCF_SUB_NAME_ERROR, SUB_NAME)
    if old is not None:
        given = _text(attrs, TOPIC_STRING)
        if given != _text(old.attrs, TOPIC_STRING) and given == defined_string(engine, old.attrs):
            attrs[TOPIC_STRING] = old.attrs[TOPIC_STRING]  # the string as defined names the same topic
        for pid, reason in NOT_ALTERABLE:
            if attrs.get(pid) != old.attrs.get(pid):
                raise Reject(reason, pid)
        return  # DEST and DESTQMGR are resolved at publish time (ALTER SUB q085420_)
    if engine.qmgr_attr(mq.MQIA_PUBSUB_MODE) == mq.MQPSM_DISABLED:
        raise Reject(mq.MQRCCF_PUBSUB_INHIBITED)
    topic = _text(attrs, TOPIC_STRING)
    if not topic:
        raise Reject(mq.MQRC_TOPIC_STRING_ERROR, TOPIC_STRING)
    try:
        check_selector(_text(attrs, SELECTOR))
    except SelectorError:
        raise Reject(mq.MQRC_SELECTOR_SYNTAX_ERROR, SELECTOR) from None
    if attrs.get(DEST_CLASS) == mq.MQDC_PROVIDED:
        dest = _text(attrs, DEST)
        if not dest:
            raise Reject(mq.MQRCCF_DEST_NAME_ERROR, DEST)
        qmgr = _text(attrs, DEST_QMGR)
        if (not qmgr or qmgr == engine.qmgr_name) and not engine.queue_exists(dest):
            raise Reject(mq.MQRC_UNKNOWN_OBJECT_NAME, DEST)
    resolved = tree(engine).resolve(topic)
    if resolved[mq.MQIA_INHIBIT_SUB] == mq.MQTA_SUB_INHIBITED:
        raise Reject(mq.MQRC_SUB_INHIBITED, TOPIC_STRING)
    if resolved[mq.MQIA_DURABLE_SUB] == mq.MQSUB_DURABLE_INHIBITED:
        raise Reject(mq.MQRCCF_DURABILITY_NOT_ALLOWED, TOPIC_STRING)


def _sub_id_text(values: Values) -> str | None:
    given = values.get(SUB_ID)
    if given is None:
        return None
    assert isinstance(given, bytes)
    return byte_text(given, SUB_ID_LENGTH)


def _find(engine: EngineView, values: Values) -> NamedObject | None:
    name = values.get(SUB_NAME)
    sub_id = _sub_id_text(values)
    if name is None and sub_id is None:
        raise Reject(mq.MQRCCF_SUB_IDENTITY_ERROR)
    if name is not None:
        assert isinstance(name, str)
        found = subscriptions(engine).get(name)
        if found is None or (sub_id is not None and found.attrs.get(SUB_ID) != sub_id):
            return None
        return found
    return next((r for r in subscriptions(engine).values() if r.attrs.get(SUB_ID) == sub_id), None)


def _select(engine: EngineView, values: Values, candidates: list[NamedObject]) -> list[NamedObject]:
    sub_id = _sub_id_text(values)
    if SUB_NAME not in values and sub_id is None:
        raise Reject(mq.MQRCCF_SUB_IDENTITY_ERROR)
    durable = values.get(mq.MQIACF_DURABLE_SUBSCRIPTION, mq.MQSUB_DURABLE_ALL)
    kind = values.get(mq.MQIACF_SUB_TYPE, mq.MQSUBTYPE_USER)
    out = []
    for record in candidates:
        if sub_id is not None and record.attrs.get(SUB_ID) != sub_id:
            continue
        # (administrative subscriptions keep neither: they are durable and ADMIN, the table's defaults)
        if durable != mq.MQSUB_DURABLE_ALL and record.attrs.get(mq.MQIACF_DURABLE_SUBSCRIPTION, mq.MQSUB_DURABLE_YES) != durable:
            continue
        own = record.attrs.get(mq.MQIACF_SUB_TYPE, mq.MQSUBTYPE_ADMIN)
        if kind == mq.MQSUBTYPE_USER and own not in _USER_TYPES:
            continue
        if kind not in (mq.MQSUBTYPE_USER, mq.MQSUBTYPE_ALL) and own != kind:
            continue
        out.append(record)
    return out


def _report(engine: EngineView, values: Values, record: NamedObject) -> dict[int, ObjValue | None]:
    shown = values.get(mq.MQIA_DISPLAY_TYPE, mq.MQDOPT_RESOLVED)
    assert isinstance(shown, int)
    out: dict[int, ObjValue | None] = {mq.MQIA_DISPLAY_TYPE: shown}
    if shown == mq.MQDOPT_DEFINED:
        out[TOPIC_STRING] = defined_string(engine, record.attrs)
    return out


def _defined(engine: EngineView, record: NamedObject, old: NamedObject | None, values: Values) -> None:
    """DEFINE SUB (and Copy, Replace) once the subscription is in place: a managed destination's queue is made now,
    from the topic's MDURMDL (IBM makes it with the subscription; a model that is missing or TEMPDYN refuses the
    command: MQRCCF_INVALID_DESTINATION 3317, chosen - the MQI's 2522), and a new subscription receives the retained
    publications it matches unless REQONLY(YES) (formats/pubsub-rules.tsv; one that can be delivered neither to DEST
    nor to the dead-letter queue refuses the command, MQRC_RETAINED_NOT_DELIVERED 2526 as MQSUB's)."""
    pubsub = getattr(engine, "pubsub", None)
    if pubsub is None or not _text(record.attrs, TOPIC_STRING):
        return
    try:
        pubsub.defined(record, old)
    except MQIError as error:
        reason = mq.MQRCCF_INVALID_DESTINATION if error.reason == mq.MQRC_INVALID_DESTINATION else error.reason
        raise Reject(reason, DEST if reason == mq.MQRCCF_INVALID_DESTINATION else None) from None


def _deleted(engine: EngineView, record: NamedObject, values: Values) -> None:
    """DELETE SUB: a managed destination goes with its subscription, with whatever it holds (IBM DELETE SUB,
    q085950_: the unprocessed messages of a managed destination are thrown away)."""
    pubsub = getattr(engine, "pubsub", None)
    if pubsub is not None:
        pubsub.deleted(record)


HOOKS = Hooks(fill=_fill, find=_find, select=_select, report=_report, deleted=_deleted, defined=_defined, always=frozenset((SUB_ID,)))
