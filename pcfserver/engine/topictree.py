"""The topic tree of administrative topic objects, and ASPARENT resolution along it (sans-IO, no engine).

A topic string is a path of levels separated by '/' ('/A' and 'A' differ: a leading '/' is an empty first level).
A topic object anchors its TOPICSTR's node; SYSTEM.BASE.TOPIC (empty TOPICSTR) anchors the root, above every node.
An object's string ending in '/' anchors the node without it (K, chosen: IBM's developer configuration defines
DEV.BASE.TOPIC as 'dev/' for the topics under 'dev/').
Each attribute of ``formats/topic-inheritance.tsv`` that a node's closest object holds as "as parent" takes the
value of the next object above, finally SYSTEM.BASE.TOPIC's, and IBM's shipped value when that one says as parent
too or is gone (IBM's DEFINE TOPIC page q085770_, SYSTEM.BASE.TOPIC q081610_).

DISPLAY TPSTATUS shows what :meth:`TopicTree.resolve` answers; publish/subscribe (issue 19) asks it whether a node
takes publications and subscriptions and how to deliver.  The tree is built from plain ``{name: attributes}``; build
a new one when topic objects change (cheap: one dictionary entry per object).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache

from pcfserver import mq
from pcfserver.tables import read_table, value_of

Value = int | str
BASE_TOPIC = "SYSTEM.BASE.TOPIC"
_TOPIC_STRING = mq.MQCA_TOPIC_STRING


@dataclass(frozen=True, slots=True)
class Inherited:
    """One attribute that inherits: its parameter, the value meaning "as parent", and the shipped value."""

    parameter: int
    as_parent: Value
    shipped: Value


def _value(text: str, parameter_name: str) -> Value:
    if parameter_name.startswith(("MQCA_", "MQCACF_")):
        return text
    return value_of(text)


@cache
def inheritance() -> tuple[Inherited, ...]:
    """formats/topic-inheritance.tsv, in its order."""
    return tuple(
        Inherited(value_of(row["parameter"]), _value(row["as_parent"], row["parameter"]), _value(row["shipped"], row["parameter"]))
        for row in read_table("topic-inheritance.tsv")
    )


def levels(topic_string: str) -> tuple[str, ...]:
    """A topic string's levels; the root (the empty string) has none."""
    return tuple(topic_string.split("/")) if topic_string else ()


def anchor(object_string: str) -> str:
    """The node a topic object's string anchors: without one trailing '/' ('dev/' anchors 'dev'; '/' stays '/')."""
    return object_string[:-1] if len(object_string) > 1 and object_string.endswith("/") else object_string


def join(object_string: str, given: str) -> str:
    """A subscription's (or an MQOPEN's) topic from a topic object's string and a given string, as IBM joins them:
    the object's string, '/', the given string; either alone when the other is empty (K for an empty object string:
    chosen so that SYSTEM.BASE.TOPIC with 'x' is 'x', the same node as 'x' alone)."""
    if not object_string:
        return given
    if not given:
        return object_string
    return f"{object_string}/{given}"


class TopicTree:
    """Topic objects by node; answers the closest object above a topic string and its resolved attributes."""

    __slots__ = ("_nodes",)

    def __init__(self, objects: Mapping[str, Mapping[int, object]]) -> None:
        nodes: dict[tuple[str, ...], tuple[str, Mapping[int, object]]] = {}
        for name, attrs in objects.items():
            text = attrs.get(_TOPIC_STRING, "")
            assert isinstance(text, str)
            if name == BASE_TOPIC:
                nodes[()] = (name, attrs)
            elif text:  # other objects with no string (SYSTEM.DEFAULT.TOPIC) are templates, not nodes
                nodes[levels(anchor(text))] = (name, attrs)
        self._nodes = nodes

    def chain(self, topic_string: str) -> list[tuple[str, Mapping[int, object]]]:
        """The topic objects at and above a topic string, closest first (SYSTEM.BASE.TOPIC last when it exists)."""
        path = levels(topic_string)
        nodes = self._nodes
        return [nodes[path[:n]] for n in range(len(path), -1, -1) if path[:n] in nodes]

    def admin(self, topic_string: str) -> str:
        """The name of the closest topic object at or above (DISPLAY TPSTATUS ADMIN); blank when there is none."""
        found = self.chain(topic_string)
        return found[0][0] if found else ""

    def resolve(self, topic_string: str) -> dict[int, Value]:
        """Every inherited attribute's value at a topic string (formats/topic-inheritance.tsv)."""
        chain = [attrs for _, attrs in self.chain(topic_string)]
        out: dict[int, Value] = {}
        for item in inheritance():
            value: Value = item.shipped
            for attrs in chain:
                found = attrs.get(item.parameter, item.as_parent)
                if isinstance(found, (int, str)) and found != item.as_parent:
                    value = found
                    break
            out[item.parameter] = value
        return out

    def value(self, topic_string: str, parameter: int) -> Value:
        """One inherited attribute's value at a topic string."""
        return self.resolve(topic_string)[parameter]
