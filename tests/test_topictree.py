"""ASPARENT resolution along the topic tree (pcfserver/engine/topictree.py), against a small reference model."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from pcfserver import mq
from pcfserver.engine.topictree import BASE_TOPIC, TopicTree, anchor, inheritance, join, levels

TS = mq.MQCA_TOPIC_STRING
DURSUB = mq.MQIA_DURABLE_SUB
PUB = mq.MQIA_INHIBIT_PUB
MDURMDL = mq.MQCA_MODEL_DURABLE_Q
# A few inherited attributes with their "as parent" value and two real values each.
CHOICES = {
    DURSUB: (mq.MQSUB_DURABLE_AS_PARENT, (mq.MQSUB_DURABLE_ALLOWED, mq.MQSUB_DURABLE_INHIBITED)),
    PUB: (mq.MQTA_PUB_AS_PARENT, (mq.MQTA_PUB_ALLOWED, mq.MQTA_PUB_INHIBITED)),
    MDURMDL: ("", ("MODEL.A", "MODEL.B")),
}
SHIPPED = {item.parameter: item.shipped for item in inheritance()}

level = st.sampled_from(["a", "b", "", "sport"])
topic_strings = st.lists(level, min_size=1, max_size=4).map("/".join)


@st.composite
def attributes(draw: st.DrawFn) -> dict[int, object]:
    out: dict[int, object] = {}
    for pid, (as_parent, real) in CHOICES.items():
        out[pid] = draw(st.sampled_from((as_parent, *real)))
    return out


@st.composite
def trees(draw: st.DrawFn) -> dict[str, dict[int, object]]:
    strings = draw(st.lists(topic_strings, max_size=8, unique_by=anchor))
    objects = {f"T{i}": {TS: s, **draw(attributes())} for i, s in enumerate(strings)}
    if draw(st.booleans()):
        objects[BASE_TOPIC] = {TS: "", **draw(attributes())}
    if draw(st.booleans()):  # an object with no string that is not the base topic anchors nothing
        objects["SYSTEM.DEFAULT.TOPIC"] = {TS: "", **draw(attributes())}
    return objects


def model_above(objects: dict[str, dict[int, object]], topic: str) -> list[tuple[str, dict[int, object]]]:
    """The reference: objects whose string is the topic or a whole-level prefix of it, longest first, base last."""
    found = []
    for name, attrs in objects.items():
        text = str(attrs[TS])
        node = text[:-1] if len(text) > 1 and text.endswith("/") else text  # 'dev/' anchors 'dev' (K)
        if name != BASE_TOPIC and attrs[TS] and (topic == node or topic.startswith(f"{node}/")):
            found.append((name, attrs))
    found.sort(key=lambda pair: -len(anchor(str(pair[1][TS]))))
    if BASE_TOPIC in objects:
        found.append((BASE_TOPIC, objects[BASE_TOPIC]))
    return found


def model_value(objects: dict[str, dict[int, object]], topic: str, pid: int) -> object:
    as_parent = CHOICES[pid][0]
    for _, attrs in model_above(objects, topic):
        if attrs[pid] != as_parent:
            return attrs[pid]
    return SHIPPED[pid]


@settings(max_examples=300, deadline=None)
@given(trees(), topic_strings)
def test_each_attribute_comes_from_the_closest_object_that_sets_it(objects: dict[str, dict[int, object]], topic: str) -> None:
    tree = TopicTree(objects)
    resolved = tree.resolve(topic)
    for pid in CHOICES:
        assert resolved[pid] == model_value(objects, topic, pid), (pid, topic)
    above = model_above(objects, topic)
    assert tree.admin(topic) == (above[0][0] if above else "")


def test_base_topic_and_shipped_values() -> None:
    tree = TopicTree({BASE_TOPIC: {TS: "", PUB: mq.MQTA_PUB_INHIBITED}, "SPORT": {TS: "sport", DURSUB: mq.MQSUB_DURABLE_INHIBITED}})
    assert tree.resolve("sport/football")[DURSUB] == mq.MQSUB_DURABLE_INHIBITED
    assert tree.resolve("sport/football")[PUB] == mq.MQTA_PUB_INHIBITED  # from SYSTEM.BASE.TOPIC
    assert tree.resolve("news")[DURSUB] == mq.MQSUB_DURABLE_ALLOWED  # shipped: SYSTEM.BASE.TOPIC says as parent
    assert tree.admin("sport/football") == "SPORT" and tree.admin("news") == BASE_TOPIC
    assert tree.admin("/sport") == BASE_TOPIC  # '/sport' is not below 'sport'
    assert tree.admin("sports") == BASE_TOPIC  # whole levels only
    dev = TopicTree({"DEV.BASE.TOPIC": {TS: "dev/"}})  # IBM's developer configuration
    assert dev.admin("dev/x") == dev.admin("dev") == "DEV.BASE.TOPIC"
    assert TopicTree({}).resolve("x")[MDURMDL] == "SYSTEM.DURABLE.MODEL.QUEUE"  # no base topic at all: IBM's values


def test_join_and_levels() -> None:
    assert join("Football", "/Scores") == "Football//Scores"  # always one '/' between (q020920_)
    assert join("sport", "") == "sport" and join("", "news") == "news"
    assert levels("") == () and levels("/a") == ("", "a")
