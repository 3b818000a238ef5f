"""Keyword <-> PCF parameter and value word <-> number, in both directions, for every language.

Plain values in, plain values out, so that other front ends (the REST API's runCommandJSON,
which keys parameters by lower-case MQSC keyword) use the same mapping as the text languages::

    keyword_parameter("maxdepth")                      # MQIA_MAX_Q_DEPTH (15)
    parameter_keyword(mq.MQIA_INHIBIT_PUT)             # "PUT"
    to_pcf_value(mq.MQIA_INHIBIT_PUT, "disabled")      # 1
    from_pcf_value(mq.MQIA_INHIBIT_PUT, 1)             # "DISABLED"
    pcf_parameters({"maxdepth": 5000, "put": "disabled"})   # (Integer(15, 5000), Integer(10, 1))
    keyword_values(response.parameters)                # {"queue": "Q1", "maxdepth": 5000, ...}

``table`` is ``queue`` (queue attributes), ``qmgr``, ``status`` (queue status), ``process`` or ``namelist``; ``dialect``
is ``mqsc`` (default), ``tpf`` or ``ibmi``.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence

from pcfserver import mq, names
from pcfserver.codec.model import ByteString, Integer, IntegerFilter, IntegerList, Parameter, String, StringFilter, StringList
from pcfserver.dialects.tables import TABLES, Attr, AttrValue, attributes_of, vocabulary

# The keyword a display shows for the name (and type) of each kind of object (processes and namelists:
# their name's row in the table, PROCESS and NAMELIST).
NAME_KEYWORDS = {"queue": "QUEUE", "status": "QUEUE", "qmgr": "QMNAME"}


def _tables(table: str) -> tuple[Attr, ...]:
    return attributes_of(table)


def attribute(keyword: str, *, dialect: str = "mqsc", table: str = "queue") -> Attr | None:
    """The attribute a keyword names (fixed synonyms such as TARGQ included), or None."""
    vocab = vocabulary(dialect)
    word = keyword.upper()
    word = vocab.synonyms["keyword"].get(word, word)
    return vocab.attribute(word, table)


def attribute_of(parameter: int, table: str = "queue") -> Attr | None:
    return next((a for a in _tables(table) if a.parameter == parameter), None)


def keyword_parameter(keyword: str, *, dialect: str = "mqsc", table: str = "queue") -> int | None:
    """The PCF parameter id of a keyword, or None."""
    found = attribute(keyword, dialect=dialect, table=table)
    return found.parameter if found else None


def parameter_keyword(parameter: int, *, dialect: str = "mqsc", table: str = "queue") -> str | None:
    """A parameter's keyword in a language, or None when it has none."""
    found = attribute_of(parameter, table)
    if found is None or not found.keyword(dialect):
        return None
    return found.keyword(dialect)


def is_string_parameter(parameter: int) -> bool:
    """Whether a parameter's value is a string (attribute tables first, then the MQCA/MQCACF name)."""
    for table in TABLES:
        found = attribute_of(parameter, table)
        if found is not None:
            return found.is_string
    name = names.parameter_name(parameter) or ""
    return name.startswith(("MQCA_", "MQCACF_"))


def is_bytes_parameter(parameter: int) -> bool:
    """Whether a parameter's value is a byte string (MQCFBS: SUBID, DESTCORL, PUBACCT; MQBACF_* names)."""
    for table in TABLES:
        found = attribute_of(parameter, table)
        if found is not None:
            return found.struct == "MQCFBS"
    return (names.parameter_name(parameter) or "").startswith("MQBACF_")


def byte_string(text: str) -> bytes:
    """A byte string as the languages write it: hexadecimal digits, two a byte (ValueError otherwise)."""
    if len(text) % 2 or any(c not in "0123456789abcdefABCDEF" for c in text):
        raise ValueError(f"{text!r} is not hexadecimal digits, two a byte")
    return bytes.fromhex(text)


def words_of(parameter: int, dialect: str = "mqsc") -> dict[str, AttrValue]:
    """The words a parameter accepts as input in a language (word -> value)."""
    found = vocabulary(dialect).words.get(parameter)
    return dict(found.to_value) if found else {}


def word_for(parameter: int, value: AttrValue, dialect: str = "mqsc") -> str | None:
    """The word shown for a value, or None when the value has none (a number, a name)."""
    found = vocabulary(dialect).words.get(parameter)
    if found is None:
        return None
    return found.to_word.get(value)


def to_pcf_value(parameter: int, value: AttrValue, *, dialect: str = "mqsc") -> AttrValue:
    """A keyword's value as PCF carries it: a word becomes its number, a number stays one.

    Raises ValueError for a word the parameter does not know or a non-number for an integer.
    """
    if is_string_parameter(parameter):
        if not isinstance(value, str):
            raise ValueError(f"{parameter_keyword(parameter, dialect=dialect) or parameter} takes a string, not {value!r}")
        return words_of(parameter, dialect).get(value, value)  # IBM i *NONE / *BLANK
    if isinstance(value, bool):
        raise ValueError(f"{value!r} is not a value")
    if isinstance(value, int):
        return value
    words = words_of(parameter, dialect)
    word = value.strip().upper()
    if word in words:
        return words[word]
    try:
        return int(word, 10)
    except ValueError:
        shown = parameter_keyword(parameter, dialect=dialect) or names.parameter_name(parameter) or str(parameter)
        raise ValueError(f"{value!r} is not a value of {shown}") from None


def from_pcf_value(parameter: int, value: AttrValue, *, dialect: str = "mqsc") -> AttrValue:
    """A PCF value as a language shows it: the word of a number that has one, strings without padding."""
    if isinstance(value, str):
        text = value.rstrip(" ")
        return text or word_for(parameter, "", dialect) or ""
    word = word_for(parameter, value, dialect)
    return value if word is None else word


def pcf_parameters(values: Mapping[str, AttrValue], *, dialect: str = "mqsc", table: str = "queue") -> tuple[Parameter, ...]:
    """PCF parameters from ``{keyword: value}`` (keywords in any case; values as :func:`to_pcf_value`)."""
    out: list[Parameter] = []
    for keyword, raw in values.items():
        found = attribute(keyword, dialect=dialect, table=table)
        if found is None:
            raise ValueError(f"{keyword!r} is not a {dialect} keyword of the {table} attributes")
        value = to_pcf_value(found.parameter, raw, dialect=dialect)
        if isinstance(value, str):
            out.append(String(found.parameter, value))
        else:
            out.append(Integer(found.parameter, value))
    return tuple(out)


def keyword_values(parameters: Iterable[Parameter], *, dialect: str = "mqsc", table: str = "queue") -> dict[str, object]:
    """``{lower-case keyword: value}`` of response parameters, values as :func:`from_pcf_value`.

    The object's name is keyed by its display keyword (``queue``, ``qmgr`` -> ``qmname``);
    parameters without a keyword in the language are left out.
    """
    out: dict[str, object] = {}
    for item in parameters:
        keyword = display_keyword(item.parameter, dialect=dialect, table=table)
        if keyword is None:
            continue
        if isinstance(item, ByteString) and item.parameter == mq.MQBACF_CONNECTION_ID and table == "conn":
            out.update(zip(("conn", "extconn"), connection_parts(item.value), strict=True))
        elif isinstance(item, ByteString):  # hexadecimal, as runmqsc shows it (SUBID)
            out[keyword.lower()] = item.value.hex().upper()
        elif isinstance(item, (Integer, String)):
            out[keyword.lower()] = from_pcf_value(item.parameter, item.value, dialect=dialect)
        elif isinstance(item, IntegerList) and item.parameter in INDICATOR_PAIRS:
            out[keyword.lower()] = ",".join(str(from_pcf_value(item.parameter, v, dialect=dialect)) or " " for v in item.values)
        elif isinstance(item, (IntegerList, StringList)):
            out[keyword.lower()] = [from_pcf_value(item.parameter, v, dialect=dialect) for v in item.values]
    return out


# Monitoring indicators (a short and a long term value): mqweb answers them as runmqsc shows them, one string, " , "
# while monitoring is off (fitchos/mqa-prometheus, an exporter run against IBM MQ, tests qtime == ' , ' and splits
# "a,b"); other lists stay JSON arrays.
INDICATOR_PAIRS = frozenset((
    mq.MQIACF_Q_TIME_INDICATOR, mq.MQIACH_XMITQ_TIME_INDICATOR, mq.MQIACH_NETWORK_TIME_INDICATOR, mq.MQIACH_EXIT_TIME_INDICATOR,
    mq.MQIACH_BATCH_SIZE_INDICATOR, mq.MQIACH_COMPRESSION_RATE, mq.MQIACH_COMPRESSION_TIME,
))


CONN_LENGTH = 8  # the ConnectionId's last 8 bytes are CONN, the 16 before them EXTCONN (IBM DISPLAY CONN q086140_)


def connection_parts(identifier: bytes) -> tuple[str, str]:
    """A ConnectionId as DISPLAY CONN shows it: CONN (its last 8 bytes) and EXTCONN (the rest), in hexadecimal."""
    return identifier[-CONN_LENGTH:].hex().upper(), identifier[:-CONN_LENGTH].hex().upper()


# Response parameters a table's display leaves out: Inquire Authority Records answers each record with QMgrName and
# Options first (q087320_), which runmqsc's AMQ8864I does not show (PROFILE, ENTITY, ENTTYPE, OBJTYPE, AUTHLIST).
_NOT_SHOWN = {"authrec": frozenset((mq.MQIACF_AUTH_OPTIONS,))}


def display_keyword(parameter: int, *, dialect: str = "mqsc", table: str = "queue") -> str | None:
    """The keyword a display shows a response parameter under (QUEUE for the queue name, ...); None for one it does
    not show."""
    if parameter in _NOT_SHOWN.get(table, ()):
        return None
    if dialect == "mqsc":
        if parameter == mq.MQCA_Q_NAME and table in ("queue", "status"):
            return NAME_KEYWORDS[table]
        if parameter == mq.MQIA_Q_TYPE and table == "queue":
            return "TYPE"
    return parameter_keyword(parameter, dialect=dialect, table=table)


def with_filtered(chosen: tuple[int, ...], filtered: int | None) -> tuple[int, ...]:
    """The attributes a DISPLAY asks for with the one its WHERE tests added (runmqsc shows it: dialect-commands.tsv),
    unless it asks for every one (ALL, or no list) or names it already."""
    if filtered is None or not chosen or mq.MQIACF_ALL in chosen or filtered in chosen:
        return chosen
    return (*chosen, filtered)


def without_filtered(values: Sequence[int], parameters: Iterable[Parameter]) -> Sequence[int]:
    """The attributes a DISPLAY's text names: ``values`` (its list of attributes) without the one :func:`with_filtered`
    added for the filter among the command's ``parameters``."""
    filtered = next((p.parameter for p in parameters if isinstance(p, (IntegerFilter, StringFilter))), None)
    return values[:-1] if len(values) > 1 and values[-1] == filtered else values
