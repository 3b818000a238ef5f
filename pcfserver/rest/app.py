"""The REST application: authentication, then the administrative or the messaging API (sans-IO).

``RestApp.handle(request, peer)`` answers at once (a :class:`Response`: an error, the login
resource, the queue manager's description) or hands the shell a :class:`Routed` operation and
the identity it must run under (None: the server's own authority).  Every listener (HTTP and
HTTPS) shares one ``RestApp``, so a login token from one port works on the other and failed
logins are counted across both.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from pcfserver.engine.authority import Identity
from pcfserver.rest.admin import AdminApi, AdminOperation
from pcfserver.rest.auth import TOKEN_LIFETIME, Authenticator
from pcfserver.rest.http import CSRF_HEADER, Request, Response, error
from pcfserver.rest.messaging import MessagingApi, Operation, Publication
from pcfserver.users import UserStore

_LOGIN = re.compile(r"/ibmmq/rest/v[123]/login")
_ROLE_NEEDED = {"messaging": "MQWebUser", "browse": "MQWebAdminRO or MQWebUser"}


@dataclass(frozen=True, slots=True)
class Routed:
    """An operation for the shell to run, under ``identity``, for ``user`` (empty when no one signed in)."""

    operation: Operation | Publication | AdminOperation
    identity: Identity | None
    user: str = ""


class RestApp:
    def __init__(
        self,
        qmgr_name: str,
        users: UserStore | None,
        clock: Callable[[], float],
        *,
        token_lifetime: float = TOKEN_LIFETIME,
        gateway_default: bool = False,
    ) -> None:
        self.admin = AdminApi(qmgr_name, gateway_default=gateway_default)
        self.messaging = MessagingApi(qmgr_name)
        self.auth = Authenticator(users, clock, token_lifetime=token_lifetime)

    def handle(self, request: Request, peer: str, certificate_user: str | None = None) -> Response | Routed:
        path, method = request.path, request.method
        login = _LOGIN.fullmatch(path) is not None
        if login:
            if method == "POST":
                return self.auth.login(request, peer)
            if method not in ("GET", "DELETE"):
                return error("method_not_allowed", method, path, extra=(("Allow", "DELETE, GET, POST"),))
        principal = self.auth.authenticate(request, peer, certificate_user)
        if isinstance(principal, Response):
            return principal
        if login:
            if method == "GET":
                return self.auth.whoami(principal)
            if request.header(CSRF_HEADER) is None:  # IBM's DELETE /login: 401 when the CSRF header is missing
                return error("not_authenticated", extra=(("WWW-Authenticate", 'Basic realm="pcfserver"'),))
            return self.auth.logout(request)
        if self.admin.matches(path):
            answer = self.admin.handle(request)
            if isinstance(answer, Response):
                return answer
            identity = principal.admin_identity(answer.changes) if principal is not None else None
            return Routed(answer, identity, principal.user.name if principal else "")
        answer_m = self.messaging.handle(request)
        if isinstance(answer_m, Response):
            return answer_m
        if principal is None:
            return Routed(answer_m, None)
        browse_only = method == "GET"
        identity = principal.messaging_identity(browse_only)
        if identity is None:
            needed = _ROLE_NEEDED["browse" if browse_only else "messaging"]
            return error("forbidden", principal.user.name, needed, explanation=(needed, " ".join(sorted(principal.user.roles))))
        return Routed(answer_m, identity, principal.user.name)
