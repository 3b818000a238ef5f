"""Connections: DISPLAY CONN's answer as a table (a column per keyword of conn-attributes.tsv, CONN as runmqsc shows
it; EXTCONN, the same for every connection of this queue manager, once above the table), each, for a user who may
change things, with a Stop button that runs STOP CONN (not on the queue manager's own connections, APPLTYPE(SYSTEM)),
as RabbitMQ's management UI lists connections with "Force close".

The list is the Inquire Connection the viewer's identity may run (display authority on the queue manager); the stop is
the MQSC command, checked again by the engine.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pcfserver import mq
from pcfserver.codec import ByteString, IntegerList, Message
from pcfserver.console.commands import Ran, run_mqsc
from pcfserver.console.web import ConsoleContext, PageRequest, page, route
from pcfserver.dialects.keywords import connection_parts, keyword_values
from pcfserver.dialects.outcome import failure
from pcfserver.dialects.tables import object_attributes
from pcfserver.rest.http import Response

_HEX = re.compile(r"[0-9A-Fa-f]{16}")
_SYSTEM = "SYSTEM"
# The columns, in conn-attributes.tsv's order: what tells connections apart and what an administrator looks for
# (a long unit of work); DISPLAY CONN(c) ALL in the MQSC page shows the rest.
_COLUMNS = frozenset(("CONN", "TYPE", "PID", "APPLTAG", "APPLTYPE", "CHANNEL", "CONNAME", "USERID", "UOWSTATE"))


@dataclass(frozen=True, slots=True)
class ConnectionRow:
    conn: str
    cells: tuple[str, ...]
    stoppable: bool


@dataclass(frozen=True, slots=True)
class ConnectionTable:
    headers: tuple[str, ...]
    rows: tuple[ConnectionRow, ...]
    allowed: bool  # whether the viewer may display connections at all
    extconn: str  # this queue manager's prefix of every ConnectionId


def connection_table(ctx: ConsoleContext) -> ConnectionTable:
    inquiry = Message(mq.MQCMD_INQUIRE_CONNECTION, (ByteString(mq.MQBACF_GENERIC_CONNECTION_ID, b""), IntegerList(mq.MQIACF_CONNECTION_ATTRS, (mq.MQIACF_ALL,))))
    answer = ctx.execute(inquiry)
    failed = failure(answer)
    headers = tuple(a.keyword("mqsc") for a in object_attributes("conn") if a.keyword("mqsc") in _COLUMNS)
    extconn = connection_parts(ctx.engine.operations.connection_id(0))[1]
    if failed is not None and failed.reason != mq.MQRCCF_NONE_FOUND:
        return ConnectionTable(headers, (), False, extconn)
    rows = []
    for response in answer if failed is None else ():
        values = keyword_values(response.parameters, table="conn")
        cells = tuple(str(values.get(h.lower(), "")) for h in headers)
        rows.append(ConnectionRow(str(values.get("conn", "")), cells, values.get("appltype") != _SYSTEM))
    return ConnectionTable(headers, tuple(rows), True, extconn)


def _page(ctx: ConsoleContext, status: int = 200, ran: Ran | None = None) -> Response:
    return page(ctx, "connections.html", status, title="Connections", table=connection_table(ctx), ran=ran, request_path="/connections")


@route("GET", r"/connections")
def connections(ctx: ConsoleContext, request: PageRequest) -> Response:
    return _page(ctx)


@route("POST", r"/connections/stop")
def stop(ctx: ConsoleContext, request: PageRequest) -> Response:
    conn = request.field("conn")
    if not _HEX.fullmatch(conn):
        return _page(ctx, 422, Ran(f"STOP CONN({conn})", False, ("CONN must be the 16 hexadecimal digits DISPLAY CONN shows.",)))
    ran = run_mqsc(ctx, f"STOP CONN({conn.upper()})")
    return _page(ctx, 200 if ran.ok else 422, ran)
