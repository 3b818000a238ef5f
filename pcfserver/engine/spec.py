"""What the engine validates against, built once from ``formats/`` tables.

``formats/queue-attributes.tsv``, ``formats/qmgr-attributes.tsv`` and ``formats/commands.tsv``
hold every fact (ids, structures, ranges, value sets, lengths, queue types, defaults, reason
codes); this module only turns their rows into frozen lookup structures so that the per-command
work is dictionary lookups and integer comparisons.  Adding an attribute is one table row.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import cache

from pcfserver import kinds, mq
from pcfserver.codec.model import (
    ByteString,
    ByteStringFilter,
    Group,
    Integer,
    Integer64,
    Integer64List,
    IntegerFilter,
    IntegerList,
    Parameter,
    String,
    StringFilter,
    StringList,
)
from pcfserver.tables import STATUS_TABLES, constants, read_table, structures, subtype_cells, value_of

AttrValue = int | str

# Queue types by the column suffix used in queue-attributes.tsv (default_local, ...).
QUEUE_TYPES: dict[str, int] = {
    "local": mq.MQQT_LOCAL,
    "model": mq.MQQT_MODEL,
    "alias": mq.MQQT_ALIAS,
    "remote": mq.MQQT_REMOTE,
}
CLUSTER_TYPE = mq.MQQT_CLUSTER


def default_object_name(qtype: int) -> str:
    """IBM's default object of a queue type: SYSTEM.DEFAULT.LOCAL.QUEUE and so on."""
    for word, value in QUEUE_TYPES.items():
        if value == qtype:
            return f"SYSTEM.DEFAULT.{word.upper()}.QUEUE"
    raise ValueError(f"no default object for queue type {qtype}")


STRUCT_CLASSES: dict[str, type[Parameter]] = {
    "MQCFIN": Integer,
    "MQCFST": String,
    "MQCFIL": IntegerList,
    "MQCFSL": StringList,
    "MQCFIN64": Integer64,
    "MQCFIL64": Integer64List,
    "MQCFBS": ByteString,
    "MQCFGR": Group,
    "MQCFIF": IntegerFilter,
    "MQCFSF": StringFilter,
    "MQCFBF": ByteStringFilter,
}


def _struct_reasons(column: str) -> dict[type[Parameter], int]:
    rows = structures()
    out: dict[type[Parameter], int] = {}
    for name, cls in STRUCT_CLASSES.items():
        value = getattr(rows[name], column)
        if value is not None:
            out[cls] = value
    return out


# Per structure class: the reason for an unknown parameter id and for a duplicate (structures.tsv).
PARM_ID_REASON: dict[type[Parameter], int] = _struct_reasons("parm_id_reason")
DUPLICATE_REASON: dict[type[Parameter], int] = _struct_reasons("duplicate_reason")
STRING_LENGTH_REASON: dict[type[Parameter], int] = _struct_reasons("count_reason")
OPERATOR_REASON: dict[type[Parameter], int] = _struct_reasons("operator_reason")
# Duplicate families (S8 3017/3018/3066): any two integer structures with one id are duplicates,
# and so are any two string structures.
FAMILY: dict[type[Parameter], int] = {
    Integer: 1,
    Integer64: 1,
    IntegerList: 1,
    Integer64List: 1,
    String: 2,
    StringList: 2,
    ByteString: 3,
    Group: 4,
}


def byte_text(data: bytes, length: int = 0) -> str:
    """A byte string attribute (MQCFBS: a subscription's SubId, DestinationCorrelId) as an object keeps it: upper-case
    hex, padded with nulls to the attribute's length (IBM's MQBYTEn fields are fixed length).  Text, so the store's
    records stay JSON and a display shows it as runmqsc does (SUBID(414D5120...))."""
    return data.ljust(length, b"\0").hex().upper()


def byte_value(text: str, length: int = 0) -> bytes:
    """The bytes of an attribute kept by :func:`byte_text` (an empty text: all nulls)."""
    return bytes.fromhex(text).ljust(length, b"\0")


def in_domain(value: int, values: frozenset[int] | None, has_range: bool, low: int, high: int) -> bool:
    """Whether an integer is allowed: in the value set or the range (either may be absent)."""
    if values is None and not has_range:
        return True
    if values is not None and value in values:
        return True
    return has_range and low <= value <= high


@dataclass(frozen=True, slots=True)
class Attribute:
    """One queue or queue manager attribute (a row of queue-attributes.tsv / qmgr-attributes.tsv)."""

    name: str
    pid: int
    struct: str
    is_string: bool
    values: frozenset[int] | None
    low: int
    high: int
    has_range: bool
    max_length: int
    applies: frozenset[int]
    defaults: dict[int, AttrValue]
    access: str
    zos: bool
    value_reason: int
    wrong_type_reason: int = 0  # given for a subtype that does not take it (0: the structure's PARM_ID_ERROR)

    def value_ok(self, value: int) -> bool:
        return in_domain(value, self.values, self.has_range, self.low, self.high)


@dataclass(frozen=True, slots=True)
class Param:
    """One parameter a command accepts (a row of commands.tsv, completed from the attribute tables)."""

    pid: int
    name: str
    cls: type[Parameter]
    required: bool
    position: int
    values: frozenset[int] | None
    low: int
    high: int
    has_range: bool
    max_length: int
    applies: frozenset[int] | None
    zos: bool
    value_reason: int
    name_rule: str
    selectors: frozenset[int] | None
    attribute: Attribute | None
    applies_reason: int = 0  # given for a subtype that does not take it (0: the structure's PARM_ID_ERROR)
    name_reason: int = 0  # a name (name_rule) with characters the rule refuses (0: MQRCCF_OBJECT_NAME_ERROR)

    def value_ok(self, value: int) -> bool:
        return in_domain(value, self.values, self.has_range, self.low, self.high)


@dataclass(frozen=True, slots=True)
class CommandSpec:
    code: int
    name: str
    params: dict[int, Param]
    required: tuple[Param, ...]
    max_params: int
    allow_filter: bool
    set_attributes: frozenset[int] = field(default_factory=frozenset)
    kind: str = "queue"  # the object the command acts on: queue, or a kind of formats/kinds.tsv (its filters' table)
    filter_table: str = ""  # a status table its filter is on instead ("@filter:chstatus"): see Spec.attributes_of
    subtype: int = mq.MQIA_Q_TYPE  # the parameter whose value decides which attributes apply (QType, ChannelType)


@dataclass(frozen=True, slots=True)
class ObjectSpec:
    """One kind of object besides queues (formats/kinds.tsv): its attribute table."""

    kind: str
    attributes: dict[int, Attribute]
    stored: tuple[Attribute, ...]  # settable attributes and the inquire-only strings (alteration date, time)
    reported: tuple[Attribute, ...]  # what Inquire reports, in table order

    def stored_for(self, subtype: int) -> tuple[Attribute, ...]:
        """The stored attributes an object of a subtype (0: a kind without subtypes) holds."""
        return tuple(a for a in self.stored if not a.applies or subtype in a.applies)

    def reported_for(self, subtype: int) -> tuple[Attribute, ...]:
        return tuple(a for a in self.reported if not a.applies or subtype in a.applies)

    def default(self, attr: Attribute, subtype: int) -> AttrValue:
        """An attribute's value in a new default object of a subtype."""
        return attr.defaults.get(subtype, attr.defaults[0])


def selector_groups(table: str = "qmgr-attributes.tsv") -> dict[int, frozenset[int]]:
    """A table's group selectors and the attributes each stands for (its group column): Inquire Queue Manager's
    (MQIACF_Q_MGR_EVENT, ...), Inquire Queue Status's and Inquire Channel Status's MQIACF_MONITORING."""
    groups: dict[int, set[int]] = {}
    for row in read_table(table):
        for group in (row.get("group") or "").split():
            groups.setdefault(value_of(group), set()).add(value_of(row["parameter"]))
    return {group: frozenset(members) for group, members in groups.items()}


def expand_groups(selectors: tuple[int, ...], groups: dict[int, frozenset[int]]) -> tuple[int, ...]:
    """Selectors with each group selector's members added (DISPLAY QMGR EVENT, DISPLAY QSTATUS MONITOR)."""
    if not any(s in groups for s in selectors):
        return selectors
    return (*selectors, *(member for s in selectors for member in groups.get(s, ())))


@dataclass(frozen=True, slots=True)
class Spec:
    """Everything the engine checks against."""

    queue_attributes: dict[int, Attribute]
    qmgr_attributes: dict[int, Attribute]
    commands: dict[int, CommandSpec]
    known_commands: frozenset[int]
    # Per queue type: the attributes a queue of that type holds (set and stored inquire-only ones),
    # and the ones Inquire Queue reports, in table order.
    stored: dict[int, tuple[Attribute, ...]]
    reported: dict[int, tuple[Attribute, ...]]
    qmgr_reported: tuple[Attribute, ...]
    objects: dict[str, ObjectSpec] = field(default_factory=dict)
    # Inquire Queue Manager's group selectors (MQIACF_Q_MGR_SYSTEM, ...) and the attributes each stands for
    # (qmgr-attributes.tsv's group column).
    qmgr_groups: dict[int, frozenset[int]] = field(default_factory=dict)
    # The same for the status tables that have them (queue-status, chstatus: MQIACF_MONITORING), by table.
    status_groups: dict[str, dict[int, frozenset[int]]] = field(default_factory=dict)
    records: dict[str, dict[int, Attribute]] = field(default_factory=dict)  # RECORD_TABLES' attributes

    def attributes_of(self, kind: str) -> dict[int, Attribute]:
        """The attribute table of a command's object (queue attributes for queue commands)."""
        found = self.objects.get(kind)
        if found is not None:
            return found.attributes
        return self.records.get(kind, self.queue_attributes)


# The cells a status table may leave out (formats/queue-status-attributes.tsv has only name, parameter, struct, mqsc,
# max_length): its rows are read as display-only attributes of every platform.
_FILTER_ROW = {"values": "", "range": "", "default": "", "type_defaults": "", "applies_to": "", "access": "inquire", "platforms": "all"}


# Tables that are not kinds of named object but give their commands' filters their attributes (the commands with
# CHLAUTH in their name: channel authentication records, formats/chlauth-attributes.tsv).
RECORD_TABLES: dict[str, tuple[int, ...]] = {"chlauth": (mq.MQCMD_SET_CHLAUTH_REC, mq.MQCMD_INQUIRE_CHLAUTH_RECS)}


def command_kind(code: int) -> str:
    """The kind a command acts on: a kind of formats/kinds.tsv (MQCMD_CREATE_PROCESS), a record table, else queue."""
    found = kinds.kind_of_command(code)
    if found:
        return found.key
    return next((table for table, codes in RECORD_TABLES.items() if code in codes), "queue")


def _range(text: str) -> tuple[int, int, bool]:
    if not text:
        return 0, 0, False
    low, high = text.split("..")
    return value_of(low), value_of(high), True


def _values(text: str) -> frozenset[int] | None:
    if not text:
        return None
    return frozenset(value_of(name) for name in text.split())


def _length(text: str) -> int:
    if not text:
        return 0
    return int(text.split("=")[-1])


def _reason(text: str) -> int:
    return value_of(text) if text else mq.MQRCCF_PARM_VALUE_ERROR


def _default(text: str, is_string: bool) -> AttrValue:
    if is_string:
        return text
    return value_of(text)


def _attribute(row: dict[str, str], applies: frozenset[int], defaults: dict[int, AttrValue], zos: bool) -> Attribute:
    """An Attribute from the columns queue-attributes.tsv and qmgr-attributes.tsv share."""
    struct = row["struct"]
    low, high, has_range = _range(row["range"])
    return Attribute(
        name=row["name"],
        pid=value_of(row["parameter"]),
        struct=struct,
        is_string=_is_string(struct),
        values=_values(row["values"]),
        low=low,
        high=high,
        has_range=has_range,
        max_length=_length(row["max_length"]),
        applies=applies,
        defaults=defaults,
        access=row["access"],
        zos=zos,
        value_reason=_reason(row.get("value_reason", "")),
    )


def _is_string(struct: str) -> bool:
    return struct in ("MQCFST", "MQCFSL")


def _is_text(struct: str) -> bool:
    """Kept as text: strings, and byte strings as hex (byte_text)."""
    return struct in ("MQCFST", "MQCFSL", "MQCFBS")


def _queue_attribute(row: dict[str, str]) -> Attribute:
    is_string = _is_string(row["struct"])
    applies = frozenset(QUEUE_TYPES[t] for t in row["applies_to"].split(",") if t in QUEUE_TYPES)
    defaults: dict[int, AttrValue] = {}
    for word, qtype in QUEUE_TYPES.items():
        if qtype not in applies or row["access"] != "set":
            continue
        text = row[f"default_{word}"]
        if not text and not is_string:
            raise ValueError(f"queue-attributes.tsv: {row['name']} has no default for {word} queues")
        defaults[qtype] = _default(text, is_string)
    return _attribute(row, applies, defaults, zos=row["platforms"] == "zos")


def _object_value(text: str, is_string: bool) -> AttrValue:
    return text if is_string else (value_of(text) if text else 0)


def _object_attribute(row: dict[str, str], wrong_type: int = 0) -> Attribute:
    """A row of a kind's table: applies_to (subtypes), type_defaults (a subtype's own default) and wrong_type_reason
    (for a subtype that does not take it; ``wrong_type`` when empty) may be given."""
    is_string = _is_text(row["struct"])
    applies, own = subtype_cells(row)
    defaults: dict[int, AttrValue] = {0: _object_value(row["default"], is_string)}
    defaults.update((subtype, _object_value(text, is_string)) for subtype, text in own.items())
    attr = _attribute(row, applies, defaults, zos=row["platforms"] == "zos")
    reason = row.get("wrong_type_reason", "")
    return replace(attr, wrong_type_reason=value_of(reason) if reason else wrong_type)


def _object_spec(kind: str) -> ObjectSpec:
    wrong_type = kinds.by_key()[kind].attribute_reason
    attrs = {a.pid: a for a in (_object_attribute(row, wrong_type) for row in read_table(f"{kind}-attributes.tsv"))}
    usable = [a for a in attrs.values() if not a.zos and a.access != "command"]
    return ObjectSpec(
        kind=kind,
        attributes=attrs,
        stored=tuple(a for a in usable if a.access == "set" or _is_text(a.struct)),
        reported=tuple(usable),
    )


def _qmgr_attribute(row: dict[str, str]) -> Attribute:
    text = row["default"]
    default: AttrValue = text if _is_string(row["struct"]) or text.startswith("@") else value_of(text)
    return _attribute(row, frozenset(), {0: default}, zos=False)


def _param_from_attribute(attr: Attribute, required: bool = False, position: int = 0) -> Param:
    return Param(
        pid=attr.pid,
        name=attr.name,
        cls=STRUCT_CLASSES[attr.struct],
        required=required,
        position=position,
        values=attr.values,
        low=attr.low,
        high=attr.high,
        has_range=attr.has_range,
        max_length=attr.max_length,
        applies=attr.applies or None,
        zos=attr.zos,
        value_reason=attr.value_reason,
        name_rule="",
        selectors=None,
        attribute=attr if attr.access == "set" else None,
        applies_reason=attr.wrong_type_reason,
    )


def _command_param(row: dict[str, str], tables: tuple[dict[int, Attribute], ...], selectors: dict[str, frozenset[int]]) -> Param:
    """A commands.tsv row completed from the first attribute table (of ``tables``) that has its parameter."""
    pid = value_of(row["parameter"])
    base = next((t[pid] for t in tables if pid in t), None)
    struct = row["struct"] or (base.struct if base else "")
    if not struct:
        raise ValueError(f"commands.tsv: {row['command']} {row['parameter']} has no structure")
    values: frozenset[int] | None
    selector_set: frozenset[int] | None = None
    if row["values"].startswith("@"):
        selector_set = selectors[row["values"]]
        values = None
    elif row["values"]:
        values = _values(row["values"])
    else:
        values = base.values if base else None
    if row["range"]:
        low, high, has_range = _range(row["range"])
    elif base:
        low, high, has_range = base.low, base.high, base.has_range
    else:
        low, high, has_range = 0, 0, False
    applies: frozenset[int] | None
    if row["applies_to"] == "-":
        applies = None
    elif row["applies_to"]:
        applies = frozenset(QUEUE_TYPES[t] for t in row["applies_to"].split(","))
    else:
        applies = (base.applies or None) if base else None
    platforms = row["platforms"] or ("zos" if base and base.zos else "all")
    return Param(
        pid=pid,
        name=base.name if base else row["parameter"],
        cls=STRUCT_CLASSES[struct],
        required=row["required"] == "yes",
        position=int(row["position"]) if row["position"] else 0,
        values=values,
        low=low,
        high=high,
        has_range=has_range,
        max_length=int(row["max_length"]) if row["max_length"] else (base.max_length if base else 0),
        applies=applies,
        zos=platforms == "zos",
        value_reason=value_of(row["value_reason"]) if row["value_reason"] else (base.value_reason if base else mq.MQRCCF_PARM_VALUE_ERROR),
        name_rule=row["name_rule"],
        selectors=selector_set,
        attribute=None,
        name_reason=_name_reason(row, base),
    )


def _name_reason(row: dict[str, str], base: Attribute | None) -> int:
    """A name parameter's reason for characters its rule refuses: the value_reason its attribute table gives it
    (a channel name's MQRCCF_CHANNEL_NAME_ERROR 4044), else 0 (MQRCCF_OBJECT_NAME_ERROR)."""
    if not row["name_rule"] or base is None or base.value_reason == mq.MQRCCF_PARM_VALUE_ERROR:
        return 0
    return base.value_reason


def _allow_every_sort(code: int, params: dict[int, Param]) -> None:
    """An inquiry's subtype filter also takes the kind's subtype_all (MQCHT_ALL, MQXPT_ALL, MQAIT_ALL), which is no
    value of the attribute itself: Inquire Channel Names q087520_, DISPLAY LISTENER TRPTYPE(ALL) q086170_, DISPLAY
    AUTHINFO AUTHTYPE(ALL) q085990_."""
    found = kinds.by_command().get(code)
    if found is None or not found[1].startswith("INQUIRE"):
        return
    kind = found[0]
    param = params.get(kind.subtype) if kind.subtype and kind.subtype_all is not None else None
    if param is not None and param.values is not None and kind.subtype_all is not None:
        params[kind.subtype] = replace(param, values=param.values | {kind.subtype_all})


@cache
def spec() -> Spec:
    """The engine's tables, loaded once per process."""
    queue_attrs = {a.pid: a for a in map(_queue_attribute, read_table("queue-attributes.tsv"))}
    qmgr_attrs = {a.pid: a for a in map(_qmgr_attribute, read_table("qmgr-attributes.tsv"))}
    objects = {kind: _object_spec(kind) for kind in kinds.keys()}
    records = {table: {a.pid: a for a in map(_object_attribute, read_table(f"{table}-attributes.tsv"))} for table in RECORD_TABLES}
    # The status tables, for the filters of the status inquiries (their rows: at least name, parameter, struct, max_length).
    for table_name in ("queue-status", *STATUS_TABLES):
        records[table_name] = {a.pid: a for a in (_object_attribute(_FILTER_ROW | row) for row in read_table(f"{table_name}-attributes.tsv"))}
    all_value = mq.MQIACF_ALL
    qmgr_group_members = selector_groups()
    status_groups = {table: selector_groups(f"{table}-attributes.tsv") for table in ("queue-status", *STATUS_TABLES)}
    selectors = {
        "@queue-selectors": frozenset(
            [all_value, mq.MQCA_Q_NAME, mq.MQIA_Q_TYPE]
            + [a.pid for a in queue_attrs.values() if a.access != "command"]
        ),
        "@qmgr-selectors": frozenset([all_value, *qmgr_attrs, *qmgr_group_members]),
        "@queue-status-selectors": frozenset(
            [all_value, *(value_of(row["parameter"]) for row in read_table("queue-status-attributes.tsv")), *status_groups["queue-status"]]
        ),
    }
    for kind, found in objects.items():
        subtype = kinds.by_key()[kind].subtype
        selectors[f"@{kind}-selectors"] = frozenset(
            [all_value, *(a.pid for a in found.attributes.values() if a.access != "command"), *([subtype] if subtype else [])]
        )
    for table_name in STATUS_TABLES:
        selectors[f"@{table_name}-selectors"] = frozenset(
            [all_value, *(value_of(row["parameter"]) for row in read_table(f"{table_name}-attributes.tsv")), *status_groups[table_name]]
        )
    rows_by_command: dict[str, list[dict[str, str]]] = {}
    for row in kinds.expand_rows(read_table("commands.tsv")):
        rows_by_command.setdefault(row["command"], []).append(row)
    commands: dict[int, CommandSpec] = {}
    for name, rows in rows_by_command.items():
        params: dict[int, Param] = {}
        allow_filter = False
        filter_table = ""
        set_attrs: list[int] = []
        code = constants().values[name]
        kind = command_kind(code)
        own = objects[kind].attributes if kind in objects else queue_attrs
        groups = {"@queue-attributes": queue_attrs, "@qmgr-attributes": qmgr_attrs, **{f"@{k}-attributes": o.attributes for k, o in objects.items()}}
        for row in rows:
            parameter = row["parameter"]
            if not parameter:
                continue
            if parameter == "@filter" or parameter.startswith("@filter:"):
                allow_filter = True
                filter_table = parameter.partition(":")[2]
                if filter_table and filter_table not in records:
                    raise ValueError(f"commands.tsv: {name} filters on an unknown table {filter_table}")
                continue
            if parameter in groups:
                for attr in groups[parameter].values():
                    if attr.access == "set" and attr.pid not in params:
                        params[attr.pid] = _param_from_attribute(attr)
                        if not attr.zos:
                            set_attrs.append(attr.pid)
                continue
            param = _command_param(row, (own, queue_attrs, qmgr_attrs), selectors)
            params[param.pid] = param
        _allow_every_sort(code, params)
        required = tuple(sorted((p for p in params.values() if p.required), key=lambda p: p.position))
        if [p.position for p in required] != list(range(1, len(required) + 1)):
            raise ValueError(f"commands.tsv: {name} required positions are not 1..n")
        # The most parameters a command can carry without a duplicate; z/OS-only ones count so
        # that sending one is reported as that parameter's error, not as a count error.
        usable = len(params)
        subtype = kinds.by_key()[kind].subtype if kind in objects else mq.MQIA_Q_TYPE
        commands[code] = CommandSpec(
            code=code,
            name=name,
            params=params,
            required=required,
            max_params=usable + (1 if allow_filter else 0),
            allow_filter=allow_filter,
            filter_table=filter_table,
            set_attributes=frozenset(set_attrs),
            kind=kind,
            subtype=subtype,
        )
    known = frozenset(
        value for key, value in constants().values.items() if key.startswith("MQCMD_") and key != "MQCMD_NONE"
    )
    stored: dict[int, tuple[Attribute, ...]] = {}
    reported: dict[int, tuple[Attribute, ...]] = {}
    for qtype in QUEUE_TYPES.values():
        applying = [a for a in queue_attrs.values() if qtype in a.applies and not a.zos and a.access != "command"]
        # Settable attributes and the inquire-only strings (creation/alteration date and time) are
        # kept with the queue; the inquire-only integers (depth, open counts) are runtime status.
        stored[qtype] = tuple(a for a in applying if a.access == "set" or a.is_string)
        reported[qtype] = tuple(applying)
    qmgr_reported = tuple(a for a in qmgr_attrs.values() if a.pid != mq.MQCA_Q_MGR_NAME)
    return Spec(
        queue_attributes=queue_attrs,
        qmgr_attributes=qmgr_attrs,
        commands=commands,
        known_commands=known,
        stored=stored,
        reported=reported,
        qmgr_reported=qmgr_reported,
        objects=objects,
        records=records,
        qmgr_groups=qmgr_group_members,
        status_groups=status_groups,
    )
