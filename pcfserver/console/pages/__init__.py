"""The console's pages: each module registers its routes with ``web.route``."""

from __future__ import annotations

from pcfserver.console.web import ROUTES, Route


def routes() -> list[Route]:
    from pcfserver.console.pages import queues  # noqa: F401  (registers)

    return ROUTES
