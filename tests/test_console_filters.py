"""The console lists' name filter: generic names (* and ?) or a part of the name, as typed or in upper case."""

from __future__ import annotations

import fnmatch

from hypothesis import given
from hypothesis import strategies as st

from pcfserver.console.web import name_matches

NAMES = st.text(alphabet="ABCXYZabc./_%*?[]", max_size=12)


def plain(pattern: str, name: str) -> bool:
    """The rule stated the slow way."""
    if not pattern:
        return True
    if "*" in pattern or "?" in pattern:
        return fnmatch.fnmatchcase(name, pattern) or fnmatch.fnmatchcase(name, pattern.upper())
    return pattern in name or pattern.upper() in name


@given(NAMES, NAMES)
def test_the_compiled_filter_agrees_with_the_rule(pattern: str, name: str) -> None:
    assert name_matches(pattern, name) == plain(pattern, name)


def test_what_an_administrator_types() -> None:
    assert name_matches("APP.*", "APP.ORDERS") and not name_matches("APP.*", "MY.APP.ORDERS")
    assert name_matches("app.*", "APP.ORDERS")  # typed in lower case, found in upper
    assert name_matches("ORDERS", "APP.ORDERS") and name_matches("orders", "APP.ORDERS")
    assert name_matches("lower.q", "lower.q") and not name_matches("LOWER.Q", "lower.q")
    assert name_matches("A?P.*", "APP.X") and name_matches("", "ANYTHING")
