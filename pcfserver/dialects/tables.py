"""The command languages' tables from ``formats/``, loaded once into lookup structures.

Sources: the ``mqsc``/``tpf``/``ibmi`` keyword columns of ``queue-attributes.tsv``,
``qmgr-attributes.tsv``, ``queue-status-attributes.tsv``, ``process-attributes.tsv``,
``namelist-attributes.tsv`` and ``authrec-attributes.tsv``; ``dialect-values.tsv`` (value
words), ``dialect-commands.tsv``, ``dialect-synonyms.tsv``, ``ibmi-parameters.tsv``,
``dialect-only-attributes.tsv`` and ``dialect-messages.tsv``.  No rule lives here: this module
only indexes rows, so adding a keyword or a word is one cell or one row in those files.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cache

from pcfserver import kinds, names
from pcfserver.tables import FORMATS_DIR, STATUS_TABLES, read_table, subtype_cells, value_of

DIALECTS = ("mqsc", "tpf", "ibmi")
# The REST API v1 queue resource names queue and queue status attributes too (the rest column) and has its own value
# words (rest rows of dialect-values.tsv): a vocabulary of its own, though not a command language.
REST = "rest"
AttrValue = int | str
BLANK = "(blank)"  # dialect-values.tsv: the empty string (input) or a blank display

# Queue types by the column suffix of queue-attributes.tsv (as the engine reads them).
QUEUE_TYPES: dict[str, int] = {"local": 1, "model": 2, "alias": 3, "remote": 6}
# The kinds of object besides queues (formats/kinds.tsv), each with its attribute table (<kind>-attributes.tsv).
OBJECT_TABLES = kinds.keys()
# Tables shown in their own row order (authrec: the keywords of the AUTHREC commands, authrec-attributes.tsv;
# entauth: those of DISPLAY ENTAUTH, entauth-attributes.tsv; chlauth: those of SET and DISPLAY CHLAUTH,
# chlauth-attributes.tsv; policy: those of SET and DISPLAY POLICY, policy-attributes.tsv; the status tables of the
# operational commands).
ORDERED_TABLES = (*OBJECT_TABLES, "authrec", "entauth", "chlauth", "policy", *STATUS_TABLES)
# The status inquiries of the operational commands and the status table each reports (formats/<table>-attributes.tsv).
STATUS_COMMANDS = {
    "MQCMD_INQUIRE_CHANNEL_STATUS": "chstatus",
    "MQCMD_INQUIRE_LISTENER_STATUS": "lsstatus",
    "MQCMD_INQUIRE_SERVICE_STATUS": "svstatus",
    "MQCMD_INQUIRE_PUBSUB_STATUS": "pubsub",
    "MQCMD_INQUIRE_CLUSTER_Q_MGR": "clusqmgr",
    "MQCMD_INQUIRE_Q_MGR_STATUS": "qmstatus",
    "MQCMD_INQUIRE_CONNECTION": "conn",
    "MQCMD_INQUIRE_TOPIC_STATUS": "tpstatus",
    "MQCMD_INQUIRE_SUB_STATUS": "sbstatus",
}
TABLES = ("queue", "qmgr", "status", *ORDERED_TABLES)


def table_of_command(code: int) -> str:
    """The attribute table of a PCF command's object: queue, qmgr, a kind's, authrec, entauth, chlauth, policy or a status
    table."""
    status = STATUS_COMMANDS.get(names.command_name(code) or "")
    if status is not None:
        return status
    words = (names.command_name(code) or "").split("_")[2:]
    if "MGR" in words:
        return "qmgr"
    if words == ["ENTITY", "AUTH"]:
        return "entauth"
    if "AUTH" in words and ("REC" in words or "RECS" in words):
        return "authrec"
    if "CHLAUTH" in words:
        return "chlauth"
    if "POLICY" in words:
        return "policy"
    found = kinds.kind_of_command(code)
    return found.key if found else "queue"


@dataclass(frozen=True, slots=True)
class Attr:
    """One attribute (a row of an attribute table) with its keyword in each language."""

    name: str
    parameter: int
    struct: str
    is_string: bool
    max_length: int
    has_range: bool
    applies: frozenset[int]  # queue types; empty for queue manager and status attributes
    access: str  # set, inquire or command
    zos: bool
    keywords: dict[str, str]  # dialect -> keyword ("" = the language has none)
    defaults: dict[int, AttrValue]  # queue type (0 for the queue manager) -> value of a new object

    def keyword(self, dialect: str) -> str:
        return self.keywords.get(dialect, "")


@dataclass(frozen=True, slots=True)
class Words:
    """The words of one parameter in one language."""

    to_value: dict[str, AttrValue]  # input word -> value (value and flag forms)
    to_word: dict[AttrValue, str]  # value -> the word shown (first of value, flag or display form)
    flags: frozenset[str]  # words that are bare keywords (TRIGGER, NOREPLACE)


@dataclass(frozen=True, slots=True)
class CommandRow:
    dialect: str
    command: str
    pcf: int | None
    qtype: int | None
    name: int | None
    options: tuple[str, ...]
    note: str


@dataclass(frozen=True, slots=True)
class OnlyAttr:
    """An attribute one language has and PCF has not (kept in CUSTOM as NAME(VALUE))."""

    dialect: str
    keyword: str
    values: tuple[str, ...]
    default: str
    alterable: bool


@dataclass(frozen=True, slots=True)
class Vocabulary:
    """Everything one language's front end looks up."""

    dialect: str
    queue: dict[str, Attr]  # keyword -> queue attribute (every access)
    qmgr: dict[str, Attr]
    status: dict[str, Attr]
    words: dict[int, Words]  # parameter -> its words
    flags: dict[str, tuple[int, AttrValue]]  # flag word -> (parameter, value)
    synonyms: dict[str, dict[str, str]]  # kind (verb/noun/keyword) -> word -> meaning
    commands: dict[str, CommandRow]
    only: dict[str, OnlyAttr] = field(default_factory=dict)
    objects: dict[str, dict[str, Attr]] = field(default_factory=dict)  # process / namelist / authrec -> keyword -> attribute

    def table(self, table: str) -> dict[str, Attr]:
        """The attributes of one table (queue, qmgr, status, process or namelist) by keyword."""
        if table in self.objects:
            return self.objects[table]
        return {"queue": self.queue, "qmgr": self.qmgr, "status": self.status}[table]

    def attribute(self, keyword: str, table: str = "queue") -> Attr | None:
        return self.table(table).get(keyword.upper())


def _int_or_blank(text: str) -> AttrValue:
    return "" if text == BLANK else value_of(text)


def _attr(row: dict[str, str], applies: frozenset[int], defaults: dict[int, AttrValue]) -> Attr:
    struct = row["struct"]
    return Attr(
        name=row["name"],
        parameter=value_of(row["parameter"]),
        struct=struct,
        is_string=struct in ("MQCFST", "MQCFSL"),
        max_length=int(row["max_length"]) if row.get("max_length") else 0,
        has_range=bool(row.get("range")),
        applies=applies,
        access=row.get("access", "inquire"),
        zos=row.get("platforms", "all") == "zos",
        keywords={d: row.get(d, "") for d in (*DIALECTS, REST)},
        defaults=defaults,
    )


def _default(text: str, is_string: bool) -> AttrValue:
    if is_string or text.startswith("@"):
        return text
    return value_of(text)


@cache
def queue_attributes() -> tuple[Attr, ...]:
    out = []
    for row in read_table("queue-attributes.tsv"):
        applies = frozenset(QUEUE_TYPES[t] for t in row["applies_to"].split(",") if t in QUEUE_TYPES)
        is_string = row["struct"] in ("MQCFST", "MQCFSL")
        defaults = {
            qtype: _default(row[f"default_{word}"], is_string)
            for word, qtype in QUEUE_TYPES.items()
            if qtype in applies and row["access"] == "set" and (row[f"default_{word}"] or is_string)
        }
        out.append(_attr(row, applies, defaults))
    return tuple(out)


@cache
def qmgr_attributes() -> tuple[Attr, ...]:
    out = []
    for row in read_table("qmgr-attributes.tsv"):
        is_string = row["struct"] in ("MQCFST", "MQCFSL")
        out.append(_attr(row, frozenset(), {0: _default(row["default"], is_string)}))
    return tuple(out)


@cache
def status_attributes() -> tuple[Attr, ...]:
    return tuple(_attr(row, frozenset(), {}) for row in read_table("queue-status-attributes.tsv"))


@cache
def object_attributes(table: str) -> tuple[Attr, ...]:
    """The attributes of a kind (or the AUTHREC keywords), in table order (the order displays show them).

    ``applies`` holds the subtypes that take the attribute (empty: all); ``defaults`` the default of each subtype
    that has its own (type_defaults) besides 0, the kind's default."""
    out = []
    for row in read_table(f"{table}-attributes.tsv"):
        is_string = row["struct"] in ("MQCFST", "MQCFSL")
        text = row["default"]
        applies, own = subtype_cells(row)
        defaults: dict[int, AttrValue] = {0: _default(text, is_string) if text or is_string else 0}
        defaults.update((subtype, _default(value, is_string) if value or is_string else 0) for subtype, value in own.items())
        out.append(_attr(row, applies, defaults))
    return tuple(out)


def value_tables() -> tuple[str, ...]:
    """dialect-values.tsv, then each kind's own value words (<kind>-values.tsv) where it has them."""
    own = tuple(f"{k}-values.tsv" for k in (*kinds.keys(), *STATUS_TABLES) if (FORMATS_DIR / f"{k}-values.tsv").is_file())
    return ("dialect-values.tsv", *own)


def attributes_of(table: str) -> tuple[Attr, ...]:
    """Every attribute of a table: queue, qmgr, status, process or namelist."""
    if table == "queue":
        return queue_attributes()
    if table == "qmgr":
        return qmgr_attributes()
    if table == "status":
        return status_attributes()
    if table in ORDERED_TABLES:
        return object_attributes(table)
    raise ValueError(f"unknown attribute table {table!r}")


@cache
def alternates(table: str, dialect: str) -> dict[int, dict[int, int]]:
    """Rows of a kind's table that share a keyword: parameter -> {subtype: the parameter the keyword stands for there}.

    IBM gives one MQSC keyword two PCF parameters by channel type (SSLCIPH is SSLCipherSpec, but SSLCipherSuite on an
    MQTT channel: DEFINE CHANNEL (MQTT) q085610_, Inquire Channel q087430_), so the command languages pick the
    parameter by the command's subtype."""
    by_keyword: dict[str, list[Attr]] = {}
    for a in object_attributes(table):
        if a.keyword(dialect) and a.applies:
            by_keyword.setdefault(a.keyword(dialect), []).append(a)
    out: dict[int, dict[int, int]] = {}
    for group in by_keyword.values():
        for a in group:
            other = {subtype: b.parameter for b in group if b is not a for subtype in b.applies if subtype not in a.applies}
            if other:
                out[a.parameter] = other
    return out


def _optional(text: str) -> int | None:
    return value_of(text) if text else None


@cache
def vocabulary(dialect: str) -> Vocabulary:
    """The tables of one language (``mqsc``, ``tpf`` or ``ibmi``; ``rest``: the REST API v1 queue resource's names)."""
    if dialect not in (*DIALECTS, REST):
        raise ValueError(f"unknown command language {dialect!r}")

    def index(attrs: tuple[Attr, ...]) -> dict[str, Attr]:
        # A keyword two rows share (SSLCIPH: SSLCipherSpec, and SSLCipherSuite on MQTT channels) names the first row;
        # alternates() says which other parameter it stands for on the subtypes that take that one.
        out: dict[str, Attr] = {}
        for a in attrs:
            if a.keyword(dialect):
                out.setdefault(a.keyword(dialect), a)
        return out

    to_value: dict[int, dict[str, AttrValue]] = {}
    to_word: dict[int, dict[AttrValue, str]] = {}
    flag_words: dict[int, set[str]] = {}
    flags: dict[str, tuple[int, AttrValue]] = {}
    for row in (r for t in value_tables() for r in read_table(t)):
        if row["dialect"] != dialect:
            continue
        parameter = value_of(row["parameter"])
        word, form = row["word"], row["form"]
        value = _int_or_blank(row["value"]) if not row["parameter"].startswith(("MQCA_", "MQCACF_")) else ""
        to_word.setdefault(parameter, {}).setdefault(value, "" if word == BLANK else word)
        if form == "display":
            continue
        to_value.setdefault(parameter, {})[word] = value
        if form == "flag":
            flag_words.setdefault(parameter, set()).add(word)
            flags[word] = (parameter, value)
    words = {
        p: Words(to_value.get(p, {}), to_word.get(p, {}), frozenset(flag_words.get(p, ())))
        for p in set(to_value) | set(to_word)
    }
    synonyms: dict[str, dict[str, str]] = {"verb": {}, "noun": {}, "keyword": {}}
    for row in read_table("dialect-synonyms.tsv"):
        if row["dialect"] == dialect:
            synonyms[row["kind"]][row["word"]] = row["means"]
    commands = {
        row["command"]: CommandRow(
            dialect=dialect,
            command=row["command"],
            pcf=_optional(row["pcf"]),
            qtype=_optional(row["qtype"]),
            name=_optional(row["name"]),
            options=tuple(row["options"].split()),
            note=row["note"],
        )
        for row in read_table("dialect-commands.tsv")
        if row["dialect"] == dialect
    }
    only = {
        row["keyword"]: OnlyAttr(dialect, row["keyword"], tuple(row["values"].split()), row["default"], row["alter"] == "yes")
        for row in read_table("dialect-only-attributes.tsv")
        if row["dialect"] == dialect
    }
    return Vocabulary(
        dialect=dialect,
        queue=index(queue_attributes()),
        qmgr=index(qmgr_attributes()),
        status=index(status_attributes()),
        words=words,
        flags=flags,
        synonyms=synonyms,
        commands=commands,
        only=only,
        objects={table: index(object_attributes(table)) for table in ORDERED_TABLES},
    )


@dataclass(frozen=True, slots=True)
class Text:
    """One message of a language: its id (may be empty) and its text with {inserts}."""

    id: str
    text: str

    def format(self, **inserts: object) -> str:
        return self.text.format(**inserts)


@cache
def _messages() -> dict[tuple[str, str], Text]:
    return {(row["dialect"], row["key"]): Text(row["id"], row["text"]) for row in read_table("dialect-messages.tsv")}


def message(dialect: str, key: str) -> Text | None:
    """The message for ``key`` (``ok:MQCMD_CREATE_Q``, ``reason:MQRC_Q_NOT_EMPTY``, ``syntax`` ...)."""
    return _messages().get((dialect, key))


def required_message(dialect: str, key: str) -> Text:
    found = message(dialect, key)
    if found is None:
        raise KeyError(f"dialect-messages.tsv has no {dialect} message {key!r}")
    return found


def line(dialect: str, key: str, **inserts: object) -> str:
    """A message as runmqsc and the IBM i job log print it: ``ID: text`` (the text alone without an id)."""
    text = required_message(dialect, key)
    body = text.format(**inserts)
    return f"{text.id}: {body}" if text.id else body


def failure_key(dialect: str, reason: int, command: int | None = None) -> str:
    """The message key for a failure: the command's row for the reason (``reason:MQCMD_START_CHANNEL:MQRCCF_...``),
    else the reason's own row, else ``fallback`` (which names the reason)."""
    if command is not None:
        key = f"reason:{names.command_name(command)}:{names.reason_name(reason)}"
        if message(dialect, key) is not None:
            return key
    key = f"reason:{names.reason_name(reason)}"
    return key if message(dialect, key) is not None else "fallback"


@dataclass(frozen=True, slots=True)
class ClParameter:
    command: str
    position: int
    keyword: str
    parameter: int | None = None  # the PCF parameter when the command spells the keyword its own way (CHGMQMAUTI CLASSUSER)


@cache
def ibmi_parameters() -> dict[str, tuple[ClParameter, ...]]:
    """IBM i parameters per command, in position order."""
    out: dict[str, list[ClParameter]] = {}
    for row in read_table("ibmi-parameters.tsv"):
        own = row.get("parameter") or ""
        out.setdefault(row["command"], []).append(ClParameter(row["command"], int(row["position"]), row["keyword"], value_of(own) if own else None))
    return {c: tuple(sorted(ps, key=lambda p: p.position)) for c, ps in out.items()}
