"""JSON names of PCF attributes, as IBM's REST API v1 resources nest them (sans-IO).

A table's ``rest`` column names each attribute as a dotted path (``storage.maximumDepth``, ``status.currentDepth``) and
the ``rest`` rows of ``formats/dialect-values.tsv`` its value words; :func:`fields_of` reads them into :class:`Field`
values, and the functions here turn PCF answers into the nested JSON of the v1 queue and queue manager resources and
pick the attributes a query names.  The rules of the table's cells are in its header comments: two rows with one name
are a date and a time that make one UTC timestamp; a list parameter with several names spreads its values over them;
an integer with several names is as many booleans, each true for the value of its last segment's word.
"""

from __future__ import annotations

import time
from collections.abc import Collection, Sequence
from dataclasses import dataclass
from typing import Any

from pcfserver.codec import Message
from pcfserver.dialects.tables import REST, Attr, Words, vocabulary
from pcfserver.rest.http import Response, error


@dataclass(frozen=True, slots=True)
class Field:
    """One JSON attribute: the PCF parameter(s) it comes from and how its value reads."""

    name: str  # group.attribute
    parameters: tuple[int, ...]  # one; or a date and a time that make one timestamp
    words: Words | None
    is_string: bool
    settable: bool
    index: int = -1  # the position in a list parameter (QTimeIndicator's two periods)
    true_when: int | None = None  # one of several booleans a single parameter holds (QServiceIntervalEvent)

    @property
    def boolean(self) -> bool:
        return self.true_when is not None or (self.words is not None and set(self.words.to_value) == {"true", "false"})


def fields_of(attrs: Sequence[Attr]) -> dict[str, Field]:
    words = vocabulary(REST).words
    out: dict[str, Field] = {}
    for a in attrs:
        names = a.keyword(REST).split()
        if not names or names[0] in ("name", "type"):
            continue
        own = words.get(a.parameter)
        settable = a.access == "set"
        if len(names) == 1 and names[0] in out:  # the time half of a timestamp
            first = out[names[0]]
            out[names[0]] = Field(first.name, (*first.parameters, a.parameter), None, True, False)
        elif len(names) == 1:
            out[names[0]] = Field(names[0], (a.parameter,), own, a.is_string, settable)
        elif a.struct == "MQCFIL":
            for i, name in enumerate(names):
                out[name] = Field(name, (a.parameter,), None, False, False, index=i)
        else:  # several booleans: each true when the parameter holds the value its last segment's word stands for
            for name in names:
                value = own.to_value[name.rsplit(".", 1)[1]] if own else None
                out[name] = Field(name, (a.parameter,), own, False, settable, true_when=int(value) if value is not None else None)
    return out


class Refused(Exception):
    """A request IBM answers with an error: the Response to send."""

    def __init__(self, response: Response) -> None:
        super().__init__(response.status)
        self.response = response


def refusal(key: str, *inserts: object) -> Refused:
    return Refused(error(key, *inserts))


def selection(text: str | None, fields: Collection[str], everything: tuple[str, ...], what: str, noun: str = "queue") -> list[str]:
    """The JSON names (dotted, of ``fields``) a list of attributes= or status= items selects (a group, a dotted name or
    ``*``); an item that names nothing of ``noun`` is refused."""
    if text is None:
        return []
    chosen: list[str] = []
    for item in (i.strip() for i in text.split(",")):
        if item in everything:
            chosen.extend(fields)
            continue
        if item in ("name", "type"):
            continue
        found = [n for n in fields if n == item or n.startswith(item + ".")]
        if not found:
            raise refusal("bad_attribute", f"{what}={item}", f"not a {noun} {'status ' if what == 'status' else ''}attribute")
        chosen.extend(found)
    return list(dict.fromkeys(chosen))


def values_of(message: Message) -> dict[int, Any]:
    return {p.parameter: getattr(p, "value", getattr(p, "values", None)) for p in message.parameters}


def timestamp(date: object, clock: object) -> str:
    """A date and time the queue manager keeps in local time, as IBM's UTC form 2021-03-04T05:30:10.000Z ('' if none)."""
    if not isinstance(date, str) or not isinstance(clock, str) or not date.strip() or not clock.strip():
        return ""
    try:
        local = time.mktime(time.strptime(f"{date.strip()} {clock.strip()}", "%Y-%m-%d %H.%M.%S"))
    except (ValueError, OverflowError):
        return ""
    return time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime(local))


def json_value(field: Field, values: dict[int, Any]) -> Any:
    raw = values.get(field.parameters[0])
    if len(field.parameters) == 2:
        return timestamp(raw, values.get(field.parameters[1]))
    if field.index >= 0:
        return raw[field.index] if isinstance(raw, tuple) and len(raw) > field.index else None
    if field.true_when is not None:
        return raw == field.true_when
    if isinstance(raw, str):
        return raw.rstrip()
    if field.words is not None and raw in field.words.to_word:
        word = field.words.to_word[raw]
        return word == "true" if field.boolean else word
    return raw


def put(tree: dict[str, Any], dotted: str, value: Any) -> None:
    *groups, last = dotted.split(".")
    for group in groups:
        tree = tree.setdefault(group, {})
    tree[last] = value


def put_fields(tree: dict[str, Any], chosen: Sequence[str], fields: dict[str, Field], values: dict[int, Any]) -> None:
    """Each chosen field the answer ``values`` carries, at its place in ``tree`` (one an object's type has not is left
    out)."""
    for name in chosen:
        field = fields[name]
        if field.parameters[0] in values:
            put(tree, name, json_value(field, values))
