"""The MQSC box: one command or a runmqsc script (one command a line, ``+``/``-`` continuing, ``*`` comments), run as
runmqsc runs it under the viewer's identity, each command shown with runmqsc's answer; and the viewer's recent
commands, kept in memory per user (the newest 50, newest first), each a link that fills the box again.

A read-only administrator (MQWebAdminRO) may run a script whose every command only displays (DISPLAY, PING), as the
REST API's runCommand allows; anything else is refused before it runs (403), and the engine refuses a change to a
read-only identity anyway.
"""

from __future__ import annotations

import threading
from collections import deque

from pcfserver.console.commands import MAX_SCRIPT_COMMANDS, Ran, display_only, run_mqsc, script_commands
from pcfserver.console.secrets import MASK, mask_text, placeholder_in
from pcfserver.console.web import ConsoleContext, PageRequest, Viewer, page, route
from pcfserver.rest.http import Response

HISTORY_SIZE = 50
MAX_TEXT = 64 * 1024
_history: dict[str, deque[str]] = {}
_lock = threading.Lock()


def _who(viewer: Viewer) -> str:
    return "user:" + viewer.user if viewer.authenticated else "session:" + viewer.csrf


def remember(viewer: Viewer, text: str) -> None:
    """Puts a script at the top of the viewer's history (once: an older copy goes)."""
    with _lock:
        kept = _history.setdefault(_who(viewer), deque(maxlen=HISTORY_SIZE))
        if text in kept:
            kept.remove(text)
        kept.appendleft(text)


def history(viewer: Viewer) -> list[str]:
    with _lock:
        return list(_history.get(_who(viewer), ()))


def _page(ctx: ConsoleContext, text: str, results: list[Ran], status: int = 200, problem: str = "") -> Response:
    return page(ctx, "mqsc.html", status, title="MQSC", command=text, results=results, history=history(ctx.viewer), problem=problem,
                request_path="/mqsc")


@route("GET", r"/mqsc")
def mqsc_box(ctx: ConsoleContext, request: PageRequest) -> Response:
    return _page(ctx, request.arg("command")[:MAX_TEXT], [])


@route("POST", r"/mqsc", displays=lambda form: display_only((form.get("command") or [""])[0]))
def mqsc_run(ctx: ConsoleContext, request: PageRequest) -> Response:
    text = request.field("command")
    if request.refused:
        return _page(ctx, text[:MAX_TEXT], [], 403, request.refused + " This script changes something, so none of it ran.")
    if len(text) > MAX_TEXT:
        return _page(ctx, "", [], 422, f"The script is longer than {MAX_TEXT} characters.")
    commands = script_commands(text)
    if not commands:
        return _page(ctx, text, [], 422, "There is no command to run.")
    if len(commands) > MAX_SCRIPT_COMMANDS:
        return _page(ctx, text, [], 422, f"A script runs at most {MAX_SCRIPT_COMMANDS} commands; this one has {len(commands)}.")
    if keyword := placeholder_in(text):
        return _page(ctx, text, [], 422, f"{keyword}({MASK}) is the console's mask of a password, not a password: type the password in its "
                                          f"place, or leave {keyword} out to keep the one set. Nothing ran.")
    results = [run_mqsc(ctx, command) for command in commands]
    remember(ctx.viewer, mask_text(text.strip()))  # (the recent commands are links: a password must not end up in a URL)
    return _page(ctx, text, results)
