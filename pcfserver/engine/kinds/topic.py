"""Administrative topic objects' own rules (notes/topic-rules.md section 1; IBM DEFINE TOPIC q085770_, PCF
Change/Copy/Create Topic q087060_, DISPLAY TOPIC q086380_).

* TopicString is required on Create and Copy (q087060_ lists it under both commands' required parameters):
  MQRCCF_PARM_MISSING.  Not empty: MQRCCF_PARM_VALUE_ERROR (K which reason).  A trailing '/' is accepted: IBM's own
  developer configuration (ibm-messaging/mq-container dev.mqsc) defines DEV.BASE.TOPIC with TOPICSTR('dev/') and a
  published runmqsc transcript of it answers AMQ8690I (notes/topic-rules.md T2 said otherwise, K).
* No two topic objects hold the same TopicString: MQRCCF_TOPICSTR_ALREADY_EXISTS 3300 (RC3300).  The shipped objects
  with an empty string (SYSTEM.BASE.TOPIC, SYSTEM.DEFAULT.TOPIC, ...) are not compared.
* TopicString cannot change once the object exists ("cannot be changed after the topic has been created", MQ
  Explorer's topic properties; ALTER TOPIC has no TOPICSTR): a Change or Replace naming another string is refused
  with MQRC_TOPIC_NOT_ALTERABLE 2510 (chosen, K: IBM names no PCF code; 2510 is the MQI's "topic not alterable").
* CLROUTE cannot change while CLUSTER is set: MQRCCF_CLROUTE_NOT_ALTERABLE 3367 (K trigger).
* Inquire Topic / Inquire Topic Names take TopicType LOCAL, CLUSTER or ALL: this queue manager is in no cluster, so
  CLUSTER selects nothing and the others every (local) object; the cluster-only fields (CLSTATE, CLUSQMGR, QMID,
  CLUSDATE, CLUSTIME) belong to cluster entries and are not reported for a local object (q086380_).
* Inquire Topic answers always carry TopicName and TopicType (IBM's Inquire Topic response q088110_), so runmqsc
  shows TOPIC and TYPE with whatever was asked for.
* Delete Topic: subscriptions made through the object stay, with their TOPICOBJ and resolved topic string
  (IBM "Deleting an administrative topic definition" q020890_); nothing else goes with it.
"""

from __future__ import annotations

from pcfserver import mq
from pcfserver.codec.model import Message
from pcfserver.engine import responses
from pcfserver.engine.context import EngineView
from pcfserver.engine.kinds.hooks import Hooks, Values
from pcfserver.engine.registry import NamedObject
from pcfserver.engine.responses import Reject
from pcfserver.engine.store import ObjValue
from pcfserver.engine.topictree import TopicTree

TOPIC_STRING = mq.MQCA_TOPIC_STRING
_TYPE = mq.MQIA_TOPIC_TYPE
_CLUSTER_INFO = mq.MQIACF_CLUSTER_INFO
# Shown only for cluster topics (DISPLAY TOPIC TYPE(CLUSTER) / CLUSINFO entries, q086380_).
CLUSTER_ONLY = (
    mq.MQIA_CLUSTER_OBJECT_STATE,
    mq.MQCA_CLUSTER_Q_MGR_NAME,
    mq.MQCA_Q_MGR_IDENTIFIER,
    mq.MQCA_CLUSTER_DATE,
    mq.MQCA_CLUSTER_TIME,
)


def topic_objects(engine: EngineView) -> dict[str, NamedObject]:
    return engine.objects.by_type[mq.MQOT_TOPIC]


def tree(engine: EngineView) -> TopicTree:
    """The topic tree of the queue manager's topic objects as they are now (publish and DISPLAY TPSTATUS ask it:
    ``tree(engine).resolve(topic_string)``, ``.admin(topic_string)``)."""
    return TopicTree({name: record.attrs for name, record in topic_objects(engine).items()})


def _string(attrs: dict[int, ObjValue]) -> str:
    value = attrs.get(TOPIC_STRING, "")
    assert isinstance(value, str)
    return value


def check(engine: EngineView, name: str, attrs: dict[int, ObjValue], old: NamedObject | None) -> None:
    text = _string(attrs)
    if old is not None:
        before = _string(old.attrs)
        if text != before:
            raise Reject(mq.MQRC_TOPIC_NOT_ALTERABLE, TOPIC_STRING)
        cluster = old.attrs.get(mq.MQCA_CLUSTER_NAME, "")
        route = mq.MQIA_CLUSTER_PUB_ROUTE
        if cluster and attrs.get(mq.MQCA_CLUSTER_NAME) == cluster and attrs.get(route) != old.attrs.get(route):
            raise Reject(mq.MQRCCF_CLROUTE_NOT_ALTERABLE, route)
        return
    if not text:
        raise Reject(mq.MQRCCF_PARM_VALUE_ERROR, TOPIC_STRING)
    for other in topic_objects(engine).values():
        if other.name != name and other.attrs.get(TOPIC_STRING) == text:
            raise Reject(mq.MQRCCF_TOPICSTR_ALREADY_EXISTS, TOPIC_STRING)


def _fill(engine: EngineView, name: str, attrs: dict[int, ObjValue], source: NamedObject | None, values: Values | None) -> None:
    """Create and Copy must name the TopicString (q087060_): a copy does not take its source's.  A Replace of an
    existing object may leave it out: the object keeps its own (dmpmqcfg's scripts redefine SYSTEM.BASE.TOPIC, whose
    string is empty and cannot be given)."""
    if values is None or TOPIC_STRING in values:
        return
    existing = topic_objects(engine).get(name)
    if existing is None:
        raise Reject(mq.MQRCCF_PARM_MISSING, TOPIC_STRING)
    attrs[TOPIC_STRING] = existing.attrs.get(TOPIC_STRING, "")


def _select(engine: EngineView, values: Values, candidates: list[NamedObject]) -> list[NamedObject]:
    """TopicType CLUSTER: the cluster's topics, and this queue manager is in no cluster."""
    if values.get(_TYPE, mq.MQTOPT_ALL) == mq.MQTOPT_CLUSTER:
        return []
    return candidates


def _report(engine: EngineView, values: Values, record: NamedObject) -> dict[int, ObjValue | None]:
    """A local object's entry: TopicType LOCAL, no cluster-only fields."""
    return {_TYPE: mq.MQTOPT_LOCAL, **dict.fromkeys(CLUSTER_ONLY)}


HOOKS = Hooks(fill=_fill, select=_select, report=_report, always=frozenset((_TYPE,)))


def clear_topic_string(engine: EngineView, command: Message, values: Values) -> list[Message]:
    """Clear Topic String (MQCMD_CLEAR_TOPIC_STRING, CLEAR TOPICSTR): removes the retained publication of a topic
    string (pcfserver/engine/pubsub.py keeps them on SYSTEM.RETAINED.PUB.QUEUE).  IBM answers success when there is
    none (pubsub.md P7/P8)."""
    text = values.get(TOPIC_STRING, "")
    assert isinstance(text, str)
    pubsub = getattr(engine, "pubsub", None)
    if pubsub is not None:
        pubsub.clear_retained(None, text)
    return responses.success(command)
