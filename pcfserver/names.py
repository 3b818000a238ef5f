"""Names for numbers: commands, reasons, structure types, parameters and their values."""

from __future__ import annotations

from functools import cache

from pcfserver.tables import constants, value_sets

_PARAMETER_PREFIXES = {
    "MQCFIN": ("MQIA", "MQIACF", "MQIACH"),
    "MQCFIN64": ("MQIA", "MQIACF", "MQIACH"),
    "MQCFIL": ("MQIA", "MQIACF", "MQIACH"),
    "MQCFIL64": ("MQIA", "MQIACF", "MQIACH"),
    "MQCFIF": ("MQIA", "MQIACF", "MQIACH"),
    "MQCFST": ("MQCA", "MQCACF", "MQCACH"),
    "MQCFSL": ("MQCA", "MQCACF", "MQCACH"),
    "MQCFSF": ("MQCA", "MQCACF", "MQCACH"),
    "MQCFBS": ("MQBACF",),
    "MQCFBF": ("MQBACF",),
    "MQCFGR": ("MQGACF",),
}
_ANY_PARAMETER = ("MQIA", "MQCA", "MQIACF", "MQCACF", "MQIACH", "MQCACH", "MQBACF", "MQGACF")


def _is_range_marker(group: str, name: str) -> bool:
    """``MQIA_FIRST``, ``MQIACF_LAST_USED`` and the like bound a range; they name no value."""
    if name.endswith("_LAST_USED"):
        return True
    return group in _ANY_PARAMETER and name in (f"{group}_FIRST", f"{group}_LAST")


@cache
def _by_value(groups: tuple[str, ...]) -> dict[int, str]:
    table = constants()
    result: dict[int, str] = {}
    for group in groups:
        for name in table.groups.get(group, ()):
            if not _is_range_marker(group, name):
                result.setdefault(table.values[name], name)
    return result


def command_name(value: int) -> str | None:
    return _by_value(("MQCMD",)).get(value)


def command_names() -> dict[int, str]:
    """Every command's name by value (a copy)."""
    return dict(_by_value(("MQCMD",)))


def reason_names() -> dict[int, str]:
    """Every reason code's name by value, MQRCCF names first (a copy)."""
    return dict(_by_value(("MQRCCF", "MQRC")))


def reason_name(value: int) -> str | None:
    if value == 0:
        return "MQRC_NONE"
    return _by_value(("MQRCCF", "MQRC")).get(value)


def type_name(value: int) -> str | None:
    return _by_value(("MQCFT",)).get(value)


def comp_code_name(value: int) -> str | None:
    return _by_value(("MQCC",)).get(value)


def number_name(groups: tuple[str, ...], value: int) -> str | None:
    """The name of ``value`` among the constants of ``groups`` (``("MQCFOP",)``)."""
    return _by_value(groups).get(value)


def parameter_name(value: int, struct: str | None = None) -> str | None:
    prefixes = _PARAMETER_PREFIXES.get(struct, _ANY_PARAMETER) if struct else _ANY_PARAMETER
    return _by_value(prefixes).get(value)


@cache
def _value_names(parameter: int) -> dict[int, str] | None:
    names = value_sets().get(parameter)
    if names is None:
        return None
    if names == ("@parameter",):
        return _by_value(_ANY_PARAMETER)
    if names == ("@reason",):
        return _by_value(("MQRCCF", "MQRC"))
    if names == ("@command",):
        return _by_value(("MQCMD",))
    table = constants().values
    result: dict[int, str] = {}
    for name in names:
        result.setdefault(table[name], name)
    return result


def has_value_set(parameter: int) -> bool:
    return _value_names(parameter) is not None


def value_name(parameter: int, value: int) -> str | None:
    names = _value_names(parameter)
    return None if names is None else names.get(value)


def value_from_name(parameter: int, text: str) -> int:
    """A parameter value given as a number or as one of its value-set names (or any constant)."""
    text = text.strip()
    try:
        return int(text)
    except ValueError:
        pass
    value = constants().values.get(text)
    if value is None:
        raise ValueError(f"unknown value name {text!r}")
    return value


def number_from_name(text: str | int, prefixes: tuple[str, ...] = ()) -> int:
    """An integer field given as a number or a constant name (``MQCMD_CHANGE_Q``)."""
    if isinstance(text, int):
        return text
    stripped = text.strip()
    try:
        return int(stripped)
    except ValueError:
        pass
    value = constants().values.get(stripped)
    if value is None or (prefixes and not stripped.startswith(prefixes)):
        raise ValueError(f"unknown name {stripped!r}")
    return value
