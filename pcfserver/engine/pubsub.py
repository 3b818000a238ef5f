"""Publish/subscribe on the message layer (issue 19; facts in shared/reference/pubsub.md): publications delivered to
every matching subscription's destination queue, retained publications, subscriptions made through the API.

Where IBM leaves the answer open, the choices and their reasons are rows of ``formats/pubsub-rules.tsv``.

Sans-IO, like the message layer: every call changes memory, records its undo and store operations, and the caller
commits (a durable subscription, a retained publication and every persistent copy go to the store in the same
transaction as the call that made them).

* Subscriptions are the 'sub' kind's objects (engine.objects, type -1): administrative ones (DEFINE SUB, durable) and
  API ones made here (SubscriptionType API; a durable one is stored like any object, a non-durable one lives in
  memory only, named by its SubId, and ends with its session).  :class:`~pcfserver.engine.matching.Matcher` follows
  them as they change (``Objects.listener``).
* Publishing (:meth:`PubSub.publish`): the topic's resolved attributes (topictree) decide: PUB(DISABLED) 2051;
  persistence and priority not given: DEFPSIST / DEFPRTY.  A matching subscription with a SELECTOR receives the
  publication only when the selector (pcfserver.engine.selector) is TRUE on the publication's properties.  Each
  copy: a new MsgId, CorrelId = the subscription's DestinationCorrelId (its SubId unless set; MQCI_NONE: the
  publication's own), the publication's Expiry and ReplyToQ/ReplyToQMgr (none with MQPMO_SUPPRESS_REPLYTO),
  priority the publication's unless the subscription's PUBPRTY names one (0-9) or AS_Q_DEF (the queue's DEFPRTY), and the publish/subscribe properties its PSPROP asks for (NONE none; MSGPROP the message properties
  MQTopicString and, when set, MQSubUserData; RFH2/COMPAT the same in an MQRFH2 mqps folder).  A copy the
  destination refuses (full, put-inhibited, missing, too long) goes to the dead-letter queue behind an MQDLH when
  USEDLQ(YES) and there is one, else it failed (MaxUncommittedMsgs reached by the copies is the publisher's 2024
  instead, chosen); PMSGDLV (persistent) / NPMSGDLV decide: ALL - any failure fails the publication, ALLDUR -
  a failure for a durable subscription does, ALLAVAIL - none does.  A failed publication is delivered to nobody
  (every copy made is undone) and answers MQRC_PUBLICATION_FAILURE 2502; so does one that matched subscriptions and
  reached none of them (the brief of issue 19).  No subscription took it: success (MQRC_NO_SUBS_MATCHED 2550 in the
  session's last_reason when the publisher asked).
* A subscription with an EXPIRY receives nothing once it has passed and is removed (with its managed queue) at the
  next publish or subscribe; DELETE SUB removes a managed destination with its subscription.
* Retained publications: the last retained one per topic string is a message on SYSTEM.RETAINED.PUB.QUEUE whose
  MQTopicString property names the topic (persistent ones stored with the queue's messages, so they survive restart
  exactly as persistent messages do; a non-persistent one lasts until restart, K).  A new subscription receives a
  copy of every retained publication it matches (property MQIsRetained 'true', K name) unless it asks for new
  publications only (MQSUB) or is REQONLY(YES) (DEFINE SUB: defined()); one that cannot be delivered fails the
  subscription, 2526.  A REQONLY(YES) subscription receives no ordinary publication.  Clear Topic String removes it.
* DEFINE SUB DESTCLAS(MANAGED) gets its queue when it is defined (defined()), DELETE SUB removes it.
"""

from __future__ import annotations

import heapq
import time
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, TypeVar

from pcfserver import mq
from pcfserver.engine.authority import operation_allowed
from pcfserver.engine.kinds.sub import DEST, DEST_CLASS, DEST_CORREL, OBJECT_TYPE, SUB_ID, SUB_NAME, TOPIC_STRING, new_sub_id
from pcfserver.engine.kinds.topic import tree
from pcfserver.engine.matching import SCHEME_CHAR, SCHEME_TOPIC, Matcher, Node
from pcfserver.engine.messages import MessageDescriptor, MQIError, descriptor
from pcfserver.engine.messaging import FORMAT_RFH2, FORMAT_STRING, AliasPut, rfh2_header
from pcfserver.engine.registry import NamedObject, Queue
from pcfserver.engine.selector import Predicate, SelectorError, compile_selector
from pcfserver.engine.spec import byte_text, byte_value
from pcfserver.engine.store import DeleteObject, DeleteQueue, PutObject, PutQueue
from pcfserver.engine.topictree import TopicTree, anchor, levels

if TYPE_CHECKING:
    from pcfserver.engine.context import EngineView
    from pcfserver.engine.messaging import MessageLayer, SessionState
    from pcfserver.engine.queues import Queues
    from pcfserver.engine.store import ObjValue

RETAINED_QUEUE = "SYSTEM.RETAINED.PUB.QUEUE"
TOPIC_PROPERTY = "MQTopicString"
USER_DATA_PROPERTY = "MQSubUserData"
RETAINED_PROPERTY = "MQIsRetained"
MANAGED_DURABLE = "SYSTEM.MANAGED.DURABLE."
MANAGED_NON_DURABLE = "SYSTEM.MANAGED.NDURABLE."
MAX_TOPIC_STRING = mq.MQ_TOPIC_STR_LENGTH
_DURABLE = mq.MQIACF_DURABLE_SUBSCRIPTION
_SUB_TYPE = mq.MQIACF_SUB_TYPE
_SCHEMA = mq.MQIACF_WILDCARD_SCHEMA
_PUB_PRIORITY = mq.MQIACF_PUB_PRIORITY
_USER_DATA = mq.MQCACF_SUB_USER_DATA
_SELECTOR = mq.MQCACF_SUB_SELECTOR
_PSPROP = mq.MQIACF_PUBSUB_PROPERTIES
_EXPIRY = mq.MQIACF_EXPIRY
_REQUEST_ONLY = mq.MQIACF_REQUEST_ONLY
_CI_NONE = bytes(mq.MQ_CORREL_ID_LENGTH)
_AS_PUBLISHED = mq.MQPRI_PRIORITY_AS_PUBLISHED
_PSPROP_NONE = mq.MQPSPROP_NONE
_PSPROP_MSGPROP = mq.MQPSPROP_MSGPROP
_RC_NONE = mq.MQRC_NONE
_PUBSUB_MODE = mq.MQIA_PUBSUB_MODE
_PSM_DISABLED = mq.MQPSM_DISABLED
_INHIBIT_PUB = mq.MQIA_INHIBIT_PUB
_PUB_INHIBITED = mq.MQTA_PUB_INHIBITED
_AS_TOPIC_DEF = mq.MQPER_PERSISTENCE_AS_TOPIC_DEF
_PRIORITY_AS_TOPIC_DEF = mq.MQPRI_PRIORITY_AS_TOPIC_DEF
_PM_DELIVERY = mq.MQIA_PM_DELIVERY
_NPM_DELIVERY = mq.MQIA_NPM_DELIVERY
_USE_DLQ = mq.MQIA_USE_DEAD_LETTER_Q
_USEDLQ_YES = mq.MQUSEDLQ_YES
_PERSISTENT = mq.MQPER_PERSISTENT
_MQPS_NAMES = ((TOPIC_PROPERTY, "Top"), (USER_DATA_PROPERTY, "Sud"), (RETAINED_PROPERTY, "Ret"))  # RFH2 folder mqps


def _nothing(properties: object) -> bool:
    return False


@dataclass(frozen=True, slots=True)
class _Target:
    """What delivering to one subscription needs, read from its attributes once per version of the record."""

    record: NamedObject
    correl: bytes
    select: Predicate | None  # the selector (None: every publication; _nothing: a stored selector that does not parse)
    psprop: int
    user_data: str
    priority: int | str  # PUBPRTY as stored
    durable: bool
    dest: str
    dest_qmgr: str
    managed: bool
    admin: bool
    on_request: bool  # REQONLY(YES)
    plain: bool  # a copy is the publication with a new MsgId, its CorrelId and MQTopicString only (PSPROP(MSGPROP), no SUBUSER, PUBPRTY AS_PUBLISHED)
    checks: bool  # a DESTQMGR, or an administrative managed destination whose queue may need making


@dataclass(frozen=True, slots=True)
class SubscriptionInfo:
    """What an API subscriber holds: the subscription's name (its SubId's text for a non-durable one), SubId and the
    queue its publications arrive on."""

    name: str
    sub_id: str
    queue: str
    durable: bool


def _text(attrs: dict[int, ObjValue], pid: int) -> str:
    value = attrs.get(pid, "")
    return value if isinstance(value, str) else ""


_K = TypeVar("_K")


def _bump(table: dict[_K, list[int]], key: _K, second: int) -> None:
    """One more publication counted under ``key`` (its count and the second of the last one)."""
    stats = table.get(key)
    if stats is None:
        table[key] = [1, second]
    else:
        stats[0] += 1
        stats[1] = second


class PubSub:
    """The publish/subscribe engine of one queue manager (owned by the engine, beside the message layer)."""

    def __init__(self, engine: EngineView, layer: MessageLayer, queues: Queues) -> None:
        self._engine = engine
        self._layer = layer
        self._queues = queues
        self._own: SessionState | None = None
        self._matcher = Matcher()
        self._known: dict[str, NamedObject] = {}
        self._synced = False
        self._tree: TopicTree | None = None
        self._stale = False  # a topic object changed since the tree was built
        self._resolved: dict[str, dict[int, int | str]] = {}  # per topic string, until a topic object changes
        self._by_chain: dict[tuple[str, ...], dict[int, int | str]] = {}  # per chain of topic objects above
        self._targets: dict[str, _Target] = {}  # per subscription: what delivering to it needs
        self._matches: dict[str, list[str]] = {}  # per topic string: the matching subscriptions, until one changes
        self._born: dict[str, float] = {}  # SubId -> when made in this process (subscriptions with an EXPIRY only)
        self._deadlines: list[tuple[float, str]] = []  # heap of (expiry instant, subscription name), possibly stale
        self._blocked: tuple[Node, ...] = ()
        self.by_session: dict[int, set[str]] = {}  # session -> its non-durable subscriptions' names
        self.published = 0  # publications accepted since open
        # the status counts: [count, when last (whole seconds since the epoch)], formatted only when asked (_stamped)
        self.topic_stats: dict[str, list[int]] = {}  # topic string -> [publications, last]
        self.sub_stats: dict[str, list[int]] = {}  # subscription -> [messages, last]
        self.pub_stats: dict[tuple[int, str], list[int]] = {}  # (session, topic) -> [publications, last]

    # ------------------------------------------------------------------ following the objects

    def topics(self) -> TopicTree:
        """The topic tree as it is now."""
        self.matcher()
        if self._stale or self._tree is None:
            self._rebuild_tree()
        assert self._tree is not None
        return self._tree

    def resolve(self, topic: str) -> dict[int, int | str]:
        """The topic's resolved attributes (cached per topic string until a topic object changes)."""
        tree_ = self.topics()
        found = self._resolved.get(topic)
        if found is None:
            # the answer depends only on the topic objects above: topics under the same ones share it
            chain = tuple(name for name, _attrs in tree_.chain(topic))
            found = self._by_chain.get(chain)
            if found is None:
                found = self._by_chain[chain] = tree_.resolve(topic)
            if len(self._resolved) >= 10000:
                self._resolved.clear()
            self._resolved[topic] = found
        return found

    def _topic(self, session: SessionState, topic: str, authority: int) -> dict[int, int | str]:
        """A topic string a publisher or subscriber names, checked (2085 empty, 2441 too long, 2035 without
        ``authority``), and its attributes resolved along the topic tree."""
        if not topic:
            raise MQIError(mq.MQRC_UNKNOWN_OBJECT_NAME)
        if len(topic) > MAX_TOPIC_STRING:
            raise MQIError(mq.MQRC_OBJECT_STRING_ERROR)
        self.authorize(session, topic, authority)
        return self.resolve(topic)

    def authorize(self, session: SessionState, topic: str, auth: int) -> None:
        """MQRC_NOT_AUTHORIZED 2035 unless the session's identity holds ``auth`` (PUB or SUB) on a topic object at or
        above the topic string: IBM checks the closest topic object, then each one above it up to SYSTEM.BASE.TOPIC,
        and any of them granting it is enough (IBM "Publish/subscribe security", K for the exact walk)."""
        identity = session.identity
        if identity is None:
            return
        records = self._engine.authority
        for name, _attrs in self.topics().chain(topic):
            if operation_allowed(records, identity, mq.MQOT_TOPIC, name, auth):
                return
        raise MQIError(mq.MQRC_NOT_AUTHORIZED)

    def _rebuild_tree(self) -> None:
        self._stale = False
        self._matches = {}
        self._resolved = {}
        self._by_chain = {}
        objects = self._engine.objects
        self._tree = tree(self._engine)
        blocked = []
        for record in objects.by_type[mq.MQOT_TOPIC].values():
            text = _text(record.attrs, mq.MQCA_TOPIC_STRING)
            if text and record.attrs.get(mq.MQIA_WILDCARD_OPERATION) == mq.MQTA_BLOCK:
                blocked.append(levels(anchor(text)))
        self._blocked = tuple(blocked)

    def matcher(self) -> Matcher:
        """The matcher of every subscription (built at first use, then kept up to date by :meth:`changed`)."""
        if not self._synced:
            self._rebuild_tree()
            subs = self._engine.objects.by_type[OBJECT_TYPE]
            for name in subs:
                self._follow(name, subs.get(name))
            self._synced = True
        return self._matcher

    def changed(self, object_type: int, name: str) -> None:
        """A subscription or topic object changed (``Objects.listener``): a subscription is added under the
        WILDCARD(BLOCK) nodes of the topic objects as they are now (IBM applies WILDCARD when a subscription is
        made); one loaded at open is added under the topic objects as they are then (chosen, K)."""
        if not self._synced:
            return  # the first matcher() call takes everything as it is then
        if object_type == OBJECT_TYPE:
            if self._stale:
                self._rebuild_tree()  # the topic objects as they are when this subscription changes
            self._follow(name, self._engine.objects.by_type[OBJECT_TYPE].get(name))
        else:
            self._stale = True

    def _follow(self, name: str, record: NamedObject | None) -> None:
        known = self._known.get(name)
        if known is record:
            return
        self._targets.pop(name, None)
        if record is not None and known is not None and self._same_pattern(known, record):
            self._known[name] = record  # DEST, PUBPRTY, ... changed: looked up at publish time
            self._watch_expiry(name, record)
            return
        if known is not None:
            self._matcher.remove(name)
            self._matches = {}
            del self._known[name]
        if record is None:
            self.sub_stats.pop(name, None)
            return
        topic = _text(record.attrs, TOPIC_STRING)
        if not topic:
            return  # SYSTEM.DEFAULT.SUB: a template, not a subscription
        scheme = SCHEME_CHAR if record.attrs.get(_SCHEMA) == mq.MQWS_CHAR else SCHEME_TOPIC
        try:
            self._matcher.add(name, topic, scheme, self._blocked)
            self._matches = {}
        except MQIError:
            return  # a pattern the character scheme refuses matches nothing
        self._known[name] = record
        self._watch_expiry(name, record)

    @staticmethod
    def _same_pattern(a: NamedObject, b: NamedObject) -> bool:
        return a.attrs.get(TOPIC_STRING) == b.attrs.get(TOPIC_STRING) and a.attrs.get(_SCHEMA) == b.attrs.get(_SCHEMA)

    # ------------------------------------------------------------------ subscription expiry

    def _watch_expiry(self, name: str, record: NamedObject) -> None:
        """A subscription with an EXPIRY: its end goes on the heap (from when it was made: this process's clock for
        one made since open, else its creation date and time)."""
        expiry = record.attrs.get(_EXPIRY, mq.MQEI_UNLIMITED)
        if not isinstance(expiry, int) or expiry == mq.MQEI_UNLIMITED or expiry < 0:
            return
        heapq.heappush(self._deadlines, (self._born_at(record) + expiry / 10, name))

    def _born_at(self, record: NamedObject) -> float:
        """When a subscription with an EXPIRY was made, kept by SubId from the first time it is seen: this process's
        clock for one made since open, else its creation date and time (whole seconds)."""
        sub_id = _text(record.attrs, SUB_ID)
        born = self._born.get(sub_id)
        if born is not None:
            return born
        born = self._layer.clock()
        if not self._synced:  # loaded at open
            try:
                stamp = f"{_text(record.attrs, mq.MQCA_CREATION_DATE)} {_text(record.attrs, mq.MQCA_CREATION_TIME)}"
                born = time.mktime(time.strptime(stamp, "%Y-%m-%d %H.%M.%S"))
            except ValueError:
                pass
        self._born[sub_id] = born
        return born

    def expire(self) -> list[str]:
        """Removes every subscription whose EXPIRY has passed (with its managed queue, as DELETE SUB does); answers
        their names.  IBM: no publication matches it any more once it has expired (SubExpiry, q100160_); removed
        here at the next publish or subscribe after that (chosen, formats/pubsub-rules.tsv)."""
        deadlines = self._deadlines
        if not deadlines:
            return []
        now = self._layer.clock()
        gone: list[str] = []
        subs = self._engine.objects.by_type[OBJECT_TYPE]
        while deadlines and deadlines[0][0] <= now:
            _, name = heapq.heappop(deadlines)
            record = subs.get(name)
            if record is None or self._known.get(name) is not record:
                continue
            expiry = record.attrs.get(_EXPIRY, mq.MQEI_UNLIMITED)
            if not isinstance(expiry, int) or expiry < 0 or self._born_at(record) + expiry / 10 > now:
                continue  # altered since this entry was pushed: a newer entry stands for it
            self.remove(name)
            gone.append(name)
        return gone

    def remove(self, name: str) -> None:
        """A subscription goes (expired, ended through the API): its managed queue and what that holds go too."""
        record = self._engine.objects.by_type[OBJECT_TYPE].get(name)
        if record is None:
            raise MQIError(mq.MQRC_NO_SUBSCRIPTION)
        durable = record.attrs.get(_DURABLE, mq.MQSUB_DURABLE_YES) == mq.MQSUB_DURABLE_YES
        self._put_sub(name, None, stored=durable)
        self.deleted(record)

    def deleted(self, record: NamedObject) -> None:
        """What goes with a subscription (DELETE SUB, the API's removal, expiry): its managed queue, with whatever
        it still holds (IBM DELETE SUB: a managed destination's unprocessed messages are thrown away)."""
        name = record.name
        for owned in self.by_session.values():
            owned.discard(name)
        if record.attrs.get(DEST_CLASS) == mq.MQDC_MANAGED:
            self._drop_queue(_text(record.attrs, DEST))

    # ------------------------------------------------------------------ publishing

    def publish(
        self,
        session: SessionState,
        topic: str,
        body: bytes,
        retain: bool = False,  # the rest may be given by position too (Session.publish does: a cheaper call)
        persistence: int | None = None,
        priority: int | None = None,
        expiry: int | None = None,
        properties: tuple[tuple[str, str], ...] = (),
        syncpoint: bool = False,
        warn_if_no_subs: bool = False,
        correl_id: bytes | None = None,
        reply_to_q: str = "",
        reply_to_qmgr: str = "",
        suppress_reply_to: bool = False,
        format: str = FORMAT_STRING,
        held: bool = True,
    ) -> MessageDescriptor:
        """One publication (MQPUT to a topic); answers the descriptor as the publisher put it.  ``expiry`` (tenths of
        a second, MQMD Expiry) goes onto every copy.  ``correl_id`` (MQMD CorrelId) reaches the copies of the
        subscriptions whose correlation id is MQCI_NONE (IBM SubCorrelId q100150_: set with MQSO_SET_CORREL_ID and
        MQCI_NONE, "the correlation identifier created by the original put"); the others carry their own.
        ``reply_to_q``/``reply_to_qmgr`` (ReplyToQMgr blank: this queue manager, as MQPUT) go onto every copy
        (fields a subscription does not change come from the published message) unless ``suppress_reply_to``
        (MQPMO_SUPPRESS_REPLYTO, which strips them from the copies).  ``warn_if_no_subs`` (MQPMO_WARN_IF_NO_SUBS_MATCHED): when no
        subscription took a copy the call still succeeds, leaving MQRC_NO_SUBS_MATCHED 2550 in ``session.last_reason``
        (IBM's warning); without it, success and no reason."""
        engine = self._engine
        session.last_reason = _RC_NONE
        if engine.qmgr_attr(_PUBSUB_MODE) == _PSM_DISABLED:
            raise MQIError(mq.MQRC_PUBSUB_INHIBITED)
        resolved = None
        if self._synced and not self._stale and session.identity is None and topic and len(topic) <= MAX_TOPIC_STRING:
            resolved = self._resolved.get(topic)  # the usual case: a topic published to before, the tree unchanged
        if resolved is None:
            resolved = self._topic(session, topic, mq.MQAUTH_PUBLISH)
        if resolved[_INHIBIT_PUB] == _PUB_INHIBITED:
            raise MQIError(mq.MQRC_PUT_INHIBITED)
        if persistence is None or persistence == _AS_TOPIC_DEF:
            persistence = int(resolved[mq.MQIA_TOPIC_DEF_PERSISTENCE])
        if priority is None or priority == _PRIORITY_AS_TOPIC_DEF:
            priority = int(resolved[mq.MQIA_DEF_PRIORITY])
        layer = self._layer
        own = tuple(p for p in properties if p[0] != TOPIC_PROPERTY) if properties else properties
        md = layer.publication_descriptor(
            session, persistence, priority, own, format, expiry=expiry, correl_id=correl_id, reply_to_q=reply_to_q, reply_to_qmgr=reply_to_qmgr
        )
        copied = replace(md, reply_to_q="", reply_to_qmgr="") if suppress_reply_to and md.reply_to_q else md
        if self._deadlines:
            self.expire()
        mark = engine.mark()
        try:
            reached = self._deliver_all(session, topic, copied, body, resolved, syncpoint, mark)
            if retain:
                self._retain(session, topic, copied, body, syncpoint)
        except MQIError:
            engine.rollback_to(mark)  # delivered to nobody
            raise
        self._count(topic, reached, session.ident if held else None)
        if warn_if_no_subs and not reached:
            session.last_reason = mq.MQRC_NO_SUBS_MATCHED
        return md

    def publish_through(self, session: SessionState, topic_object: str, body: bytes, put: AliasPut) -> MessageDescriptor:
        """A put to an alias queue whose target is a topic object (TARGTYPE(TOPIC)): a publication on that object's
        topic string, as IBM MQ makes it.  The message layer calls this (``MessageLayer.publish_alias``)."""
        record = self._engine.objects.get(mq.MQOT_TOPIC, topic_object)
        if record is None:
            raise MQIError(mq.MQRC_UNKNOWN_ALIAS_BASE_Q)
        topic = str(record.attrs.get(mq.MQCA_TOPIC_STRING, ""))
        return self.publish(
            session, topic, body, False, put.persistence, put.priority, put.expiry, put.properties, put.syncpoint, False, put.correl_id,
            put.reply_to_q, put.reply_to_qmgr, format=put.format, held=False,
        )

    def _count(self, topic: str, reached: list[str], publisher: int | None) -> None:
        """The status counts of a publication that went out (Inquire Topic/Subscription Status: NUMPUBS, NUMMSGS and
        the last dates and times; counted when published, a later backout does not take them back: chosen, K).  Kept
        in memory only: they start again at restart (K).  The instant is kept as whole seconds and formatted when a
        status is asked for (:func:`_stamped`)."""
        second = int(time.time())
        self.published += 1
        _bump(self.topic_stats, topic, second)
        if publisher is not None:  # (None: a publication made and closed in one call, MQPUT1: no publisher stays on the topic)
            _bump(self.pub_stats, (publisher, topic), second)
        sub_stats = self.sub_stats
        for name in reached:
            _bump(sub_stats, name, second)

    def _target(self, name: str) -> _Target:
        """What delivering to a subscription needs (cached until its record changes)."""
        target = self._targets.get(name)
        if target is not None:
            return target
        record = self._known[name]
        attrs = record.attrs
        text = attrs.get(DEST_CORREL) or attrs.get(SUB_ID, "")
        assert isinstance(text, str)
        select: Predicate | None
        try:
            select = compile_selector(_text(attrs, _SELECTOR))
        except SelectorError:
            select = _nothing  # a selector that does not parse (stored before it was checked) selects nothing
        psprop = attrs.get(_PSPROP, _PSPROP_MSGPROP)
        user_data = attrs.get(_USER_DATA, "")
        target = self._targets[name] = _Target(
            record,
            byte_value(text, 24),
            select,
            psprop if isinstance(psprop, int) else _PSPROP_MSGPROP,
            user_data if isinstance(user_data, str) else "",
            attrs.get(_PUB_PRIORITY, _AS_PUBLISHED),  # type: ignore[arg-type]
            attrs.get(_DURABLE, mq.MQSUB_DURABLE_YES) == mq.MQSUB_DURABLE_YES,
            _text(attrs, DEST),
            _text(attrs, mq.MQCACF_DESTINATION_Q_MGR),
            attrs.get(DEST_CLASS) == mq.MQDC_MANAGED,
            attrs.get(_SUB_TYPE, mq.MQSUBTYPE_ADMIN) == mq.MQSUBTYPE_ADMIN,
            attrs.get(_REQUEST_ONLY, mq.MQRU_PUBLISH_ALL) == mq.MQRU_PUBLISH_ON_REQUEST,
            False,
            False,
        )
        plain = target.psprop == _PSPROP_MSGPROP and not target.user_data and target.priority == _AS_PUBLISHED
        checks = bool(target.dest_qmgr) or (target.managed and target.admin)
        if plain or checks:
            target = self._targets[name] = replace(target, plain=plain, checks=checks)
        return target

    def _deliver_all(
        self, session: SessionState, topic: str, md: MessageDescriptor, body: bytes, resolved: dict[int, int | str], syncpoint: bool,
        mark: tuple[int, int] | None = None,
    ) -> list[str]:
        """Delivers the copies to the matching subscriptions whose selector takes the publication; answers the
        subscriptions reached.  ``mark``: where the unit of work stood when publishing began (nothing recorded since),
        the savepoint of the first copy."""
        names = self._matches.get(topic)
        if names is None:
            names = [str(key) for key in self.matcher().match(topic)]
            if len(self._matches) >= 10000:
                self._matches.clear()
            self._matches[topic] = names
        if not names:
            return []
        rule = resolved[_PM_DELIVERY if md.persistence == _PERSISTENT else _NPM_DELIVERY]
        use_dlq = resolved[_USE_DLQ] == _USEDLQ_YES
        delivered: list[str] = []
        wanted = 0
        properties: dict[str, str] | None = None
        with_topic: tuple[tuple[str, str], ...] | None = None
        targets = self._targets
        layer = self._layer
        new_msg_id = layer.new_msg_id
        deliver = layer.deliver
        engine_mark = self._engine.mark
        for name in names:
            target = targets.get(name) or self._target(name)
            if target.on_request:
                continue  # REQONLY(YES): retained publications only, when asked (IBM MQSO_PUBLICATIONS_ON_REQUEST)
            if target.select is not None:
                if properties is None:
                    properties = dict(md.properties)
                if not target.select(properties):
                    continue
            wanted += 1
            if target.plain:  # _copy's usual case, inline
                if with_topic is None:
                    with_topic = (*md.properties, (TOPIC_PROPERTY, topic))
                copy = descriptor(
                    new_msg_id(), md.correl_id if target.correl == _CI_NONE else target.correl, md.priority, md.persistence, md.expiry,
                    md.format, md.reply_to_q, md.reply_to_qmgr, md.put_appl_name, md.put_date, md.put_time, md.user_identifier,
                    md.backout_count, md.encoding, md.coded_char_set_id, with_topic,
                )
                data = body
            else:
                copy, data = self._copy(target, topic, md, body)
            if mark is None:
                mark = engine_mark()
            if target.checks:
                reached = self._deliver_copy(session, target, copy, data, syncpoint, use_dlq, mark)
            else:  # _deliver_copy's usual case, inline
                try:
                    deliver(session, target.dest, copy, data, syncpoint, managed=target.managed)
                    reached = True
                except MQIError as error:
                    reached = self._undelivered(session, target, copy, data, syncpoint, use_dlq, mark, error)
            mark = None  # the next copy's savepoint is where this one left the unit of work
            if reached:
                delivered.append(name)
            elif rule == mq.MQDLV_ALL or (rule == mq.MQDLV_ALL_DUR and target.durable):
                raise MQIError(mq.MQRC_PUBLICATION_FAILURE)
        if wanted and not delivered:
            raise MQIError(mq.MQRC_PUBLICATION_FAILURE)
        return delivered

    def _copy(self, target: _Target, topic: str, md: MessageDescriptor, body: bytes, retained: bool = False) -> tuple[MessageDescriptor, bytes]:
        """One subscription's copy: its own MsgId, its CorrelId and priority, and the publish/subscribe properties
        its PSPROP asks for (NONE: none; MSGPROP: message properties; RFH2 and COMPAT: an MQRFH2 with an mqps folder
        before the body, formats/pubsub-rules.tsv)."""
        priority = md.priority
        wanted = target.priority
        if wanted != _AS_PUBLISHED:
            if isinstance(wanted, int) and 0 <= wanted <= 9:
                priority = wanted
            elif wanted == mq.MQPRI_PRIORITY_AS_Q_DEF:
                queue = self._engine.queue(_text(target.record.attrs, DEST))
                priority = int(queue.attrs.get(mq.MQIA_DEF_PRIORITY, 0)) if queue is not None else md.priority
        psprop = target.psprop
        properties = md.properties
        fmt = md.format
        if psprop != _PSPROP_NONE:
            added: tuple[tuple[str, str], ...] = ((TOPIC_PROPERTY, topic),)
            if target.user_data:
                added += ((USER_DATA_PROPERTY, target.user_data),)
            if retained:
                added += ((RETAINED_PROPERTY, "true"),)
            if psprop == _PSPROP_MSGPROP:
                properties = (*properties, *added)
            else:
                body = rfh2_header("mqps", _mqps(added), md.encoding, md.coded_char_set_id, md.format) + body
                fmt = FORMAT_RFH2
        return descriptor(
            self._layer.new_msg_id(), md.correl_id if target.correl == _CI_NONE else target.correl, priority, md.persistence, md.expiry, fmt, md.reply_to_q, md.reply_to_qmgr,
            md.put_appl_name, md.put_date, md.put_time, md.user_identifier, md.backout_count, md.encoding, md.coded_char_set_id,
            properties,
        ), body

    def _deliver_copy(
        self, session: SessionState, target: _Target, md: MessageDescriptor, body: bytes, syncpoint: bool, use_dlq: bool,
        mark: tuple[int, int] | None = None,
    ) -> bool:
        """One copy onto its subscription's destination (else, with ``use_dlq``, the dead-letter queue); whether it
        went.  ``mark``: the savepoint to go back to when it fails (None: where the unit of work stands now)."""
        dest = target.dest
        dest_qmgr = target.dest_qmgr
        engine = self._engine
        if mark is None:
            mark = engine.mark()
        try:
            if not target.checks:
                pass
            elif dest_qmgr and dest_qmgr != engine.qmgr_name:
                raise MQIError(mq.MQRC_UNKNOWN_REMOTE_Q_MGR)  # no channels here (formats/messaging-rules.tsv)
            elif target.managed and target.admin and engine.queue(dest) is None:
                # DEFINE SUB DESTCLAS(MANAGED) makes its queue (defined()); one defined before it did (an older data
                # directory) or whose queue was deleted gets it from the topic's MDURMDL here
                model = self.resolve(_text(target.record.attrs, TOPIC_STRING))[mq.MQCA_MODEL_DURABLE_Q]
                self._make_managed_queue(dest, str(model), True)
            self._layer.deliver(session, dest, md, body, syncpoint, managed=target.managed)
            return True
        except MQIError as error:
            return self._undelivered(session, target, md, body, syncpoint, use_dlq, mark, error)

    def _undelivered(
        self, session: SessionState, target: _Target, md: MessageDescriptor, body: bytes, syncpoint: bool, use_dlq: bool,
        mark: tuple[int, int], error: MQIError,
    ) -> bool:
        """A copy its destination refused (``error``): what it did is undone back to ``mark``; with ``use_dlq`` it goes
        to the dead-letter queue instead (whether it did)."""
        engine = self._engine
        engine.rollback_to(mark)
        if error.reason == mq.MQRC_SYNCPOINT_LIMIT_REACHED:
            raise error  # the publisher's unit of work is full, not a subscriber's queue: the publication fails
        if not use_dlq:
            return False
        try:
            return self._layer.dead_letter(session, md, body, error.reason, target.dest, target.dest_qmgr or engine.qmgr_name, syncpoint)
        except MQIError:
            engine.rollback_to(mark)
            return False

    # ------------------------------------------------------------------ status (DISPLAY TPSTATUS / SBSTATUS: pubsub_status.py)

    def subscription_status(self, name: str) -> tuple[int, str, str]:
        """NUMMSGS, LMSGDATE, LMSGTIME of a subscription (zero and blanks before its first message)."""
        stats = self.sub_stats.get(name)
        return (0, "", "") if stats is None else _stamped(stats)

    def topic_status(self, topic: str) -> dict[int, int | str]:
        """A topic node's TYPE(TOPIC) status: its resolved attributes (never "as parent"), the topic object of this
        very node (ADMIN: blank when no topic object names it, IBM's "admin node"), whether it holds a retained
        publication, the subscriptions made on this very node (SUBCOUNT: their topic string is the node's, wildcard
        ones included), the publications since open and PUBCOUNT (the live sessions that have published on it: a
        session that publishes holds the topic open until it ends, chosen)."""
        out: dict[int, int | str] = dict(self.resolve(topic))
        out[mq.MQCA_ADMIN_TOPIC_NAME] = self.admin_node(topic)
        out[mq.MQIACF_RETAINED_PUBLICATION] = mq.MQQSO_YES if topic in self.retained() else mq.MQQSO_NO
        self.matcher()
        out[mq.MQIA_SUB_COUNT] = sum(1 for record in self._known.values() if _text(record.attrs, TOPIC_STRING) == topic)
        out[mq.MQIA_PUB_COUNT] = len(self.publishers(topic))
        out[mq.MQIACF_PUBLISH_COUNT] = self.topic_stats.get(topic, (0,))[0]
        return out

    def admin_node(self, topic: str) -> str:
        """The topic object whose TOPICSTR is this very node (DISPLAY TPSTATUS ADMIN), blank when there is none."""
        found = self.topics().chain(topic)
        if not found:
            return ""
        name, attrs = found[0]
        text = attrs.get(mq.MQCA_TOPIC_STRING, "")
        own = levels(anchor(text)) if isinstance(text, str) and text else ()
        return name if own == levels(topic) else ""

    def publishers(self, topic: str) -> dict[int, tuple[int, str, str]]:
        """The live sessions that have published on ``topic`` (its publishers, TPSTATUS TYPE(PUB)): NUMPUBS, LPUBDATE,
        LPUBTIME of each."""
        return self.all_publishers().get(topic, {})

    def all_publishers(self) -> dict[str, dict[int, tuple[int, str, str]]]:
        """Every topic's publishers (as :meth:`publishers`); the records of sessions that ended are dropped here."""
        live = self._layer.sessions
        out: dict[str, dict[int, tuple[int, str, str]]] = {}
        for key in list(self.pub_stats):
            ident, text = key
            if ident not in live:
                del self.pub_stats[key]
            else:
                out.setdefault(text, {})[ident] = _stamped(self.pub_stats[key])
        return out

    def nodes(self) -> set[str]:
        """The topic tree's nodes: the topic objects' strings, the subscriptions', the retained publications' and those
        published to since open, with every level above each (not the root)."""
        found: set[str] = set()
        for record in self._engine.objects.by_type[mq.MQOT_TOPIC].values():
            found.add(anchor(_text(record.attrs, mq.MQCA_TOPIC_STRING)))
        for record in self._engine.objects.by_type[OBJECT_TYPE].values():
            found.add(_text(record.attrs, TOPIC_STRING))
        found.update(self.retained())
        found.update(self.topic_stats)
        out: set[str] = set()
        for text in found:
            if not text:
                continue
            parts = text.split("/")
            out.update("/".join(parts[:n]) for n in range(1, len(parts) + 1))
        return out

    # ------------------------------------------------------------------ retained publications

    def retained(self) -> dict[str, tuple[MessageDescriptor, bytes]]:
        """The retained publication of each topic string, by topic: of the committed ones on the queue, the last
        published (a unit of work that replaced it and is backed out leaves the older one; the next retained
        publication or CLEAR TOPICSTR removes every one of the topic)."""
        out: dict[str, tuple[MessageDescriptor, bytes]] = {}
        for m in self._layer.take_all(RETAINED_QUEUE):
            topic = dict(m.md.properties).get(TOPIC_PROPERTY)
            if topic is not None:
                out[topic] = (m.md, m.body)
        return out

    def _retain(self, session: SessionState, topic: str, md: MessageDescriptor, body: bytes, syncpoint: bool) -> None:
        if self._engine.queue(RETAINED_QUEUE) is None:
            raise MQIError(mq.MQRC_RETAINED_MSG_Q_ERROR)
        self.clear_retained(session, topic, syncpoint)
        kept = replace(md, msg_id=self._layer.new_msg_id(), properties=(*md.properties, (TOPIC_PROPERTY, topic)))
        self._layer.deliver(session, RETAINED_QUEUE, kept, body, syncpoint)

    def clear_retained(self, session: SessionState | None, topic: str, syncpoint: bool = False) -> bool:
        """Removes the retained publication of ``topic`` (CLEAR TOPICSTR); whether there was one."""
        found = False
        for m in self._layer.take_all(RETAINED_QUEUE):
            if dict(m.md.properties).get(TOPIC_PROPERTY) == topic:
                state = session if session is not None else self._own_session()
                self._layer.get(state, RETAINED_QUEUE, msg_id=m.md.msg_id, syncpoint=syncpoint and session is not None, authorize=False)
                found = True
        return found

    def _own_session(self) -> SessionState:
        if self._own is None:
            self._own = self._layer.open_session("pcfserver pubsub")
            self._own.system = True
        return self._own

    # ------------------------------------------------------------------ subscriptions made through the API

    def subscribe(
        self, session: SessionState, topic: str, *, name: str | None = None, durable: bool = False, new_publications_only: bool = False,
        wildcard_schema: int = mq.MQWS_TOPIC, selector: str = "", correl_id: bytes | None = None,
    ) -> SubscriptionInfo:
        """MQSUB with a managed destination: a durable subscription is made (or resumed, by its name) and stored; a
        non-durable one lasts until :meth:`unsubscribe` or its session ends.  ``selector``: the SelectionString
        (pcfserver.engine.selector); one that is not a selector fails MQRC_SELECTION_NOT_AVAILABLE 2551 when the
        subscription is made (IBM "Message selector syntax": there is no extended selection provider here) and
        MQRC_SELECTOR_SYNTAX_ERROR 2459 when one is resumed.  ``correl_id``: MQSO_SET_CORREL_ID with this
        SubCorrelId (MQCI_NONE: each copy keeps the publication's CorrelId, IBM q100150_); None: the SubId."""
        engine = self._engine
        if engine.qmgr_attr(mq.MQIA_PUBSUB_MODE) == mq.MQPSM_DISABLED:
            raise MQIError(mq.MQRC_PUBSUB_INHIBITED)
        if self._deadlines:
            self.expire()
        subs = engine.objects.by_type[OBJECT_TYPE]
        if durable:
            if not name:
                raise MQIError(mq.MQRC_SUB_NAME_ERROR)
            existing = subs.get(name)
            if existing is not None:  # MQSO_RESUME
                _check_selector(selector, mq.MQRC_SELECTOR_SYNTAX_ERROR)
                if _text(existing.attrs, TOPIC_STRING) != topic:
                    raise MQIError(mq.MQRC_SUB_ALREADY_EXISTS)
                if selector.strip() and selector != _text(existing.attrs, _SELECTOR):
                    raise MQIError(mq.MQRC_SELECTOR_NOT_ALTERABLE)
                return self._info(existing)
        _check_selector(selector, mq.MQRC_SELECTION_NOT_AVAILABLE)
        resolved = self._topic(session, topic, mq.MQAUTH_SUBSCRIBE)
        if resolved[mq.MQIA_INHIBIT_SUB] == mq.MQTA_SUB_INHIBITED:
            raise MQIError(mq.MQRC_SUB_INHIBITED)
        if durable and resolved[mq.MQIA_DURABLE_SUB] == mq.MQSUB_DURABLE_INHIBITED:
            raise MQIError(mq.MQRC_DURABILITY_NOT_ALLOWED)
        if wildcard_schema == mq.MQWS_CHAR:
            Matcher().add(0, topic, SCHEME_CHAR)  # refuses a bad '%' (2425) before anything is made
        sub_id = new_sub_id(engine)
        queue = (MANAGED_DURABLE if durable else MANAGED_NON_DURABLE) + sub_id[-16:]
        model = resolved[mq.MQCA_MODEL_DURABLE_Q if durable else mq.MQCA_MODEL_NON_DURABLE_Q]
        mark = engine.mark()
        self._make_managed_queue(queue, str(model), durable)
        date, clock = engine.now()
        key = name if durable and name else sub_id
        attrs: dict[int, ObjValue] = {
            **_sub_defaults(),
            SUB_NAME: key,
            SUB_ID: sub_id,
            TOPIC_STRING: topic,
            DEST: queue,
            DEST_CLASS: mq.MQDC_MANAGED,
            DEST_CORREL: sub_id if correl_id is None else byte_text(correl_id[: mq.MQ_CORREL_ID_LENGTH], mq.MQ_CORREL_ID_LENGTH),
            _SCHEMA: wildcard_schema,
            _SELECTOR: selector,
            mq.MQIACF_SELECTOR_TYPE: mq.MQSELTYPE_STANDARD if selector.strip() else mq.MQSELTYPE_NONE,
            _DURABLE: mq.MQSUB_DURABLE_YES if durable else mq.MQSUB_DURABLE_NO,
            _SUB_TYPE: mq.MQSUBTYPE_API,
            mq.MQCACF_SUB_USER_ID: session.user,
            mq.MQCA_CREATION_DATE: date,
            mq.MQCA_CREATION_TIME: clock,
            mq.MQCA_ALTERATION_DATE: date,
            mq.MQCA_ALTERATION_TIME: clock,
        }
        record = NamedObject(key, attrs)
        self._put_sub(key, record, stored=durable)
        if not durable:
            owned = self.by_session.setdefault(session.ident, set())
            owned.add(key)
            engine.record_undo(lambda: owned.discard(key))
        if not new_publications_only:
            try:
                self.send_retained(session, record)
            except MQIError:
                engine.rollback_to(mark)  # IBM RC2526: the subscription is not created
                raise
        return self._info(record)

    def defined(self, record: NamedObject, old: NamedObject | None) -> None:
        """An administrative subscription is defined (DEFINE SUB, Copy, Replace), in the command's unit of work: a
        managed destination gets its queue now, from the topic's MDURMDL (IBM makes it with the subscription), and
        a new subscription receives the retained publications it matches unless REQONLY(YES)
        (formats/pubsub-rules.tsv)."""
        attrs = record.attrs
        if attrs.get(DEST_CLASS) == mq.MQDC_MANAGED:
            dest = _text(attrs, DEST)
            if dest and self._engine.queue(dest) is None:
                model = self.resolve(_text(attrs, TOPIC_STRING))[mq.MQCA_MODEL_DURABLE_Q]
                self._make_managed_queue(dest, str(model), True)
        if old is None and attrs.get(_REQUEST_ONLY, mq.MQRU_PUBLISH_ALL) != mq.MQRU_PUBLISH_ON_REQUEST:
            self.send_retained(self._own_session(), record)

    def send_retained(self, session: SessionState, record: NamedObject) -> None:
        """Copies of the retained publications a new subscription matches onto its destination, outside syncpoint
        in the caller's unit of work.  One that neither its destination nor (USEDLQ) the dead-letter queue takes
        fails the subscription: MQRC_RETAINED_NOT_DELIVERED 2526 (IBM RC2526: the subscription is not created)."""
        retained = self.retained()
        if not retained:
            return
        probe = Matcher()
        scheme = SCHEME_CHAR if record.attrs.get(_SCHEMA) == mq.MQWS_CHAR else SCHEME_TOPIC
        probe.add(0, _text(record.attrs, TOPIC_STRING), scheme, self._blocked)
        self.matcher()
        target = self._target(record.name) if self._known.get(record.name) is record else None
        if target is None:
            return
        for topic in sorted(retained):  # in topic string order (chosen: IBM documents none)
            md, body = retained[topic]
            if not probe.match(topic):
                continue
            own = tuple(p for p in md.properties if p[0] != TOPIC_PROPERTY)
            if target.select is not None and not target.select(dict(own)):
                continue
            copy, data = self._copy(target, topic, replace(md, properties=own), body, retained=True)
            use_dlq = self.resolve(topic)[mq.MQIA_USE_DEAD_LETTER_Q] == mq.MQUSEDLQ_YES
            if not self._deliver_copy(session, target, copy, data, False, use_dlq):
                raise MQIError(mq.MQRC_RETAINED_NOT_DELIVERED)

    def unsubscribe(self, name: str) -> None:
        """Ends a subscription made through the API (MQCLOSE with MQCO_REMOVE_SUB for a durable one): it goes, with
        its managed queue and whatever that still holds."""
        self.remove(name)

    def end_session(self, session: SessionState) -> None:
        """The session ends: its non-durable subscriptions go (undone with the command that ended it, STOP CONN)."""
        names = self.by_session.pop(session.ident, set())
        if names:
            self._engine.record_undo(lambda: self.by_session.__setitem__(session.ident, names))
        for name in sorted(names):
            if name in self._engine.objects.by_type[OBJECT_TYPE]:
                self.unsubscribe(name)

    def _info(self, record: NamedObject) -> SubscriptionInfo:
        attrs = record.attrs
        return SubscriptionInfo(record.name, _text(attrs, SUB_ID), _text(attrs, DEST), attrs.get(_DURABLE) == mq.MQSUB_DURABLE_YES)

    def _put_sub(self, name: str, record: NamedObject | None, *, stored: bool) -> None:
        engine = self._engine
        objects = engine.objects
        table = objects.by_type[OBJECT_TYPE]
        old = table.get(name)
        if record is None:
            table.pop(name, None)
            if stored:
                engine.record_op(DeleteObject(OBJECT_TYPE, name))
        else:
            table[name] = record
            if stored:
                engine.record_op(PutObject(OBJECT_TYPE, name, tuple(record.attrs.items())))
        objects.touch(OBJECT_TYPE, name)

        def undo() -> None:
            if old is None:
                table.pop(name, None)
            else:
                table[name] = old
            objects.touch(OBJECT_TYPE, name)

        engine.record_undo(undo)

    def _make_managed_queue(self, name: str, model_name: str, durable: bool) -> None:
        """A managed subscription's queue: a local queue with the model's attributes (MDURMDL/MNDURMDL), permanent
        dynamic for a durable subscription, temporary dynamic for a non-durable one (IBM's shipped models)."""
        engine = self._engine
        model = engine.queue(model_name) if model_name.strip() else None
        if model is None or model.qtype != mq.MQQT_MODEL:
            raise MQIError(mq.MQRC_INVALID_DESTINATION)
        if not durable and model.attrs.get(mq.MQIA_DEFINITION_TYPE) not in (mq.MQQDT_TEMPORARY_DYNAMIC, mq.MQQDT_PERMANENT_DYNAMIC):
            raise MQIError(mq.MQRC_INVALID_DESTINATION)
        if durable and model.attrs.get(mq.MQIA_DEFINITION_TYPE) == mq.MQQDT_TEMPORARY_DYNAMIC:
            raise MQIError(mq.MQRC_INVALID_DESTINATION)  # MDURMDL must not be TEMPDYN (RC2522)
        queues = self._queues
        defaults = dict(queues.table_defaults[mq.MQQT_LOCAL])
        attrs = {pid: model.attrs.get(pid, value) for pid, value in defaults.items()}
        attrs[mq.MQIA_DEFINITION_TYPE] = mq.MQQDT_PERMANENT_DYNAMIC if durable else mq.MQQDT_TEMPORARY_DYNAMIC
        attrs = queues.new_attrs(mq.MQQT_LOCAL, attrs, None)
        queues.publish(name, Queue(name, mq.MQQT_LOCAL, attrs), PutQueue(name, mq.MQQT_LOCAL, attrs))

    def _drop_queue(self, name: str) -> None:
        engine = self._engine
        if engine.queue(name) is None:
            return
        layer = self._layer
        if layer.queues.get(name) is not None:
            layer.clear(name)
        self._queues.publish(name, None, DeleteQueue(name))

    def recover(self) -> None:
        """At open: non-durable subscriptions did not survive, so their managed queues go too (with what they held)."""
        for name in self._engine.queue_names():
            if name.startswith(MANAGED_NON_DURABLE):
                self._drop_queue(name)


def _stamped(stats: list[int]) -> tuple[int, str, str]:
    """A status count with its last instant as DISPLAY TPSTATUS/SBSTATUS show it: (count, "yyyy-mm-dd", "hh.mm.ss"),
    local time (as the engine's own dates and times)."""
    local = time.localtime(stats[1])
    return stats[0], time.strftime("%Y-%m-%d", local), time.strftime("%H.%M.%S", local)


def _check_selector(selector: str, reason: int) -> None:
    try:
        compile_selector(selector)
    except SelectorError:
        raise MQIError(reason) from None


def _mqps(items: tuple[tuple[str, str], ...]) -> str:
    """The mqps folder of an MQRFH2 holding the publish/subscribe properties (MQTopicString as Top, MQSubUserData
    as Sud, MQIsRetained as Ret: the short names seen in public mappings, K)."""
    short = dict(_MQPS_NAMES)
    out = []
    for name, value in items:
        text = value.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
        out.append(f"<{short[name]}>{text}</{short[name]}>")
    return "".join(out)


def _sub_defaults() -> dict[int, ObjValue]:
    """The 'sub' kind's table defaults (formats/sub-attributes.tsv) an API subscription starts from."""
    from pcfserver import kinds
    from pcfserver.engine.objects import table_defaults

    return table_defaults(kinds.by_key()["sub"])
