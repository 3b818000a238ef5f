"""Publish/subscribe against a small reference model (issue 19): a hypothesis state machine of subscriptions (both
wildcard schemes, durable and not, with or without a selector, administrative ones REQONLY or not), publications
(persistent or not, retained or not, with message properties and an expiry or none, in and out of units of work),
commits, backouts, WILDCARD(BLOCK) on a topic object and restarts; every subscription's queue must hold exactly what
the model says it should receive, in order, each copy with the publication's expiry."""

from __future__ import annotations

import shutil
import tempfile
from pathlib import Path

from hypothesis import settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, precondition, rule

from pcfserver.dialects import mqsc
from pcfserver.engine.messages import MQIError
from pcfserver.qmgr import Session, open_queue_manager
from tests.test_matching import ref_char, ref_topic

LEVELS = ["a", "b", "c"]
topics = st.lists(st.sampled_from(LEVELS), min_size=1, max_size=3).map("/".join)
topic_patterns = st.lists(st.sampled_from([*LEVELS, "#", "+"]), min_size=1, max_size=3).map("/".join)
char_patterns = st.lists(st.sampled_from(["a", "b", "/", "*", "?"]), min_size=1, max_size=5).map("".join)
Props = dict[str, str]


def _n(props: Props) -> int | None:
    return int(props["n"]) if "n" in props else None


# Selectors and what they select in the model (a property that is absent makes a comparison unknown: not selected).
SELECTORS: dict[str, object] = {
    "": lambda p: True,
    "n = 1": lambda p: _n(p) == 1,
    "n > 1": lambda p: (_n(p) or 0) > 1,
    "n <> 2": lambda p: _n(p) is not None and _n(p) != 2,
    "NOT (n = 1)": lambda p: _n(p) is not None and _n(p) != 1,
    "n IS NULL": lambda p: "n" not in p,
    "color = 'red'": lambda p: p.get("color") == "red",
    "n BETWEEN 1 AND 2 OR color = 'red'": lambda p: (_n(p) is not None and 1 <= (_n(p) or 0) <= 2) or p.get("color") == "red",
    "color IN ('red', 'blue') AND n >= 0": lambda p: p.get("color") in ("red", "blue") and _n(p) is not None,
}
selectors = st.sampled_from(sorted(SELECTORS))
properties = st.fixed_dictionaries({}, optional={"n": st.sampled_from(["0", "1", "2", "3"]), "color": st.sampled_from(["red", "blue"])})
expiries = st.one_of(st.none(), st.just(999_999))  # tenths of a second: long enough never to pass during a run


class ModelSub:
    def __init__(self, pattern: str, scheme: str, durable: bool, blocked: bool, selector: str = "", on_request: bool = False) -> None:
        self.pattern = pattern
        self.scheme = scheme
        self.durable = durable
        self.blocked = blocked  # 'a' was WILDCARD(BLOCK) when it was made
        self.selector = selector
        self.on_request = on_request  # REQONLY(YES): nothing arrives (there is no MQSUBRQ)
        # (body, persistent, arrival) committed, in order; arrival: when the copy reached the queue (a copy put in a
        # unit of work takes its place on the queue when it is put, and is seen from the commit: MQ's FIFO order is
        # the order messages arrive on the queue, not the order they are committed)
        self.queue: list[tuple[bytes, bool, int]] = []
        self.pending: list[tuple[bytes, bool, int]] = []  # in the publisher's unit of work

    def wildcard_above_a(self) -> bool:
        if self.scheme == "char":
            return self.pattern[:1] in ("*", "?")
        return self.pattern.split("/")[0] in ("#", "+")

    def selects(self, props: Props) -> bool:
        check = SELECTORS[self.selector]
        assert callable(check)
        return not self.on_request and bool(check(props))

    def matches(self, topic: str) -> bool:
        hit = ref_char(self.pattern, topic) if self.scheme == "char" else ref_topic(self.pattern, topic)
        if hit and self.blocked and (topic == "a" or topic.startswith("a/")) and self.wildcard_above_a():
            return False
        return hit


class PubSubMachine(RuleBasedStateMachine):
    def __init__(self) -> None:
        super().__init__()
        self.dir = Path(tempfile.mkdtemp(prefix="pubsub-sm-"))
        self.qm = open_queue_manager(self.dir)
        self.run("DEFINE TOPIC(TA) TOPICSTR('a')")
        self.session = self._session()
        self.subs: dict[str, tuple[ModelSub, str]] = {}  # name -> (model, the queue its copies arrive on)
        # Retained publications as messages on SYSTEM.RETAINED.PUB.QUEUE: (number, topic, body, persistent, state) with
        # state "kept" (committed), "new" (put in the unit of work) or "taken" (got by the unit of work, being replaced)
        self.retained_msgs: list[tuple[int, str, bytes, bool, str]] = []
        self.block = False
        self.counter = 0
        self.arrivals = 0  # (ModelSub.queue)
        self.props: dict[bytes, Props] = {}  # each publication's properties, by body
        self.expiry: dict[bytes, int | None] = {}  # each publication's expiry, by body

    def run(self, text: str) -> None:
        lines = list(mqsc.run(text, self.qm.execute).lines)
        assert lines and lines[0].startswith("AMQ") and "E:" not in lines[0], lines

    def _session(self) -> Session:
        self._context = self.qm.session()
        return self._context.__enter__()

    def teardown(self) -> None:
        self.qm.close()
        shutil.rmtree(self.dir, ignore_errors=True)

    def in_unit(self) -> bool:
        return any(r[4] != "kept" for r in self.retained_msgs) or any(m.pending for m, _ in self.subs.values())

    def visible_retained(self) -> dict[str, tuple[bytes, bool]]:
        """Per topic, the last published of the committed retained messages no unit of work has taken."""
        out: dict[str, tuple[int, bytes, bool]] = {}
        for number, topic, body, persistent, state in self.retained_msgs:
            if state == "kept" and (topic not in out or out[topic][0] < number):
                out[topic] = (number, body, persistent)
        return {topic: (body, persistent) for topic, (_n, body, persistent) in out.items()}

    @rule(pattern=topic_patterns, durable=st.booleans(), new_only=st.booleans(), selector=selectors)
    def subscribe_topic_scheme(self, pattern: str, durable: bool, new_only: bool, selector: str) -> None:
        self._subscribe(pattern, "topic", durable, new_only, selector)

    @rule(pattern=char_patterns, durable=st.booleans(), new_only=st.booleans(), selector=selectors)
    def subscribe_char_scheme(self, pattern: str, durable: bool, new_only: bool, selector: str) -> None:
        self._subscribe(pattern, "char", durable, new_only, selector)

    def _subscribe(self, pattern: str, scheme: str, durable: bool, new_only: bool, selector: str) -> None:
        self.counter += 1
        name = f"S{self.counter}"
        sub = self.session.subscribe(
            pattern, name=name if durable else None, durable=durable, new_publications_only=new_only, wildcard_schema=scheme, selector=selector
        )
        model = ModelSub(pattern, scheme, durable, self.block, selector)
        if not new_only:
            self._receive_retained(model)
        self.subs[sub.name] = (model, sub.queue)

    def _receive_retained(self, model: ModelSub) -> None:
        """The visible retained publications a new subscription matches and selects, in topic string order."""
        visible = self.visible_retained()
        for topic in sorted(visible):
            if model.matches(topic) and model.selects(self.props[visible[topic][0]]):
                self.arrivals += 1
                model.queue.append((*visible[topic], self.arrivals))

    @rule(
        pattern=st.one_of(topic_patterns.map(lambda p: (p, "TOPIC")), char_patterns.map(lambda p: (p, "CHAR"))),
        selector=selectors, on_request=st.booleans(),
    )
    def define_sub(self, pattern: tuple[str, str], selector: str, on_request: bool) -> None:
        """An administrative subscription (DEFINE SUB, durable, to a queue of its own); it receives the retained
        publications it matches when made, unless REQONLY(YES), which receives nothing (formats/pubsub-rules.tsv)."""
        self.counter += 1
        name = f"ADM{self.counter}"
        self.run(f"DEFINE QLOCAL(Q.{name})")
        quoted = selector.replace("'", "''")
        self.run(
            f"DEFINE SUB({name}) TOPICSTR('{pattern[0]}') DEST(Q.{name}) WSCHEMA({pattern[1]}) SELECTOR('{quoted}') "
            f"REQONLY({'YES' if on_request else 'NO'})"
        )
        model = ModelSub(pattern[0], pattern[1].lower(), True, self.block, selector, on_request)
        self._receive_retained(model)
        self.subs[name] = (model, f"Q.{name}")

    @precondition(lambda self: self.subs and not self.in_unit())
    @rule(data=st.data())
    def unsubscribe(self, data: st.DataObject) -> None:
        name = data.draw(st.sampled_from(sorted(self.subs)))
        _model, queue = self.subs.pop(name)
        if name.startswith("ADM"):
            self.run(f"DELETE SUB({name})")
        else:
            pubsub = self.qm.engine.pubsub
            self.qm.call(lambda: pubsub.unsubscribe(name))
            assert self.qm.engine.queue(queue) is None

    @rule(topic=topics, persistent=st.booleans(), retain=st.booleans(), syncpoint=st.booleans(), props=properties, expiry=expiries)
    def publish(self, topic: str, persistent: bool, retain: bool, syncpoint: bool, props: Props, expiry: int | None) -> None:
        self._publish(topic, persistent, retain, syncpoint, props, expiry)

    @precondition(lambda self: self.subs)
    @rule(data=st.data(), persistent=st.booleans(), syncpoint=st.booleans(), props=properties, expiry=expiries)
    def publish_to_a_subscription(self, data: st.DataObject, persistent: bool, syncpoint: bool, props: Props, expiry: int | None) -> None:
        """A publication on a topic one subscription's pattern is likely to match (random topics seldom do), so that
        its selector is exercised often."""
        model, _queue = self.subs[data.draw(st.sampled_from(sorted(self.subs)))]
        if model.scheme == "char":
            topic = model.pattern.replace("*", "").replace("?", "b") or "a"
        else:
            topic = "/".join("a" if level == "+" else level for level in model.pattern.split("/") if level != "#") or "a"
        self._publish(topic, persistent, False, syncpoint, props, expiry)

    def _publish(self, topic: str, persistent: bool, retain: bool, syncpoint: bool, props: Props, expiry: int | None) -> None:
        self.counter += 1
        body = f"m{self.counter}".encode()
        self.props[body], self.expiry[body] = props, expiry
        matched = [m for m, _ in self.subs.values() if m.matches(topic) and m.selects(props)]
        try:
            self.session.publish(topic, body, persistent=persistent, retain=retain, syncpoint=syncpoint, properties=props, expiry=expiry)
        except MQIError as error:
            raise AssertionError(f"publish failed {error.reason}") from error
        for m in matched:
            self.arrivals += 1
            (m.pending if syncpoint else m.queue).append((body, persistent, self.arrivals))
        if retain:  # every committed one of the topic not taken by a unit of work goes (into this one, under syncpoint)
            kept = []
            for r in self.retained_msgs:
                if r[1] == topic and r[4] == "kept":
                    if syncpoint:
                        kept.append((*r[:4], "taken"))
                else:
                    kept.append(r)
            kept.append((self.counter, topic, body, persistent, "new" if syncpoint else "kept"))
            self.retained_msgs = kept

    @rule()
    def commit(self) -> None:
        self.session.commit()
        for m, _ in self.subs.values():
            m.queue = sorted(m.queue + m.pending, key=lambda item: item[2])
            m.pending = []
        self.retained_msgs = [(*r[:4], "kept") for r in self.retained_msgs if r[4] != "taken"]

    @rule()
    def backout(self) -> None:
        self.session.backout()
        for m, _ in self.subs.values():
            m.pending = []
        self.retained_msgs = [(*r[:4], "kept") for r in self.retained_msgs if r[4] != "new"]

    @precondition(lambda self: not self.in_unit())
    @rule()
    def toggle_block(self) -> None:
        self.block = not self.block
        self.run(f"ALTER TOPIC(TA) WILDCARD({'BLOCK' if self.block else 'PASSTHRU'})")

    @precondition(lambda self: not self.in_unit())
    @rule(data=st.data())
    def read_one(self, data: st.DataObject) -> None:
        if not self.subs:
            return
        name = data.draw(st.sampled_from(sorted(self.subs)))
        model, queue = self.subs[name]
        if model.queue:
            md, body = self.session.get(queue)
            assert body == model.queue.pop(0)[0]
            expiry = self.expiry[body]  # every copy keeps the publication's expiry (counting down)
            assert md.expiry == -1 if expiry is None else 0 < md.expiry <= expiry
            assert all(dict(md.properties).get(k) == v for k, v in self.props[body].items())
        else:
            try:
                self.session.get(queue)
            except MQIError:
                return
            raise AssertionError("a message the model did not expect")

    @rule()
    def restart(self) -> None:
        """Uncommitted work is backed out; non-durable subscriptions, non-persistent messages and non-persistent
        retained publications are gone; durable subscriptions keep their persistent messages.  Subscriptions are
        re-added under the WILDCARD values of their topic objects at restart (chosen, pcfserver/engine/pubsub.py)."""
        self.qm.close()
        self.qm = open_queue_manager(self.dir)
        self.session = self._session()
        kept: dict[str, tuple[ModelSub, str]] = {}
        for name, (model, queue) in self.subs.items():
            if not model.durable:
                assert self.qm.engine.queue(queue) is None
                continue
            model.pending = []
            model.queue = [item for item in model.queue if item[1]]
            model.blocked = self.block
            if not name.startswith("ADM"):
                resumed = self.session.subscribe(model.pattern, name=name, durable=True, wildcard_schema=model.scheme)
                assert resumed.queue == queue
            kept[name] = (model, queue)
        self.subs = kept
        self.retained_msgs = [(*r[:4], "kept") for r in self.retained_msgs if r[4] != "new" and r[3]]

    @invariant()
    def depths_agree(self) -> None:
        for model, queue in self.subs.values():
            depth = self.qm.engine.messaging.status(queue)[0]
            assert depth == len(model.queue) + len(model.pending), (model.pattern, model.scheme)

    @invariant()
    def retained_agree(self) -> None:
        kept = {topic: body for topic, (_md, body) in self.qm.engine.pubsub.retained().items()}
        assert kept == {t: body for t, (body, _p) in self.visible_retained().items()}


PubSubMachine.TestCase.settings = settings(max_examples=100, stateful_step_count=30, deadline=None)
test_pubsub_state_machine = PubSubMachine.TestCase
