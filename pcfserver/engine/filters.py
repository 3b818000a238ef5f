"""Names and filters shared by the commands on every kind of object: naming rules, generic names, MQCFIF/MQCFSF tests."""

from __future__ import annotations

import re

from pcfserver import mq
from pcfserver.codec.model import IntegerFilter, StringFilter

AttrValue = int | str

# Object names: 1..48 of A-Z a-z 0-9 . / _ %  (MQ naming rules); generic: a prefix and a final *.
OBJECT_NAME = re.compile(r"[A-Za-z0-9./_%]{1,48}\Z")
GENERIC_NAME = re.compile(r"[A-Za-z0-9./_%]{0,47}\*\Z")


def generic_match(pattern: str, value: str) -> bool:
    if pattern.endswith("*"):
        return value.startswith(pattern[:-1])
    return value == pattern


def holds(f: IntegerFilter | StringFilter, actual: object) -> bool:
    """Whether a field's value passes an MQCFIF/MQCFSF filter; a value that is not an integer or a string (None: the
    field is not there) does not."""
    return isinstance(actual, (int, str)) and compare(f.operator, actual, f.value)


def compare(operator: int, actual: AttrValue, expected: AttrValue) -> bool:
    if operator == mq.MQCFOP_LIKE or operator == mq.MQCFOP_NOT_LIKE:
        hit = isinstance(actual, str) and isinstance(expected, str) and generic_match(expected, actual)
        return hit if operator == mq.MQCFOP_LIKE else not hit
    if type(actual) is not type(expected):
        return False
    a, e = actual, expected
    if operator == mq.MQCFOP_EQUAL:
        return a == e
    if operator == mq.MQCFOP_NOT_EQUAL:
        return a != e
    if isinstance(a, int) and isinstance(e, int):
        x, y = a, e
    else:
        assert isinstance(a, str) and isinstance(e, str)
        return compare_text(operator, a, e)
    if operator == mq.MQCFOP_LESS:
        return x < y
    if operator == mq.MQCFOP_GREATER:
        return x > y
    if operator == mq.MQCFOP_NOT_LESS:
        return x >= y
    return x <= y  # MQCFOP_NOT_GREATER


def compare_text(operator: int, a: str, e: str) -> bool:
    if operator == mq.MQCFOP_LESS:
        return a < e
    if operator == mq.MQCFOP_GREATER:
        return a > e
    if operator == mq.MQCFOP_NOT_LESS:
        return a >= e
    return a <= e
