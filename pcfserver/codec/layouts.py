"""Construct definitions of every PCF structure, built from ``formats/structures.tsv``.

They are the single description of the byte layout.  The decoder's hot loop uses
``struct.Struct`` formats derived from these definitions (see ``fixed_format``), because a
compiled Construct parser pays for a Container per structure; the full Construct parsers
(``message_parser``) are the reference decoder that tests hold the fast path to, compiled
and interpreted.
"""

from __future__ import annotations

import struct
from functools import cache
from typing import Any

import construct as cs

from pcfserver.tables import StructureRow, structures

BYTE_ORDERS = ("big", "little")
_INTS = {
    ("l", "big"): cs.Int32sb,
    ("l", "little"): cs.Int32sl,
    ("q", "big"): cs.Int64sb,
    ("q", "little"): cs.Int64sl,
}
_MAX_GROUP_DEPTH = 32


def _int(code: str, order: str) -> Any:
    return _INTS[(code, order)]


@cache
def fixed(name: str, order: str) -> cs.Struct:
    """The fixed part of structure ``name`` (``MQCFH``, ``MQCFIN``, …) in one byte order."""
    row = structures()[name]
    return cs.Struct(*[field / _int(code, order) for field, code in row.fields])


@cache
def fixed_format(name: str, order: str) -> struct.Struct:
    """A ``struct.Struct`` with exactly the layout of ``fixed(name, order)``."""
    definition = fixed(name, order)
    codes = "".join(sub.subcon.fmtstr[1:] for sub in definition.subcons)
    prefix = ">" if order == "big" else "<"
    compiled = struct.Struct(prefix + codes)
    if compiled.size != structures()[name].fixed_length or definition.sizeof() != compiled.size:
        raise AssertionError(f"{name}: table length disagrees with its fields")
    return compiled


def _tail(row: StructureRow, order: str, parameter: Any) -> list[Any]:
    """Data and padding after the fixed part, sized by the structure's own fields."""
    fixed_length = row.fixed_length
    if row.data == "none":
        return []
    if row.data in ("string", "bytes"):
        assert row.data_field is not None
        length = getattr(cs.this, row.data_field)
        return [
            "data" / cs.Bytes(length),
            "pad" / cs.Bytes(cs.this._.struc_length - fixed_length - length),
        ]
    if row.data in ("longs", "quads"):
        code = "l" if row.data == "longs" else "q"
        width = 4 if code == "l" else 8
        return [
            "values" / cs.Array(cs.this.count, _int(code, order)),
            "pad" / cs.Bytes(cs.this._.struc_length - fixed_length - width * cs.this.count),
        ]
    if row.data == "strings":
        return [
            "values" / cs.Array(cs.this.count, cs.Bytes(cs.this.string_length)),
            "pad" / cs.Bytes(cs.this._.struc_length - fixed_length - cs.this.count * cs.this.string_length),
        ]
    if row.data == "members":
        return ["members" / cs.Array(cs.this.parameter_count, parameter)]
    raise AssertionError(f"unknown data kind {row.data}")


@cache
def parameter_construct(order: str) -> Any:
    """Any parameter structure: its Type selects the layout (groups recurse)."""
    cases: dict[int, Any] = {}
    parameter = cs.LazyBound(lambda: parameter_construct(order))
    for row in structures().values():
        if row.type is None:
            continue
        body = [field / _int(code, order) for field, code in row.fields[2:]]
        cases[row.type] = cs.Struct(*body, *_tail(row, order, parameter))
    return cs.Struct(
        "type" / _int("l", order),
        "struc_length" / _int("l", order),
        "body" / cs.Switch(cs.this.type, cases, default=cs.Bytes(cs.this.struc_length - 8)),
    )


@cache
def message_construct(order: str) -> Any:
    """A whole PCF message: MQCFH then ParameterCount parameter structures."""
    header = [field / _int(code, order) for field, code in structures()["MQCFH"].fields]
    return cs.Struct(*header, "parameters" / cs.Array(cs.this.parameter_count, parameter_construct(order)))


@cache
def message_parser(order: str, compiled: bool) -> Any:
    definition = message_construct(order)
    return definition.compile() if compiled else definition
