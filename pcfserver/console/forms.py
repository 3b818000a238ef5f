"""A form for any kind of object, built from the attribute tables, and the MQSC command a submitted form becomes.

The fields are the rows of ``formats/queue-attributes.tsv`` (queues) or ``formats/<kind>-attributes.tsv`` (every kind of
``formats/kinds.tsv``) that an administrator may set (``access`` = set), that MQSC has a keyword for and that apply
to the object's type (the queue type, or the kind's subtype: CHLTYPE, TRPTYPE, AUTHTYPE).  Each field shows its
MQSC keyword, a label made from its PCF name, the words it takes (a select when the value is one of a set), its
default for a new object and, when altering, the object's current value.  Its help line is the table's
``description`` (what the attribute does: this project's paraphrase of IBM's documentation), then the keyword, the
PCF parameter and the range or length the tables give.

A submitted form becomes one MQSC command: ``DEFINE <noun>(name) [<subtype keyword>(word)] KEYWORD(value) ...`` with
only the fields whose value differs from the default, or ``ALTER`` with only the fields whose value differs from the
object's current one.  Strings are quoted with :func:`pcfserver.dialects.mqsc.quote`; numbers and words are checked
here, so that no value can add a keyword of its own to the command.  The page shows the command, then runs it with
:func:`pcfserver.console.commands.run_mqsc` as runmqsc would: the engine's own checks are the final word.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field, replace
from functools import cache
from typing import TYPE_CHECKING

from pcfserver import kinds, names
from pcfserver.codec.ccsid import codec_for
from pcfserver.console import secrets
from pcfserver.dialects import mqsc
from pcfserver.dialects.tables import QUEUE_TYPES, Attr, attributes_of, vocabulary
from pcfserver.engine.kinds import table_rules
from pcfserver.tables import fill_default, read_table, value_of

if TYPE_CHECKING:
    from pcfserver.engine.engine import Engine

DIALECT = "mqsc"
FIELD_PREFIX = "attr."  # a field's form name: attr.MAXDEPTH
QUEUE_NOUNS = {"QLOCAL": "local", "QMODEL": "model", "QALIAS": "alias", "QREMOTE": "remote"}
QUEUE_NOUN_OF_TYPE = {QUEUE_TYPES[word]: noun for noun, word in QUEUE_NOUNS.items()}
FIRST = ("DESCR",)  # shown before the table's order: what people set most
_NUMBER = re.compile(r"^-?[0-9]+$")
_RANGE = re.compile(r"^(-?[0-9]+)\.\.(-?[0-9]+)$")  # a table's range column, min..max
_SPELLED = {
    "Q": "Queue", "Desc": "Description", "Def": "Default", "Msg": "Message", "Dist": "Distribution", "Mgr": "Manager",
    "Char": "Character", "Clus": "Cluster", "Conn": "Connection", "Auth": "Authentication", "Rev": "Reverse", "Dns": "DNS", "Id": "ID",
}
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


@dataclass(frozen=True, slots=True)
class Field:
    """One attribute of a form."""

    keyword: str  # MQSC keyword: MAXDEPTH
    name: str  # PCF name as IBM's PCF pages write it: MaxQDepth
    parameter: int
    pcf: str  # the parameter's constant: MQIA_MAX_Q_DEPTH
    label: str  # "Max Q depth"
    kind: str  # select, number, text, list, password (console-secrets.tsv)
    choices: tuple[str, ...]  # the words of a select (or the words a number field also takes)
    flags: frozenset[str]  # words that are the whole keyword (TRIGGER / NOTRIGGER)
    default: str  # as MQSC writes it ("" = none known)
    range: str  # "0..999999999" or ""
    max_length: int  # characters of a string (0: not a string, or no limit)
    description: str  # what the attribute does: the table's description column (one sentence)
    hints: str  # what the tables say about its form: keyword, PCF name, range or length
    current: str | None = None  # the object's value when altering, as MQSC writes it
    required: str | None = None  # a value is needed (formats/kind-rules.tsv, required): the name prefix it spares ("" none)
    fixed: bool = False  # set when the object is defined, then shown only: ALTER does not take it (dialect-commands.tsv -KEYWORD)

    @property
    def form_name(self) -> str:
        return FIELD_PREFIX + self.keyword

    @property
    def id(self) -> str:
        return "f-" + self.keyword.lower()

    @property
    def initial(self) -> str:
        """What the field shows before anything is typed: the current value, else the default."""
        return self.current if self.current is not None else self.default


@dataclass(frozen=True, slots=True)
class Form:
    """The fields of one object type and what the form says about the object."""

    table: str  # queue, or a kind's key (channel, listener, ...)
    noun: str  # QLOCAL ... or the kind's MQSC noun (CHANNEL)
    subtype_keyword: str  # CHLTYPE, TRPTYPE, AUTHTYPE; "" when the noun says the type (queues) or there is none
    subtype_word: str  # SDR, TCP, IDPWOS ...
    fields: tuple[Field, ...]
    altering: bool = False  # fields carry the object's current values
    values: Mapping[str, str] = field(default_factory=dict)  # what was submitted, by keyword (shown again on preview)

    def value(self, f: Field) -> str:
        """The value a field shows: what was submitted, else its initial value."""
        return self.values.get(f.keyword, f.initial)

    def field(self, keyword: str) -> Field | None:
        return next((f for f in self.fields if f.keyword == keyword), None)

    def with_values(self, submitted: Mapping[str, Sequence[str]]) -> Form:
        """The same form showing what was submitted (fields the request did not carry keep their initial value)."""
        values = {f.keyword: submitted[f.form_name][0] for f in self.fields if submitted.get(f.form_name)}
        return Form(self.table, self.noun, self.subtype_keyword, self.subtype_word, self.fields, self.altering, values)


@dataclass(frozen=True, slots=True)
class Built:
    """The MQSC command a submitted form becomes, or why it cannot become one."""

    command: str  # empty when there are errors (or, for ALTER, nothing changed)
    errors: dict[str, str]  # keyword (or "name") -> what is wrong
    changed: tuple[str, ...]  # the keywords the command sets

    @property
    def ok(self) -> bool:
        return bool(self.command) and not self.errors


# -- building forms ------------------------------------------------------------------------------------------


def a_or_an(noun: str) -> str:
    """``noun`` with its indefinite article: "a channel", "an authentication information object"."""
    return ("an " if noun[:1].lower() in "aeiou" else "a ") + noun


def label_of(name: str) -> str:
    """A PCF name as words: BackoutThreshold -> Backout threshold, QDesc -> Description, CFStructure -> CF structure."""
    words = [_SPELLED.get(w, w) for w in _CAMEL.sub(" ", name).split()]
    if len(words) > 1 and words[0] == "Queue" and words[1] == "Description":
        words = words[1:]
    out = [w if w.isupper() and len(w) > 1 else w.lower() for w in words]
    return " ".join(out)[:1].upper() + " ".join(out)[1:]


@cache
def _rows(table: str) -> tuple[dict[str, str], ...]:
    return tuple(read_table(f"{table}-attributes.tsv"))


def _words(parameter: int, allowed: frozenset[int] | None) -> tuple[dict[str, int | str], frozenset[str]]:
    """The input words of a parameter, one per value (the first the tables give), limited to the row's value set."""
    found = vocabulary(DIALECT).words.get(parameter)
    if found is None:
        return {}, frozenset()
    out: dict[str, int | str] = {}
    seen: set[int | str] = set()
    for word, value in found.to_value.items():
        if not word or value in seen or (allowed and value not in allowed):
            continue
        seen.add(value)
        out[word] = value
    return out, found.flags


def _within(value: int | str, range_text: str) -> bool:
    """Whether ``value`` lies in a row's range ("0..9"); True for a range this cannot read."""
    bounds = _RANGE.match(range_text)
    return not isinstance(value, int) or bounds is None or int(bounds[1]) <= value <= int(bounds[2])


def _text(parameter: int, value: object) -> str:
    """A stored value as MQSC writes it: a word, a number, a string, or a comma-separated list."""
    if isinstance(value, (list, tuple)):
        return ", ".join(_text(parameter, v) for v in value)
    if isinstance(value, bytes):
        return value.hex().upper()
    if isinstance(value, str):
        return value.rstrip()
    if isinstance(value, int):
        words, _ = _words(parameter, None)
        for word, known in words.items():
            if known == value:
                return word
        return str(value)
    return "" if value is None else str(value)


def _field(attr: Attr, row: Mapping[str, str], default: object, qmgr: str, current: Mapping[int, object] | None) -> Field:
    allowed = frozenset(value_of(w) for w in row.get("values", "").split()) or None
    words, flags = _words(attr.parameter, allowed)
    range_text = row.get("range", "")
    if allowed is None and range_text:  # (words other kinds give the parameter: a COMMINFO's CCSID(ASPUB) is no QMGR CCSID)
        words = {word: value for word, value in words.items() if _within(value, range_text)}
    if attr.struct in ("MQCFSL", "MQCFIL"):
        kind = "list"
    elif attr.is_string or attr.struct == "MQCFBS":
        kind = "text"
    elif words and not range_text:
        kind = "select"
    else:
        kind = "number"
    default_text = ""
    if isinstance(default, str) and default.startswith("@"):
        default_text = fill_default(default, qmgr) if qmgr and "qmgr" in default else ""
    elif default is not None:
        default_text = _text(attr.parameter, default)
    pcf = names.parameter_name(attr.parameter) or str(attr.parameter)
    keyword = attr.keyword(DIALECT)
    hints = [f"MQSC {keyword}", f"PCF {attr.name} ({pcf})"]
    if range_text:
        hints.append(f"{range_text}" + (f" or {', '.join(words)}" if words else ""))
    if attr.max_length and kind in ("text", "list"):
        hints.append(f"up to {attr.max_length} characters" + (" each, separated by commas" if kind == "list" else ""))
    now: str | None = None
    if current is not None:
        now = _text(attr.parameter, current[attr.parameter]) if attr.parameter in current else ""
    if attr.parameter in secrets.parameters():  # never sent to the browser: the field starts empty, and empty keeps it
        kind, default_text, now = "password", "", None if current is None else ""
        hints.append("left empty, it stays as it is" if current is not None else "not shown once set")
    return Field(
        keyword=keyword, name=attr.name, parameter=attr.parameter, pcf=pcf, label=label_of(attr.name), kind=kind,
        choices=tuple(words), flags=flags & frozenset(words), default=default_text, range=range_text,
        max_length=attr.max_length, description=row.get("description") or "", hints="; ".join(hints), current=now,
    )


def _order(fields: Iterable[Field]) -> tuple[Field, ...]:
    out: dict[str, Field] = {}
    for f in fields:
        out.setdefault(f.keyword, f)  # a keyword two rows share (SSLCIPH) is the first row's
    first = [out[k] for k in FIRST if k in out]
    return (*first, *(f for f in out.values() if f.keyword not in FIRST))


def queue_form(noun: str, current: Mapping[int, object] | None = None, qmgr: str = "") -> Form:
    """The form of a queue type (QLOCAL, QMODEL, QALIAS, QREMOTE); with ``current``, of an existing queue."""
    qtype = QUEUE_TYPES[QUEUE_NOUNS[noun]]
    fields = []
    for attr, row in zip(attributes_of("queue"), _rows("queue"), strict=True):
        if row["access"] != "set" or attr.zos or not attr.keyword(DIALECT) or qtype not in attr.applies:
            continue
        fields.append(_field(attr, row, attr.defaults.get(qtype), qmgr, current))
    return Form("queue", noun, "", "", _order(_fixed(noun, fields, current)), current is not None)


def qmgr_form(current: Mapping[int, object], qmgr: str = "") -> Form:
    """The queue manager's settable attributes (formats/qmgr-attributes.tsv) with their current values: ALTER QMGR."""
    fields = []
    for attr, row in zip(attributes_of("qmgr"), _rows("qmgr"), strict=True):
        if row["access"] != "set" or attr.zos or not attr.keyword(DIALECT):
            continue
        fields.append(_field(attr, row, attr.defaults.get(0), qmgr, current))
    return Form("qmgr", "QMGR", "", "", _order(_fixed("QMGR", fields, current)), True)


def subtypes(kind_key: str) -> tuple[str, ...]:
    """The words of a kind's subtypes a new object may have (those with a default object), or () without subtypes."""
    kind = kinds.by_key()[kind_key]
    if not kind.subtype:
        return ()
    words, _ = _words(kind.subtype, frozenset(kind.defaults))
    return tuple(words)


def subtype_keyword(kind_key: str) -> str:
    kind = kinds.by_key()[kind_key]
    if not kind.subtype:
        return ""
    attr = next((a for a in attributes_of(kind_key) if a.parameter == kind.subtype), None)
    return attr.keyword(DIALECT) if attr else ""


def kind_form(kind_key: str, subtype: str = "", current: Mapping[int, object] | None = None, qmgr: str = "") -> Form:
    """The form of a kind of formats/kinds.tsv (its subtype by its MQSC word: SDR, TCP ...); with ``current``, of an
    existing object (whose subtype ``current`` also gives when ``subtype`` is empty)."""
    kind = kinds.by_key()[kind_key]
    value = 0
    word = ""
    if kind.subtype:
        words, _ = _words(kind.subtype, None)
        if not subtype and current is not None and isinstance(current.get(kind.subtype), int):
            value = int(current[kind.subtype])  # type: ignore[call-overload]
            word = _text(kind.subtype, value)
        else:
            word = subtype.upper() or next(iter(subtypes(kind_key)), "")
            found = words.get(word)
            if not isinstance(found, int):
                raise ValueError(f"{kind.noun} has no type {subtype!r}")
            value = found
    fields = []
    for attr, row in zip(attributes_of(kind_key), _rows(kind_key), strict=True):
        if row["access"] != "set" or attr.zos or not attr.keyword(DIALECT) or attr.parameter == kind.subtype:
            continue
        if attr.applies and value not in attr.applies:
            continue
        default = attr.defaults.get(value, attr.defaults.get(0))
        fields.append(_field(attr, row, default, qmgr, current))
    needed = _required(kind_key, value)
    if needed:
        fields = [replace(f, required=needed[f.parameter]) if f.parameter in needed else f for f in fields]
    return Form(kind_key, kind.noun, subtype_keyword(kind_key) if kind.subtype else "", word, _order(_fixed(kind.noun, fields, current)), current is not None)


def _fixed(noun: str, fields: list[Field], current: Mapping[int, object] | None) -> list[Field]:
    """When altering, the fields ALTER <noun> does not take (a topic's TOPICSTR, a subscription's SELECTOR) are marked
    fixed: shown, never sent."""
    if current is None or f"ALTER {noun}" not in mqsc.command_names():
        return fields
    takes = mqsc.options_of(f"ALTER {noun}").attributes
    return [f if f.keyword in takes else replace(f, fixed=True) for f in fields]


def _required(kind_key: str, subtype: int) -> dict[int, str]:
    """The parameters an object of the kind and subtype must not leave blank (formats/kind-rules.tsv, the rows the
    engine checks on Create, Copy and Change), each with the name prefix its rule spares."""
    out: dict[int, str] = {}
    for rule in table_rules().get(kind_key, ()):
        if rule.rule == "required" and (not rule.subtypes or subtype in rule.subtypes):
            for parameter in rule.parameters:
                out.setdefault(parameter, rule.spared)
    return out


def current_attrs(engine: Engine, table: str, name: str) -> Mapping[int, object] | None:
    """An existing object's stored attributes (a queue's, or an object's of a kind), or None when it is not there."""
    if table == "queue":
        queue = engine.queue(name)
        return None if queue is None else queue.attrs
    kind = kinds.by_key()[table]
    found = engine.objects.get(kind.object_type, name)
    return None if found is None else found.attrs


def form_for(table: str, subtype: str = "", current: Mapping[int, object] | None = None, qmgr: str = "") -> Form:
    """queue_form or kind_form by table name (``queue`` takes the queue noun as ``subtype``)."""
    if table == "queue":
        return queue_form(subtype or "QLOCAL", current, qmgr)
    return kind_form(table, subtype, current, qmgr)


# -- a submitted form as MQSC --------------------------------------------------------------------------------


def _same(f: Field, given: str, base: str) -> bool:
    if f.kind == "number" and _NUMBER.match(given.strip()) and _NUMBER.match(base.strip()):
        return int(given) == int(base)
    if f.kind == "list":
        return _items(given) == _items(base)
    if f.kind in ("select", "number"):
        return given.strip().upper() == base.strip().upper()
    return given.rstrip() == base.rstrip()


def _items(text: str) -> list[str]:
    return [part.strip() for part in text.split(",") if part.strip()]


def _part(f: Field, given: str) -> tuple[str, str]:
    """One keyword of the command (or an error)."""
    text = given.strip()
    if f.kind == "select":
        word = text.upper()
        if word not in f.choices:
            return "", f"{f.keyword} takes one of {', '.join(f.choices)}"
        return (word if word in f.flags else f"{f.keyword}({word})"), ""
    if f.kind == "number":
        word = text.upper()
        bounds = _RANGE.match(f.range)
        if _NUMBER.match(word) and bounds and not int(bounds[1]) <= int(word) <= int(bounds[2]):
            # (the range the tables give: checked here, so the preview says so rather than the queue manager's refusal)
            return "", f"{f.keyword} is {int(bounds[1]):,} to {int(bounds[2]):,}" + (f" or one of {', '.join(f.choices)}" if f.choices else "")
        if word in f.choices or _NUMBER.match(word):
            return f"{f.keyword}({word})", ""
        return "", f"{f.keyword} takes a number" + (f" or one of {', '.join(f.choices)}" if f.choices else "")
    if f.kind == "list":
        items = _items(given)
        if f.max_length and any(len(i) > f.max_length for i in items):
            return "", f"each value of {f.keyword} is at most {f.max_length} characters"
        if f.parameter and names.parameter_name(f.parameter) and (names.parameter_name(f.parameter) or "").startswith("MQIA"):
            if any(not _NUMBER.match(i) and i.upper() not in f.choices for i in items):
                return "", f"{f.keyword} takes numbers or words, separated by commas"
            return f"{f.keyword}({','.join(i.upper() for i in items)})", ""
        return f"{f.keyword}({','.join(mqsc.quote(i) for i in items)})", ""
    value = given.rstrip()
    if f.max_length and len(value) > f.max_length:
        return "", f"{f.keyword} is at most {f.max_length} characters"
    if "\n" in value or "\r" in value:
        return "", f"{f.keyword} is one line"
    return f"{f.keyword}({mqsc.quote(value) if value else mqsc.quote(' ', always=True)})", ""


def _outside(text: str, ccsid: int) -> str:
    """The first character of ``text`` the queue manager's CCSID cannot hold ("" when it holds them all, or when the
    CCSID is not known here)."""
    codec = codec_for(ccsid) if ccsid else None
    if codec is None:
        return ""
    for char in text:
        try:
            char.encode(codec)
        except UnicodeEncodeError:
            return char
    return ""


def _build(verb: str, form: Form, name: str, submitted: Mapping[str, Sequence[str]], *, against_current: bool, ccsid: int = 0) -> Built:
    errors: dict[str, str] = {}
    name = name.strip()
    if form.noun == "QMGR":  # ALTER QMGR names nothing
        pass
    elif not name:
        errors["name"] = "A name is required."
    elif problem := _name_problem(form, name):
        errors["name"] = problem
    parts: list[str] = []
    changed: list[str] = []
    for f in form.fields:
        values = submitted.get(f.form_name)
        if not values or f.fixed:
            continue
        given = values[0]
        base = (f.current or "") if against_current else f.default
        if _same(f, given, base):
            continue
        if not given.strip() and f.kind in ("select", "number"):
            continue  # nothing chosen: the default (or the current value) stays
        part, error = _part(f, given)
        if not error and form.table == "qmgr" and f.keyword == "CCSID" and given.strip().isdigit() and codec_for(int(given)) is None:
            error = f"CCSID {int(given)} is not one the queue manager converts (819, 1208, 1252, 850 and 37 are among those it does)."
        if not error and f.kind in ("text", "list", "password") and (char := _outside(given, ccsid)):
            # (the queue manager keeps text in its CCSID and refuses what it cannot hold: MQRCCF_PARM_VALUE_ERROR)
            error = f"{char!r} (U+{ord(char):04X}) is not in the queue manager's character set (CCSID {ccsid}): type it another way"
        if error:
            errors[f.keyword] = error
            continue
        parts.append(part)
        changed.append(f.keyword)
    for f in form.fields:
        if f.required is None or f.keyword in errors or (f.required and name.startswith(f.required)):
            continue
        sent = submitted.get(f.form_name)
        value = sent[0] if sent else (f.current or "") if against_current else f.default
        if not value.strip():
            kind = a_or_an(form.noun.lower()) + (f" of type {form.subtype_word}" if form.subtype_word else "")
            errors[f.keyword] = f"{f.keyword} is required for {kind}."
    if errors:
        return Built("", errors, tuple(changed))
    if verb == "ALTER" and not parts:
        return Built("", {"": "Nothing was changed."}, ())
    head = f"{verb} {form.noun}" if form.noun == "QMGR" else f"{verb} {form.noun}({mqsc.quote(name)})"
    if form.subtype_keyword:
        head += f" {form.subtype_keyword}({form.subtype_word})"
    return Built(" ".join([head, *parts]), {}, tuple(changed))


def _name_problem(form: Form, name: str) -> str:
    """What is wrong with an object's name ("" nothing): longer than its kind's name parameter holds (a channel's 20,
    a subscription's 10,240, 48 otherwise: the tables' lengths), or characters MQ does not take in it.  A
    subscription's name may hold blanks and quotes (MQSC quotes it); other names may not."""
    limit = _name_length(form.table)
    noun = "subscription" if form.table == "sub" else form.noun.lower() if form.table != "queue" else "queue"
    a_noun = a_or_an(noun).capitalize()
    if len(name) > limit:
        return f"{a_noun} name is at most {limit:,} characters; this one has {len(name):,}."
    if form.table == "sub":
        return "A subscription name cannot hold a line break or a tab." if any(c in name for c in "\n\r\t") else ""
    if any(c in name for c in "'\"() ,\n\r\t"):
        return f"{a_noun} name has no blanks, quotes, commas or brackets."
    return ""


@cache
def _name_length(table: str) -> int:
    """How many characters the parameter that names an object of ``table`` holds (48 for queues)."""
    kind = kinds.by_key().get(table) if table != "queue" else None
    if kind is not None:
        for attr in attributes_of(table):
            if attr.parameter == kind.name and attr.max_length:
                return attr.max_length
    return 48


def changed_from(form: Form, submitted: Mapping[str, Sequence[str]]) -> dict[str, list[str]]:
    """The submitted fields less those still at ``form``'s defaults: what was typed into the fields of one type when
    another type is created (a sender's DISCINT(6000) is no SVRCONN's choice)."""
    untouched = {f.form_name for f in form.fields if (given := submitted.get(f.form_name)) and _same(f, given[0], f.default)}
    return {key: list(values) for key, values in submitted.items() if key not in untouched}


def define_command(form: Form, name: str, submitted: Mapping[str, Sequence[str]], *, ccsid: int = 0) -> Built:
    """``DEFINE <noun>(name) ...`` with the fields whose submitted value is not the default (``ccsid``: the queue
    manager's, whose characters text fields are checked against)."""
    return _build("DEFINE", form, name, submitted, against_current=False, ccsid=ccsid)


def alter_command(form: Form, name: str, submitted: Mapping[str, Sequence[str]], *, ccsid: int = 0) -> Built:
    """``ALTER <noun>(name) ...`` with the fields whose submitted value is not the object's current one."""
    return _build("ALTER", form, name, submitted, against_current=True, ccsid=ccsid)


PREVIEWED = "previewed"  # the hidden field a preview page carries: the command it showed
STALE = "The fields changed after the preview: this is the command they make now, and nothing ran. Run it if it is right."


def stale(submitted: Mapping[str, Sequence[str]], built: Built) -> bool:
    """Whether a Run pressed under a preview would run another command than the one previewed (fields were changed
    after the preview): then the new command is previewed instead, and nothing runs."""
    previewed = submitted.get(PREVIEWED)
    return bool(previewed and previewed[0] and previewed[0] != built.command)
