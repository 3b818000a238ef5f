"""What every console page uses: the request a handler sees, the route table, the templates and the headers."""

from __future__ import annotations

import fnmatch
import re
import secrets
import time
from collections.abc import Callable, Collection, Mapping
from dataclasses import dataclass, field, replace
from functools import cache, lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import parse_qs, quote, urlencode

import jinja2

from pcfserver.codec import Message
from pcfserver.console.forms import a_or_an
from pcfserver.console.secrets import mask_text
from pcfserver.rest.http import Response

if TYPE_CHECKING:
    from pcfserver.engine.authority import Identity
    from pcfserver.engine.engine import Engine
    from pcfserver.engine.messaging import SessionState

PREFIX = "/ibmmq/console"
HTML = "text/html; charset=utf-8"
CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; connect-src 'self'; "
    "font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
NEW_SEGMENT = "+new"
"""The path segment of a create form (``/queues/+new``): "+" is in no MQ object name, so an object named "new" has
its own page at ``/queues/new``.  Pages and templates (``new_segment``) name it from here."""
NEW = r"(?:\+|%2[Bb])new"  # NEW_SEGMENT as a route pattern over the path as sent ("+" may arrive percent-encoded)

SECURITY_HEADERS: tuple[tuple[str, str], ...] = (
    ("Content-Security-Policy", CSP),
    ("X-Content-Type-Options", "nosniff"),
    ("Referrer-Policy", "same-origin"),
    ("X-Frame-Options", "DENY"),
)
ROOT = Path(__file__).resolve().parent


@dataclass(frozen=True, slots=True)
class Viewer:
    """Who looks at a page, and what the page may offer them (the server checks again on every change)."""

    user: str  # empty when authentication is off
    roles: frozenset[str]
    can_change: bool  # MQWebAdmin, MQWebUser (or no users at all): create, alter, delete, clear, put, get
    can_browse: bool  # may look at message bodies
    csrf: str  # the token every change must carry
    authenticated: bool = True


class ConsoleContext(Protocol):
    """What the shell hands a page handler, inside one engine operation."""

    @property
    def engine(self) -> Engine: ...

    @property
    def viewer(self) -> Viewer: ...

    @property
    def identity(self) -> Identity | None:
        """The identity administrative commands run under (None: the server's own authority)."""

    def execute(self, command: Message) -> list[Message]:
        """One PCF command, applied under the viewer's administrative identity as part of this operation."""

    def session(self) -> SessionState:
        """The viewer's messaging session (their own identity, or the server's for MQWebAdmin)."""

    def now(self) -> float:
        """Unix time."""

    def user_groups(self, name: str) -> tuple[str, ...] | None:
        """The groups of a user of the console and the REST API (None: no such user)."""

    def user_roles(self, name: str) -> frozenset[str] | None:
        """The REST roles of a user of the console and the REST API (None: no such user, or no users at all)."""


@dataclass(frozen=True, slots=True)
class PageRequest:
    method: str
    path: str  # below PREFIX, percent-decoded
    params: tuple[str, ...]  # the route pattern's groups
    query: Mapping[str, list[str]]
    form: Mapping[str, list[str]]
    files: Mapping[str, bytes] = field(default_factory=dict)
    hx: bool = False  # asked by htmx for a fragment
    refused: str = ""  # why the viewer may not run it (a route whose page says so itself: the MQSC box); nothing may run

    def arg(self, name: str, default: str = "") -> str:
        values = self.query.get(name) or self.form.get(name)
        return values[0] if values else default

    def field(self, name: str, default: str = "") -> str:
        values = self.form.get(name)
        return values[0] if values else default


Handler = Callable[[ConsoleContext, PageRequest], Response]


@dataclass(frozen=True, slots=True)
class Route:
    method: str
    pattern: re.Pattern[str]
    handler: Handler
    changes: bool  # POST routes change something: CSRF token and a role that may change are required
    messaging: bool  # reads or changes messages (MQWebAdminRO may only browse)
    # A POST whose form only displays (the MQSC box running DISPLAY): MQWebAdminRO may send it, under its read-only
    # identity, as the REST API's runCommand lets it (the CSRF token is still required).
    displays: Callable[[Mapping[str, list[str]]], bool] | None = None


ROUTES: list[Route] = []

NAV: tuple[tuple[str, str], ...] = (
    ("/overview", "Overview"),
    ("/qmgr", "Queue manager"),
    ("/queues", "Queues"),
    ("/objects/channel", "Channels"),
    ("/objects/listener", "Listeners"),
    ("/objects/service", "Services"),
    ("/objects/topic", "Topics"),
    ("/objects/sub", "Subscriptions"),
    ("/objects/process", "Processes"),
    ("/objects/namelist", "Namelists"),
    ("/objects/authinfo", "Authentication information"),
    ("/objects/comminfo", "Communication information"),
    ("/security", "Security"),
    ("/connections", "Connections"),
    ("/mqsc", "MQSC"),
    ("/history", "History"),
)
"""The console's menu, in order; an entry shows once a page answers its path."""


def nav() -> tuple[tuple[str, str], ...]:
    """The menu entries whose pages exist (every page draws it: worked out once per set of routes, not per page)."""
    return _nav(len(ROUTES))


@cache
def _nav(routes: int) -> tuple[tuple[str, str], ...]:
    return tuple((path, label) for path, label in NAV if any(r.method == "GET" and r.pattern.fullmatch(path) for r in ROUTES[:routes]))


def route(
    method: str, pattern: str, *, messaging: bool = False, displays: Callable[[Mapping[str, list[str]]], bool] | None = None
) -> Callable[[Handler], Handler]:
    """Registers a page handler for ``METHOD PREFIX+pattern`` (a regex over the percent-decoded path); ``displays``
    tells, from a POST's form, whether it only displays (then a read-only administrator may send it)."""

    def register(handler: Handler) -> Handler:
        ROUTES.append(Route(method, re.compile(pattern), handler, method != "GET", messaging, displays))
        return handler

    return register


@cache
def environment() -> jinja2.Environment:
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(ROOT / "templates")),
        autoescape=True,
        trim_blocks=True,
        lstrip_blocks=True,
        undefined=jinja2.StrictUndefined,
    )
    env.globals["prefix"] = PREFIX
    env.globals["new_segment"] = NEW_SEGMENT
    env.globals["nav"] = nav
    env.filters["q"] = lambda s: quote(str(s), safe="")
    env.filters["masked"] = mask_text  # (console/secrets.py: a password typed into a form is not shown back in its preview)
    env.filters["a"] = a_or_an
    env.globals["urlencode"] = lambda **kw: urlencode({k: v for k, v in kw.items() if v not in ("", None)})
    return env


def page(ctx: ConsoleContext | Viewer, template: str, status: int = 200, **values: Any) -> Response:
    """A whole page (or, for htmx, the same template's fragment) rendered with the viewer and the queue manager."""
    viewer = ctx if isinstance(ctx, Viewer) else ctx.viewer
    qmgr = "" if isinstance(ctx, Viewer) else ctx.engine.qmgr_name
    values.setdefault("once", secrets.token_urlsafe(12))  # (each form's one-time token: console/app.py, ONCE_FIELD)
    body = environment().get_template(template).render(viewer=viewer, qmgr=qmgr, **values)
    return html(body, status)


def html(body: str, status: int = 200, extra: tuple[tuple[str, str], ...] = ()) -> Response:
    return Response(status, (("Content-Type", HTML), ("Cache-Control", "no-store"), *SECURITY_HEADERS, *extra), body.encode("utf-8"))


def redirect(location: str, extra: tuple[tuple[str, str], ...] = ()) -> Response:
    """303 See Other to a console path (after a form's POST, so that reloading does not post again)."""
    return Response(303, (("Location", location if location.startswith(PREFIX) else PREFIX + location), *SECURITY_HEADERS, *extra))


def parse_form(body: bytes, content_type: str | None) -> tuple[dict[str, list[str]], dict[str, bytes]]:
    """A form's fields (urlencoded or multipart) and its files' bytes, by field name."""
    if not body:
        return {}, {}
    kind = (content_type or "").split(";")[0].strip().lower()
    if kind == "multipart/form-data":
        return _multipart(body, content_type or "")
    try:
        text = body.decode("utf-8")
    except UnicodeDecodeError:
        return {}, {}
    return parse_qs(text, keep_blank_values=True), {}


def _multipart(body: bytes, content_type: str) -> tuple[dict[str, list[str]], dict[str, bytes]]:
    from email.parser import BytesParser
    from email.policy import HTTP

    message = BytesParser(policy=HTTP).parsebytes(b"Content-Type: " + content_type.encode("latin-1") + b"\r\n\r\n" + body)
    fields: dict[str, list[str]] = {}
    files: dict[str, bytes] = {}
    if not message.is_multipart():
        return fields, files
    for part in message.iter_parts():
        disposition = part.get("Content-Disposition", "")
        if not disposition:
            continue
        name = part.get_param("name", header="content-disposition")
        if not isinstance(name, str):
            continue
        payload = part.get_payload(decode=True)
        data = payload if isinstance(payload, bytes) else b""
        if part.get_param("filename", header="content-disposition") is not None:
            files[name] = data
        else:
            fields.setdefault(name, []).append(data.decode("utf-8", "replace"))
    return fields, files


# -- lists: paged, filtered and sorted by the server ----------------------------------------------------------------

PAGE_SIZES = (25, 50, 100, 250)


def stamp(at: float) -> str:
    """A moment as the console's pages show it: local date and time to the second."""
    return time.strftime("%Y-%m-%d %H:%M:%S", time.localtime(at))


def name_matches(pattern: str, name: str) -> bool:
    """A list's name filter: a generic name (``*`` and ``?`` anywhere, IBM's trailing ``*`` included) or a part of the
    name, as typed or in upper case (MQ names are mostly upper case; a lower-case one is found as typed)."""
    if not pattern:
        return True
    return bool(_name_filter(pattern)(name))


@lru_cache(maxsize=256)
def _name_filter(pattern: str) -> Callable[[str], object]:
    """One compiled test per filter (a list of 10,000 names asks it 10,000 times)."""
    if "*" in pattern or "?" in pattern:
        variants = sorted({fnmatch.translate(pattern), fnmatch.translate(pattern.upper())})
        return re.compile("|".join(f"(?:{v})" for v in variants)).match
    upper = pattern.upper()
    if upper == pattern:
        return lambda name: pattern in name
    return lambda name: pattern in name or upper in name


@dataclass(frozen=True, slots=True)
class ListQuery:
    """What a list page was asked for: a name filter, a sort (a type) of object, SYSTEM.* or not, order and page."""

    def within(self, total: int) -> tuple[ListQuery, int]:
        """This query with its page no further than the last of ``total`` rows (a page past the end, from an old link
        or a typed URL, shows the last one), and how many pages there are."""
        pages = max(1, -(-total // self.size))
        return (self if self.page <= pages else replace(self, page=pages)), pages

    name: str = ""
    type: str = ""
    system: bool = False  # SYSTEM.* shown
    sort: str = "name"
    descending: bool = False
    page: int = 1
    size: int = 50
    flag_arg: str = ""  # a second filter's query parameter (a subscription list's "durable"), "" = none
    flag: str = ""  # the word it chose ("" = any)

    @classmethod
    def of(
        cls, request: PageRequest, *, types: Collection[str] = (), sorts: Collection[str] = ("name",), flag: tuple[str, Collection[str]] = ("", ())
    ) -> ListQuery:
        def number(text: str, default: int) -> int:
            return int(text) if text.isdigit() else default

        sort = request.arg("sort", "name")
        size = number(request.arg("size"), 50)
        wanted = request.arg("type").upper()
        flag_arg, flag_words = flag
        flag_wanted = request.arg(flag_arg).upper() if flag_arg else ""
        return cls(
            name=request.arg("name").strip()[:256],
            type=wanted if wanted in types else "",
            system=request.arg("system") in ("1", "on", "yes", "true"),
            sort=sort if sort in sorts else "name",
            descending=request.arg("dir") == "desc",
            page=max(1, number(request.arg("page"), 1)),
            size=size if size in PAGE_SIZES else 50,
            flag_arg=flag_arg,
            flag=flag_wanted if flag_wanted in flag_words else "",
        )

    def matches(self, name: str) -> bool:
        if not self.system and name.startswith("SYSTEM."):
            return False
        return name_matches(self.name, name)

    def hides(self, name: str) -> bool:
        """Whether the name would match but for SYSTEM.* not being shown (the list says how many it leaves out, as the
        overview counts them)."""
        return not self.system and name.startswith("SYSTEM.") and name_matches(self.name, name)

    def link(self, **changes: object) -> dict[str, object]:
        """The query's parameters for a link (with some changed)."""
        out: dict[str, object] = {
            "name": self.name, "type": self.type, "system": "1" if self.system else "", "size": self.size, "sort": self.sort,
            "dir": "desc" if self.descending else "", "page": self.page if self.page > 1 else "",
        }
        if self.flag_arg:
            out[self.flag_arg] = self.flag
        out.update(changes)
        return out

    def carried(self) -> dict[str, object]:
        """What a link to another page of the same list carries (all but the page number)."""
        out = self.link()
        del out["page"]
        return out
