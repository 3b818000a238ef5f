"""How the CLI's REST commands reach a server: address, TLS and credentials, as a curl user gives them.

Every command that talks HTTP(S) (``put``, ``get``, ``browse``, ``console --rest``, ``conformance
--rest``) takes the same options::

    --user NAME            HTTP basic authentication as NAME (default: $PCFSERVER_USER, else none)
    --password-stdin       the password is the first line of standard input
                           (else $PCFSERVER_PASSWORD, else a prompt at the terminal)
    --https                HTTPS (a URL beginning https:// says so too)
    --cafile FILE          trust the CA certificates in FILE (default: the system's)
    --insecure             do not verify the server's certificate
    --cert FILE [--key FILE]  present a client certificate (the server maps its CN to a user)

The password is never an option's value, so it shows in no process list or shell history.
Credentials go as HTTP basic authentication on every request, as curl ``-u`` sends them (the
server keeps a verified password in memory, so this costs one hash per run, not per request).
Every failure is a :class:`RestFailure` whose text says what to change: a wrong password, a
certificate that does not verify, an HTTP port spoken to in TLS, a server that is not there.
"""

from __future__ import annotations

import argparse
import base64
import getpass
import http.client
import ipaddress
import json
import os
import ssl
import sys
from collections.abc import Callable
from dataclasses import dataclass
from typing import TextIO
from urllib.parse import urlsplit

USER_ENV = "PCFSERVER_USER"
PASSWORD_ENV = "PCFSERVER_PASSWORD"
HTTP_PORT = 9080  # mqweb's HTTP port
HTTPS_PORT = 9443  # mqweb's HTTPS port
CSRF_HEADER = "ibm-mq-rest-csrf-token"


class RestFailure(Exception):
    """The server refused a request (its error JSON's message) or could not be reached."""


class OptionError(Exception):
    """Options that do not go together (exit status 2)."""


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> object:
        return json.loads(self.body)


def add_options(parser: argparse.ArgumentParser | argparse._ArgumentGroup, *, address: bool = True) -> None:
    """The connection options; ``address``: also --host, --port and --url (console has --rest URL instead)."""
    if address:
        parser.add_argument("--host", default="127.0.0.1", help="server address (default 127.0.0.1)")
        parser.add_argument(
            "--port", type=int, default=None,
            help=f"the server's HTTP port, serve --http-port (default {HTTP_PORT}; with --https, serve --https-port, default {HTTPS_PORT})",
        )
        parser.add_argument("--url", metavar="URL", help="the server as a URL instead of --host/--port/--https (https://mq.example.com:9443)")
    parser.add_argument("--user", default=None, metavar="NAME", help=f"authenticate as this user (default ${USER_ENV}, else no authentication)")
    parser.add_argument(
        "--password-stdin", action="store_true",
        help=f"read the user's password from the first line of standard input (else ${PASSWORD_ENV}, else a prompt at the terminal)",
    )
    parser.add_argument("--https", action="store_true", help="talk HTTPS (a URL beginning https:// says so too)")
    parser.add_argument("--cafile", metavar="FILE", help="trust the CA certificates in FILE (PEM), e.g. the server's DATA/server-cert.pem (default: the system's)")
    parser.add_argument("--insecure", action="store_true", help="do not verify the server's certificate (as curl --insecure)")
    parser.add_argument("--cert", metavar="FILE", help="present this client certificate (PEM; the server maps its CN to a user)")
    parser.add_argument("--key", metavar="FILE", help="the client certificate's private key (default: in --cert's file)")


@dataclass(frozen=True, slots=True)
class Endpoint:
    """Where a server is: scheme, host, port (the base URL ``https://host:port``)."""

    scheme: str
    host: str
    port: int

    @property
    def tls(self) -> bool:
        return self.scheme == "https"

    @property
    def where(self) -> str:
        host = f"[{self.host}]" if ":" in self.host else self.host
        return f"{self.scheme}://{host}:{self.port}"


def parse_url(url: str, *, https: bool = False) -> Endpoint:
    """``http://host[:port]`` or ``https://host[:port]`` (any path is ignored; the REST paths are fixed);
    a bare ``host[:port]`` is HTTP, or HTTPS with ``https``."""
    parts = urlsplit(url if "://" in url else f"{'https' if https else 'http'}://{url}")
    if parts.scheme not in ("http", "https") or not parts.hostname:
        raise OptionError(f"{url!r} is not an http:// or https:// URL")
    try:
        port = parts.port
    except ValueError:
        raise OptionError(f"{url!r}: the port is not a number from 1 to 65535") from None
    scheme = "https" if https else parts.scheme
    return Endpoint(scheme, parts.hostname, port or (HTTPS_PORT if scheme == "https" else HTTP_PORT))


def endpoint(args: argparse.Namespace, url: str | None = None) -> Endpoint:
    """The server the options name: ``url`` (or --url), else --host, --port and --https."""
    url = url or getattr(args, "url", None)
    if url:
        return parse_url(url, https=args.https)
    scheme = "https" if args.https else "http"
    return Endpoint(scheme, args.host, args.port or (HTTPS_PORT if args.https else HTTP_PORT))


def _terminal() -> bool:
    """Whether a prompt can be shown and answered (a controlling terminal, as getpass uses)."""
    try:
        fd = os.open("/dev/tty", os.O_RDWR | os.O_NOCTTY)
    except OSError:
        return sys.stdin.isatty()
    os.close(fd)
    return True


def read_password(args: argparse.Namespace, stdin: TextIO | None = None) -> str | None:
    """The password for --user: standard input's first line, $PCFSERVER_PASSWORD, or a prompt; None without a user."""
    user = user_name(args)
    if args.password_stdin:
        if user is None:
            raise OptionError(f"--password-stdin needs --user NAME (or ${USER_ENV})")
        line = (stdin or sys.stdin).readline()
        if not line:
            raise OptionError("--password-stdin: standard input is empty")
        return line.rstrip("\r\n")
    if user is None:
        return None
    from_env = os.environ.get(PASSWORD_ENV)
    if from_env is not None:
        return from_env
    if not _terminal():
        raise OptionError(f"no password for {user}: give --password-stdin, or set ${PASSWORD_ENV}, or run at a terminal to be asked")
    return getpass.getpass(f"Password for {user}: ")


def user_name(args: argparse.Namespace) -> str | None:
    return args.user if args.user is not None else (os.environ.get(USER_ENV) or None)


def ssl_context(args: argparse.Namespace) -> ssl.SSLContext:
    """The TLS context the options ask for (the system's CAs unless --cafile; no check with --insecure)."""
    try:
        context = ssl.create_default_context(cafile=args.cafile) if args.cafile else ssl.create_default_context()
    except (OSError, ssl.SSLError) as exc:
        raise OptionError(f"--cafile {args.cafile}: not a readable PEM file of CA certificates ({_reason(exc)})") from None
    if args.insecure:
        context.check_hostname = False
        context.verify_mode = ssl.CERT_NONE
    if args.cert:
        try:
            context.load_cert_chain(args.cert, args.key)
        except (OSError, ssl.SSLError) as exc:
            raise OptionError(f"--cert {args.cert}: cannot load the certificate and its key ({_reason(exc)})") from None
    elif args.key:
        raise OptionError("--key goes with --cert")
    return context


def _reason(exc: BaseException) -> str:
    if isinstance(exc, ssl.SSLError) and exc.reason:
        return str(exc.reason).replace("_", " ").lower()
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror
    return str(exc)


def _loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class Session:
    """Requests to one server over one kept-alive HTTP(S) connection, with the options' credentials."""

    def __init__(self, args: argparse.Namespace, *, url: str | None = None, timeout: float = 60.0, stdin: TextIO | None = None,
                 warn: TextIO | None = None) -> None:
        self.endpoint = endpoint(args, url)
        if (args.cafile or args.insecure or args.cert) and not self.endpoint.tls:
            raise OptionError("--cafile, --insecure and --cert are for HTTPS: add --https (or give an https:// URL)")
        context = ssl_context(args) if self.endpoint.tls else None  # a bad --cafile or --cert is said before any prompt
        self.user = user_name(args)
        password = read_password(args, stdin)
        self._headers: dict[str, str] = {}
        if self.user is not None and password is not None:
            token = base64.b64encode(f"{self.user}:{password}".encode()).decode("ascii")
            self._headers["Authorization"] = f"Basic {token}"
            if not self.endpoint.tls and not _loopback(self.endpoint.host):
                print(f"warning: sending {self.user}'s password unencrypted to {self.endpoint.where}; use --https", file=warn or sys.stderr)
        self.where = self.endpoint.where
        connection: http.client.HTTPConnection
        if context is not None:
            connection = http.client.HTTPSConnection(self.endpoint.host, self.endpoint.port, timeout=timeout, context=context)
        else:
            connection = http.client.HTTPConnection(self.endpoint.host, self.endpoint.port, timeout=timeout)
        self._connection = connection

    def request(self, method: str, path: str, *, headers: dict[str, str] | None = None, body: bytes | None = None) -> Reply:
        """One request; a 401 becomes a RestFailure that says whose credentials were refused."""
        sent = {**self._headers, **(headers or {})}
        if method in ("POST", "PUT", "PATCH", "DELETE"):
            sent.setdefault(CSRF_HEADER, "pcfserver")
        for attempt in (1, 2):
            try:
                self._connection.request(method, path, body=body, headers=sent)
                response = self._connection.getresponse()
                data = response.read()
                reply = Reply(response.status, {k.lower(): v for k, v in response.getheaders()}, data)
            except ssl.SSLCertVerificationError as exc:
                self._connection.close()
                raise RestFailure(
                    f"cannot verify the certificate of {self.where}: {exc.verify_message or _reason(exc)} "
                    "(give --cafile with the CA that signed it, or --insecure to skip the check)"
                ) from None
            except ssl.SSLError as exc:
                self._connection.close()
                hint = " (is it an HTTP port? leave out --https)" if "WRONG_VERSION_NUMBER" in str(exc) or "record layer" in str(exc) else ""
                raise RestFailure(f"TLS with {self.where} failed: {_reason(exc)}{hint}") from None
            except (http.client.RemoteDisconnected, BrokenPipeError, ConnectionResetError):
                self._connection.close()  # an idle keep-alive connection the server closed: once more
                if attempt == 2:
                    hint = "" if self.endpoint.tls else " (is it an HTTPS port? add --https)"
                    raise RestFailure(f"the server at {self.where} closed the connection{hint}") from None
                continue
            except http.client.BadStatusLine:
                self._connection.close()
                hint = "" if self.endpoint.tls else " (is it an HTTPS port? add --https)"
                raise RestFailure(f"{self.where} did not answer in HTTP{hint}") from None
            except OSError as exc:
                self._connection.close()
                raise RestFailure(f"cannot reach a pcfserver HTTP port at {self.where}: {exc.strerror or exc}") from None
            if reply.status == 401:
                raise self._unauthenticated(reply)
            return reply
        raise AssertionError("unreachable")

    def _unauthenticated(self, reply: Reply) -> RestFailure:
        text = str(failure(reply))
        if "PCFS0012E" in text:  # throttled: the message says how long to wait
            return RestFailure(text)
        if self.user is None:
            return RestFailure(f"{text} The server at {self.where} requires a user: give --user NAME")
        return RestFailure(f"the server at {self.where} refused the user name or password of {self.user}: {text}")

    def close(self) -> None:
        self._connection.close()


def failure(reply: Reply) -> RestFailure:
    """The error JSON's message (IBM's msgId and text), or the bare status."""
    try:
        item = json.loads(reply.body)["error"][0]
        text = str(item["message"])
        if "reasonCode" in item:
            explanation = str(item.get("explanation", ""))
            text += " " + explanation if str(item["reasonCode"]) in explanation else f" (reason {item['reasonCode']})"
        return RestFailure(text)
    except (ValueError, KeyError, IndexError, TypeError):
        return RestFailure(f"HTTP status {reply.status}")


def run_command(name: str, args: argparse.Namespace, action: Callable[[Session], int], check: Callable[[], None] | None = None) -> int:
    """A CLI command over the REST API: its session opened from ``args`` (after ``check``, which may raise
    OptionError), ``action`` run on it, the session closed.  Exit status 2 for a usage error, 1 when the server
    refused a request, else ``action``'s."""
    try:
        if args.password_stdin and getattr(args, "file", None) == "-":
            raise OptionError("--password-stdin and messages from standard input (-) cannot share it: set $PCFSERVER_PASSWORD or give a FILE")
        if check is not None:
            check()
        session = Session(args, timeout=60.0 + max(getattr(args, "wait", 0.0), 0.0))  # a waiting get answers after its wait
    except OptionError as exc:
        print(f"pcfserver {name}: {exc}", file=sys.stderr)
        return 2
    try:
        return action(session)
    except RestFailure as exc:
        print(f"pcfserver {name}: {exc}", file=sys.stderr)
        return 1
    finally:
        session.close()
