"""Topic and subscription status (Inquire Topic Status, MQSC DISPLAY TPSTATUS; Inquire Subscription Status, DISPLAY
SBSTATUS) from the counts the publish/subscribe engine keeps (pcfserver/engine/pubsub.py: ``sub_stats``,
``topic_stats``, ``pub_stats``).  Sans-IO; the answers' fields are rows of ``formats/tpstatus-attributes.tsv`` and
``formats/sbstatus-attributes.tsv``; the choices IBM leaves open are section 5 of ``formats/rules-topic-sub.md``.

* Inquire Topic Status names a topic string; '#' and '+' are topic-scheme wildcards, a trailing '*' is literal text
  (q088140_).  The nodes it can match are :meth:`PubSub.nodes`.  No node matches: MQRCCF_TOPIC_STRING_NOT_FOUND 3308.
  StatusType TOPIC answers one response per node (resolved attributes, never "as parent"); SUB one per subscription
  whose topic string is a matched node; PUB one per publisher (a live session that published on the node).
* Inquire Subscription Status names subscriptions by SubName (generic with a trailing '*') or SubId, filtered by
  Durable and SubscriptionType as Inquire Subscription is; none: MQRC_NO_SUBSCRIPTION 2428 (as Inquire Subscription).
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Protocol

from pcfserver import mq
from pcfserver.codec.model import Message
from pcfserver.engine import responses
from pcfserver.engine.filters import generic_match
from pcfserver.engine.kinds import sub as sub_kind
from pcfserver.engine.matching import SCHEME_TOPIC, Matcher
from pcfserver.engine.messages import MQIError
from pcfserver.engine.registry import NamedObject
from pcfserver.engine.responses import Reject
from pcfserver.engine.spec import byte_value
from pcfserver.tables import read_table, value_of

if TYPE_CHECKING:
    from pcfserver.engine.context import EngineView
    from pcfserver.engine.pubsub import PubSub

_ALL = mq.MQIACF_ALL
_NO_CONNECTION = bytes(mq.MQ_CONNECTION_ID_LENGTH)
Values = Mapping[int, int | str | bytes]
# The StatusTypes; each names its rows in the applies_to column of tpstatus-attributes.tsv
_TYPES = (mq.MQIACF_TOPIC_STATUS, mq.MQIACF_TOPIC_SUB, mq.MQIACF_TOPIC_PUB)


class Parsed(Protocol):
    values: dict[int, object]


class Answers(Protocol):
    """What the status commands share with the other operational inquiries (engine.operations.Operations)."""

    engine: EngineView

    def fields(self, command: Message, table: tuple[tuple[int, int], ...], values: Values, chosen: frozenset[int]) -> Message: ...

    def connection_id(self, ident: int) -> bytes: ...


def _rows(name: str, applies: int | None = None) -> tuple[tuple[int, int], ...]:
    """(parameter, max_length) of a status table's rows (those that apply to ``applies``), in order; 0 for integers
    and for variable-length strings (a topic string, a subscription name: answered as long as they are)."""
    out = []
    for row in read_table(f"{name}-attributes.tsv"):
        if applies is not None and applies not in (value_of(word) for word in row["applies_to"].split()):
            continue
        length = int(row["max_length"] or 0)
        out.append((value_of(row["parameter"]), 0 if length > 4096 else length))
    return tuple(out)


def _text(record: NamedObject, pid: int) -> str:
    value = record.attrs.get(pid, "")
    return value if isinstance(value, str) else ""


class StatusInquiries:
    """Inquire Topic Status and Inquire Subscription Status."""

    def __init__(self, answers: Answers) -> None:
        self._answers = answers
        self._topic_rows = {code: _rows("tpstatus", code) for code in _TYPES}
        self._sub_rows = _rows("sbstatus")

    def _pubsub(self) -> PubSub:
        found = getattr(self._answers.engine, "pubsub", None)
        if found is None:
            raise Reject(mq.MQRCCF_PUBSUB_INHIBITED)
        return found  # type: ignore[no-any-return]

    # ------------------------------------------------------------------ subscriptions' own status

    def _activity(self, pubsub: PubSub) -> dict[str, int]:
        """The session holding each non-durable API subscription open (ACTCONN)."""
        return {name: ident for ident, owned in pubsub.by_session.items() for name in owned}

    def _sub_values(self, pubsub: PubSub, record: NamedObject, active: Mapping[str, int]) -> dict[int, int | str | bytes]:
        attrs = record.attrs
        count, date, clock = pubsub.subscription_status(record.name)
        ident = active.get(record.name)
        durable = attrs.get(mq.MQIACF_DURABLE_SUBSCRIPTION, mq.MQSUB_DURABLE_YES)
        kind = attrs.get(mq.MQIACF_SUB_TYPE, mq.MQSUBTYPE_ADMIN)
        assert isinstance(durable, int) and isinstance(kind, int)
        return {
            mq.MQCACF_SUB_NAME: record.name,
            mq.MQBACF_SUB_ID: byte_value(_text(record, mq.MQBACF_SUB_ID), mq.MQ_CORREL_ID_LENGTH),
            mq.MQIACF_DURABLE_SUBSCRIPTION: durable,
            mq.MQIACF_SUB_TYPE: kind,
            mq.MQBACF_CONNECTION_ID: _NO_CONNECTION if ident is None else self._answers.connection_id(ident),
            mq.MQCA_RESUME_DATE: _text(record, mq.MQCA_CREATION_DATE),
            mq.MQCA_RESUME_TIME: _text(record, mq.MQCA_CREATION_TIME),
            mq.MQCACF_LAST_MSG_DATE: date,
            mq.MQCACF_LAST_MSG_TIME: clock,
            mq.MQIACF_MESSAGE_COUNT: count,
            mq.MQCACF_SUB_USER_ID: _text(record, mq.MQCACF_SUB_USER_ID),
            mq.MQCA_TOPIC_STRING: _text(record, mq.MQCA_TOPIC_STRING),
        }

    def inquire_sub_status(self, command: Message, p: Parsed) -> list[Message]:
        values = p.values
        pubsub = self._pubsub()
        engine = self._answers.engine
        pattern = values.get(mq.MQCACF_SUB_NAME)
        subs = engine.objects.by_type[sub_kind.OBJECT_TYPE]
        candidates = [
            subs[name]
            for name in sorted(subs)
            if (not isinstance(pattern, str) or generic_match(pattern, name)) and engine.may_display(name, sub_kind.OBJECT_TYPE)
        ]
        selected = sub_kind.HOOKS.select
        assert selected is not None
        chosen = values.get(mq.MQIACF_SUB_STATUS_ATTRS, (_ALL,))
        assert isinstance(chosen, tuple)
        always = frozenset(chosen) | {mq.MQBACF_SUB_ID}
        active = self._activity(pubsub)
        out = [
            self._answers.fields(command, self._sub_rows, self._sub_values(pubsub, record, active), always)
            for record in selected(engine, values, candidates)
        ]
        if not out:
            raise Reject(mq.MQRC_NO_SUBSCRIPTION)
        return responses.numbered(out)

    # ------------------------------------------------------------------ topic nodes

    def _matched(self, pubsub: PubSub, pattern: str) -> list[str]:
        nodes = pubsub.nodes()
        probe = Matcher()
        try:
            probe.add(0, pattern, SCHEME_TOPIC)
        except MQIError:
            return []
        return sorted(node for node in nodes if probe.match(node))

    def inquire_topic_status(self, command: Message, p: Parsed) -> list[Message]:
        values = p.values
        pubsub = self._pubsub()
        pattern = values.get(mq.MQCA_TOPIC_STRING, "")
        assert isinstance(pattern, str)
        status_type = values.get(mq.MQIACF_TOPIC_STATUS_TYPE, mq.MQIACF_TOPIC_STATUS)
        assert isinstance(status_type, int)
        chosen = values.get(mq.MQIACF_TOPIC_STATUS_ATTRS, (_ALL,))
        assert isinstance(chosen, tuple)
        wanted = frozenset(chosen)
        matched = self._matched(pubsub, pattern)
        if not matched:
            raise Reject(mq.MQRCCF_TOPIC_STRING_NOT_FOUND)
        rows = self._topic_rows[status_type]
        fields = self._answers.fields
        if status_type == mq.MQIACF_TOPIC_STATUS:
            lines = self._topic_lines(pubsub, matched)
        elif status_type == mq.MQIACF_TOPIC_SUB:
            lines = self._sub_lines(pubsub, matched)
        else:
            lines = self._pub_lines(pubsub, matched)
        out = [fields(command, rows, line, wanted) for line in lines]
        return responses.numbered(out) if out else responses.success(command)

    def _by_topic(self) -> dict[str, list[NamedObject]]:
        """The subscriptions on each topic string, in name order."""
        subs = self._answers.engine.objects.by_type[sub_kind.OBJECT_TYPE]
        out: dict[str, list[NamedObject]] = {}
        for name in sorted(subs):
            text = _text(subs[name], mq.MQCA_TOPIC_STRING)
            if text:
                out.setdefault(text, []).append(subs[name])
        return out

    def _topic_lines(self, pubsub: PubSub, matched: list[str]) -> list[dict[int, int | str | bytes]]:
        retained = pubsub.retained()
        by_topic = self._by_topic()
        publishers = pubsub.all_publishers()
        out: list[dict[int, int | str | bytes]] = []
        for node in matched:
            line: dict[int, int | str | bytes] = {mq.MQCA_TOPIC_STRING: node, **pubsub.resolve(node)}
            line[mq.MQCA_ADMIN_TOPIC_NAME] = pubsub.admin_node(node)
            line[mq.MQIACF_RETAINED_PUBLICATION] = mq.MQQSO_YES if node in retained else mq.MQQSO_NO
            line[mq.MQIA_PUB_COUNT] = len(publishers.get(node, {}))
            line[mq.MQIA_SUB_COUNT] = len(by_topic.get(node, ()))
            line[mq.MQIA_CLUSTER_PUB_ROUTE] = mq.MQCLROUTE_NONE  # not in a cluster (rules-topic-sub.md section 5)
            out.append(line)
        return out

    def _sub_lines(self, pubsub: PubSub, matched: list[str]) -> list[dict[int, int | str | bytes]]:
        by_topic = self._by_topic()
        active = self._activity(pubsub)
        return [self._sub_values(pubsub, record, active) for node in matched for record in by_topic.get(node, ())]

    def _pub_lines(self, pubsub: PubSub, matched: list[str]) -> list[dict[int, int | str | bytes]]:
        publishers = pubsub.all_publishers()
        out: list[dict[int, int | str | bytes]] = []
        for node in matched:
            for ident, (count, date, clock) in sorted(publishers.get(node, {}).items()):
                out.append(
                    {
                        mq.MQCA_TOPIC_STRING: node,
                        mq.MQBACF_CONNECTION_ID: self._answers.connection_id(ident),
                        mq.MQCACF_LAST_PUB_DATE: date,
                        mq.MQCACF_LAST_PUB_TIME: clock,
                        mq.MQIACF_PUBLISH_COUNT: count,
                    }
                )
        return out
