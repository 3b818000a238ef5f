"""Who is asking, and with what authority (no sockets; the clocks are parameters, the users and
login tokens are the data directory's ``UserStore``).

Authentication, as mqweb does it: HTTP basic authentication, or the ``LtpaToken2`` cookie that
``POST /ibmmq/rest/v…/login`` sets (``DELETE`` of the same resource ends it, ``GET`` says who is
logged in), or a TLS client certificate whose subject CN names a user.  With no users in the
data directory the REST API is open, as it was before users existed (the server then listens
on loopback only unless told ``--insecure``); once one user exists, every request must
authenticate.

Roles (``formats/rest-roles.tsv``): MQWebAdmin administers under the server's own authority and
has no messaging access; MQWebAdminRO displays and browses, under the server's authority;
MQWebUser administers and uses the messaging API under its own authority records.  With several
roles, the one that allows the operation with the most authority is used.

Failed logins (wrong password, basic or ``/login``) are counted per client address: past
``max_failures`` within ``window`` seconds, the address gets 401 without any password being
checked until the window passes.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
import os
import secrets
import time
from collections import deque
from collections.abc import Callable
from dataclasses import dataclass, field

from pcfserver.engine.authority import Identity
from pcfserver.rest.http import Request, Response, cookie, error, json_response
from pcfserver.users import User, UserStore

log = logging.getLogger("pcfserver.auth")
COOKIE = "LtpaToken2"
ADMIN, ADMIN_RO, USER = "MQWebAdmin", "MQWebAdminRO", "MQWebUser"
TOKEN_LIFETIME = 7200.0  # mqweb's default LTPA expiry: 120 minutes
_CACHE_LIMIT = 4096


@dataclass(frozen=True, slots=True)
class Principal:
    """An authenticated user and how they proved it (basic, token or certificate)."""

    user: User
    method: str

    def admin_identity(self, changes: bool) -> Identity | None:
        """The identity an administrative request runs under (None: the server's own authority);
        ``changes``: whether the request may change something (else it only displays)."""
        roles = self.user.roles
        if ADMIN in roles:
            return None
        if USER in roles and (changes or ADMIN_RO not in roles):
            return Identity(self.user.name, self.user.groups)
        return Identity(self.user.name, self.user.groups, read_only=True)

    def messaging_identity(self, browse_only: bool) -> Identity | None:
        """The identity a messaging request runs under; None when no role allows it."""
        roles = self.user.roles
        if USER in roles:
            return Identity(self.user.name, self.user.groups)
        if ADMIN_RO in roles and browse_only:
            return Identity(self.user.name, self.user.groups, read_only=True)
        return None


@dataclass(slots=True)
class _Token:
    user: str
    expires: float


# The mark of a token issued over HTTPS (token_urlsafe never writes a period).
SECURE_TOKEN = "s."


@dataclass(slots=True)
class Authenticator:
    """Checks credentials against the users of a data directory, whose store also keeps the login
    tokens (so a token outlives a restart until it expires, and so does a logout); the tokens
    seen are also held in memory.  ``clock`` times the login throttle; ``wall`` (Unix time)
    the tokens, whose ends must mean the same after a restart."""

    users: UserStore | None
    clock: Callable[[], float]
    token_lifetime: float = TOKEN_LIFETIME
    wall: Callable[[], float] = time.time
    max_failures: int = 5
    window: float = 60.0
    _tokens: dict[str, _Token] = field(default_factory=dict)
    _failures: dict[str, deque[float]] = field(default_factory=dict)
    _checked: dict[tuple[str, bytes], int] = field(default_factory=dict)
    _key: bytes = field(default_factory=lambda: os.urandom(32))

    @property
    def required(self) -> bool:
        """Whether requests must authenticate (some user exists); reads the users again if they changed."""
        if self.users is None:
            return False
        self.users.refresh()
        return not self.users.empty

    # -- throttling -------------------------------------------------------------------------

    def _throttled(self, peer: str) -> float:
        """Seconds until ``peer`` may try a password again (0: now)."""
        now = self.clock()
        times = self._failures.get(peer)
        if not times:
            return 0.0
        while times and times[0] <= now - self.window:
            times.popleft()
        if not times:
            del self._failures[peer]
            return 0.0
        return times[0] + self.window - now if len(times) >= self.max_failures else 0.0

    def _failed(self, peer: str, name: str, how: str) -> None:
        self._failures.setdefault(peer, deque()).append(self.clock())
        log.warning("failed %s login for %r from %s", how, name, peer, extra={"event": "login_failed", "peer": peer})

    def _password_user(self, name: str, password: str, peer: str, how: str) -> User | Response:
        wait = self._throttled(peer)
        if wait:
            log.warning("login for %r from %s refused: too many failures", name, peer, extra={"event": "login_throttled", "peer": peer})
            return error("login_throttled", peer, int(wait) + 1)
        assert self.users is not None
        generation = self.users.generation
        key = (name, hmac.digest(self._key, password.encode("utf-8"), hashlib.sha256))
        if self._checked.get(key) == generation:
            user = self.users.get(name, refresh=False)
            if user is not None:
                return user
        user = self.users.verify(name, password)
        if user is None:
            self._failed(peer, name, how)
            return error("login_refused" if how == "login" else "not_authenticated")
        if len(self._checked) >= _CACHE_LIMIT:
            self._checked.clear()
        self._checked[key] = generation
        return user

    # -- requests ---------------------------------------------------------------------------

    def authenticate(self, request: Request, peer: str, certificate_user: str | None = None) -> Principal | Response | None:
        """The request's principal; None when authentication is off; a 401 Response when it fails."""
        if not self.required:
            return None
        assert self.users is not None
        if certificate_user is not None:
            user = self.users.get(certificate_user, refresh=False)
            if user is not None:
                return Principal(user, "certificate")
        authorization = request.header("authorization")
        if authorization is not None:
            scheme, _, value = authorization.partition(" ")
            if scheme.lower() == "basic":
                try:
                    name, sep, password = base64.b64decode(value.strip(), validate=True).decode("utf-8").partition(":")
                except (ValueError, UnicodeDecodeError):
                    return error("not_authenticated")
                if not sep:
                    return error("not_authenticated")
                found = self._password_user(name, password, peer, "basic")
                return found if isinstance(found, Response) else Principal(found, "basic")
        token = self._cookie(request)
        if token is not None and token.startswith(SECURE_TOKEN) and not request.secure:
            # issued over HTTPS, presented over HTTP: refused, as mqweb's default secureLTPA (rest-admin.tsv ltpa_over_http)
            return error("not_authenticated", extra=(("WWW-Authenticate", 'Basic realm="pcfserver"'),))
        if token is not None:
            entry = self._tokens.get(token)
            if entry is None:  # made before a restart, or not a token at all
                stored = self.users.token(token)
                if stored is not None:
                    entry = self._tokens[token] = _Token(*stored)
            if entry is not None and entry.expires > self.wall():
                user = self.users.get(entry.user, refresh=False)
                if user is not None:
                    return Principal(user, "token")
            self._tokens.pop(token, None)
        return error("not_authenticated", extra=(("WWW-Authenticate", 'Basic realm="pcfserver"'),))

    @staticmethod
    def _cookie(request: Request) -> str | None:
        return cookie(request, COOKIE, prefix=True)

    def login(self, request: Request, peer: str) -> Response:
        """``POST /login``: 204 with the token cookie, 400 for a body that is not the JSON IBM documents, 401 for bad credentials."""
        try:
            body = json.loads(request.body.decode("utf-8"))
        except (UnicodeDecodeError, ValueError) as exc:
            return error("bad_json", exc)
        if not isinstance(body, dict) or not isinstance(body.get("username"), str) or not isinstance(body.get("password"), str):
            return error("bad_attribute", "username/password", "both are required strings")
        if self.users is None:
            return error("login_refused")
        found = self._password_user(body["username"], body["password"], peer, "login")
        if isinstance(found, Response):
            return found
        return Response(204, (("Set-Cookie", self.cookie(self.issue(found, peer, secure=request.secure), request.secure)),))

    def issue(self, user: User, peer: str, *, secure: bool = False) -> str:
        """A new login token for ``user`` (durable before it is handed out); ``secure``: asked for over HTTPS, so
        only HTTPS requests may present it."""
        assert self.users is not None
        self._expire()
        token = (SECURE_TOKEN if secure else "") + secrets.token_urlsafe(32)
        now = self.wall()
        self.users.add_token(token, user.name, now + self.token_lifetime, now)  # durable before the answer
        self._tokens[token] = _Token(user.name, now + self.token_lifetime)
        log.info("user %s logged in from %s", user.name, peer, extra={"event": "login", "peer": peer})
        return token

    def check_password(self, name: str, password: str, peer: str) -> User | Response:
        """A user named and proved by a login form (the web console's), throttled as every password is."""
        if self.users is None:
            return error("login_refused")
        return self._password_user(name, password, peer, "login")

    def cookie(self, token: str, secure: bool) -> str:
        """The Set-Cookie value that carries a login token: HttpOnly, SameSite=Strict, Secure on HTTPS."""
        flags = "; Secure" if secure else ""
        return f"{COOKIE}={token}; Path=/; HttpOnly{flags}; SameSite=Strict; Max-Age={int(self.token_lifetime)}"

    @staticmethod
    def token_of(request: Request) -> str | None:
        """The login token a request's cookie carries, if any."""
        return Authenticator._cookie(request)

    def logout(self, request: Request) -> Response:
        """``DELETE /login``: the token ends; the cookie is cleared."""
        token = self._cookie(request)
        if token is not None:
            self._tokens.pop(token, None)
            if self.users is not None:
                self.users.remove_token(token)
        return Response(204, (("Set-Cookie", f"{COOKIE}=; Path=/; HttpOnly; Max-Age=0"),))

    @staticmethod
    def whoami(principal: Principal | None) -> Response:
        """``GET /login``: the user, how they authenticated and their roles (IBM's shape)."""
        if principal is None:
            body: dict[str, object] = {"user": [{"name": "", "role": [ADMIN], "authenticationMechanism": "noSecurity"}]}
        else:
            # IBM's words (GET /login, 9.0): form (the token a login gave), basic, clientCertificate, noSecurity
            mechanism = {"basic": "basic", "token": "form", "certificate": "clientCertificate"}[principal.method]
            body = {"user": [{"name": principal.user.name, "role": sorted(principal.user.roles), "authenticationMechanism": mechanism}]}
        return json_response(200, body)

    def _expire(self) -> None:
        now = self.wall()
        for token in [t for t, e in self._tokens.items() if e.expires <= now]:
            del self._tokens[token]
