"""The change history: every change made through any interface, newest first, with the MQSC that reverts it."""

from __future__ import annotations

from dataclasses import dataclass

from pcfserver.console.reverts import command_text, revert_text
from pcfserver.console.web import ConsoleContext, PageRequest, page, route, stamp
from pcfserver.engine.audit import Change
from pcfserver.rest.http import Response

PAGE_SIZE = 50


@dataclass(frozen=True, slots=True)
class Row:
    seq: int
    at: str
    user: str
    via: str
    target: str
    command: str
    revert: str


def _row(entry: Change) -> Row:
    return Row(entry.seq, stamp(entry.at), entry.user, entry.via, entry.target or ("queue manager" if entry.kind == "qmgr" else ""), command_text(entry), revert_text(entry))


def history_rows(ctx: ConsoleContext, name: str, user: str, page_number: int, size: int = PAGE_SIZE) -> tuple[list[Row], int]:
    """One page of entries, newest first, whose object name contains ``name`` and whose user is ``user`` (each when given)."""
    name, user = name.strip().upper(), user.strip()
    chosen = [
        entry for entry in reversed(ctx.engine.audit.history)
        if (not name or name in entry.target.upper()) and (not user or entry.user == user)
    ]
    start = (page_number - 1) * size
    return [_row(entry) for entry in chosen[start:start + size]], len(chosen)


@route("GET", r"/history")
def history(ctx: ConsoleContext, request: PageRequest) -> Response:
    name = request.arg("name")[:48]
    user = request.arg("user")[:64]
    number = request.arg("page")
    page_number = max(1, int(number)) if number.isdigit() else 1
    rows, total = history_rows(ctx, name, user, page_number)
    pages = max(1, -(-total // PAGE_SIZE))
    if page_number > pages:  # past the end (an old link): the last page
        page_number = pages
        rows, total = history_rows(ctx, name, user, page_number)
    return page(ctx, "history.html", title="History", request_path="/history", rows=rows, total=total, pages=pages, page_number=page_number,
                name=name, user=user, kept=ctx.engine.audit.keep)
