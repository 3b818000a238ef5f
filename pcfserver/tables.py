"""Loads the declarative tables in ``formats/``: constants, structures, CCSIDs, value sets, attributes.

Everything here is read once at import; the rest of the package builds its Construct
definitions, validation and names from these tables.
"""

from __future__ import annotations

import csv
from dataclasses import dataclass
from functools import cache
from pathlib import Path


def _formats_dir() -> Path:
    """formats/ beside the package in a checkout, or pcfserver/formats inside an installed wheel."""
    here = Path(__file__).resolve().parent
    for candidate in (here.parent / "formats", here / "formats"):
        if (candidate / "constants.tsv").is_file():
            return candidate
    raise FileNotFoundError(f"the formats/ tables are neither beside nor inside {here}")


FORMATS_DIR = _formats_dir()


def read_table(name: str) -> list[dict[str, str]]:
    """Rows of a tab-separated table in ``formats/``; lines starting with ``#`` are comments."""
    with open(FORMATS_DIR / name, encoding="utf-8", newline="") as handle:
        lines = [line for line in handle if line.strip() and not line.startswith("#")]
    return [dict(row) for row in csv.DictReader(lines, delimiter="\t", quoting=csv.QUOTE_NONE)]


@dataclass(frozen=True, slots=True)
class Constants:
    """Every MQ constant: name to value, and per group the preferred name of each value."""

    values: dict[str, int]
    groups: dict[str, list[str]]

    def name_in(self, prefixes: tuple[str, ...], value: int) -> str | None:
        for prefix in prefixes:
            for name in self.groups.get(prefix, ()):
                if self.values[name] == value:
                    return name
        return None


# Status tables (formats/<name>-attributes.tsv, the kind-table columns): what the status inquiries of the operational
# commands report (channel, listener, service, pub/sub, cluster queue manager, topic and subscription status); display only.
STATUS_TABLES = ("chstatus", "lsstatus", "svstatus", "pubsub", "clusqmgr", "qmstatus", "conn", "tpstatus", "sbstatus")


@cache
def constants() -> Constants:
    values: dict[str, int] = {}
    groups: dict[str, list[str]] = {}
    for row in read_table("constants.tsv"):
        try:
            value = int(row["value"])
        except ValueError:
            continue  # character constants and masks are not used by the codec
        name = row["name"]
        if name not in values:
            values[name] = value
            groups.setdefault(row["group"], []).append(name)
    return Constants(values, groups)


def value_of(name_or_number: str) -> int:
    """A constant's value from its name, or a decimal number as is."""
    text = name_or_number.strip()
    try:
        return int(text)
    except ValueError:
        return constants().values[text]


@dataclass(frozen=True, slots=True)
class StructureRow:
    name: str
    type: int | None
    fixed_length: int
    fields: tuple[tuple[str, str], ...]
    data: str
    data_field: str | None
    min_version: int
    length_reason: int
    parm_id_reason: int | None
    count_reason: int | None
    operator_reason: int | None
    duplicate_reason: int | None


def _opt(name: str) -> int | None:
    return None if name == "-" else value_of(name)


@cache
def structures() -> dict[str, StructureRow]:
    rows: dict[str, StructureRow] = {}
    for row in read_table("structures.tsv"):
        fields = tuple(
            (part.split(":")[0], part.split(":")[1]) for part in row["fields"].split(",")
        )
        rows[row["name"]] = StructureRow(
            name=row["name"],
            type=_opt(row["type"]),
            fixed_length=int(row["fixed_length"]),
            fields=fields,
            data=row["data"],
            data_field=None if row["data_field"] == "-" else row["data_field"],
            min_version=int(row["min_version"]),
            length_reason=value_of(row["length_reason"]),
            parm_id_reason=_opt(row["parm_id_reason"]),
            count_reason=_opt(row["count_reason"]),
            operator_reason=_opt(row["operator_reason"]),
            duplicate_reason=_opt(row["duplicate_reason"]),
        )
    return rows


@cache
def ccsid_codecs() -> dict[int, str]:
    return {int(row["ccsid"]): row["codec"] for row in read_table("ccsids.tsv")}


@cache
def value_sets() -> dict[int, tuple[str, ...]]:
    """Parameter id to its value set: constant names, or one of @parameter/@reason/@command."""
    sets: dict[int, tuple[str, ...]] = {}
    for table in ("queue-attributes.tsv", "process-attributes.tsv", "namelist-attributes.tsv"):
        for row in read_table(table):
            if row["values"]:
                sets[value_of(row["parameter"])] = tuple(row["values"].split())
    for row in read_table("value-sets.tsv"):
        sets[value_of(row["parameter"])] = tuple(row["values"].split())
    return sets


def fill_default(value: str, qmgr: str) -> str:
    """A queue manager attribute default's name tokens filled in (qmgr-attributes.tsv): @qmgr_name anywhere in the
    text (SSLKEYR's path), @cert_label (IBM's default certificate label, ibmwebspheremq + the name in lower case)."""
    if value == "@cert_label":
        return "ibmwebspheremq" + qmgr.lower()
    return value.replace("@qmgr_name", qmgr)


def subtype_cells(row: dict[str, str]) -> tuple[frozenset[int], dict[int, str]]:
    """A kind's attribute row (formats/<kind>-attributes.tsv): the subtypes that take the attribute (``applies_to``,
    constant names; empty = every subtype) and each subtype's own default as written (``type_defaults``,
    ``SUBTYPE=value|SUBTYPE=value``)."""
    applies = frozenset(value_of(word) for word in row.get("applies_to", "").split())
    defaults: dict[int, str] = {}
    for part in filter(None, row.get("type_defaults", "").split("|")):
        subtype, _, text = part.partition("=")
        defaults[value_of(subtype.strip())] = text
    return applies, defaults
