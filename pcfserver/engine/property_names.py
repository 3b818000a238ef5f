"""Which message property names IBM MQ accepts (IBM "Property names", q022940_, "Property name restrictions",
q022950_, and MQRC_PROPERTY_NAME_ERROR, q044620_).  Sans-IO, no engine knowledge.

A name is a Java identifier in which '.' may also separate parts (not first, not last, never two in a row), at
most 4,095 characters, within the Basic Multilingual Plane.  It is not a selector keyword (alone or after "usr."),
does not begin "JMS" or "usr.JMS" unless it is one of the five JMS properties the MQI may set, does not begin
"Body." or "Root." unless it begins "Root.MQMD.", and, beginning "mq" in any case, has at most one '.' unless it
begins "mq_usr".  (The choice of "Body." over "Body" is recorded in formats/messaging-rules.tsv.)
"""

from __future__ import annotations

import unicodedata

from pcfserver import mq
from pcfserver.engine.selector import KEYWORDS

MAX_LENGTH = 4095  # MQ_MAX_PROPERTY_NAME_LENGTH
SETTABLE_JMS = frozenset(("JMSCorrelationID", "JMSReplyTo", "JMSType", "JMSXGroupID", "JMSXGroupSeq"))
_START = frozenset(("Lu", "Ll", "Lt", "Lm", "Lo", "Nl", "Sc", "Pc"))  # Character.isJavaIdentifierStart
_PART = _START | {"Nd", "Mn", "Mc"}  # ... isJavaIdentifierPart (the format characters it also allows are left out)


def _identifier_parts_ok(name: str) -> bool:
    for i, part in enumerate(name.split(".")):
        if not part:
            return False  # a '.' first, last or after another '.'
        first = part[0]
        if i == 0 and not (first.isascii() and (first.isalpha() or first in "_$")) and unicodedata.category(first) not in _START:
            return False
        for char in part:
            if char.isascii():
                if not (char.isalnum() or char in "_$"):
                    return False
            elif ord(char) > 0xFFFF or unicodedata.category(char) not in _PART:
                return False
    return True


def property_name_error(name: str) -> int:
    """0 for a name MQ accepts; else the reason MQSETMP (and an MQPUT carrying it) fails with."""
    if not name or len(name) > MAX_LENGTH:
        return mq.MQRC_PROPERTY_NAME_LENGTH_ERR
    if not _identifier_parts_ok(name):
        return mq.MQRC_PROPERTY_NAME_ERROR
    bare = name[4:] if name[:4] == "usr." else name
    if bare.upper() in KEYWORDS:
        return mq.MQRC_PROPERTY_NAME_ERROR
    if bare.startswith("JMS") and name not in SETTABLE_JMS:
        return mq.MQRC_PROPERTY_NAME_ERROR
    if name.startswith(("Body.", "Root.")) and not name.startswith("Root.MQMD."):
        return mq.MQRC_PROPERTY_NAME_ERROR
    if name[:2].lower() == "mq" and name[:6].lower() != "mq_usr" and name.count(".") > 1:
        return mq.MQRC_PROPERTY_NAME_ERROR
    return 0


def explain(name: str) -> str:
    """What is wrong with a name :func:`property_name_error` refuses, for a person."""
    if not name:
        return "A property needs a name."
    if len(name) > MAX_LENGTH:
        return f"A property name is at most {MAX_LENGTH:,} characters."
    if not _identifier_parts_ok(name):
        return (
            f"{name!r} is not a property name MQ accepts: a letter, '_' or '$' first, then letters, digits, '_' and '$', "
            "with '.' only between parts (MQRC_PROPERTY_NAME_ERROR)."
        )
    return f"{name!r} is reserved: MQ refuses it as a property name (MQRC_PROPERTY_NAME_ERROR)."
