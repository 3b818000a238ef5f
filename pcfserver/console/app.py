"""``/ibmmq/console/...``: sign-in, CSRF, static assets and the dispatch of a page to the shell (sans-IO).

Authentication is the REST API's (``rest.auth``): the same users, roles and ``LtpaToken2`` login token, so a
sign-in on the console also works for the REST API and the other way round.  The console signs in with a form
(``POST /ibmmq/console/login``) and answers a request with no valid login by sending the browser to the login
page.  With no users at all, everyone may do everything, as with the REST API (the server then listens on loopback
only unless told ``--insecure``).

Every change (every POST) must carry the CSRF token of its page: a keyed hash of the login token (or, with no
users, of a random ``pcfconsole`` cookie), as a form field ``csrf`` or the header ``ibm-mq-csrf-token`` (the one
IBM's console uses).  A POST without it, or with another, gets 403 and changes nothing.  Roles hold on the
server whatever the page showed: MQWebAdminRO may display and browse, never change (403).
"""

from __future__ import annotations

import hashlib
import hmac
import mimetypes
import os
import secrets
from collections import OrderedDict
from collections.abc import Mapping
from dataclasses import dataclass
from functools import cache
from urllib.parse import parse_qs, quote, unquote, urlencode

from pcfserver.console import forms, web
from pcfserver.console import secrets as console_secrets
from pcfserver.console.web import PREFIX, PageRequest, Route, Viewer
from pcfserver.engine.authority import Identity
from pcfserver.rest.app import RestApp
from pcfserver.rest.auth import ADMIN, ADMIN_RO, USER, Principal
from pcfserver.rest.http import Request, Response, cookie

CSRF_FIELD = "csrf"
# Every change form carries a token of its own page (web.page): the same form sent a second time (the page reloaded
# after its POST, or resent from the browser's history) is refused and nothing runs again, so a reload never gets a
# second message, puts one twice or repeats a command; sent with a field changed it is a new request.  The tokens last
# for the process; this many are kept.
ONCE_FIELD = "once"
ONCE_KEPT = 50_000
CSRF_HEADER = "ibm-mq-csrf-token"
ANONYMOUS_COOKIE = "pcfconsole"
STATIC = web.ROOT / "static"
_ALL_ROLES = frozenset((ADMIN, USER))


@dataclass(frozen=True, slots=True)
class ConsoleRouted:
    """A page for the shell to run inside one engine operation."""

    route: Route
    request: PageRequest
    viewer: Viewer
    identity: Identity | None  # administrative commands run as this (None: the server's own authority)
    messaging: Identity | None  # messages are read and put as this (None: the server's own authority)
    cookies: tuple[tuple[str, str], ...] = ()  # Set-Cookie headers the answer must carry


class ConsoleApp:
    def __init__(self, rest: RestApp) -> None:
        self.rest = rest
        self.auth = rest.auth
        self._key = os.urandom(32)
        from pcfserver.console import pages  # registers the routes

        self.routes = pages.routes()
        self._sent: OrderedDict[str, bytes] = OrderedDict()  # the once tokens used (with their forms' digests), oldest first

    # -- the request ---------------------------------------------------------------------------

    def handle(self, request: Request, peer: str, certificate_user: str | None = None) -> Response | ConsoleRouted:
        raw = request.path[len(PREFIX):] or "/"  # routes match the path as sent: a name's own "/" arrives as %2F
        path = unquote(raw)
        if path.startswith("/static/"):
            return _static(path[len("/static/"):], request.method)
        if path == "/":
            return web.redirect("/overview")
        if path == "/login":
            return self._login(request, peer)
        principal = self.auth.authenticate(request, peer, certificate_user)
        if isinstance(principal, Response):
            if principal.status == 401 and self.auth.required:
                if request.method == "POST":
                    # a form sent after the session ended: nothing runs; sign-in leads back to the page filled in again
                    target = request.path + _prefill(request)
                    return web.redirect("/login?" + urlencode({"next": target, "expired": "1"}))
                target = request.path + ("?" + request.query if request.query else "")
                return web.redirect("/login?" + "next=" + quote(target, safe=""))
            return principal
        anonymous_cookie: tuple[tuple[str, str], ...] = ()
        session_key = self.auth.token_of(request) if principal is not None else cookie(request, ANONYMOUS_COOKIE)
        if session_key is None:
            session_key = secrets.token_urlsafe(24)
            anonymous_cookie = (("Set-Cookie", f"{ANONYMOUS_COOKIE}={session_key}; Path={PREFIX}; HttpOnly; SameSite=Strict" + ("; Secure" if request.secure else "")),)
        viewer = self._viewer(principal, session_key)
        if path == "/logout":
            if request.method != "POST":
                return web.html("", 405, (("Allow", "POST"),))
            if not self._csrf_ok(request, viewer, web.parse_form(request.body, request.header("content-type"))[0]):
                return _refused(viewer, "The request did not carry this page's CSRF token.")
            ended = self.auth.logout(request)  # the token ends; its answer clears the cookie
            return web.redirect("/login", tuple((k, v) for k, v in ended.headers if k == "Set-Cookie"))
        # HEAD is GET whose body the HTTP shell leaves out (the head, Content-Length included, stays GET's).
        method = "GET" if request.method == "HEAD" else request.method
        for route in self.routes:
            match = route.pattern.fullmatch(raw)
            if match is None:
                continue
            if route.method != method:
                continue
            form, files = web.parse_form(request.body, request.header("content-type")) if request.body else ({}, {})
            refusal = ""
            displays = route.displays is not None and route.displays(form)
            if route.changes:
                if not self._csrf_ok(request, viewer, form):
                    return _refused(viewer, "The request did not carry this page's CSRF token.")
                if not viewer.can_change and not displays and not (route.messaging and viewer.can_browse and request.method == "GET"):
                    text = f"User {viewer.user} has the role MQWebAdminRO, which may display and browse but not change anything."
                    if route.displays is None:
                        return _refused(viewer, text)
                    refusal = text  # (the MQSC box keeps the script and says so on its own page; nothing runs)
                if method == "POST" and not displays and self._sent_before((form.get(ONCE_FIELD) or [""])[0], form):
                    return web.page(viewer, "message.html", 409, title="Already done", link=request.path, text=(
                        "This form was sent already (the page was reloaded, or sent again from the browser's history), so it was not "
                        "run a second time."
                    ))
            page_request = PageRequest(
                method, path, tuple(unquote(group) if group is not None else "" for group in match.groups()), parse_qs(request.query, keep_blank_values=True), form, files,
                hx=request.header("hx-request") == "true", refused=refusal,
            )
            identity, messaging = _identities(principal, route.changes and not displays and not refusal)
            return ConsoleRouted(route, page_request, viewer, identity, messaging, anonymous_cookie)
        if any(route.pattern.fullmatch(raw) for route in self.routes):
            return web.html("", 405)
        return web.page(viewer, "message.html", 404, title="Not found", text=f"There is no console page {path}.")

    # -- sign in and out -----------------------------------------------------------------------

    def _login(self, request: Request, peer: str) -> Response:
        query = parse_qs(request.query)
        target = (query.get("next") or [PREFIX + "/overview"])[0]
        if not target.startswith(PREFIX + "/") or target.startswith(PREFIX + "/login"):
            target = PREFIX + "/overview"
        guest = Viewer("", frozenset(), False, False, "", authenticated=False)
        expired = "Your session had ended, so what you sent was not run. Sign in again: the page opens again with what you typed." if query.get("expired") else ""
        if not self.auth.required:
            return web.page(guest, "login.html", next=target, failed="", open_access=True, username="", expired="")
        if request.method == "GET":
            return web.page(guest, "login.html", next=target, failed="", open_access=False, username="", expired=expired)
        if request.method != "POST":
            return web.html("", 405, (("Allow", "GET, POST"),))
        form, _ = web.parse_form(request.body, request.header("content-type"))
        name, password = (form.get("username") or [""])[0], (form.get("password") or [""])[0]
        target = (form.get("next") or [target])[0]
        if not target.startswith(PREFIX + "/") or target.startswith(PREFIX + "/login"):
            target = PREFIX + "/overview"
        user = self.auth.check_password(name, password, peer)
        if isinstance(user, Response):
            text = "Too many failed sign-ins from this address; try again later." if user.status == 429 or b"throttl" in user.body.lower() else (
                "The user name or password is not correct."
            )
            return web.page(guest, "login.html", 401, next=target, failed=text, open_access=False, username=name, expired="")
        token = self.auth.issue(user, peer, secure=request.secure)
        return web.redirect(target, (("Set-Cookie", self.auth.cookie(token, request.secure)),))

    # -- who may do what -------------------------------------------------------------------------

    def _viewer(self, principal: Principal | None, session_key: str) -> Viewer:
        csrf = hmac.new(self._key, session_key.encode(), hashlib.sha256).hexdigest()
        if principal is None:
            return Viewer("", _ALL_ROLES, True, True, csrf, authenticated=False)
        roles = frozenset(principal.user.roles)
        can_change = bool(roles & {ADMIN, USER})
        return Viewer(principal.user.name, roles, can_change, bool(roles & {ADMIN, ADMIN_RO, USER}), csrf)

    def _sent_before(self, once: str, form: Mapping[str, list[str]]) -> bool:
        """Whether this very form (its one-time token, with the same fields) was sent already; if not, it is noted now.  The
        same page sent with other fields (back, a field changed, sent again) is a new request and runs; a form without a
        token is never refused."""
        if not once:
            return False
        content = hashlib.sha256(repr(sorted((k, v) for k, v in form.items() if k not in (ONCE_FIELD, CSRF_FIELD))).encode()).digest()
        if self._sent.get(once) == content:
            return True
        self._sent[once] = content
        self._sent.move_to_end(once)
        if len(self._sent) > ONCE_KEPT:
            self._sent.popitem(last=False)
        return False

    @staticmethod
    def _csrf_ok(request: Request, viewer: Viewer, form: Mapping[str, list[str]]) -> bool:
        """The page's token, in the header IBM's console uses or in the form (already parsed: an upload is read once)."""
        given = request.header(CSRF_HEADER)
        if given is None:
            values = form.get(CSRF_FIELD)
            given = values[0] if values else None
        return given is not None and hmac.compare_digest(given.encode(), viewer.csrf.encode())


def _identities(principal: Principal | None, changes: bool) -> tuple[Identity | None, Identity | None]:
    """The administrative and messaging identities of a page: MQWebAdmin works as the server (IBM's console runs
    as the user that started mqweb), MQWebAdminRO as a read-only administrator, MQWebUser under its own authority."""
    if principal is None:
        return None, None
    roles = principal.user.roles
    admin = principal.admin_identity(changes)
    if ADMIN in roles:
        return admin, None
    own = Identity(principal.user.name, principal.user.groups, read_only=USER not in roles)
    return admin, own


def _refused(viewer: Viewer, text: str) -> Response:
    return web.page(viewer, "message.html", 403, title="Not allowed", text=text)


@cache
def _asset(name: str) -> tuple[bytes, str] | None:
    path = (STATIC / name).resolve()
    if not path.is_relative_to(STATIC.resolve()) or not path.is_file():
        return None
    kind = mimetypes.guess_type(path.name)[0] or "application/octet-stream"
    if kind.startswith("text/") or kind in ("application/javascript", "text/javascript"):
        kind += "; charset=utf-8"
    return path.read_bytes(), kind


def _static(name: str, method: str) -> Response:
    if method not in ("GET", "HEAD"):
        return Response(405, (("Allow", "GET, HEAD"), *web.SECURITY_HEADERS))
    found = _asset(name)
    if found is None:
        return Response(404, web.SECURITY_HEADERS)
    body, kind = found
    return Response(200, (("Content-Type", kind), ("Cache-Control", "max-age=3600"), *web.SECURITY_HEADERS), body)  # (HEAD: the shell sends no body)


_NOT_KEPT = frozenset(("csrf", "once", "action", "step"))
_PREFILL_LIMIT = 4000  # characters of what was typed carried through the sign-in (a URL, so bounded)


def _prefill(request: Request) -> str:
    """The query that fills a form again with what a POST carried (its token fields, files and passwords left out: a
    URL ends up in logs and history), or "" when there is nothing or too much."""
    form, _ = web.parse_form(request.body, request.header("content-type"))
    secret = {forms.FIELD_PREFIX + keyword for keyword in console_secrets.keywords()}
    kept = [(key, values[0]) for key, values in form.items() if values and key not in _NOT_KEPT and key not in secret]
    if form.get("action") == ["ALTER"]:
        kept.append(("edit", "1"))  # an object's alter form
    query = urlencode(kept)
    return "?" + query if kept and len(query) <= _PREFILL_LIMIT else ""
