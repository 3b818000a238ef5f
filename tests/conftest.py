"""Fixtures shared across test modules."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.console_support import browser


@pytest.fixture(scope="session")
def driver() -> Iterator[Any]:
    """One headless chromium for every browser test, serially (tests.console_support.browser); each test signs in
    afresh (sign_in clears the cookies)."""
    with browser() as chrome:
        yield chrome
