"""Subscription selectors (issue 19): the parser and evaluator of pcfserver.engine.selector, examples and fuzz."""

from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pcfserver.engine.selector import SelectorError, compile_selector

PROPS = {"colour": "red", "size": "12", "price": "2.5", "flag": "TRUE", "name": "it's", "path": "a_b%c"}


def selects(text: str, props: dict[str, str] = PROPS) -> bool:
    predicate = compile_selector(text)
    assert predicate is not None
    return predicate(props)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("colour = 'red'", True),
        ("colour <> 'red'", False),
        ("size > 10", True),
        ("size >= 12 AND size <= 12", True),
        ("size < 12", False),
        ("price = 2.5", True),
        ("price * 2 = 5", True),
        ("size + 1 = 13 AND size - 2 = 10 AND size / 4 = 3", True),
        ("-size = -12", True),
        ("size = 014", True),  # octal
        ("size = 0xC", True),
        ("size = 12L", True),
        ("size = 1.2E1", True),
        ("colour = 'red' OR missing = 1", True),
        ("colour = 'blue' OR missing = 1", False),  # FALSE OR unknown: unknown, not selected
        ("NOT (missing = 1)", False),  # NOT unknown is unknown
        ("colour = 'blue' AND missing = 1", False),
        ("NOT (colour = 'blue' AND missing = 1)", True),  # FALSE AND unknown is FALSE
        ("missing IS NULL", True),
        ("colour IS NOT NULL", True),
        ("colour is null", False),
        ("colour LIKE 'r%'", True),
        ("colour LIKE 'r_d'", True),
        ("colour LIKE 'r_'", False),
        ("colour NOT LIKE 'b%'", True),
        ("path LIKE 'a\\_b\\%c' ESCAPE '\\'", True),
        ("path LIKE 'a!_b!%_' ESCAPE '!'", True),
        ("path LIKE 'a!_b!%' ESCAPE '!'", False),
        ("path LIKE 'a!%b%' ESCAPE '!'", False),
        ("name = 'it''s'", True),
        ("size BETWEEN 10 AND 20", True),
        ("size NOT BETWEEN 10 AND 20", False),
        ("size BETWEEN 13 AND 20", False),
        ("colour IN ('blue', 'red')", True),
        ("colour NOT IN ('blue', 'red')", False),
        ("missing IN ('a')", False),
        ("missing NOT IN ('a')", False),  # unknown either way
        ("flag", True),
        ("flag = TRUE", True),
        ("NOT flag", False),
        ("TRUE", True),
        ("FALSE OR TRUE", True),
        ("colour = 12", False),  # 'red' is not a number: unknown
        ("(colour = 'red' OR size = 1) AND (price > 2)", True),
        ("usr.x = 'y'", False),
        ("size / 0 = 1", False),
    ],
)
def test_examples(text: str, expected: bool) -> None:
    assert selects(text) is expected


def test_dotted_property_names_and_case_insensitive_keywords() -> None:
    assert selects("usr.x = 'y' and Colour is null", {"usr.x": "y"})


@pytest.mark.parametrize(
    "text",
    [
        "colour =",
        "= 'red'",
        "colour = 'red",
        "colour == 'red'",
        "size = 09",
        "(colour = 'red'",
        "colour = 'red')",
        "colour LIKE 5",
        "colour LIKE 'a' ESCAPE 'ab'",
        "colour LIKE 'a!' ESCAPE '!'",
        "size BETWEEN 1",
        "colour IN ()",
        "colour IN ('a',)",
        "colour IN (other)",
        "'red'",
        "12",
        "colour < 'red'",
        "NULL = 1",
        "colour NOT 'x'",
        "(a = 1) = 1",
        "a = 1 AND 2",
        "'a' + 1 = 2",
        "a = 1 #",
        "x" * 10241,
        "(" * 5000 + "a" + ")" * 5000,
    ],
)
def test_not_a_selector(text: str) -> None:
    with pytest.raises(SelectorError):
        compile_selector(text)


def test_blank_selects_everything() -> None:
    assert compile_selector("") is None
    assert compile_selector("   ") is None


_PIECES = st.sampled_from(
    ["colour", "size", "missing", "usr.x", "'red'", "'it''s'", "12", "0x1F", "07", "09", "2.5", "1E3", ".5", "TRUE", "FALSE",
     "NULL", "AND", "OR", "NOT", "LIKE", "ESCAPE", "IN", "BETWEEN", "IS", "=", "<>", "<", ">", "<=", ">=", "+", "-", "*", "/",
     "(", ")", ",", "'%'", "'_'", "'!'", " ", "'"]
)


@settings(max_examples=400, deadline=None)
@given(st.lists(_PIECES, max_size=14).map(" ".join), st.dictionaries(st.sampled_from(["colour", "size", "usr.x"]), st.text(max_size=4)))
def test_token_soup_never_crashes(text: str, props: dict[str, str]) -> None:
    _refused_or_decides(text, props)


@settings(max_examples=400, deadline=None)
@given(st.text(max_size=60), st.dictionaries(st.text(max_size=3), st.text(max_size=4)))
def test_any_text_never_crashes(text: str, props: dict[str, str]) -> None:
    _refused_or_decides(text, props)


def _refused_or_decides(text: str, props: dict[str, str]) -> None:
    """A selector is refused with SelectorError, or compiles to a predicate that answers True or False."""
    try:
        predicate = compile_selector(text)
    except SelectorError:
        return
    if predicate is not None:
        assert predicate(props) in (True, False)


@settings(max_examples=200, deadline=None)
@given(st.integers(-1000, 1000), st.integers(-1000, 1000), st.integers(-1000, 1000))
def test_between_is_two_comparisons(value: int, low: int, high: int) -> None:
    props = {"v": str(value)}
    assert selects(f"v BETWEEN {low} AND {high}", props) == selects(f"v >= {low} AND v <= {high}", props) == (low <= value <= high)


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet="ab%_", max_size=6), st.text(alphabet="ab", max_size=6))
def test_like_against_a_reference(pattern: str, value: str) -> None:
    import fnmatch

    reference = fnmatch.fnmatchcase(value, pattern.replace("%", "*").replace("_", "?"))
    assert selects(f"v LIKE '{pattern}'", {"v": value}) is reference
