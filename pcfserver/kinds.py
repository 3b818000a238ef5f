"""The kinds of named object besides queues and the queue manager (``formats/kinds.tsv``).

A kind is its row there (its MQOT_* type, the parameters that name it, its commands' word, its MQSC noun, REST
qualifier and IBM i noun), its attribute table ``formats/<kind>-attributes.tsv`` and its default objects in
``formats/default-objects.tsv``.  Every layer reads this module to learn which kinds exist: the engine (its
commands), the command languages (nouns, tables), the REST API (qualifiers) and ``dump``; none of them names a
kind in its code, so adding a kind is rows, a table and (for rules of its own) a small module.

Rows of ``commands.tsv`` and ``command-authorities.tsv`` whose command holds ``{word}`` are templates: they
stand for that command of every kind (:func:`expand_rows`).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from functools import cache

from pcfserver.tables import constants, read_table, value_of

VERBS = ("CREATE", "COPY", "CHANGE", "DELETE", "INQUIRE")


@dataclass(frozen=True, slots=True)
class Kind:
    """One kind of named object (a row of formats/kinds.tsv)."""

    key: str  # process, channel, ...: formats/<key>-attributes.tsv
    word: str  # PROCESS, AUTH_INFO, ...: MQCMD_CREATE_<word>
    object_type: int
    name: int  # the parameter that names one (MQCA_PROCESS_NAME)
    from_name: int  # Copy's source and target
    to_name: int
    names: int  # Inquire Names' answer (MQCACF_PROCESS_NAMES); 0 = no Inquire Names
    selectors: int  # Inquire's attribute list (MQIACF_PROCESS_ATTRS)
    subtype: int  # ChannelType / AuthInfoType parameter; 0 = none
    defaults: dict[int, str]  # subtype (0 without one) -> the default object Create starts from
    mqsc: tuple[str, ...]  # the MQSC noun, then its synonyms
    rest: tuple[str, ...]  # runCommandJSON qualifiers
    ibmi: str  # the IBM i CL noun (CRTMQM<noun>), "" = none
    subtype_reason: int  # a subtype given to Change/Copy/Replace that is not the object's
    subtype_all: int | None  # the subtype value an inquiry gives for every sort (MQCHT_ALL; MQAIT_ALL is 0); None = none
    exists_reason: int  # Create/Copy onto an existing name without Replace
    unknown_reason: int  # Change/Copy/Delete/Inquire of a name that is not there
    attribute_reason: int  # an attribute given for a subtype that does not take it; 0 = the structure's PARM_ID_ERROR
    names_excludes: frozenset[int] = frozenset()  # subtypes Inquire Names leaves out unless asked for by name (CLNTCONN)

    @property
    def noun(self) -> str:
        return self.mqsc[0]

    def command(self, verb: str) -> int:
        """MQCMD_<verb>_<word> (verb CREATE ... INQUIRE, or INQUIRE_NAMES)."""
        if verb == "INQUIRE_NAMES":
            return constants().values[f"MQCMD_INQUIRE_{self.word}_NAMES"]
        return constants().values[f"MQCMD_{verb}_{self.word}"]

    def default_object(self, subtype: int = 0) -> str:
        return self.defaults.get(subtype, "")


def _param(text: str) -> int:
    return value_of(text) if text else 0


def _defaults(text: str) -> dict[int, str]:
    if "=" not in text:
        return {0: text} if text else {}
    out: dict[int, str] = {}
    for part in text.split("|"):
        subtype, _, name = part.partition("=")
        out[value_of(subtype.strip())] = name.strip()
    return out


@cache
def kinds() -> tuple[Kind, ...]:
    """Every kind, in the table's order."""
    return tuple(
        Kind(
            key=row["kind"],
            word=row["word"],
            object_type=value_of(row["object_type"]),
            name=value_of(row["name"]),
            from_name=value_of(row["from_name"]),
            to_name=value_of(row["to_name"]),
            names=_param(row["names"]),
            selectors=value_of(row["selectors"]),
            subtype=_param(row["subtype"]),
            defaults=_defaults(row["default"]),
            mqsc=tuple(row["mqsc"].split()),
            rest=tuple(row["rest"].split()),
            ibmi=row["ibmi"],
            subtype_reason=value_of(row["subtype_reason"] or "MQRCCF_OBJECT_WRONG_TYPE"),
            subtype_all=value_of(row["subtype_all"]) if row["subtype_all"] else None,
            exists_reason=value_of(row.get("exists_reason") or "MQRCCF_OBJECT_ALREADY_EXISTS"),
            unknown_reason=value_of(row.get("unknown_reason") or "MQRC_UNKNOWN_OBJECT_NAME"),
            attribute_reason=_param(row.get("attribute_reason", "")),
            names_excludes=frozenset(value_of(w) for w in (row.get("names_excludes") or "").split()),
        )
        for row in _rows()
    )


@cache
def _rows() -> tuple[dict[str, str], ...]:
    """formats/kinds.tsv's rows, read once."""
    return tuple(read_table("kinds.tsv"))


def keys() -> tuple[str, ...]:
    return tuple(k.key for k in kinds())


@cache
def by_key() -> dict[str, Kind]:
    return {k.key: k for k in kinds()}


@cache
def by_object_type() -> dict[int, Kind]:
    return {k.object_type: k for k in kinds()}


@cache
def by_command() -> dict[int, tuple[Kind, str]]:
    """Each kind's commands: code -> (kind, verb), verb CREATE/COPY/CHANGE/DELETE/INQUIRE/INQUIRE_NAMES."""
    out: dict[int, tuple[Kind, str]] = {}
    for kind in kinds():
        for verb in VERBS:
            out[kind.command(verb)] = (kind, verb)
        if kind.names:
            out[kind.command("INQUIRE_NAMES")] = (kind, "INQUIRE_NAMES")
    return out


@cache
def by_qualifier() -> dict[str, Kind]:
    """runCommandJSON qualifiers and MQSC nouns (and synonyms) -> kind."""
    out: dict[str, Kind] = {}
    for kind in kinds():
        for word in (*kind.mqsc, *kind.rest):
            out.setdefault(word, kind)
    return out


def kind_of_command(code: int) -> Kind | None:
    found = by_command().get(code)
    return found[0] if found else None


@cache
def name_parameters() -> tuple[int, ...]:
    """The parameters that name an object of some kind (name, Copy's source, Copy's target), kind by kind."""
    return tuple(p for k in kinds() for p in (k.name, k.from_name, k.to_name))


def _fields(kind: Kind) -> dict[str, str]:
    """The kinds.tsv cells a template row may name, as written there (constant names)."""
    row = next(r for r in _rows() if r["kind"] == kind.key)
    return {
        "word": kind.word,
        "kind": kind.key,
        **{key: row[key] for key in ("object_type", "name", "from_name", "to_name", "selectors", "subtype")},
    }


def expand_rows(rows: Iterable[dict[str, str]]) -> list[dict[str, str]]:
    """Table rows with template rows (``{word}`` in their command) replaced by one row per kind.

    A row naming ``{subtype}`` is left out for a kind without one, an ``_NAMES`` row for a kind without Inquire Names.
    """
    out: list[dict[str, str]] = []
    for row in rows:
        if "{word}" not in row.get("command", ""):
            out.append(row)
            continue
        for kind in kinds():
            fields = _fields(kind)
            if "{subtype}" in row.get("parameter", "") and not kind.subtype:
                continue
            if row["command"].endswith("_NAMES") and not kind.names:
                continue
            out.append({key: value.format(**fields) if "{" in value else value for key, value in row.items()})
    return out
