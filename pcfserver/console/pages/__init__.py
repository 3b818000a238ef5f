"""The console's pages: each module of this package registers its routes with ``web.route`` when imported."""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache

from pcfserver.console.web import ROUTES, Route


@cache
def routes() -> list[Route]:
    for module in pkgutil.iter_modules(__path__):
        importlib.import_module(f"{__name__}.{module.name}")
    return ROUTES
